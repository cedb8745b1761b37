"""`bench/assign_synthetic.py`'s core on a few rendered layouts: the roles it reads from ground-truth boxes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_assign_bench_core_is_right_on_ground_truth_boxes() -> None:
    spec = importlib.util.spec_from_file_location("assign_synthetic", ROOT / "bench" / "assign_synthetic.py")
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # dataclasses look their module up
    spec.loader.exec_module(bench)
    from vision.training.synth import TileArtError

    try:
        score = bench.run_gt(3, seed=5, tilt=8.0)
    except TileArtError as exc:
        pytest.skip(f"no tile art: {exc}")
    assert score.layouts == 3 and score.tiles >= 3 * 15
    assert score.role_accuracy >= 0.9 and score.settled_equal >= 0.9



def test_assign_bench_takes_a_seed_and_says_how_it_is_called(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("assign_synthetic_cli", ROOT / "bench" / "assign_synthetic.py")
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    spec.loader.exec_module(bench)
    with pytest.raises(SystemExit) as done:
        bench.cli(["--help"])
    assert done.value.code == 0 and "--seed" in capsys.readouterr().out  # a usage line, not a traceback
    bench.cli(["2", "--seed", "3"])
    out = capsys.readouterr().out
    assert "synthetic winning layouts: 2, seed 3" in out
    assert sum("role accuracy" in line for line in out.splitlines()) >= 3
