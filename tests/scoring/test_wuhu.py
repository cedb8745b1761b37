"""芜湖 2468 / 1234: every golden row of the source's 计算表, and whole rounds through scoring.settle."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from scoring import RoundError, settle
from scoring.wuhu import TABLES, hand_value

GOLDEN = yaml.safe_load((Path(__file__).parent / "data" / "golden_other_systems.yaml").read_text("utf-8"))["cases"]
WUHU_CASES = [c for c in GOLDEN if c["variant"] == "wuhu_2468"]


def test_golden_file_has_every_wuhu_row() -> None:
    assert len(WUHU_CASES) == 84


@pytest.mark.parametrize("case", WUHU_CASES, ids=[c["id"] for c in WUHU_CASES])
def test_wuhu2468_golden_row(case: dict) -> None:
    e = case["expected"]
    assert hand_value(TABLES["wuhu2468"], e["zhi"], e["ya"], e["zimo"]) == (e["others"], e["toujia"])


@pytest.mark.parametrize(
    ("zhi", "ya", "zimo", "expected"),
    [
        (8, 0, False, (3, 4)),  # round_half_up(1.6)=2 +1
        (8, 0, True, (6, 9)),  # round_half_up(3.2)=3 +3
        (10, 5, False, (5, 7)),  # round_half_up(3.0)=3 +2
        (12, 8, True, (12, 16)),  # round_half_up(8.0)=8 +4 (the public "315" table's 14 is wrong)
        (12, 7, True, (12, 16)),  # round_half_up(7.6)=8 +4
    ],
)
def test_wuhu1234_formula(zhi: int, ya: int, zimo: bool, expected: tuple[int, int]) -> None:
    assert hand_value(TABLES["wuhu1234"], zhi, ya, zimo) == expected


def round_doc(hand: str, tile: str, source: str, rules: str = "wuhu2468", melds: list | None = None, **win) -> dict:
    return {
        "rules": rules,
        "dealer": "E",
        "players": {"S": {"hand": hand, "melds": melds or []}},
        "win": {"seat": "S", "tile": tile, "from": source, **win},
    }


PINGCHENG = "234m56m88m111p999s"  # waits 4m/7m: not 押当; with 7m: 8 万 = 8支
KA8 = "567m79m22m456p999s"  # waits 8m only: 押当 押8; with 8m: 8 万


def test_ex1_pingcheng_ron_non_dealer_pays_6() -> None:
    s = settle(round_doc(PINGCHENG, "7m", "W")).to_dict()
    assert s["total"] == {"E": 0, "S": 6, "W": -6, "N": 0}
    assert s["win"]["zhi"] == 8 and not s["win"]["yadang"]


def test_ex1_pingcheng_ron_dealer_discarder_pays_8() -> None:
    s = settle(round_doc(PINGCHENG, "7m", "E")).to_dict()
    assert s["total"] == {"E": -8, "S": 8, "W": 0, "N": 0}


def test_ex2_zimo_all_three_pay_dealer_pays_20() -> None:
    s = settle(round_doc(PINGCHENG, "7m", "self")).to_dict()
    assert s["total"] == {"E": -20, "S": 48, "W": -14, "N": -14}


def test_ex3_yadang_ron_ya8() -> None:
    s = settle(round_doc(KA8, "8m", "W")).to_dict()
    assert s["win"]["yadang"] and s["win"]["ya"] == 8
    assert s["total"]["W"] == -12


def test_ex4_zimo_yadang_ya8() -> None:
    s = settle(round_doc(KA8, "8m", "self")).to_dict()
    assert s["total"] == {"E": -32, "S": 80, "W": -24, "N": -24}


def test_dealer_winner_gets_toujia_from_everyone() -> None:
    doc = round_doc(PINGCHENG, "7m", "self")
    doc["dealer"] = "S"
    assert settle(doc).to_dict()["total"] == {"E": -20, "S": 60, "W": -20, "N": -20}


def test_wuhu1234_round() -> None:
    s = settle(round_doc(PINGCHENG, "7m", "W", rules="wuhu1234")).to_dict()
    assert s["total"]["W"] == -3


def test_kongs_add_to_each_payment() -> None:
    # 9999s declared as 暗杠 (+4) instead of a concealed pung
    doc = round_doc("234m56m88m111p", "7m", "W", melds=[{"type": "angang", "tiles": "9999s"}])
    s = settle(doc).to_dict()
    assert s["deltas"]["hu"]["W"] == -6 and s["deltas"]["gang"]["W"] == -4


def test_zuizi_doubles_on_zimo() -> None:
    # 对对胡: 222m 555m 888m 11p 99s? -> pungs only; 9 万 (支 9)
    ron = settle(round_doc("222m555m888m11p99s", "1p", "W")).to_dict()
    zimo = settle(round_doc("222m555m888m11p99s", "1p", "self")).to_dict()
    assert "对对胡" in ron["win"]["zuizi"]
    base_ron = TABLES["wuhu2468"]
    assert ron["total"]["W"] == -(hand_value(base_ron, 9, 0, False)[0] + 5)
    assert zimo["total"]["W"] == -(hand_value(base_ron, 9, 0, True)[0] + 10)


def test_without_eight_of_a_suit_is_refused() -> None:
    with pytest.raises(RoundError, match="八支"):
        settle(round_doc("234m56m111p999s88p", "7m", "W"))


def test_winds_do_not_exist_in_wuhu() -> None:
    with pytest.raises(RoundError, match="芜湖麻将没有"):
        settle(round_doc("234m56m88m111p111z", "7m", "W"))


def test_no_chi_in_wuhu() -> None:
    doc = round_doc("56m88m111p999s", "7m", "W", melds=[{"type": "chi", "tiles": "234m", "from": "E"}])
    with pytest.raises(RoundError, match="不能吃"):
        settle(doc)


def test_not_a_winning_hand_is_refused() -> None:
    with pytest.raises(RoundError, match="不能和"):
        settle(round_doc(PINGCHENG, "9m", "W"))


def test_malformed_rounds_are_refused_with_a_message_never_a_traceback() -> None:
    from scoring.errors import JingsuanError
    from tests.scoring.gb_helpers import mutated_docs

    for doc in mutated_docs(round_doc(PINGCHENG, "7m", "W"), 500):
        try:
            settle(doc)
        except JingsuanError as exc:
            assert exc.zh


def test_explicit_ya_overrides_the_tile_rank() -> None:
    s = settle(round_doc(KA8, "8m", "W", ya=5)).to_dict()
    assert s["win"]["ya"] == 5 and s["total"]["W"] == -(hand_value(TABLES["wuhu2468"], 8, 5, False)[0])


def test_yadang_on_a_nine_needs_win_ya() -> None:
    # 78m waits 6m/9m -> not 押当; 单钓 9m is 押当 on a 9: needs win.ya
    with pytest.raises(RoundError, match="win.ya"):
        settle(round_doc("123456m111p999s9m", "9m", "W"))


def test_ya_on_a_two_sided_wait_is_refused() -> None:
    with pytest.raises(RoundError, match="只用于押当"):
        settle(round_doc(PINGCHENG, "7m", "W", ya=4))


def test_tongtian_and_sihe_are_zuizi() -> None:
    s = settle(round_doc("11112345678m99p", "9m", "W")).to_dict()  # 通天 + 四核 (four 1m, no kong)
    assert s["win"]["zuizi"] == ["通天", "四核"] and s["win"]["zhi"] == 12
    assert s["total"]["W"] == -(hand_value(TABLES["wuhu2468"], 12, 0, False)[0] + 10)


def test_gang_after_flower_not_doubled_on_zimo() -> None:
    doc = round_doc("234m56m88m111p", "7m", "self", melds=[{"type": "gang", "tiles": "9999s", "from": "N"}], after_kong=True)
    s = settle(doc).to_dict()
    assert s["win"]["zuizi"] == ["杠后开花"]
    assert s["deltas"]["hu"]["W"] == -(14 + 5) and s["deltas"]["gang"]["W"] == -2
