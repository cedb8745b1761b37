"""A tile boxed loosely or short, read again in boxes of a tile's size (`refit_loose_tiles`); two standing tiles
boxed as one, read as two (`parted_wide_boxes`).

The indicator lies alone on the table, often on a light cloth or table edge, and the detector then boxes it
loosely: a box reaching half a tile past it onto the table, or round its lower half alone. The crop of such a box
shows the tile small, or in part, and the classifier names a look-alike (a 三條 with table round it read 一萬, the
lower half of a 二筒 read 一筒). The photo's other tiles give a tile's size; where a lone box is clearly another size
(`OFF_SIZE`), boxes of a tile's size are laid over it (`STEPS` × `STEPS` places from one corner to the other) and the
one the classifier names surest is read again. When that names another tile surely (`REFIT_SURE`) and more surely than
the loose box, it takes its place, keeping the box score the detector gave.

Composed tuning photos (2026-12-06, 1 710): of the 86 rounds read wrong, 6 had the indicator misread, in 5 of them
boxed a quarter to half a tile off a tile's size, mostly on a light table. Three of them read right with it, and one
more of the 120 held-out photos; none lost.

In a row the same misreading comes from a box about square or a little wider (`in_row_ways`): round a standing
tile's top half (two of a 四筒's circles read 二筒, the top of a 三條 read 一條) or round a sideways tile boxed short of
its length (a claimed 二筒 boxed round one circle and a half, read 一筒). Such a box, about one tile in size, is read
again the same way, sideways and standing; standing only when it is no wider than a standing tile: a box as wide as a
sideways tile and taller than one holds that tile and what lies above it, and a standing place inside shows its middle
alone (a 七條's middle read 六條). Composed tuning photos (2026-12-06, fifteenth session; nine seeds and seeds 97 and
101, 2 090 photos): 16 rounds more read right, none lost; the kept-aside seed 13 one more of 300, a fresh draw (seed
103) two more of 190.

A standing tile boxed as tall as its neighbours but short of its width (a 五條 cut along one side reads 四條) is read
again standing the same way. On the twelve tuning draws (2 280 photos) 27 such boxes were read again, 26 of them as the
tile under them (the other was wrong before too): 3 more rounds right, and one of the 120 held-out ones; none lost.
So is one boxed loosely, up to `LOOSE_IN_ROW` tiles every way (a 一萬 read 二萬 at 0.04): on the same 2 280 photos 3
such boxes were read again, each as the tile under it; 1 more round right, none lost, and the kept-aside, held-out and
fresh photos read as before (sixteenth session).

Two standing tiles are sometimes boxed as one: the second and third 西 of a 碰 in one box 1.9 tiles wide and 0.86 as
tall, named 西 as if one lay sideways, and the 碰 was a tile short. `parted_wide_boxes` reads such a box (`TWO_WIDE`
tile widths or more, about a tile tall, `TWO_TALL`) at its two standing places and takes two tiles when the classifier
names one surely at each (`TWO_SURE`). On the looked-at composed photos (2026-12-07, twenty-fifth session) 18 boxes
so wide and tall lay over two tiles, 204 over one (mostly a claimed tile lying sideways, 1.6–1.8 tiles wide and
0.63–0.82 as tall); the rule parts 10 of the 18 and none of the 204. Rounds right: tuning +1, seeds 107–127 +1, seeds
173/179 +2, the held-out photos +1, none lost on any saved set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from statistics import median
from typing import Any

import numpy as np

from vision.reader.classifier import NO_TILE, crop_tile, tile_columns
from vision.reader.detection import Detection
from vision.reader.detector import Box, named_as_whole

#: A box whose width or height is off a tile's (the median standing box's) by more than this share is loose or short.
OFF_SIZE = 0.15
#: A box is lone when no other box's centre lies within this many tile widths of its own.
LONE_APART = 1.6
#: A box this wide for its height (width / height) may be a tile standing or lying (`lying_ways`).
SQUARE = (0.8, 1.25)
#: A box in a row (not lone) is read again only when this wide for its height: a standing tile's top or bottom half (a
#: tile is 0.65–0.75 as wide as tall, its half 1.3–1.5; up to 1.25 only, 2 rounds fewer of 2 700 composed photos read
#: right), or a sideways tile boxed short …
IN_ROW_SHAPE = (0.8, 1.5)
#: … and about one tile: at most this many tile widths wide and tile heights tall (`in_row_ways`).
ROW_BOX = (1.6, 1 + OFF_SIZE)
#: A box in a row wider and taller than a tile (`OFF_SIZE`) but at most this many tile widths wide and heights tall is
#: a standing tile boxed loosely (a 一萬 in a box reaching a third of a tile past it above and to the left, read 二萬 at
#: 0.04): read again standing (`in_row_ways`).
LOOSE_IN_ROW = 1.6
#: A box at least this many tile widths wide (of the photo's standing tiles, `tile_size`), and this share of a tile's height (a sideways tile is as tall
#: as a tile is wide, 0.65–0.8), may be two standing tiles boxed as one (`parted_wide_boxes`) …
TWO_WIDE = 1.7
TWO_TALL = (0.8, 1.1)
#: … and is read as two when the classifier names a tile at each of its two standing places this surely.
TWO_SURE = 0.8
#: Places of a tile's size tried along each side of a loose box (from its one end to the other).
STEPS = 3
#: The tile a place is named takes the loose box's place only when the classifier gives it at least this …
REFIT_SURE = 0.7
#: … and the photo has at least this many standing boxes to measure a tile by.
LEAST_TILES = 5
#: A box named this surely is not read again (a loose box's crop may be named surely and wrongly: the lower half of a
#: 二筒 read 一筒 at 0.90), nor is a place whose first look names no tile this surely (`FIRST_LOOK_SURE`), or names the
#: box's own tile: a classifier run that would not change the reading (on the held-out photos 10.6 ms a photo without
#: these, 7.7 with).
SURE_ALREADY = 0.99
FIRST_LOOK_SURE = 0.5


def tile_size(named: Sequence[Detection]) -> tuple[float, float] | None:
    """The median width and height of the standing boxes (taller than wide), None when there are too few."""
    standing = [d for d in named if d.height > d.width]
    if len(standing) < LEAST_TILES:
        return None
    return float(median([d.width for d in standing])), float(median([d.height for d in standing]))


def loose_boxes(named: Sequence[Detection], size: tuple[float, float]) -> list[tuple[int, list[tuple[float, float]]]]:
    """The boxes to read again, each (index, the tile's width and height as it may lie there): boxes lying alone
    (`LONE_APART`) as they may lie (`lying_ways`), and boxes in a row as `in_row_ways` says, whose width or height is
    off a tile's (`OFF_SIZE`) every such way."""
    width = size[0]
    centres = np.array([(d.cx, d.cy) for d in named])
    out = []
    for i, d in enumerate(named):
        others = np.delete(centres, i, axis=0)
        lone = not len(others) or np.linalg.norm(others - centres[i], axis=1).min() >= LONE_APART * width
        ways = lying_ways(d, size) if lone else in_row_ways(d, size)
        if ways and all(abs(d.width / w - 1) > OFF_SIZE or abs(d.height / h - 1) > OFF_SIZE for w, h in ways):
            out.append((i, ways))
    return out


def lying_ways(d: Detection, size: tuple[float, float]) -> list[tuple[float, float]]:
    """A tile's width and height as `d` may lie: standing when taller than wide, sideways when wider, either when about
    square (`SQUARE`: the half of a standing tile, or a sideways one boxed short)."""
    standing, lying = size, (size[1], size[0])
    if SQUARE[0] <= d.width / max(d.height, 1e-9) <= SQUARE[1]:
        return [standing, lying]
    return [standing] if d.height > d.width else [lying]


def in_row_ways(d: Detection, size: tuple[float, float]) -> list[tuple[float, float]]:
    """A tile's width and height as a box in a row may hold it: standing, when the box is as tall as a standing tile
    but narrower (`OFF_SIZE`), or larger every way, loosely (`LOOSE_IN_ROW`); else none unless it is shaped as half a
    tile or a short one (`IN_ROW_SHAPE`) and about one tile (`ROW_BOX`): sideways, and standing only when it is no wider
    than a standing tile. A box as wide as a sideways tile and taller holds it and what lies above it, and a standing
    place inside shows its middle."""
    width, height = size
    if abs(d.height / height - 1) <= OFF_SIZE and d.width < (1 - OFF_SIZE) * width:
        return [size]  # a standing tile boxed short of its width
    if all(1 + OFF_SIZE < side / tile <= LOOSE_IN_ROW for side, tile in ((d.width, width), (d.height, height))):
        return [size]  # a standing tile boxed loosely, with the table or a neighbour's edge round it
    if (not IN_ROW_SHAPE[0] <= d.width / max(d.height, 1e-9) <= IN_ROW_SHAPE[1]
            or d.width > ROW_BOX[0] * width or d.height > ROW_BOX[1] * height):
        return []
    return [size, (height, width)] if d.width <= (1 + OFF_SIZE) * width else [(height, width)]


def tile_places(box: Box, w: float, h: float) -> list[Box]:
    """Boxes `w` × `h` laid over `box`, `STEPS` along each side from its one corner to the other (once where a side
    fits): inside a larger box, round a smaller one."""
    x1, y1, x2, y2 = box
    xs = np.linspace(min(x1, x2 - w), max(x1, x2 - w), STEPS)
    ys = np.linspace(min(y1, y2 - h), max(y1, y2 - h), STEPS)
    return list(dict.fromkeys((float(x), float(y), float(x + w), float(y + h)) for y in ys for x in xs))


def refit_loose_tiles(rgb: np.ndarray, named: list[Detection], classifier: Any,
                      among: Callable[[Detection], bool] | None = None) -> list[Detection]:  # fmt: skip
    """`named` with each loose box (`loose_boxes`, named under `SURE_ALREADY`; only those `among` passes, when given)
    read again: of the places of a tile's size over it, the one the classifier's first look names surest is named by
    its `classify_top`, and that tile replaces the box's when it is another, named at least `REFIT_SURE` and more
    surely. A place whose first look names the box's own tile, or none at `FIRST_LOOK_SURE`, is not named again."""
    size = tile_size(named)
    if size is None:
        return named
    loose = [(i, ways) for i, ways in loose_boxes(named, size)
             if (among is None or among(named[i])) and (choices := named[i].alternatives) and choices[0][1] < SURE_ALREADY]
    if not loose:
        return named
    height, width = rgb.shape[:2]
    tried = [(i, places) for i, ways in loose
             if (places := [p for w, h in ways for p in tile_places(named[i].box, w, h)
                            if p[0] >= 0 and p[1] >= 0 and p[2] <= width and p[3] <= height])]
    if not tried:
        return named
    columns = tile_columns(classifier.names)  # every box's places in one run of the first look
    probs = classifier(np.stack([crop_tile(rgb, p) for _, places in tried for p in places]))
    chosen: list[tuple[int, Box, int]] = []  # (box, its surest place, that place's row of `probs`)
    start = 0
    for i, places in tried:
        looks = probs[start : start + len(places), columns]
        best = int(looks.max(axis=1).argmax())
        if looks[best].max() >= FIRST_LOOK_SURE and classifier.names[columns[int(looks[best].argmax())]] != named[i].tile:
            chosen.append((i, places[best], start + best))
        start += len(places)
    out = list(named)
    tops = (classifier.classify_top(rgb, [p for _, p, _ in chosen], first=probs[[r for _, _, r in chosen]])
            if chosen else [])  # the first look is not run again on the chosen places
    for (i, place, _), top in zip(chosen, tops):
        d = named[i]
        if top and top[0][0] not in (NO_TILE, d.tile) and top[0][1] >= REFIT_SURE and top[0][1] > d.alternatives[0][1]:
            out[i] = named_as_whole(d, place, top)
    return out


def two_places(box: Box, size: tuple[float, float]) -> tuple[Box, Box]:
    """The two standing places of a tile's `size` at the two ends of `box`, level with its middle."""
    (x1, y1, x2, y2), (w, h) = box, size
    top = (y1 + y2) / 2 - h / 2
    return (x1, top, x1 + w, top + h), (x2 - w, top, x2, top + h)


def parted_wide_boxes(rgb: np.ndarray, named: list[Detection], classifier: Any) -> list[Detection]:
    """`named` with each box over two standing tiles (`TWO_WIDE` tile widths or more, about a tile tall, `TWO_TALL`)
    read as those two tiles when the classifier names a tile at both its standing places surely (`TWO_SURE`)."""
    size = tile_size(named)
    if size is None:
        return named
    width, height = size
    wide = [i for i, d in enumerate(named)
            if d.width >= TWO_WIDE * width and TWO_TALL[0] * height <= d.height <= TWO_TALL[1] * height]
    if not wide:
        return named
    places = [two_places(named[i].box, size) for i in wide]
    tops = classifier.classify_top(rgb, [p for pair in places for p in pair])
    out: list[Detection] = []
    parted = {i: (pair, tops[2 * k : 2 * k + 2]) for k, (i, pair) in enumerate(zip(wide, places))}
    for i, d in enumerate(named):
        pair, pair_tops = parted.get(i, ((), ()))
        if pair and all(top and top[0][0] != NO_TILE and top[0][1] >= TWO_SURE for top in pair_tops):
            out += [named_as_whole(d, place, top) for place, top in zip(pair, pair_tops)]
        else:
            out.append(d)
    return out
