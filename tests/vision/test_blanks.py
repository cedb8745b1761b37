"""`vision.reader.blanks`: how unlike the photo's surest 白板 each other box named 白板 looks."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.reader.blanks import BlankLikeness
from vision.reader.detection import Detection
from vision.reader.layout import BLANK_APART

CLOTH, FACE, FRAME = (40, 110, 60), (236, 232, 220), (40, 70, 160)
TW, TH = 60, 80


@pytest.fixture(scope="module")
def classifier():  # noqa: ANN201 - vision.reader.classifier.TileClassifier
    from vision.reader.classifier import TileClassifier
    from vision.reader.detector import DEFAULT_CLASSIFIER

    return TileClassifier(DEFAULT_CLASSIFIER)


def table() -> tuple[np.ndarray, list[Detection]]:
    """Green cloth, two tiles of a set whose 白板 wear a blue frame, and below them the plain white side of a tile
    wall; all three boxes named 白板 (0.99, 0.97, 0.9)."""
    rgb = np.zeros((260, 400, 3), np.uint8)
    rgb[:] = CLOTH
    boxes = []
    for i in range(2):
        x, y = 30 + i * (TW + 4), 40
        rgb[y : y + TH, x : x + TW] = FACE
        cv2.rectangle(rgb, (x + 9, y + 10), (x + TW - 10, y + TH - 11), FRAME, 3)
        boxes.append((float(x), float(y), float(x + TW), float(y + TH)))
    rgb[150 : 150 + TH, 20:380] = FACE
    boxes.append((200.0, 150.0, 200.0 + TW, 150.0 + TH))
    return rgb, [Detection(b, "5z", 0.9, (("5z", p),)) for b, p in zip(boxes, (0.99, 0.97, 0.9), strict=True)]


def test_a_wall_named_blank_looks_unlike_the_sets_framed_blank_and_its_twin_looks_alike(classifier) -> None:
    rgb, dets = table()
    apart = [d.blank_apart for d in BlankLikeness(rgb, classifier)(dets)]
    assert apart[0] == 0.0  # the surest is the one compared with
    assert apart[1] < 0.05 < BLANK_APART <= apart[2]


def test_boxes_asked_to_be_kept_stay_the_very_same_objects_and_other_tiles_are_not_looked_at(classifier) -> None:
    rgb, dets = table()
    kept = BlankLikeness(rgb, classifier)(dets, keep=lambda d: d is dets[2])
    assert kept[2] is dets[2] and kept[0] is dets[0] and kept[1].blank_apart > 0.0
    one = [dets[0], Detection(dets[2].box, "2s", 0.9, (("2s", 0.9),))]  # a single 白板: nothing to compare with
    assert BlankLikeness(rgb, classifier)(one) == one


def test_a_classifier_giving_no_embedding_leaves_the_boxes_as_they_are() -> None:
    rgb, dets = table()
    assert BlankLikeness(rgb, object())(dets) == dets
