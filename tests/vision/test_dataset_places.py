"""Where the team's datasets go: a checkout keeps them in its `datasets/`, an installed package in the user
data folder beside the ledger (never in site-packages); files are written whole even by threads at once."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import vision.datasets.places as places
from vision.datasets.files import atomic_write
from vision.datasets.store import default_datasets_root, open_dataset

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No folder set by the environment; settings and XDG data home in `tmp_path`."""
    for name in ("JINGSUAN_DATASETS", "JINGSUAN_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path


@pytest.fixture
def installed(no_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The code as a pip install lays it out: `vision/` in a site-packages folder with no pyproject.toml."""
    site = no_env / "site-packages"
    (site / "vision").mkdir(parents=True)
    monkeypatch.setattr(places, "CODE_ROOT", site)
    return site


def test_a_checkout_keeps_the_datasets_in_its_datasets_folder(no_env: Path) -> None:
    assert default_datasets_root() == ROOT / "datasets"


def test_an_installed_package_keeps_the_datasets_beside_the_ledger(installed: Path, no_env: Path) -> None:
    from app.ledger import default_data_dir

    assert default_datasets_root() == no_env / "xdg" / "jingsuan" / "datasets" == default_data_dir() / "datasets"
    store = open_dataset("team")
    assert installed not in store.root.parents  # nothing written into site-packages


def test_installed_datasets_follow_the_chosen_data_folder(installed: Path, no_env: Path, monkeypatch) -> None:
    from app.ledger import save_data_dir_setting

    save_data_dir_setting(no_env / "majiang")  # chosen on the 牌局 page
    assert default_datasets_root() == no_env / "majiang" / "datasets"
    monkeypatch.setenv("JINGSUAN_DATA_DIR", str(no_env / "served"))  # jingsuan app --data-dir
    assert default_datasets_root() == no_env / "served" / "datasets"
    monkeypatch.setenv("JINGSUAN_DATASETS", str(no_env / "own"))
    assert default_datasets_root() == no_env / "own"


def test_threads_writing_one_file_at_once_each_write_it_whole(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    texts = [bytes([65 + i]) * 200_000 for i in range(6)]
    errors: list[BaseException] = []

    def write(data: bytes) -> None:
        try:
            for _ in range(20):
                atomic_write(path, data)
        except BaseException as exc:  # collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(t,)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert path.read_bytes() in texts
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no temporary left behind
