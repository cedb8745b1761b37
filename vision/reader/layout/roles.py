"""Who each group is: the hand row, the winning tile, the melds, the indicator (翻精), and the 精 marks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.tiles import CODES, jing_of, parse_tiles, tile
from vision.reader.detection import Detection
from vision.reader.layout.geometry import BACK, Group, Placed, gaps, split_groups
from vision.reader.layout.melds import classify_meld, guess_meld, partition_melds
from vision.reader.layout.questions import question, run_zh, tile_zh

ROLES = ("hand", "win", "meld", "indicator", "unknown")


@dataclass(frozen=True, slots=True)
class TileRole:
    """One detection's part in the round: role, meld index (or None) and 精 mark."""

    det: Detection
    role: str
    meld: int | None = None
    mark: str | None = None


@dataclass
class RoleState:
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


def assign_hand_row(st: RoleState) -> None:
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
            st.questions.append(question("win_tile_check", f"胡的牌是最右边单独的 {tile_zh(plain[-1].codes[0])} 吗？手牌中间也有空隙",
                                         f"is the lone {plain[-1].codes[0]} at the right the winning tile? the hand has gaps too"))


def _gap_before(g: Group, row_groups: Sequence[Group]) -> float:
    """Gap between a group and the tile just before it in its row (0 for the first group)."""
    i = row_groups.index(g)
    if i == 0:
        return 0.0
    prev = row_groups[i - 1].tiles[-1]
    first = g.tiles[0]
    return (first.u - first.along / 2) - (prev.u + prev.along / 2)


def assign_melds(st: RoleState) -> None:
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


def _cut_long_group(st: RoleState, g: Group) -> None:
    """Touching melds: cut a long group when exactly one cut makes valid melds, else ask.

    Outside the hand row a group is all melds, so when no cut shows every sideways tile, a single cut
    that ignores them is taken too (the claimed tiles are then asked about)."""
    cuts = partition_melds(g.tiles)
    if not cuts and g.row != st.hand_row:
        cuts = partition_melds(g.tiles, need_sideways=False)
    if len(cuts) != 1:
        g.role, g.confidence = "unknown", 0.0
        st.questions.append(question(
            "touching_melds", f"这几副副露挨在一起分不开：{run_zh(g.codes)}，请在每副之间留空隙",
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


def assign_indicator(st: RoleState, given: str | None) -> str | None:
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
        names = "、".join(tile_zh(g.codes[0]) for g in lone)
        st.questions.append(question("indicator", f"有几张单独的牌（{names}），哪一张是翻精？",
                                     f"several lone tiles ({' '.join(g.codes[0] for g in lone)}): which is the indicator?"))
    return None


def _indicator_beside_hand(st: RoleState) -> Group | None:
    """A lone tile set apart at the LEFT of the hand row, when without it the count comes out right."""
    hand = [g for g in st.groups if g.row == st.hand_row and g.role in ("hand", "win")]
    if len(hand) < 3 or len(hand[0]) != 1 or hand[-1].role != "win" or not hand[0].tiles[0].face_up:
        return None
    n_melds = sum(1 for g in st.groups if g.role == "meld" and g.meld)
    n = sum(len(g) for g in hand) + 3 * n_melds
    return hand[0] if n == 15 else None


def report_leftovers(st: RoleState) -> None:
    """Lone tiles that got no role are named in one question (groups that are no meld were asked about)."""
    lone = [g for g in st.groups if g.role == "unknown" and len(g) == 1]
    if lone:
        codes = [c for g in lone for c in g.codes]
        st.questions.append(question("unexplained_tiles", f"这些单独的牌不知道是什么：{run_zh(codes)}（不算在手牌里）",
                                     f"these lone tiles have no role: {' '.join(codes)} (not counted in the hand)"))


def hand_codes(st: RoleState) -> list[str]:
    """Concealed tiles in reading order; a face-down tile in the hand is asked about, not kept."""
    codes = [c for g in st.groups if g.role == "hand" for c in g.codes]
    if BACK in codes:
        st.questions.append(question("hand_back", "手牌里有背面朝上的牌，请翻开", "a hand tile is face down; turn it up"))
    return [c for c in codes if c != BACK]


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
        kind = angang_kind(g)
        for p in g.tiles:
            code = kind if (p.tile == BACK and kind) else p.tile
            out.append(TileRole(p.det, g.role, k, jing_mark(code, indicator)))
    return out


def angang_kind(g: Group) -> str | None:
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
    return [kind for g in groups if (kind := angang_kind(g)) for _ in range(4 - len(g))]
