"""The second look's wider crop: a box the detector cut short still shows the tile's top stroke; the third
look's tilted crops: a tile lying askew is read standing up."""

from __future__ import annotations

import numpy as np

from vision.reader import classifier as C
from vision.reader.classifier import CLASSIFIER_NAMES


def _photo_with_a_stroke_above_the_box() -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A light tile on a dark table whose box (40..90 high) leaves out its red top stroke at rows 28..30:
    outside the box grown 18 % a side (9 px, top at row 31), inside it grown 24 % (12 px, top at row 28)."""
    img = np.full((140, 120, 3), 30, np.uint8)
    img[26:96, 30:80] = 210
    img[28:31, 34:76] = (230, 20, 20)
    return img, (30.0, 40.0, 80.0, 90.0)


def _reads_three_when_the_stroke_shows(crops: np.ndarray) -> np.ndarray:
    """A stand-in classifier torn between 二萬 and 三萬 unless the crop shows the red stroke (then 三萬)."""
    p = np.full((len(crops), len(CLASSIFIER_NAMES)), 1e-4)
    for k, c in enumerate(crops):
        red = (c[..., 0].astype(int) - c[..., 1] > 80).sum()
        if red:
            p[k, CLASSIFIER_NAMES.index("3m")], p[k, CLASSIFIER_NAMES.index("2m")] = 0.9, 0.05
        else:
            p[k, CLASSIFIER_NAMES.index("2m")], p[k, CLASSIFIER_NAMES.index("3m")] = 0.5, 0.4
    return p


def _classifier(monkeypatch) -> C.TileClassifier:  # noqa: ANN001
    return _counting_classifier(monkeypatch, _reads_three_when_the_stroke_shows)[0]


def test_a_box_cut_short_of_the_top_stroke_is_read_right_from_the_wider_second_look(monkeypatch) -> None:  # noqa: ANN001
    img, box = _photo_with_a_stroke_above_the_box()
    [(tile, p)] = _classifier(monkeypatch).classify(img, [box])
    assert tile == "3m"  # the two wider views see the stroke and outvote the two usual ones
    assert abs(p - (0.4 + 0.4 + 0.9 + 0.9) / 4) < 1e-3


def test_the_old_wide_margin_missed_that_stroke(monkeypatch) -> None:  # noqa: ANN001
    img, box = _photo_with_a_stroke_above_the_box()
    monkeypatch.setattr(C, "SECOND_LOOK_MARGIN", 0.18)
    monkeypatch.setattr(C, "THIRD_LOOK_TILTS", ())  # the second look alone: every view is torn, 二萬 at 0.5
    [(tile, _)] = _classifier(monkeypatch).classify(img, [box])
    assert tile == "2m"  # 18 % a side stops a row short of the stroke: every view is torn, 二萬 wins


def test_a_sure_crop_is_not_looked_at_again_however_wide(monkeypatch) -> None:  # noqa: ANN001
    img, box = _photo_with_a_stroke_above_the_box()
    img[28:31, 34:76] = 210  # no stroke: the stand-in is torn on every view
    monkeypatch.setattr(C, "SECOND_LOOK_BELOW", 0.4)  # … but 0.5 is sure enough now
    [(tile, p)] = _classifier(monkeypatch).classify(img, [box])
    assert (tile, round(p, 2)) == ("2m", 0.5)


# The third look: a tile lying askew in a heap.

ASKEW = -15.0  # degrees counter-clockwise: the tile below lies turned 15° clockwise
STANDING = 2.5  # a bar whose middle moves less than this (px) from top to bottom third stands straight


def _photo_with_an_askew_tile() -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A light tile (40 × 56) with a dark bar down its middle, turned by `ASKEW` on a dark table, and the
    upright box round it."""
    import cv2

    img = np.full((200, 200, 3), 30, np.uint8)
    turn = cv2.getRotationMatrix2D((100.0, 100.0), ASKEW, 1.0)
    corners = np.array([[80, 72, 1], [120, 72, 1], [120, 128, 1], [80, 128, 1]], np.float64) @ turn.T
    cv2.fillPoly(img, [np.round(corners).astype(np.int32)], (220, 220, 220))
    bar = np.array([[100, 78, 1], [100, 122, 1]], np.float64) @ turn.T
    cv2.line(img, tuple(int(v) for v in np.round(bar[0])), tuple(int(v) for v in np.round(bar[1])), (20, 20, 20), 3)
    x1, y1 = corners[:, :2].min(axis=0)
    x2, y2 = corners[:, :2].max(axis=0)
    return img, (float(x1), float(y1), float(x2), float(y2))


def _bar_lean(crop: np.ndarray) -> float:
    """How far the dark bar's middle moves across the crop from its top third to its bottom third (px)."""
    dark = crop.mean(axis=2) < 90
    light = crop.mean(axis=2) > 150
    rows = [r for r in range(crop.shape[0]) if dark[r, 8:-8].any() and light[r].sum() > crop.shape[1] // 3]
    top, bottom = rows[: len(rows) // 3], rows[-(len(rows) // 3):]

    def middle(rs: list[int]) -> float:
        return float(np.mean([np.nonzero(dark[r, 8:-8])[0].mean() for r in rs]))

    return middle(bottom) - middle(top)


def test_the_tilted_crop_stands_an_askew_tile_up() -> None:
    img, box = _photo_with_an_askew_tile()
    assert abs(_bar_lean(C.crop_tile(img, box))) > 8  # the usual crop shows the bar leaning
    [upright, worse] = C.tilted_crops(img, box, (-ASKEW, ASKEW))
    assert upright.shape == worse.shape == (C.CROP_H, C.CROP_W, 3)
    assert abs(_bar_lean(upright)) < STANDING  # turned back by as much as it lies askew
    assert abs(_bar_lean(worse)) > 8  # turned the other way, it leans on


def test_a_tilted_crop_by_nothing_is_the_usual_crop_and_a_sideways_box_stands_up() -> None:
    img = np.zeros((120, 160, 3), np.uint8)
    img[..., 0] = np.arange(160, dtype=np.uint8)[None, :]  # smooth ramps: a pixel's place shows in its colour
    img[..., 1] = np.arange(120, dtype=np.uint8)[:, None] * 2
    for box in [(50.0, 30.0, 90.0, 86.0), (40.0, 40.0, 110.0, 80.0)]:  # upright, and a sideways claimed tile
        [still] = C.tilted_crops(img, box, (0.0,))
        assert np.abs(still.astype(int) - C.crop_tile(img, box)).mean() < 3


def test_a_tilted_crop_at_the_photo_edge_is_filled_not_shifted() -> None:
    img = np.full((100, 100, 3), 200, np.uint8)
    img[:, :4] = 0  # a dark stripe along the left edge, where the box starts
    [crop] = C.tilted_crops(img, (0.0, 20.0, 40.0, 76.0), (0.0,))
    assert crop.shape == (C.CROP_H, C.CROP_W, 3)
    assert crop[:, C.CROP_W // 2].mean() > 190  # the tile's middle stays in the middle of the crop
    [gone] = C.tilted_crops(img, (300.0, 300.0, 340.0, 356.0), (15.0,))
    assert not gone.any()  # a box off the photo gives an empty crop, no error


def _reads_seven_when_standing(crops: np.ndarray) -> np.ndarray:
    """A stand-in classifier sure of 七萬 when the bar stands straight, torn towards 五萬 when it leans."""
    p = np.full((len(crops), len(CLASSIFIER_NAMES)), 1e-4)
    for k, c in enumerate(crops):
        if abs(_bar_lean(c)) < STANDING:
            p[k, CLASSIFIER_NAMES.index("7m")], p[k, CLASSIFIER_NAMES.index("5m")] = 0.95, 0.03
        else:
            p[k, CLASSIFIER_NAMES.index("5m")], p[k, CLASSIFIER_NAMES.index("7m")] = 0.45, 0.4
    return p


def _counting_classifier(monkeypatch, read) -> tuple[C.TileClassifier, list[int]]:  # noqa: ANN001
    """A TileClassifier whose reading of a stack of crops is `read`, and the size of every stack it read."""
    calls: list[int] = []

    def call(self, crops: np.ndarray) -> np.ndarray:  # noqa: ANN001
        calls.append(len(crops))
        return read(crops)

    monkeypatch.setattr(C.TileClassifier, "__call__", call)
    clf = C.TileClassifier.__new__(C.TileClassifier)
    clf.names = CLASSIFIER_NAMES
    return clf, calls


def test_an_askew_tile_the_second_look_left_torn_is_read_from_the_third(monkeypatch) -> None:  # noqa: ANN001
    img, box = _photo_with_an_askew_tile()
    clf, calls = _counting_classifier(monkeypatch, _reads_seven_when_standing)
    [(tile, p)] = clf.classify(img, [box])
    assert tile == "7m"  # the view tilted upright, both ways up, outvotes the leaning ones
    assert calls == [1, 3, 4]  # first look, second look (3 views), third look (2 tilts both ways up)
    assert p > 0.4


def test_without_the_third_look_that_tile_was_misread(monkeypatch) -> None:  # noqa: ANN001
    img, box = _photo_with_an_askew_tile()
    monkeypatch.setattr(C, "THIRD_LOOK_TILTS", ())
    clf, calls = _counting_classifier(monkeypatch, _reads_seven_when_standing)
    [(tile, _)] = clf.classify(img, [box])
    assert tile == "5m"
    assert calls == [1, 3]


def test_a_crop_the_second_look_made_sure_gets_no_third_look(monkeypatch) -> None:  # noqa: ANN001
    img, box = _photo_with_an_askew_tile()
    clf, calls = _counting_classifier(monkeypatch, lambda crops: _sure_after_the_first(crops, calls))
    [(tile, p)] = clf.classify(img, [box])
    assert (tile, calls) == ("9p", [1, 3])
    assert p >= C.SECOND_LOOK_BELOW


def _sure_after_the_first(crops: np.ndarray, calls: list[int]) -> np.ndarray:
    """A stand-in unsure of 9筒 (0.6) on the first look and sure (0.9) on every later view."""
    p = np.full((len(crops), len(CLASSIFIER_NAMES)), 1e-4)
    p[:, CLASSIFIER_NAMES.index("9p")] = 0.6 if len(calls) == 1 else 0.9
    return p


def test_a_box_that_could_not_be_kept_however_named_gets_no_third_look(monkeypatch) -> None:  # noqa: ANN001
    from vision.reader.detector import class_prob_needed, tile_confidence

    img, box = _photo_with_an_askew_tile()
    clf, calls = _counting_classifier(monkeypatch, _reads_seven_when_standing)
    # after two looks its best tile has 0.45: sure tilted views could lift it to (0.45 × 4 + 4) / 8 ≈ 0.72
    [((tile, _),)] = clf.classify_top(img, [box], 1, needed=np.array([0.8]))
    assert (tile, calls) == ("5m", [1, 3])  # 0.8 is out of reach: no third look, its reading is left as it was
    calls.clear()
    [((tile, _),)] = clf.classify_top(img, [box], 1, needed=np.array([0.7]))
    assert (tile, calls) == ("7m", [1, 3, 4])
    for conf, score in [(0.25, 0.2), (0.25, 0.6), (0.1, 0.05)]:
        assert abs(tile_confidence(score, class_prob_needed(conf, score)) - conf) < 1e-9
    assert class_prob_needed(0.0, 0.3) == 0.0


def test_a_crop_the_second_look_left_fairly_sure_gets_no_third_look(monkeypatch) -> None:  # noqa: ANN001
    img, box = _photo_with_an_askew_tile()

    def fairly_sure(crops: np.ndarray) -> np.ndarray:
        p = np.full((len(crops), len(CLASSIFIER_NAMES)), 1e-4)
        p[:, CLASSIFIER_NAMES.index("9p")] = 0.6  # under SECOND_LOOK_BELOW, over THIRD_LOOK_BELOW on every view
        return p

    clf, calls = _counting_classifier(monkeypatch, fairly_sure)
    [(tile, p)] = clf.classify(img, [box])
    assert (tile, round(p, 2), calls) == ("9p", 0.6, [1, 3])
    monkeypatch.setattr(C, "THIRD_LOOK_BELOW", 0.8)
    calls.clear()
    clf.classify(img, [box])
    assert calls == [1, 3, 4]
