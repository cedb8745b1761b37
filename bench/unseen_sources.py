"""How the shipped reader does on the `valid` photos of shoots no training photo comes from.

CMD v4's `valid` holds two shoots of which `train` has no photo at all (`vision.datasets.yolo.unseen_families`:
photos named alike by one camera or app): 35 phone photos `IMG_27xx` of another tile set on a pink
table, and 16 screenshots of a row of rendered tiles. They are the nearest we have to the issue's
second target — real photos of other tile sets, tables and cameras — yet not independent: earlier
choices (thresholds, post-processing rules, the epoch kept) were made on the whole of `valid`. The
other `valid` photos, of shoots `train` also has, are shown beside them.  Figures as `jingsuan eval`
computes them (conf 0.25 for per-tile and exact-match).

    python bench/unseen_sources.py [--source ../shared/data/chinese-mahjong-detection-v4]
                                   [--model models/tiles.onnx] [--classifier runs/cls/candidate.onnx]
                                   [--write runs/data/valid-by-shoot] [--gaps] [--limit N]

`--write DIR` also leaves the two groups as YOLO splits, `DIR/unseen` and `DIR/seen` (links to the
cleaned photos under `DIR/cleaned`), so that a candidate model is chosen on `DIR/seen` with
`jingsuan eval` and the unseen shoots stay a check.

`--gaps` also reads each photo with the tiles its rows' geometry says the detector missed
(`vision.reader.gaps.gap_tiles`), then also with the faint boxes lying alone (`faint_tiles`), each
counted at its class probability: the classifier's word alone, without the round's count that
`jingsuan read` also asks for (a photo of a wall or heap of tiles has no count, and its unlabelled
discards are then counted as extra boxes).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.unseen_shoots import named_detector, reader_arguments, source_with_splits, unseen_shoots  # noqa: E402 - after the path

#: The reader's threshold, at which the figures are counted and the rows are measured for gaps.
CONF = 0.25


def gap_filled(det: Any, faint_too: bool = True) -> Callable[[Path], list[Any]]:
    """A reader for `evaluate`: the detections of a photo down to 0.001, with the tiles the reader's second
    look adds to those over CONF (`gaps.faint_tiles` in boxes scored under its floor, unless not `faint_too`,
    then `gaps.gap_tiles` where the rows lack one), each at its class probability (a faint tile in place of
    its weak detection)."""
    from vision.reader.gaps import FAINT_FLOOR, faint_tiles, first_look_namer, gap_tiles
    from vision.reader.image import load_image
    from vision.reader.layout import WEAK_FLOOR
    from vision.reader.levels import box_floor

    def read(path: Path) -> list[Any]:
        rgb = load_image(path)
        dets = det(rgb, conf=0.001)
        sure = [d for d in dets if d.conf >= CONF]
        name = first_look_namer(det.classifier)
        boxes, scores, _ = det.find_boxes(rgb, FAINT_FLOOR)
        under = scores < box_floor(WEAK_FLOOR)
        faint = faint_tiles(rgb, sure, boxes[under], scores[under], name) if faint_too else []
        found = [*faint, *gap_tiles(rgb, [*sure, *faint], name)]
        taken = {d.box for d in faint}
        return [*(d for d in dets if d.box not in taken), *(replace(d, conf=d.alternatives[0][1]) for d in found)]

    return read


def main(argv: list[str] | None = None) -> int:
    ap = reader_arguments(__doc__.splitlines()[0], "crop classifier ONNX (default: tile_classifier.onnx beside the detector)")
    ap.add_argument("--write", help="also write the groups as YOLO splits DIR/unseen and DIR/seen")
    ap.add_argument("--gaps", action="store_true", help="also read with the tiles the rows' geometry says were missed")
    ap.add_argument("--limit", type=int, help="read only the first N photos of each group (a quick check)")
    args = ap.parse_args(argv)
    source = source_with_splits(args.source)
    if source is None:
        return 2

    from vision.datasets.yolo import image_files, write_split
    from vision.training.evaluate import evaluate

    det = named_detector(args)
    with tempfile.TemporaryDirectory() as tmp:
        cleaned = Path(args.write) / "cleaned" if args.write else Path(tmp) / "d"
        groups = unseen_shoots(source, cleaned)  # the cleanup `jingsuan eval` sees
        valid = cleaned / "valid"
        unseen = {p for photos in groups.values() for p in photos}
        seen = [p for p in image_files(valid) if p not in unseen]
        if args.write:
            for name, photos in (("unseen", sorted(unseen)), ("seen", seen)):
                shutil.rmtree(Path(args.write) / name, ignore_errors=True)
                print(f"{write_split(photos, Path(args.write) / name)}: {len(photos)} photos")
        rows = [*groups.items(), ("all unseen shoots", sorted(unseen)), ("shoots train also has", seen)]
        readers: dict[str, Callable[[Path], list[Any]]] = {"": lambda p: det(p, conf=0.001)}
        if args.gaps and det.classifier is not None:
            readers["+ gaps"] = gap_filled(det, faint_too=False)
            readers["+ gaps + faint"] = gap_filled(det)
        for i, (name, photos) in enumerate(rows):
            if not photos:
                continue
            split = write_split(photos, Path(tmp) / f"split{i}")
            for how, read in readers.items():
                r = evaluate(split, read, conf=CONF, limit=args.limit)
                print(f"{f'{name} {how}'.strip():28s} ({r.images} photos, {r.tiles} tiles): mAP50 {r.map50:.3f}  "
                      f"mAP50-95 {r.map50_95:.3f}  per-tile {r.tile_accuracy:.3f}  box recall {r.box_recall:.3f}  "
                      f"exact-match {r.hand_exact_match:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
