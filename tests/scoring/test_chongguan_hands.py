"""Concrete tiles → shape, 德国 / 精吊 flags and amounts: the tricky hands of issue #7.

Indicator 1m unless said otherwise: 正精 = 一万 (1m), 副精 = 二万 (2m).
"""

from __future__ import annotations

import pytest

from scoring import RoundError, settle
from scoring.chongguan.hand import Reading, hand_facts
from scoring.chongguan.presets import resolve_options
from scoring.round import parse_round
from tests.scoring.chongguan_helpers import hu_paid, round_doc


def facts(doc: dict) -> set[Reading]:
    preset = doc.get("rules", "xingguo")
    return set(hand_facts(parse_round(doc, preset, resolve_options(preset, doc.get("options")))).readings)


def win_of(doc: dict) -> dict:
    return settle(doc).to_dict()["win"]


def test_a_hand_that_is_both_xiaoqi_and_pinghu_is_scored_as_the_better_xiaoqi() -> None:
    doc = round_doc("334455p667788s9m", "9m")
    assert {Reading("pinghu", True), Reading("xiaoqi", True)} <= facts(doc)
    s = settle(doc).to_dict()
    assert s["win"]["shape"] == "xiaoqi" and s["win"]["german"]
    assert hu_paid(s) == {"E": 21, "W": 13, "N": 13}  # 小七德国 闲自摸 47, not 平胡德国 31


def test_jing_at_face_value_is_german_and_as_wildcard_is_youjing() -> None:
    face = win_of(round_doc("2m34m678p234s789p5s", "5s"))  # 二万 natural in 234m
    wild = round_doc("2m45m678p234s789p5s", "5s")  # 二万 has to stand for 三万
    assert face["german"] and face["names"][:2] == ["平胡", "德国"]
    assert not win_of(wild)["german"]
    assert hu_paid(settle(wild).to_dict()) == {"E": 4, "W": 2, "N": 2}


def test_jingdiao_waits_on_every_tile_and_an_ordinary_single_wait_does_not() -> None:
    jd = round_doc("2m345m678p234s789p", "9s")  # 13 tiles = 4 melds + a single 副精
    single = round_doc("5s345m678p234s789p", "5s")  # 13 tiles = 4 melds + a single 五条
    assert win_of(jd)["jingdiao"] and hu_paid(settle(jd).to_dict()) == {"E": 8, "W": 4, "N": 4}
    assert not win_of(single)["jingdiao"]
    for tile in ("1z", "9m", "5p"):  # 精吊 completes on anything
        assert win_of(round_doc("2m345m678p234s789p", tile))["jingdiao"]


def test_jingdiao_german_when_the_drawn_tile_pairs_the_single_jing() -> None:
    s = settle(round_doc("2m345m678p234s789p", "2m")).to_dict()
    assert s["win"]["jingdiao"] and s["win"]["german"]
    assert hu_paid(s) == {"E": 21, "W": 13, "N": 13}


def test_three_different_winds_are_a_sequence_but_winds_and_dragons_do_not_mix() -> None:
    assert win_of(round_doc("134z345m678p789s5s", "5s"))["shape"] == "pinghu"  # 东西北
    with pytest.raises(RoundError):
        settle(round_doc("125z345m678p789s5s", "5s"))  # 东南白
    assert win_of(round_doc("125z345m678p789s5s", "5s", options={"honor_seq_mixed": True}))["shape"] == "pinghu"


def test_qixing_needs_natural_honors_unless_jing_may_fill_one() -> None:
    # indicator 3p: 正精 三筒 (self-drawn, wild), the hand lacks 中
    doc = round_doc("147m258s1p123456z", "3p", indicator="3p")
    plain = settle(doc).to_dict()
    assert plain["win"]["shape"] == "shisanlan" and not plain["win"]["german"]
    assert hu_paid(plain) == {"E": 8, "W": 4, "N": 4}
    filled = settle(round_doc("147m258s1p123456z", "3p", indicator="3p", options={"qixing_jing_may_fill_honor": True}))
    assert filled.to_dict()["win"]["shape"] == "qixing"
    assert hu_paid(filled.to_dict()) == {"E": 16, "W": 8, "N": 8}


def test_qixing_with_jing_at_face_value_is_german() -> None:
    s = settle(round_doc("147m258p1234567z", "3s", indicator="1z")).to_dict()  # 东 正精, 南 副精 at face value
    assert s["win"]["shape"] == "qixing" and s["win"]["german"]
    assert hu_paid(s) == {"E": 37, "W": 21, "N": 21}


def test_a_kong_of_jing_earns_gangjing_instead_of_kong_pay() -> None:
    doc = round_doc("345m678p789s5s", "5s", melds=[{"type": "angang", "tiles": "2222m"}],
                    others={"N": {"jing": {"zheng": 1, "fu": 0}}})
    s = settle(doc)
    d = s.to_dict()
    assert d["jing"]["S"]["points"] == 4 and d["deltas"]["gang"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    gangjing = {p.payer: p.amount for p in s.payments if p.note == "gangjing"}
    assert gangjing == {"E": 20, "W": 20, "N": 20}
    assert d["deltas"]["jing"] == {"E": -4 - 2 - 20, "S": 12 + 60 - 2, "W": -4 - 2 - 20, "N": 6 - 4 - 20}


def test_an_ordinary_kong_pays_2_from_each() -> None:
    doc = round_doc("345m678p234s5s", "5s", melds=[{"type": "angang", "tiles": "9999s"}], after_kong=True)
    d = settle(doc).to_dict()
    assert d["deltas"]["gang"] == {"E": -2, "S": 6, "W": -2, "N": -2}
    assert d["win"]["gangshanghua"] and hu_paid(d) == {"E": 21, "W": 13, "N": 13}  # 平胡杠上花德国


def test_gangdiao_is_jingdiao_times_gangshanghua() -> None:
    doc = round_doc("2m345m678p234s", "5s", melds=[{"type": "angang", "tiles": "9999s"}], after_kong=True)
    d = settle(doc).to_dict()
    assert "杠吊" in d["win"]["names"] and hu_paid(d) == {"E": 16, "W": 8, "N": 8}


BAO_N = {"hand": "1m1m2m5z5z5z6z6z6z7z", "melds": [{"type": "chi", "tiles": "123m", "from": "W", "claimed": "1m"}]}


def bao_round(preset: str) -> dict:
    """N chows W's discarded 正精 and ends with 3 正精 + 2 副精 = 8 points; E holds one 副精."""
    return round_doc("345p678p789s345s5s", "5s", rules=preset,
                     others={"N": BAO_N, "E": {"jing": {"zheng": 0, "fu": 1}}, "W": {"jing": {"zheng": 0, "fu": 0}}})


def test_a_discarded_jing_claimed_into_chongguan_is_paid_by_the_discarder_alone() -> None:
    s = settle(bao_round("xingguo"))
    d = s.to_dict()
    assert d["jing"]["N"]["points"] == 8 and d["jing"]["N"]["value"] == 40
    assert [(p.payer, p.payee, p.amount) for p in s.payments if p.note == "bao"] == [("W", "N", 120)]
    assert d["deltas"]["jing"] == {"E": 3, "S": -1, "W": -121, "N": 119}


def test_bao_condition_caused_needs_the_claim_to_make_the_chongguan() -> None:
    d = settle(bao_round("jian_laok")).to_dict()  # 8 − 2 = 6 ≥ 5: N was in 冲关 anyway
    assert d["deltas"]["jing"] == {"E": 3 - 40, "S": -1 - 40, "W": -1 - 40, "N": 120 - 1}


def test_youjing_pinghu_cannot_win_on_a_discard_but_german_pinghu_can() -> None:
    with pytest.raises(RoundError) as err:
        settle(round_doc("2m45m678p234s789p5s", "5s", frm="W"))
    assert "点炮" in err.value.zh
    assert hu_paid(settle(round_doc("5s345m678p234s789p", "5s", frm="W")).to_dict()) == {"E": 4, "W": 9, "N": 2}


def test_youjing_pinghu_may_win_on_a_discard_in_nanchang() -> None:
    d = settle(round_doc("2m45m678p234s789p5s", "5s", frm="W", rules="nanchang")).to_dict()
    assert hu_paid(d) == {"E": 2, "W": 2, "N": 1}


def test_youjing_xiaoqi_may_win_on_a_discard() -> None:
    d = settle(round_doc("2m5m8m44p66p88s33z55z", "8m", frm="W")).to_dict()
    assert d["win"]["shape"] == "xiaoqi" and not d["win"]["german"]
    assert hu_paid(d) == {"E": 4, "W": 4, "N": 2}


def test_a_jingdiao_structure_cannot_win_on_a_discard() -> None:
    with pytest.raises(RoundError) as err:
        settle(round_doc("2m345m678p234s789p", "9s", frm="W"))
    assert "精吊" in err.value.zh


def test_bahu_when_nobody_holds_jing_doubles_the_hand() -> None:
    doc = round_doc("5s345m678p234s789p", "5s", others={"N": {"jing": {"zheng": 0, "fu": 0}}})
    d = settle(doc).to_dict()
    assert d["win"]["bahu"] and "霸胡" in d["win"]["names"]
    assert hu_paid(d) == {"E": 21, "W": 13, "N": 13}


def test_tianhu_jingdiao_pays_40_each() -> None:
    d = settle(round_doc("2m345m678p234s789p", "9s", seat="E", special="tianhu")).to_dict()
    assert d["win"]["jingdiao"] and d["win"]["flat"]
    assert hu_paid(d) == {"S": 40, "W": 40, "N": 40}


def test_lianhua_discarded_zheng_jing_multiplies_the_discarders_hu_by_4() -> None:
    w = {"hand": "1z1z1z2z2z2z3z3z3z4z4z4z5z", "discards": "1m"}
    d = settle(round_doc("5s345m678p234s789p", "5s", rules="lianhua", others={"W": w})).to_dict()
    assert hu_paid(d) == {"E": 13, "W": 9 * 4, "N": 9}


def test_unit_multiplies_every_amount() -> None:
    doc = round_doc("5s345m678p234s789p", "5s")
    doc["unit"] = 2
    d = settle(doc).to_dict()
    assert hu_paid(d) == {"E": 26, "W": 18, "N": 18} and sum(d["total"].values()) == 0


def test_the_explanation_names_shape_german_and_each_players_jing() -> None:
    d = settle(bao_round("xingguo")).to_dict()
    text = "\n".join(d["explanation"])
    assert "平胡、德国" in text and "8分 冲关 8×(8−3)=40" in text and "包精" in text


def test_meld_needs_natural_forbids_a_group_of_jing_alone() -> None:
    """Option meld_needs_natural: 3 declared kongs + 一万 and four 精 cannot make a meld and a pair."""
    from scoring.shapes import can_form

    five_p = [0] * 34
    five_p[13] = 1
    assert can_form(five_p, 4, 1, 1)  # 5p + 4 wilds: (5p w) + (w w w) by default
    assert not can_form(five_p, 4, 1, 1, strict=True)
    two = [0] * 34
    two[13] = two[22] = 1
    assert can_form(two, 3, 1, 1, strict=True)  # (5p w) + (5s w w)
