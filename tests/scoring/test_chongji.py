"""冲击: the source's three rows (golden cj-*) as whole rounds, the 龙 cycle and 加龙 items."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from scoring import RoundError, settle
from scoring.chongji import long_of
from scoring.tiles import tile

GOLDEN = yaml.safe_load((Path(__file__).parent / "data" / "golden_other_systems.yaml").read_text("utf-8"))["cases"]
CJ_CASES = [c for c in GOLDEN if c["variant"] == "chongji"]
# indicator 1m -> 龙 = 2m; the hands hold k 龙 and no other 加龙 item (three suits, no 七对 ...)
HANDS = {1: ("345m678p234s99p7s2m", "7s"), 2: ("345m678p234s99p2m2m", "7s"), 3: ("345m678p234s9p2m2m2m", "7s")}


def doc(hand: str, win_tile: str, source: str, indicator: str = "1m", **win) -> dict:
    return {
        "rules": "chongji",
        "dealer": "E",
        "indicator": indicator,
        "players": {"S": {"hand": hand}},
        "win": {"seat": "S", "tile": win_tile, "from": source, **win},
    }


def test_golden_has_six_chongji_rows() -> None:
    assert len(CJ_CASES) == 6


@pytest.mark.parametrize("case", CJ_CASES, ids=[c["id"] for c in CJ_CASES])
def test_chongji_golden(case: dict) -> None:
    e = case["expected"]
    hand, win_tile = HANDS[e["long"]]
    if "discard" in e:
        s = settle(doc(hand, win_tile, "W")).to_dict()
        assert s["total"]["W"] == -e["discard"]["discarder"]
        assert s["total"]["E"] == s["total"]["N"] == -e["discard"]["others_each"]
    else:
        s = settle(doc(hand, win_tile, "self")).to_dict()
        assert s["total"]["E"] == s["total"]["W"] == s["total"]["N"] == -e["self_draw_each"]
    assert s["win"]["long"] == e["long"]


@pytest.mark.parametrize(("ind", "long"), [("1m", "2m"), ("9p", "1p"), ("4z", "1z"), ("5z", "7z"), ("7z", "6z")])
def test_long_is_the_tile_after_the_indicator(ind: str, long: str) -> None:
    assert long_of(tile(ind)) == tile(long)


def test_no_long_gets_wulonghui_plus_two() -> None:
    s = settle(doc("345m678p234s99p77s", "7s", "self")).to_dict()
    assert "无龙会" in s["win"]["names"] and s["win"]["value"] == 16


def test_seven_pairs_with_long_is_duiduipeng() -> None:
    s = settle(doc("1133m5577p99s11z2m", "4z", "W")).to_dict()
    assert "对对碰" in s["win"]["names"] and s["win"]["long"] == 2  # 1 龙 + 对对碰


def test_kong_draw_win_counts_as_self_draw() -> None:
    d = doc("345m678p99p7s2m", "7s", "self", after_kong=True)
    d["players"]["S"]["melds"] = [{"type": "angang", "tiles": "1111z"}]
    s = settle(d).to_dict()
    assert "扛爆" in s["win"]["names"] and s["win"]["self_drawn"]
    assert s["total"]["E"] == s["total"]["W"] == s["total"]["N"]


def test_non_winning_hand_refused() -> None:
    with pytest.raises(RoundError, match="不能和"):
        settle(doc("135m678p234s99p7s1z", "5z", "W"))


def test_more_than_two_claims_refused() -> None:
    d = doc("99p7s2m", "7s", "W")
    d["players"]["S"]["melds"] = [
        {"type": "peng", "tiles": "333m", "from": "W"},
        {"type": "peng", "tiles": "666p", "from": "N"},
        {"type": "chi", "tiles": "234s", "from": "E"},
    ]
    with pytest.raises(RoundError, match="超过两次"):
        settle(d)


def test_indicator_required() -> None:
    d = doc(*HANDS[1], "W")
    del d["indicator"]
    with pytest.raises(RoundError, match="indicator"):
        settle(d)


def test_malformed_rounds_are_refused_with_a_message_never_a_traceback() -> None:
    from scoring.errors import JingsuanError
    from tests.scoring.gb_helpers import mutated_docs

    for bad in mutated_docs(doc(*HANDS[1], "W"), 500):
        try:
            settle(bad)
        except JingsuanError as exc:
            assert exc.zh


def test_thirteen_unconnected_adds_one_long() -> None:
    # 147m 258p 369s 1234z + 5z (14 unconnected, no 龙 with indicator 9z? use 1m -> 龙 2m not held)
    s = settle(doc("147m258p369s1234z", "5z", "self")).to_dict()
    assert "十三不搭" in s["win"]["names"] and "无龙会" in s["win"]["names"]
    assert s["win"]["long"] == 3 and s["win"]["value"] == 18


def test_all_winds_needs_no_shape() -> None:
    s = settle(doc("1111222233344z", "4z", "self", indicator="7z")).to_dict()  # 龙 = 6z, none held
    assert "全风向" in s["win"]["names"]


def test_half_flush_and_tianhu_add_longs() -> None:
    d = doc("123456789m111z2z", "2z", "self", indicator="9p", special="tianhu")  # 龙 = 1p
    d["players"] = {"E": d["players"]["S"]}
    d["win"]["seat"] = "E"
    s = settle(d).to_dict()
    assert {"混一色", "天胡", "无龙会"} <= set(s["win"]["names"])
    assert s["win"]["long"] == 4 and s["total"]["S"] == -20


def test_last_tile_self_draw_is_haidilaoyue() -> None:
    s = settle(doc(*HANDS[1], "self", last_tile=True)).to_dict()
    assert "海底捞月" in s["win"]["names"] and s["win"]["long"] == 2
