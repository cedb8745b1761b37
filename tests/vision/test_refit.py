"""A tile boxed loosely or short, alone or in a row, read again in boxes of a tile's size (`vision.reader.refit`), on
drawn photos."""

from __future__ import annotations

import numpy as np

from vision.reader.boxes import box_iou
from vision.reader.classifier import CLASSIFIER_NAMES, NO_TILE
from vision.reader.detection import Detection
from vision.reader.refit import (
    in_row_ways,
    loose_boxes,
    parted_wide_boxes,
    refit_loose_tiles,
    tile_places,
    tile_size,
    two_places,
)

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
    assert tile_size(named) == (TW, TH) and loose_boxes(named, (TW, TH)) == [(8, [(TW, TH)])]
    out = refit_loose_tiles(photo(), named, Classifier())
    assert out[8].tile == "5m" and box_iou(out[8].box, INDICATOR) >= 0.7 and out[:8] == named[:8]
    surely = [*named[:8], Detection(loose, "3m", 0.3, (("3m", 0.92),))]  # a loose crop may be named surely, and wrongly
    assert refit_loose_tiles(photo(), surely, Classifier())[8].tile == "5m"


def test_the_lower_half_of_a_lone_tile_is_read_again_as_the_whole_tile() -> None:
    """A box round the indicator's lower half, about square, may be a standing tile's half or a sideways tile: both are
    tried, and the standing tile reaching up from it is the tile."""
    half = (300.0, 40.0, 330.0, 70.0)
    out = refit_loose_tiles(photo(), detections(half), Classifier())
    assert out[-1].tile == "5m" and box_iou(out[-1].box, INDICATOR) >= 0.7


def test_a_lone_box_of_a_tiles_size_a_box_in_a_row_and_an_unsure_reading_are_left_alone() -> None:
    rgb = photo()
    as_is = detections(INDICATOR)  # boxed well: misnamed or not, nothing to fit
    assert refit_loose_tiles(rgb, as_is, Classifier()) == as_is
    in_row = [*detections(INDICATOR)[:7], Detection((250.0, 95.0, 305.0, 168.0), "3m", 0.3, (("3m", 0.3),))]
    assert loose_boxes(in_row, (TW, TH)) == []  # beside the hand's last tile and over 1.6 tiles every way: not one tile
    unsure = Classifier(sure=0.6)
    loose = detections((290.0, 20.0, 335.0, 80.0))
    assert refit_loose_tiles(rgb, loose, unsure) == loose


def test_places_of_a_tiles_size_run_from_one_corner_of_a_box_to_the_other() -> None:
    inside = tile_places((0.0, 0.0, 60.0, 80.0), TW, TH)
    assert inside[0] == (0.0, 0.0, TW, TH) and inside[-1] == (30.0, 40.0, 60.0, 80.0) and len(inside) == 9
    around = tile_places((10.0, 20.0, 40.0, 40.0), TW, TH)  # a box as wide as a tile, half as high
    assert around == [(10.0, 0.0, 40.0, 40.0), (10.0, 10.0, 40.0, 50.0), (10.0, 20.0, 40.0, 60.0)]  # each once


MARK = (90, 140, 200)  # the face of the tile boxed short in a row: the first look below names it by this colour


class RowClassifier:
    """Names `tile` at 0.97 where a box fits it (IoU 0.7), else 一筒 at 0.3; its first look gives a crop its share of
    `tile`'s face as the probability of 二筒."""

    names = CLASSIFIER_NAMES

    def __init__(self, tile: Box) -> None:
        self.tile = tile

    def classify_top(self, rgb: np.ndarray, boxes: list[Box], k: int = 3, first: np.ndarray | None = None,
                     needed: np.ndarray | None = None) -> list[tuple[tuple[str, float], ...]]:
        return [(("2p", 0.97), ("1p", 0.02)) if box_iou(box, self.tile) >= 0.7 else (("1p", 0.3),) for box in boxes]

    def __call__(self, crops: np.ndarray) -> np.ndarray:
        probs = np.full((len(crops), len(self.names)), 0.001)
        for i, crop in enumerate(crops):
            share = float((np.abs(crop.astype(int) - MARK).sum(axis=2) < 12).mean())
            probs[i, self.names.index("2p")] = share
            probs[i, self.names.index(NO_TILE)] = 1 - share
        return probs


def row_photo(tile: Box) -> tuple[np.ndarray, list[Detection]]:
    """A row of standing tiles with `tile` (its face `MARK`) fourth, bottoms in line; the others' boxes, named 一條."""
    x = 40.0
    boxes: list[Box] = []
    for k in range(8):
        w = tile[2] - tile[0] if k == 3 else TW
        boxes.append((x, 160.0 - (tile[3] - tile[1] if k == 3 else TH), x + w, 160.0))
        x += w + 1
    rgb = np.zeros((220, 480, 3), np.uint8)
    rgb[:] = CLOTH
    for k, (x1, y1, x2, y2) in enumerate(boxes):
        rgb[int(y1):int(y2), int(x1):int(x2)] = MARK if k == 3 else FACE
    return rgb, [Detection(b, "1s", 0.9, (("1s", 0.97),)) for k, b in enumerate(boxes) if k != 3]


def test_a_sideways_tile_boxed_short_in_a_row_is_read_again_lying() -> None:
    """A claimed tile lying sideways boxed round its one end (a 二筒's one circle and a half, read 一筒 surely): about
    square and in the row, it is read again in boxes of a tile's size lying and standing, and the lying one fits."""
    lying: Box = (133.0, 130.0, 173.0, 160.0)  # 40 × 30: a 30 × 40 tile on its side, fourth in the row
    rgb, named = row_photo(lying)
    short = Detection((133.0, 130.0, 161.0, 160.0), "1p", 0.6, (("1p", 0.95),))
    dets = [*named[:3], short, *named[3:]]
    assert loose_boxes(dets, (TW, TH)) == [(3, [(TW, TH), (TH, TW)])]
    out = refit_loose_tiles(rgb, dets, RowClassifier(lying))
    assert out[3].tile == "2p" and box_iou(out[3].box, lying) >= 0.7 and out[:3] + out[4:] == named


def test_a_standing_tiles_top_half_boxed_in_a_row_is_read_again_whole() -> None:
    standing: Box = (133.0, 120.0, 163.0, 160.0)
    rgb, named = row_photo(standing)
    half = Detection((133.0, 120.0, 163.0, 141.0), "1p", 0.5, (("1p", 0.4),))  # two of a 四筒's circles, read 二筒
    out = refit_loose_tiles(rgb, [*named[:3], half, *named[3:]], RowClassifier(standing))
    assert out[3].tile == "2p" and box_iou(out[3].box, standing) >= 0.7


def test_a_standing_tile_boxed_short_of_its_width_in_a_row_is_read_again_whole() -> None:
    standing: Box = (133.0, 120.0, 163.0, 160.0)
    rgb, named = row_photo(standing)
    narrow = Detection((142.0, 120.0, 163.0, 160.0), "1p", 0.5, (("1p", 0.4),))  # a 五條 cut along its side, read 四條
    out = refit_loose_tiles(rgb, [*named[:3], narrow, *named[3:]], RowClassifier(standing))
    assert out[3].tile == "2p" and box_iou(out[3].box, standing) >= 0.7


def test_a_standing_tile_boxed_loosely_in_a_row_is_read_again_whole() -> None:
    """A box reaching a third of a tile past a standing tile above and to the left (a 一萬 so boxed read 二萬 at 0.04)."""
    standing: Box = (133.0, 120.0, 163.0, 160.0)
    rgb, named = row_photo(standing)
    loose = Detection((122.0, 106.0, 163.0, 160.0), "1p", 0.2, (("1p", 0.04),))  # 41 × 54: 1.37 × 1.35 tiles
    dets = [*named[:3], loose, *named[3:]]
    assert loose_boxes(dets, (TW, TH)) == [(3, [(TW, TH)])]  # standing only: a sideways tile is lower than a tile
    out = refit_loose_tiles(rgb, dets, RowClassifier(standing))
    assert out[3].tile == "2p" and box_iou(out[3].box, standing) >= 0.7 and out[:3] + out[4:] == named


def test_a_box_in_a_row_is_read_again_only_as_the_tile_it_may_hold() -> None:
    """Standing when as tall as a standing tile and narrower, or no wider than one; neither when shaped as no half or
    short tile, or larger than one tile."""
    size = (TW, TH)
    assert in_row_ways(Detection((0.0, 0.0, 28.0, 30.0), "1p", 0.5), size) == [(TW, TH), (TH, TW)]
    assert in_row_ways(Detection((0.0, 0.0, 30.0, 21.0), "2p", 0.5), size) == [(TW, TH), (TH, TW)]  # a top half
    # as wide as a sideways tile and taller: the tile and what lies above it; standing inside, its middle alone
    assert in_row_ways(Detection((0.0, 0.0, 40.0, 45.0), "7s", 0.5), size) == [(TH, TW)]
    assert in_row_ways(Detection((0.0, 0.0, 45.0, 44.0), "7s", 0.5), size) == [(TH, TW)]
    assert in_row_ways(Detection((0.0, 0.0, 30.0, 40.0), "1p", 0.5), size) == []  # a standing tile, as boxed
    assert in_row_ways(Detection((0.0, 0.0, 21.0, 40.0), "4s", 0.5), size) == [(TW, TH)]  # as tall, narrower
    assert in_row_ways(Detection((0.0, 0.0, 21.0, 31.0), "4s", 0.5), size) == []  # narrower and lower: no tile's part
    assert in_row_ways(Detection((0.0, 0.0, 48.0, 30.0), "1p", 0.5), size) == []  # a sideways tile, boxed long
    assert in_row_ways(Detection((0.0, 0.0, 52.0, 50.0), "1p", 0.5), size) == []  # over a tile and more: two tiles
    assert in_row_ways(Detection((0.0, 0.0, 40.0, 52.0), "1m", 0.2), size) == [(TW, TH)]  # loose every way: standing
    assert in_row_ways(Detection((0.0, 0.0, 40.0, 70.0), "1m", 0.2), size) == []  # taller than 1.6 tiles: not one tile


class PairClassifier:
    """Names 西 at `sure` where a place fits one of `tiles` (IoU 0.7), or anywhere when `tiles` is None; else 一筒 at 0.3."""

    names = CLASSIFIER_NAMES

    def __init__(self, tiles: list[Box] | None, sure: float = 0.98) -> None:
        self.tiles, self.sure = tiles, sure

    def classify_top(self, rgb: np.ndarray, boxes: list[Box], k: int = 3, first: np.ndarray | None = None,
                     needed: np.ndarray | None = None) -> list[tuple[tuple[str, float], ...]]:
        return [(("3z", self.sure), ("2z", 0.01))
                if self.tiles is None or any(box_iou(box, t) >= 0.7 for t in self.tiles) else (("1p", 0.3),)
                for box in boxes]


def row_with_one_box_over(fourth_and_fifth: Box) -> list[Detection]:
    """The eight standing tiles of `HAND`, the fourth and fifth boxed as one (`fourth_and_fifth`), named 西 lying."""
    return [*(Detection(b, "1s", 0.9, (("1s", 0.97),)) for b in HAND[:3]),
            Detection(fourth_and_fifth, "3z", 0.7, (("3z", 0.83),)),
            *(Detection(b, "1s", 0.9, (("1s", 0.97),)) for b in HAND[5:])]


def test_two_standing_tiles_boxed_as_one_are_read_as_two() -> None:
    """The second and third 西 of a 碰 boxed as one box, 1.9 tiles wide and 0.86 as tall, was read one 西 lying sideways
    and the 碰 a tile short; the classifier names a 西 surely at each of its two standing places."""
    over_two: Box = (HAND[3][0], 123.0, HAND[4][2], 157.0)  # 61 × 34: 2.0 tiles wide, 0.85 as tall
    dets = row_with_one_box_over(over_two)
    out = parted_wide_boxes(photo(), dets, PairClassifier([HAND[3], HAND[4]]))
    assert len(out) == len(dets) + 1
    assert [d.tile for d in out[3:5]] == ["3z", "3z"]
    assert [round(box_iou(d.box, t), 2) >= 0.7 for d, t in zip(out[3:5], HAND[3:5])] == [True, True]
    assert out[:3] + out[5:] == dets[:3] + dets[4:]
    assert two_places(over_two, (TW, TH)) == ((HAND[3][0], 120.0, HAND[3][0] + TW, 160.0),
                                              (HAND[4][2] - TW, 120.0, HAND[4][2], 160.0))


def test_a_sideways_tile_a_low_box_and_an_unsure_pair_stay_one_box() -> None:
    """A claimed tile lying sideways is as wide as a tile is tall (1.33 tiles here; boxed loosely, 1.6): too narrow for two, however surely
    its halves are named (a sideways tile's two ends often look like the tile); a box as wide as two but no taller than
    a sideways tile is not parted; nor one whose two places are not named surely."""
    pair = [HAND[3], HAND[4]]
    sideways = row_with_one_box_over((HAND[3][0], 126.0, HAND[3][0] + 48.0, 160.0))  # boxed loosely: 1.6 × 0.85 tiles
    assert parted_wide_boxes(photo(), sideways, PairClassifier(None)) == sideways
    low = row_with_one_box_over((HAND[3][0], 132.0, HAND[4][2], 160.0))  # 0.7 of a tile's height
    assert parted_wide_boxes(photo(), low, PairClassifier(None)) == low
    unsure = row_with_one_box_over((HAND[3][0], 123.0, HAND[4][2], 157.0))
    assert parted_wide_boxes(photo(), unsure, PairClassifier(pair, sure=0.6)) == unsure
    assert len(parted_wide_boxes(photo(), unsure, PairClassifier(pair, sure=0.8))) == len(unsure) + 1
