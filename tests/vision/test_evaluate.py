"""Evaluation figures on small hand-made cases: perfect, one wrong tile, one missed tile."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from vision.datasets.yolo import YoloBox, write_yolo_labels
from vision.reader.detection import CLASS_NAMES, Detection
from vision.training.evaluate import evaluate
from vision.training.metrics import hand_exact, iou_matrix, tile_accuracy_counts, true_positives

GT = [Detection((10, 10, 30, 40), "1m", 1.0), Detection((30, 10, 50, 40), "5p", 1.0), Detection((50, 10, 70, 40), "back", 1.0)]


def test_iou_of_identical_disjoint_and_half_boxes():
    m = iou_matrix(np.array([[0, 0, 10, 10]]), np.array([[0, 0, 10, 10], [20, 20, 30, 30], [5, 0, 15, 10]]))
    np.testing.assert_allclose(m, [[1.0, 0.0, 1 / 3]])


def test_true_positive_needs_class_and_overlap_and_counts_a_box_once():
    gt_b = np.array([[0, 0, 10, 10]])
    pred_b = np.array([[0, 0, 10, 10], [0, 0, 10, 10], [0, 0, 10, 10]])
    tp = true_positives(pred_b, np.array([3, 3, 4]), np.array([0.9, 0.8, 0.95]), gt_b, np.array([3]))
    assert tp[:, 0].tolist() == [True, False, False]


def test_accuracy_and_exact_match():
    assert tile_accuracy_counts(GT, GT) == (3, 3) and hand_exact(GT, GT)
    wrong = [GT[0], Detection(GT[1].box, "6p", 0.9), GT[2]]
    assert tile_accuracy_counts(wrong, GT) == (2, 3) and not hand_exact(wrong, GT)
    missed = GT[:2]
    assert tile_accuracy_counts(missed, GT) == (2, 3) and not hand_exact(missed, GT)
    extra = [*GT, Detection((80, 10, 100, 40), "9s", 0.3)]
    assert tile_accuracy_counts(extra, GT) == (3, 3) and not hand_exact(extra, GT)


def _folder(tmp_path):
    (tmp_path / "images").mkdir()
    Image.new("RGB", (100, 50)).save(tmp_path / "images" / "a.png")
    idx = {n: i for i, n in enumerate(CLASS_NAMES)}
    write_yolo_labels(
        tmp_path / "labels" / "a.txt",
        [YoloBox.from_xyxy(idx[g.tile], g.box[0] / 100, g.box[1] / 50, g.box[2] / 100, g.box[3] / 50) for g in GT],
    )
    return tmp_path


def test_evaluate_perfect_detector_scores_one(tmp_path):
    res = evaluate(_folder(tmp_path), lambda p: list(GT))
    assert res.images == 1 and res.tiles == 3
    assert res.map50 == pytest.approx(1.0, abs=0.01) and res.map50_95 == pytest.approx(1.0, abs=0.01)
    assert res.tile_accuracy == 1.0 and res.hand_exact_match == 1.0
    assert set(res.per_class_ap50) == {"1m", "5p", "back"}


def test_evaluate_one_wrong_tile(tmp_path):
    res = evaluate(_folder(tmp_path), lambda p: [GT[0], Detection(GT[1].box, "6p", 0.9), GT[2]])
    assert res.tile_accuracy == pytest.approx(2 / 3) and res.hand_exact_match == 0.0
    assert res.box_recall == 1.0  # every tile was found, one was misread
    assert res.per_class_ap50["5p"] == 0.0 and res.map50 < 0.7
