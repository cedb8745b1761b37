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

