"""The int8 models read alike on every CPU: where onnxruntime's int8 products saturate (x86 without VNNI), the
reader's sessions have them summed exactly (`vision.reader.session.int8_products_saturate`).

The reference is onnxruntime with its int8 fusion off (`session.disable_quant_qdq`): each quantised node runs as
dequantise → float kernel → quantise, the arithmetic the int8 kernels stand for, whatever the CPU.
"""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

from vision.reader import session as reader_session
from vision.reader.classifier import crop_tile, softmax, to_blob
from vision.reader.detection import CLASS_NAMES
from vision.reader.detector import DEFAULT_CLASSIFIER, DEFAULT_MODEL
from vision.reader.image import letterbox_pixels
from vision.reader.session import EXACT_INT8_ENTRY, INT8_PROBE, PROBE_EXACT, session_options


def _session(path, reference: bool = False) -> ort.InferenceSession:
    """A session as the reader opens one; `reference`: with the int8 fusion off."""
    opts = session_options()
    if reference:
        opts.add_session_config_entry("session.disable_quant_qdq", "1")
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


@pytest.fixture(scope="module")
def every_tile():
    """A rendered photo of the 34 tiles and a back, in rows."""
    from vision.training.synth import render_layout

    rows = [list(CLASS_NAMES[i:i + 9]) for i in range(0, len(CLASS_NAMES), 9)] + [["back"]]
    return render_layout(rows, tile_height=80, background=(40, 110, 60))


def test_the_shipped_probe_is_the_graph_the_builder_writes(tmp_path) -> None:
    from vision.training.int8_probe import write_probe

    assert write_probe(tmp_path / "probe.onnx").read_bytes() == INT8_PROBE.read_bytes()


def test_the_probe_reads_its_exact_sum_in_a_readers_session() -> None:
    session = ort.InferenceSession(INT8_PROBE.read_bytes(), session_options(), providers=["CPUExecutionProvider"])
    pixels = np.full((1, reader_session.PROBE_CHANNELS, 1, 1), 255, np.uint8)
    assert int(session.run(None, {reader_session.PROBE_INPUT: pixels})[0].ravel()[0]) == PROBE_EXACT


def _asks_exact_sums(opts: ort.SessionOptions) -> bool:
    try:
        return opts.get_session_config_entry(EXACT_INT8_ENTRY) == "1"
    except RuntimeError:  # onnxruntime's answer for an entry never set
        return False


def test_exact_sums_are_asked_for_only_where_the_products_saturate() -> None:
    saturates = reader_session._probe_reads(exact=False) != PROBE_EXACT
    assert reader_session.int8_products_saturate() == saturates
    assert _asks_exact_sums(session_options()) == saturates
    assert _asks_exact_sums(session_options(exact_int8=True))
    assert not _asks_exact_sums(session_options(exact_int8=False))
    assert reader_session._probe_reads(exact=True) == PROBE_EXACT  # the entry sums exactly on any machine


def test_a_probe_that_cannot_be_run_counts_as_saturating(monkeypatch) -> None:
    reader_session.int8_products_saturate.cache_clear()
    monkeypatch.setattr(reader_session, "INT8_PROBE", INT8_PROBE.with_name("no-such-probe.onnx"))
    try:
        assert reader_session.int8_products_saturate()
    finally:
        reader_session.int8_products_saturate.cache_clear()


def test_the_shipped_classifier_names_every_tile_as_exact_int8_arithmetic_does(every_tile) -> None:
    crops = to_blob(np.stack([crop_tile(every_tile.image, t.box) for t in every_tile.tiles]))
    read = softmax(_session(DEFAULT_CLASSIFIER).run(None, {"crops": crops})[0])
    exact = softmax(_session(DEFAULT_CLASSIFIER, reference=True).run(None, {"crops": crops})[0])
    assert (read.argmax(axis=1) == exact.argmax(axis=1)).all()
    assert np.abs(read - exact).max() < 0.05  # saturating products: 0.80 apart, one tile of 35 named otherwise


def test_the_shipped_detector_scores_boxes_as_exact_int8_arithmetic_does(every_tile) -> None:
    pixels, _ = letterbox_pixels(every_tile.image, 416)
    read, exact = (s.run(None, {s.get_inputs()[0].name: pixels})[0]
                   for s in (_session(DEFAULT_MODEL), _session(DEFAULT_MODEL, reference=True)))
    assert np.abs(read[:, 4:] - exact[:, 4:]).max() < 0.1  # saturating products: scores 0.42 apart
