"""The gate and the error log of a served app, from the environment `jingsuan app` sets."""

from __future__ import annotations

import logging
import os
import traceback
from pathlib import Path

from app.gate import Gate, load_secret

LOG_NAME = "app.log"


def data_dir() -> Path:
    """The data folder the app uses."""
    from app.ledger import default_data_dir

    return default_data_dir()


def build_gate() -> Gate | None:
    """The gate for `JINGSUAN_ACCESS_CODE`, or None when served on this laptop only."""
    code = os.environ.get("JINGSUAN_ACCESS_CODE", "")
    if not code:
        return None
    secret = load_secret(data_dir() / "gate_secret")
    return Gate(code=code, secret=secret, https=os.environ.get("JINGSUAN_HTTPS") == "1")


def error_logger() -> logging.Logger:
    """A logger writing to `<data dir>/logs/app.log` (created on first use)."""
    log = logging.getLogger("jingsuan.app.errors")
    if not log.handlers:
        folder = data_dir() / "logs"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            handler: logging.Handler = logging.FileHandler(folder / LOG_NAME, encoding="utf-8")
        except OSError:
            handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        log.addHandler(handler)
        log.propagate = False
    return log


def log_script_error(exc: Exception) -> None:
    """Keep a page's uncaught error in the local log; the browser sees no details (showErrorDetails=none)."""
    error_logger().error("".join(traceback.format_exception(exc)))
