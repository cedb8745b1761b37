"""Whole rounds read from photos composed of real tile pixels, by layout (issue 22).

    python bench/real_pixel_rounds.py [N] [--seed S] [--source DIR] [--save DIR] [--single-pass] [--no-gaps]
                                      [--per-split K] [--split tuning|held-out]

Each photo is a random winning round (0–2 melds: 吃, 碰, 明杠 with its fourth tile sideways, stacked
or set apart, 暗杠 with the backs outside or in the middle; the indicator alone above, below, left or
right of the rows) laid out in one of the two layouts players use (`vision.training.synth.composed`):
the photo guide's two rows, or one row pushed down (hand | winning tile | melds, melds at the left in
some). Tiles are crops of CMD v4's labelled `valid` photos laid on their table, then tilted, blurred
and JPEG-compressed. Two splits, never mixed in a photo:

- ``tuning``   — crops of the `valid` photos of shoots `train` also has: choices are tuned on these;
- ``held-out`` — crops of the `valid` photos of shoots `train` has none of (`unseen_families`:
  35 `IMG_27xx` of another tile set on a pink table, 16 screenshots): nothing is tuned on them.

For N photos per layout and split (default 30: 120 photos, about 3 minutes on 2 cores) it prints, per
split and layout, the share of photos whose whole round (indicator, hand, winning tile, melds) is read
right and the share whose round settles as the truth does (the bench of `assign_synthetic.py`: the
winner self-draws, the other seats hold one 副精); then why the wrong ones are wrong (a tile the
detector missed, a box too many, a tile misread, or every tile right and the layout wrong; and which
part of the round is wrong), and the median time of a read (detector + layout, as `jingsuan read`).
`--single-pass` also reads every photo with one detection at 0.25 and no second look at weak boxes (the
detector's part as before issue 22), for the same figures side by side; `--no-gaps` reads it without the
tiles the rows' geometry says the detector missed (`vision.reader.gaps`, as before gap filling).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.assign_synthetic import round_doc as synthetic_round_doc  # noqa: E402
from bench.assign_synthetic import seated_melds  # noqa: E402
from bench.unseen_shoots import DEFAULT_SOURCE  # noqa: E402
from scoring import settle  # noqa: E402
from scoring.errors import JingsuanError  # noqa: E402
from scoring.tiles import format_tiles, parse_tiles  # noqa: E402

SPLITS = ("tuning", "held-out")
PARTS = ("indicator", "win", "hand", "melds")
#: The least crops and tile kinds a shoot needs to give photos of its own.
MIN_CROPS, MIN_KINDS = 60, 20


@dataclass
class Tally:
    """Counts of one split × layout."""

    photos: int = 0
    right: int = 0
    settled: int = 0
    kinds: Counter = field(default_factory=Counter)
    parts: Counter = field(default_factory=Counter)
    tags_wrong: Counter = field(default_factory=Counter)


def round_doc(part: dict[str, Any]) -> dict[str, Any]:
    """A full round around the winner's part: S self-draws, the other seats give `jing: {zheng: 0, fu: 1}`
    (`bench.assign_synthetic.round_doc`)."""
    return synthetic_round_doc(part["indicator"], part["hand"], part["win"]["tile"], seated_melds(part["melds"]))


def settles_equal(truth: dict[str, Any], read: dict[str, Any]) -> bool:
    """Does the read round settle exactly as the truth does?"""
    if read["indicator"] is None or read["win"]["tile"] is None or any(m.get("tiles") is None for m in read["melds"]):
        return False
    try:
        return settle(round_doc(read)).to_dict() == settle(round_doc(truth)).to_dict()
    except JingsuanError:
        return False


def _meld_key(m: dict[str, Any]) -> tuple[str, str]:
    return (m["type"], format_tiles(parse_tiles(m["tiles"])) if m.get("tiles") else "?")


def wrong_parts(truth: dict[str, Any], read: dict[str, Any]) -> list[str]:
    """The parts of the round read wrong: indicator, win, hand, melds (type and tiles)."""
    out = []
    if read["indicator"] != truth["indicator"]:
        out.append("indicator")
    if read["win"]["tile"] != truth["win"]["tile"]:
        out.append("win")
    if sorted(parse_tiles(read["hand"] or "")) != sorted(parse_tiles(truth["hand"])):
        out.append("hand")
    if sorted(map(_meld_key, read["melds"])) != sorted(map(_meld_key, truth["melds"])):
        out.append("melds")
    return out


def failure_kind(boxes: list[tuple[tuple[float, ...], str]], part: dict[str, Any]) -> str:
    """Why a photo was read wrong, from the boxes its reading used (`jing_marks`): a tile missed, a box
    too many, a tile misread (after the legal-round decoding), or every tile right and the layout wrong."""
    from vision.reader.boxes import box_iou

    used_boxes = [(tuple(m["box"]), m["tile"]) for m in part["jing_marks"]]
    used: set[int] = set()
    missed = misread = 0
    for box, code in boxes:
        best = max(((i, box_iou(box, b)) for i, (b, _) in enumerate(used_boxes) if i not in used), key=lambda x: x[1],
                   default=(None, 0.0))
        if best[0] is None or best[1] < 0.4:
            missed += 1
            continue
        used.add(best[0])
        misread += used_boxes[best[0]][1] != code
    if missed:
        return "missed tile"
    if len(used_boxes) > len(used):
        return "extra box"
    return "misread tile" if misread else "layout"


def banks_by_split(source: Path, work: Path, seed: int, per_split: int | None = None) -> dict[str, list[Any]]:
    """The crop banks of each split (shoots with enough crops), from a cleaned copy of `valid`
    (`per_split`: at most that many photos of each split, spread over it)."""
    from vision.datasets.convert import import_yolo_dataset
    from vision.datasets.yolo import image_files, unseen_families
    from vision.reader.detector import get_detector
    from vision.training.synth.composed import build_banks

    detector = get_detector()

    def tiles_in(patch: Any) -> int:
        return len(detector(patch, conf=0.1))

    import_yolo_dataset(source, work, splits=("valid",))
    valid = work / "valid"
    unseen = {p for photos in unseen_families(source / "train", valid).values() for p in photos}
    photos = image_files(valid)
    out = {}
    for name, chosen in (("tuning", [p for p in photos if p not in unseen]), ("held-out", sorted(unseen))):
        if per_split and len(chosen) > per_split:
            chosen = chosen[:: -(-len(chosen) // per_split)]
        banks = build_banks(chosen, seed, tiles_in)
        out[name] = [b for b in banks.values()
                     if len(b.kinds) >= MIN_KINDS and sum(map(len, b.crops.values())) >= MIN_CROPS]
    return out


def default_reader(single_pass: bool = False, fill_gaps: bool = True) -> Callable[[Any], tuple[list[Any], dict[str, Any], float]]:
    """`jingsuan read` on an RGB array: (detections, round part, seconds); `single_pass`: one detection at
    the threshold and its layout, no second look at weak boxes (the detector's part as before issue 22);
    `fill_gaps` False: the second look without the tiles the rows' geometry says were missed (`vision.reader.gaps`)."""
    from vision.reader.detector import CONF_THRESHOLD, get_detector
    from vision.reader.layout import WEAK_FLOOR, assign, read_layout
    from vision.reader.levels import DetectionLevels

    detector = get_detector()

    def read(image: Any) -> tuple[list[Any], dict[str, Any], float]:
        t0 = time.perf_counter()
        size = (image.shape[1], image.shape[0])
        if single_pass:
            dets = detector(image, conf=CONF_THRESHOLD)
            a = assign(dets, image_size=size)
        else:
            dets, a = read_layout(DetectionLevels(detector, image, WEAK_FLOOR, fill_gaps).at, CONF_THRESHOLD, size)
        return dets, a.to_round_part(), time.perf_counter() - t0

    return read


Reader = Callable[[Any], tuple[list[Any], dict[str, Any], float]]


def run(n: int, seed: int, source: Path, save: Path | None = None, readers: dict[str, Reader] | None = None,
        per_split: int | None = None, splits: tuple[str, ...] = SPLITS) -> dict[str, dict[tuple[str, str], Tally]]:
    """Compose `n` photos per layout and split (of `splits`) and read each with every reader; tallies by reader
    and (split, layout), the median read time (ms) under ("all", "time")."""
    from vision.training.synth.composed import LAYOUTS, compose

    readers = readers or {"now": default_reader()}
    out: dict[str, dict[tuple[str, str], Tally]] = {name: {} for name in readers}
    times: dict[str, list[float]] = {name: [] for name in readers}
    with tempfile.TemporaryDirectory() as tmp:
        banks = banks_by_split(source, Path(tmp) / "cleaned", seed, per_split)
    for split in splits:
        for layout in LAYOUTS:
            rng = random.Random(f"{seed}-{split}-{layout}")
            for i in range(n):
                bank = rng.choices(banks[split], [sum(map(len, b.crops.values())) ** 0.5 for b in banks[split]])[0]
                photo = compose(bank, rng, layout=layout)
                truth = photo.truth.round_part()
                for name, read in readers.items():
                    _, part, seconds = read(photo.image)
                    times[name].append(seconds)
                    bad = wrong_parts(truth, part)
                    tally = out[name].setdefault((split, layout), Tally())
                    tally.photos += 1
                    tally.right += not bad
                    tally.settled += settles_equal(truth, part)
                    if bad:
                        tally.kinds[failure_kind(photo.boxes, part)] += 1
                        tally.parts.update(bad)
                        tally.tags_wrong.update(photo.tags)
                if save is not None:
                    import json

                    import cv2

                    save.mkdir(parents=True, exist_ok=True)
                    name = f"s{seed}_{split}_{layout}_{i:03d}.png"  # lossless: read again, it reads as in the bench
                    cv2.imwrite(str(save / name), photo.image[..., ::-1])
                    boxes = [[[float(v) for v in box], code] for box, code in photo.boxes]
                    with (save / "truth.jsonl").open("a", encoding="utf-8") as f:
                        f.write(json.dumps({"photo": name, "split": split, "layout": layout, **truth, "boxes": boxes}) + "\n")
    for name in readers:
        t = times[name]
        out[name][("all", "time")] = Tally(photos=len(t), right=round(1000 * statistics.median(t)) if t else 0)
        half = len(t) // len(splits) if splits[0] == "tuning" else 0  # the tuning split's photos come first
        out[name][("tuning", "time")] = Tally(photos=half, right=round(1000 * statistics.median(t[:half])) if half else 0)
    return out


def report(tallies: dict[tuple[str, str], Tally], name: str = "", splits: tuple[str, ...] = SPLITS) -> list[str]:
    """The printed figures of one reader."""
    head = f"{name}: " if name else ""
    lines = [f"{head}{'split':9s} {'layout':9s} {'whole round':>12s} {'settled equal':>14s}  photos   "
             "wrong: why / which part"]
    for (split, layout), t in tallies.items():
        if split == "all" or layout == "time":
            continue
        why = ", ".join(f"{k} {v}" for k, v in t.kinds.most_common()) or "-"
        parts = ", ".join(f"{k} {t.parts[k]}" for k in PARTS if t.parts[k]) or "-"
        lines.append(f"{head}{split:9s} {layout:9s} {100 * t.right / max(t.photos, 1):11.1f} % "
                     f"{100 * t.settled / max(t.photos, 1):12.1f} %  {t.photos:6d}   {why} / {parts}")
    for split in splits:
        tags: Counter = Counter()
        for (s, _), t in tallies.items():
            if s == split:
                tags.update(t.tags_wrong)
        if tags:
            lines.append(f"{head}{split} wrong photos hold: " + ", ".join(f"{k} {v}" for k, v in tags.most_common()))
    t, tt = tallies[("all", "time")], tallies[("tuning", "time")]
    lines.append(f"{head}read time per photo (detector + layout, as jingsuan read): median {t.right} ms over {t.photos} photos "
                 f"({tt.right} ms over the tuning split's {tt.photos})")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=30, help="photos per layout and split (default 30)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--source", default=str(DEFAULT_SOURCE), help="CMD v4 (its train/ and valid/)")
    ap.add_argument("--save", help="also write each composed photo here (PNG), and its round and true boxes in truth.jsonl")
    ap.add_argument("--single-pass", action="store_true",
                    help="also read each photo with one detection at 0.25 and no held-back boxes (as before issue 22)")
    ap.add_argument("--no-gaps", action="store_true",
                    help="also read each photo without the tiles the rows' geometry says were missed (before gap filling)")
    ap.add_argument("--per-split", type=int, help="crop from at most this many photos of each split (quick runs)")
    ap.add_argument("--split", choices=SPLITS, help="only this split (tune on `tuning` alone)")
    args = ap.parse_args(argv)
    source = Path(args.source)
    if not (source / "valid").is_dir() or not (source / "train").is_dir():
        print(f"no train/ and valid/ under {source}", file=sys.stderr)
        return 2
    print(f"real-pixel rounds: {args.n} photos per layout and split, seed {args.seed} "
          "(target: whole round ≥ 95 % on each layout of the tuning split)", flush=True)
    readers = {"now": default_reader()}
    if args.no_gaps:
        readers["no-gaps"] = default_reader(fill_gaps=False)
    if args.single_pass:
        readers["single-pass"] = default_reader(single_pass=True)
    splits = (args.split,) if args.split else SPLITS
    results = run(args.n, args.seed, source, Path(args.save) if args.save else None, readers, args.per_split, splits)
    for name, tallies in results.items():
        for line in report(tallies, name if len(readers) > 1 else "", splits):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
