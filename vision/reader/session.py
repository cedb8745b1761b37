"""Where the models are and how they are opened: the one model-folder lookup (`models_dir`) and one way
to open an ONNX model with onnxruntime (CPU, one thread per physical core, short spins), shared by the detector and the classifier.
"""

from __future__ import annotations

import functools
import os
from importlib import resources
from pathlib import Path
from typing import Any

from vision.reader.image import DetectorError

#: Environment variable naming another model folder (`jingsuan app --models DIR` sets it for the app's pages).
MODEL_DIR_ENV = "JINGSUAN_MODEL_DIR"
#: The detector and the crop classifier, as a model folder holds them.
DETECTOR_FILE = "tiles.onnx"
CLASSIFIER_FILE = "tile_classifier.onnx"
#: The models folder of a checkout; `vision/models` links to it, and the wheel ships its run-time files
#: there as package data (pyproject.toml).
CHECKOUT_MODELS = Path(__file__).resolve().parents[2] / "models"


def shipped_models_dir() -> Path:
    """The models that came with the code: `vision/models` (package data of the wheel, a link to `models/`
    in a checkout), else the checkout's `models/` (a checkout without links, e.g. on Windows)."""
    packaged = resources.files("vision") / "models"
    if packaged.is_dir():
        return Path(str(packaged)).resolve()
    return CHECKOUT_MODELS


def models_dir(explicit: str | Path | None = None) -> Path:
    """The model folder to read with: the argument, else `JINGSUAN_MODEL_DIR`, else the shipped models."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(MODEL_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return shipped_models_dir()


#: onnxruntime's worker threads may spin (busy-wait) between the graph's nodes instead of sleeping: a woken
#: worker costs more than the node on this model's small layers (a detector run alone 8.2 → 6.5 ms spinning).
#: Spinning on after a run, though, takes a core from the NumPy/OpenCV work and the other session that come
#: next, so a worker spins at most `SPIN_MICROSECONDS` at a time and stops when a run ends. In turn on 40 photos,
#: 200 µs spins with the stop beat no spinning in 6 of 6 runs (`vision.detect` 34–77 → 26–65 ms on a loaded
#: machine), unbounded spinning lost (2026-12-05).
ALLOW_SPINNING = True
SPIN_MICROSECONDS = 200


#: The int8 probe (`vision.training.int8_probe`): a quantised convolution whose 64 products of 255 × 127 read
#: `PROBE_EXACT` when summed exactly and less where onnxruntime's kernel clips each pair of them to 16 bits.
INT8_PROBE = Path(__file__).with_name("int8_probe.onnx")
PROBE_INPUT, PROBE_OUTPUT, PROBE_CHANNELS, PROBE_EXACT = "pixels", "sum", 64, 207
#: onnxruntime's session entry that has its int8 kernels widen the weights to uint8 and sum in 32 bits where
#: the machine's int8 products would saturate (`kOrtSessionOptionsAvx2PrecisionMode`).
EXACT_INT8_ENTRY = "session.x64quantprecision"


def _probe_reads(exact: bool) -> int:
    """What the probe reads in a session opened as the reader's are (`exact`: with `EXACT_INT8_ENTRY`)."""
    import numpy as np
    import onnxruntime as ort

    opts = session_options(threads=1, spinning=False, exact_int8=exact)
    session = ort.InferenceSession(INT8_PROBE.read_bytes(), opts, providers=["CPUExecutionProvider"])
    pixels = np.full((1, PROBE_CHANNELS, 1, 1), 255, np.uint8)
    return int(session.run(None, {PROBE_INPUT: pixels})[0].ravel()[0])


@functools.cache
def int8_products_saturate() -> bool:
    """Whether this machine's onnxruntime clips the products of an int8 convolution (x86 CPUs without VNNI: AVX2, and
    AVX-512 before Cascade Lake), read once a process from the int8 probe. There both shipped models read wrong
    (AMD EPYC with AVX2, 2026-12-07: 3.3 % of the classifier's crops named otherwise, the unseen phone shoot's whole
    photos 0.86 → 0.34) unless `EXACT_INT8_ENTRY` is set, which is slower, so it is set only there. A probe that
    cannot be run counts as saturating: the entry changes nothing where the products are exact but the speed."""
    try:
        return _probe_reads(exact=False) != PROBE_EXACT
    except Exception:  # a missing or unreadable probe file, an onnxruntime without the kernel: be exact
        return True


def session_options(threads: int | None = None, spinning: bool | None = None, exact_int8: bool | None = None) -> Any:
    """onnxruntime options for the reader: every graph optimisation, nodes run one after the other,
    `threads` intra-op threads (None: onnxruntime's default, one per physical core), workers spinning
    at most `SPIN_MICROSECONDS` and never past the end of a run (`spinning` False: never; None: `ALLOW_SPINNING`),
    int8 products summed exactly (`EXACT_INT8_ENTRY`) where they would saturate (`exact_int8` None:
    `int8_products_saturate`; True: always; False: never, as onnxruntime does by default)."""
    import onnxruntime as ort

    spin = ALLOW_SPINNING if spinning is None else spinning
    exact = int8_products_saturate() if exact_int8 is None else exact_int8
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.intra_op_num_threads = max(0, threads or 0)
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin else "0")
    if spin:
        opts.add_session_config_entry("session.intra_op.spin_duration_us", str(SPIN_MICROSECONDS))
        opts.add_session_config_entry("session.force_spinning_stop", "1")
    if exact:
        opts.add_session_config_entry(EXACT_INT8_ENTRY, "1")
    opts.log_severity_level = 3
    return opts


def open_session(path: str | Path, threads: int | None, what_zh: str, what_en: str) -> Any:
    """An onnxruntime CPU session for `path` (`session_options`); a missing or broken file is a DetectorError naming `what`."""
    import onnxruntime as ort

    path = Path(path)
    if not path.is_file():
        raise DetectorError(f"找不到{what_zh}：{path}", f"{what_en} not found: {path}")
    try:
        return ort.InferenceSession(str(path), session_options(threads), providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own Fail/InvalidProtobuf types
        raise DetectorError(f"{what_zh}文件损坏，无法加载", f"cannot load {what_en} {path}: {exc}") from exc
