"""Photo → tiles: `read_photo` (detector, crop classifier, layout of 精 and melds) and `detect`.

`vision.reader` is what runs at play time (onnxruntime + OpenCV + NumPy), `vision.datasets` the
labelled photos, `vision.training` the `train` extra. Importing this package never imports torch or
ultralytics (`tests/vision/test_import_rules.py`).
"""

from vision.reader.detection import CLASS_NAMES, Detection
from vision.reader.photo import PhotoReading, read_photo
from vision.reader.session import models_dir

__all__ = ["CLASS_NAMES", "Detection", "PhotoReading", "detect", "models_dir", "read_photo"]


def detect(image, **kwargs):  # type: ignore[no-untyped-def]
    """Detect tiles in a photo (path, bytes, PIL image or array) -> list[Detection]."""
    from vision.reader.detector import detect as _detect

    return _detect(image, **kwargs)
