"""国标麻将 (GB / MCR): fan calculator and settlement (other_systems.md §1).

``settle(doc)`` reads a round (round-format.md, ``rules: gb``; the win block adds ``flowers``,
``seat_wind``, ``prevalent_wind``, ``last_tile``, ``fourth_tile``), counts the best reading of
the winner's hand (:mod:`scoring.gb.calculator`), refuses a hand below **8 番 without flowers**,
and settles by the sources' formula: 自摸 — each loser pays 8 + 番; 点炮 — the discarder pays
8 + 番 and each other player 8.  ``win.fans`` lists ``[name, 番]``, ``win.total_fan`` their sum.
"""

from __future__ import annotations

from typing import Any

from scoring.errors import RoundError
from scoring.gb.calculator import NotWinning, calculate, fan_list, fan_total
from scoring.gb.round_input import gb_hand as gb_hand
from scoring.gb.round_input import parse_gb_round
from scoring.round import chi_from_previous_seat
from scoring.settlement import SEAT_ZH, SEATS, Settlement

MIN_FAN = 8
BASE = 8

__all__ = ["MIN_FAN", "settle"]


def settle(doc: dict[str, Any]) -> Settlement:
    """Settle one 国标 round."""
    rnd, hand = parse_gb_round(doc)
    chi_from_previous_seat(rnd)
    out = Settlement(rules="gb")
    if rnd.win is None:
        out.explanation.append("荒庄（流局）：不计分")
        return out
    win = rnd.win
    try:
        table = calculate(hand)
    except NotWinning as exc:
        raise RoundError(f"{SEAT_ZH[win.seat]}家的牌不能和", f"{win.seat}'s tiles are not a winning hand") from exc
    fans = fan_list(table)
    base_fan = fan_total(table)
    total_fan = base_fan + hand.flowers
    if base_fan < MIN_FAN:
        listed = "、".join(f"{n}{v}" for n, v in fans) or "无"
        raise RoundError(
            f"不够八番起和：{SEAT_ZH[win.seat]}家只有 {base_fan} 番（花牌不计），番种：{listed}",
            f"below the 8-fan minimum: {base_fan} fan without flowers",
        )
    if win.self_drawn:
        for s in SEATS:
            if s != win.seat:
                out.pay(s, win.seat, BASE + total_fan, "hu", f"自摸 {BASE}+{total_fan}")
    else:
        assert win.from_seat is not None
        for s in SEATS:
            if s == win.seat:
                continue
            amount = BASE + total_fan if s == win.from_seat else BASE
            out.pay(s, win.seat, amount, "hu", f"点炮 {BASE}+{total_fan}" if s == win.from_seat else f"底分 {BASE}")
    out.win = {
        "seat": win.seat,
        "self_drawn": win.self_drawn,
        "fans": [[name, value] for name, value in fans],
        "total_fan": total_fan,
        "flowers": hand.flowers,
        "names": [name for name, _ in fans],
    }
    out.explanation.append(
        f"{SEAT_ZH[win.seat]}家和牌 {total_fan} 番：" + "、".join(f"{n} {v}" for n, v in fans)
    )
    if win.self_drawn:
        out.explanation.append(f"自摸：三家各付 {BASE}+{total_fan} = {BASE + total_fan}")
    else:
        src = win.from_seat or "E"
        out.explanation.append(f"点炮：{SEAT_ZH[src]}家付 {BASE}+{total_fan} = {BASE + total_fan}，其余两家各付 {BASE}")
    return out
