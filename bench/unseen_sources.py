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

Each photo is read once, however many groups and ways count it: one YOLO pass down to the lowest floor any
way asks, one naming of its boxes (`read_ways`); `--limit N` reads only the first N photos of each group.
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
#: The ways each photo is read: the detector's boxes alone, then with the gap tiles, then with the faint tiles too.
PLAIN, GAPS, GAPS_FAINT = "", "+ gaps", "+ gaps + faint"
#: The lowest threshold read: `evaluate` counts mAP over every box.
LOWEST = 0.001


def read_ways(det: Any, rgb: Any, gaps: bool) -> dict[str, list[Any]]:
    """A photo's detections down to LOWEST (`PLAIN`) and, with `gaps` and a two-stage reader, with the tiles the
    reader's second look adds to those over CONF: `GAPS` where the rows lack one (`gaps.gap_tiles`), `GAPS_FAINT`
    also in boxes scored under its floor (`gaps.faint_tiles`, a faint tile in place of its weak detection), each
    at its class probability. One YOLO pass down to the lowest floor either asks: greedy NMS keeps a box whatever
    weaker boxes lie under it, so the boxes over a higher floor are those a pass at that floor finds."""
    if det.classifier is None:  # a single-stage model names its boxes itself: no gaps
        return {PLAIN: det(rgb, conf=LOWEST)}
    from vision.reader.detector import PART_FLOOR, box_floor
    from vision.reader.gaps import FAINT_FLOOR, faint_tiles, first_look_namer, gap_tiles
    from vision.reader.layout import WEAK_FLOOR

    boxes, scores, _ = det.find_boxes(rgb, min(box_floor(LOWEST), FAINT_FLOOR if gaps else PART_FLOOR))
    dets = [d for d in det.name_boxes(rgb, boxes, scores, LOWEST) if d.conf >= LOWEST]
    if not gaps:
        return {PLAIN: dets}
    sure = [d for d in dets if d.conf >= CONF]
    name = first_look_namer(det.classifier)
    under = (scores >= FAINT_FLOOR) & (scores < box_floor(WEAK_FLOOR))
    faint = faint_tiles(rgb, sure, boxes[under], scores[under], name)
    return {PLAIN: dets, GAPS: with_found(dets, gap_tiles(rgb, sure, name), []),
            GAPS_FAINT: with_found(dets, [*faint, *gap_tiles(rgb, [*sure, *faint], name)], faint)}


def with_found(dets: list[Any], found: list[Any], faint: list[Any]) -> list[Any]:
    """`dets` with the `found` tiles at their class probability, each `faint` tile in place of its weak detection."""
    taken = {d.box for d in faint}
    return [*(d for d in dets if d.box not in taken), *(replace(d, conf=d.alternatives[0][1]) for d in found)]


def photo_readings(det: Any, gaps: bool) -> Callable[[Path], dict[str, list[Any]]]:
    """`read_ways` of a photo, read once however many groups and ways count it (kept by the photo's name,
    one in the cleaned `valid`)."""
    from vision.reader.image import load_image

    kept: dict[str, dict[str, list[Any]]] = {}

    def read(path: Path) -> dict[str, list[Any]]:
        if path.name not in kept:
            kept[path.name] = read_ways(det, load_image(path), gaps)
        return kept[path.name]

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
        ways = [PLAIN, GAPS, GAPS_FAINT] if args.gaps and det.classifier is not None else [PLAIN]
        readings = photo_readings(det, len(ways) > 1)
        readers = {how: (lambda p, how=how: readings(p)[how]) for how in ways}
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
