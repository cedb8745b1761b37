"""The shipped detector is int8 with its head's decoding in float, calibrated on photos letterboxed as the reader does."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reader.detector import DEFAULT_MODEL


def test_the_shipped_detector_is_int8_but_decodes_boxes_and_scores_in_float():
    onnx = pytest.importorskip("onnx")
    m = onnx.load(str(DEFAULT_MODEL))
    assert {e.key: e.value for e in m.metadata_props}.get("quantized") == "int8"
    producers = {o: n for n in m.graph.node for o in n.output}
    convs = [n for n in m.graph.node if n.op_type == "Conv" and not n.name.startswith("/model.22/dfl")]
    assert convs and all(producers[n.input[0]].op_type == "DequantizeLinear" for n in convs)  # int8 convolutions
    final = producers["output0"]
    assert final.op_type == "Concat"  # box pixels and class scores joined in float, not on one int8 scale
    assert all(producers[i].op_type not in ("DequantizeLinear", "QuantizeLinear") for i in final.input)
    dfl = [n for n in m.graph.node if n.name.startswith("/model.22/dfl/")]
    assert dfl and all(n.op_type not in ("QuantizeLinear", "DequantizeLinear") for n in dfl)


def test_calibration_blobs_are_the_detectors_letterboxed_input(tmp_path):
    cv2 = pytest.importorskip("cv2")
    from vision.training.quantize_detector import calibration_photos, letterboxed_blobs

    (tmp_path / "images").mkdir()
    for i in range(5):
        cv2.imwrite(str(tmp_path / "images" / f"p{i}.jpg"), np.full((120, 300, 3), 40 * i, np.uint8))
    photos = calibration_photos(tmp_path, count=3)
    assert len(photos) == 3 and photos == sorted(photos)
    blob = next(letterboxed_blobs(photos[:1], 416))
    assert blob.shape == (1, 3, 416, 416) and blob.dtype == np.float32 and blob.min() >= 0 and blob.max() <= 1
    assert np.allclose(blob[0, :, 0, 0], 114 / 255)  # the grey padding above a wide photo
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError):
        calibration_photos(tmp_path / "empty")
