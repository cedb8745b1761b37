"""芜湖麻将 2468 / 1234 (other_systems.md §2; seed003 "芜湖麻将2468算法" and its 计算表).

112 tiles (万条筒 ×4 and four 红中), 碰/杠 but no 吃, one winner.  A win needs **八支**: one suit
with at least eight tiles in hand + melds.  Score = 番数 + 支数:

* 2468: 平成 round_half_up(支/2)+2, 押当 round_half_up((支+押)/2)+4, 自摸 支+6, 自摸押当 支+押+8;
  头家 (the dealer, as winner or payer) adds the 番 once more.
* 1234: 平成 round_half_up(支·2/10)+1, 押当 round_half_up((支+押)·2/10)+2,
  自摸 round_half_up(支·4/10)+3, 自摸押当 round_half_up((支+押)·4/10)+4; 头家 likewise.
* 杠 and 嘴子 (added to what each payer pays): 明杠 +2/+1, 暗杠 +4/+2, each 嘴子 +5/+4; on 自摸
  only the 嘴子 (not 杠后开花) count double.

A ron is settled between the discarder and the winner only; 自摸 is paid by all three.
Choices where the sources are silent are in docs/other_systems.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from scoring.errors import RoundError
from scoring.gb.shapes import is_standard_win, standard_waits
from scoring.round import SimpleRound, parse_simple_round
from scoring.settlement import SEAT_ZH, SEATS, Settlement
from scoring.tiles import SUIT_ZH, Tile, counts_of

HONGZHONG = 33
ALLOWED_KINDS: list[int] = [*range(27), HONGZHONG]
SUIT_OF_INDEX = ("m", "p", "s")


@dataclass(frozen=True, slots=True)
class WuhuTable:
    """The numbers of one 芜湖 variant: 番 of the four win kinds, divisor of 支, 杠 and 嘴子 values."""

    name: str
    fan_pingcheng: int
    fan_yadang: int
    fan_zimo: int
    fan_zimo_yadang: int
    ron_factor: Decimal  # base = round_half_up(支 × factor) on a ron
    zimo_factor: Decimal  # base = round_half_up(支 × factor) on 自摸
    minggang: int
    angang: int
    zuizi: int


TABLES: dict[str, WuhuTable] = {
    "wuhu2468": WuhuTable("2468", 2, 4, 6, 8, Decimal(1) / 2, Decimal(1), 2, 4, 5),
    "wuhu1234": WuhuTable("1234", 1, 2, 3, 4, Decimal(2) / 10, Decimal(4) / 10, 1, 2, 4),
}


def round_half_up(x: Decimal) -> int:
    """Round to the nearest integer, halves up (the sources' 9/2 = 5)."""
    return int(x.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def hand_value(table: WuhuTable, zhi: int, ya: int, zimo: bool) -> tuple[int, int]:
    """(amount a non-头家 payer pays, amount when 头家 is involved) for 支 ``zhi`` and 押 ``ya``.

    ``ya`` = 0 means 平成 (no 押当).  This is the source's 计算表 (golden ``wh-*``).
    """
    yadang = ya > 0
    factor = table.zimo_factor if zimo else table.ron_factor
    base = round_half_up(Decimal(zhi + ya) * factor)
    if zimo:
        fan = table.fan_zimo_yadang if yadang else table.fan_zimo
    else:
        fan = table.fan_yadang if yadang else table.fan_pingcheng
    return base + fan, base + 2 * fan


def zhi_count(tiles: list[Tile]) -> tuple[int, str]:
    """支: the largest number of tiles of one suit (kongs count four) and that suit."""
    per_suit = {s: sum(1 for t in tiles if t.suit == s) for s in SUIT_OF_INDEX}
    suit = max(per_suit, key=lambda s: per_suit[s])
    return per_suit[suit], suit


def is_yadang(concealed_before_win: list[Tile]) -> bool:
    """押当: the hand before the winning tile waits on exactly one tile kind."""
    return len(standard_waits(counts_of(concealed_before_win), ALLOWED_KINDS)) == 1


def zuizi_items(rnd: SimpleRound) -> list[str]:
    """The 嘴子 of the winner's hand: 对对胡, 通天, 四核 (each), 混一色, 杠后开花."""
    assert rnd.win is not None
    winner = rnd.winner
    concealed = rnd.winner_tiles()
    counts = counts_of(concealed)
    melds = winner.melds
    all_tiles = concealed + [t for m in melds for t in m.tiles]
    items: list[str] = []
    if all(m.type != "chi" for m in melds) and _all_pungs(counts):
        items.append("对对胡")
    if _has_straight(counts, concealed):
        items.append("通天")
    items.extend("四核" for k in range(34) if counts[k] == 4)
    suits = {t.suit for t in all_tiles if not t.is_honor}
    if len(suits) == 1 and any(t.index == HONGZHONG for t in all_tiles):
        items.append("混一色")
    if rnd.win.after_kong:
        items.append("杠后开花")
    return items


def _all_pungs(counts: list[int]) -> bool:
    """The concealed part is pungs and one pair only."""
    pairs = sum(1 for c in counts if c == 2)
    return pairs == 1 and all(c in (0, 2, 3) for c in counts)


def _has_straight(counts: list[int], concealed: list[Tile]) -> bool:
    """通天: 123 456 789 of one suit inside a winning split of the concealed tiles."""
    for s in range(3):
        run = [s * 9 + r for r in range(9)]
        if all(counts[k] for k in run):
            rest = list(counts)
            for k in run:
                rest[k] -= 1
            if is_standard_win(rest):
                return True
    return False


def check_tiles(rnd: SimpleRound) -> None:
    """Only 万条筒 and 红中 exist, and there is no 吃."""
    for p in rnd.players.values():
        for t in p.all_tiles():
            if t.is_honor and t.index != HONGZHONG:
                raise RoundError(f"芜湖麻将没有{t.zh}（只有万条筒和红中）", f"wuhu has no {t.code} (suits and 7z only)")
        if any(m.type == "chi" for m in p.melds):
            raise RoundError(f"芜湖麻将不能吃（{SEAT_ZH[p.seat]}家）", f"wuhu has no chi ({p.seat})")
    if rnd.win is not None and rnd.win.tile.is_honor and rnd.win.tile.index != HONGZHONG:
        raise RoundError(f"芜湖麻将没有{rnd.win.tile.zh}", f"wuhu has no {rnd.win.tile.code}")


def ya_value(rnd: SimpleRound) -> int:
    """押: ``win.ya`` (2–8) when given, else the rank of the winning tile (2–8)."""
    assert rnd.win is not None
    raw = rnd.win.raw.get("ya")
    if raw is None:
        t = rnd.win.tile
        if t.is_honor or not 2 <= t.rank <= 8:
            raise RoundError(
                f"押当和{t.zh}：请在 win.ya 中写明押几（2–8）", f"押当 on {t.code}: give win.ya (2-8)"
            )
        return t.rank
    if not isinstance(raw, int) or isinstance(raw, bool) or not 2 <= raw <= 8:
        raise RoundError(f"win.ya 必须是 2–8 的整数：{raw!r}", f"win.ya must be an integer 2-8: {raw!r}")
    return raw


def settle(doc: dict[str, Any]) -> Settlement:
    """Settle one 芜湖 round (``rules: wuhu2468 | wuhu1234``)."""
    rules = str(doc.get("rules"))
    table = TABLES.get(rules)
    if table is None:
        raise RoundError(f"不是芜湖规则：{rules}", f"not a wuhu rules name: {rules!r}")
    rnd = parse_simple_round(doc)
    check_tiles(rnd)
    out = Settlement(rules=rules)
    if rnd.win is None:
        out.explanation.append("流局：不计分")
        return out
    win = rnd.win
    winner = rnd.winner
    concealed = rnd.winner_tiles()
    if not is_standard_win(counts_of(concealed)):
        raise RoundError(f"{SEAT_ZH[win.seat]}家的牌不能和（需四组加一对）", f"{win.seat}'s tiles are not a winning hand")
    all_tiles = concealed + [t for m in winner.melds for t in m.tiles]
    zhi, suit = zhi_count(all_tiles)
    if zhi < 8:
        raise RoundError(
            f"不够八支：{SUIT_ZH[suit]}只有 {zhi} 张，和牌需某一门至少 8 张", f"no 八支: best suit has {zhi} tiles"
        )
    if win.after_kong and not any(m.is_kong for m in winner.melds):
        raise RoundError("杠后开花需要和牌者有杠", "after_kong needs a kong of the winner")
    zimo = win.self_drawn
    yadang = is_yadang(list(winner.hand))
    ya = ya_value(rnd) if yadang else 0
    if not yadang and win.raw.get("ya") is not None:
        raise RoundError("win.ya 只用于押当（只听一张）", "win.ya given but the hand waited on more than one tile")
    plain, toujia = hand_value(table, zhi, ya, zimo)
    kind_zh = ("自摸" if zimo else "平成") + ("押当" if yadang else "")
    gang = sum(table.angang if m.type == "angang" else table.minggang for m in winner.melds if m.is_kong)
    items = zuizi_items(rnd)
    zuizi = 0
    for it in items:
        zuizi += table.zuizi * (2 if zimo and it != "杠后开花" else 1)
    payers = [s for s in SEATS if s != win.seat] if zimo else [win.from_seat]
    for payer in payers:
        assert payer is not None
        dealer_involved = rnd.dealer in (payer, win.seat)
        amount = toujia if dealer_involved else plain
        out.pay(payer, win.seat, amount + zuizi, "hu", kind_zh + ("（头家）" if dealer_involved else ""))
        out.pay(payer, win.seat, gang, "gang")
    names = [kind_zh, f"{zhi}支"] + ([f"押{ya}"] if yadang else []) + items
    out.win = {
        "seat": win.seat,
        "self_drawn": zimo,
        "zhi": zhi,
        "suit": suit,
        "yadang": yadang,
        "ya": ya,
        "value": plain,
        "value_toujia": toujia,
        "zuizi": items,
        "names": names,
    }
    out.explanation.append(
        f"{SEAT_ZH[win.seat]}家{kind_zh}，{zhi}支" + (f"押{ya}" if yadang else "") + f"：{plain}（头家 {toujia}）"
    )
    if items:
        out.explanation.append("嘴子：" + "、".join(items) + f"，每家加 {zuizi}")
    if gang:
        out.explanation.append(f"杠：每家加 {gang}")
    return out
