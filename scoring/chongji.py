"""冲击麻将 (other_systems.md §4; seed000 "冲击麻将" pages).

136 tiles, no flowers.  One wildcard kind, **龙** (财神/百搭): the tile *after* the flipped
indicator (suits 9→1, 东→南→西→北→东, 白→中→發→白).  A win is worth V = 12 + 2·k 点, k = the 龙
tiles in the winner's hand plus the 加龙 items.  自摸: each loser pays V; 打胡 (ron): the
discarder pays V and each other loser V/2.

加龙 items computed here (each +1 龙 unless noted): 天胡, 地胡, 扛爆 (a kong-replacement win,
counted as 自摸), 海底捞月 (``win.last_tile``), 对对碰 (七对 using 龙), 清七对 (七对 without 龙),
十三不搭, 混一色, 全风向 (every natural tile a wind; no shape needed), 无龙会 (+2: no 龙 at all).
Choices where the sources are silent are in docs/other_systems.md.
"""

from __future__ import annotations

from typing import Any

from scoring.errors import RoundError
from scoring.round import SimpleRound, Win, chi_from_previous_seat, parse_simple_round
from scoring.settlement import SEAT_ZH, SEATS, Settlement
from scoring.tiles import Tile, counts_of, next_in_cycle, tile

BASE = 12
PER_LONG = 2
MAX_CLAIMS = 2


def long_of(indicator: Tile) -> Tile:
    """龙: the kind after the indicator (翻白板 → 红中), as next_in_cycle."""
    return next_in_cycle(indicator)


def _sets_with_wilds(counts: list[int], wilds: int) -> bool:
    """Whether ``counts`` plus ``wilds`` jokers split into sets only (pungs / chows)."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return wilds % 3 == 0
    c = counts[i]
    # pung from natural tiles (and jokers filling it)
    need = max(0, 3 - c)
    use = min(c, 3)
    if need <= wilds:
        counts[i] -= use
        ok = _sets_with_wilds(counts, wilds - need)
        counts[i] += use
        if ok:
            return True
    if i < 27 and i % 9 <= 6:
        for a, b in ((1, 1), (1, 0), (0, 1)):
            j, k = i + 1, i + 2
            if (a and counts[j] == 0) or (b and counts[k] == 0):
                continue
            jokers = (1 - a) + (1 - b)
            if jokers > wilds:
                continue
            counts[i] -= 1
            counts[j] -= a
            counts[k] -= b
            ok = _sets_with_wilds(counts, wilds - jokers)
            counts[i] += 1
            counts[j] += a
            counts[k] += b
            if ok:
                return True
    if i < 27 and i % 9 == 7 and wilds >= 1 and counts[i + 1]:  # 8-9 + joker as 7
        counts[i] -= 1
        counts[i + 1] -= 1
        ok = _sets_with_wilds(counts, wilds - 1)
        counts[i] += 1
        counts[i + 1] += 1
        if ok:
            return True
    if i < 27 and i % 9 in (7, 8) and wilds >= 2:  # 8 or 9 with two jokers
        counts[i] -= 1
        ok = _sets_with_wilds(counts, wilds - 2)
        counts[i] += 1
        if ok:
            return True
    return False


def is_standard_with_wilds(counts: list[int], wilds: int) -> bool:
    """Four sets and a pair, jokers standing for any tile."""
    for p in range(34):
        for nat in (2, 1):
            if counts[p] >= nat and wilds >= 2 - nat:
                counts[p] -= nat
                ok = _sets_with_wilds(counts, wilds - (2 - nat))
                counts[p] += nat
                if ok:
                    return True
    return wilds >= 2 and _sets_with_wilds(counts, wilds - 2)


def is_seven_pairs_with_wilds(counts: list[int], wilds: int) -> bool:
    """七对 (a four of a kind counts as two pairs), jokers pairing any tile."""
    if sum(counts) + wilds != 14:
        return False
    singles = sum(c % 2 for c in counts)
    return singles <= wilds


def is_thirteen_unconnected(counts: list[int], wilds: int) -> bool:
    """十三不搭: 14 tiles, no two alike, suit tiles of one suit at least 3 apart (jokers fill in)."""
    if sum(counts) + wilds != 14 or any(c > 1 for c in counts):
        return False
    for s in range(3):
        ranks = [r for r in range(9) if counts[s * 9 + r]]
        if any(b - a < 3 for a, b in zip(ranks, ranks[1:])):
            return False
    return True


def is_all_winds(natural: list[Tile]) -> bool:
    """全风向: every natural tile of the hand is a wind (东南西北); no shape needed."""
    return bool(natural) and all(t.is_wind for t in natural)


def is_half_flush(tiles: list[Tile]) -> bool:
    """混一色: one suit plus honors (both present)."""
    suits = {t.suit for t in tiles if not t.is_honor}
    return len(suits) == 1 and any(t.is_honor for t in tiles)


def long_items(rnd: SimpleRound, long_tile: Tile) -> tuple[int, list[str], str]:
    """(龙 count with 加龙, names, shape) of the winning hand; refuses a hand that cannot win."""
    assert rnd.win is not None
    win: Win = rnd.win
    winner = rnd.winner
    concealed = rnd.winner_tiles()
    all_tiles = concealed + [t for m in winner.melds for t in m.tiles]
    n_long = sum(1 for t in all_tiles if t == long_tile)
    natural = [t for t in concealed if t != long_tile]
    counts = counts_of(natural)
    wilds = len(concealed) - len(natural)
    names: list[str] = [f"{n_long}龙"] if n_long else []
    extra = 0
    no_melds = not winner.melds
    if is_standard_with_wilds(list(counts), wilds):
        shape = "推胡"
    elif no_melds and is_seven_pairs_with_wilds(counts, wilds):
        shape = "七对"
        if wilds:
            names.append("对对碰")
        else:
            names.append("清七对")
        extra += 1
    elif no_melds and is_thirteen_unconnected(counts, wilds):
        shape = "十三不搭"
        names.append("十三不搭")
        extra += 1
    elif is_all_winds([t for t in all_tiles if t != long_tile]):
        shape = "全风向"
    else:
        raise RoundError(f"{SEAT_ZH[win.seat]}家的牌不能和", f"{win.seat}'s tiles are not a winning hand")
    if is_all_winds([t for t in all_tiles if t != long_tile]):
        names.append("全风向")
        extra += 1
    if is_half_flush([t for t in all_tiles if t != long_tile]):
        names.append("混一色")
        extra += 1
    if n_long == 0:
        names.append("无龙会")
        extra += 2
    for flag, name in (
        (win.special == "tianhu", "天胡"),
        (win.special == "dihu", "地胡"),
        (win.after_kong, "扛爆"),
        (bool(win.raw.get("last_tile")) and win.self_drawn, "海底捞月"),
    ):
        if flag:
            names.append(name)
            extra += 1
    return n_long + extra, names, shape


def value_of(longs: int) -> int:
    """V = 12 + 2 per 龙 ("12点起底，一龙加2点")."""
    return BASE + PER_LONG * longs


def check_claims(rnd: SimpleRound) -> None:
    """At most two calls from other players per seat (上家 吃/碰, others 碰 only)."""
    for p in rnd.players.values():
        claimed = [m for m in p.melds if m.type in ("chi", "peng", "gang")]
        if len(claimed) > MAX_CLAIMS:
            raise RoundError(
                f"{SEAT_ZH[p.seat]}家吃碰杠他人的牌超过两次", f"{p.seat} claimed more than {MAX_CLAIMS} discards"
            )
    chi_from_previous_seat(rnd)


def settle(doc: dict[str, Any]) -> Settlement:
    """Settle one 冲击 round (``rules: chongji``)."""
    if doc.get("indicator") is None:
        raise RoundError("冲击麻将需要翻牌（indicator）来定龙", "chongji needs the indicator tile")
    try:
        indicator = tile(doc["indicator"])
    except Exception as exc:  # TileError carries zh/en
        raise RoundError(f"翻牌无法识别：{doc['indicator']!r}", f"bad indicator {doc['indicator']!r}") from exc
    long_tile = long_of(indicator)
    rnd = parse_simple_round(doc, extra_tiles=[indicator])
    check_claims(rnd)
    out = Settlement(rules="chongji")
    out.extra["long"] = long_tile.code
    if rnd.win is None:
        out.explanation.append("流局：不计分")
        return out
    win = rnd.win
    if win.after_kong and not any(m.is_kong for m in rnd.winner.melds):
        raise RoundError("扛爆需要和牌者有杠", "after_kong needs a kong of the winner")
    longs, names, shape = long_items(rnd, long_tile)
    value = value_of(longs)
    zimo = win.self_drawn or win.after_kong
    if zimo:
        for s in SEATS:
            if s != win.seat:
                out.pay(s, win.seat, value, "hu", "自摸")
    else:
        assert win.from_seat is not None
        for s in SEATS:
            if s == win.seat:
                continue
            out.pay(s, win.seat, value if s == win.from_seat else value // 2, "hu", "打胡" if s == win.from_seat else "")
    out.win = {"seat": win.seat, "shape": shape, "long": longs, "value": value, "self_drawn": zimo, "names": names}
    out.explanation.append(
        f"龙 = {long_tile.zh}；{SEAT_ZH[win.seat]}家{shape}，共 {longs} 龙：12 + 2×{longs} = {value} 点"
        + ("，三家各付" if zimo else f"，{SEAT_ZH[win.from_seat or 'E']}家付 {value}，其余各付 {value // 2}")
    )
    return out
