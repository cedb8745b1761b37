"""Writing files so that a reader never sees half of one: the one atomic-write helper of `vision`."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from pathlib import Path
from typing import Any


def atomic_write(path: str | Path, data: bytes) -> None:
    """Write bytes to a temporary sibling, fsync, then `os.replace` it onto `path` (the temporary name is
    the process's and the thread's own: the app's sessions are threads that may write the same file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def json_bytes(doc: Any) -> bytes:
    """`doc` as indented UTF-8 JSON with a final newline (Chinese kept readable)."""
    return (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
