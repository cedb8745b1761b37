"""A lone tile boxed loosely or short, read again in boxes of a tile's size (`vision.reader.refit`), on a drawn photo."""

from __future__ import annotations

import numpy as np

from vision.reader.boxes import box_iou
from vision.reader.classifier import CLASSIFIER_NAMES, NO_TILE
from vision.reader.detection import Detection
from vision.reader.refit import loose_lone_boxes, refit_lone_tiles, tile_places, tile_size

TW, TH = 30.0, 40.0
CLOTH, FACE = (200, 200, 195), (240, 238, 228)  # a light table: the detector boxes a lone tile loosely on it
Box = tuple[float, float, float, float]
HAND = [(40.0 + i * (TW + 1), 120.0, 40.0 + i * (TW + 1) + TW, 160.0) for i in range(8)]
INDICATOR: Box = (300.0, 30.0, 330.0, 70.0)


def photo() -> np.ndarray:
    """The hand's tiles and the indicator drawn as faces on the table."""
    rgb = np.zeros((220, 480, 3), np.uint8)
    rgb[:] = CLOTH
    for x1, y1, x2, y2 in [*HAND, INDICATOR]:
        rgb[int(y1):int(y2), int(x1):int(x2)] = FACE
    x1, y1, x2, y2 = (int(v) for v in INDICATOR)
    rgb[y1 + 3:y1 + 6, x1 + 5:x2 - 5] = rgb[y2 - 7:y2 - 4, x1 + 5:x2 - 5] = (30, 30, 30)  # its face: a top and bottom stroke
    return rgb


class Classifier:
    """Names the indicator 五萬 as surely as a box fits it (`sure` at a tile's box), else 三萬 at 0.3; its first look
    gives a crop showing both the indicator's strokes (across it, the crop stood upright) its share of tile face as the
    probability of 五萬, any other a third of that."""

    names = CLASSIFIER_NAMES

    def __init__(self, sure: float = 0.95) -> None:
        self.sure = sure

    def classify_top(self, rgb: np.ndarray, boxes: list[Box], k: int = 3, first: np.ndarray | None = None,
                     needed: np.ndarray | None = None) -> list[tuple[tuple[str, float], ...]]:
        return [(("5m", self.sure), ("3m", 0.02)) if box_iou(box, INDICATOR) >= 0.7 else (("3m", 0.3), ("5m", 0.2))
                for box in boxes]

    def __call__(self, crops: np.ndarray) -> np.ndarray:
        probs = np.full((len(crops), len(self.names)), 0.001)
        for i, crop in enumerate(crops):
            face = float((np.abs(crop.astype(int) - FACE).sum(axis=2) < 12).mean())
            dark = (crop.astype(int).sum(axis=2) < 200).any(axis=1)
            strokes = int(dark[0]) + int(np.count_nonzero(dark[1:] & ~dark[:-1]))
            face *= 1.0 if strokes == 2 else 1 / 3
            probs[i, self.names.index("5m")] = face
            probs[i, self.names.index(NO_TILE)] = 1 - face
        return probs


def detections(indicator_box: Box, hand: list[Box] = HAND) -> list[Detection]:
    return [*(Detection(b, "1s", 0.9, (("1s", 0.97),)) for b in hand), Detection(indicator_box, "3m", 0.3, (("3m", 0.3),))]


def test_a_lone_box_half_a_tile_too_large_is_read_again_at_a_tiles_size() -> None:
    loose = (290.0, 20.0, 335.0, 80.0)  # 1.5 tiles wide and high, the tile in its lower right
    named = detections(loose)
    assert tile_size(named) == (TW, TH) and loose_lone_boxes(named, (TW, TH)) == [8]
    out = refit_lone_tiles(photo(), named, Classifier())
    assert out[8].tile == "5m" and box_iou(out[8].box, INDICATOR) >= 0.7 and out[:8] == named[:8]
    surely = [*named[:8], Detection(loose, "3m", 0.3, (("3m", 0.92),))]  # a loose crop may be named surely, and wrongly
    assert refit_lone_tiles(photo(), surely, Classifier())[8].tile == "5m"


def test_the_lower_half_of_a_lone_tile_is_read_again_as_the_whole_tile() -> None:
    """A box round the indicator's lower half, about square, may be a standing tile's half or a sideways tile: both are
    tried, and the standing tile reaching up from it is the tile."""
    half = (300.0, 40.0, 330.0, 70.0)
    out = refit_lone_tiles(photo(), detections(half), Classifier())
    assert out[-1].tile == "5m" and box_iou(out[-1].box, INDICATOR) >= 0.7


def test_a_lone_box_of_a_tiles_size_a_box_in_a_row_and_an_unsure_reading_are_left_alone() -> None:
    rgb = photo()
    as_is = detections(INDICATOR)  # boxed well: misnamed or not, nothing to fit
    assert refit_lone_tiles(rgb, as_is, Classifier()) == as_is
    in_row = [*detections(INDICATOR)[:7], Detection((257.0, 110.0, 300.0, 165.0), "3m", 0.3, (("3m", 0.3),))]
    assert loose_lone_boxes(in_row, (TW, TH)) == []  # as loose, but beside the hand's last tile
    unsure = Classifier(sure=0.6)
    loose = detections((290.0, 20.0, 335.0, 80.0))
    assert refit_lone_tiles(rgb, loose, unsure) == loose


def test_places_of_a_tiles_size_run_from_one_corner_of_a_box_to_the_other() -> None:
    inside = tile_places((0.0, 0.0, 60.0, 80.0), TW, TH)
    assert inside[0] == (0.0, 0.0, TW, TH) and inside[-1] == (30.0, 40.0, 60.0, 80.0) and len(inside) == 9
    around = tile_places((10.0, 20.0, 40.0, 40.0), TW, TH)  # a box as wide as a tile, half as high
    assert around == [(10.0, 0.0, 40.0, 40.0), (10.0, 10.0, 40.0, 50.0), (10.0, 20.0, 40.0, 60.0)]  # each once
