"""Tiles alike lying side by side (白板 most often), counted by their span (issue 22).

A blank 白板's face is empty, so two or three of them touching make one white block, and the detector's boxes
over it need not part it tile by tile: three blanks boxed as two boxes each a quarter wider than a tile, with no
hole a gap tile could fill (`gaps.proposals`). The row's other tiles give the width of a tile (their pitch); a run
of touching boxes named 白板 whose span holds clearly more tiles than it has boxes (`MORE_ROOM`) is parted again at
that width. Its boxes keep their confidences, left to right; each tile more is scored as a gap tile
(`gaps.GAP_BOX_SCORE`) when the classifier also names its place 白板, so that the layout takes it in only when the
round lacks a tile.

Composed tuning photos (2026-12-05): of the 104 rounds read wrong, 9 lacked a 白板 the detector never boxed, 8 of
them beside another 白板; this reads one of them right (the others' boxes leave a hole, lie sideways, or span no
clear extra tile), none lost.

Other tiles alike side by side are boxed so too, less often: three 二萬 in a row boxed as two boxes each half a tile
wider than the rest. Since 2026-12-06 a run of any tile alike is counted by its span, its pitch measured on the other
tiles near it; on 950 composed tuning photos (seeds 47, 0, 8, 21 and 34) one more round is read right, none lost, and
the kept-aside and held-out photos read as before. A box over two of them is wider than tall, and was left out of the
run as lying sideways; one as tall as the standing box before it now joins it (two more of 1 710 tuning rounds right,
none lost; kept-aside and held-out as before; 2026-12-06). Such a box beside a standing tile is a run of its own, two
tiles boxed as one, when no box of its tile touches it (fourteenth session: tuning +2, kept-aside +1, none lost).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from statistics import median

import numpy as np

from vision.reader.detection import Detection
from vision.reader.detector import tile_confidence
from vision.reader.gaps import GAP_BOX_SCORE, Box, Namer
from vision.reader.layout.geometry import BLANK

#: Two boxes named alike touch when the gap between them is under this share of a tile's width …
TOUCH = 0.25
#: … and their centres lie within this share of a tile's height across the row.
IN_LINE = 0.3
#: A run is parted again when its span holds at least this many tile widths more than it has boxes.
MORE_ROOM = 0.7
#: A box wider than tall joins a run when at least this share as tall as the standing box before it: two tiles boxed as
#: one (a tile lying sideways is as tall as a tile is wide, far lower).
AS_TALL = 0.9
#: No more than four of a tile are in play.
MOST = 4
#: A tile's width is the median step to the next tile of this many standing tiles nearest the run (not 白板, not the
#: run's own tile: their boxes may run wide).
NEIGHBOURS = 4


def alike_runs(dets: Sequence[Detection]) -> list[list[int]]:
    """Indices of `dets` that are runs of two or more boxes named alike touching side by side, left to right: standing
    boxes, and boxes wider than tall but as tall as the standing box before them (`AS_TALL`: one box over two tiles);
    and such a wide box alone beside a standing tile (`_two_boxed_as_one`)."""
    order = sorted(range(len(dets)), key=lambda i: dets[i].box[0])
    runs: list[list[int]] = []
    for i in order:
        d = dets[i]
        for run in runs:
            last = dets[run[-1]]
            if (last.tile == d.tile and d.box[0] - last.box[2] < TOUCH * last.width
                    and abs(d.cy - last.cy) < IN_LINE * last.height and (d.standing or _as_tall(d, last))):
                run.append(i)
                break
        else:
            if d.standing or _two_boxed_as_one(d, dets):
                runs.append([i])
    return [r for r in runs if len(r) >= 2 or not dets[r[0]].standing]


def _as_tall(d: Detection, e: Detection) -> bool:
    """`d` is at least `AS_TALL` as tall as the standing box `e` (a tile lying sideways is as tall as a tile is wide, far
    lower)."""
    return e.standing and d.height >= AS_TALL * e.height


def _two_boxed_as_one(d: Detection, dets: Sequence[Detection]) -> bool:
    """A box wider than tall but as tall as a standing box touching it in line (`_as_tall`): two tiles boxed as one, a
    run of its own."""
    return not d.standing and any(
        _as_tall(d, e) and abs(d.cy - e.cy) < IN_LINE * e.height
        and min(abs(d.box[0] - e.box[2]), abs(e.box[0] - d.box[2])) < TOUCH * e.width for e in dets)


def tile_pitch(dets: Sequence[Detection], near: Detection, skip: Sequence[str] = (BLANK,)) -> float | None:
    """How far apart the standing tiles nearest `near` (not of `skip`) lie from their right-hand neighbours in a row,
    centre to centre: a tile's true width (a box runs a little wider, taking in the tile's side and shadow). The
    median of the `NEIGHBOURS` nearest such steps; None without two."""
    standing = [d for d in dets if d.standing]
    steps = []
    for d in standing:
        if d.tile in skip:
            continue
        right = [e.cx - d.cx for e in standing
                 if 0.6 * d.width < e.cx - d.cx < 1.4 * d.width and abs(e.cy - d.cy) < IN_LINE * d.height]
        if right:
            steps.append(((d.cx - near.cx) ** 2 + (d.cy - near.cy) ** 2, min(right)))
    steps.sort()
    return median(step for _, step in steps[:NEIGHBOURS]) if len(steps) >= 2 else None


def parted(run: Sequence[Detection], n: int) -> list[Box]:
    """The span of `run` (left to right) parted into `n` boxes of equal width, as high as the run's boxes."""
    x1, x2 = run[0].box[0], run[-1].box[2]
    y1, y2 = median(d.box[1] for d in run), median(d.box[3] for d in run)
    step = (x2 - x1) / n
    return [(x1 + k * step, y1, x1 + (k + 1) * step, y2) for k in range(n)]


def counted_runs(rgb: np.ndarray, dets: Sequence[Detection], name: Namer) -> list[Detection]:
    """`dets` with each run of tiles alike whose span holds more tiles than it has boxes parted at the row's tile pitch
    (see the module); unchanged where no run does, or where the classifier does not name every new place that tile."""
    dropped: set[int] = set()
    added: list[Detection] = []
    for run_ids in alike_runs(dets):
        run = [dets[i] for i in run_ids]
        code = run[0].tile
        width = tile_pitch(dets, run[len(run) // 2], (BLANK, code))
        if not width:
            continue
        span = (run[-1].box[2] - run[0].box[0]) / width
        n = min(round(span), MOST)
        if n <= len(run) or span - len(run) < MORE_ROOM:
            continue
        boxes = parted(run, n)
        tops = name(rgb, boxes)
        if not all(top and top[0][0] == code for top in tops):
            continue
        dropped |= set(run_ids)
        added += [replace(d, box=b) for d, b in zip(run, boxes)]
        added += [Detection(b, code, tile_confidence(GAP_BOX_SCORE, top[0][1]), tuple(top))
                  for b, top in zip(boxes[len(run):], tops[len(run):])]
    if not added:
        return list(dets)
    return sorted([*(d for i, d in enumerate(dets) if i not in dropped), *added], key=lambda d: (d.cx, d.cy))
