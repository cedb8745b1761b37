"""Photo → tiles: the ONNX detector (onnxruntime + OpenCV) and the assignment of 精 and melds.

Importing this package must never import torch or ultralytics (they live in the `train` extra).
"""

from vision.reader.detection import CLASS_NAMES, Detection

__all__ = ["CLASS_NAMES", "Detection", "detect"]


def detect(image, **kwargs):  # type: ignore[no-untyped-def]
    """Detect tiles in a photo (path, bytes, PIL image or array) -> list[Detection]."""
    from vision.reader.detector import detect as _detect

    return _detect(image, **kwargs)
