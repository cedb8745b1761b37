"""国标麻将 fan calculator: the best-scoring reading of a winning hand, with the 不计 rules.

The algorithm follows the MIT-licensed C++ "mahjong-algorithm" by Jeff Wang (the calculator
inside PyPI ``pymahjonggb``; see docs/other_systems.md and docs/licenses-othersys.md), rewritten in
Python so that the app needs no compiled extension.  Derived from mahjong-algorithm,
Copyright (c) 2016-2023 Jeff Wang, MIT licence (full notice in docs/licenses-othersys.md).

Steps:

1. special shapes when fully concealed: 七对/连七对, 全不靠/七星不靠, 十三幺, 组合龙 (also with
   one meld), 九莲宝灯;
2. otherwise (or for 七对) every split of the concealed tiles into sets + pair; each split is
   counted and the one with the most 番 is taken;
3. a split is counted group-wise (4/3/2 chows, 4/3/2 pungs, kongs and concealed pungs), then by
   win flags, pair, group traits, suits, tile traits, rank range, 四归一, waiting form, the 不计
   rules (:func:`final_adjust`) and last the seat/prevalent wind pungs.  Nothing counted → 无番和.

Tiles are coded here as in the C++ code so that the tie-breaking order is the same:
万 0x11–0x19, 条 0x21–0x29, 饼 0x31–0x39, 东南西北 0x41–0x44, 中 0x45, 发 0x46, 白 0x47.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.gb.fans import FANS, N_FANS, F

# ----------------------------------------------------------------------------- tiles

E, S, W, N, C, FA, P = 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47  # winds, 中 发 白
ALL_TILES: tuple[int, ...] = (
    *range(0x11, 0x1A), *range(0x21, 0x2A), *range(0x31, 0x3A), E, S, W, N, C, FA, P
)
THIRTEEN_ORPHANS_SET = frozenset({0x11, 0x19, 0x21, 0x29, 0x31, 0x39, E, S, W, N, C, FA, P})
HONORS = (E, S, W, N, C, FA, P)
GREEN = frozenset({0x22, 0x23, 0x24, 0x26, 0x28, FA})
REVERSIBLE = frozenset({0x22, 0x24, 0x25, 0x26, 0x28, 0x29, 0x31, 0x32, 0x33, 0x34, 0x35, 0x38, 0x39, P})
KNITTED_STRAIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted((s1 << 4) + r for s1, rs in zip((1, 2, 3), perm) for r in rs))
    for perm in (
        ((1, 4, 7), (2, 5, 8), (3, 6, 9)),
        ((1, 4, 7), (3, 6, 9), (2, 5, 8)),
        ((2, 5, 8), (1, 4, 7), (3, 6, 9)),
        ((2, 5, 8), (3, 6, 9), (1, 4, 7)),
        ((3, 6, 9), (1, 4, 7), (2, 5, 8)),
        ((3, 6, 9), (2, 5, 8), (1, 4, 7)),
    )
)


def suit(t: int) -> int:
    return t >> 4


def rank(t: int) -> int:
    return t & 0xF


def is_numbered(t: int) -> bool:
    return 1 <= suit(t) <= 3


def is_honor(t: int) -> bool:
    return 0x40 < t < 0x48


def is_winds(t: int) -> bool:
    return 0x40 < t < 0x45


def is_dragons(t: int) -> bool:
    return 0x44 < t < 0x48


def is_terminal(t: int) -> bool:
    return is_numbered(t) and rank(t) in (1, 9)


def is_terminal_or_honor(t: int) -> bool:
    return is_terminal(t) or is_honor(t)


# ----------------------------------------------------------------------------- packs

CHOW, PUNG, KONG, PAIR = 1, 2, 3, 4


@dataclass(frozen=True, order=True, slots=True)
class Pack:
    """A set of the hand: ``kind`` CHOW/PUNG/KONG/PAIR, ``tile`` (the middle one for a chow).

    ``melded`` = exposed (吃/碰/明杠); sorting follows the C++ pack code (offer, type, tile).
    """

    melded: bool
    kind: int
    tile: int


@dataclass(slots=True)
class Hand:
    """Calculator input: declared packs, concealed tiles (13 − 3·packs), winning tile, flags."""

    packs: tuple[Pack, ...]
    standing: tuple[int, ...]
    win_tile: int
    flowers: int = 0
    self_drawn: bool = False
    fourth_tile: bool = False  # 和绝张
    kong_involved: bool = False  # 杠上开花 (self-drawn) / 抢杠和 (discard)
    wall_last: bool = False  # 妙手回春 (self-drawn) / 海底捞月 (discard)
    seat_wind: int = 0  # 0..3 = 东南西北
    prevalent_wind: int = 0


class NotWinning(ValueError):
    """The tiles do not make a winning hand."""


Table = list[int]


def new_table() -> Table:
    return [0] * N_FANS


@dataclass(slots=True)
class Flags:
    self_drawn: bool
    last_tile: bool
    kong: bool
    wall_last: bool


@dataclass(slots=True)
class Ctx:
    hand: Hand
    flags: Flags
    fixed: dict[int, int] = field(default_factory=dict)
    standing: dict[int, int] = field(default_factory=dict)
    unique: list[int] = field(default_factory=list)


def _count(table: dict[int, int], t: int) -> int:
    return table.get(t, 0)


def fixed_table(packs: tuple[Pack, ...]) -> dict[int, int]:
    out: dict[int, int] = {}
    for p in packs:
        if p.kind == CHOW:
            for t in (p.tile - 1, p.tile, p.tile + 1):
                out[t] = out.get(t, 0) + 1
        else:
            out[p.tile] = out.get(p.tile, 0) + {PUNG: 3, KONG: 4, PAIR: 2}[p.kind]
    return out


# ----------------------------------------------------------------------------- splits


def _eigen(a: int, b: int, c: int) -> int:
    return a << 16 | b << 8 | c


def _divide(table: dict[int, int], need: int, prev: int, work: list[Pack], out: list[list[Pack]]) -> None:
    """All splits of ``table`` into ``need`` sets + a pair, in the C++ order (ascending eigen)."""
    if need == 0:
        left = [t for t in ALL_TILES if table.get(t, 0)]
        if len(left) == 1 and table[left[0]] == 2:
            out.append([*work, Pack(False, PAIR, left[0])])
        return
    for t in ALL_TILES:
        n = table.get(t, 0)
        if n < 1:
            continue
        if n > 2:
            e = _eigen(t, t, t)
            if e > prev:
                table[t] -= 3
                work.append(Pack(False, PUNG, t))
                _divide(table, need - 1, e, work, out)
                work.pop()
                table[t] += 3
        if is_numbered(t) and rank(t) < 8 and table.get(t + 1, 0) and table.get(t + 2, 0):
            e = _eigen(t, t + 1, t + 2)
            if e >= prev:
                for k in (t, t + 1, t + 2):
                    table[k] -= 1
                work.append(Pack(False, CHOW, t + 1))
                _divide(table, need - 1, e, work, out)
                work.pop()
                for k in (t, t + 1, t + 2):
                    table[k] += 1


def divisions(standing: dict[int, int], fixed: tuple[Pack, ...]) -> list[tuple[Pack, ...]]:
    """Distinct splits (fixed packs first, concealed sets sorted, pair last)."""
    if not any(n > 1 for n in standing.values()):
        return []
    raw: list[list[Pack]] = []
    _divide(dict(standing), 4 - len(fixed), 0, [], raw)
    out: list[tuple[Pack, ...]] = []
    seen: set[tuple[Pack, ...]] = set()
    for d in raw:
        sets = tuple(sorted(d[:-1]))
        key = (*sets, d[-1])
        if key not in seen:
            seen.add(key)
            out.append((*fixed, *key))
    return out


# ----------------------------------------------------------------------------- chow fans


def four_pure_shifted_chows(t0: int, t1: int, t2: int, t3: int) -> bool:
    """一色四步高: one suit, four chows each one or two higher than the last."""
    return (t0 + 2 == t1 and t1 + 2 == t2 and t2 + 2 == t3) or (t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3)


def quadruple_chow(t0: int, t1: int, t2: int, t3: int) -> bool:
    """一色四同顺: four identical chows."""
    return t0 == t1 == t2 == t3


def _shifted_1(r0: int, r1: int, r2: int) -> bool:
    return r0 + 1 == r1 and r1 + 1 == r2


def _shifted_1_unordered(r0: int, r1: int, r2: int) -> bool:
    return (
        _shifted_1(r1, r0, r2)
        or _shifted_1(r2, r0, r1)
        or _shifted_1(r0, r1, r2)
        or _shifted_1(r2, r1, r0)
        or _shifted_1(r0, r2, r1)
        or _shifted_1(r1, r2, r0)
    )


def _mixed(s0: int, s1: int, s2: int) -> bool:
    return s0 != s1 and s0 != s2 and s1 != s2


def mixed_shifted_chows(t0: int, t1: int, t2: int) -> bool:
    """三色三步高: three suits, chows one apart."""
    return _mixed(suit(t0), suit(t1), suit(t2)) and _shifted_1_unordered(rank(t1), rank(t0), rank(t2))


def mixed_triple_chow(t0: int, t1: int, t2: int) -> bool:
    """三色三同顺: the same chow in three suits."""
    return _mixed(suit(t0), suit(t1), suit(t2)) and rank(t0) == rank(t1) == rank(t2)


def mixed_straight(t0: int, t1: int, t2: int) -> bool:
    """花龙: 123, 456, 789 in three different suits."""
    return _mixed(suit(t0), suit(t1), suit(t2)) and sorted((rank(t0), rank(t1), rank(t2))) == [2, 5, 8]


def pure_straight(t0: int, t1: int, t2: int) -> bool:
    """清龙: 123 456 789 of one suit."""
    return t0 + 3 == t1 and t1 + 3 == t2


def pure_shifted_chows(t0: int, t1: int, t2: int) -> bool:
    """一色三步高: one suit, three chows each one or two higher."""
    return (t0 + 2 == t1 and t1 + 2 == t2) or (t0 + 1 == t1 and t1 + 1 == t2)


def pure_triple_chow(t0: int, t1: int, t2: int) -> bool:
    """一色三同顺: three identical chows."""
    return t0 == t1 == t2


def get_4_chows_fan(t0: int, t1: int, t2: int, t3: int) -> int | None:
    if four_pure_shifted_chows(t0, t1, t2, t3):
        return F.FOUR_PURE_SHIFTED_CHOWS
    if quadruple_chow(t0, t1, t2, t3):
        return F.QUADRUPLE_CHOW
    return None


def get_3_chows_fan(t0: int, t1: int, t2: int) -> int | None:
    if _mixed(suit(t0), suit(t1), suit(t2)):
        if mixed_shifted_chows(t0, t1, t2):
            return F.MIXED_SHIFTED_CHOWS
        if mixed_triple_chow(t0, t1, t2):
            return F.MIXED_TRIPLE_CHOW
        if mixed_straight(t0, t1, t2):
            return F.MIXED_STRAIGHT
        return None
    if pure_straight(t0, t1, t2):
        return F.PURE_STRAIGHT
    if pure_shifted_chows(t0, t1, t2):
        return F.PURE_SHIFTED_CHOWS
    if pure_triple_chow(t0, t1, t2):
        return F.PURE_TRIPLE_CHOW
    return None


def mixed_double_chow(t0: int, t1: int) -> bool:
    """喜相逢: the same chow in two suits."""
    return suit(t0) != suit(t1) and rank(t0) == rank(t1)


def short_straight(t0: int, t1: int) -> bool:
    """连六: two chows of one suit making six in a row."""
    return t0 + 3 == t1 or t1 + 3 == t0


def two_terminal_chows(t0: int, t1: int) -> bool:
    """老少副: 123 and 789 of one suit."""
    return suit(t0) == suit(t1) and sorted((rank(t0), rank(t1))) == [2, 8]


def pure_double_chow(t0: int, t1: int) -> bool:
    """一般高: two identical chows."""
    return t0 == t1


def get_2_chows_fan(t0: int, t1: int) -> int | None:
    if suit(t0) != suit(t1):
        return F.MIXED_DOUBLE_CHOW if mixed_double_chow(t0, t1) else None
    if short_straight(t0, t1):
        return F.SHORT_STRAIGHT
    if two_terminal_chows(t0, t1):
        return F.TWO_TERMINAL_CHOWS
    if pure_double_chow(t0, t1):
        return F.PURE_DOUBLE_CHOW
    return None


# ----------------------------------------------------------------------------- pung fans


def four_pure_shifted_pungs(t0: int, t1: int, t2: int, t3: int) -> bool:
    """一色四节高: four pungs of one suit, each one higher."""
    return is_numbered(t0) and t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3


def big_four_winds(t0: int, t1: int, t2: int, t3: int) -> bool:
    """大四喜: pungs of all four winds."""
    return (t0, t1, t2, t3) == (E, S, W, N)


def get_4_pungs_fan(t0: int, t1: int, t2: int, t3: int) -> int | None:
    if four_pure_shifted_pungs(t0, t1, t2, t3):
        return F.FOUR_PURE_SHIFTED_PUNGS
    if big_four_winds(t0, t1, t2, t3):
        return F.BIG_FOUR_WINDS
    return None


def mixed_shifted_pungs(t0: int, t1: int, t2: int) -> bool:
    """三色三节高: pungs in three suits, one apart."""
    return _mixed(suit(t0), suit(t1), suit(t2)) and _shifted_1_unordered(rank(t1), rank(t0), rank(t2))


def triple_pung(t0: int, t1: int, t2: int) -> bool:
    """三同刻: pungs of the same number in three suits."""
    return _mixed(suit(t0), suit(t1), suit(t2)) and rank(t0) == rank(t1) == rank(t2)


def pure_shifted_pungs(t0: int, t1: int, t2: int) -> bool:
    """一色三节高: three pungs of one suit, each one higher."""
    return t0 + 1 == t1 and t1 + 1 == t2


def big_three_winds(t0: int, t1: int, t2: int) -> bool:
    """三风刻: pungs of three winds."""
    return all(is_winds(t) for t in (t0, t1, t2)) and len({t0, t1, t2}) == 3


def big_three_dragons(t0: int, t1: int, t2: int) -> bool:
    """大三元: pungs of 中 发 白."""
    return (t0, t1, t2) == (C, FA, P)


def get_3_pungs_fan(t0: int, t1: int, t2: int) -> int | None:
    if is_numbered(t0) and is_numbered(t1) and is_numbered(t2):
        if _mixed(suit(t0), suit(t1), suit(t2)):
            if mixed_shifted_pungs(t0, t1, t2):
                return F.MIXED_SHIFTED_PUNGS
            if triple_pung(t0, t1, t2):
                return F.TRIPLE_PUNG
        elif pure_shifted_pungs(t0, t1, t2):
            return F.PURE_SHIFTED_PUNGS
        return None
    if big_three_winds(t0, t1, t2):
        return F.BIG_THREE_WINDS
    if big_three_dragons(t0, t1, t2):
        return F.BIG_THREE_DRAGONS
    return None


def double_pung(t0: int, t1: int) -> bool:
    """双同刻: two pungs of the same number in two suits."""
    return is_numbered(t0) and is_numbered(t1) and rank(t0) == rank(t1)


def two_dragons_pungs(t0: int, t1: int) -> bool:
    """双箭刻: two dragon pungs."""
    return is_dragons(t0) and is_dragons(t1)


def get_2_pungs_fan(t0: int, t1: int) -> int | None:
    if is_numbered(t0) and is_numbered(t1):
        return F.DOUBLE_PUNG if double_pung(t0, t1) else None
    return F.TWO_DRAGONS_PUNGS if two_dragons_pungs(t0, t1) else None


def get_1_pung_fan(t: int) -> int | None:
    """箭刻 (a dragon pung) or 幺九刻 (a pung of terminals or winds)."""
    if is_dragons(t):
        return F.DRAGON_PUNG
    if is_terminal(t) or is_winds(t):
        return F.PUNG_OF_TERMINALS_OR_HONORS
    return None


# ----------------------------------------------------------------------------- group counting

_PAIR_FANS = (F.PURE_DOUBLE_CHOW, F.MIXED_DOUBLE_CHOW, F.SHORT_STRAIGHT, F.TWO_TERMINAL_CHOWS)


def get_1_chow_extra_fan(t0: int, t1: int, t2: int, extra: int) -> int | None:
    """The one 2-chow fan the fourth chow may still add to a 3-chow fan (套算一次)."""
    got = {get_2_chows_fan(t0, extra), get_2_chows_fan(t1, extra), get_2_chows_fan(t2, extra)}
    return next((f for f in _PAIR_FANS if f in got), None)


def exclusionary_rule(all_fans: list[int | None], max_cnt: int, table: Table) -> None:
    """不得相同 / 套算一次: keep at most ``max_cnt`` 2-chow fans, cutting repeats from 老少副 up."""
    counts = [0, 0, 0, 0]
    cnt = 0
    for f in all_fans:
        if f is not None:
            cnt += 1
            counts[_PAIR_FANS.index(f)] += 1
    limit = 1
    while cnt > max_cnt and limit >= 0:
        idx = 4
        while cnt > max_cnt and idx > 0:
            idx -= 1
            while counts[idx] > limit and cnt > max_cnt:
                counts[idx] -= 1
                cnt -= 1
        limit -= 1
    for f, n in zip(_PAIR_FANS, counts):
        table[f] = n


def _calculate_3_of_4_chows(t0: int, t1: int, t2: int, extra: int, table: Table) -> bool:
    fan = get_3_chows_fan(t0, t1, t2)
    if fan is None:
        return False
    table[fan] = 1
    fan = get_1_chow_extra_fan(t0, t1, t2, extra)
    if fan is not None:
        table[fan] = 1
    return True


def calculate_4_chows(m: list[int], table: Table) -> None:
    fan = get_4_chows_fan(*m)
    if fan is not None:
        table[fan] = 1
        return
    if (
        _calculate_3_of_4_chows(m[0], m[1], m[2], m[3], table)
        or _calculate_3_of_4_chows(m[0], m[1], m[3], m[2], table)
        or _calculate_3_of_4_chows(m[0], m[2], m[3], m[1], table)
        or _calculate_3_of_4_chows(m[1], m[2], m[3], m[0], table)
    ):
        return
    a = [
        get_2_chows_fan(m[0], m[1]),
        get_2_chows_fan(m[0], m[2]),
        get_2_chows_fan(m[0], m[3]),
        get_2_chows_fan(m[1], m[2]),
        get_2_chows_fan(m[1], m[3]),
        get_2_chows_fan(m[2], m[3]),
    ]
    max_cnt = 3
    for i0, i1, i2 in ((0, 1, 2), (0, 3, 4), (1, 3, 5), (2, 4, 5)):
        if a[i0] is None and a[i1] is None and a[i2] is None:
            max_cnt -= 1
    if max_cnt > 0:
        exclusionary_rule(a, max_cnt, table)


def calculate_3_chows(m: list[int], table: Table) -> None:
    fan = get_3_chows_fan(*m)
    if fan is not None:
        table[fan] = 1
        return
    exclusionary_rule([get_2_chows_fan(m[0], m[1]), get_2_chows_fan(m[0], m[2]), get_2_chows_fan(m[1], m[2])], 2, table)


def calculate_kongs(concealed_pungs: int, melded_kongs: int, concealed_kongs: int, table: Table) -> None:
    """四杠/三杠/双暗杠/双明杠/明暗杠/暗杠/明杠 and 四暗刻/三暗刻/双暗刻 (a concealed kong is a concealed pung)."""
    kongs = melded_kongs + concealed_kongs
    concealed = concealed_pungs + concealed_kongs
    if kongs == 0:
        pass
    elif kongs == 1:
        table[F.MELDED_KONG if melded_kongs else F.CONCEALED_KONG] = 1
    elif kongs == 2:
        table[{0: F.TWO_MELDED_KONGS, 1: F.CONCEALED_KONG_AND_MELDED_KONG, 2: F.TWO_CONCEALED_KONGS}[concealed_kongs]] = 1
    elif kongs == 3:
        table[F.THREE_KONGS] = 1
    else:
        table[F.FOUR_KONGS] = 1
    if concealed_kongs == 2 and kongs == 2 and concealed_pungs == 0:
        return  # 双暗杠 already holds its 双暗刻
    if concealed >= 2:
        table[{2: F.TWO_CONCEALED_PUNGS, 3: F.THREE_CONCEALED_PUNGS, 4: F.FOUR_CONCEALED_PUNGS}[min(concealed, 4)]] = 1


def calculate_4_pungs(m: list[int], table: Table) -> None:
    fan = get_4_pungs_fan(*m)
    if fan is not None:
        table[fan] = 1
        return
    free = -1
    for idx, (a, b, c) in zip((3, 2, 1, 0), ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))):
        fan = get_3_pungs_fan(m[a], m[b], m[c])
        if fan is not None:
            table[fan] = 1
            free = idx
            break
    if free >= 0:
        for i in range(4):
            if i == free:
                continue
            fan = get_2_pungs_fan(m[i], m[free])
            if fan is not None:
                table[fan] += 1
                break
        return
    for i in range(4):
        for j in range(i + 1, 4):
            fan = get_2_pungs_fan(m[i], m[j])
            if fan is not None:
                table[fan] += 1


def calculate_3_pungs(m: list[int], table: Table) -> None:
    fan = get_3_pungs_fan(*m)
    if fan is not None:
        table[fan] = 1
        return
    for i, j in ((0, 1), (0, 2), (1, 2)):
        fan = get_2_pungs_fan(m[i], m[j])
        if fan is not None:
            table[fan] += 1


def pure_terminal_chows(chows: list[Pack], pair: Pack) -> bool:
    """一色双龙会: two 123 and two 789 of one suit with the 5 of that suit as the pair."""
    if rank(pair.tile) != 5 or any(suit(c.tile) != suit(pair.tile) for c in chows):
        return False
    ranks = sorted(rank(c.tile) for c in chows)
    return ranks == [2, 2, 8, 8]


def three_suited_terminal_chows(chows: list[Pack], pair: Pack) -> bool:
    """三色双龙会: 123 and 789 in two suits, the 5 of the third suit as the pair."""
    if rank(pair.tile) != 5 or not is_numbered(pair.tile):
        return False
    if any(suit(c.tile) == suit(pair.tile) or rank(c.tile) not in (2, 8) for c in chows):
        return False
    others = [s for s in (1, 2, 3) if s != suit(pair.tile)]
    have = {(suit(c.tile), rank(c.tile)) for c in chows}
    return all((s, r) in have for s in others for r in (2, 8))


# ----------------------------------------------------------------------------- waits


def _seven_pairs_waiting(table: dict[int, int], waiting: set[int]) -> None:
    pairs = 0
    for t in ALL_TILES:
        n = table.get(t, 0)
        if n in (2, 3):
            pairs += 1
        elif n == 4:
            pairs += 2
    if pairs == 6:
        for t in ALL_TILES:
            if table.get(t, 0) in (1, 3):
                waiting.add(t)
                break


def _pack_waiting(table: dict[int, int], waiting: set[int]) -> None:
    for t in ALL_TILES:
        n = table.get(t, 0)
        if n < 1:
            continue
        if n > 1:
            waiting.add(t)
            return
        if is_numbered(t):
            r = rank(t)
            if r > 1 and table.get(t - 1, 0):
                if r < 9:
                    waiting.add(t + 1)
                if r > 2:
                    waiting.add(t - 2)
                return
            if r > 2 and table.get(t - 2, 0):
                waiting.add(t - 1)
                return


def _regular_waiting(table: dict[int, int], cnt: int, prev: int, waiting: set[int]) -> None:
    if cnt == 1:
        for t in ALL_TILES:
            if table.get(t, 0) == 1:
                waiting.add(t)
                break
        return
    if cnt == 4:
        for t in ALL_TILES:
            if table.get(t, 0) < 2:
                continue
            table[t] -= 2
            _pack_waiting(table, waiting)
            table[t] += 2
    for t in ALL_TILES:
        n = table.get(t, 0)
        if n < 1:
            continue
        if n > 2:
            e = _eigen(t, t, t)
            if e > prev:
                table[t] -= 3
                _regular_waiting(table, cnt - 3, e, waiting)
                table[t] += 3
        if is_numbered(t) and rank(t) < 8 and table.get(t + 1, 0) and table.get(t + 2, 0):
            e = _eigen(t, t + 1, t + 2)
            if e >= prev:
                for k in (t, t + 1, t + 2):
                    table[k] -= 1
                _regular_waiting(table, cnt - 3, e, waiting)
                for k in (t, t + 1, t + 2):
                    table[k] += 1


def is_unique_waiting(standing: dict[int, int], cnt: int, win_tile: int) -> bool:
    """独听: the hand before the winning tile waits on exactly one kind."""
    table = dict(standing)
    table[win_tile] -= 1
    waiting: set[int] = set()
    if cnt == 13:
        _seven_pairs_waiting(table, waiting)
    _regular_waiting(table, cnt, 0, waiting)
    return len(waiting) == 1


# ----------------------------------------------------------------------------- adjustments


def adjust_by_self_drawn(packs: tuple[Pack, ...], fixed_cnt: int, self_drawn: bool, table: Table) -> None:
    """不求人 / 门前清 (no exposed meld), 全求人 (four exposed melds, won on a discard), 自摸."""
    melded = sum(1 for p in packs[:fixed_cnt] if p.melded)
    if melded == 0:
        table[F.FULLY_CONCEALED_HAND if self_drawn else F.CONCEALED_HAND] = 1
    elif melded == 4:
        table[F.SELF_DRAWN if self_drawn else F.MELDED_HAND] = 1
    elif self_drawn:
        table[F.SELF_DRAWN] = 1


def adjust_by_pair_tile(pair_tile: int, chow_cnt: int, table: Table) -> None:
    """平和 (four chows, a suit pair); 双箭刻 + dragon pair → 小三元; 三风刻 + wind pair → 小四喜."""
    if chow_cnt == 4:
        if is_numbered(pair_tile):
            table[F.ALL_CHOWS] = 1
        return
    if table[F.TWO_DRAGONS_PUNGS]:
        if is_dragons(pair_tile):
            table[F.LITTLE_THREE_DRAGONS] = 1
            table[F.TWO_DRAGONS_PUNGS] = 0
        return
    if table[F.BIG_THREE_WINDS] and is_winds(pair_tile):
        table[F.LITTLE_FOUR_WINDS] = 1
        table[F.BIG_THREE_WINDS] = 0


def adjust_by_suits(tiles: list[int], table: Table) -> None:
    """无字, 缺一门, 混一色, 清一色, 五门齐 from the suits present."""
    suits = {suit(t) for t in tiles}
    if 4 not in suits:
        table[F.NO_HONORS] = 1
    voided = sum(1 for s in (1, 2, 3) if s not in suits)
    table[F.ONE_VOIDED_SUIT] += voided
    if table[F.ONE_VOIDED_SUIT] == 2:
        table[F.ONE_VOIDED_SUIT] = 0
        if table[F.NO_HONORS] == 0:
            table[F.HALF_FLUSH] = 1
        else:
            table[F.FULL_FLUSH] = 1
            table[F.NO_HONORS] = 0
    if suits == {1, 2, 3, 4} and any(is_winds(t) for t in tiles) and any(is_dragons(t) for t in tiles):
        table[F.ALL_TYPES] = 1


def adjust_by_rank_range(tiles: list[int], table: Table) -> None:
    """全小/小于五, 全大/大于五, 全中 from the numbers present (suits only)."""
    if any(not is_numbered(t) for t in tiles):
        return
    ranks = {rank(t) for t in tiles}
    if ranks <= {1, 2, 3, 4}:
        table[F.LOWER_FOUR if 4 in ranks else F.LOWER_TILES] = 1
    elif ranks <= {6, 7, 8, 9}:
        table[F.UPPER_FOUR if 6 in ranks else F.UPPER_TILES] = 1
    elif ranks <= {4, 5, 6}:
        table[F.MIDDLE_TILES] = 1


def adjust_by_packs_traits(packs: tuple[Pack, ...], table: Table) -> None:
    """全带幺 (every set and the pair hold a terminal or honor), 全带五, 全双刻."""
    terminal = honor = five = even = 0
    for p in packs:
        if is_numbered(p.tile):
            r = rank(p.tile)
            if p.kind == CHOW:
                if r in (2, 8):
                    terminal += 1
                elif r in (4, 5, 6):
                    five += 1
            elif r in (1, 9):
                terminal += 1
            elif r == 5:
                five += 1
            elif r in (2, 4, 6, 8):
                even += 1
        else:
            honor += 1
    if terminal + honor == 5:
        table[F.OUTSIDE_HAND] = 1
    elif five == 5:
        table[F.ALL_FIVE] = 1
    elif even == 5:
        table[F.ALL_EVEN_PUNGS] = 1


def adjust_by_tiles_traits(tiles: list[int], table: Table) -> None:
    """断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九 from the kinds present."""
    if not any(is_terminal_or_honor(t) for t in tiles):
        table[F.ALL_SIMPLES] = 1
    if all(t in REVERSIBLE for t in tiles):
        table[F.REVERSIBLE_TILES] = 1
    if all(t in GREEN for t in tiles):
        table[F.ALL_GREEN] = 1
    if table[F.ALL_SIMPLES]:
        return
    if all(is_honor(t) for t in tiles):
        table[F.ALL_HONORS] = 1
    elif all(is_terminal(t) for t in tiles):
        table[F.ALL_TERMINALS] = 1
    elif all(is_terminal_or_honor(t) for t in tiles):
        table[F.ALL_TERMINALS_AND_HONORS] = 1


def adjust_by_tiles_hog(merged: dict[int, int], kongs: int, table: Table) -> None:
    """四归一: kinds with all four tiles in the hand, less the kongs."""
    table[F.TILE_HOG] = sum(1 for n in merged.values() if n == 4) - kongs


def adjust_by_waiting_form(concealed: tuple[Pack, ...], win_tile: int, table: Table) -> None:
    """边张 / 坎张 / 单钓将 (only one of them) for a single-kind wait."""
    if table[F.MELDED_HAND] or table[F.FOUR_KONGS]:
        return
    edge = closed = single = False
    for p in concealed:
        if p.kind == CHOW:
            if p.tile == win_tile:
                closed = True
            elif p.tile + 1 == win_tile or p.tile - 1 == win_tile:
                edge = True
        elif p.kind == PAIR and p.tile == win_tile:
            single = True
    if edge:
        table[F.EDGE_WAIT] = 1
    elif closed:
        table[F.CLOSED_WAIT] = 1
    elif single:
        table[F.SINGLE_WAIT] = 1


_EXCLUDES: tuple[tuple[int, tuple[int, ...]], ...] = (
    (F.BIG_FOUR_WINDS, (F.ALL_PUNGS, F.PUNG_OF_TERMINALS_OR_HONORS)),
    (F.BIG_THREE_DRAGONS, (F.DRAGON_PUNG,)),
    (F.ALL_GREEN, (F.HALF_FLUSH, F.ONE_VOIDED_SUIT)),
    (F.FOUR_KONGS, (F.SINGLE_WAIT,)),
    (F.ALL_TERMINALS, (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS, F.NO_HONORS, F.DOUBLE_PUNG)),
    (F.LITTLE_FOUR_WINDS, (F.PUNG_OF_TERMINALS_OR_HONORS,)),
    (F.LITTLE_THREE_DRAGONS, (F.DRAGON_PUNG,)),
    (F.ALL_HONORS, (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS, F.ONE_VOIDED_SUIT)),
)


def final_adjust(table: Table) -> None:
    """The 不计 rules: a fan's implied smaller fans are not counted again."""
    for fan, excluded in _EXCLUDES:
        if table[fan]:
            for x in excluded:
                table[x] = 0
    if table[F.FOUR_CONCEALED_PUNGS]:  # 四暗刻不计碰碰和、门前清; 不求人 becomes 自摸
        table[F.ALL_PUNGS] = 0
        table[F.CONCEALED_HAND] = 0
        if table[F.FULLY_CONCEALED_HAND]:
            table[F.FULLY_CONCEALED_HAND] = 0
            table[F.SELF_DRAWN] = 1
    for fan, excluded in (
        (F.PURE_TERMINAL_CHOWS, (F.FULL_FLUSH, F.ALL_CHOWS, F.NO_HONORS)),
        (F.FOUR_PURE_SHIFTED_PUNGS, (F.ALL_PUNGS,)),
        (F.ALL_TERMINALS_AND_HONORS, (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS)),
        (F.ALL_EVEN_PUNGS, (F.ALL_PUNGS, F.ALL_SIMPLES, F.NO_HONORS)),
        (F.UPPER_TILES, (F.NO_HONORS,)),
        (F.MIDDLE_TILES, (F.ALL_SIMPLES, F.NO_HONORS)),
        (F.LOWER_TILES, (F.NO_HONORS,)),
        (F.THREE_SUITED_TERMINAL_CHOWS, (F.ALL_CHOWS, F.NO_HONORS)),
        (F.ALL_FIVE, (F.ALL_SIMPLES, F.NO_HONORS)),
        (F.UPPER_FOUR, (F.NO_HONORS,)),
        (F.LOWER_FOUR, (F.NO_HONORS,)),
    ):
        if table[fan]:
            for x in excluded:
                table[x] = 0
    if table[F.BIG_THREE_WINDS] and not table[F.ALL_HONORS] and not table[F.ALL_TERMINALS_AND_HONORS]:
        table[F.PUNG_OF_TERMINALS_OR_HONORS] -= 3  # 三风刻 includes its three 幺九刻
    for fan, excluded in (
        (F.REVERSIBLE_TILES, (F.ONE_VOIDED_SUIT,)),
        (F.LAST_TILE_DRAW, (F.SELF_DRAWN,)),
        (F.OUT_WITH_REPLACEMENT_TILE, (F.SELF_DRAWN,)),
        (F.MELDED_HAND, (F.SINGLE_WAIT,)),
        (F.TWO_DRAGONS_PUNGS, (F.DRAGON_PUNG,)),
        (F.FULLY_CONCEALED_HAND, (F.SELF_DRAWN,)),
        (F.ALL_CHOWS, (F.NO_HONORS,)),
        (F.ALL_SIMPLES, (F.NO_HONORS,)),
    ):
        if table[fan]:
            for x in excluded:
                table[x] = 0


def adjust_by_winds(t: int, prevalent: int, seat: int, table: Table) -> None:
    """圈风刻 / 门风刻 for a wind pung; each replaces one 幺九刻 unless already deducted."""
    deducted = bool(
        table[F.BIG_THREE_WINDS] or table[F.ALL_TERMINALS_AND_HONORS] or table[F.ALL_HONORS] or table[F.LITTLE_FOUR_WINDS]
    )
    delta = t - E
    if delta == prevalent:
        table[F.PREVALENT_WIND] = 1
        if not deducted:
            table[F.PUNG_OF_TERMINALS_OR_HONORS] -= 1
    if delta == seat:
        table[F.SEAT_WIND] = 1
        if seat != prevalent and not deducted:
            table[F.PUNG_OF_TERMINALS_OR_HONORS] -= 1


def adjust_by_win_flag(flags: Flags, table: Table) -> None:
    """和绝张, 自摸, 妙手回春, 杠上开花, 海底捞月, 抢杠和 from the win flags."""
    if flags.last_tile:
        table[F.LAST_TILE] = 1
    if flags.self_drawn:
        table[F.SELF_DRAWN] = 1
        if flags.wall_last:
            table[F.LAST_TILE_DRAW] = 1
            table[F.SELF_DRAWN] = 0
        if flags.kong:
            table[F.OUT_WITH_REPLACEMENT_TILE] = 1
            table[F.SELF_DRAWN] = 0
    else:
        if flags.wall_last:
            table[F.LAST_TILE_CLAIM] = 1
        if flags.kong:
            table[F.ROBBING_THE_KONG] = 1
            table[F.LAST_TILE] = 0


# ----------------------------------------------------------------------------- regular hands


def calculate_regular_fan(packs: tuple[Pack, ...], ctx: Ctx, unique_waiting: bool, table: Table) -> None:
    """Count one split (4 sets + pair) of the hand."""
    chows = [p for p in packs if p.kind == CHOW]
    pungs = [p for p in packs if p.kind in (PUNG, KONG)]
    pair = next(p for p in packs if p.kind == PAIR)
    concealed_pungs = sum(1 for p in pungs if p.kind == PUNG and not p.melded)
    melded_kongs = sum(1 for p in pungs if p.kind == KONG and p.melded)
    concealed_kongs = sum(1 for p in pungs if p.kind == KONG and not p.melded)
    win_tile = ctx.hand.win_tile
    flags = ctx.flags
    adjust_by_win_flag(flags, table)
    # a pung completed by a discard is exposed, unless the tile can go into a concealed chow
    if not flags.self_drawn and not any(
        not c.melded and c.tile - 1 <= win_tile <= c.tile + 1 for c in chows
    ):
        concealed_pungs -= sum(1 for p in pungs if p.kind == PUNG and p.tile == win_tile and not p.melded)
    if pungs:
        calculate_kongs(concealed_pungs, melded_kongs, concealed_kongs, table)
        if len(pungs) == 4 and not table[F.FOUR_KONGS] and not table[F.FOUR_CONCEALED_PUNGS]:
            table[F.ALL_PUNGS] = 1
        for p in pungs:
            fan = get_1_pung_fan(p.tile)
            if fan is not None:
                table[fan] += 1
    n = len(chows)
    if n == 4:
        if three_suited_terminal_chows(chows, pair):
            table[F.THREE_SUITED_TERMINAL_CHOWS] = 1
        elif pure_terminal_chows(chows, pair):
            table[F.PURE_TERMINAL_CHOWS] = 1
        else:
            calculate_4_chows(sorted(c.tile for c in chows), table)
    elif n == 3:
        calculate_3_chows(sorted(c.tile for c in chows), table)
    elif n == 2:
        fan = get_2_chows_fan(chows[0].tile, chows[1].tile)
        if fan is not None:
            table[fan] += 1
        fan = get_2_pungs_fan(pungs[0].tile, pungs[1].tile)
        if fan is not None:
            table[fan] += 1
    elif n == 1:
        calculate_3_pungs(sorted(p.tile for p in pungs), table)
    else:
        calculate_4_pungs(sorted(p.tile for p in pungs), table)
    fixed_cnt = len(ctx.hand.packs)
    adjust_by_self_drawn(packs, fixed_cnt, flags.self_drawn, table)
    adjust_by_pair_tile(pair.tile, n, table)
    adjust_by_packs_traits(packs, table)
    merged = dict(ctx.standing)
    for t, k in ctx.fixed.items():
        merged[t] = merged.get(t, 0) + k
    adjust_by_suits(ctx.unique, table)
    adjust_by_tiles_traits(ctx.unique, table)
    adjust_by_rank_range(ctx.unique, table)
    if table[F.QUADRUPLE_CHOW] == 0:
        adjust_by_tiles_hog(merged, melded_kongs + concealed_kongs, table)
    if unique_waiting:
        adjust_by_waiting_form(packs[fixed_cnt:], win_tile, table)
    final_adjust(table)
    if table[F.BIG_FOUR_WINDS] == 0:
        for p in pungs:
            if is_winds(p.tile):
                adjust_by_winds(p.tile, ctx.hand.prevalent_wind, ctx.hand.seat_wind, table)
    if not any(table):
        table[F.CHICKEN_HAND] = 1


# ----------------------------------------------------------------------------- special hands


def calculate_knitted_straight_fan(ctx: Ctx, table: Table) -> bool:
    """组合龙 + one set + pair (fully concealed or with one meld)."""
    standing = ctx.standing
    if not any(n > 1 for n in standing.values()):
        return False
    seq = next((s for s in KNITTED_STRAIGHTS if all(standing.get(t, 0) > 0 for t in s)), None)
    if seq is None:
        return False
    rest = dict(standing)
    for t in seq:
        rest[t] -= 1
    fixed = ctx.hand.packs
    raw: list[list[Pack]] = []
    _divide(rest, 1 - len(fixed), 0, [], raw)
    found = {(*d,) for d in raw}
    if len(found) != 1:
        return False
    d = raw[0]
    involved = fixed[0] if fixed else d[0]
    pair_tile = d[-1].tile
    win_tile = ctx.hand.win_tile
    table[F.KNITTED_STRAIGHT] = 1
    total = lambda t: ctx.fixed.get(t, 0) + standing.get(t, 0)  # noqa: E731
    if involved.kind == CHOW:
        if is_numbered(pair_tile):
            table[F.ALL_CHOWS] = 1
        if total(pair_tile) == 4:
            table[F.TILE_HOG] = 1
    else:
        t = involved.tile
        if is_honor(t):
            if is_winds(t):
                table[F.PUNG_OF_TERMINALS_OR_HONORS] = 1
                adjust_by_winds(t, ctx.hand.prevalent_wind, ctx.hand.seat_wind, table)
                if is_dragons(pair_tile):
                    table[F.ALL_TYPES] = 1
            else:
                table[F.DRAGON_PUNG] = 1
                if is_winds(pair_tile):
                    table[F.ALL_TYPES] = 1
        else:
            if is_terminal(t):
                table[F.PUNG_OF_TERMINALS_OR_HONORS] = 1
            if not is_honor(pair_tile):
                table[F.NO_HONORS] = 1
            if involved.kind != KONG and total(t) == 4:
                table[F.TILE_HOG] = 1
    adjust_by_win_flag(ctx.flags, table)
    if involved.melded:
        if involved.kind == KONG:
            table[F.MELDED_KONG] = 1
    else:
        if involved.kind == KONG:
            table[F.CONCEALED_KONG] = 1
        if ctx.flags.self_drawn:
            table[F.FULLY_CONCEALED_HAND] = 1
            table[F.SELF_DRAWN] = 0
        else:
            table[F.CONCEALED_HAND] = 1
    if not fixed:
        if is_unique_waiting(rest, 4, win_tile):
            adjust_by_waiting_form(tuple(d), win_tile, table)
    elif win_tile not in seq or standing.get(win_tile, 0) == 3:
        table[F.SINGLE_WAIT] = 1
    final_adjust(table)
    return True


def seven_shifted_pairs(standing: dict[int, int], s: int) -> bool:
    """连七对: seven consecutive pairs of one suit."""
    if s not in (1, 2, 3):
        return False
    t3 = (s << 4) + 3
    if all(standing.get(t3 + k, 0) == 2 for k in range(5)):
        if standing.get(t3 - 1, 0) == 2:
            return standing.get(t3 - 2, 0) == 2 or standing.get(t3 + 5, 0) == 2
        return standing.get(t3 + 5, 0) == 2 and standing.get(t3 + 6, 0) == 2
    return False


def honors_and_knitted_tiles(unique: list[int], table: Table) -> bool:
    """全不靠 (14 single tiles: a knitted 147/258/369 pattern plus honors) / 七星不靠 (all seven honors)."""
    if len(unique) != 14:
        return False
    numbered = [t for t in unique if is_numbered(t)]
    honors = [t for t in unique if is_honor(t)]
    if not 7 <= len(numbered) <= 9:
        return False
    if not any(set(numbered) <= set(s) for s in KNITTED_STRAIGHTS):
        return False
    if len(numbered) == 7 and len(honors) == 7:
        table[F.GREATER_HONORS_AND_KNITTED_TILES] = 1
        return True
    table[F.LESSER_HONORS_AND_KNITTED_TILES] = 1
    if len(numbered) == 9:
        table[F.KNITTED_STRAIGHT] = 1
    return True


def calculate_special_form_fan(ctx: Ctx, table: Table) -> bool:
    """七对/连七对, 全不靠/七星不靠, 十三幺 of a fully concealed hand."""
    standing = ctx.standing
    if all(n % 2 == 0 for n in standing.values()):
        s = suit(ctx.hand.win_tile)
        if seven_shifted_pairs(standing, s):
            table[F.SEVEN_SHIFTED_PAIRS] = 1
            if standing.get((s << 4) + 1, 0) == 0 and standing.get((s << 4) + 9, 0) == 0:
                table[F.ALL_SIMPLES] = 1
            adjust_by_win_flag(ctx.flags, table)
        else:
            table[F.SEVEN_PAIRS] = 1
            adjust_by_suits(ctx.unique, table)
            adjust_by_tiles_traits(ctx.unique, table)
            adjust_by_rank_range(ctx.unique, table)
            adjust_by_tiles_hog(standing, 0, table)
            adjust_by_win_flag(ctx.flags, table)
            final_adjust(table)
        return True
    if honors_and_knitted_tiles(ctx.unique, table):
        adjust_by_win_flag(ctx.flags, table)
        return True
    if len(ctx.unique) == 13 and set(ctx.unique) == THIRTEEN_ORPHANS_SET:
        table[F.THIRTEEN_ORPHANS] = 1
        adjust_by_win_flag(ctx.flags, table)
        return True
    return False


def calculate_nine_gates_fan(ctx: Ctx, table: Table) -> bool:
    """九莲宝灯: 1112345678999 of one suit plus any tile of it, fully concealed."""
    standing = ctx.standing
    w = ctx.hand.win_tile
    s, r = suit(w), rank(w)
    if s not in (1, 2, 3):
        return False
    base = s << 4
    need = {base + k: 1 for k in range(2, 9)} | {base + 1: 3, base + 9: 3}
    need[w] = need[w] + 1
    if any(standing.get(t, 0) != n for t, n in need.items()) or sum(standing.values()) != 14:
        return False
    table[F.NINE_GATES] = 1
    if r in (1, 9):
        table[F.PURE_STRAIGHT] = 1
        table[F.TILE_HOG] = 1
    elif r in (2, 8):
        table[F.TWO_CONCEALED_PUNGS] = 1
        table[F.SHORT_STRAIGHT] = 1
        table[F.PUNG_OF_TERMINALS_OR_HONORS] = 1
    elif r == 5:
        table[F.TWO_CONCEALED_PUNGS] = 1
        table[F.PUNG_OF_TERMINALS_OR_HONORS] = 1
    else:
        table[F.SHORT_STRAIGHT] = 1
    adjust_by_win_flag(ctx.flags, table)
    return True


# ----------------------------------------------------------------------------- entry point


def fan_total(table: Table) -> int:
    return sum(FANS[i].points * n for i, n in enumerate(table) if n and i != F.FLOWER_TILES)


def calculate(hand: Hand) -> Table:
    """The fan table (counts per fan, flowers included) of the best reading of ``hand``.

    Raises :class:`NotWinning` when the tiles are not a winning hand (of any size: the 8-番
    minimum is the settlement's business).
    """
    fixed_cnt = len(hand.packs)
    if fixed_cnt > 4 or fixed_cnt * 3 + len(hand.standing) != 13:
        raise NotWinning("wrong tile count")
    fixed = fixed_table(hand.packs)
    standing: dict[int, int] = {}
    for t in (*hand.standing, hand.win_tile):
        standing[t] = standing.get(t, 0) + 1
    unique = [t for t in ALL_TILES if fixed.get(t, 0) or standing.get(t, 0)]
    last_tile = hand.fourth_tile
    if standing.get(hand.win_tile, 0) != 1:
        last_tile = False
    if fixed.get(hand.win_tile, 0) == 3:
        last_tile = True
    kong = hand.kong_involved
    if kong:
        if hand.self_drawn:
            if not any(p.kind == KONG for p in hand.packs):
                kong = False
        elif fixed.get(hand.win_tile, 0) != 0 or standing.get(hand.win_tile, 0) != 1:
            kong = False
    flags = Flags(hand.self_drawn, last_tile, kong, hand.wall_last)
    ctx = Ctx(hand, flags, fixed, standing, unique)
    best = 0
    tmp = new_table()
    if fixed_cnt == 0:
        if (
            calculate_special_form_fan(ctx, tmp)
            or calculate_knitted_straight_fan(ctx, tmp)
            or calculate_nine_gates_fan(ctx, tmp)
        ):
            best = fan_total(tmp)
    elif fixed_cnt == 1 and calculate_knitted_straight_fan(ctx, tmp):
        best = fan_total(tmp)
    if best == 0 or tmp[F.SEVEN_PAIRS] == 1:
        seven = tmp[F.SEVEN_PAIRS] == 1
        unique_waiting = is_unique_waiting(standing, len(hand.standing), hand.win_tile)
        selected: Table | None = None
        for d in divisions(standing, hand.packs):
            cur = new_table()
            calculate_regular_fan(d, ctx, unique_waiting, cur)
            total = fan_total(cur)
            if total > best:
                best = total
                selected = cur
            elif total == best and (cur[F.PURE_TRIPLE_CHOW] == 1 or seven or cur[F.TRIPLE_PUNG]):
                selected = cur
        if selected is not None:
            tmp = selected
    if best == 0:
        raise NotWinning("not a winning hand")
    tmp[F.FLOWER_TILES] = hand.flowers
    return tmp


def fan_list(table: Table) -> list[tuple[str, int]]:
    """``[(Chinese name, 番), ...]`` in table order; a fan counted n times gives n × its value."""
    return [(FANS[i].zh, FANS[i].points * n) for i, n in enumerate(table) if n]
