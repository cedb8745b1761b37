"""`bench/unseen_sources.py --gaps`: every way a photo is read (plain, + gaps, + gaps + faint) from one YOLO pass."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2
import numpy as np

from tests.vision.test_gaps import Classifier, Detector, found, photo, row
from vision.reader.gaps import FAINT_FLOOR

BENCH = Path(__file__).resolve().parents[2] / "bench" / "unseen_sources.py"


def _bench():  # noqa: ANN202 - the bench module
    spec = importlib.util.spec_from_file_location("unseen_sources", BENCH)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class CountedDetector(Detector):
    """The drawn photo's detector, noting the floor of each YOLO pass it is asked for."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.passes: list[float] = []

    def find_boxes(self, rgb: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.passes.append(conf)
        return super().find_boxes(rgb, conf)


def _saved(rgb: np.ndarray, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    return path


def test_a_photo_is_read_every_way_from_one_detector_pass_even_in_two_groups(tmp_path: Path) -> None:
    bench = _bench()
    tiles = row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s"])
    det = CountedDetector(found(tiles, {4}), Classifier(tiles))  # 5p missed: a hole in the row
    read = bench.photo_readings(det, gaps=True)
    rgb = photo(tiles)
    ways = read(_saved(rgb, tmp_path / "group" / "images" / "p.png"))
    again = read(_saved(rgb, tmp_path / "all" / "images" / "p.png"))  # the same photo counted in another group
    assert len(det.passes) == 1 and det.passes[0] <= min(FAINT_FLOOR, bench.LOWEST)
    assert again is ways
    assert [d.tile for d in ways[bench.PLAIN]] == ["1m", "2m", "3m", "4p", "6p", "7s", "8s", "9s"]
    gap = [d for d in ways[bench.GAPS] if d.tile == "5p"]
    assert len(gap) == 1 and gap[0].conf == gap[0].alternatives[0][1]  # counted at its class probability
    assert len(ways[bench.GAPS_FAINT]) == 9


def test_a_faint_box_is_counted_once_as_its_faint_tile_not_also_as_its_weak_detection(tmp_path: Path) -> None:
    bench = _bench()
    tiles = row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s"])
    det = CountedDetector(found(tiles), Classifier(tiles), scores={4: 0.01})  # 5p boxed only faintly
    ways = bench.photo_readings(det, gaps=True)(_saved(photo(tiles), tmp_path / "p.png"))
    assert len(det.passes) == 1
    assert [d.tile for d in ways[bench.PLAIN]].count("5p") == 1 and min(d.conf for d in ways[bench.PLAIN]) < 0.25
    faint = [d for d in ways[bench.GAPS_FAINT] if d.tile == "5p"]
    assert len(faint) == 1 and faint[0].conf >= 0.7


def test_without_gaps_the_photo_is_read_once_down_to_the_lowest_floor_alone(tmp_path: Path) -> None:
    bench = _bench()
    tiles = row(["1m", "2m", "3m"])
    det = CountedDetector(found(tiles), Classifier(tiles))
    ways = bench.photo_readings(det, gaps=False)(_saved(photo(tiles), tmp_path / "p.png"))
    assert list(ways) == [bench.PLAIN] and det.passes == [bench.LOWEST]
