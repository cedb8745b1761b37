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

The boxes over a block of 白板 may also stop short of its ends, or leave a strip of it unboxed between them too narrow
for a gap tile: three 白板 boxed as one and one and a little, their span 2.3 tiles. A run of 白板 reaches on over the
columns of its row that are blank face, nearer its own face colour than the cloth's (`BlankFace`), up to a tile past
either end, and two 白板 with blank face between them are one run (eighteenth session, 2026-12-06: tuning +3 of 2 470,
none of the 3 460 saved composed photos lost). A run of 白板 holding as many boxes as its span holds tiles, one of them
named unsurely (boxed shifted half onto its neighbour), is parted evenly and named again (tuning +1, none lost).
Nineteenth session: a 白板 boxed alone touching another tile of its row is a run of its own, so that the blank face past
its box counts too (`BLANK_MORE_ROOM`): seed 113 +1 and kept-aside +1, none of the 3 840 saved photos lost; one boxed
alone off the rows (before a white wall) is not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from statistics import median

import numpy as np

from vision.reader.detection import Detection
from vision.reader.detector import own_box_score, tile_confidence
from vision.reader.gaps import GAP_BOX_SCORE, Box, Namer
from vision.reader.layout.geometry import BLANK
from vision.reader.lone import LEAST_CONTRAST, cloth_colour, lab_at, lab_block, lab_in, nearer_face

#: Two boxes named alike touch when the gap between them is under this share of a tile's width …
TOUCH = 0.25
#: … and their centres lie within this share of a tile's height across the row.
IN_LINE = 0.3
#: A run is parted again when its span holds at least this many tile widths more than it has boxes.
MORE_ROOM = 0.7
#: … a run of 白板 at this many: its span is measured over the blank face alone, short of the tiles' sides (a 白板 boxed
#: alone in its row, blank face on past it for 1.65 tiles: composed tuning photo s113_tuning_one_row_017).
BLANK_MORE_ROOM = 0.6
#: A box wider than tall joins a run when at least this share as tall as the standing box before it: two tiles boxed as
#: one (a tile lying sideways is as tall as a tile is wide, far lower).
AS_TALL = 0.9
#: No more than four of a tile are in play.
MOST = 4
#: A tile's width is the median step to the next tile of this many standing tiles nearest the run (not 白板, not the
#: run's own tile: their boxes may run wide).
NEIGHBOURS = 4
#: A run of 白板 reaches on over the columns of its row that are blank face: this share of a column's pixels nearer the
#: run's own face colour than the cloth's (`lone.nearer_face`) …
FACE_COLUMN = 0.7
#: … up to this share of a tile's width past either end, never into another box; and two 白板 set apart by at most this
#: share of a tile's width, the gap blank face, are one run.
BLANK_REACH = 1.0
#: The row's band looked at: the run's height less this share of it at the top and at the bottom.
BAND_INSET = 0.2
#: The cloth's colour is learnt from the photo this wide (pixels).
SAMPLE_WIDTH = 160

#: A run of 白板 with as many boxes as tiles is parted evenly and named again when one of them is named under this.
UNSURE_BLANK = 0.5

#: Whether two boxes named alike, in line but not touching, are one run all the same (`BlankFace.joins`).
Joins = Callable[[Detection, Detection], bool]


def alike_runs(dets: Sequence[Detection], joins: Joins | None = None) -> list[list[int]]:
    """Indices of `dets` that are runs of two or more boxes named alike touching side by side (or set apart where
    `joins` says they are one run), left to right: standing boxes, and boxes wider than tall but as tall as the standing
    box before them (`AS_TALL`: one box over two tiles); and such a wide box alone beside a standing tile
    (`_two_boxed_as_one`), or a 白板 boxed alone in its row (`_blank_in_a_row`)."""
    order = sorted(range(len(dets)), key=lambda i: dets[i].box[0])
    runs: list[list[int]] = []
    for i in order:
        d = dets[i]
        for run in runs:
            last = dets[run[-1]]
            if (last.tile == d.tile and abs(d.cy - last.cy) < IN_LINE * last.height
                    and (d.standing or _as_tall(d, last))
                    and (d.box[0] - last.box[2] < TOUCH * last.width or (joins is not None and joins(last, d)))):
                run.append(i)
                break
        else:
            if d.standing or _two_boxed_as_one(d, dets):
                runs.append([i])
    return [r for r in runs if len(r) >= 2 or not dets[r[0]].standing or _blank_in_a_row(dets[r[0]], dets)]


def _blank_in_a_row(d: Detection, dets: Sequence[Detection]) -> bool:
    """A standing 白板 touching another standing tile in line: it may lie beside more blank face than it was boxed over."""
    return d.tile == BLANK and d.standing and any(e is not d and e.standing and _touching_in_line(d, e) for e in dets)


def _touching_in_line(d: Detection, e: Detection) -> bool:
    """`e` lies in line with `d` across the row (`IN_LINE`) and touches it at either end (`TOUCH`)."""
    return (abs(d.cy - e.cy) < IN_LINE * e.height
            and min(abs(d.box[0] - e.box[2]), abs(e.box[0] - d.box[2])) < TOUCH * e.width)


def _as_tall(d: Detection, e: Detection) -> bool:
    """`d` is at least `AS_TALL` as tall as the standing box `e` (a tile lying sideways is as tall as a tile is wide, far
    lower)."""
    return e.standing and d.height >= AS_TALL * e.height


def _two_boxed_as_one(d: Detection, dets: Sequence[Detection]) -> bool:
    """A box wider than tall but as tall as a standing box touching it in line (`_as_tall`): two tiles boxed as one, a
    run of its own."""
    return not d.standing and any(_as_tall(d, e) and _touching_in_line(d, e) for e in dets)


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


def parted(run: Sequence[Detection], n: int, span: tuple[float, float] | None = None) -> list[Box]:
    """The span of `run` (left to right; `span`, its left and right ends, where it reaches past its boxes) parted into
    `n` boxes of equal width, as high as the run's boxes."""
    x1, x2 = span or (run[0].box[0], run[-1].box[2])
    y1, y2 = median(d.box[1] for d in run), median(d.box[3] for d in run)
    step = (x2 - x1) / n
    return [(x1 + k * step, y1, x1 + (k + 1) * step, y2) for k in range(n)]


class BlankFace:
    """Where a row of 白板 shows blank face past its boxes, in one photo: a blank face is empty, so two or three 白板
    touching are one block of it, and the detector's boxes may stop short of the block's ends or leave a strip of it
    unboxed between them. The cloth's colour is learnt once, when first asked (`lone.cloth_colour`)."""

    def __init__(self, rgb: np.ndarray, dets: Sequence[Detection]) -> None:
        self.rgb, self.dets = rgb, dets
        self._cloth: np.ndarray | None | bool = False  # False: not learnt yet

    def _colours(self, run: Sequence[Detection]) -> tuple[np.ndarray, np.ndarray] | None:
        """The run's own face colour (the median Lab of its boxes' middles) and the cloth's; None when they look alike
        (`lone.LEAST_CONTRAST`) or the cloth cannot be learnt."""
        if self._cloth is False:
            self._cloth = cloth_colour(*lab_at(self.rgb, SAMPLE_WIDTH), self.dets)
        if not isinstance(self._cloth, np.ndarray):
            return None
        inset = BAND_INSET
        face = np.median(np.concatenate([lab_in(self.rgb, (d.box[0] + inset * d.width, d.box[1] + inset * d.height,
                                                           d.box[2] - inset * d.width, d.box[3] - inset * d.height))
                                         for d in run]), axis=0)
        return (face, self._cloth) if float(np.linalg.norm(face - self._cloth)) >= LEAST_CONTRAST else None

    def columns(self, run: Sequence[Detection], x1: float, x2: float,
                colours: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:  # fmt: skip
        """The share of each pixel column of the photo from `x1` to `x2`, across the run's band (`BAND_INSET`), nearer
        the run's face colour than the cloth's (`colours`, from `_colours`); empty when they cannot be told apart."""
        if colours is None:
            return np.zeros(0)
        y1, y2 = median(d.box[1] for d in run), median(d.box[3] for d in run)
        lab = lab_block(self.rgb, (x1, y1 + BAND_INSET * (y2 - y1), x2, y2 - BAND_INSET * (y2 - y1)))
        return nearer_face(lab, *colours).mean(axis=0) if lab.size else np.zeros(0)

    def joins(self, left: Detection, right: Detection) -> bool:
        """Two standing 白板 in line set apart by at most `BLANK_REACH` of a tile's width of blank face: one run."""
        gap = right.box[0] - left.box[2]
        if left.tile != BLANK or not (left.standing and right.standing) or gap > BLANK_REACH * left.width:
            return False
        shares = self.columns((left, right), left.box[2], right.box[0], self._colours((left, right)))
        return bool(len(shares)) and float(shares.mean()) >= FACE_COLUMN

    def span(self, run: Sequence[Detection], width: float) -> tuple[float, float]:
        """The run's left and right ends, each reaching on over the columns of blank face past its boxes (at most
        `BLANK_REACH` tile widths, never into another box)."""
        x1, x2 = run[0].box[0], run[-1].box[2]
        y1, y2 = median(d.box[1] for d in run), median(d.box[3] for d in run)
        mine = {id(d) for d in run}
        others = [d.box for d in self.dets if id(d) not in mine and d.box[1] < y2 and d.box[3] > y1]
        right = min([x2 + BLANK_REACH * width, *(b[0] for b in others if b[0] >= x2 - 1)])
        left = max([x1 - BLANK_REACH * width, *(b[2] for b in others if b[2] <= x1 + 1)])
        colours = self._colours(run)
        return (x1 - _face_reach(self.columns(run, left, x1, colours)[::-1]),
                x2 + _face_reach(self.columns(run, x2, right, colours)))


def _face_reach(shares: np.ndarray) -> int:
    """How many of `shares`' columns, from the first on, are blank face (`FACE_COLUMN`)."""
    outside = np.flatnonzero(shares < FACE_COLUMN)
    return int(outside[0]) if len(outside) else len(shares)


def _blanks_parted_again(rgb: np.ndarray, run: Sequence[Detection], ends: tuple[float, float],
                         name: Namer) -> list[Detection]:  # fmt: skip
    """A run of 白板 holding as many boxes as tiles, one of them named unsurely (`UNSURE_BLANK`: boxed shifted, half
    over its neighbour), parted evenly over its span and named again: each box its own score with the new word; none
    when the classifier does not name every place 白板."""
    boxes = parted(run, len(run), ends)
    tops = name(rgb, boxes)
    if not all(top and top[0][0] == BLANK for top in tops):
        return []
    return [Detection(b, BLANK, tile_confidence(own_box_score(d), top[0][1]), tuple(top))
            for d, b, top in zip(run, boxes, tops)]


def counted_runs(rgb: np.ndarray, dets: Sequence[Detection], name: Namer) -> list[Detection]:
    """`dets` with each run of tiles alike whose span holds more tiles than it has boxes parted at the row's tile pitch
    (see the module; a run of 白板 reaching over the blank face past its boxes, `BlankFace`); unchanged where no run
    does, or where the classifier does not name every new place that tile."""
    dropped: set[int] = set()
    added: list[Detection] = []
    blank = BlankFace(rgb, dets)
    for run_ids in alike_runs(dets, blank.joins):
        run = [dets[i] for i in run_ids]
        code = run[0].tile
        width = tile_pitch(dets, run[len(run) // 2], (BLANK, code))
        if not width:
            continue
        ends = blank.span(run, width) if code == BLANK else (run[0].box[0], run[-1].box[2])
        span = (ends[1] - ends[0]) / width
        n = min(round(span), MOST)
        if code == BLANK and n == len(run) > 1 and min(d.named_prob for d in run) < UNSURE_BLANK:  # one box alone: as boxed
            renamed = _blanks_parted_again(rgb, run, ends, name)
            if renamed:
                dropped |= set(run_ids)
                added += renamed
            continue
        if n <= len(run) or span - len(run) < (BLANK_MORE_ROOM if code == BLANK else MORE_ROOM):
            continue
        boxes = parted(run, n, ends)
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
