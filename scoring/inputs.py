"""Reading files a user hands us: regular files only, a size cap before reading, and one safe YAML reader.

YAML here is the safe subset without aliases (no "billion laughs"), with bounded nesting and
integers of at most 18 digits; JSON is read by the same reader (YAML is a superset of JSON).
Every refusal is an `InputError` with a Chinese and an English message.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

from scoring.errors import JingsuanError

MAX_TEXT_BYTES = 1 << 20  # a round, a data.yaml: far below a megabyte
MAX_DEPTH = 50
MAX_INT_DIGITS = 18


class InputError(JingsuanError):
    """A file that cannot be read as asked: missing, not a regular file, too large, malformed."""


def check_regular_file(path: str | Path, max_bytes: int) -> int:
    """The size of `path` when it is a regular file of at most `max_bytes`; FIFOs and devices are refused."""
    name = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError as exc:
        raise InputError(f"找不到文件：{name}", f"no such file: {name}") from exc
    except (OSError, ValueError) as exc:
        raise InputError(f"无法读取 {name}：{exc}", f"cannot read {name}: {exc}") from exc
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{name} 是文件夹，不是文件", f"{name} is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{name} 不是普通文件（管道或设备）", f"{name} is not a regular file (a pipe or a device)")
    if info.st_size > max_bytes:
        raise InputError(
            f"{name} 太大（{info.st_size} 字节，最多 {max_bytes}）",
            f"{name} is too large ({info.st_size} bytes, at most {max_bytes})",
        )
    return int(info.st_size)


def read_capped_bytes(path: str | Path, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most `max_bytes` (checked before and while reading)."""
    check_regular_file(path, max_bytes)
    try:
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(f"无法读取 {path}：{exc.strerror}", f"cannot read {path}: {exc.strerror}") from exc
    if len(data) > max_bytes:
        raise InputError(f"{path} 太大（最多 {max_bytes} 字节）", f"{path} is too large (at most {max_bytes} bytes)")
    return data


def decode_text(data: bytes, name: str) -> str:
    """UTF-8 text (a BOM is dropped), or InputError."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name} 不是 UTF-8 文本", f"{name} is not UTF-8 text") from exc


def read_capped_text(path: str | Path, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """UTF-8 text of a regular file of at most `max_bytes`; `-` reads standard input (also capped)."""
    if str(path) == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise InputError(f"标准输入太大（最多 {max_bytes} 字节）", f"standard input is too large (at most {max_bytes} bytes)")
        return decode_text(data, "stdin")
    return decode_text(read_capped_bytes(path, max_bytes), str(path))


def _loader_class() -> type:
    """A yaml.SafeLoader without aliases, with a nesting limit and short integers."""
    import yaml

    class Loader(yaml.SafeLoader):
        depth = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                mark = self.peek_event().start_mark
                raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed", mark)
            self.depth += 1
            if self.depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise yaml.composer.ComposerError(None, None, f"nested deeper than {MAX_DEPTH}", mark)
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

        def construct_yaml_int(self, node: Any) -> int:
            digits = str(node.value).lstrip("+-").replace("_", "")
            if len(digits) > MAX_INT_DIGITS:
                raise yaml.constructor.ConstructorError(
                    None, None, f"integer with more than {MAX_INT_DIGITS} digits", node.start_mark
                )
            return int(super().construct_yaml_int(node))

    Loader.add_constructor("tag:yaml.org,2002:int", Loader.construct_yaml_int)
    return Loader


_LOADER: type | None = None


def load_yaml(text: str, name: str = "input") -> Any:
    """The document in `text` (YAML or JSON), or InputError saying where it is malformed."""
    import yaml

    global _LOADER
    if _LOADER is None:
        _LOADER = _loader_class()
    loader = None
    try:
        loader = _LOADER(text)  # the reader already refuses control characters
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or ""
        at_zh = f"（第{where.line + 1}行）" if where else ""
        at_en = f" (line {where.line + 1})" if where else ""
        raise InputError(
            f"{name} 不是有效的 JSON/YAML{at_zh}：{problem}".rstrip("："),
            f"{name} is not valid JSON/YAML{at_en}: {problem}".rstrip(": "),
        ) from exc
    except (ValueError, RecursionError, OverflowError) as exc:
        raise InputError(f"{name} 不是有效的 JSON/YAML", f"{name} is not valid JSON/YAML: {exc}") from exc
    finally:
        if loader is not None:
            loader.dispose()


def load_yaml_file(path: str | Path, max_bytes: int = MAX_TEXT_BYTES) -> Any:
    """`load_yaml` of a capped regular file (or `-` for standard input)."""
    return load_yaml(read_capped_text(path, max_bytes), str(path))
