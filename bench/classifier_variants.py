"""Compare crop classifiers (and their reading settings) end to end on one labelled split, from cached
detector boxes: the YOLO stage runs once per photo, then each variant re-runs only the second stage
(`TileDetector._classify`: crop, classify, box^⅔ × class^⅓, covered-box rules) and is scored by
`vision.training.evaluate.evaluate` exactly as `jingsuan eval` scores the whole reader.

    python bench/classifier_variants.py runs/data/cmd-v4/valid \
        models/tile_classifier.onnx runs/cls/candidate.onnx [--margin 0.12] [--no-second-look]

Prints mAP50, per-tile accuracy, box recall and hand exact-match at several thresholds per variant.
Choosing a classifier this way is model selection on that split: say so wherever the figures go.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def cached_boxes(split: Path, detector_onnx: Path, cache: Path) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """{image name: (boxes, box scores)} of the YOLO stage at the floor `jingsuan eval` uses (conf 0.001)."""
    from vision.datasets.yolo import image_files
    from vision.reader.detector import TileDetector
    from vision.reader.image import load_image

    key = f"{split.resolve()}|{detector_onnx.resolve()}|{detector_onnx.stat().st_mtime_ns}"
    if cache.is_file():
        stored = pickle.loads(cache.read_bytes())
        if stored.get("key") == key:
            return stored["boxes"]
    det = TileDetector(detector_onnx, classifier=False, boxes_only=True)
    out = {}
    for p in image_files(split):
        boxes, scores, _ = det.find_boxes(load_image(p), 0.001)
        out[p.name] = (boxes, scores)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(pickle.dumps({"key": key, "boxes": out}))
    return out


def score_variant(split: Path, boxes: dict, detector_onnx: Path, classifier_onnx: Path, confs: list[float]) -> list[dict]:
    """End-to-end figures of one classifier over the cached boxes, one row per threshold."""
    from vision.reader.detector import TileDetector
    from vision.reader.image import load_image
    from vision.training.evaluate import evaluate

    reader = TileDetector(detector_onnx, classifier=classifier_onnx)
    cache: dict[str, list] = {}

    def detect(path: Path) -> list:
        if path.name not in cache:
            b, s = boxes[path.name]
            cache[path.name] = reader._classify(load_image(path), b, s)
        return cache[path.name]

    rows = []
    for conf in confs:
        t0 = time.perf_counter()
        r = evaluate(split, detect, conf=conf)
        rows.append({"conf": conf, "map50": r.map50, "tile": r.tile_accuracy, "recall": r.box_recall,
                     "exact": r.hand_exact_match, "tiles": r.tiles, "s": time.perf_counter() - t0})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("split", type=Path)
    ap.add_argument("classifiers", type=Path, nargs="+")
    ap.add_argument("--detector", type=Path, default=ROOT / "models" / "tiles.onnx")
    ap.add_argument("--cache", type=Path, default=ROOT / "runs" / "cache" / "valid_boxes.pkl")
    ap.add_argument("--margin", type=float, help="crop margin to read at (default: vision.reader.classifier.CROP_MARGIN)")
    ap.add_argument("--no-second-look", action="store_true", help="read every crop once")
    ap.add_argument("--conf", type=float, nargs="+", default=[0.2, 0.25, 0.3, 0.35])
    args = ap.parse_args(argv)

    from vision.reader import classifier as C

    saved = C.CROP_MARGIN, C.SECOND_LOOK_BELOW
    try:  # the reading settings are module constants: set them for this run only
        if args.margin is not None:
            C.CROP_MARGIN = args.margin
        if args.no_second_look:
            C.SECOND_LOOK_BELOW = 0.0
        boxes = cached_boxes(args.split, args.detector, args.cache)
        print(f"{len(boxes)} photos; margin {C.CROP_MARGIN}, second look below {C.SECOND_LOOK_BELOW}")
        for clf in args.classifiers:
            for row in score_variant(args.split, boxes, args.detector, clf, args.conf):
                print(f"{clf.name:32s} conf {row['conf']:.2f}  mAP50 {row['map50']:.4f}  per-tile {row['tile']:.4f}  "
                      f"recall {row['recall']:.4f}  exact {row['exact']:.4f}  ({row['tiles']} tiles, {row['s']:.0f} s)",
                      flush=True)
    finally:
        C.CROP_MARGIN, C.SECOND_LOOK_BELOW = saved
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
