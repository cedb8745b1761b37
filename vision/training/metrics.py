"""Matching rules of the evaluation (small, tested functions).

* `iou_matrix` — pairwise IoU of x1y1x2y2 boxes (`vision.reader.boxes`);
* `true_positives` — per prediction and IoU threshold 0.50:0.95, whether it hits a not-yet-matched
  ground-truth box of its class (greedy by confidence, as COCO/ultralytics);
* `one_to_one_pairs`, `tile_accuracy_counts` — each ground-truth tile is matched one-to-one to the best-overlapping
  prediction of any class (IoU ≥ 0.5); it counts as right when the classes agree (a missed tile is
  wrong, an extra prediction does not add to the count but breaks the hand exact-match);
* `hand_exact` — the photo's whole multiset of predicted tiles equals the labelled one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np

from vision.reader.boxes import iou_matrix
from vision.reader.detection import Detection

__all__ = ["IOU_THRESHOLDS", "box_recall_counts", "hand_exact", "iou_matrix", "one_to_one_pairs", "tile_accuracy_counts",
           "true_positives"]

IOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)


def true_positives(
    pred_boxes: np.ndarray, pred_cls: np.ndarray, conf: np.ndarray, gt_boxes: np.ndarray, gt_cls: np.ndarray
) -> np.ndarray:
    """N×10 bool: prediction i is a true positive at IoU threshold j (greedy by confidence)."""
    n = len(pred_cls)
    tp = np.zeros((n, len(IOU_THRESHOLDS)), dtype=bool)
    if n == 0 or len(gt_cls) == 0:
        return tp
    ious = iou_matrix(pred_boxes, gt_boxes)
    same = np.asarray(pred_cls)[:, None] == np.asarray(gt_cls)[None, :]
    order = np.argsort(-np.asarray(conf), kind="stable")
    for j, t in enumerate(IOU_THRESHOLDS):
        taken = np.zeros(len(gt_cls), dtype=bool)
        for i in order:
            cand = np.where(same[i] & ~taken & (ious[i] >= t))[0]
            if cand.size:
                k = cand[np.argmax(ious[i, cand])]
                taken[k] = True
                tp[i, j] = True
    return tp


def one_to_one_pairs(pred: list[Detection], gt: list[Detection], iou: float = 0.5) -> list[tuple[int, int]]:
    """(pred, gt) index pairs, each box in one pair at most, taken by best IoU first among those ≥ `iou`."""
    if not pred or not gt:
        return []
    ious = iou_matrix(np.array([p.box for p in pred]), np.array([g.box for g in gt]))
    pairs = sorted(((ious[i, k], i, k) for i in range(len(pred)) for k in range(len(gt)) if ious[i, k] >= iou), reverse=True)
    used_p: set[int] = set()
    used_g: set[int] = set()
    out = []
    for _, i, k in pairs:
        if i not in used_p and k not in used_g:
            used_p.add(i)
            used_g.add(k)
            out.append((i, k))
    return out


def tile_accuracy_counts(pred: list[Detection], gt: list[Detection], iou: float = 0.5) -> tuple[int, int]:
    """(right, total) ground-truth tiles: one-to-one match by best IoU (`one_to_one_pairs`), right when tiles agree."""
    right = sum(pred[i].tile == gt[k].tile for i, k in one_to_one_pairs(pred, gt, iou))
    return int(right), len(gt)


def box_recall_counts(pred: list[Detection], gt: list[Detection], iou: float = 0.5) -> tuple[int, int]:
    """(found, total) ground-truth tiles covered by some predicted box (IoU ≥ iou), class ignored."""
    if not gt:
        return 0, 0
    if not pred:
        return 0, len(gt)
    ious = iou_matrix(np.array([g.box for g in gt]), np.array([p.box for p in pred]))
    return int((ious.max(axis=1) >= iou).sum()), len(gt)


def hand_exact(pred: Iterable[Detection], gt: Iterable[Detection]) -> bool:
    """The photo's multiset of predicted tiles equals the labelled multiset."""
    return Counter(d.tile for d in pred) == Counter(d.tile for d in gt)

