"""Refused rounds (round-format.md): each refusal says what is wrong, in Chinese and English."""

from __future__ import annotations

import pytest

from scoring import RoundError, settle
from tests.scoring.chongguan_helpers import round_doc

GOOD = ("345m678p234s789p5s", "5s")


def refusal(doc: dict) -> RoundError:
    with pytest.raises(RoundError) as err:
        settle(doc)
    assert err.value.zh and err.value.en
    return err.value


def test_a_good_round_settles() -> None:
    assert settle(round_doc(*GOOD)).to_dict()["win"]["shape"] == "pinghu"


def test_winner_with_too_few_tiles_is_refused_naming_the_count() -> None:
    err = refusal(round_doc("345m678p234s789p", "5s"))
    assert "13张" in err.zh and "14" in err.zh


def test_other_player_with_wrong_count_is_refused_unless_xianggong() -> None:
    doc = round_doc(*GOOD, others={"W": {"hand": "123m"}})
    assert "西家" in refusal(doc).zh
    doc["players"]["W"]["xianggong"] = True
    assert settle(doc).total["W"] <= 0


def test_a_fifth_copy_is_refused_naming_the_tile() -> None:
    err = refusal(round_doc("555m678p234s789p5s", "5s", others={"W": {"hand": "5m5m1z1z1z2z2z2z3z3z3z4z4z"}}))
    assert "五万" in err.zh and "5m" in err.en


def test_the_indicator_counts_as_one_copy() -> None:
    doc = round_doc("111m678p234s789p5s", "5s", indicator="1m", others={"W": {"hand": "1m2z2z2z3z3z3z4z4z4z5z5z5z"}})
    err = refusal(doc)
    assert "翻开的精牌也算一张" in err.zh
    doc["options"] = {"indicator_drawable": True}
    assert settle(doc).to_dict()["win"]


def test_an_unknown_tile_code_is_refused() -> None:
    err = refusal(round_doc("345m678p234s789p8z", "5s"))
    assert "8z" in err.zh


def test_a_chi_not_from_the_previous_seat_is_refused() -> None:
    meld = {"type": "chi", "tiles": "345m", "from": "W", "claimed": "4m"}
    err = refusal(round_doc("678p234s789p5s", "5s", melds=[meld]))
    assert "上家" in err.zh
    meld["from"] = "E"  # 上家 of S
    assert settle(round_doc("678p234s789p5s", "5s", melds=[meld])).to_dict()["win"]


def test_a_seat_whose_jing_is_unknown_is_refused_unless_assumed_zero() -> None:
    doc = round_doc(*GOOD)
    del doc["players"]["W"]
    assert "西家的精" in refusal(doc).zh
    doc["options"] = {"assume_unknown_jing_zero": True}
    assert settle(doc).to_dict()["jing"]["W"]["points"] == 0


def test_a_xianggong_winner_is_refused() -> None:
    doc = round_doc(*GOOD)
    doc["players"]["S"]["xianggong"] = True
    assert "相公" in refusal(doc).zh


def test_after_kong_needs_a_kong_of_the_winner() -> None:
    assert "杠" in refusal(round_doc(*GOOD, after_kong=True)).zh


def test_robbed_kong_needs_the_konger_to_hold_the_pung() -> None:
    doc = round_doc("345m789s234s55p67p", "8p", frm="W", robbed_kong=True,
                    others={"W": {"hand": "1z1z1z2z2z2z3z3z3z4z", "melds": [{"type": "peng", "tiles": "999p", "from": "N"}]}})
    assert "抢杠" in refusal(doc).zh


def test_unknown_option_and_bad_option_value_are_refused() -> None:
    assert "未知的选项" in refusal(round_doc(*GOOD, options={"no_such_option": 1})).zh
    assert "qianggang" in refusal(round_doc(*GOOD, options={"qianggang": "whatever"})).zh


def test_unknown_rules_are_refused() -> None:
    assert "未知的规则" in refusal(round_doc(*GOOD, rules="martian")).zh


def test_a_hand_that_is_not_complete_says_so() -> None:
    err = refusal(round_doc("135m678p234s789p5s", "9s"))
    assert "不能胡" in err.zh and "平胡" in err.zh


def test_tianhu_needs_the_dealer() -> None:
    assert "天胡" in refusal(round_doc(*GOOD, special="tianhu")).zh


def test_non_mapping_documents_are_refused() -> None:
    with pytest.raises(RoundError):
        settle([1, 2, 3])  # type: ignore[arg-type]
    with pytest.raises(RoundError):
        settle(round_doc(*GOOD) | {"players": "nope"})


def test_every_rule_system_reads_melds_and_the_win_into_the_same_model() -> None:
    from scoring.chongguan.presets import XINGGUO
    from scoring.melds import Meld
    from scoring.round import parse_round, parse_simple_round

    doc = round_doc("345m678p234s5s", "5s", frm="W", melds=[{"type": "peng", "tiles": "999s", "from": "N"}])
    chongguan, other = parse_round(doc, "xingguo", XINGGUO), parse_simple_round(doc)
    assert chongguan.players["S"].melds == other.players["S"].melds
    assert isinstance(other.players["S"].melds[0], Meld) and other.players["S"].melds[0].from_seat == "N"
    assert chongguan.win == other.win and other.win is not None and other.win.from_seat == "W"
    assert other.win.raw["from"] == "W"


@pytest.mark.parametrize("bad", [5, "W", {"W": True}])
def test_false_win_that_is_not_a_list_of_seats_is_refused_with_an_example(bad: object) -> None:
    doc = round_doc(*GOOD)
    doc["false_win"] = bad
    err = refusal(doc)
    assert "诈胡" in err.zh and "[W]" in err.zh


@pytest.mark.parametrize("claimed", ["", "1z", "23m"])
def test_gb_chi_claimed_tile_must_be_one_tile_of_the_chi(claimed: str) -> None:
    from tests.scoring.gb_helpers import gb_doc

    doc = gb_doc("123p456p789p5s", "5s", melds="chi:234m")
    doc["players"]["S"]["melds"][0]["claimed"] = claimed
    err = refusal(doc)
    assert "吃进来的那张" in err.zh


def test_gb_chi_with_a_claimed_tile_of_the_chi_still_settles() -> None:
    from tests.scoring.gb_helpers import gb_doc

    doc = gb_doc("123p456p789p5s", "5s", melds="chi:234m")
    doc["players"]["S"]["melds"][0]["claimed"] = "3m"
    assert settle(doc).total["S"] > 0
