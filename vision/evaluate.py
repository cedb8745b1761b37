"""Evaluation of the detector on a labelled YOLO folder: mAP50, mAP50-95, per-class AP (computed by
ultralytics' own `ap_per_class`), per-tile accuracy, hand exact-match and latency.

Matching rules (small, tested functions):
* `iou_matrix` — pairwise IoU of x1y1x2y2 boxes;
* `true_positives` — per prediction and IoU threshold 0.50:0.95, whether it hits a not-yet-matched
  ground-truth box of its class (greedy by confidence, as COCO/ultralytics);
* `tile_accuracy_counts` — each ground-truth tile is matched one-to-one to the best-overlapping
  prediction of any class (IoU ≥ 0.5); it counts as right when the classes agree (a missed tile is
  wrong, an extra prediction does not add to the count but breaks the hand exact-match);
* `hand_exact` — the photo's whole multiset of predicted tiles equals the labelled one.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.data import IMAGE_SUFFIXES, read_yolo_labels
from vision.detection import CLASS_NAMES, Detection

IOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in `a` (N×4) with every box in `b` (M×4) → N×M."""
    a, b = np.asarray(a, float).reshape(-1, 4), np.asarray(b, float).reshape(-1, 4)
    tl = np.maximum(a[:, None, :2], b[None, :, :2])
    br = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.clip(br - tl, 0, None).prod(axis=2)
    area_a = np.clip(a[:, 2:] - a[:, :2], 0, None).prod(axis=1)
    area_b = np.clip(b[:, 2:] - b[:, :2], 0, None).prod(axis=1)
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-12)


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


def tile_accuracy_counts(pred: list[Detection], gt: list[Detection], iou: float = 0.5) -> tuple[int, int]:
    """(right, total) ground-truth tiles: one-to-one match by best IoU, right when tiles agree."""
    if not gt:
        return 0, 0
    if not pred:
        return 0, len(gt)
    ious = iou_matrix(np.array([p.box for p in pred]), np.array([g.box for g in gt]))
    right = 0
    pairs = sorted(((ious[i, k], i, k) for i in range(len(pred)) for k in range(len(gt)) if ious[i, k] >= iou), reverse=True)
    used_p: set[int] = set()
    used_g: set[int] = set()
    for _, i, k in pairs:
        if i in used_p or k in used_g:
            continue
        used_p.add(i)
        used_g.add(k)
        right += pred[i].tile == gt[k].tile
    return right, len(gt)


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


def label_file(image_path: Path) -> Path:
    """The YOLO label file of an image in a split: ``../labels/<stem>.txt``."""
    return image_path.parent.parent / "labels" / (image_path.stem + ".txt")


def ground_truth(image_path: Path, width: int, height: int) -> list[Detection]:
    """Labels next to an image (`label_file`) as Detections in pixels."""
    lbl = label_file(image_path)
    out = []
    for b in read_yolo_labels(lbl):
        if 0 <= b.cls < len(CLASS_NAMES):
            x1, y1, x2, y2 = b.xyxy()
            out.append(Detection((x1 * width, y1 * height, x2 * width, y2 * height), CLASS_NAMES[b.cls], 1.0))
    return out


@dataclass
class EvalResult:
    """Figures of one evaluation run."""

    images: int
    tiles: int
    map50: float
    map50_95: float
    per_class_ap50: dict[str, float]
    tile_accuracy: float
    box_recall: float
    hand_exact_match: float
    latency_median_s: float
    latency_p90_s: float
    conf: float
    per_image: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        d = self.__dict__.copy()
        d.pop("per_image")
        return d


def image_files(folder: str | Path) -> list[Path]:
    """Images of a YOLO split folder (``DIR/images`` if present, else DIR itself)."""
    root = Path(folder)
    img_dir = root / "images" if (root / "images").is_dir() else root
    return sorted(p for p in img_dir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def evaluate(
    folder: str | Path,
    detect_fn: Callable[[Path], list[Detection]],
    conf: float = 0.25,
    progress: Callable[[Iterable], Iterable] | None = None,
    limit: int | None = None,
) -> EvalResult:
    """Run `detect_fn` (which should keep low-confidence boxes, e.g. conf ≥ 0.001) on every image.

    mAP uses every box; accuracy and exact-match use boxes with confidence ≥ `conf`.
    """
    from PIL import Image
    from ultralytics.utils.metrics import ap_per_class

    files = image_files(folder)[:limit]
    idx = {n: i for i, n in enumerate(CLASS_NAMES)}
    tps, confs, pcls, tcls = [], [], [], []
    right = total = exact = found = 0
    lat: list[float] = []
    per_image = []
    for path in progress(files) if progress else files:
        with Image.open(path) as im:
            w, h = im.size
        gt = ground_truth(path, w, h)
        t0 = time.perf_counter()
        dets = detect_fn(path)
        lat.append(time.perf_counter() - t0)
        pb = np.array([d.box for d in dets]).reshape(-1, 4)
        pc = np.array([idx[d.tile] for d in dets], dtype=int)
        cf = np.array([d.conf for d in dets], dtype=float)
        gb = np.array([g.box for g in gt]).reshape(-1, 4)
        gc = np.array([idx[g.tile] for g in gt], dtype=int)
        tps.append(true_positives(pb, pc, cf, gb, gc))
        confs.append(cf)
        pcls.append(pc)
        tcls.append(gc)
        kept = [d for d in dets if d.conf >= conf]
        r, t = tile_accuracy_counts(kept, gt)
        right += r
        total += t
        found += box_recall_counts(kept, gt)[0]
        ok = hand_exact(kept, gt)
        exact += ok
        per_image.append({"image": path.name, "tiles": t, "right": r, "exact": ok})
    tp = np.concatenate(tps) if tps else np.zeros((0, 10), bool)
    cf_all = np.concatenate(confs) if confs else np.zeros(0)
    pc_all = np.concatenate(pcls) if pcls else np.zeros(0, int)
    tc_all = np.concatenate(tcls) if tcls else np.zeros(0, int)
    per_class: dict[str, float] = {}
    map50 = map50_95 = 0.0
    if len(tc_all) and len(tp):
        res = ap_per_class(tp, cf_all, pc_all, tc_all, names=dict(enumerate(CLASS_NAMES)))
        ap, classes = res[5], res[6]
        map50, map50_95 = float(ap[:, 0].mean()), float(ap.mean())
        per_class = {CLASS_NAMES[int(c)]: float(a) for c, a in zip(classes, ap[:, 0])}
    lat_sorted = sorted(lat)
    return EvalResult(
        images=len(files),
        tiles=total,
        map50=map50,
        map50_95=map50_95,
        per_class_ap50=per_class,
        tile_accuracy=right / total if total else 0.0,
        box_recall=found / total if total else 0.0,
        hand_exact_match=exact / len(files) if files else 0.0,
        latency_median_s=statistics.median(lat) if lat else 0.0,
        latency_p90_s=lat_sorted[int(0.9 * (len(lat_sorted) - 1))] if lat else 0.0,
        conf=conf,
        per_image=per_image,
    )
