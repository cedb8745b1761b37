"""杠分, 跟庄, 诈胡 (chongguan.md §9) and what a 流局 settles (§10)."""

from __future__ import annotations

from scoring.round import Round
from scoring.settlement import SEAT_ZH, SEATS, Settlement

KONG_PAY_KEY = {"gang": "ming", "angang": "an", "bugang": "bu"}
GENZHUANG_PAY = 5
"""跟庄: the dealer pays 5 to each other player per followed go-around (15)."""
FALSE_WIN_PAY = 20
"""诈胡: the offender pays 20 to each other player (−60)."""

DRAW_SETTLES: dict[str, frozenset[str]] = {
    "void_all": frozenset(),  # 兴国 "此局全作废"
    "jing_only": frozenset({"jing"}),  # 老K "精在胡牌和流局后算分使用"
    "non_hu": frozenset({"jing", "gangjing", "gang", "follow"}),  # 永丰 "流局除胡分外，其他分数…正常计算"
    "jing_and_gang": frozenset({"jing", "gangjing", "gang"}),  # GZCG
}
"""Which components a 流局 settles under each `draw_settlement`."""


def settle_kongs(r: Round, s: Settlement) -> list[str]:
    """杠分: 暗杠, 碰杠, 补杠 — each other player pays 2; a kong of four 精 earns 杠精 instead."""
    opts = r.options
    notes = []
    for seat in SEATS:
        for m in r.players[seat].kongs:
            if r.is_jing(m.kind) and not opts.gangjing_plus_kong_pay:
                continue
            amount: int = getattr(opts.kong_pay, KONG_PAY_KEY[m.type])
            if m.type == "gang" and opts.direct_kong_paid_by_discarder and m.from_seat:
                s.pay(m.from_seat, seat, 3 * amount, "gang")
            else:
                for payer in SEATS:
                    if payer != seat:
                        s.pay(payer, seat, amount, "gang")
            notes.append(f"{SEAT_ZH[seat]}家{ {'gang': '明杠', 'angang': '暗杠', 'bugang': '补杠'}[m.type] }{m.kind.zh}：每家 {amount}")
    return notes


def followed_rounds(r: Round) -> int:
    """Go-arounds of 跟庄 that pay: all of them (兴国) or the first only (永丰 "仅限第一轮")."""
    n = r.follow_dealer
    return min(n, 1) if r.options.genzhuang_rounds == "first" else n


def settle_follow(r: Round, s: Settlement) -> list[str]:
    """跟庄: the dealer pays 5 to each other player per followed go-around."""
    n = followed_rounds(r)
    if not n:
        return []
    for p in SEATS:
        if p != r.dealer:
            s.pay(r.dealer, p, GENZHUANG_PAY * n, "follow")
    return [f"跟庄 {n} 轮：庄家（{SEAT_ZH[r.dealer]}家）付每家 {GENZHUANG_PAY * n}"]


def settle_false_wins(r: Round, s: Settlement) -> list[str]:
    """诈胡: the offender pays 20 to each other player."""
    notes = []
    for off in r.false_win:
        for p in SEATS:
            if p != off:
                s.pay(off, p, FALSE_WIN_PAY, "penalty")
        notes.append(f"诈胡：{SEAT_ZH[off]}家付每家 {FALSE_WIN_PAY}")
    return notes
