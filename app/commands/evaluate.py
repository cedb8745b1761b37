"""`jingsuan eval DIR`: mAP50, mAP50-95, per-class AP, per-tile accuracy, hand exact-match, latency."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from app.commands import threshold

HELP = "评估识别模型 (evaluate the detector on a labelled YOLO folder)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", help="YOLO split folder (with images/ and labels/)")
    parser.add_argument("--model", help="ONNX model (default: models/tiles.onnx)")
    parser.add_argument("--single-stage", action="store_true",
                        help="ignore the crop classifier: the detector's own 34-class labels (for comparison)")
    parser.add_argument("--conf", type=threshold, default=0.25, help="confidence for accuracy / exact-match")
    parser.add_argument("--limit", type=int, help="only the first N images")
    parser.add_argument("--json", help="also write the figures to this JSON file")


def _progress(items):  # type: ignore[no-untyped-def]
    """Yield items while drawing a one-line progress bar on stderr."""
    items = list(items)
    n = len(items)
    for i, item in enumerate(items, 1):
        yield item
        done = int(30 * i / max(n, 1))
        print(f"\reval [{'#' * done}{'.' * (30 - done)}] {i}/{n}", end="" if i < n else "\n", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from scoring.errors import JingsuanError
    from vision.reader.detector import DEFAULT_MODEL, TileDetector
    from vision.training.evaluate import evaluate

    if not Path(args.dir).is_dir():
        print(f"找不到要评估的文件夹：{args.dir}（应有 images/ 和 labels/）(no such folder to evaluate: {args.dir})",
              file=sys.stderr)
        return 2
    try:
        det = TileDetector(args.model or DEFAULT_MODEL, classifier=False if args.single_stage else None)
        print(f"model {det.path}  stage 2: {det.classifier.path if det.classifier else 'none (single stage)'}")
        result = evaluate(args.dir, lambda p: det(p, conf=0.001), conf=args.conf, progress=_progress, limit=args.limit)
    except (JingsuanError, FileNotFoundError, NotADirectoryError) as exc:
        print(getattr(exc, "zh", str(exc)), file=sys.stderr)
        return 2
    print(f"images {result.images}  tiles {result.tiles}")
    print(f"mAP50 {result.map50:.3f}  mAP50-95 {result.map50_95:.3f}")
    print(f"per-tile accuracy {result.tile_accuracy:.3f}  box recall (class ignored) {result.box_recall:.3f}  hand exact-match {result.hand_exact_match:.3f} (conf ≥ {result.conf})")
    print(f"latency median {result.latency_median_s * 1000:.0f} ms  p90 {result.latency_p90_s * 1000:.0f} ms (file → tiles)")
    print("per-class AP50: " + " ".join(f"{k}:{v:.2f}" for k, v in sorted(result.per_class_ap50.items())))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result.to_dict(), f, ensure_ascii=False, indent=1)
    return 0
