"""Where the user's files live: the one lookup of the data folder (ledger, team datasets, logs) and of
the settings file, shared by `app` (the ledger) and `vision.datasets` (the dataset store)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

#: Environment variable naming the data folder (`jingsuan app --data-dir DIR` sets it).
DATA_DIR_ENV = "JINGSUAN_DATA_DIR"
#: The folder above `vision/`: a checkout's root when run from a checkout, site-packages when installed.
CODE_ROOT = Path(__file__).resolve().parents[2]


def settings_path() -> Path:
    """Where the app keeps its own settings (the chosen data folder)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "jingsuan" / "settings.json"


def read_settings() -> dict[str, Any]:
    """The saved settings, or {} when there are none or the file is unreadable."""
    try:
        data = json.loads(settings_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def user_data_dir() -> Path:
    """The user data folder: $JINGSUAN_DATA_DIR, else the saved setting, else XDG data home."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    saved = read_settings().get("data_dir")
    if isinstance(saved, str) and saved:
        return Path(saved).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "jingsuan"


def checkout_root() -> Path | None:
    """The source checkout the code runs from (it has pyproject.toml), None for an installed package."""
    return CODE_ROOT if (CODE_ROOT / "pyproject.toml").is_file() else None
