"""Random 国标 winning hands for differential tests and the benchmark (not used by settlement).

:func:`random_hand` draws a :class:`~scoring.gb.calculator.Hand` that is a complete 14-tile hand
(regular 4 sets + pair with random exposed chows/pungs/kongs and concealed kongs, or one of the
special shapes 七对 / 十三幺 / 全不靠 / 组合龙), never more than four copies of a kind, with random
flowers, seat and prevalent winds and win flags.  Tile choice is biased (few suits, many honors,
repeated chows) so that rare fans turn up in a few thousand hands.
"""

from __future__ import annotations

import random

from scoring.gb.calculator import ALL_TILES, CHOW, KNITTED_STRAIGHTS, KONG, PUNG, THIRTEEN_ORPHANS_SET, Hand, Pack

SUIT_TILES = [t for t in ALL_TILES if t < 0x40]
HONOR_TILES = [t for t in ALL_TILES if t > 0x40]


class _Pool:
    def __init__(self) -> None:
        self.left = {t: 4 for t in ALL_TILES}

    def take(self, tiles: list[int]) -> bool:
        need: dict[int, int] = {}
        for t in tiles:
            need[t] = need.get(t, 0) + 1
        if any(self.left[t] < n for t, n in need.items()):
            return False
        for t, n in need.items():
            self.left[t] -= n
        return True


def _palette(rng: random.Random) -> list[int]:
    """Tiles this hand draws from: sometimes one suit (+ honors), sometimes everything."""
    r = rng.random()
    suits = [1, 2, 3]
    themed = rng.random()
    if themed < 0.04:  # terminals only (清幺九, 混幺九)
        return [t for t in SUIT_TILES if t & 0xF in (1, 9)] + ([] if rng.random() < 0.5 else HONOR_TILES[:2])
    if themed < 0.08:  # even numbers only (全双刻)
        return [t for t in SUIT_TILES if t & 0xF in (2, 4, 6, 8)]
    if themed < 0.14:  # honors (大四喜, 字一色, 大三元)
        return HONOR_TILES + rng.sample(HONOR_TILES, 3) + rng.sample(SUIT_TILES, 2)
    if r < 0.25:
        chosen = [rng.choice(suits)]
    elif r < 0.5:
        chosen = rng.sample(suits, 2)
    else:
        chosen = suits
    tiles = [t for t in SUIT_TILES if t >> 4 in chosen]
    if rng.random() < 0.3:
        lo, hi = rng.choice([(1, 4), (6, 9), (4, 6), (1, 9), (2, 8), (1, 5), (5, 9)])
        tiles = [t for t in tiles if lo <= t & 0xF <= hi] or tiles
    if rng.random() < 0.6:
        tiles += rng.sample(HONOR_TILES, rng.randint(1, 7))
    return tiles


def _random_set(rng: random.Random, palette: list[int], prev: list[tuple[int, int]]) -> tuple[int, int]:
    """(kind, tile) with a chance of repeating / shifting an earlier set (for 同顺, 步高, 节高 ...)."""
    if prev and rng.random() < 0.35:
        kind, t = rng.choice(prev)
        if t < 0x40 and rng.random() < 0.6:
            s, r = t >> 4, t & 0xF
            if rng.random() < 0.5:
                s = rng.choice([1, 2, 3])
            r = r + rng.choice([-2, -1, 0, 1, 2, 3, -3])
            lo = 2 if kind == CHOW else 1
            hi = 8 if kind == CHOW else 9
            if lo <= r <= hi:
                return kind, (s << 4) + r
        return kind, t
    t = rng.choice(palette)
    if t < 0x40 and rng.random() < 0.55:
        r = min(max(t & 0xF, 2), 8)
        return CHOW, (t & 0xF0) + r
    return PUNG, t


def _tiles_of(kind: int, t: int) -> list[int]:
    if kind == CHOW:
        return [t - 1, t, t + 1]
    return [t] * (4 if kind == KONG else 3)


def _regular(rng: random.Random, pool: _Pool) -> tuple[list[Pack], list[int]] | None:
    palette = _palette(rng)
    n_fixed = rng.choices([0, 1, 2, 3, 4], weights=[30, 25, 20, 15, 10])[0]
    kong_rate = 0.9 if rng.random() < 0.1 else 0.3
    prev: list[tuple[int, int]] = []
    packs: list[Pack] = []
    concealed: list[int] = []
    for i in range(4):
        kind, t = _random_set(rng, palette, prev)
        prev.append((kind, t))
        if i < n_fixed:
            melded = True
            if kind == PUNG and rng.random() < kong_rate:
                kind = KONG
                melded = rng.random() < 0.5
            if kind == CHOW:
                melded = True
            if not pool.take(_tiles_of(kind, t)):
                return None
            packs.append(Pack(melded, kind, t))
        else:
            if not pool.take(_tiles_of(kind, t)):
                return None
            concealed += _tiles_of(kind, t)
    pair = rng.choice(palette)
    if not pool.take([pair, pair]):
        return None
    concealed += [pair, pair]
    return packs, concealed


def _special(rng: random.Random, pool: _Pool) -> list[int] | None:
    shape = rng.choice(["seven_pairs", "orphans", "knitted", "knitted_straight", "nine_gates", "terminal_chows"])
    if shape == "seven_pairs":
        palette = _palette(rng)
        kinds = [rng.choice(palette) for _ in range(7)]
        if rng.random() < 0.2:  # 连七对
            s, start = rng.choice([1, 2, 3]), rng.randint(1, 3)
            kinds = [(s << 4) + start + k for k in range(7)]
        tiles = [t for k in kinds for t in (k, k)]
    elif shape == "orphans":
        tiles = sorted(THIRTEEN_ORPHANS_SET) + [rng.choice(sorted(THIRTEEN_ORPHANS_SET))]
    elif shape == "knitted":
        seq = list(rng.choice(KNITTED_STRAIGHTS))
        n_num = rng.randint(7, 9)
        nums = rng.sample(seq, n_num)
        tiles = nums + rng.sample(HONOR_TILES, 14 - n_num)
    elif shape == "nine_gates":
        base = rng.choice([1, 2, 3]) << 4
        tiles = [base + 1] * 3 + [base + r for r in range(2, 9)] + [base + 9] * 3 + [base + rng.randint(1, 9)]
    elif shape == "terminal_chows":  # 一色 / 三色双龙会
        s1, s2, s3 = rng.sample([1, 2, 3], 3)
        if rng.random() < 0.5:
            chows = [(s1 << 4) + 2, (s1 << 4) + 8, (s2 << 4) + 2, (s2 << 4) + 8]
            pair = (s3 << 4) + 5
        else:
            chows = [(s1 << 4) + 2] * 2 + [(s1 << 4) + 8] * 2
            pair = (s1 << 4) + 5
        tiles = [t for c in chows for t in (c - 1, c, c + 1)] + [pair, pair]
    else:
        seq = list(rng.choice(KNITTED_STRAIGHTS))
        palette = _palette(rng)
        kind, t = _random_set(rng, palette, [])
        pair = rng.choice(palette)
        tiles = seq + _tiles_of(kind, t) + [pair, pair]
    return tiles if pool.take(tiles) else None


def random_hand(rng: random.Random) -> Hand:
    """One random complete hand (retrying until the tile counts allow it)."""
    while True:
        pool = _Pool()
        if rng.random() < 0.15:
            concealed = _special(rng, pool)
            packs: list[Pack] = []
            if concealed is None:
                continue
        else:
            got = _regular(rng, pool)
            if got is None:
                continue
            packs, concealed = got
        win = rng.choice(concealed)
        standing = list(concealed)
        standing.remove(win)
        rng.shuffle(standing)
        return Hand(
            packs=tuple(packs),
            standing=tuple(standing),
            win_tile=win,
            flowers=rng.choices(range(9), weights=[50, 15, 10, 8, 6, 4, 3, 2, 2])[0],
            self_drawn=rng.random() < 0.4,
            fourth_tile=rng.random() < 0.15,
            kong_involved=rng.random() < 0.1,
            wall_last=rng.random() < 0.08,
            seat_wind=rng.randrange(4),
            prevalent_wind=rng.randrange(4),
        )


def _lib_tile(t: int) -> str:
    s, r = t >> 4, t & 0xF
    if s == 1:
        return f"W{r}"
    if s == 2:
        return f"T{r}"
    if s == 3:
        return f"B{r}"
    return {0x41: "F1", 0x42: "F2", 0x43: "F3", 0x44: "F4", 0x45: "J1", 0x46: "J2", 0x47: "J3"}[t]


def reference_fans(hand: Hand) -> list[tuple[str, int]] | None:
    """The same hand through pymahjonggb (names mapped to ours); None when it says not a win."""
    from MahjongGB import MahjongFanCalculator  # test/bench-only dependency

    from scoring.gb.fans import LIB_NAME_TO_ZH

    packs = []
    for p in hand.packs:
        kind = {CHOW: "CHI", PUNG: "PENG", KONG: "GANG"}[p.kind]
        offer = (2 if p.kind == CHOW else 1) if p.melded else 0
        packs.append((kind, _lib_tile(p.tile), offer))
    try:
        res = MahjongFanCalculator(
            pack=tuple(packs),
            hand=tuple(_lib_tile(t) for t in hand.standing),
            winTile=_lib_tile(hand.win_tile),
            flowerCount=hand.flowers,
            isSelfDrawn=hand.self_drawn,
            is4thTile=hand.fourth_tile,
            isAboutKong=hand.kong_involved,
            isWallLast=hand.wall_last,
            seatWind=hand.seat_wind,
            prevalentWind=hand.prevalent_wind,
        )
    except TypeError as exc:
        if "NOT_WIN" in str(exc):
            return None
        raise
    return [(LIB_NAME_TO_ZH[name], fan) for fan, name in res]


def random_near_hand(rng: random.Random) -> Hand:
    """A random hand whose winning tile is replaced by a random kind: mostly not a win."""
    h = random_hand(rng)
    counts: dict[int, int] = {}
    for p in h.packs:
        for t in _tiles_of(p.kind, p.tile) if p.kind != KONG else [p.tile] * 4:
            counts[t] = counts.get(t, 0) + 1
    for t in h.standing:
        counts[t] = counts.get(t, 0) + 1
    choices = [t for t in ALL_TILES if counts.get(t, 0) < 4]
    h.win_tile = rng.choice(choices)
    return h
