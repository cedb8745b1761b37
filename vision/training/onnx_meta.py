"""The key/value metadata of an ONNX file (class names, backbone, ``quantized``); `onnx` from the `train` extra."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def read_metadata(onnx_path: str | Path) -> dict[str, str]:
    """The file's metadata as a dict."""
    import onnx

    return {e.key: e.value for e in onnx.load(str(onnx_path)).metadata_props}


def write_metadata(onnx_path: str | Path, props: Mapping[str, str], replace: bool = False) -> None:
    """Add `props` to the file's metadata (`replace`: instead of what it had) and save it in place."""
    import onnx

    m = onnx.load(str(onnx_path))
    if replace:
        del m.metadata_props[:]
    for key, value in props.items():
        entry = m.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(m, str(onnx_path))


def carry_metadata_as_int8(float_onnx: str | Path, int8_onnx: str | Path) -> None:
    """The int8 copy's metadata: the float graph's, with ``quantized=int8`` added."""
    write_metadata(int8_onnx, {**read_metadata(float_onnx), "quantized": "int8"}, replace=True)
