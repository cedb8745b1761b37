"""Every way players lay a hand out, weighed: the role readings of a photo's groups, decoded into the
most probable legal round (`legal.decode`).

The groups of each row (`geometry.split_groups`) are read in every way a player lays a winning hand:

- a hand row: concealed groups side by side, then the winning tile alone, then melds — each set apart
  (推倒, one row), or melds at the left end; or the photo guide's two rows (melds in another row);
- a meld: a group of 3 or 4 (a kong's fourth tile sideways inside it), or a group of 3 with a lone
  tile just beside it (a kong's fourth tile set slightly apart); a group with face-down tiles is a
  暗杠, wherever its backs lie; a sideways claimed tile is optional;
- the indicator: a lone tile in any other row (above, below), or alone at either end of the hand row.

Each reading (`Plan`) has a cost for how unusual it is (`COSTS`); readings whose counts cannot add up
(13 − 3k concealed + 1 winning tile) are never decoded. The decoder then chooses the reading and tiles
of least cost (reading + tiles changed from the classifier's first choice) that make a legal round.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.tiles import CODES, format_tiles, parse_tiles
from vision.reader.detection import Detection
from vision.reader.layout.geometry import (
    BACK,
    Group,
    Placed,
    gaps,
    group_ends,
    group_spans,
    meld_left_splits,
    sideways_cuts,
    split_at,
    split_groups,
    weak_splits,
)
from vision.reader.layout.legal import ANY_BELOW, MIN_ALTERNATIVE, Decoded, Hypothesis, Slot, decode
from vision.reader.layout.melds import classify_meld, kong_of_two_faces, partition_melds
from vision.reader.layout.questions import question, tile_zh

#: The cost (−log odds against) of each unusual thing a reading assumes.
COSTS = {
    "other_hand_row": 1.5,     # the hand is not the row the layout picked
    "hand_gap": 0.7,           # each gap inside the concealed tiles
    "no_win_apart": 2.5,       # no lone winning tile after the hand
    "meld_in_hand_row": 0.2,   # a meld pushed down in the hand row (推倒)
    "melds_left": 0.3,         # … at the left end of it
    "melds_apart": 1.0,        # melds laid in two places: both ends of the hand row, or it and another row
    "indicator_in_row": 0.8,   # the indicator alone at an end of the hand row
    "kong_apart": 0.3,         # a kong's fourth tile set slightly apart, or stacked
    "kong_tile_missed": 1.5,   # a 暗杠 of which only three tiles were found
    "backs_unseen": 2.5,       # a 暗杠 of which only its two faces were found, a gap two tiles wide between them
    "stack_ignored": 1.0,      # three alike with a stacked-looking tile read as a 碰
    "sideways_in_hand": 1.5,   # a concealed tile lying sideways
    "weak_gap": 1.0,           # a group set apart by a gap narrower than `split_groups` asks (`weak_splits`)
    "back_read_as_face": 1.5,  # a 暗杠's end tile read as a face (a light back passes for a blank 白板)
    "win_gap_unclear": 0.5,    # the winning tile set apart by a gap no wider than one inside the hand
    "sideways_win": 1.0,       # the winning tile lying sideways, as a 吃's or 碰's claimed tile lies
}
#: A kong's fourth tile set apart lies at most this many tile widths from the other three.
KONG_APART = 0.8
#: … three of a 暗杠, a back missed, at most this many: the missed back's room (two 东 with a back boxed between them
#: and a tile's room after it, read two groups, neither a meld; composed photos, 2026-12-07: 4 more of the 3 800
#: looked at right, none of the 5 360 lost).
KONG_BACK_ROOM = 1.4
#: Two alike lone tiles this many tile widths apart (at least, at most) may be a 暗杠 whose two backs between them the
#: detector missed (`backs_unseen_between`; gap filling proposes places in such a hole too, `gaps.HOLE2_MAX`, but the
#: classifier names a flat-coloured back there at 0.2–0.5 or not at all). Composed photos, 2026-12-07: 2 more right
#: (seeds 163/167 and 173/179), none of the 5 360 lost.
BACKS_ROOM = (1.6, 2.6)
#: A tile stacked on a kong's middle tile lifts that tile's box above both others by this share of a tile's height,
#: or its box (the pair) is this much taller than the others. A box at an end of the three so tall is a loose box, not
#: the pair (a 碰 read as a kong: composed photos, 2026-12-06, 5 more of 4 600 right, none lost), unless it is also
#: `STACK_TWO_WIDE` times as wide as the others: two of the kong's tiles boxed as one.
STACK_SHIFT = 0.2
STACK_TALL = 1.2
STACK_TWO_WIDE = 1.5
#: … or the middle one of three standing tiles rises this share of a tile's height above the other two while
#: its bottom stays in line with theirs (within `STACK_BOTTOM`): the detector boxes the stacked pair as one box
#: from the top tile's top to the lower tile's bottom (composed tuning photos: stacked kongs 0.19–0.21, standing
#: pungs at most 0.16; 2026-12-05).
STACK_RISE = 0.18
STACK_BOTTOM = 0.08
#: … or its whole box lies this share of a tile higher: the detector boxed the tile on top alone (composed tuning
#: photos, 840: such stacked kongs rose 0.20–0.34; no 碰's middle tile rose more than 0.16, a tile merely set a
#: little higher about 0.1–0.2).
STACK_LIFTED = 0.24
#: … or it lies `STACK_DOUBT_LIFT` higher as a whole (its top and bottom's mean) while the detector's own boxes
#: disagree on its top by `STACK_DOUBT` of a tile (`Detection.top_doubt`: boxed now as the pair, now as the tile on
#: top). Composed tuning photos, 310 groups of three alike: 5 of the 13 stacked kongs no other rule saw, none of
#: the 278 碰 (2026-12-05).
STACK_DOUBT_LIFT = 0.1
STACK_DOUBT = 0.1
#: The outer two of three are measured together only when the lower box is at least this share as high as the other:
#: a claimed tile lying sideways boxed about square is lower and lies lower, and the middle tile rose against it.
UNLIKE_HEIGHT = 0.85
#: … or, just above the row, over the middle tile lies this much more tile face than over the others
#: (`Detection.face_above`, `vision.reader.stacked`): the tile on top, boxed with neither.
STACK_FACE = 0.5
#: … or the detector drew a box lifted over the middle tile scoring at least this (`Detection.box_above`): the tile on
#: top, boxed before NMS dropped it. Composed tuning photos, 2026-12-06: 78 % of the stacked kongs' lower middle tiles,
#: none of 1 739 three alike in a row (碰 and concealed; the most any scored was 0.042).
STACK_BOX = 0.05
#: Readings of one row's groups kept (`row_readings`: gaps and kongs set apart read both ways).
MAX_ROW_VARIANTS = 16
#: A box read face down among the concealed tiles may be the face the classifier gives at least this (`face_behind_back`;
#: 0.2 → 0.1: a blank 白板 read back 0.21 / 白 0.19 left a hand a tile short; tuning +2, none lost; 0.05 read alike).
BACK_FACE = 0.1
#: Readings decoded at most (cheapest first).
MAX_PLANS = 60
#: Readings of the other rows tried with each reading of the hand row.
MAX_OTHER_VARIANTS = 8


@dataclass(frozen=True)
class Unit:
    """Tiles that take one role together: a group, or two groups that may be one meld split by a gap."""

    tiles: tuple[Placed, ...]
    row: int
    merged: bool = False
    kind: str | None = None  # "stacked": a kong whose fourth tile lies on the middle one; "back_misread"; "end_back"
    weak: bool = False  # set apart from the tile before it by a weak gap only (`geometry.weak_splits`)

    @property
    def lone(self) -> bool:
        return len(self.tiles) == 1 and self.tiles[0].face_up

    @property
    def backs(self) -> int:
        return sum(not p.face_up for p in self.tiles)


@dataclass(frozen=True)
class Plan:
    """One reading of the roles: (unit, role) pairs and its cost."""

    units: tuple[tuple[Unit, str], ...]
    cost: float


@dataclass
class Decision:
    """The chosen reading: groups with roles and melds, the indicator, questions, and whether it is legal."""

    groups: list[Group]
    indicator: str | None
    questions: list[dict[str, str]]
    legal: bool
    changed: list[tuple[str, str]]
    cost: float = 0.0  # the reading's cost + the tiles changed (`legal.decode`)


# ----------------------------------------------------------------------------- units and plans


def choices(d: Detection) -> tuple[tuple[str, float], ...]:
    """The classifier's top choices for a box (its first is the box's tile), or its tile alone."""
    if d.alternatives and d.alternatives[0][0] == d.tile:
        return d.alternatives
    return ((d.tile, 1.0),)


def face_behind_back(d: Detection) -> bool:
    """A box read face down that the classifier also sees a face in (`BACK_FACE`): among the concealed tiles,
    where no tile lies face down, it may be that face (a blank 白板 passes for a back)."""
    return d.tile == BACK and any(c != BACK and p >= BACK_FACE for c, p in choices(d)[1:])


def _alike(a: Placed, b: Placed, floor: float = 0.0) -> bool:
    """Two tiles may be the same kind: equal first choices or a shared top choice (at least `floor` likely in both)."""
    ka = {c for c, p in choices(a.det) if p >= floor}
    kb = {c for c, p in choices(b.det) if p >= floor}
    return a.tile == b.tile or bool(ka & kb)


def row_units(groups: Sequence[Group], width: float) -> list[list[Unit]]:
    """The row's groups as units, in every way its kongs and melds split by a gap may be read (merged or not; a group
    left unmerged may still merge with the group after it: a sideways tile boxed narrow opens a gap on either side)."""

    @functools.cache
    def from_group(i: int) -> list[list[Unit]]:  # cached: both readings of a pair go on from the groups after it
        if i >= len(groups):
            return [[]]
        g = groups[i]
        unit = Unit(tuple(g.tiles), g.row)
        alone = (unit, *([replace(unit, kind=alt)] if (alt := _other_reading(g.tiles)) else []))
        nxt = groups[i + 1] if i + 1 < len(groups) else None
        if nxt is not None and backs_unseen_between(g.tiles, nxt.tiles, width):
            kong = Unit((*g.tiles, *nxt.tiles), g.row, merged=True, kind="backs_unseen")
            return [*[[kong, *rest] for rest in from_group(i + 2)],
                    *[[u, *rest] for rest in from_group(i + 1) for u in alone]]
        if nxt is not None and _split_meld(g.tiles, nxt.tiles, width):
            merged = Unit((*g.tiles, *nxt.tiles), g.row, merged=True)
            stacked = [replace(merged, kind=alt)] if (alt := _other_reading(merged.tiles)) else []  # a narrow stacked box opens a gap
            return [*[[m, *rest] for rest in from_group(i + 2) for m in (merged, *stacked)],
                    *[[u, *rest] for rest in from_group(i + 1) for u in alone]]
        return [[u, *rest] for rest in from_group(i + 1) for u in alone]

    return from_group(0)[:8]


def row_readings(row: Sequence[Placed], width: float, row_index: int = 0) -> list[list[Unit]]:
    """`row_units` of the row's groups, and of the groups it makes when also cut at one or both of its weak
    boundaries (`geometry.weak_splits`, and beside a sideways tile inside a group: `geometry.sideways_cuts`;
    a unit after such a cut is `weak`, and costs `weak_gap`). A group's first 3 or 4 tiles set clearly apart
    (`geometry.meld_left_splits`) are cut off first, as a wide gap would be."""
    groups = split_groups(row, width, row_index)
    hard = group_ends(groups)
    if cuts := meld_left_splits(row, width, hard):  # a meld a little apart at the left: cut off
        hard |= set(cuts)
        groups = split_at(row, sorted(hard), row_index)
    if cuts := concealed_kong_ends(row, hard):  # a 暗杠 laid touching the winning tile or the hand: cut off
        hard |= set(cuts)
        groups = split_at(row, sorted(hard), row_index)
    variants = row_units(groups, width)
    weak = sorted({*weak_splits(row, width, hard), *sideways_cuts(row, hard)})
    for n in range(1, len(weak) + 1):
        for cuts in itertools.combinations(weak, n):
            starts = {id(row[k + 1]) for k in cuts}
            for units in row_units(split_at(row, [*hard, *cuts], row_index), width):
                variants.append([replace(u, weak=True) if id(u.tiles[0]) in starts else u for u in units])
    return variants[:MAX_ROW_VARIANTS]


def concealed_kong_ends(row: Sequence[Placed], hard: set[int]) -> list[int]:
    """Boundaries other than the `hard` ones around the only four tiles of a longer group that make a 暗杠 with its
    two backs: no concealed tile lies face down, so a group holding a 暗杠 and more is the 暗杠 and tiles laid touching
    it (the winning tile, the hand, another meld; composed photos, 2026-12-07: a winning 七筒 laid against a 暗杠's back,
    1 more right, none of the 5 360 lost)."""
    cuts: list[int] = []
    for first, last in group_spans(len(row), hard):
        tiles = row[first : last + 1]
        backs = [k for k, p in enumerate(tiles) if not p.face_up]
        if len(tiles) <= 4 or len(backs) != 2:
            continue
        kongs = [k for k in range(max(0, backs[1] - 3), min(backs[0], len(tiles) - 4) + 1)
                 if (classify_meld(tiles[k : k + 4])[0] or {}).get("type") == "angang"]
        if len(kongs) == 1:
            k = first + kongs[0]
            cuts += [c for c in (k - 1, k + 3) if first <= c < last]
    return cuts


def _other_reading(tiles: Sequence[Placed]) -> str | None:
    """A group that may be read another way: of three, 'stacked' (three alike, one of them shifted across
    the row or taller: a kong's fourth tile lies on it) or 'back_misread' (one face-down box the
    classifier also sees a face in: a pung, not a kong with a tile missing); of four, 'end_back'
    (`end_read_as_face`)."""
    if len(tiles) == 4:
        return "end_back" if end_read_as_face(tiles) is not None else None
    if len(tiles) != 3:
        return None
    backs = [p for p in tiles if not p.face_up]
    if len(backs) == 1 and any(c != BACK for c, _ in backs[0].det.alternatives[1:]):
        return "back_misread"
    if backs or not all(_alike(tiles[0], p, MIN_ALTERNATIVE) for p in tiles[1:]):
        return None  # a kong of one tile: each shares a choice the decoding may take (not a 七八九萬 at 0.5 % each)
    across = sorted(p.across for p in tiles)
    a, b, c = sorted(tiles, key=lambda p: p.u)  # the fourth tile lies on the middle one: it rises above both others
    standing = not any(p.sideways for p in (a, b, c))  # a sideways tile lies lower, its bottom in line: not a stack
    shifted = standing and min(a.v, c.v) - b.v > STACK_SHIFT * across[1]
    tallest = max((a, b, c), key=lambda p: p.across)
    alongs = sorted(p.along for p in tiles)
    tall = (standing and across[-1] > STACK_TALL * across[1]  # a sideways tile lies low: no height to go by
            and (tallest is b or tallest.along >= STACK_TWO_WIDE * alongs[1]))
    alike = standing and a.tile == b.tile == c.tile  # read alike, not only may be
    seen_on_top = alike and (b.det.face_above >= STACK_FACE or b.det.box_above >= STACK_BOX)  # face, or a box, over it
    return "stacked" if shifted or tall or seen_on_top or (standing and _middle_rises(a, b, c)) else None


def end_read_as_face(tiles: Sequence[Placed]) -> Placed | None:
    """A 暗杠 whose far back was read as a face: four tiles, a back at one end, two alike faces in the middle and at
    the other end a face read as another tile, that the classifier also saw a back in (a light back passes for a blank
    白板). That end tile, else None."""
    row = sorted(tiles, key=lambda p: p.u)
    if len(row) != 4 or sum(not p.face_up for p in row) != 1 or not all(p.face_up for p in row[1:3]):
        return None
    if not _alike(row[1], row[2]):
        return None
    for back, end in ((row[0], row[3]), (row[3], row[0])):
        if (not back.face_up and end.face_up and end.tile != row[1].tile
                and any(c == BACK for c, _ in choices(end.det)[1:])):
            return end
    return None


def _end_read_back(u: Unit, role: str) -> Placed | None:
    """The tile a unit read 'end_back' as a meld takes for a back (`end_read_as_face`), else None."""
    return end_read_as_face(u.tiles) if u.kind == "end_back" and role == "meld" else None


def _middle_rises(a: Placed, b: Placed, c: Placed) -> bool:
    """The middle `b` of three standing tiles in row order reaches `STACK_RISE` higher than the outer two, its
    bottom in line with theirs (the stacked pair boxed as one), or lies `STACK_LIFTED` higher as a whole (the
    tile on top boxed alone), or `STACK_DOUBT_LIFT` higher where the detector doubts its top: a fourth tile lies on it.
    Outer two unlike in height (`UNLIKE_HEIGHT`) are no line to measure by: the taller alone is."""
    if min(a.across, c.across) < UNLIKE_HEIGHT * max(a.across, c.across):  # one lies sideways, boxed square: not a line
        a = c = a if a.across > c.across else c
    height = (a.across + c.across) / 2
    top = ((a.v - a.across / 2) + (c.v - c.across / 2)) / 2
    bottom = ((a.v + a.across / 2) + (c.v + c.across / 2)) / 2
    rise = top - (b.v - b.across / 2)
    lift = (rise + bottom - (b.v + b.across / 2)) / 2
    return (rise >= STACK_RISE * height and abs((b.v + b.across / 2) - bottom) <= STACK_BOTTOM * height
            or rise >= STACK_LIFTED * height
            or lift >= STACK_DOUBT_LIFT * height and b.det.top_doubt >= STACK_DOUBT)


def _split_meld(a: Sequence[Placed], b: Sequence[Placed], width: float) -> bool:
    """Two groups just beside each other that may be one meld split by a gap (or two): four alike (a kong whose
    fourth tile is set apart or lies sideways), three alike, with a sideways tile or making a 吃 (a
    碰/吃 whose claimed tile's gap measured wide: a claimed tile's box is not always wider than tall, or one of them
    barely named), four with backs that make a 暗杠 (a back boxed narrower than it lies opens a gap between the two
    backs), or six to eight that cut into two melds (two melds laid touching, a gap inside one of them)."""
    tiles = (*a, *b)
    if len(tiles) not in (3, 4, 6, 7, 8):
        return False
    gap = (b[0].u - b[0].along / 2) - (a[-1].u + a[-1].along / 2)
    if len(tiles) == 3 and not all(p.face_up for p in tiles) and gap <= KONG_BACK_ROOM * width:
        return (classify_meld(tiles)[0] or {}).get("type") == "angang"  # a 暗杠 a back short, parted where it lies
    if gap > KONG_APART * width:
        return False
    if len(tiles) > 4:  # two melds laid touching, parted by a gap inside one of them: cut as `_melds_cut` cuts
        return bool(partition_melds(tiles, need_sideways=False))
    if not all(p.face_up for p in tiles):  # a 暗杠 parted between its two backs or beside one
        return len(tiles) == 4 and (classify_meld(tiles)[0] or {}).get("type") == "angang"
    alike = all(_alike(tiles[0], p) for p in tiles[1:])
    return alike if len(tiles) == 4 else (alike or any(p.sideways for p in tiles) or classify_meld(tiles)[0] is not None
                                          or _meld_but_one_barely_named(tiles))


def backs_unseen_between(a: Sequence[Placed], b: Sequence[Placed], width: float) -> bool:
    """Two lone tiles read alike, standing `BACKS_ROOM` tile widths apart: a 暗杠 laid face, back, back, face whose two
    backs the detector missed (a flat-coloured back is boxed faintly or not at all); the count decides."""
    if len(a) != 1 or len(b) != 1 or not (a[0].standing_face and b[0].standing_face) or a[0].tile != b[0].tile:
        return False
    gap = (b[0].u - b[0].along / 2) - (a[0].u + a[0].along / 2)
    return BACKS_ROOM[0] * width <= gap <= BACKS_ROOM[1] * width


def _meld_but_one_barely_named(tiles: Sequence[Placed]) -> bool:
    """Three tiles, one of which the classifier barely names (`legal.ANY_BELOW`: the decoding may read it as any tile),
    that some tile in its place makes a 吃 or 碰 (a sideways 三條 boxed as two pieces, the one kept named 南 at 0.09)."""
    if len(tiles) != 3:
        return False
    barely = [k for k, p in enumerate(tiles) if choices(p.det)[0][1] < ANY_BELOW]
    if len(barely) != 1:
        return False
    k = barely[0]
    return any(classify_meld([*tiles[:k], replace(tiles[k], det=replace(tiles[k].det, tile=code)), *tiles[k + 1 :]])[0]
               is not None for code in CODES)


def _meld_type(u: Unit) -> str | None:
    """The meld a unit can be: 暗杠 (backs), 杠 (four, or three with one stacked), chi/peng (three faces), or None."""
    if u.kind == "stacked":
        return "gang3"
    if u.kind == "back_misread":
        return "three"
    if u.kind in ("end_back", "backs_unseen"):
        return "angang"
    if u.backs:
        return "angang" if len(u.tiles) in (3, 4) and u.backs < len(u.tiles) or len(u.tiles) == 4 else None
    return {3: "three", 4: "gang"}.get(len(u.tiles))


def plans(rows_units: Sequence[Sequence[list[Unit]]], hand_row: int | None, given: str | None) -> Iterator[Plan]:
    """Every reading of the rows' units whose tile count can add up, with its cost."""
    for r, variants in enumerate(rows_units):
        for units in variants:
            if sum(p.face_up for u in units for p in u.tiles) < 2:
                continue
            base = (0.0 if r == hand_row else COSTS["other_hand_row"]) + _variant_cost(units)
            other_rows = [vs for k, vs in enumerate(rows_units) if k != r]
            rests = [rest for others in itertools.islice(itertools.product(*other_rows), MAX_OTHER_VARIANTS)
                     if (rest := _other_rows(others)) is not None]
            for roles, cost in _hand_row_readings(units):
                in_row = _any_meld(roles)
                for other_roles, other_cost in rests:
                    apart = COSTS["melds_apart"] if in_row and _any_meld(other_roles) else 0.0
                    yield from _with_indicator([*roles, *other_roles], base + cost + other_cost + apart, given)


def _any_meld(roles: Sequence[tuple[Unit, str]]) -> bool:
    """Some of these units is read as a meld (`melds_apart`: melds laid in two places)."""
    return any(role == "meld" for _, role in roles)


def _variant_cost(units: Sequence[Unit]) -> float:
    """What a row's reading costs for setting aside what its tiles show: a stack read as three tiles."""
    return (sum(COSTS["stack_ignored"] for u in units if u.kind is None and _other_reading(u.tiles) == "stacked")
            + COSTS["weak_gap"] * sum(u.weak for u in units))


def _hand_row_readings(units: Sequence[Unit]) -> Iterator[tuple[list[tuple[Unit, str]], float]]:
    """Readings of the hand row: [melds | indicator] hand… [win] [melds] [indicator]."""
    m = len(units)
    stacks_inside = [_stacks_inside(u) for u in units]  # each unit once, not once for every span holding it
    apart = _gaps_after(units)
    for a in range(m):
        for b in range(a, m):
            span = units[a : b + 1]
            if any(not p.face_up and not face_behind_back(p.det) for u in span for p in u.tiles):
                continue
            if any(u.kind in ("stacked", "backs_unseen") for u in span):
                continue  # a kong's three with its fourth on top are no concealed tiles (read as three: `stack_ignored`);
                # nor two faces read as a kong whose backs were missed (read as two tiles, each is its own unit)
            cost = COSTS["hand_gap"] * (len(span) - 1) + COSTS["sideways_in_hand"] * sum(
                p.sideways for u in span for p in u.tiles)
            cost += COSTS["stack_ignored"] * sum(stacks_inside[a : b + 1])
            cost += COSTS["kong_apart"] * sum(u.merged for u in span)  # a merged unit in the hand is odd
            for w in (b + 1, None):
                if w is not None and (w >= m or not _may_win(units[w])):
                    continue
                after = units[(w if w is not None else b) + 1 :]
                before = units[:a]
                sides = _sides(before, after)
                if sides is None:
                    continue
                side_roles, side_cost = sides
                roles = [*side_roles, *((u, "hand") for u in span)]
                if w is not None:
                    roles.append((units[w], "win"))
                unclear = w is not None and apart[b] <= max(apart[a:b], default=float("-inf"))  # `_gaps_after`
                sideways = w is not None and any(p.sideways for p in units[w].tiles)  # a claimed tile cut off its meld
                yield roles, (cost + side_cost + (COSTS["no_win_apart"] if w is None else 0.0)
                              + COSTS["win_gap_unclear"] * unclear + COSTS["sideways_win"] * sideways)


def _may_win(u: Unit) -> bool:
    """A unit that may be the winning tile set apart: one tile face up, or one read face down that the classifier
    also sees a face in (`face_behind_back`: a blank 白板 set apart after the hand passes for a back; composed photos,
    2026-12-07: one more right, none lost)."""
    return u.lone or (len(u.tiles) == 1 and face_behind_back(u.tiles[0].det))


def _gaps_after(units: Sequence[Unit]) -> list[float]:
    """The gap after each unit of a row but the last. A reading whose winning tile is set apart by no wider a gap than
    one between the hand's units pays `win_gap_unclear` (as `win_gap_clear` asks about it): a lone 一筒 far left of the
    hand row was read into the hand, and the 七條 set apart at the right read as the indicator, the last 四條 of the
    hand, a quarter of a tile apart, as the winning tile (composed photos, 2026-12-06: 4 more of 4 600 right, 3 of them
    fresh draws never looked at; none lost)."""
    return [gaps([x.tiles[-1], y.tiles[0]])[0] for x, y in zip(units, units[1:])]


def _sides(before: Sequence[Unit], after: Sequence[Unit]) -> tuple[list[tuple[Unit, str]], float] | None:
    """Roles of the hand row's units left and right of the hand: melds, or a lone indicator at an end."""
    roles: list[tuple[Unit, str]] = []
    cost = 0.0
    for k, u in enumerate(before):
        if u.lone and k == 0:
            roles.append((u, "lone"))
            cost += COSTS["indicator_in_row"]
        elif (kind := _meld_type(u)) is not None:
            roles.append((u, "meld"))
            cost += COSTS["melds_left"] + _meld_cost(u, kind)
        elif (cut := _melds_cut(u)) is not None:
            roles += [(m, "meld") for m in cut]
            cost += COSTS["melds_left"] + sum(_meld_cost(m, _meld_type(m) or "three") for m in cut)
        else:
            return None
    left = len(roles)
    for k, u in enumerate(after):
        if u.lone and k == len(after) - 1:
            roles.append((u, "lone"))
            cost += COSTS["indicator_in_row"]
        elif (kind := _meld_type(u)) is not None:
            roles.append((u, "meld"))
            cost += _meld_cost(u, kind)
        elif (cut := _melds_cut(u)) is not None:
            roles += [(m, "meld") for m in cut]
            cost += sum(_meld_cost(m, _meld_type(m) or "three") for m in cut)
        else:
            return None
    if _any_meld(roles[:left]) and _any_meld(roles[left:]):
        cost += COSTS["melds_apart"]
    return roles, cost


def _melds_cut(u: Unit) -> list[Unit] | None:
    """A group of 5 or more tiles as the melds laid touching it cuts into, or None: beside the hand, or in a melds row.
    The cuts showing every sideways tile come first, then those ignoring them (a claimed meld's sideways tile is
    optional), each ranked by the 暗杠 it reads a tile short (`_kongs_short`): a 碰 laid without its sideways tile
    touching a 暗杠 is likelier than two 暗杠, one of three faces and a back, the other a tile short."""
    if len(u.tiles) < 5:
        return None
    tiles = list(u.tiles)
    strict = partition_melds(tiles)
    cuts = ([*strict, *(c for c in partition_melds(tiles, need_sideways=False) if c not in strict)]
            or partition_melds(tiles, by_choices=True))
    if not cuts:
        return None
    cuts.sort(key=lambda sizes: _kongs_short(tiles, sizes))  # a 暗杠 of four before one read a tile short (stable)
    out, start = [], 0
    for n in cuts[0]:
        part = u.tiles[start : start + n]
        out.append(Unit(part, u.row, kind="stacked" if _other_reading(part) == "stacked" else None))
        start += n
    return out


def _stacks_inside(u: Unit) -> int:
    """How many three alike side by side inside a group of four or more, touching the rest, look stacked
    (`_other_reading`): a kong's three with its fourth on top, laid against the hand. Read as concealed tiles, each
    costs `stack_ignored` (a group of three pays it in `_variant_cost`)."""
    if u.kind is not None or len(u.tiles) < 4:
        return 0
    return sum(_other_reading(u.tiles[k : k + 3]) == "stacked" for k in range(len(u.tiles) - 2))


def _kongs_short(tiles: Sequence[Placed], sizes: Sequence[int]) -> int:
    """How many parts of a cut are three tiles with a back: a 暗杠 read a tile short."""
    starts = list(itertools.accumulate([0, *sizes]))
    return sum(n == 3 and any(not p.face_up for p in tiles[a : a + n]) for a, n in zip(starts, sizes))


def _in_row_cost(u: Unit) -> float:
    """What `_meld_cost` asks of a meld for lying in the hand row with nothing to show it (`meld_in_hand_row`): no back,
    no tile lying sideways."""
    return 0.0 if u.backs or any(p.sideways for p in u.tiles) else COSTS["meld_in_hand_row"]


def _cut_cost(u: Unit) -> float:
    """A group cut into melds (`_melds_cut`) that was two groups merged across a gap: a meld split by it (`kong_apart`)."""
    return COSTS["kong_apart"] if u.merged else 0.0


def _meld_cost(u: Unit, kind: str) -> float:
    odd = COSTS["kong_apart"] * (u.merged or u.kind == "stacked")
    if kind == "angang" and len(u.tiles) == 3:
        odd += COSTS["kong_tile_missed"]
    if u.kind == "end_back":
        odd += COSTS["back_read_as_face"]
    if u.kind == "backs_unseen":
        odd += COSTS["backs_unseen"]
    return _in_row_cost(u) + odd


def _other_rows(rows: Sequence[Sequence[Unit]]) -> tuple[list[tuple[Unit, str]], float] | None:
    """Units of the other rows: melds (groups of 3–4, or longer ones cut into melds) or lone tiles."""
    roles: list[tuple[Unit, str]] = []
    cost = 0.0
    for units in rows:
        for u in units:
            if u.lone:
                roles.append((u, "lone"))
            elif (kind := _meld_type(u)) is not None:
                roles.append((u, "meld"))
                cost += _meld_cost(u, kind) - _in_row_cost(u)
            elif (cut := _melds_cut(u)) is not None:
                roles += [(m, "meld") for m in cut]
                cost += sum(_meld_cost(m, _meld_type(m) or "three") - _in_row_cost(m) for m in cut) + _cut_cost(u)
            else:
                return None
        cost += _variant_cost(units)
    return roles, cost


def _with_indicator(roles: list[tuple[Unit, str]], cost: float, given: str | None) -> Iterator[Plan]:
    """The plan once the one lone tile is the indicator (none when no tile lies alone; when the player gave
    another, the lone tiles are unexplained); with more lone tiles than that, no plan: a stray box is for
    the set-aside pass."""
    lone = [k for k, (_, role) in enumerate(roles) if role == "lone"]
    picks: list[int | None] = [*lone] or [None]
    if given is not None:
        picks = [None, *(k for k in lone if roles[k][0].tiles[0].tile == given)]
    if given is not None and picks == [None]:  # the player's indicator is not the lone tile: it is reported
        yield Plan(tuple((u, "unexplained" if role == "lone" else role) for u, role in roles), cost)
        return
    if len(lone) > 1:
        return  # a lone tile no role explains: a stray box, for the set-aside pass
    for pick in picks:  # a lone tile not taken as the indicator (the player gave it, another lies alone) is unexplained
        yield Plan(tuple((u, "indicator" if k == pick else "unexplained" if role == "lone" else role)
                         for k, (u, role) in enumerate(roles)), cost)


def _counts_add_up(plan: Plan) -> bool:
    melds = sum(1 for _, r in plan.units if r == "meld")
    winner = sum(len(u.tiles) for u, r in plan.units if r in ("hand", "win"))
    return winner == 14 - 3 * melds


def hypothesis(plan: Plan, given: str | None) -> tuple[Hypothesis, list[Placed]]:
    """The plan as the decoder's hypothesis (one slot per visible face) and the tile of each slot."""
    slots: list[Slot] = []
    placed: list[Placed] = []
    melds: list[str] = []
    hidden: list[int] = []
    for u, role in plan.units:
        if role == "unexplained":
            continue
        meld = None
        if role == "meld":
            meld = len(melds)
            melds.append(_meld_type(u) or "three")
            hidden.append(u.backs + (u.kind == "end_back") + 2 * (u.kind == "backs_unseen"))
        end = _end_read_back(u, role)
        for p in u.tiles:
            if p is end:
                continue
            if p.face_up or u.kind == "back_misread" or (role in ("hand", "win") and face_behind_back(p.det)):
                slots.append(Slot(role, choices(p.det), meld))
                placed.append(p)
    return Hypothesis(tuple(slots), tuple(melds), tuple(hidden), plan.cost, given), placed


# ----------------------------------------------------------------------------- the decision


def decide(rows_units: Sequence[Sequence[list[Unit]]], hand_row: int | None, given: str | None,
           options: Any = None) -> Decision | None:
    """The most probable legal reading of the photo, or None when no reading is legal."""
    found = sorted((p for p in plans(rows_units, hand_row, given) if _counts_add_up(p)), key=lambda p: p.cost)
    if not found:
        return None
    found = found[:MAX_PLANS]
    built = [hypothesis(p, given) for p in found]
    d = decode([h for h, _ in built], options)
    if not d.legal:
        return None
    return _decision(found[d.hypothesis], built[d.hypothesis][1], d, given)


def _decision(plan: Plan, placed: list[Placed], d: Decoded, given: str | None) -> Decision:
    """Groups with the plan's roles and the decoded codes, and a question for each changed tile."""
    code_of = {id(p): c for p, c in zip(placed, d.codes)}
    changed, questions = [], []
    groups: list[Group] = []
    indicator = given
    for u, role in plan.units:
        if (end := _end_read_back(u, role)) is not None:
            code_of[id(end)] = BACK
        tiles = [replace(p, det=replace(p.det, tile=code_of[id(p)])) if id(p) in code_of else p for p in u.tiles]
        for p, q in zip(u.tiles, tiles):
            if p.tile != q.tile:
                changed.append((p.tile, q.tile))
                questions.append(question(
                    "legal_fix", f"读成了{tile_zh(p.tile)}，按胡牌应是{tile_zh(q.tile)}？",
                    f"read as {p.tile}; only {q.tile} makes the hand a win: is it {q.tile}?"))
        g = Group(tiles, u.row, "unknown" if role == "unexplained" else role)
        if role == "meld":
            meld, qs, conf = kong_of_two_faces(tiles) if u.kind == "backs_unseen" else classify_meld(tiles)
            if u.kind == "stacked" and meld is not None:
                code = tiles[0].tile
                meld = {"type": "gang", "tiles": format_tiles(parse_tiles([code] * 4)), "claimed": code}
                qs = [question("kong_stacked", f"{tile_zh(code)}看到三张，其中一张上面叠着第四张：按明杠计，请核对",
                               f"three {code} with a fourth stacked on one: taken as a kong, please check")]
            g.meld, g.confidence = meld, conf
            questions += qs
        elif role == "indicator":
            g.confidence = tiles[0].det.conf
            indicator = given or tiles[0].tile
        elif role in ("hand", "win"):
            g.confidence = min(p.det.conf for p in tiles)
        groups.append(g)
    return Decision(groups, indicator, questions, True, changed, d.cost)


def win_gap_clear(groups: Sequence[Group]) -> bool:
    """The winning tile's gap is wider than every gap inside the hand (else it is asked about)."""
    hand = [g for g in groups if g.role == "hand"]
    win = [g for g in groups if g.role == "win"]
    if not win or not hand:
        return True
    inner = [x for g in hand for x in gaps(g.tiles)]
    w = win[0].tiles[0]
    last = max((p for g in hand for p in g.tiles), key=lambda p: p.u)
    return (w.u - w.along / 2) - (last.u + last.along / 2) > max(inner, default=0.0)


def not_a_win_question() -> dict[str, str]:
    """No reading of the photo within the classifier's top choices is a legal winning round."""
    return question("not_a_win", "按认出的牌凑不成胡牌（张数、牌型或某张牌超过4张），下面是原样的读法，请核对",
                    "no winning round fits the tiles as read (count, shape, or a tile more than 4 times); "
                    "the reading below is as seen: please check")
