"""永丰 "正精和副精都可以杠，杠分另外计算": a kong of four 精 earns 杠精 *and* its own 杠分 (issue 20).

chongguan.md (Changes 2026-12-04, §8, §9, §12): `yongfeng` sets `gangjing_plus_kong_pay = true`;
every other preset keeps 杠精 *instead of* 杠分. Indicator 1m: 正精 一万, 副精 二万, so a kong of
four 精 is a kong of 二万 (the indicator holds one 一万). S wins by self-draw with 345m678p789s5s + 5s
and the kong; N holds one 正精 (no 霸); E and W hold none.
"""

from __future__ import annotations

import pytest

from scoring import settle
from scoring.settlement import Settlement
from tests.scoring.chongguan_helpers import round_doc

HAND = "345m678p789s5s"


def _round(preset: str, meld: dict, **options: object) -> dict:
    return round_doc(HAND, "5s", melds=[meld], rules=preset, options=dict(options),
                     others={"N": {"jing": {"zheng": 1, "fu": 0}}})


def _paid(s: Settlement, note: str) -> dict[str, int]:
    """Gross amounts each payer pays S under one payment note (gangjing) or reason (gang)."""
    out: dict[str, int] = {}
    for p in s.payments:
        if p.payee == "S" and note in (p.note, p.reason):
            out[p.payer] = out.get(p.payer, 0) + p.amount
    return out


ANGANG = {"type": "angang", "tiles": "2222m"}
MINGGANG = {"type": "gang", "tiles": "2222m", "from": "W"}


def test_yongfeng_angang_of_four_fu_jing_earns_gangjing_and_the_kongs_own_pay() -> None:
    # §8 杠精: each other player pays gangjing_value = 20; §9 杠分 of an 暗杠: kong_pay.an = 2 each;
    # 永丰 pays both → E, W, N each pay 20 + 2 = 22 for the kong (S +66).
    s = settle(_round("yongfeng", ANGANG))
    assert _paid(s, "gangjing") == {"E": 20, "W": 20, "N": 20}
    assert _paid(s, "gang") == {"E": 2, "W": 2, "N": 2}
    assert s.to_dict()["deltas"]["gang"] == {"E": -2, "S": 6, "W": -2, "N": -2}


def test_yongfeng_minggang_of_four_jing_on_a_discard() -> None:
    # §8 碰杠精 (bao_penggang_jing): W, who discarded the fourth 二万, pays the whole 杠精 3 × 20 = 60;
    # §9 杠分 of a kong on a discard: kong_pay.ming = 2 from each other player
    # (direct_kong_paid_by_discarder is false in 永丰) → W pays 60 + 2, E and N pay 2.
    s = settle(_round("yongfeng", MINGGANG))
    assert _paid(s, "gangjing") == {"W": 60}
    assert _paid(s, "gang") == {"E": 2, "W": 2, "N": 2}


def test_yongfeng_minggang_paid_by_the_discarder_when_the_option_says_so() -> None:
    # direct_kong_paid_by_discarder: the discarder pays the kong's 3 × 2 = 6 alone, beside the 60.
    s = settle(_round("yongfeng", MINGGANG, direct_kong_paid_by_discarder=True))
    assert _paid(s, "gangjing") == {"W": 60}
    assert _paid(s, "gang") == {"W": 6}


@pytest.mark.parametrize("meld", [ANGANG, MINGGANG], ids=["angang", "minggang"])
def test_xingguo_keeps_gangjing_instead_of_the_kong_pay(meld: dict) -> None:
    # 兴国 (老K "杠精（不计杠分）"): the same rounds pay 杠精 only; nothing else changes.
    xg, yf = settle(_round("xingguo", meld)), settle(_round("yongfeng", meld))
    assert _paid(xg, "gangjing") == _paid(yf, "gangjing")
    assert _paid(xg, "gang") == {}
    xd, yd = xg.to_dict()["deltas"], yf.to_dict()["deltas"]
    assert xd["gang"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    for part in ("hu", "jing", "follow", "penalty"):
        assert xd.get(part) == yd.get(part)
    assert {p: yf.to_dict()["total"][p] - xg.to_dict()["total"][p] for p in "ESWN"} == yd["gang"]

