"""Evaluation of the detector on a labelled YOLO folder: mAP50, mAP50-95, per-class AP (computed by
ultralytics' own `ap_per_class`), per-tile accuracy, hand exact-match and latency.

The matching rules live in `vision.training.metrics`; the labels are read by `vision.datasets.yolo`.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.datasets.yolo import ground_truth, image_files
from vision.reader.detection import CLASS_NAMES, Detection
from vision.training.metrics import box_recall_counts, hand_exact, tile_accuracy_counts, true_positives


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
