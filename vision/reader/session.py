"""Where the models are and how they are opened: the one model-folder lookup (`models_dir`) and one way
to open an ONNX model with onnxruntime (CPU, one thread per physical core, no spinning), shared by the detector and the classifier.
"""

from __future__ import annotations

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


#: onnxruntime's thread pool may spin (busy-wait) after a run so the next starts sooner. The reader runs the
#: detector, then NumPy/OpenCV work, then the classifier: a spinning pool only takes a core from that work
#: (and from other programs on a small machine). Off, `vision.detect` ran 10–20 % faster on 2 shared cores.
ALLOW_SPINNING = False


def session_options(threads: int | None = None, spinning: bool = ALLOW_SPINNING) -> Any:
    """onnxruntime options for the reader: every graph optimisation, nodes run one after the other,
    `threads` intra-op threads (None: onnxruntime's default, one per physical core), no spinning."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.intra_op_num_threads = max(0, threads or 0)
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spinning else "0")
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
