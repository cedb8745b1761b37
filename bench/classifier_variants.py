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


#: The views `--tta` reads every box in: (margin a side, shift (x, y) as a fraction of the box, turned 180°).
TTA_VIEWS: dict[str, tuple[float, tuple[float, float], bool]] = {
    "usual": (0.12, (0.0, 0.0), False), "usual turned": (0.12, (0.0, 0.0), True),
    "wide": (0.18, (0.0, 0.0), False), "wide turned": (0.18, (0.0, 0.0), True),
    "narrow": (0.06, (0.0, 0.0), False), "narrow turned": (0.06, (0.0, 0.0), True),
    "right": (0.12, (0.05, 0.0), False), "left": (0.12, (-0.05, 0.0), False),
    "down": (0.12, (0.0, 0.05), False), "up": (0.12, (0.0, -0.05), False),
    "wider": (0.24, (0.0, 0.0), False), "wider turned": (0.24, (0.0, 0.0), True),
    "0.21": (0.21, (0.0, 0.0), False), "0.21 turned": (0.21, (0.0, 0.0), True),
    "0.30": (0.30, (0.0, 0.0), False), "0.30 turned": (0.30, (0.0, 0.0), True),
}


def view_crops(rgb: np.ndarray, boxes: np.ndarray, view: tuple[float, tuple[float, float], bool]) -> np.ndarray:
    """The N crops of `boxes` as one `TTA_VIEWS` view sees them."""
    from vision.reader.classifier import crop_tile, turned

    margin, (sx, sy), turn = view
    jitter = np.array([-sx, sx, -sy, sy])
    crops = np.stack([crop_tile(rgb, tuple(b), margin, jitter) for b in boxes])
    return turned(crops) if turn else crops


def view_logits(split: Path, boxes: dict, classifier_onnx: Path, cache: Path) -> dict[str, np.ndarray]:
    """{image name: V × N × C logits}: every box of the photo read in each of `TTA_VIEWS`."""
    from vision.datasets.yolo import image_files
    from vision.reader.classifier import TileClassifier, to_blob
    from vision.reader.image import load_image

    key = f"{split.resolve()}|{classifier_onnx.resolve()}|{classifier_onnx.stat().st_mtime_ns}|{sorted(TTA_VIEWS.items())}"
    if cache.is_file():
        stored = pickle.loads(cache.read_bytes())
        if stored.get("key") == key:
            return stored["logits"]
    clf = TileClassifier(classifier_onnx)
    out = {}
    for p in image_files(split):
        b = boxes[p.name][0]
        if not len(b):
            out[p.name] = np.zeros((len(TTA_VIEWS), 0, len(clf.names)), np.float32)
            continue
        rgb = load_image(p)
        out[p.name] = np.stack([
            np.concatenate([clf.session.run(None, {clf.input_name: to_blob(view_crops(rgb, b[i:i + 64], v))})[0]
                            for i in range(0, len(b), 64)])
            for v in TTA_VIEWS.values()])
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(pickle.dumps({"key": key, "logits": out}))
    return out


def tta_probs(logits: np.ndarray, views: tuple[str, ...], below: float, tiles: list[int], mean_of: str = "probs",
              log_prior: np.ndarray | None = None, prior_weight: float = 0.0, temperature: float = 1.0) -> np.ndarray:
    """N × C probabilities of one reading rule: the usual view, and for a crop whose best tile is under
    `below` the mean of `views` (of probabilities or of logits), then less `prior_weight` × log prior;
    every logit divided by `temperature` first."""
    from vision.reader.classifier import softmax

    names = list(TTA_VIEWS)
    logits = logits / temperature
    probs = softmax(logits[0])
    unsure = np.nonzero(probs[:, tiles].max(axis=1) < below)[0]
    if len(unsure):
        idx = [names.index(v) for v in views]
        chosen = logits[idx][:, unsure]
        if mean_of == "logits":
            probs[unsure] = softmax(chosen.mean(axis=0))
        else:
            probs[unsure] = np.mean([softmax(z) for z in chosen], axis=0)
        if log_prior is not None and prior_weight:
            probs[unsure] = softmax(np.log(np.maximum(probs[unsure], 1e-12)) - prior_weight * log_prior)
    return probs


def read_with(probs_of: dict[str, np.ndarray], boxes: dict, names: tuple[str, ...]):  # noqa: ANN201 - a detect_fn
    """A `detect_fn` for `evaluate` naming the cached boxes from the given probabilities, as `_classify` does."""
    from vision.reader.classifier import TOP_CHOICES, tile_columns
    from vision.reader.detection import Detection
    from vision.reader.detector import drop_covered, tile_confidence

    tiles = tile_columns(names)

    def detect(path: Path) -> list:
        b, s = boxes[path.name]
        probs = probs_of[path.name]
        dets = []
        for n, (box, score) in enumerate(zip(b, s)):
            if box[2] <= box[0] or box[3] <= box[1]:
                continue
            order = np.argsort(-probs[n, tiles], kind="stable")[:TOP_CHOICES]
            top = tuple((names[tiles[j]], float(probs[n, tiles[j]])) for j in order)
            dets.append(Detection(tuple(float(v) for v in box), top[0][0], tile_confidence(float(score), top[0][1]), top))
        return sorted(drop_covered(dets), key=lambda d: (d.cx, d.cy))

    return detect


#: The reading rules `--tta` compares: name → keyword arguments of `tta_probs`.
FOUR = ("usual", "usual turned", "wide", "wide turned")
SIX = (*FOUR, "narrow", "narrow turned")
TEN = tuple(TTA_VIEWS)[:10]
WIDER = ("usual", "usual turned", "wider", "wider turned")
TTA_RULES: dict[str, dict] = {
    "first look only": {"views": ("usual",), "below": 0.0},
    "was shipped: 4 views (0.18) below 0.8": {"views": FOUR, "below": 0.8},
    "4 views below 0.9": {"views": FOUR, "below": 0.9},
    "4 views, logits, below 0.8": {"views": FOUR, "below": 0.8, "mean_of": "logits"},
    "usual both ways below 0.8": {"views": ("usual", "usual turned"), "below": 0.8},
    "6 views (+ narrow) below 0.8": {"views": SIX, "below": 0.8},
    "6 views below 0.9": {"views": SIX, "below": 0.9},
    "10 views (+ shifts) below 0.8": {"views": TEN, "below": 0.8},
    "10 views below 0.9": {"views": TEN, "below": 0.9},
    "10 views, logits, below 0.9": {"views": TEN, "below": 0.9, "mean_of": "logits"},
    "4 views, logits, below 0.9": {"views": FOUR, "below": 0.9, "mean_of": "logits"},
    "4 views, every crop": {"views": FOUR, "below": 1.01},
    "4 views, logits, every crop": {"views": FOUR, "below": 1.01, "mean_of": "logits"},
    "shipped: 4 views (0.24) below 0.8": {"views": WIDER, "below": 0.8},
    "6 views (+ wider 0.24) below 0.8": {"views": (*FOUR, "wider", "wider turned"), "below": 0.8},
    "6 views (+ wider), logits, below 0.8": {"views": (*FOUR, "wider", "wider turned"), "below": 0.8, "mean_of": "logits"},
    "0.21 for wide, below 0.8": {"views": ("usual", "usual turned", "0.21", "0.21 turned"), "below": 0.8},
    "0.30 for wide, below 0.8": {"views": ("usual", "usual turned", "0.30", "0.30 turned"), "below": 0.8},
    "wider 0.24 for wide, below 0.9": {"views": WIDER, "below": 0.9},
    "wider 0.24 for wide, logits, below 0.8": {"views": WIDER, "below": 0.8, "mean_of": "logits"},
    "wider 0.24, temperature 0.8": {"views": WIDER, "below": 0.8, "temperature": 0.8},
    "wider 0.24, temperature 1.25": {"views": WIDER, "below": 0.8, "temperature": 1.25},
    "4 views below 0.8, prior 0.25": {"views": FOUR, "below": 0.8, "prior_weight": 0.25},
    "4 views below 0.8, prior 0.5": {"views": FOUR, "below": 0.8, "prior_weight": 0.5},
}


def train_log_prior(train: Path, names: tuple[str, ...]) -> np.ndarray:
    """log of each class's share of the `train` labels (add-one; `none` and `back`, which the labels hardly
    hold, at the mean share, so that the correction does not push every doubtful box to them)."""
    from vision.datasets.yolo import image_files, label_file, read_yolo_labels
    from vision.reader.detection import CLASS_NAMES

    counts = np.ones(len(names))
    for p in image_files(train):
        for box in read_yolo_labels(label_file(p)):
            counts[names.index(CLASS_NAMES[box.cls])] += 1
    rare = [names.index(n) for n in ("none", "back") if n in names]
    counts[rare] = np.delete(counts, rare).mean()
    return np.log(counts / counts.sum())


def tta_main(args: argparse.Namespace) -> int:
    """`--tta`: each reading rule of `TTA_RULES` over cached boxes and views, per split given."""
    from vision.reader.classifier import TileClassifier, tile_columns
    from vision.training.evaluate import evaluate

    clf_onnx = args.classifiers[0]
    names = TileClassifier(clf_onnx).names
    tiles = tile_columns(names)
    log_prior = train_log_prior(args.train, names) if args.train else None
    splits = [args.split, *args.more_splits]
    cached = []
    for split in splits:
        tag = split.resolve().as_posix().replace("/", "_")
        boxes = cached_boxes(split, args.detector, args.cache.parent / f"boxes{tag}.pkl")
        logits = view_logits(split, boxes, clf_onnx, args.cache.parent / f"views{tag}.pkl")
        cached.append((split, boxes, logits))
    for rule, kw in TTA_RULES.items():
        if args.rules and rule not in args.rules:
            continue
        if "prior_weight" in kw and log_prior is None:
            continue
        for split, boxes, logits in cached:
            probs = {k: tta_probs(v, tiles=tiles, log_prior=log_prior, **kw) for k, v in logits.items()}
            r = evaluate(split, read_with(probs, boxes, names), conf=0.25)
            right = round(r.tile_accuracy * r.tiles)
            print(f"{rule:34s} {split.name:10s} mAP50 {r.map50:.3f}  per-tile {r.tile_accuracy:.4f} ({right}/{r.tiles})  "
                  f"recall {r.box_recall:.3f}  exact {r.hand_exact_match:.3f} ({round(r.hand_exact_match * r.images)}/{r.images})",
                  flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("split", type=Path)
    ap.add_argument("classifiers", type=Path, nargs="+")
    ap.add_argument("--detector", type=Path, default=ROOT / "models" / "tiles.onnx")
    ap.add_argument("--cache", type=Path, default=ROOT / "runs" / "cache" / "valid_boxes.pkl")
    ap.add_argument("--margin", type=float, help="crop margin to read at (default: vision.reader.classifier.CROP_MARGIN)")
    ap.add_argument("--no-second-look", action="store_true", help="read every crop once")
    ap.add_argument("--conf", type=float, nargs="+", default=[0.2, 0.25, 0.3, 0.35])
    ap.add_argument("--tta", action="store_true", help="compare the reading rules of TTA_RULES (first classifier) instead")
    ap.add_argument("--more-splits", type=Path, nargs="*", default=[], help="with --tta: further splits to score")
    ap.add_argument("--train", type=Path, help="with --tta: the train split, whose label shares are the prior")
    ap.add_argument("--rules", nargs="*", help="with --tta: only these rules")
    args = ap.parse_args(argv)
    if args.tta:
        return tta_main(args)

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
