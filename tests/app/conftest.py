"""Fixtures every AppTest page test shares."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data folder (ledger, settings, memory) and no access code: the app as a new laptop starts it."""
    monkeypatch.setenv("JINGSUAN_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("JINGSUAN_ACCESS_CODE", raising=False)
    return tmp_path


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fresh data and datasets folders (`data/`, `datasets/` under the returned folder) for 标注's tests."""
    monkeypatch.setenv("JINGSUAN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("JINGSUAN_DATASETS", str(tmp_path / "datasets"))
    monkeypatch.delenv("JINGSUAN_ACCESS_CODE", raising=False)
    return tmp_path
