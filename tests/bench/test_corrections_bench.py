"""bench/corrections.py: what a player's corrections of one photo teach the table's memory."""

from __future__ import annotations

from types import ModuleType

from tests.bench.bench_module import load_bench
from vision.reader.detection import Detection
from vision.training.metrics import one_to_one_pairs


def _bench() -> ModuleType:
    return load_bench("corrections")


def _photo() -> tuple[list[Detection], list[Detection]]:
    """Read: 8p misread as 1s, 2m right, an extra box; labelled: 8p, 2m, and a 5z the reader missed."""
    read = [Detection((0, 0, 10, 14), "1s", 0.9), Detection((12, 0, 22, 14), "2m", 0.9), Detection((50, 0, 60, 14), "3p", 0.4)]
    truth = [Detection((0, 0, 10, 14), "8p", 1), Detection((12, 0, 22, 14), "2m", 1), Detection((24, 0, 34, 14), "5z", 1)]
    return read, truth


def test_a_photos_mistakes_teach_the_misread_the_deleted_and_the_missed_tile():
    read, truth = _photo()
    boxes, tiles = _bench().corrections(read, truth, everything=False)
    assert list(zip(boxes, tiles)) == [((0, 0, 10, 14), "8p"), ((50, 0, 60, 14), "none"), ((24, 0, 34, 14), "5z")]


def test_a_confirmed_photo_also_teaches_the_tiles_read_right():
    read, truth = _photo()
    _, tiles = _bench().corrections(read, truth, everything=True)
    assert sorted(tiles) == sorted(["8p", "2m", "none", "5z"])


def test_boxes_are_paired_one_to_one_by_overlap():
    read, truth = _photo()
    assert sorted(one_to_one_pairs(read, truth)) == [(0, 0), (1, 1)]
    assert one_to_one_pairs([], truth) == []


def test_a_photos_mistakes_are_counted_by_kind():
    read, truth = _photo()
    assert _bench().mistake_kinds(read, truth) == {"misread": 1, "missed": 1, "extra": 1}
    assert _bench().mistake_kinds(truth, truth) == {"misread": 0, "missed": 0, "extra": 0}
