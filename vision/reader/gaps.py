"""Tiles the detector missed, found from the rows' geometry and from boxes it scored too low (issue 22).

Tiles of a row lie side by side at a regular pitch. Where two standing neighbours of a row lie
`HOLE_MIN`–`HOLE_MAX` tile widths apart (a hole one tile wide), boxes of the neighbours' size are proposed
in the hole; in a hole up to `HOLE2_MAX` wide, one against each neighbour; past each end of a row of at
least `END_ROW` tiles, one touching it, one set apart (a winning tile) and one lying sideways (a claimed
tile). Each place is cropped from the full-resolution photo and named by the classifier as any box is
(`first_look_namer`); a proposal becomes a tile when the classifier names one surely at one of its places
(`GAP_SURE`), never `none`, and `back` only past a row's end or beside a back (`gap_tiles`; a back read
where none may lie is passed over for the proposal's other places, `named_gap`). Gaps next to a sideways
(claimed) tile are a meld's and never proposed. A photo shot turned 90° (`turned_a_quarter`) is
measured turned upright and its places proposed back in the photo.

`faint_tiles` does the same for boxes the detector drew but scored under the second look's floor (down
to `FAINT_FLOOR`): a lone indicator is often boxed at 0.003–0.03 and named at 0.84–0.98.

Both score `tile_confidence(GAP_BOX_SCORE, p)` (a gap tile has no box score, a faint tile's own would sink
it under any floor): under the reader's threshold, and `layout` knows it by that score (`named_on_a_place`)
and holds it back at any threshold like a faint box, taking it in only when the round lacks a tile: a gap
between meld groups or before the winning tile stays a gap unless the count demands it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from statistics import median
from typing import Any

import numpy as np

from vision.reader.boxes import box_iou, covered_shares
from vision.reader.classifier import NO_TILE, crop_tile, tile_columns
from vision.reader.detection import Detection
from vision.reader.detector import Box, Top, tile_confidence
from vision.reader.layout.geometry import BACK, Placed, measure_rows, quarter_turn, turned_a_quarter

#: A gap between two standing neighbours at least this many tile widths wide may hold a missed tile …
HOLE_MIN = 0.65
#: … and at most this wide (wider: a group set apart, or more than one tile missing).
HOLE_MAX = 1.6
#: … a hole up to this wide may hold two (each tried against its neighbour).
HOLE2_MAX = 2.6
#: A hole this many tile widths wide is also tried against each neighbour, not only in its middle.
WIDE_HOLE = 1.15
#: A row of at least this many tiles is also tried one pitch beyond each end.
END_ROW = 2
#: Beyond a row's end a tile is also tried set apart by this many tile widths (the winning tile, 0.5–1 apart).
APART = 0.75
#: Boxes under this share of the usual box area, or …
SMALLEST = 0.4
#: … over this share are left out when the rows are measured (a faint box over two tiles or the table).
LARGEST = 1.8
#: A gap tile is kept when the classifier gives its tile at least this probability. 0.7 → 0.5 (eighteenth session,
#: 2026-12-06): a 四條 half under its neighbour's shifted box was named 0.54 in its hole; held back as every gap tile is,
#: it counts only when the round lacks a tile. Composed tuning photos +2, −1 (a 碰's claimed tile boxed taller than a
#: tile and set aside for two gap tiles inside it, read a kong), kept-aside +1, held-out +2.
GAP_SURE = 0.5
#: The box score a gap tile is given (`tile_confidence`): the layout knows a gap tile by it and always holds it back
#: (`layout.named_on_a_place`, `layout.HELD_BACK_BOX`).
GAP_BOX_SCORE = 0.1
#: A proposal covered this much by a box already found is that box's tile, not a missed one.
COVERED = 0.3
#: A place whose first look gives no tile this probability is table: it gets no second look (`first_look_namer`).
PROMISING = 0.3
#: Boxes the detector scored this low, under the second look's floor, are also tried (`faint_tiles`) …
FAINT_FLOOR = 0.003
#: … at most this many, surest first, …
FAINT_TRIES = 8
#: … and kept when the classifier gives their tile at least this probability (tuning split).
FAINT_SURE = 0.8
#: … a box longer than this many times its width is no tile.
FAINT_ASPECT = 2.0
#: A box overlapping a tried one this little (IoU) is tried too at its place, as another fit of the tile there.
SAME_PLACE = 0.5
#: Looks at the rows in all: a second one with the first look's gap tiles in place.
ROUNDS = 2
#: Proposals named at most per look at the rows (holes first, then row ends; `ROUNDS` looks a photo).
MAX_PROPOSALS = 16

#: (photo, boxes) → each box's `Top` (`detector.Box`, `detector.Top`).
Namer = Callable[[np.ndarray, list[Box]], list[Top]]


@dataclass(frozen=True)
class Proposal:
    """Where a tile may have been missed: in a hole of a row (`hole`) or past its end (`end`); `boxes` are
    the places tried (the hole's middle first, then against each neighbour when the hole is wide)."""

    boxes: tuple[Box, ...]
    where: str
    beside_back: bool

    @property
    def box(self) -> Box:
        """The first place tried."""
        return self.boxes[0]


def _photo_box(u: float, v: float, w: float, h: float, angle: float) -> Box:
    """An axis-aligned box of `w` × `h` pixels centred on row-frame point (u, v)."""
    c, s = math.cos(angle), math.sin(angle)
    x, y = u * c - v * s, u * s + v * c
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def _size(*tiles: Placed) -> tuple[float, float]:
    """Median photo-box width and height of `tiles`."""
    return (float(median([p.det.width for p in tiles])), float(median([p.det.height for p in tiles])))


def hole_proposals(row: Sequence[Placed], width: float, angle: float) -> list[Proposal]:
    """Boxes of the neighbours' size in each hole between two standing neighbours of `row`: one in a hole
    one tile wide (HOLE_MIN–HOLE_MAX), one against each neighbour in a hole two tiles wide (up to HOLE2_MAX:
    an 暗杠's two backs, or a tile missed before the winning tile set apart)."""
    gap = max(row_pitch(row, width) - width, 0.0)
    out = []
    for a, b in zip(row, row[1:]):
        if a.sideways or b.sideways:  # a claimed tile's gap is a meld's
            continue
        left, right = a.u + a.along / 2, b.u - b.along / 2
        w, h = _size(a, b)
        v = (a.v + b.v) / 2
        beside_back = not a.face_up or not b.face_up
        if HOLE_MIN * width <= right - left <= HOLE_MAX * width:
            boxes = [_photo_box((left + right) / 2, v, w, h, angle)]
            if right - left > WIDE_HOLE * width:  # the tile may lie against either neighbour, or sideways (claimed)
                boxes += [_photo_box(u, v, w, h, angle) for u in (left + width / 2, right - width / 2)]
                boxes.append(_photo_box((left + right) / 2, v + (h - w) / 2, h, w, angle))
            out.append(Proposal(tuple(boxes), "hole", beside_back))
        elif HOLE_MAX * width < right - left <= HOLE2_MAX * width:
            out += [Proposal((_photo_box(u, v, w, h, angle),), "hole", True)
                    for u in (left + gap + width / 2, right - gap - width / 2)]
    return out


def row_pitch(row: Sequence[Placed], width: float) -> float:
    """The distance between the centres of touching standing neighbours (the median), else a tile width."""
    steps = [b.u - a.u for a, b in zip(row, row[1:])
             if not (a.sideways or b.sideways) and (b.u - b.along / 2) - (a.u + a.along / 2) < HOLE_MIN * width]
    return float(median(steps)) if steps else width


def end_proposals(row: Sequence[Placed], width: float, angle: float) -> list[Proposal]:
    """Boxes beyond each standing end tile of a row of at least END_ROW tiles: touching it (at the row's
    pitch), set apart by APART tile widths (a winning tile), and touching it lying sideways (a claimed tile)."""
    if len(row) < END_ROW:
        return []
    gap = max(row_pitch(row, width) - width, 0.0)
    out = []
    for end, sign in ((row[0], -1), (row[-1], 1)):
        if end.sideways:
            continue
        w, h = _size(*standing) if (standing := [p for p in row if p.standing_face]) else _size(end)
        low = end.v + (h - w) / 2  # a sideways tile lies on the row's bottom line
        boxes = (_photo_box(end.u + sign * (width + gap), end.v, w, h, angle),
                 _photo_box(end.u + sign * (width + APART * width), end.v, w, h, angle),
                 _photo_box(end.u + sign * (width / 2 + gap + h / 2), low, h, w, angle))
        out.append(Proposal(boxes, "end", True))
    return out


def covered_share(box: Sequence[float], others: Sequence[Detection]) -> float:
    """The largest share of `box`'s area that one of `others` covers."""
    return max(covered_shares(box, (d.box for d in others)), default=0.0)


def tile_sized(dets: Sequence[Detection]) -> list[Detection]:
    """The boxes of about one tile's area (a faint box over two tiles or a patch of table is not a tile to measure by)."""
    if not dets:
        return []
    usual = float(median([d.width * d.height for d in dets]))
    return [d for d in dets if SMALLEST * usual <= d.width * d.height <= LARGEST * usual]


def _inside(box: Box, image_size: tuple[int, int] | None) -> bool:
    """The whole box lies in the photo (always, when its size is not given)."""
    return image_size is None or (box[0] >= 0 and box[1] >= 0 and box[2] <= image_size[0] and box[3] <= image_size[1])


def row_proposals(dets: Sequence[Detection]) -> list[Proposal]:
    """Holes first, then row ends, of the rows of `dets` as they lie (running at most 40° from level)."""
    angle, width, _, rows = measure_rows(dets)
    return [*(p for r in rows for p in hole_proposals(r, width, angle)),
            *(p for r in rows for p in end_proposals(r, width, angle))]


def _turned_back(box: Box) -> Box:
    """A box of the photo turned upright clockwise (`quarter_turn`) as the photo has it."""
    return quarter_turn(Detection(box, "", 0.0), clockwise=False).box


def proposals(dets: Sequence[Detection], image_size: tuple[int, int] | None = None) -> list[Proposal]:
    """Where the rows of `dets` may lack a tile: holes first, then row ends; of each, only the places no
    found box covers (`COVERED`) and lying in the photo."""
    dets = tile_sized(dets)
    if len(dets) < 2:
        return []
    if turned_a_quarter(dets):  # shot turned 90°, the rows run up and down: measured upright, proposed in the photo
        found = [replace(p, boxes=tuple(_turned_back(b) for b in p.boxes))
                 for p in row_proposals([quarter_turn(d, clockwise=True) for d in dets])]
    else:
        found = row_proposals(dets)
    out: list[Proposal] = []
    taken = list(dets)
    for p in found:
        boxes = tuple(b for b in p.boxes if _inside(b, image_size) and covered_share(b, taken) <= COVERED)
        if boxes:
            out.append(replace(p, boxes=boxes))
            taken.append(Detection(boxes[0], "", 1.0))
    return out[:MAX_PROPOSALS]


def first_look_namer(classifier: Any) -> Namer:
    """A `TileClassifier`'s `classify_top` (second look included) on the places its first look finds
    promising (`PROMISING`), that first look not read again; the others, most of them table, get no choices."""
    def name(rgb: np.ndarray, boxes: list[Box]) -> list[Top]:
        if not boxes:
            return []
        probs = classifier(np.stack([crop_tile(rgb, b) for b in boxes]))
        best = probs[:, tile_columns(classifier.names)].max(axis=1)
        keep = [i for i, p in enumerate(best) if p >= PROMISING]
        out: list[Top] = [()] * len(boxes)
        tops = classifier.classify_top(rgb, [boxes[i] for i in keep], first=probs[keep]) if keep else []
        for i, top in zip(keep, tops):
            out[i] = top
        return out

    return name


def named_gap(proposal: Proposal, tops: Sequence[Top], sure: float = GAP_SURE) -> Detection | None:
    """The tile the classifier names surest at one of a proposal's places (`tops`, one per place), or None:
    unsure or `none` there. A back is no reading in a hole between face-up tiles (an 暗杠's back lies at its
    end or beside a back): such a place is passed over, so a face named surely at another place still counts."""
    best = max(((box, top) for box, top in zip(proposal.boxes, tops)
                if top and (top[0][0] != BACK or proposal.beside_back)), key=lambda bt: bt[1][0][1], default=None)
    if best is None:
        return None
    box, top = best
    code, p = top[0]
    if code == NO_TILE or p < sure:
        return None
    return Detection(box, code, tile_confidence(GAP_BOX_SCORE, p), tuple(top))


def gap_tiles(rgb: np.ndarray, dets: Sequence[Detection], name: Namer, sure: float = GAP_SURE,
              rounds: int = ROUNDS) -> list[Detection]:
    """The tiles the classifier (`name`) surely sees where the rows of `dets` lack one (`proposals`); the
    rows with those tiles are looked at again, `rounds` times in all (two tiles missed side by side). Only proposals
    that found no tile count as tried: past a row's end the place set apart may lie over two alike tiles missed side
    by side and be named surer than the one touching the row, and the hole it leaves holds the other (a 碰 of 九筒
    boxed once; composed tuning photos: one more of 2 280 rounds right, none of 3 080 lost; sixteenth session)."""
    size = (int(rgb.shape[1]), int(rgb.shape[0]))
    kept: list[Detection] = []
    tried: list[Detection] = []
    for _ in range(rounds):
        found = [p for p in proposals([*dets, *kept], size) if covered_share(p.box, tried) <= COVERED]
        if not found:
            break
        named = name(rgb, [b for p in found for b in p.boxes])
        tops, at = [], 0
        for p in found:
            tops.append(named[at : at + len(p.boxes)])
            at += len(p.boxes)
        gaps = [named_gap(p, t, sure) for p, t in zip(found, tops)]
        tried += [Detection(p.box, "", 0.0) for p, d in zip(found, gaps) if d is None]
        new = [d for d in gaps if d is not None]
        added = 0
        for d in sorted(new, key=lambda d: -d.conf):
            if covered_share(d.box, kept) <= COVERED:  # two proposals in one place (a hole and an end): the surer
                kept.append(d)
                added += 1
        if not added:
            break
    return sorted(kept, key=lambda d: (d.cx, d.cy))


def faint_tiles(rgb: np.ndarray, dets: Sequence[Detection], boxes: np.ndarray, scores: np.ndarray, name: Namer,
                sure: float = FAINT_SURE) -> list[Detection]:
    """Tiles in boxes the detector scored under the second look's floor (`boxes`, `scores`): the FAINT_TRIES
    surest of those about one tile's size (as `dets`' boxes) lying where no detection is, kept when the
    classifier names a face surely (`sure`): a lone indicator the detector barely boxed, a blank 白板. At each such
    place the next surest box there, placed otherwise (`SAME_PLACE`), is named too and counts when the first is not
    named surely: a faint box round the top of a lone 七筒 named it at 0.34, a fainter one round all of it at 0.99."""
    if not len(dets) or not len(boxes):
        return []
    usual = float(median([d.width * d.height for d in dets]))
    places: list[list[Box]] = []  # each place's boxes, surest first: its first box and its other one
    for i in np.argsort(-np.asarray(scores), kind="stable"):
        box = tuple(float(v) for v in boxes[i])
        w, h = box[2] - box[0], box[3] - box[1]
        if w <= 0 or h <= 0 or not SMALLEST * usual <= w * h <= LARGEST * usual or max(w, h) > FAINT_ASPECT * min(w, h):
            continue
        if covered_share(box, dets) > COVERED:
            continue
        home = next((p for p in places if covered_shares(box, p[:1])[0] > COVERED), None)
        if home is None and len(places) < FAINT_TRIES:
            places.append([box])
        elif home is not None and len(home) < 2 and box_iou(box, home[0]) < SAME_PLACE:
            home.append(box)
    if not places:
        return []
    tops = iter(name(rgb, [b for p in places for b in p]))
    out = []
    for place in places:
        named = [named_face(b, next(tops), sure) for b in place]
        found = next((d for d in named if d is not None), None)
        if found is not None:
            out.append(found)
    return out


def named_face(box: Box, top: Top, sure: float) -> Detection | None:
    """A tile's face (not `none`, not a back) the classifier names at least `sure` on a place the detector gave
    no box worth its score: a detection scored as a gap tile (`GAP_BOX_SCORE`), held back by the layout."""
    if not top or top[0][0] in (NO_TILE, BACK) or top[0][1] < sure:
        return None
    return Detection(box, top[0][0], tile_confidence(GAP_BOX_SCORE, top[0][1]), tuple(top))
