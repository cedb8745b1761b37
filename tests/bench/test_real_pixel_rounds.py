"""`bench/real_pixel_rounds.py` on a few composed photos: it prints whole-round and settled figures by
split and layout, why photos were wrong, and the read time (values not asserted)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench():  # noqa: ANN202 - a bench module
    spec = importlib.util.spec_from_file_location("real_pixel_rounds", ROOT / "bench" / "real_pixel_rounds.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_the_bench_prints_its_figures_by_split_and_layout(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    if not (bench.DEFAULT_SOURCE / "valid").is_dir():
        pytest.skip(f"CMD v4 is not at {bench.DEFAULT_SOURCE}")
    assert bench.main(["1", "--per-split", "25", "--single-pass"]) == 0
    out = capsys.readouterr().out
    for split in ("tuning", "held-out"):
        for layout in ("two_rows", "one_row"):
            assert any(line.startswith(f"now: {split:9s} {layout}") and "%" in line for line in out.splitlines())
    assert "now: read time per photo" in out and "single-pass: read time per photo" in out


def test_a_wrong_reading_names_the_parts_it_got_wrong() -> None:
    bench = _bench()
    truth = {"indicator": "1z", "hand": "123m456p789s11z", "win": {"tile": "9s"}, "melds": [{"type": "peng", "tiles": "555z"}]}
    read = {"indicator": None, "hand": "123m456p789s11z", "win": {"tile": "9s"}, "melds": [{"type": "chi", "tiles": "555z"}]}
    assert bench.wrong_parts(truth, read) == ["indicator", "melds"]
    assert bench.wrong_parts(truth, {**truth}) == []
