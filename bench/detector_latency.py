"""Latency, photo file → tile list, of our detector vs the PyPI `mahjong-detector` package.

Like with like: both sides start from the photo's file and end with the tile names, so both include
decoding it (Pillow for theirs; OpenCV for our JPEGs, the same pixels). Both run in the same process, in
turn on each photo, who goes first alternating (so the load of a shared machine, its thermal state and
the other's thread pool affect both alike; `--settle MS` pauses after each call so that neither starts
while the other's threads still spin); `--runs N` repeats the whole pass and prints
each run's medians and ratio ours / theirs, then the ratios' spread. `--stages` also prints where our
time goes (median ms per photo of each step of `vision.detect`; its total without decoding is what a
photo already in memory costs). Bench-only: `mahjong-detector` (MIT, ships its own ONNX model, so it
runs offline) is in the `bench` extra.

    python bench/detector_latency.py runs/data/cmd-v4/valid/images --limit 40 --runs 3 --stages
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: The steps of one `vision.detect` that `--stages` times, in order.
STAGES = ("decode", "letterbox", "detector run", "boxes (decode, NMS)", "crops", "classifier first look",
          "second look crops", "second look run", "third look crops", "third look run", "confidence, covered boxes",
          "a part's whole box")


def stage_times(detector: Any, photo: Path) -> dict[str, float]:
    """Milliseconds of each of `STAGES` reading `photo` as `TileDetector.__call__` does (two-stage
    detector), step by step; ends with "total" (all steps) and "total, decoded photo" (without decoding)."""
    import numpy as np

    from vision.reader import classifier as cls
    from vision.reader import detector as det
    from vision.reader import image
    from vision.reader.boxes import nms

    marks = [time.perf_counter()]

    def mark() -> None:
        marks.append(time.perf_counter())

    rgb = image.load_image(photo)
    mark()
    size = detector.imgsz
    blob, geo = image.letterbox_pixels(rgb, size) if detector.takes_pixels else image.letterbox_blob(rgb, size)
    mark()
    output = detector.session.run(None, {detector.input_name: blob})[0]
    mark()
    floor = det.box_floor(det.CONF_THRESHOLD)
    boxes, scores, _ = det.decode_yolo_output(output, min(floor, det.PART_FLOOR), len(detector.names), agnostic_score=True)
    keep = nms(boxes, scores, det.IOU_THRESHOLD, det.MAX_DETECTIONS)
    all_boxes, all_scores = image.boxes_to_image(boxes[keep], geo), scores[keep]
    mapped, scores = all_boxes[all_scores >= floor], all_scores[all_scores >= floor]
    good = [tuple(float(v) for v in b) for b in mapped if b[2] > b[0] and b[3] > b[1]]
    mark()
    reader = detector.classifier
    crops = np.stack([cls.crop_tile(rgb, b) for b in good]) if good else None
    mark()
    probs = reader(crops) if good else np.zeros((0, len(reader.names)))
    mark()
    unsure = np.nonzero(probs[:, cls.tile_columns(reader.names)].max(axis=1) < cls.SECOND_LOOK_BELOW)[0]
    views = cls.second_look_views(rgb, [good[i] for i in unsure]) if len(unsure) else []
    mark()
    tiles = cls.tile_columns(reader.names)
    if views:
        more = reader(np.concatenate(views)).reshape(len(views), len(unsure), -1)
        probs[unsure] = (probs[unsure] + more.sum(axis=0)) / (1 + len(views))
    mark()
    still = unsure[probs[unsure][:, tiles].max(axis=1) < cls.THIRD_LOOK_BELOW] if len(unsure) else unsure
    needed = det.class_prob_needed(det.CONF_THRESHOLD, np.asarray(scores)[still]) if len(still) else None
    if len(still):  # as `classify_top`: a box no tilted view could lift to the threshold gets no third look
        seen, tilts = 1 + len(views), 2 * len(cls.THIRD_LOOK_TILTS)
        still = still[(probs[still][:, tiles].max(axis=1) * seen + tilts) / (seen + tilts) >= needed]
    tilted = cls.third_look_views(rgb, [good[i] for i in still]) if len(still) else []
    mark()
    if tilted:
        reader(np.concatenate(tilted))
    mark()
    names = [reader.names[int(k)] for k in probs.argmax(axis=1)]
    named = det.drop_covered([det.Detection(b, c, det.tile_confidence(float(s), float(p.max())), ((c, float(p.max())),))
                              for b, s, c, p in zip(good, scores, names, probs)])
    mark()
    det.whole_over_part(rgb, named, all_boxes, all_scores, reader.first_look_top, det.CONF_THRESHOLD)
    mark()
    out = {name: (b - a) * 1000 for name, a, b in zip(STAGES, marks, marks[1:])}
    out["total"] = (marks[-1] - marks[0]) * 1000
    out["total, decoded photo"] = (marks[-1] - marks[1]) * 1000
    return out


def int8_line() -> str:
    """How this machine sums our int8 models' products: exactly on its own, or exactly at a cost (figures of two
    machines compare only where this line reads alike)."""
    from vision.reader.session import int8_products_saturate

    if int8_products_saturate():
        return "int8 products: onnxruntime's clip on this CPU (no VNNI); ours are summed exactly (session.x64quantprecision), which is slower"
    return "int8 products: summed exactly by onnxruntime's own kernels on this CPU"


def print_stages(detector: Any, files: list[Path]) -> None:
    """Median ms per photo of each step of ours (see `stage_times`)."""
    rows = [stage_times(detector, f) for f in files]
    print("where our time goes (median ms per photo; steps' medians do not add up to the total's):")
    for name in rows[0]:
        print(f"  {name:28s} {statistics.median(r[name] for r in rows):6.2f}")


def one_run(ours: Callable[[Path], Any], theirs: Callable[[str], Any] | None,
            files: list[Path], settle: float = 0.0) -> tuple[list[float], list[float]]:
    """Seconds per photo, both on each photo in turn; who goes first alternates from photo to photo, so
    each follows the other as often as itself (the one right after the other paid for the other's
    onnxruntime threads still spinning: up to 2× its time on 2 cores, 2026-12-05). `settle`: seconds of
    pause after each call, untimed, so that neither starts while the other's threads still spin."""
    t_ours, t_theirs = [], []
    for i, f in enumerate(files):
        for side in ("ours", "theirs") if i % 2 == 0 else ("theirs", "ours"):
            if side == "theirs" and theirs is None:
                continue
            t0 = time.perf_counter()
            if side == "ours":
                [d.tile for d in ours(f)]
            else:
                theirs(str(f))
            (t_ours if side == "ours" else t_theirs).append(time.perf_counter() - t0)
            if settle:
                time.sleep(settle)
    return t_ours, t_theirs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photos", help="folder of photos")
    ap.add_argument("--limit", type=int, default=50)
    ap.add_argument("--runs", type=int, default=1, help="passes over the photos, each with its own ratio")
    ap.add_argument("--stages", action="store_true", help="also print where our time goes, step by step")
    ap.add_argument("--settle", type=float, default=0.0,
                    help="ms of untimed pause after each call, so neither pays for the other's spinning threads")
    ap.add_argument("--model", help="our ONNX model (default models/tiles.onnx)")
    args = ap.parse_args(argv)

    from vision.datasets.yolo import IMAGE_SUFFIXES
    from vision.reader.detector import get_detector

    folder = Path(args.photos)
    if not folder.is_dir():
        print(f"not a folder of photos: {folder}", file=sys.stderr)
        return 2
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)[: args.limit]
    if not files:
        print(f"no photos found in {folder}", file=sys.stderr)
        return 2
    ours = get_detector(args.model)
    try:
        from mahjong_detector import detect_tiles
    except ImportError:
        detect_tiles = None
        print("mahjong-detector is not installed (pip install mahjong-detector); timing ours only")
    ours(files[0])  # warm-up both (session creation is not part of per-photo latency)
    if detect_tiles:
        detect_tiles(str(files[0]))
    settled = f", {args.settle:g} ms pause after each" if args.settle else ""
    print(f"photos: {len(files)}, file → tiles (decoding included on both sides), taken in turn{settled}")
    print(int8_line())
    ratios = []
    for run in range(1, args.runs + 1):
        t_ours, t_theirs = one_run(ours, detect_tiles, files, args.settle / 1000)
        m_ours = statistics.median(t_ours)
        line = f"run {run}: jingsuan (models/{Path(ours.path).name}, {ours.imgsz}px) median {m_ours * 1000:.1f} ms"
        if t_theirs:
            m_theirs = statistics.median(t_theirs)
            ratios.append(m_ours / m_theirs)
            line += f"; mahjong-detector detect_tiles median {m_theirs * 1000:.1f} ms; ratio ours/theirs {ratios[-1]:.2f}"
        print(line, flush=True)
    if ratios:
        print(f"ratio ours/theirs over {len(ratios)} run(s): median {statistics.median(ratios):.2f}, "
              f"min {min(ratios):.2f}, max {max(ratios):.2f} (≤ 0.5 meets issue 23's target)")
    if args.stages and ours.classifier is not None:
        print_stages(ours, files)
    return 0


if __name__ == "__main__":
    sys.exit(main())
