"""One way to open an ONNX model with onnxruntime (CPU, every core), shared by the detector and the classifier."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from vision.reader.image import DetectorError


def open_session(path: str | Path, threads: int | None, what_zh: str, what_en: str) -> Any:
    """An onnxruntime CPU session for `path`; a missing or broken file is a DetectorError naming `what`."""
    import onnxruntime as ort

    path = Path(path)
    if not path.is_file():
        raise DetectorError(f"找不到{what_zh}：{path}", f"{what_en} not found: {path}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads or os.cpu_count() or 1
    opts.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own Fail/InvalidProtobuf types
        raise DetectorError(f"{what_zh}文件损坏，无法加载", f"cannot load {what_en} {path}: {exc}") from exc
