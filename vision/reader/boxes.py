"""Box arithmetic shared by the reader, the datasets and the training metrics: x1y1x2y2 boxes as NumPy arrays."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in `a` (N×4) with every box in `b` (M×4) → N×M."""
    a, b = np.asarray(a, float).reshape(-1, 4), np.asarray(b, float).reshape(-1, 4)
    tl = np.maximum(a[:, None, :2], b[None, :, :2])
    br = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.clip(br - tl, 0, None).prod(axis=2)
    area_a = np.clip(a[:, 2:] - a[:, :2], 0, None).prod(axis=1)
    area_b = np.clip(b[:, 2:] - b[:, :2], 0, None).prod(axis=1)
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-12)


def box_area(box: Sequence[float]) -> float:
    """A x1y1x2y2 box's area (0 for an empty box)."""
    return max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)


def box_iou(a: Sequence[float], b: Sequence[float]) -> float:
    """IoU of two x1y1x2y2 boxes (0 when they do not overlap or have no area)."""
    return float(iou_matrix(np.asarray(a, float), np.asarray(b, float))[0, 0])


def covered_shares(box: Sequence[float], others: Iterable[Sequence[float]]) -> list[float]:
    """The share of `box`'s area that each of `others` covers (x1y1x2y2)."""
    area = max((box[2] - box[0]) * (box[3] - box[1]), 1e-9)
    return [max(0.0, min(box[2], o[2]) - max(box[0], o[0])) * max(0.0, min(box[3], o[3]) - max(box[1], o[1])) / area
            for o in others]


def nms(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float = 0.5, limit: int | None = None) -> list[int]:
    """Greedy non-maximum suppression; returns indices kept, best score first, at most `limit` of them (the first
    `limit` of all: a weaker box never suppresses a stronger one, so it stops there; a busy photo read down to the
    faint boxes keeps over a thousand)."""
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    order = np.argsort(-np.asarray(scores, dtype=np.float64).reshape(-1), kind="stable")
    keep: list[int] = []
    while order.size and (limit is None or len(keep) < limit):
        i, rest = int(order[0]), order[1:]
        keep.append(i)
        order = rest[iou_matrix(boxes[i], boxes[rest])[0] <= iou_threshold]
    return keep
