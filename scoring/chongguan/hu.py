"""胡计子: the payment formula of chongguan.md §6 and the flat / special wins of §6.2.

    a_p = H × M × w_p × d_p ;  pay_p = 德国 ? 2·a_p + B_p : a_p
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.settlement import SEATS

if TYPE_CHECKING:
    from scoring.chongguan.presets import ChongguanOptions

HAND_BASE = {"pinghu": 1, "xiaoqi": 2, "shisanlan": 2, "daqi": 4, "qixing": 4}
"""H: 平胡 1, 小七 2, 十三烂 2, 大七 4, 七星十三烂 4 ("七星十三烂：正常胡X2")."""

GERMAN_BONUS = 5
"""德国奖励 +5 ("所有德国奖励：+5"), paid by each 自摸 payer or by the discarder only."""

TIANHU_BASE = {"flat20": 20, "factor8": 32}
"""T₀ of 天胡/地胡: 20 ("普通天胡、地胡：20+20+20=60") or 32 (老K "天地胡-每人32个")."""


def hand_base(shape: str, german: bool, opts: ChongguanOptions) -> int:
    """H of the shape; 南昌 scores 德国小七 like 大七 ("德国小7对（也称为德国7星）")."""
    if shape == "xiaoqi" and german and opts.german_xiaoqi_as_daqi:
        return HAND_BASE["daqi"]
    return HAND_BASE[shape]


def multiplier(jingdiao: bool, gangshanghua: bool, bahu: bool) -> int:
    """M = (精吊 ? 2 : 1) × (杠上花 ? 2 : 1) × (霸胡 ? 2 : 1); 杠吊 = ×4."""
    return (2 if jingdiao else 1) * (2 if gangshanghua else 1) * (2 if bahu else 1)


def dealer_factor(mode: str, winner: str, payer: str, dealer: str) -> int:
    """d_p: 庄 involved ×2, never ×4 (double_involved); every payer ×2 (tongzhuang_x2); none."""
    if mode == "none":
        return 1
    if mode == "tongzhuang_x2":
        return 2
    return 2 if dealer in (winner, payer) else 1


def weight(self_drawn: bool, payer: str, discarder: str | None) -> int:
    """w_p = 2 for 自摸 or for the discarder; the other payers of a discard win pay half."""
    return 2 if self_drawn or payer == discarder else 1


def base_amounts(h: int, m: int, winner: str, dealer: str, discarder: str | None, opts: ChongguanOptions) -> dict[str, int]:
    """a_p for every loser p of a win (discarder None = 自摸)."""
    self_drawn = discarder is None
    return {
        p: h * m * weight(self_drawn, p, discarder) * dealer_factor(opts.dealer_mode, winner, p, dealer)
        for p in SEATS
        if p != winner
    }


def ordinary_payments(h: int, m: int, german: bool, jingdiao: bool, winner: str, dealer: str,
                      discarder: str | None, opts: ChongguanOptions) -> dict[str, int]:
    """§6: pay_p = 德国 ? 2a + B : a; B = 5 from each 自摸 payer or from the discarder only."""
    a = base_amounts(h, m, winner, dealer, discarder, opts)
    out = {}
    for p, ap in a.items():
        bonus = GERMAN_BONUS if discarder in (None, p) else 0
        if german:
            out[p] = 2 * ap + bonus
        elif jingdiao and opts.jingdiao_bonus5:
            out[p] = ap + GERMAN_BONUS  # 南昌: 有精 精吊 +5 from each payer
        else:
            out[p] = ap
    return out


def robbed_kong_payment(h: int, m: int, german: bool, winner: str, dealer: str, konger: str,
                        opts: ChongguanOptions) -> int:
    """抢杠 "胡家按正常胡X2 德国抢奖5不翻倍，补杠家包付": the whole amount, paid by the konger (§6.2)."""
    g = 2 if german else 1
    b = GERMAN_BONUS if german else 0
    mode = opts.qianggang
    if mode == "ron_x2_bonus_once":
        a = base_amounts(h, m, winner, dealer, konger, opts)
        return 2 * g * sum(a.values()) + b
    a = base_amounts(h, m, winner, dealer, None, opts)  # 自摸 weights
    if mode == "selfdraw_all_by_konger":
        return sum(g * ap + b for ap in a.values())
    if mode == "selfdraw_x2_all_by_konger":
        return sum(2 * g * ap + b for ap in a.values())
    if mode == "konger_rate_x3":
        return 3 * (g * a[konger] + b)
    raise AssertionError(mode)


def flat_payment(jingdiao: bool, bahu: bool, german: bool, opts: ChongguanOptions) -> int:
    """天胡/地胡: T = T₀ × (精吊 ? 2 : 1) × (霸胡 ? 2 : 1); each loser pays T, or 2T + 5 if 德国."""
    t = TIANHU_BASE[opts.tianhu_mode] * (2 if jingdiao else 1) * (2 if bahu else 1)
    if german and opts.tianhu_german == "x2_plus5":
        return 2 * t + GERMAN_BONUS
    return t


def lianhua_discard_multiplier(discarded_zheng: int, discarded_fu: int) -> int:
    """莲花 打精: the 胡 score ×4 per discarded 正精 and ×2 per 副精 (2正1副 → ×32)."""
    return 4**discarded_zheng * 2**discarded_fu
