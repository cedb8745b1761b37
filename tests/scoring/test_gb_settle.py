"""国标 settlement through scoring.settle: the (8+番) formula, the 8-番 minimum, refusals."""

from __future__ import annotations

import pytest

from scoring import RoundError, settle
from tests.scoring.gb_helpers import gb_doc

# 花龙 8 + 门前清 2 + 单钓将 1 = 11 on a discard; 花龙 8 + 不求人 4 + 单钓将 1 = 13 self-drawn
HUALONG = dict(hand="123m456s789p567m1z", win="1z")


def test_self_draw_each_loser_pays_8_plus_fan() -> None:
    s = settle(gb_doc(**HUALONG, zimo=True, flowers=2)).to_dict()
    assert s["win"]["fans"] == [["花龙", 8], ["不求人", 4], ["单钓将", 1], ["花牌", 2]]
    assert s["win"]["total_fan"] == 15
    assert s["total"] == {"E": -23, "S": 69, "W": -23, "N": -23}


def test_discard_discarder_pays_8_plus_fan_others_8() -> None:
    s = settle(gb_doc(**HUALONG)).to_dict()
    assert s["win"]["total_fan"] == 11
    assert s["total"] == {"E": -8, "S": 8 + 19 + 8, "W": -19, "N": -8}


def test_below_eight_fan_is_refused_even_with_flowers() -> None:
    # 门前清 2 + 单钓将 1 = 3 番; eight flowers do not lift it to the minimum
    with pytest.raises(RoundError, match="不够八番"):
        settle(gb_doc(hand="234m456p678s345m5z", win="5z", flowers=8))


def test_chicken_hand_is_8_and_may_win() -> None:
    s = settle(gb_doc(hand="45s789s11z", win="3s", melds="chi:234m chi:678p")).to_dict()
    assert s["win"]["fans"] == [["无番和", 8]]
    assert s["total"]["W"] == -16


def test_not_a_winning_hand_is_refused() -> None:
    with pytest.raises(RoundError, match="不能和"):
        settle(gb_doc(hand="123m456s789p567m1z", win="2z"))


def test_wrong_tile_count_is_refused() -> None:
    with pytest.raises(RoundError, match="14"):
        settle(gb_doc(hand="123m456s789p567m", win="1z"))


def test_fifth_copy_is_refused() -> None:
    with pytest.raises(RoundError, match="四张"):
        settle(gb_doc(hand="1111m456s789p567m", win="1m"))


def test_bad_wind_and_flower_values_are_refused() -> None:
    with pytest.raises(RoundError, match="seat_wind"):
        settle(gb_doc(**HUALONG, seat_wind="X"))
    with pytest.raises(RoundError, match="花牌数"):
        settle(gb_doc(**HUALONG, flowers=9))


def test_flowers_may_be_listed() -> None:
    s = settle(gb_doc(**HUALONG, flowers=["春", "梅", "兰"])).to_dict()
    assert ["花牌", 3] in s["win"]["fans"]


def test_seat_wind_defaults_to_position_from_dealer() -> None:
    # S wins, dealer E -> 门风 南: a 南 pung is 门风刻
    doc = gb_doc(hand="222z234m789p456s1s", win="1s", melds="")
    doc["win"]["prevalent_wind"] = "W"
    names = settle_names(doc)
    assert "门风刻" in names and "圈风刻" not in names
    doc["dealer"] = "S"  # now S is 东
    assert "门风刻" not in settle_names(doc, allow_low=True)


def settle_names(doc: dict, allow_low: bool = False) -> list[str]:
    from scoring.gb.calculator import calculate, fan_list
    from scoring.gb.round_input import gb_hand
    from scoring.round import parse_simple_round

    return [n for n, _ in fan_list(calculate(gb_hand(parse_simple_round(doc))))]


def test_after_kong_needs_self_draw_and_a_kong() -> None:
    with pytest.raises(RoundError, match="杠上开花"):
        settle(gb_doc(**HUALONG, after_kong=True))
    with pytest.raises(RoundError, match="杠"):
        settle(gb_doc(**HUALONG, zimo=True, after_kong=True))


def test_draw_settles_nothing() -> None:
    doc = gb_doc(**HUALONG)
    doc["win"] = None
    assert settle(doc).to_dict()["total"] == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_chi_only_from_previous_seat() -> None:
    doc = gb_doc(hand="45s789s11z", win="3s", melds="chi:234m chi:678p")
    doc["players"]["S"]["melds"][0]["from"] = "W"
    with pytest.raises(RoundError, match="上家"):
        settle(doc)


def test_malformed_rounds_are_refused_with_a_message_never_a_traceback() -> None:
    from scoring.errors import JingsuanError
    from tests.scoring.gb_helpers import mutated_docs

    for doc in mutated_docs(gb_doc(**HUALONG, flowers=1), 800):
        try:
            settle(doc)
        except JingsuanError as exc:
            assert exc.zh
