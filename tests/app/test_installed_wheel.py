"""`pip install .` (a wheel, not editable) gives a `jingsuan read` that works away from any checkout:
the run-time models travel in the wheel as package data and are found through importlib.resources."""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(cmd: list[str], cwd: Path, timeout: int = 240) -> subprocess.CompletedProcess[str]:
    """Run a command with an environment that knows nothing of the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JINGSUAN_MODEL_DIR", "VIRTUAL_ENV")}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel built from this checkout (no network: the dependencies are the
    test environment's own, reached through a .pth file). Returns the venv's bin folder."""
    tmp = tmp_path_factory.mktemp("wheel")
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp), str(ROOT)], tmp)
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp.glob("jingsuan-*.whl")
    venv = tmp / "venv"
    made = run([sys.executable, "-m", "venv", str(venv)], tmp)
    assert made.returncode == 0, made.stderr
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    done = run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], tmp)
    assert done.returncode == 0, done.stderr
    purelib = run([str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp)
    deps = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(purelib.stdout.strip()) / "test_dependencies.pth").write_text("\n".join(deps) + "\n", encoding="utf-8")
    return bin_dir


def test_the_wheel_ships_the_run_time_models_and_not_the_training_weights(installed: Path, tmp_path: Path):
    code = "import vision, vision.reader.session as s; print(vision.__file__); print(s.models_dir())"
    r = run([str(installed / "python"), "-c", code], tmp_path)
    assert r.returncode == 0, r.stderr
    module, models = (Path(line) for line in r.stdout.split())
    venv = installed.parent.resolve()
    assert venv in module.resolve().parents and venv in models.parents  # not the checkout's
    assert {p.name for p in models.iterdir()} == {"tiles.onnx", "tile_classifier.onnx", "MODEL_CARD.md"}


def test_the_wheel_ships_the_int8_probe_and_the_installed_reader_runs_it(installed: Path, tmp_path: Path):
    code = "import vision.reader.session as s; print(s.INT8_PROBE); print(s._probe_reads(exact=True))"
    r = run([str(installed / "python"), "-c", code], tmp_path)
    assert r.returncode == 0, r.stderr  # a probe missing from the wheel raises here (the reader would count it as clipping)
    probe, exact = r.stdout.split()
    assert installed.parent.resolve() in Path(probe).resolve().parents and exact == "207"


def test_the_installed_jingsuan_reads_a_photo_away_from_the_checkout(installed: Path, hand_photo: Path, tmp_path: Path):
    from vision import read_photo

    r = run([str(installed / "jingsuan"), "read", str(hand_photo), "--indicator", "9m"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == json.loads(json.dumps(read_photo(hand_photo, indicator="9m").round_part()))


def test_the_installed_package_keeps_team_datasets_in_the_user_data_folder(installed: Path, tmp_path: Path):
    code = (
        "import os; os.environ.pop('JINGSUAN_DATASETS', None); os.environ['JINGSUAN_DATA_DIR'] = os.getcwd()\n"
        "from vision.datasets.store import default_datasets_root; print(default_datasets_root())"
    )
    r = run([str(installed / "python"), "-c", code], tmp_path)
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.strip()) == tmp_path / "datasets"  # beside the ledger, not in site-packages
