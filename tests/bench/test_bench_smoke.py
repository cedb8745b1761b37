"""The scoring benchmark runs and prints its figures (times are not asserted)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest


def test_scoring_bench_prints_median_and_worst(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).resolve().parents[2] / "bench" / "scoring_speed.py"
    spec = importlib.util.spec_from_file_location("scoring_speed", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main(200)
    out = capsys.readouterr().out
    assert "random winning rounds: 200" in out and "median" in out and "7 wild 精" in out
