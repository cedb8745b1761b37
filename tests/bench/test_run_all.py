"""`make bench` (bench/run_all.py) runs the quick benches in turn and fails when one of them fails."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.bench.bench_module import load_bench


def _load() -> ModuleType:
    return load_bench("run_all")


def test_run_all_prints_each_quick_bench_figures(capfd: pytest.CaptureFixture[str]) -> None:
    assert _load().main(["--rounds", "100", "--layouts", "3"]) == 0
    out = capfd.readouterr().out
    assert "== python bench/scoring_speed.py 100" in out and "random winning rounds: 100" in out
    assert "== python bench/gb_speed.py 100" in out and "agreement: " in out
    assert "== python bench/assign_synthetic.py 3" in out and "synthetic winning layouts: 3" in out


def test_run_all_fails_and_names_the_bench_that_failed(capfd, monkeypatch) -> None:
    run_all = _load()
    monkeypatch.setattr(run_all, "quick_benches", lambda rounds, layouts: [("scoring_speed.py", ["not-a-number"])])
    assert run_all.main([]) == 1
    assert "failed: scoring_speed.py" in capfd.readouterr().err
