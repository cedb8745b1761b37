"""How the reader does on a table's next photos once the players corrected its first N (issue 23).

The photos of one unseen shoot (`vision.datasets.yolo.unseen_families`: a tile set, table and camera
no training photo shows) are read in order.  After each photo the players' corrections go into the
table's memory (`vision.reader.memory`): every misread tile with its right name, every box that holds
no tile as `none` (deleted), and every missed tile's labelled box (drawn in 标注); with `--all` every
tile of the confirmed photo, not only the mistakes.  No training run.  Reported: per-tile accuracy and
whole-photo accuracy (`jingsuan eval`'s exact-match) on the photos after the first `max(N)`, read
with the memory of the first N photos, for each N — the same photos for every N.  The memory reads as
`apply_memory` does: the nearest-prototype rule, then the table's own head re-ranking the classifier's
top choices (`--no-head`: the prototype rule alone).  The app teaches as `--all` does once a round is
recorded (every tile of the photo's read hand) and as the default does while a player fixes tiles.

    python bench/corrections.py [--source ../shared/data/chinese-mahjong-detection-v4]
                                [--classifier models/tile_classifier.onnx] [--n 0 1 3 10] [--all]
                                [--max-distance D] [--max-ratio R] [--no-head] [--family SHOOT]

Each N's line also counts the mistakes left by kind: misread tiles, missed tiles (no box) and extra boxes; a
memory of crops can mend the first and the last, not the missed ones.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.unseen_shoots import named_detector, reader_arguments, source_with_splits, unseen_shoots  # noqa: E402 - after the path


def corrections(pred: list, gt: list, everything: bool) -> tuple[list[tuple], list[str]]:
    """(boxes, tiles) a player's corrections of one photo teach: misread tiles, deleted boxes, drawn
    boxes (`everything`: also every tile read right)."""
    from vision.reader.memory import NOT_A_TILE
    from vision.training.metrics import one_to_one_pairs

    pairs = one_to_one_pairs(pred, gt)
    boxes: list[tuple] = []
    tiles: list[str] = []
    for i, k in pairs:
        if everything or pred[i].tile != gt[k].tile:
            boxes.append(pred[i].box)
            tiles.append(gt[k].tile)
    matched_p = {i for i, _ in pairs}
    matched_g = {k for _, k in pairs}
    for i, d in enumerate(pred):
        if i not in matched_p:
            boxes.append(d.box)
            tiles.append(NOT_A_TILE)
    for k, g in enumerate(gt):
        if k not in matched_g:
            boxes.append(g.box)
            tiles.append(g.tile)
    return boxes, tiles


def mistake_kinds(pred: list, gt: list) -> Counter[str]:
    """How many labelled tiles a reading names wrongly (`misread`) or has no box for (`missed`), and how many of its
    boxes hold no labelled tile (`extra`): a memory of crops can mend the first and third, not the second."""
    from vision.training.metrics import one_to_one_pairs

    pairs = one_to_one_pairs(pred, gt)
    return Counter(misread=sum(pred[i].tile != gt[k].tile for i, k in pairs), missed=len(gt) - len(pairs),
                   extra=len(pred) - len(pairs))


def main(argv: list[str] | None = None) -> int:
    ap = reader_arguments(__doc__.splitlines()[0], "crop classifier ONNX with an `embedding` output (default: beside the detector)")
    ap.add_argument("--family", help="the unseen shoot (default: the one with most photos)")
    ap.add_argument("--n", type=int, nargs="+", default=[0, 1, 3, 10])
    ap.add_argument("--all", action="store_true", help="teach every tile of a corrected photo, not only mistakes")
    ap.add_argument("--max-distance", type=float, help="the memory's capture distance (default: the module's)")
    ap.add_argument("--max-ratio", type=float, help="the memory's ratio of nearest to next-nearest tile (default: the module's)")
    ap.add_argument("--no-head", action="store_true", help="read with the nearest-prototype rule alone, no table head")
    ap.add_argument("--conf", type=float, default=0.25)
    args = ap.parse_args(argv)
    source = source_with_splits(args.source)
    if source is None:
        return 2

    from vision.datasets.yolo import ground_truth
    from vision.reader.image import load_image
    from vision.reader.memory import DEFAULT_MAX_DISTANCE, MAX_RATIO, TileMemory, apply_memory, crop_embeddings
    from vision.training.metrics import hand_exact, tile_accuracy_counts

    with tempfile.TemporaryDirectory() as tmp:
        groups = unseen_shoots(source, Path(tmp) / "d")
        family = args.family or max(groups, key=lambda f: len(groups[f]))
        photos = sorted(groups[family])
        first = max(args.n)
        if len(photos) <= first:
            print(f"{family}: {len(photos)} photos, too few for N = {first}", file=sys.stderr)
            return 2
        det = named_detector(args)
        read = []
        for p in photos:
            rgb = load_image(p)
            h, w = rgb.shape[:2]
            read.append((rgb, det(rgb, conf=args.conf), ground_truth(p, w, h)))
        print(f"{family}: {len(photos)} photos; the last {len(photos) - first} read after N corrected ones "
              f"({'every tile' if args.all else 'mistakes'} taught; {Path(det.classifier.path).name}; "
              f"max distance {args.max_distance or DEFAULT_MAX_DISTANCE}, ratio {args.max_ratio or MAX_RATIO}; {'no head' if args.no_head else 'table head'})",
              flush=True)
        for n in args.n:
            memory = TileMemory(Path(det.classifier.path).name, max_distance=args.max_distance or DEFAULT_MAX_DISTANCE,
                                use_head=not args.no_head, max_ratio=args.max_ratio or MAX_RATIO)
            for rgb, dets, gt in read[:n]:
                boxes, tiles = corrections(apply_memory(dets, rgb, det.classifier, memory, "bench"), gt, args.all)
                if boxes:
                    memory.add("bench", crop_embeddings(det.classifier, rgb, boxes), tiles)
            right = total = exact = 0
            kinds: Counter[str] = Counter()
            for rgb, dets, gt in read[first:]:
                now = apply_memory(dets, rgb, det.classifier, memory, "bench")
                r, t = tile_accuracy_counts(now, gt)
                right, total, exact = right + r, total + t, exact + hand_exact(now, gt)
                kinds.update(mistake_kinds(now, gt))
            print(f"N = {n:2d} ({memory.count('bench'):3d} crops taught): per-tile {right / max(total, 1):.3f}  "
                  f"whole photo {exact / (len(read) - first):.3f}  ({len(read) - first} photos, {total} tiles; "
                  f"{kinds['misread']} misread, {kinds['missed']} missed, {kinds['extra']} extra)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
