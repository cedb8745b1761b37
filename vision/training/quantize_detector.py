"""Int8 copy of the YOLO tile detector (onnxruntime static quantisation, `train` extra for `onnx`).

Activation ranges are calibrated on training photos letterboxed exactly as the reader does
(`vision.reader.image.letterbox`, grey padding, /255).  The head's decoding (`/model.22/` after the
last convolutions: DFL softmax, box arithmetic, the final concat of box pixels 0–416 with class
scores 0–1) stays float: one int8 scale over that concat would leave the scores a handful of steps.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from vision.training.onnx_meta import carry_metadata_as_int8

#: Photos the activation ranges are calibrated on.
CALIBRATION_PHOTOS = 100
#: Nodes whose names start with this belong to YOLOv8's detection head.
HEAD_PREFIX = "/model.22/"
#: Head nodes that stay int8: the convolution towers before the decoding.
HEAD_CONV_PREFIXES = ("/model.22/cv2", "/model.22/cv3")


def float_head_nodes(onnx_path: str | Path, keep_last_convs_float: bool = True) -> list[str]:
    """Names of the head nodes left in float: the decoding, and (`keep_last_convs_float`) the last
    1×1 convolution of each tower, whose outputs are the raw box distributions and class logits."""
    import onnx

    names = []
    for node in onnx.load(str(onnx_path)).graph.node:
        if not node.name.startswith(HEAD_PREFIX):
            continue
        in_tower = node.name.startswith(HEAD_CONV_PREFIXES)
        last_conv = in_tower and node.op_type == "Conv" and node.name.rsplit("/", 2)[-2].endswith(".2")
        if not in_tower or (keep_last_convs_float and last_conv):
            names.append(node.name)
    return names


def letterboxed_blobs(photos: Sequence[str | Path], size: int) -> Iterator[np.ndarray]:
    """Each photo as the detector's input blob (1 × 3 × size × size float32 in 0–1)."""
    from vision.reader.image import letterbox_blob, load_image

    for photo in photos:
        yield letterbox_blob(load_image(photo), size)[0]


class _PhotoReader:
    """onnxruntime's calibration data reader over letterboxed photos, one at a time."""

    def __init__(self, input_name: str, photos: Sequence[str | Path], size: int) -> None:
        self.input_name = input_name
        self.blobs = letterboxed_blobs(photos, size)

    def get_next(self) -> dict[str, np.ndarray] | None:
        blob = next(self.blobs, None)
        return None if blob is None else {self.input_name: blob}


def calibration_photos(folder: str | Path, count: int = CALIBRATION_PHOTOS, seed: int = 0) -> list[Path]:
    """`count` photos of a YOLO split or folder, drawn evenly at random (sorted, so runs repeat)."""
    from vision.datasets.yolo import image_files

    files = image_files(folder)
    if not files:
        raise ValueError(f"no photos to calibrate on in {folder}")
    pick = np.random.default_rng(seed).permutation(len(files))[:count]
    return [files[i] for i in sorted(pick)]


def quantize_detector(float_onnx: str | Path, out_onnx: str | Path, photos: Sequence[str | Path],
                      keep_last_convs_float: bool = True, method: str = "minmax") -> Path:
    """Int8 QDQ copy of a float detector (per-channel int8 weights, uint8 activations calibrated on
    `photos`; `method` "minmax" or "percentile"), with the head's decoding in float; the ultralytics
    metadata (names, imgsz, stride) is carried over and ``quantized=int8`` added."""
    import onnxruntime as ort
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    if not photos:
        raise ValueError("no photos to calibrate the int8 detector on")
    out = Path(out_onnx)
    out.parent.mkdir(parents=True, exist_ok=True)
    inp = ort.InferenceSession(str(float_onnx), providers=["CPUExecutionProvider"]).get_inputs()[0]
    size = int(inp.shape[2]) if isinstance(inp.shape[2], int) else 416
    prepared = out.with_suffix(".prep.onnx")
    calibrate = {"minmax": CalibrationMethod.MinMax, "percentile": CalibrationMethod.Percentile}[method]
    try:
        quant_pre_process(str(float_onnx), str(prepared))
        quantize_static(str(prepared), str(out), _PhotoReader(inp.name, photos, size), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True,
                        calibrate_method=calibrate, nodes_to_exclude=float_head_nodes(prepared, keep_last_convs_float))
    finally:
        prepared.unlink(missing_ok=True)
    carry_metadata_as_int8(float_onnx, out)
    return out
