"""The second look's wider crop: a box the detector cut short still shows the tile's top stroke."""

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
    monkeypatch.setattr(C.TileClassifier, "__call__", lambda self, crops: _reads_three_when_the_stroke_shows(crops))
    clf = C.TileClassifier.__new__(C.TileClassifier)
    clf.names = CLASSIFIER_NAMES
    return clf


def test_a_box_cut_short_of_the_top_stroke_is_read_right_from_the_wider_second_look(monkeypatch) -> None:  # noqa: ANN001
    img, box = _photo_with_a_stroke_above_the_box()
    [(tile, p)] = _classifier(monkeypatch).classify(img, [box])
    assert tile == "3m"  # the two wider views see the stroke and outvote the two usual ones
    assert abs(p - (0.4 + 0.4 + 0.9 + 0.9) / 4) < 1e-3


def test_the_old_wide_margin_missed_that_stroke(monkeypatch) -> None:  # noqa: ANN001
    img, box = _photo_with_a_stroke_above_the_box()
    monkeypatch.setattr(C, "SECOND_LOOK_MARGIN", 0.18)
    [(tile, _)] = _classifier(monkeypatch).classify(img, [box])
    assert tile == "2m"  # 18 % a side stops a row short of the stroke: every view is torn, 二萬 wins


def test_a_sure_crop_is_not_looked_at_again_however_wide(monkeypatch) -> None:  # noqa: ANN001
    img, box = _photo_with_a_stroke_above_the_box()
    img[28:31, 34:76] = 210  # no stroke: the stand-in is torn on every view
    monkeypatch.setattr(C, "SECOND_LOOK_BELOW", 0.4)  # … but 0.5 is sure enough now
    [(tile, p)] = _classifier(monkeypatch).classify(img, [box])
    assert (tile, round(p, 2)) == ("2m", 0.5)
