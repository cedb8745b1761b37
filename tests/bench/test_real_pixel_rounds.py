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


def test_saved_photos_are_lossless_with_their_round_and_true_boxes(tmp_path: Path) -> None:
    import json

    import cv2

    bench = _bench()
    if not (bench.DEFAULT_SOURCE / "valid").is_dir():
        pytest.skip(f"CMD v4 is not at {bench.DEFAULT_SOURCE}")
    assert bench.main(["1", "--per-split", "25", "--split", "tuning", "--seed", "3", "--save", str(tmp_path)]) == 0
    rows = [json.loads(line) for line in (tmp_path / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["layout"] for r in rows] == ["two_rows", "one_row"]
    for r in rows:
        assert r["photo"].endswith(".png") and cv2.imread(str(tmp_path / r["photo"])) is not None
        tiles = [code for _, code in r["boxes"]]
        assert len(tiles) >= 15 and all(len(box) == 4 for box, _ in r["boxes"])  # 14 tiles, the indicator, kongs' fourth
        assert r["indicator"] in tiles and r["win"]["tile"] in tiles
