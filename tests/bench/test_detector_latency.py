"""bench/detector_latency.py: ours against mahjong-detector in turn, several runs with their ratios, and
where our time goes step by step."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from tests.bench.bench_module import load_bench


@pytest.fixture
def photos(tmp_path: Path, hand_photo: Path) -> Path:
    for i in range(3):
        shutil.copy(hand_photo, tmp_path / f"hand{i}.png")
    return tmp_path


def test_each_run_prints_its_medians_and_the_ratios_spread(photos, capsys) -> None:
    assert load_bench("detector_latency").main([str(photos), "--runs", "2"]) == 0
    out = capsys.readouterr().out
    assert "photos: 3, file → tiles (decoding included on both sides), taken in turn" in out
    from vision.reader.session import int8_products_saturate

    clipped = "int8 products: onnxruntime's clip on this CPU (no VNNI); ours are summed exactly"
    assert (clipped in out) if int8_products_saturate() else ("int8 products: summed exactly by onnxruntime's own" in out)
    runs = [line for line in out.splitlines() if line.startswith("run ")]
    assert len(runs) == 2 and all("ratio ours/theirs" in line for line in runs)
    assert "ratio ours/theirs over 2 run(s): median" in out


def test_stages_say_where_the_time_of_one_detect_goes(photos) -> None:
    bench = load_bench("detector_latency")
    from vision.reader.detector import get_detector

    times = bench.stage_times(get_detector(), photos / "hand0.png")
    assert list(times)[: len(bench.STAGES)] == list(bench.STAGES)
    assert all(t >= 0 for t in times.values())
    assert times["total"] == pytest.approx(sum(times[s] for s in bench.STAGES))
    assert times["total, decoded photo"] == pytest.approx(times["total"] - times["decode"])
    assert times["detector run"] > 0 and times["classifier first look"] > 0  # the hand photo has tiles to name


def test_no_photos_is_refused(tmp_path, capsys) -> None:
    assert load_bench("detector_latency").main([str(tmp_path)]) == 2
    assert "no photos found" in capsys.readouterr().err


def test_a_folder_that_is_not_there_is_refused_with_its_name_not_a_traceback(tmp_path, capsys) -> None:
    missing = tmp_path / "valid" / "images"
    assert load_bench("detector_latency").main([str(missing)]) == 2
    assert f"not a folder of photos: {missing}" in capsys.readouterr().err


def test_who_goes_first_alternates_so_each_follows_the_other_as_often_as_itself(tmp_path) -> None:
    calls: list[str] = []
    ours = lambda f: calls.append(f"ours {Path(f).name}") or []  # noqa: E731
    theirs = lambda f: calls.append(f"theirs {Path(f).name}")  # noqa: E731
    t_ours, t_theirs = load_bench("detector_latency").one_run(ours, theirs, [tmp_path / "a", tmp_path / "b"])
    assert calls == ["ours a", "theirs a", "theirs b", "ours b"]
    assert len(t_ours) == len(t_theirs) == 2


def test_settle_pauses_after_each_call_without_counting_the_pause(tmp_path) -> None:
    ours = lambda f: []  # noqa: E731
    theirs = lambda f: None  # noqa: E731
    t0 = time.perf_counter()
    t_ours, t_theirs = load_bench("detector_latency").one_run(ours, theirs, [tmp_path / "a"], settle=0.05)
    assert time.perf_counter() - t0 >= 0.1  # one pause after each of the two calls
    assert max(t_ours + t_theirs) < 0.05  # neither call's time holds a pause
