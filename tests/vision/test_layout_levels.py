"""`vision.reader.levels`: one detector pass, named at the threshold first and deeper only when asked."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reader.detection import Detection
from vision.reader.detector import tile_confidence
from vision.reader.levels import DetectionLevels


def photo(width: int) -> np.ndarray:
    """A blank photo 50 px high whose top-left pixel marks which way round the detector is shown it."""
    rgb = np.zeros((50, width, 3), np.uint8)
    rgb[0, 0] = 255
    return rgb


class _Stub:
    """A two-stage detector whose YOLO stage finds four boxes: two sure tiles, a faint blank 白板 apart,
    and a faint box over the first tile; it counts how often each stage runs. Shown the photo mirrored, it finds
    the same boxes mirrored, scored `mirror_scores` (default: as the right way round)."""

    classifier = object()

    def __init__(self) -> None:
        self.boxes = np.array([[0, 0, 30, 40], [30, 0, 60, 40], [100, 0, 130, 40], [2, 2, 31, 41]], float)
        self.scores = np.array([0.9, 0.8, 0.06, 0.05])
        self.mirror_scores: np.ndarray | None = None
        self.found = 0
        self.named: list[int] = []

    def find_boxes(self, rgb: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.found += 1
        mirrored = bool(rgb[0, -1].any())  # the marker lies at the right
        scores = self.mirror_scores if mirrored and self.mirror_scores is not None else self.scores
        keep = scores >= conf
        boxes = self.boxes[keep]
        if mirrored:
            boxes = np.stack([rgb.shape[1] - boxes[:, 2], boxes[:, 1], rgb.shape[1] - boxes[:, 0], boxes[:, 3]], axis=1)
        return boxes, scores[keep], np.zeros(int(keep.sum()), int)

    def find_boxes_and_doubt(self, rgb: np.ndarray, conf: float, doubt_from: float) -> tuple[np.ndarray, ...]:
        """`find_boxes`, no box's top doubted and none lifted over it (as `TileDetector.find_boxes_and_doubt` gives them)."""
        boxes, scores, ids = self.find_boxes(rgb, conf)
        return boxes, scores, ids, np.zeros(len(scores)), np.zeros(len(scores))

    def _classify(self, rgb: np.ndarray, boxes: np.ndarray, scores: np.ndarray) -> list[Detection]:
        self.named.append(len(boxes))
        return [Detection(tuple(b), "5z", tile_confidence(s, 0.95), (("5z", 0.95),)) for b, s in zip(boxes, scores)]


def test_the_threshold_reads_as_one_detection_and_the_second_look_names_only_new_boxes() -> None:
    stub = _Stub()
    levels = DetectionLevels(stub, photo(140), 0.1)
    first = levels.at(0.25)
    assert [d.box for d in first] == [(0, 0, 30, 40), (30, 0, 60, 40)] and stub.named == [2] and stub.found == 1
    deeper = levels.at(0.1)
    assert stub.found == 2  # the YOLO stage ran once more, on the photo mirrored (`MIRRORED_LOOK`)
    assert stub.named == [2, 1]  # the faint box over the first tile is that tile again: not named
    assert [d.box for d in deeper] == [(0, 0, 30, 40), (30, 0, 60, 40), (100, 0, 130, 40)]


class _Unsure(_Stub):
    """Two sure tiles, and two boxes apart the classifier half doubts (p 0.3): one scored 0.2, which the
    threshold's own pass names, and a fainter one scored 0.1 that only the second look names."""

    def __init__(self) -> None:
        super().__init__()
        self.boxes = np.array([[0, 0, 30, 40], [30, 0, 60, 40], [100, 0, 130, 40], [200, 0, 230, 40]], float)
        self.scores = np.array([0.9, 0.8, 0.2, 0.1])

    def _classify(self, rgb: np.ndarray, boxes: np.ndarray, scores: np.ndarray) -> list[Detection]:
        self.named.append(len(boxes))
        return [Detection(tuple(b), "5z", tile_confidence(s, 0.95 if s > 0.5 else 0.3), (("5z", 0.3),))
                for b, s in zip(boxes, scores)]


def test_each_named_box_carries_its_doubted_top_and_the_box_lifted_over_it_from_the_detectors_pass() -> None:
    """The YOLO stage's measures of each box before NMS (`Detection.top_doubt`, `Detection.box_above`) reach the tiles
    named at the threshold, each on its own box."""

    class Lifted(_Stub):
        def find_boxes_and_doubt(self, rgb: np.ndarray, conf: float, doubt_from: float) -> tuple[np.ndarray, ...]:
            boxes, scores, ids, _, _ = super().find_boxes_and_doubt(rgb, conf, doubt_from)
            return boxes, scores, ids, np.array([0.0, 0.2, 0.0, 0.0])[:len(boxes)], np.array([0.0, 0.3, 0.0, 0.0])[:len(boxes)]

    first = DetectionLevels(Lifted(), photo(140), 0.1).at(0.25)
    assert [(d.top_doubt, d.box_above) for d in first] == [(0.0, 0.0), (0.2, 0.3)]

def test_a_box_the_threshold_named_but_found_unsure_is_given_deeper_down_like_a_fainter_one() -> None:
    stub = _Unsure()
    levels = DetectionLevels(stub, photo(240), 0.1)
    assert [d.box for d in levels.at(0.25)] == [(0, 0, 30, 40), (30, 0, 60, 40)]  # 0.2 box: conf 0.23
    deeper = levels.at(0.1)
    assert [d.box for d in deeper] == [(0, 0, 30, 40), (30, 0, 60, 40), (100, 0, 130, 40), (200, 0, 230, 40)]
    assert stub.named == [3, 1]  # the 0.2 box is not named twice


def test_a_box_the_detector_scores_higher_mirrored_is_named_deeper_down_as_that_surer_box() -> None:
    """A blank 白板 boxed 0.06 (under the second look's floor) but 0.5 with the photo mirrored is named deeper down,
    at the mirrored score; a box only the mirrored pass finds is not added, and the threshold's reading costs one pass."""
    stub = _Stub()
    stub.boxes = np.array([[0, 0, 30, 40], [30, 0, 60, 40], [100, 0, 130, 40], [200, 0, 230, 40]], float)
    stub.scores = np.array([0.9, 0.8, 0.06, 0.0])
    stub.mirror_scores = np.array([0.9, 0.8, 0.5, 0.6])  # the last box: only mirrored
    levels = DetectionLevels(stub, photo(240), 0.1, fill_gaps=False)
    assert [d.box for d in levels.at(0.25)] == [(0, 0, 30, 40), (30, 0, 60, 40)] and stub.found == 1
    deeper = levels.at(0.1)
    blank = next(d for d in deeper if d.box == (100, 0, 130, 40))
    assert blank.conf == tile_confidence(0.5, 0.95) and (200, 0, 230, 40) not in [d.box for d in deeper]
    assert stub.found == 2 and stub.named == [2, 1]


class _HalfIndicator(_Stub):
    """Three sure tiles in a row and, alone below them, a faint box round the top half of the indicator (named 二筒
    on its own); the classifier sees a 四筒 in the box grown down to a whole tile."""

    class _Namer:
        def __init__(self) -> None:
            self.asked: list[tuple[float, ...]] = []

        def classify_top(self, rgb: np.ndarray, boxes: list[tuple[float, ...]], *_: object, **__: object) -> list[tuple]:
            self.asked.extend(tuple(b) for b in boxes)
            return [(("4p", 0.9), ("2p", 0.05)) if tuple(b) == (40.0, 80.0, 70.0, 120.0) else (("2p", 0.8),) for b in boxes]

    def __init__(self) -> None:
        super().__init__()
        self.classifier = self._Namer()
        self.boxes = np.array([[0, 0, 30, 40], [30, 0, 60, 40], [60, 0, 90, 40], [40, 80, 70, 100]], float)
        self.scores = np.array([0.9, 0.8, 0.85, 0.06])

    def _classify(self, rgb: np.ndarray, boxes: np.ndarray, scores: np.ndarray) -> list[Detection]:
        names = ["1m", "2m", "3m"] if len(boxes) == 3 else ["2p"] * len(boxes)
        return [Detection(tuple(b), c, tile_confidence(s, 0.9), ((c, 0.9),)) for b, s, c in zip(boxes, scores, names)]


class _PartIndicator(_HalfIndicator):
    """As `_HalfIndicator`, but the detector also drew its own still fainter box round the whole indicator (0.04), which
    the classifier's first look names 四筒."""

    class _Namer(_HalfIndicator._Namer):
        def classify_top(self, rgb: np.ndarray, boxes: list[tuple[float, ...]], *_: object, **__: object) -> list[tuple]:
            return [(("2p", 0.8),) for _ in boxes]  # grown by geometry alone, the indicator stays a 二筒

        def first_look_top(self, rgb: np.ndarray, boxes: list[tuple[float, ...]]) -> list[tuple]:
            self.asked.extend(tuple(b) for b in boxes)
            return [(("4p", 0.9), ("2p", 0.05)) if tuple(b) == (38.0, 78.0, 72.0, 122.0) else (("2p", 0.8),) for b in boxes]

    def __init__(self) -> None:
        super().__init__()
        self.classifier = self._Namer()
        self.boxes = np.vstack([self.boxes, [[38, 78, 72, 122]]])
        self.scores = np.append(self.scores, 0.04)


@pytest.mark.parametrize(("stub", "floor", "whole"), [
    (_HalfIndicator, 0.05, (40.0, 80.0, 70.0, 120.0)),  # its half box grown down to a tile's height
    (_PartIndicator, 0.03, (38.0, 78.0, 72.0, 122.0)),  # the detector's own fainter box round it
], ids=["grown", "boxed round"])
def test_a_faint_box_of_part_of_a_lone_indicator_is_read_whole_deeper_down(stub: type, floor: float, whole: tuple) -> None:
    levels = DetectionLevels(stub(), photo(140), floor, fill_gaps=False)
    assert [d.tile for d in levels.at(0.25)] == ["1m", "2m", "3m"]
    deeper = levels.at(0.05)
    assert sorted(d.tile for d in deeper) == ["1m", "2m", "3m", "4p"]
    assert next(d for d in deeper if d.tile == "4p").box == whole


def test_deeper_down_only_the_weak_boxes_are_looked_at_as_parts_of_a_tile() -> None:
    stub = _PartIndicator()
    levels = DetectionLevels(stub, photo(140), 0.03, fill_gaps=False)
    levels.at(0.25)
    levels.at(0.05)
    assert stub.classifier.asked == [(38.0, 78.0, 72.0, 122.0)]  # not the box round a sure tile of the first look
