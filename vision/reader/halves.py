"""A tile boxed as two halves, read whole (`whole_tiles`), or by one half alone (`grown_tiles`).

The detector sometimes boxes one large-faced tile as two tiles: a 4筒's two pairs of circles, each boxed on
its own and rightly named 2筒 (standing, the top and bottom pair; lying sideways in a meld, the left and right
pair). It usually also boxes the whole tile, but weakly (box score 0.04–0.35), and that box, lying over two
surer ones, is never named. Where two named boxes are each about half a tile against their neighbours, abut,
and the detector's weak box lies over them, their union is named, and when the classifier names a tile there
it replaces the two halves.

2026-12-05, set on composed tuning photos (seeds 0 and 4–7, 300 photos): 7 of the 58 rounds read wrong were
read right with it (5 of them in the two-row layout, a 吃 or 碰's sideways 4筒 read as two 2筒), none lost; on
CMD v4's 289 `valid` photos it reads 4 tiles whole (a 4條 and three 6筒 boxed as halves), each right. Two boxes
one above the other may be halves up to `HALF_AREA_ABOVE` (the lower half boxed with the table below it runs
large; 2 more tuning rounds right of 840, none lost; 5 tiles read whole on `valid`, each right). A top and bottom
half are measured against the photo's tiles as well as their nearest ones: in a 碰 of 4筒 each boxed as two, the
nearest boxes are halves too (1 029 → 1 033 of 1 140 tuning rounds right, none lost; `valid` reads as before). So are
two halves side by side whose union lies sideways, lower than the tiles near it (a claimed tile; its nearest boxes
may be narrow ones of the next row): 1 037 → 1 039, none lost.

A tile boxed twice side by side, each box named as the whole tile (often a claimed tile lying sideways, boxed as its two
ends), is read whole too when the two boxes overlap along the row by `ONE_TILE_TWICE` of the narrower one (two tiles
side by side overlap by a loose box's edge at most). Before, two boxes named alike were always taken for two tiles, and
the layout set one aside and read a gap inside the meld: on the 570 composed tuning photos of seeds 47, 0 and 8, 529 →
533 rounds right (2026-12-05, tenth session, `short_ends` already in), none lost. Each box of a tile boxed twice is more
than half of it, up to `HALF_AREA_ABOVE`, and its two boxes may be named as two other tiles (a claimed 萬 lying
sideways boxed as its two ends, misnamed 南 and 三條); such a pair is one tile only when the classifier names the two
together surely (`TWICE_SURE`): on 760 composed tuning photos (seeds 47, 0, 8 and 21) 5 more rounds right, none lost,
and 4 more of the 300 kept-aside ones (2026-12-06).

Two halves each named as the tile their union is named are two tiles when they lie side by side (two 八條 of a
hand), but one when one lies above the other: the top and bottom half of a standing 八條 each look like an 八條, and
taken for two tiles they made a 碰 a kong (1 444 → 1 445 of 1 520 composed tuning rounds, none lost; 2026-12-06).

A standing tile as tall as its neighbours and named surely (`_standing_whole`) is never a half side by side with
another box, nor one end of a tile lying sideways: a 吃's 五萬 beside one end of the claimed 六萬 was read with that end
as one 六萬, their union named so, and the 吃 was lost; two 三條, the first boxed over its top alone, were read as one
claimed 三條 (composed photos: 3 more of 3 460 read right, none lost; 2026-12-06, seventeenth session).

Sometimes only one half is boxed, surely, and the other half not at all: a box as wide as its neighbours but
about half as high, named 2筒, or, for a tile lying sideways in a meld, as high as they are wide but half a
tile long. `grown_tiles` names it again grown to a whole tile (to its neighbours' height from the end that lines
up with theirs; to a tile's length either way along the row) and takes the other tile when the classifier is
sure of it. On the 300 tuning photos it changed 11 tiles, 10 of them right (2筒→4筒 or 5筒 or 6筒, 6條→7條,
8筒→9筒 …; one 8條 became 9筒 where a 6條 lay, in a round read right anyway), and read 4 more rounds right;
on CMD v4's `valid` photos it changes none.

A tile lying askew in a heap is sometimes boxed surely round a part of its face alone (two of a 四筒's circles, read
二筒), while the detector's own box round the whole tile scores low (0.08–0.15) and is never named.
`detector.whole_over_part` names the detector's boxes round a 筒 or 條 tile the reader keeps (1.3–2.6 times its area,
holding 85 % of it) from the classifier's first look and takes one named surely (0.8) as a tile of that suit with more
circles or sticks (`more_of_the_same`), unless surer tiles cover it (`detector.drop_covered`). It runs in
`TileDetector.name_boxes`, so `vision.detect` has it, and in the reader's first look after the rules above, which know
the row. Found on the unseen phone shoot `IMG_27xx` (two 四筒 read 二筒); set on the 238 `valid` photos of seen shoots,
where the boxes round a part named another tile at 0.82–0.89 were right (a 六筒 boxed round four of its circles and
read 四筒) and those named at 0.52–0.67 wrong. Without the suit rule, a box reaching over a 四條 beside a 二筒 turned
the 二筒 into 四條 on a composed tuning photo.

A lone tile off the rows (the indicator above, below or beside them) lines up with no row, and often lies nearer the
camera than the hand: its half box is grown down and up, to its neighbours' height and to the height their shape gives
its width (`LINED_UP`). Weak boxes named below the first threshold are grown as well (`levels.DetectionLevels.at`):
the detector often boxes a lone tile only faintly, and half of it. On the 570 composed tuning photos of seeds 47, 0
and 8, 3 rounds whose 翻精 四筒 or 七條 was read 二筒 or 六條 are read right, none lost; the real photos read as before.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from statistics import median

import numpy as np

from vision.reader.boxes import box_area, box_iou, iou_matrix
from vision.reader.detection import Detection
from vision.reader.detector import named_as_whole, own_box_score
from vision.reader.gaps import Box, Namer, Top

#: The least box score of the detector's own whole-tile box over two halves (it is looser than the tile).
WHOLE_FLOOR = 0.02
#: … and how well it matches the two halves' union.
WHOLE_IOU = 0.4
#: A half is at most this share of its neighbours' median box (`NEIGHBOURS`) …
HALF_AREA = 0.7
#: … or this, for two boxes one above the other as wide as each other (a standing tile's top and bottom: two tiles
#: side by side are never so; the lower half of a tile boxed with the table below it runs large, and a lone indicator
#: below the rows lies nearer the camera than its neighbours: 0.8 → 0.9 read 4 more of the 570 composed tuning
#: rounds right, none lost, 2026-12-06) …
HALF_AREA_ABOVE = 0.9
#: … the two halves' union a tile's area (against the same median) …
UNION_AREA = (0.7, 1.5)
#: … and they abut: their union box no larger than this many times their areas added up.
ABUT = 1.3
#: The union replaces its halves when the classifier names a tile there this surely.
WHOLE_SURE = 0.4
#: Tiles that never stand for a tile found as two halves.
NOT_A_TILE = ("back", "none")


def union(a: Sequence[float], b: Sequence[float]) -> Box:
    """The smallest box holding both."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


#: The tiles a pair is measured against: this many named boxes nearest to it (tiles shrink with distance).
NEIGHBOURS = 3


def _nearest(centres: np.ndarray, at: np.ndarray, skip: Sequence[int]) -> list[int]:
    """The indices of the `NEIGHBOURS` centres nearest to `at`, but for those in `skip`."""
    order = np.argsort(np.linalg.norm(centres - at, axis=1))
    return [int(k) for k in order if k not in skip][:NEIGHBOURS]


def _one_above_the_other(a: Sequence[float], b: Sequence[float]) -> bool:
    """Two boxes share at least 0.7 of the narrower one's width: one lies above the other."""
    shared = min(a[2], b[2]) - max(a[0], b[0])
    return shared >= 0.7 * min(a[2] - a[0], b[2] - b[0])


#: Two halves side by side make a tile lying sideways (a claimed tile) when their union is this much wider than tall …
LYING = 1.2
#: … and at most this share of the height of the tiles nearest to it (a tile's width, not its height: small tiles far
#: off side by side are as high as their neighbours).
LYING_HEIGHT = 0.85
#: … and two pieces named each as their union are one tile lying sideways only when their union is at most this share as
#: long as the tiles near it are tall: two standing tiles boxed short above are as low, but a tile's width longer.
LYING_LENGTH = 1.15


#: Two boxes side by side overlapping along the row by this share of the narrower one are one tile boxed twice (each box
#: named as the whole tile, often a claimed tile lying sideways): two tiles side by side overlap by a loose box's edge.
ONE_TILE_TWICE = 0.15
#: Two boxes so overlapping but named as two tiles are one only when the classifier names their union this surely:
#: a claimed tile lying sideways boxed as its two ends, each misnamed (南, 三條 …), is named at 0.79–0.98; two tiles
#: side by side boxed loosely, at 0.58 (composed tuning photos, 2026-12-06).
TWICE_SURE = 0.7


def _lying(u: Sequence[float], near_height: float, height: float | None = None) -> bool:
    """The box `u` is a tile lying sideways: wider than tall by `LYING`, lower than the tiles near it (`LYING_HEIGHT`);
    `height`: the tile's height when not the box's (two pieces boxed a little above and below each other)."""
    h = u[3] - u[1] if height is None else height
    return u[2] - u[0] >= LYING * h and h <= LYING_HEIGHT * near_height


#: A box side by side with another is a standing tile of its own, not half of one, when it is at least this share as
#: tall as the tiles near it and as wide …
STANDING_WHOLE = (0.9, 0.65)
#: … and the classifier names its tile at least this surely (each end of a claimed tile boxed loosely is named unsurely,
#: 0.1 in the composed photos; a standing tile boxed shifted, 0.74).
STANDING_SURE = 0.6


def _standing_whole(d: Detection, near_width: float, near_height: float) -> bool:
    """`d` is as tall and as wide as the tiles near it (their median `near_width` and `near_height`, `STANDING_WHOLE`)
    and named surely (`STANDING_SURE`): a whole standing tile."""
    return (d.height >= STANDING_WHOLE[0] * near_height and d.width >= STANDING_WHOLE[1] * near_width
            and d.named_prob >= STANDING_SURE)


def halved_tiles(named: Sequence[Detection], boxes: np.ndarray, scores: np.ndarray) -> list[tuple[Box, tuple[int, int], str]]:
    """Pairs of named boxes that look like two halves of one tile: each small against the tiles nearest to
    them, abutting, their union a tile's size, and the detector's own weaker box over that union (IoU ≥
    `WHOLE_IOU`); (union box, the pair, how they lie: "twice", side by side overlapping by `ONE_TILE_TWICE`: one
    tile boxed twice; "above", one above the other: a standing tile's top and bottom; "lying", side by side, their
    union a tile lying sideways (`_lying`, `LYING_LENGTH`): a claimed tile's two ends; "beside", side by side). Side
    by side, neither may be a standing tile of its own (`_standing_whole`)."""
    areas = [box_area(d.box) for d in named]
    centres = np.array([[(d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2] for d in named])
    weak = [tuple(float(v) for v in b) for b, s in zip(boxes, scores) if s >= WHOLE_FLOOR]
    photo_usual = median(areas)  # a top and bottom half against the photo's tiles too: its nearest may be halves as well
    out = []
    for i in range(len(named)):
        for j in range(i + 1, len(named)):
            a, b = named[i].box, named[j].box
            u = union(a, b)
            if box_area(u) > ABUT * (areas[i] + areas[j]):
                continue
            near = _nearest(centres, centres[[i, j]].mean(axis=0), (i, j))
            others = [areas[k] for k in near]
            if len(others) < 2:
                continue
            above = _one_above_the_other(a, b)
            twice = not above and min(a[2], b[2]) - max(a[0], b[0]) >= ONE_TILE_TWICE * min(a[2] - a[0], b[2] - b[0])
            # a tile boxed twice is more than half of it in each box (whether each is named as it: `TWICE_SURE`)
            half = HALF_AREA_ABOVE if above or twice else HALF_AREA
            pieces_height = (a[3] - a[1] + b[3] - b[1]) / 2  # their union runs taller where one lies a little lower
            near_height = median(named[k].box[3] - named[k].box[1] for k in near)
            low_and_wide = not above and _lying(u, near_height, pieces_height)
            photo_wide = above or low_and_wide
            lying = low_and_wide and u[2] - u[0] <= LYING_LENGTH * near_height  # as long as a tile is tall: one tile
            if not (above or twice):  # side by side: a standing tile of its own is neither half nor end of one
                near_width = median(named[k].box[2] - named[k].box[0] for k in near)
                if any(_standing_whole(named[k], near_width, near_height) for k in (i, j)):
                    continue
            if not any(max(areas[i], areas[j]) <= half * usual and UNION_AREA[0] * usual <= box_area(u) <= UNION_AREA[1] * usual
                       for usual in ((median(others), photo_usual) if photo_wide else (median(others),))):
                continue
            if weak and float(iou_matrix(np.array([u]), np.array(weak)).max()) >= WHOLE_IOU:
                out.append((u, (i, j), "twice" if twice else "above" if above else "lying" if lying else "beside"))
    return out


#: Tiles read whole are looked among again this many times in all: a claimed tile lying sideways beside tiles boxed as
#: halves is measured against those halves until they are read whole (a 碰 of 4筒 each boxed as two, 2026-12-06).
WHOLE_PASSES = 2


def whole_tiles(rgb: np.ndarray, named: list[Detection], boxes: np.ndarray, scores: np.ndarray,
                name: Namer) -> list[Detection]:
    """`named` with each tile boxed as two halves read whole (see the module): the union of two halves
    (`halved_tiles`; `boxes`, `scores`: the YOLO stage's), named surely by `name`, replaces them; looked at again
    with the tiles so read (`WHOLE_PASSES`), each union named once however many looks find it."""
    seen: dict[Box, Top] = {}

    def name_once(rgb: np.ndarray, unions: list[Box]) -> list[Top]:
        new = list(dict.fromkeys(u for u in unions if u not in seen))
        seen.update(zip(new, name(rgb, new) if new else []))
        return [seen[u] for u in unions]

    for _ in range(WHOLE_PASSES):
        out = _whole_tiles_once(rgb, named, boxes, scores, name_once)
        if len(out) == len(named):
            return out
        named = out
    return named


def _whole_tiles_once(rgb: np.ndarray, named: list[Detection], boxes: np.ndarray, scores: np.ndarray,
                      name: Namer) -> list[Detection]:
    """One look of `whole_tiles`."""
    if len(named) < 3:
        return named
    found = halved_tiles(named, boxes, scores)
    if not found:
        return named
    tops = name(rgb, [u for u, _, _ in found])
    taken: set[int] = set()
    wholes: list[Detection] = []
    for (whole, pair, lie), top in sorted(zip(found, tops), key=lambda x: -(x[1][0][1] if x[1] else 0.0)):
        if not top or top[0][0] in NOT_A_TILE or top[0][1] < WHOLE_SURE or taken & set(pair):
            continue
        if lie == "beside" and all(named[i].tile == top[0][0] for i in pair):
            continue  # named as each half, side by side: two tiles after all (a top and bottom half may be named so; the
            # two ends of a claimed 八條, as low as a lying tile and as long, lie "lying", not "beside")
        if lie == "twice" and named[pair[0]].tile != named[pair[1]].tile and top[0][1] < TWICE_SURE:
            continue  # two tiles boxed loosely, unless surely one
        if any(box_iou(whole, w.box) >= 0.5 for w in wholes):
            continue  # the same tile again, from another pair of its pieces
        taken |= set(pair)
        surer = max((named[i] for i in pair), key=own_box_score)
        wholes.append(named_as_whole(surer, whole, top))
    return [d for i, d in enumerate(named) if i not in taken] + wholes


#: A named box lower than this share of its neighbours' median height (`NEIGHBOURS`) is half a standing tile …
SHORT = 0.72
#: … when it is about as wide as they are (share of their median width).
SAME_WIDTH = (0.75, 1.35)
#: The grown box replaces the half when the classifier names another tile there this surely.
GROWN_SURE = 0.6
#: A box whose top and bottom both lie farther than this share of a tile's height from its neighbours' lies off their
#: row (a lone indicator above or below the rows, nearer the camera or farther): it is half a tile when it is much lower
#: (`SHORT`) than they are or than their shape makes a tile of its width, either half, so it is grown both ways to both.
LINED_UP = 0.35


def short_tiles(named: Sequence[Detection], lone_only: bool = False) -> list[tuple[tuple[Box, ...], int]]:
    """Named boxes that look like half a tile against the tiles nearest to them: as wide as they are but much
    lower (the detector boxed only the top or bottom pair of a 4筒's circles), or as high as they are wide but
    much shorter than a tile is long (half of a tile lying sideways in a meld): (the boxes it may be the half of
    — grown to its neighbours' height from the end that lines up with theirs, and grown to a lying tile's
    length either way along the row; off their row, both ways —, its index). `lone_only`: only boxes off their
    neighbours' row (`LINED_UP`), as a weak box below the first threshold is looked at."""
    boxes = np.array([d.box for d in named], dtype=float)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    out = []
    for i, d in enumerate(named):
        if d.tile in NOT_A_TILE:
            continue
        near = _nearest(centres, centres[i], (i,))
        if len(near) < 2:
            continue
        x1, y1, x2, y2 = d.box
        h = float(median((boxes[near, 3] - boxes[near, 1]).tolist()))
        w = float(median((boxes[near, 2] - boxes[near, 0]).tolist()))
        grown: list[Box] = []
        top, bottom = float(median(boxes[near, 1].tolist())), float(median(boxes[near, 3].tolist()))
        if min(abs(y1 - top), abs(y2 - bottom)) > LINED_UP * h:  # off their row (a lone indicator), maybe nearer
            tall = (x2 - x1) * float(median(((boxes[near, 3] - boxes[near, 1]) / (boxes[near, 2] - boxes[near, 0])).tolist()))
            for height in sorted({h, tall}):  # as high as they are, or as their shape makes a tile of its width
                if y2 - y1 < SHORT * height:  # either half of such a tile
                    grown += [(x1, y1, x2, y1 + height), (x1, y2 - height, x2, y2)]
        elif lone_only:
            continue
        elif y2 - y1 < SHORT * h and SAME_WIDTH[0] * w <= x2 - x1 <= SAME_WIDTH[1] * w:
            grown.append((x1, y1, x2, y1 + h) if abs(y1 - top) <= abs(y2 - bottom) else (x1, y2 - h, x2, y2))
        if not lone_only and h > w and x2 - x1 < SHORT * h and SAME_WIDTH[0] * w <= y2 - y1 <= SAME_WIDTH[1] * w:
            grown += [(x2 - h, y1, x2, y2), (x1, y1, x1 + h, y2)]
        if grown:
            out.append((tuple(grown), i))
    return out


def grown_tiles(rgb: np.ndarray, named: list[Detection], name: Namer, among: Collection[int] | None = None,
                lone_only: bool = False) -> list[Detection]:  # fmt: skip
    """`named` with each half of a tile (`short_tiles`, `lone_only` as there; only those of index in `among` when
    given) read whole where the classifier names another tile surest (at least `GROWN_SURE`) at one of the boxes it
    may be the half of that no other named box lies over."""
    if len(named) < 3:
        return named
    found = [(g, i) for gs, i in short_tiles(named, lone_only) for g in gs if among is None or i in among
             if all(box_iou(g, d.box) < 0.3 for k, d in enumerate(named) if k != i)]
    if not found:
        return named
    best: dict[int, tuple[Box, Top]] = {}
    for (grown, i), top in zip(found, name(rgb, [g for g, _ in found])):
        sure = bool(top) and top[0][0] not in NOT_A_TILE and top[0][0] != named[i].tile and top[0][1] >= GROWN_SURE
        if sure and (i not in best or top[0][1] > best[i][1][0][1]):
            best[i] = (grown, top)
    out = list(named)
    for i, (grown, top) in best.items():
        out[i] = named_as_whole(named[i], grown, top)
    return out
