"""Photo detections → the winner's part of a round: rows, groups, hand, melds, winning tile, indicator, 精.

Pure Python + NumPy (never torch, ultralytics or `app`).  The steps, each a small function:

1. `estimate_angle` — the rows' direction: nearest-neighbour directions give a first guess, then a
   least-squares fit of the standing tiles' centres (one slope, one intercept per row) refines it;
2. `cluster_rows` — tiles go into rows by their offset perpendicular to that direction (a new row
   where the offset jumps by more than half a tile height); each row is ordered along the direction;
3. `split_groups` — a row splits where the gap between neighbours exceeds 0.3 median tile widths;
4. roles — the hand row is the row with the most standing face-up tiles; a lone tile set apart at
   its right end is the winning tile; other groups are melds (碰/吃/明杠/暗杠, a sideways tile is the
   claimed one) or, alone, the indicator (翻精);
5. checks — the tile count (14 with the winning tile), and a `question` for everything that could not
   be decided: nothing is guessed silently.

A photo shot turned 90° (most tiles wider than tall, rows running up and down; `turned_a_quarter`)
is read turned upright both ways, and the way whose layout adds up is kept (`_assign_turned`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from scoring.shapes.decompose import is_sequence
from scoring.tiles import CODES, format_tiles, jing_of, parse_tiles, tile
from vision.reader.detection import Detection

GAP_FRACTION = 0.3  # of the median tile width: a bigger gap always starts a new group
#: A gap this much wider than the row's usual gap between touching tiles also starts a group (detector
#: boxes run a little loose, eating into the half-tile gap before the winning tile), never below MIN_GAP.
GAP_OVER_USUAL = 0.15
MIN_GAP_FRACTION = 0.15
ROW_FRACTION = 0.5  # of the median tile height: a bigger perpendicular jump starts a new row
LOW_CONFIDENCE = 0.5
#: A group that is no meld as read has its least sure tile read again when that tile is below this.
REREAD_BELOW = 0.8  # the two-stage conf mixes box and class belief: a misread tile often scores 0.5-0.8
DOUBTFUL = 0.45  # a box below this confidence may be set aside when that makes the photo's counts add up (bench, step-2 detector: 0.3 → 0.45 settled-equal 96.5 → 97.5 %)
MAX_SET_ASIDE = 2
#: Questions that mean the layout does not add up (a box too many or a stray box).
TROUBLE = frozenset({"tile_count", "unexplained_tiles", "indicator", "not_a_meld"})
MAX_ANGLE = math.radians(40)
BACK = "back"
ROLES = ("hand", "win", "meld", "indicator", "unknown")

__all__ = ["Assignment", "Group", "Placed", "TileRole", "assign", "estimate_angle", "cluster_rows", "split_groups"]


# ----------------------------------------------------------------------------- data


@dataclass(frozen=True, slots=True)
class Placed:
    """A detection in the row frame: position along the row `u`, across it `v`, and its true extents."""

    det: Detection
    u: float
    v: float
    along: float
    across: float

    @property
    def tile(self) -> str:
        return self.det.tile

    @property
    def face_up(self) -> bool:
        return self.det.tile != BACK

    @property
    def sideways(self) -> bool:
        """Turned 90° (a claimed tile): longer along the row than across it."""
        return self.along > self.across

    @property
    def standing_face(self) -> bool:
        return self.face_up and not self.sideways


@dataclass
class Group:
    """Touching tiles of one row; `role` is hand, win, meld, indicator or unknown."""

    tiles: list[Placed]
    row: int
    role: str = "unknown"
    meld: dict[str, Any] | None = None
    confidence: float = 1.0

    @property
    def detections(self) -> list[Detection]:
        return [p.det for p in self.tiles]

    @property
    def codes(self) -> list[str]:
        return [p.tile for p in self.tiles]

    def __len__(self) -> int:
        return len(self.tiles)


@dataclass(frozen=True, slots=True)
class TileRole:
    """One detection's part in the round: role, meld index (or None) and 精 mark."""

    det: Detection
    role: str
    meld: int | None = None
    mark: str | None = None


@dataclass
class Assignment:
    """What the photo says about the winner: rows, groups, hand, melds, winning tile, indicator, 精, questions."""

    rows: list[list[Detection]] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    melds: list[dict[str, Any]] = field(default_factory=list)
    win_tile: str | None = None
    indicator: str | None = None
    tiles: list[TileRole] = field(default_factory=list)
    jing_count: dict[str, int] | None = None
    confidence: dict[str, float] = field(default_factory=dict)
    questions: list[dict[str, str]] = field(default_factory=list)
    angle_deg: float = 0.0
    set_aside: list[Detection] = field(default_factory=list)

    def winner_tiles(self) -> list[str]:
        """Concealed hand + winning tile (what the score page edits)."""
        return [*self.hand, *([self.win_tile] if self.win_tile else [])]

    def jing_marks(self) -> list[dict[str, Any]]:
        """Every tile with its role and 精 mark ('zheng', 'fu' or None), in reading order."""
        return [
            {"tile": t.det.tile, "role": t.role, "meld": t.meld, "mark": t.mark, "box": [round(v, 1) for v in t.det.box]}
            for t in self.tiles
        ]

    def to_round_part(self) -> dict[str, Any]:
        """The winner's part of a round document (round-format.md) plus the 精 marks and open questions."""
        return {
            "indicator": self.indicator,
            "hand": format_tiles(parse_tiles(self.hand)),
            "melds": [dict(m) for m in self.melds],
            "win": {"tile": self.win_tile},
            "jing_count": dict(self.jing_count) if self.jing_count is not None else None,
            "jing_marks": self.jing_marks(),
            "confidence": {k: round(v, 3) for k, v in self.confidence.items()},
            "questions": [dict(q) for q in self.questions],
            "set_aside": [{"tile": d.tile, "conf": round(d.conf, 3), "box": [round(v, 1) for v in d.box]}
                          for d in self.set_aside],
        }


def question(code: str, zh: str, en: str) -> dict[str, str]:
    """One thing the photo cannot decide, in Chinese and English."""
    return {"code": code, "zh": zh, "en": en}


def _zh(code: str) -> str:
    return tile(code).zh if code in CODES else "背面"


def _run_zh(codes: Sequence[str]) -> str:
    return "".join(_zh(c) for c in codes)


# ----------------------------------------------------------------------------- geometry


def _centres(dets: Sequence[Detection]) -> np.ndarray:
    return np.array([[d.cx, d.cy] for d in dets], dtype=np.float64).reshape(-1, 2)


def nearest_neighbours(dets: Sequence[Detection]) -> tuple[np.ndarray, np.ndarray]:
    """For each tile, the vector to its nearest neighbour's centre and that distance (needs ≥ 2 tiles)."""
    pts = _centres(dets)
    diff = pts[None, :, :] - pts[:, None, :]
    dist = np.hypot(diff[..., 0], diff[..., 1])
    np.fill_diagonal(dist, np.inf)
    nn = dist.argmin(axis=1)
    return pts[nn] - pts, dist[np.arange(len(pts)), nn]


def nearest_neighbour_angle(dets: Sequence[Detection]) -> float:
    """Median direction (radians, |θ| < 40°) from each tile to its nearest neighbour; 0 if none."""
    if len(dets) < 2:
        return 0.0
    vec, dist = nearest_neighbours(dets)
    vec[vec[:, 0] < 0] *= -1
    ang = np.arctan2(vec[:, 1], vec[:, 0])
    size = float(np.median([max(d.width, d.height) for d in dets]))
    keep = (np.abs(ang) < MAX_ANGLE) & (dist < 2.0 * size)
    return float(np.median(ang[keep])) if keep.any() else 0.0


def true_extents(det: Detection, angle: float) -> tuple[float, float]:
    """(along, across) of a tile whose axis-aligned box encloses it rotated by `angle`."""
    c, s = math.cos(abs(angle)), math.sin(abs(angle))
    den = c * c - s * s
    along = (det.width * c - det.height * s) / den
    across = (det.height * c - det.width * s) / den
    floor = 0.2 * min(det.width, det.height)
    return max(along, floor), max(across, floor)


def place(dets: Sequence[Detection], angle: float) -> list[Placed]:
    """Each detection in the frame of rows running at `angle`."""
    c, s = math.cos(angle), math.sin(angle)
    out = []
    for d in dets:
        along, across = true_extents(d, angle)
        out.append(Placed(d, d.cx * c + d.cy * s, -d.cx * s + d.cy * c, along, across))
    return out


def tile_size(placed: Sequence[Placed]) -> tuple[float, float]:
    """(median width, median height) of a standing tile, from every tile's short and long extents."""
    if not placed:
        return 1.0, 1.0
    short = float(np.median([min(p.along, p.across) for p in placed]))
    long = float(np.median([max(p.along, p.across) for p in placed]))
    return max(short, 1e-6), max(long, 1e-6)


def cluster_rows(placed: Sequence[Placed], height: float) -> list[list[Placed]]:
    """Rows by perpendicular offset (a jump > half a tile height starts a row), each ordered along the row."""
    order = sorted(placed, key=lambda p: p.v)
    rows: list[list[Placed]] = []
    for p in order:
        if rows and p.v - rows[-1][-1].v <= ROW_FRACTION * height:
            rows[-1].append(p)
        else:
            rows.append([p])
    return [sorted(r, key=lambda p: p.u) for r in rows]


def pooled_slope_angle(rows: Sequence[Sequence[Placed]]) -> float | None:
    """Least-squares direction of the rows: one slope, one intercept per row, standing tiles' centres."""
    num = den = 0.0
    for row in rows:
        pts = _centres([p.det for p in row if not p.sideways])
        if len(pts) < 3:
            continue
        dx = pts[:, 0] - pts[:, 0].mean()
        num += float((dx * (pts[:, 1] - pts[:, 1].mean())).sum())
        den += float((dx * dx).sum())
    if den <= 0:
        return None
    ang = math.atan(num / den)
    return ang if abs(ang) < MAX_ANGLE else None


def estimate_angle(dets: Sequence[Detection], iterations: int = 2) -> float:
    """The rows' direction (radians): nearest-neighbour guess, refined by least squares over the rows."""
    angle = nearest_neighbour_angle(dets)
    for _ in range(iterations):
        placed = place(dets, angle)
        refined = pooled_slope_angle(cluster_rows(placed, tile_size(placed)[1]))
        if refined is None:
            break
        angle = refined
    return angle


def gaps(row: Sequence[Placed]) -> list[float]:
    """Free space between consecutive tiles of an ordered row (negative = overlap)."""
    return [(b.u - b.along / 2) - (a.u + a.along / 2) for a, b in zip(row, row[1:])]


def split_groups(row: Sequence[Placed], width: float, row_index: int = 0) -> list[Group]:
    """Split an ordered row where a gap is wide for this row: over GAP_FRACTION of the tile width, or,
    between two standing tiles of a row of 5 or more, GAP_OVER_USUAL wider than the row's median gap
    (and over MIN_GAP_FRACTION). Gaps next to a sideways tile measure wide and keep the fixed rule."""
    if not row:
        return []
    row_gaps = gaps(row)
    fixed = GAP_FRACTION * width
    adaptive = fixed
    if len(row_gaps) >= 4:
        usual = float(np.median(row_gaps))
        adaptive = width * min(GAP_FRACTION, max(MIN_GAP_FRACTION, usual / width + GAP_OVER_USUAL))
    groups = [Group([row[0]], row_index)]
    for prev, p, gap in zip(row, row[1:], row_gaps):
        limit = fixed if (prev.sideways or p.sideways) else adaptive
        if gap > limit:
            groups.append(Group([p], row_index))
        else:
            groups[-1].tiles.append(p)
    return groups


# ----------------------------------------------------------------------------- melds


def _claimed(g: Sequence[Placed]) -> str | None:
    """The sideways tile of a meld: the most sideways-looking face when at least one looks sideways."""
    faces = [p for p in g if p.face_up]
    best = max(faces, key=lambda p: p.along / p.across, default=None)
    return best.tile if best is not None and best.sideways else None


def classify_meld(g: Sequence[Placed]) -> tuple[dict[str, Any] | None, list[dict[str, str]], float]:
    """A group as a declared meld {type, tiles, claimed}; (None, questions, 0) when it is none."""
    codes = [p.tile for p in g]
    faces = [c for c in codes if c != BACK]
    conf = min(p.det.conf for p in g)
    if BACK in codes:
        return _classify_concealed_kong(codes, faces, conf)
    kinds = set(faces)
    claimed = _claimed(g)
    if len(codes) == 4 and len(kinds) == 1:
        return {"type": "gang", "tiles": format_tiles(parse_tiles(faces)), "claimed": faces[0]}, [], conf
    if len(codes) == 3 and len(kinds) == 1:
        return {"type": "peng", "tiles": format_tiles(parse_tiles(faces)), "claimed": faces[0]}, [], conf
    if len(codes) == 3 and is_sequence([tile(c).index for c in codes]):
        meld = {"type": "chi", "tiles": format_tiles(parse_tiles(faces)), "claimed": claimed}
        if claimed is None:
            q = question("chi_claimed", f"吃 {_run_zh(codes)}：哪一张是吃来的牌？（请把吃来的牌横放）",
                         f"chi {''.join(codes)}: which tile was claimed? (turn the claimed tile sideways)")
            return meld, [q], conf * 0.8
        return meld, [], conf
    return None, [question("not_a_meld", f"这一组牌 {_run_zh(codes)} 不是吃、碰或杠，请检查",
                           f"the group {' '.join(codes)} is not a chi, peng or kong; please check")], 0.0


def guess_meld(
    g: Sequence[Placed],
) -> tuple[list[Placed], dict[str, Any], list[dict[str, str]], float] | None:
    """A group that is one misread tile away from a meld: the least sure tile (conf < REREAD_BELOW) re-read.

    Only when exactly one tile code makes the group a 碰, 杠 or 吃; the guess is asked about, never silent.
    """
    if len(g) not in (3, 4) or any(not p.face_up for p in g):
        return None
    order = sorted(range(len(g)), key=lambda i: g[i].det.conf)
    weakest = order[0]
    if g[weakest].det.conf >= REREAD_BELOW or g[weakest].det.conf == g[order[1]].det.conf:
        return None
    others = [p.tile for i, p in enumerate(g) if i != weakest]
    fits = [c for c in CODES if _is_meld_of([*others, c])]
    if len(fits) > 1:  # a chow is laid in order: keep the re-readings that keep the row in order
        fits = [c for c in fits if _in_order([c if i == weakest else p.tile for i, p in enumerate(g)])]
    if len(fits) != 1:
        return None
    old = g[weakest]
    fixed = replace(old, det=replace(old.det, tile=fits[0]))
    tiles = [fixed if i == weakest else p for i, p in enumerate(g)]
    meld, qs, conf = classify_meld(tiles)
    if meld is None:
        return None
    codes = [p.tile for p in tiles]
    q = question("meld_guess",
                 f"这一组里有一张认成了 {_zh(old.tile)}（不确定 {old.det.conf:.2f}），按 {_run_zh(codes)} 计，请核对",
                 f"one tile of this group read as {old.tile} ({old.det.conf:.2f}) is taken as {fits[0]}: "
                 f"{' '.join(codes)}; please check")
    return tiles, meld, [*qs, q], conf * 0.5


def _in_order(codes: list[str]) -> bool:
    """The tiles, as laid in the row, run up or down (how players lay out a chow)."""
    idx = [tile(c).index for c in codes]
    steps = [b - a for a, b in zip(idx, idx[1:])]
    return all(d > 0 for d in steps) or all(d < 0 for d in steps)


def _is_meld_of(codes: list[str]) -> bool:
    """Three identical, four identical, or a chow (suited or honour)."""
    if len(set(codes)) == 1:
        return True
    return len(codes) == 3 and is_sequence([tile(c).index for c in codes])


def _classify_concealed_kong(
    codes: list[str], faces: list[str], conf: float
) -> tuple[dict[str, Any] | None, list[dict[str, str]], float]:
    """A group with face-down tiles: a 暗杠 of 4 tiles whose visible faces agree."""
    if len(codes) == 3 and len(faces) == 2 and len(set(faces)) == 1:  # one of the four not found
        kind = faces[0]
        return {"type": "angang", "tiles": format_tiles(parse_tiles([kind] * 4))}, [question(
            "angang_missing", f"暗杠只认出三张（{_run_zh(codes)}），按 {_zh(kind)} 暗杠计，请核对",
            f"only three tiles of a concealed kong found ({' '.join(codes)}); taken as a concealed kong of {kind}")], conf * 0.6
    if len(codes) != 4 or len(set(faces)) > 1:
        return None, [question("not_a_meld", f"有背面朝上的一组牌 {_run_zh(codes)} 不是暗杠（4 张，露出的牌相同）",
                               f"the group with face-down tiles {' '.join(codes)} is not a concealed kong")], 0.0
    if not faces:
        return {"type": "angang", "tiles": None}, [question(
            "angang_tile", "暗杠四张都是背面：这是什么牌？（请翻开中间两张）",
            "a concealed kong shows four backs: which tile is it? (turn the middle two face up)")], conf * 0.5
    kind = faces[0]
    return {"type": "angang", "tiles": format_tiles(parse_tiles([kind] * 4))}, [], conf * (1.0 if len(faces) == 2 else 0.8)


def partition_melds(g: Sequence[Placed], need_sideways: bool = True) -> list[list[int]]:
    """All ways to cut a long group into consecutive valid melds of 3 or 4 tiles (cut sizes); with
    `need_sideways` each claimed meld must show its sideways tile."""
    out: list[list[int]] = []

    def walk(start: int, sizes: list[int]) -> None:
        if start == len(g):
            out.append(list(sizes))
            return
        for n in (3, 4):
            part = g[start : start + n]
            if len(part) == n and classify_meld(part)[0] is not None and (not need_sideways or _sideways_ok(part)):
                walk(start + n, [*sizes, n])

    walk(0, [])
    return out


def _sideways_ok(part: Sequence[Placed]) -> bool:
    """A claimed meld shows a sideways tile (a concealed kong shows backs instead): used to cut touching melds."""
    return any(not p.face_up for p in part) or any(p.sideways for p in part)


# ----------------------------------------------------------------------------- roles


@dataclass
class _State:
    """Work in progress of one `assign` call."""

    groups: list[Group]
    hand_row: int | None
    questions: list[dict[str, str]] = field(default_factory=list)
    confidence: dict[str, float] = field(default_factory=dict)


def pick_hand_row(rows: Sequence[Sequence[Placed]], width: float) -> int | None:
    """The row with the most face-up tiles outside melds (ties: the lower one in the photo).

    A group of 3–4 tiles that reads as a meld does not count even without a sideways tile, so an
    untidy melds row does not outvote a short hand (with four melds the hand is one tile + the win).
    """
    def hand_like(g: Group) -> bool:
        if _hand_row_meld(g) or (len(g) in (3, 4) and classify_meld(g.tiles)[0] is not None):
            return False
        # touching melds (6, 9, 12 tiles) whose sideways tiles did not show: a hand is never 3k tiles of melds
        return not (len(g) >= 6 and len(g) % 3 == 0 and bool(partition_melds(g.tiles, need_sideways=False)))

    counts = [sum(p.face_up for g in split_groups(r, width) if hand_like(g) for p in g.tiles) for r in rows]
    if not counts or max(counts) == 0:
        return None
    best = max(counts)
    return max(i for i, n in enumerate(counts) if n == best)


def _is_meld_like(g: Group) -> bool:
    return any(not p.face_up or p.sideways for p in g.tiles)


def _hand_row_meld(g: Group) -> bool:
    """A meld laid in the hand row: face-down or sideways tiles, and the group cuts into valid melds.

    A lone tile or a long run of hand tiles where one box merely looks sideways stays in the hand.
    """
    return len(g) >= 3 and _is_meld_like(g) and bool(partition_melds(g.tiles))


def assign_hand_row(st: _State) -> None:
    """Hand groups, the winning tile (a lone tile apart at the right end) and melds laid in the hand row."""
    row_groups = [g for g in st.groups if g.row == st.hand_row]
    plain = [g for g in row_groups if not _hand_row_meld(g)]
    for g in row_groups:
        g.role = "hand" if any(g is x for x in plain) else "meld"
    if len(plain) >= 2 and len(plain[-1]) == 1 and plain[-1].tiles[0].face_up:
        plain[-1].role = "win"
        gap = _gap_before(plain[-1], row_groups)
        between = plain[2:-1] if len(plain[0]) == 1 else plain[1:-1]  # a lone tile at the left may be the indicator
        inner = [x for g in plain[:-1] for x in gaps(g.tiles)] + [_gap_before(g, row_groups) for g in between]
        clear = gap > max(inner, default=0.0)
        plain[-1].confidence = plain[-1].tiles[0].det.conf * (1.0 if clear else 0.6)
        if not clear:
            st.questions.append(question("win_tile_check", f"胡的牌是最右边单独的 {_zh(plain[-1].codes[0])} 吗？手牌中间也有空隙",
                                         f"is the lone {plain[-1].codes[0]} at the right the winning tile? the hand has gaps too"))


def _gap_before(g: Group, row_groups: Sequence[Group]) -> float:
    """Gap between a group and the tile just before it in its row (0 for the first group)."""
    i = row_groups.index(g)
    if i == 0:
        return 0.0
    prev = row_groups[i - 1].tiles[-1]
    first = g.tiles[0]
    return (first.u - first.along / 2) - (prev.u + prev.along / 2)


def assign_melds(st: _State) -> None:
    """Meld groups (any row): 碰 吃 明杠 暗杠; long touching groups are cut into melds when unambiguous."""
    for g in list(st.groups):
        if g.role != "meld" and (g.row == st.hand_row or len(g) == 1):
            continue
        if len(g) >= 5:
            _cut_long_group(st, g)
            continue
        meld, qs, conf = classify_meld(g.tiles)
        if meld is None and (guess := guess_meld(g.tiles)) is not None:
            g.tiles, meld, qs, conf = guess
        st.questions += qs
        g.role, g.meld, g.confidence = ("meld", meld, conf) if meld else ("unknown", None, 0.0)


def _cut_long_group(st: _State, g: Group) -> None:
    """Touching melds: cut a long group when exactly one cut makes valid melds, else ask.

    Outside the hand row a group is all melds, so when no cut shows every sideways tile, a single cut
    that ignores them is taken too (the claimed tiles are then asked about)."""
    cuts = partition_melds(g.tiles)
    if not cuts and g.row != st.hand_row:
        cuts = partition_melds(g.tiles, need_sideways=False)
    if len(cuts) != 1:
        g.role, g.confidence = "unknown", 0.0
        st.questions.append(question(
            "touching_melds", f"这几副副露挨在一起分不开：{_run_zh(g.codes)}，请在每副之间留空隙",
            f"touching melds cannot be told apart: {' '.join(g.codes)}; leave a gap between melds"))
        return
    at = st.groups.index(g)
    parts, start = [], 0
    for n in cuts[0]:
        part = Group(g.tiles[start : start + n], g.row)
        meld, qs, conf = classify_meld(part.tiles)
        part.role, part.meld, part.confidence = "meld", meld, conf * 0.8
        st.questions += qs
        parts.append(part)
        start += n
    st.groups[at : at + 1] = parts


def assign_indicator(st: _State, given: str | None) -> str | None:
    """The indicator: the given code (its lone tile found if there), else the one lone tile outside the hand."""
    lone = [g for g in st.groups if g.role == "unknown" and len(g) == 1 and g.tiles[0].face_up and g.row != st.hand_row]
    if not lone and (beside := _indicator_beside_hand(st)) is not None and given in (None, beside.codes[0]):
        lone = [beside]
    if given is not None:
        match = [g for g in lone if g.codes[0] == given]
        if match:
            match[0].role = "indicator"
            match[0].confidence = 1.0
        st.confidence["indicator"] = 1.0
        return given
    if len(lone) == 1:
        lone[0].role = "indicator"
        lone[0].confidence = lone[0].tiles[0].det.conf
        st.confidence["indicator"] = lone[0].confidence
        return lone[0].codes[0]
    st.confidence["indicator"] = 0.0
    if not lone:
        st.questions.append(question("indicator", "没找到翻精的牌：哪一张是翻出来的精？（请把它单独放在手牌上方）",
                                     "no indicator found: which tile is the indicator? (put it alone above the hand)"))
    else:
        names = "、".join(_zh(g.codes[0]) for g in lone)
        st.questions.append(question("indicator", f"有几张单独的牌（{names}），哪一张是翻精？",
                                     f"several lone tiles ({' '.join(g.codes[0] for g in lone)}): which is the indicator?"))
    return None


def _indicator_beside_hand(st: _State) -> Group | None:
    """A lone tile set apart at the LEFT of the hand row, when without it the count comes out right."""
    hand = [g for g in st.groups if g.row == st.hand_row and g.role in ("hand", "win")]
    if len(hand) < 3 or len(hand[0]) != 1 or hand[-1].role != "win" or not hand[0].tiles[0].face_up:
        return None
    n_melds = sum(1 for g in st.groups if g.role == "meld" and g.meld)
    n = sum(len(g) for g in hand) + 3 * n_melds
    return hand[0] if n == 15 else None


def report_leftovers(st: _State) -> None:
    """Lone tiles that got no role are named in one question (groups that are no meld were asked about)."""
    lone = [g for g in st.groups if g.role == "unknown" and len(g) == 1]
    if lone:
        codes = [c for g in lone for c in g.codes]
        st.questions.append(question("unexplained_tiles", f"这些单独的牌不知道是什么：{_run_zh(codes)}（不算在手牌里）",
                                     f"these lone tiles have no role: {' '.join(codes)} (not counted in the hand)"))


def hand_codes(st: _State) -> list[str]:
    """Concealed tiles in reading order; a face-down tile in the hand is asked about, not kept."""
    codes = [c for g in st.groups if g.role == "hand" for c in g.codes]
    if BACK in codes:
        st.questions.append(question("hand_back", "手牌里有背面朝上的牌，请翻开", "a hand tile is face down; turn it up"))
    return [c for c in codes if c != BACK]


def count_check(hand: list[str], win: str | None, melds: list[dict[str, Any]]) -> dict[str, str] | None:
    """Hand + winning tile + 3 per meld must be 14 (13 or 14 when the winning tile is not set apart)."""
    n = len(hand) + (1 if win else 0) + 3 * len(melds)
    if n == 14 or (win is None and n == 13):
        return None
    miss = "可能漏拍或漏认了牌" if n < 14 else "可能多认了一张牌"
    miss_en = "a tile may be missed" if n < 14 else "a tile may be extra"
    return question(
        "tile_count",
        f"看到 {n} 张（手牌 {len(hand)} 张 + 胡的牌 {1 if win else 0} 张 + 副露 {len(melds)} 副×3），应为 14 张：{miss}",
        f"{n} tiles seen (hand {len(hand)} + win {1 if win else 0} + {len(melds)} melds × 3), 14 expected: {miss_en}",
    )


def win_question(hand: list[str]) -> dict[str, str]:
    """Ask for the winning tile (it was not set apart at the right end of the hand)."""
    if len(hand) % 3 == 2:
        return question("win_tile", "胡的是哪一张？请点选（或把胡的牌放在手牌最右边，隔开半张牌）",
                        "pick the winning tile (or set it apart at the right end of the hand, half a tile away)")
    return question("win_tile", "照片里没有单独放的胡牌：胡的是哪一张？", "no winning tile set apart: which tile won?")


def jing_mark(code: str, indicator: str | None) -> str | None:
    """'zheng', 'fu' or None for one tile once the indicator is known."""
    if indicator is None or code not in CODES:
        return None
    zheng, fu = jing_of(tile(indicator))
    return "zheng" if code == zheng.code else "fu" if code == fu.code else None


def tile_roles(groups: Sequence[Group], indicator: str | None) -> list[TileRole]:
    """Every detection with its role, meld index and 精 mark: hand, win, melds, indicator, the rest."""
    order = {"hand": 0, "win": 1, "meld": 2, "indicator": 3, "unknown": 4}
    out: list[TileRole] = []
    meld_index = {id(g): i for i, g in enumerate(g for g in groups if g.role == "meld" and g.meld)}
    for g in sorted(groups, key=lambda g: order[g.role]):
        k = meld_index.get(id(g))
        kind = _angang_kind(g)
        for p in g.tiles:
            code = kind if (p.tile == BACK and kind) else p.tile
            out.append(TileRole(p.det, g.role, k, jing_mark(code, indicator)))
    return out


def _angang_kind(g: Group) -> str | None:
    if g.meld and g.meld.get("type") == "angang" and g.meld.get("tiles"):
        return parse_tiles(g.meld["tiles"])[0].code
    return None


def count_winner_jing(
    tiles: Sequence[TileRole], unseen: Sequence[str] = (), indicator: str | None = None
) -> dict[str, int]:
    """正精 and 副精 among the winner's tiles (hand, winning tile, melds with known backs), plus the
    `unseen` tiles of kongs the photo showed only three of."""
    marks = Counter(t.mark for t in tiles if t.role in ("hand", "win", "meld"))
    marks.update(jing_mark(c, indicator) for c in unseen)
    return {"zheng": marks["zheng"], "fu": marks["fu"]}


def unseen_kong_tiles(groups: Sequence[Group]) -> list[str]:
    """The tiles of concealed kongs that the photo shows fewer than four of (one code per tile not seen)."""
    return [kind for g in groups if (kind := _angang_kind(g)) for _ in range(4 - len(g))]


def _tile_list(dets: Sequence[Detection]) -> tuple[str, str]:
    """The detections left to right as 'tile(conf)', in Chinese and English."""
    ordered = sorted(dets, key=lambda d: d.cx)
    return ("、".join(f"{_zh(d.tile)}({d.conf:.2f})" for d in ordered),
            ", ".join(f"{d.tile} ({d.conf:.2f})" for d in ordered))


def low_confidence_question(dets: Sequence[Detection]) -> dict[str, str] | None:
    """One question naming the tiles the detector is unsure of."""
    low = [d for d in dets if d.conf < LOW_CONFIDENCE]
    if not low:
        return None
    zh, en = _tile_list(low)
    return question("low_confidence", f"这几张牌认得不确定，请核对：{zh}", f"unsure tiles, please check: {en}")


# ----------------------------------------------------------------------------- entry point


def _normalise_indicator(indicator: str | None) -> str | None:
    """The code of a given indicator ('5p', '五筒', ...); unknown codes raise TileError."""
    return None if indicator in (None, "") else tile(str(indicator)).code


def _inside(d: Detection, image_size: tuple[int, int] | None) -> bool:
    """The box centre lies in the photo (always true when the size is not given)."""
    return image_size is None or (0 <= d.cx <= image_size[0] and 0 <= d.cy <= image_size[1])


def assign(
    detections: Sequence[Detection], image_size: tuple[int, int] | None = None, indicator: str | None = None
) -> Assignment:
    """Rows, groups and roles of a photo's detections; `indicator` (a tile code) overrides the photo's.

    When the layout does not add up (a tile too many, a stray box), the doubtful boxes (conf < DOUBTFUL)
    are set aside, least sure first, up to MAX_SET_ASIDE; the first layout that adds up is kept and the
    boxes set aside are named in a question, so the player can put one back.
    """
    given = _normalise_indicator(indicator)
    dets = [d for d in detections if d.width > 0 and d.height > 0 and _inside(d, image_size)]
    if not dets:
        return _empty(given)
    if turned_a_quarter(dets):
        return _assign_turned(dets, given)
    return _assign_tolerant(dets, given)


def _assign_tolerant(dets: list[Detection], given: str | None) -> Assignment:
    """The layout of `dets`, or, when it does not add up, of `dets` without up to MAX_SET_ASIDE doubtful boxes."""
    first = _assign_layout(dets, given)
    if not _troubled(first):
        return first
    doubtful = sorted((d for d in dets if d.conf < DOUBTFUL), key=lambda d: d.conf)
    for k in range(1, min(MAX_SET_ASIDE, len(doubtful)) + 1):
        aside = doubtful[:k]
        kept = [d for d in dets if all(d is not x for x in aside)]
        if not kept:
            break
        retry = _assign_layout(kept, given)
        if not _troubled(retry):
            retry.set_aside = aside
            retry.questions.append(set_aside_question(aside))
            return retry
    return first


def turned_a_quarter(dets: Sequence[Detection]) -> bool:
    """The photo was shot turned 90°: most tiles are wider than tall and each one's nearest neighbour
    lies above or below it (the rows run up and down)."""
    if len(dets) < 4 or 2 * sum(d.width > d.height for d in dets) <= len(dets):
        return False
    vec, _ = nearest_neighbours(dets)
    return 2 * int((np.abs(vec[:, 1]) > np.abs(vec[:, 0])).sum()) > len(dets)


def quarter_turn(d: Detection, clockwise: bool) -> Detection:
    """The detection in the photo turned upright by a quarter turn (clockwise: (x, y) → (−y, x))."""
    x1, y1, x2, y2 = d.box
    box = (-y2, x1, -y1, x2) if clockwise else (y1, -x2, y2, -x1)
    return Detection(box, d.tile, d.conf)


def _assign_turned(dets: list[Detection], given: str | None) -> Assignment:
    """A photo turned 90°: read it turned upright both ways and keep the way whose layout adds up
    (the winning tile set apart at the right end decides); when both read alike, ask."""
    readings = []
    for clockwise in (True, False):
        turned = [quarter_turn(d, clockwise) for d in dets]
        back = {t.box: d for t, d in zip(turned, dets)}
        a = _assign_tolerant(turned, given)
        merit = (not _troubled(a), a.win_tile is not None, -len(a.questions))
        readings.append((merit, _in_photo_frame(a, back)))
    (best_merit, best), (other_merit, _) = sorted(readings, key=lambda r: r[0], reverse=True)
    if best_merit == other_merit:
        best.questions.append(question(
            "turned", "照片是横着拍的，两个方向读起来一样好，请核对胡的那张牌是哪一张",
            "the photo is turned 90° and reads as well both ways; check which tile is the winning one"))
    return best


def _in_photo_frame(a: Assignment, back: dict[tuple[float, float, float, float], Detection]) -> Assignment:
    """The assignment of turned detections with every box put back as the photo has it (keeping a re-read tile)."""
    def orig(d: Detection) -> Detection:
        return replace(back[d.box], tile=d.tile) if d.box in back else d

    for g in a.groups:
        g.tiles = [replace(p, det=orig(p.det)) for p in g.tiles]
    a.rows = [[orig(d) for d in r] for r in a.rows]
    a.tiles = [replace(t, det=orig(t.det)) for t in a.tiles]
    a.set_aside = [orig(d) for d in a.set_aside]
    return a


def _troubled(a: Assignment) -> bool:
    """The layout does not add up: a count, stray-box, indicator or meld question."""
    return any(q["code"] in TROUBLE for q in a.questions)


def set_aside_question(aside: Sequence[Detection]) -> dict[str, str]:
    """Name the doubtful boxes left out so that the tile count adds up."""
    zh, en = _tile_list(aside)
    return question("set_aside", f"这几个框不太像牌，已略去（张数才对得上）；若是牌请补上：{zh}",
                    f"doubtful boxes left out so the tile count adds up; add back any that is a tile: {en}")


def _assign_layout(dets: list[Detection], given: str | None) -> Assignment:
    """One pass of rows → groups → roles over `dets`."""
    angle = estimate_angle(dets)
    placed = place(dets, angle)
    width, height = tile_size([p for p in placed if p.face_up] or placed)
    rows = cluster_rows(placed, height)
    groups = [g for i, r in enumerate(rows) for g in split_groups(r, width, i)]
    st = _State(groups, pick_hand_row(rows, width))
    st.confidence["rows"] = _row_confidence(rows, height)
    if st.hand_row is not None:
        assign_hand_row(st)
    assign_melds(st)
    ind = assign_indicator(st, given)
    return _finish(st, rows, ind, angle)


def _finish(st: _State, rows: list[list[Placed]], ind: str | None, angle: float) -> Assignment:
    """Collect roles into an Assignment and add the count, winning-tile and confidence questions."""
    report_leftovers(st)
    hand = hand_codes(st)
    win_groups = [g for g in st.groups if g.role == "win"]
    win = win_groups[0].codes[0] if win_groups else None
    melds = [g.meld for g in st.groups if g.role == "meld" and g.meld]
    if win is None and hand:
        st.questions.append(win_question(hand))
    if (q := count_check(hand, win, melds)) is not None:
        st.questions.append(q)
    all_dets = [p.det for r in rows for p in r]
    if (q := low_confidence_question(all_dets)) is not None:
        st.questions.append(q)
    roles = tile_roles(st.groups, ind)
    hand_dets = [p.det.conf for g in st.groups if g.role == "hand" for p in g.tiles]
    st.confidence["hand"] = min(hand_dets, default=0.0)
    st.confidence["win"] = win_groups[0].confidence if win_groups else 0.0
    for i, g in enumerate(g for g in st.groups if g.role == "meld" and g.meld):
        st.confidence[f"meld{i}"] = g.confidence
    return Assignment(
        rows=[[p.det for p in r] for r in rows], groups=st.groups, hand=hand, melds=melds, win_tile=win,
        indicator=ind, tiles=roles, jing_count=count_winner_jing(roles, unseen_kong_tiles(st.groups), ind) if ind else None,
        confidence=st.confidence, questions=st.questions, angle_deg=math.degrees(angle),
    )


def _row_confidence(rows: Sequence[Sequence[Placed]], height: float) -> float:
    """How cleanly the rows separate: the smallest jump between rows against the threshold."""
    if len(rows) < 2:
        return 1.0
    jumps = [min(p.v for p in b) - max(p.v for p in a) for a, b in zip(rows, rows[1:])]
    ratio = min(jumps) / (ROW_FRACTION * height)
    return float(min(1.0, max(0.0, ratio - 1.0)))


def _empty(given: str | None) -> Assignment:
    """No tiles at all: one question."""
    q = question("no_tiles", "照片里没有认出牌，请重拍（光线均匀，牌占满画面）",
                 "no tiles found in the photo; shoot again (even light, tiles filling the frame)")
    return Assignment(indicator=given, questions=[q])
