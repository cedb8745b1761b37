"""流局 (§10), 跟庄 and 诈胡 (§9) with concrete rounds."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import settle

JING = {"E": (1, 0), "S": (2, 2), "W": (0, 1), "N": (0, 0)}  # 精 points E 2, S 6, W 1, N 0


def draw(preset: str, follow: int = 1) -> dict[str, Any]:
    players: dict[str, Any] = {s: {"jing": {"zheng": z, "fu": f}} for s, (z, f) in JING.items()}
    players["W"]["melds"] = [{"type": "angang", "tiles": "9999s"}]
    return {"rules": preset, "dealer": "E", "indicator": "1m", "players": players, "win": None, "follow_dealer": follow}


@pytest.mark.parametrize("preset", ["xingguo", "nanchang", "jian", "lianhua"])
def test_a_draw_is_void_in_xingguo(preset: str) -> None:
    d = settle(draw(preset)).to_dict()
    assert d["total"] == {"E": 0, "S": 0, "W": 0, "N": 0} and d["win"] is None


def test_a_draw_settles_only_jing_under_laok() -> None:
    d = settle(draw("jian_laok")).to_dict()
    assert d["deltas"]["jing"] == {"E": -13, "S": 51, "W": -17, "N": -21}
    assert d["total"] == d["deltas"]["jing"]


def test_a_draw_settles_everything_but_hu_in_yongfeng() -> None:
    d = settle(draw("yongfeng")).to_dict()
    assert d["deltas"]["gang"] == {"E": -2, "S": -2, "W": 6, "N": -2}
    assert d["deltas"]["follow"] == {"E": -15, "S": 5, "W": 5, "N": 5}
    assert d["total"] == {"E": -30, "S": 54, "W": -6, "N": -18}


def test_dealer_stays_on_a_draw() -> None:
    assert settle(draw("xingguo")).to_dict()["next_dealer"] == "E"


def test_genzhuang_repeats_in_xingguo_and_pays_once_in_yongfeng() -> None:
    assert settle(draw("non", 0) | {"rules": "yongfeng", "follow_dealer": 2}).to_dict()["deltas"]["follow"]["E"] == -15
    doc = draw("xingguo", 2)
    doc["options"] = {"draw_settlement": "non_hu"}
    assert settle(doc).to_dict()["deltas"]["follow"] == {"E": -30, "S": 10, "W": 10, "N": 10}


def test_false_win_costs_20_to_each_and_the_offender_still_settles_jing() -> None:
    doc = draw("jian_laok", 0)
    doc["false_win"] = ["S"]
    d = settle(doc).to_dict()
    assert d["deltas"]["penalty"] == {"E": 20, "S": -60, "W": 20, "N": 20}
    assert d["deltas"]["jing"]["S"] == 51


def test_every_component_sums_to_zero() -> None:
    d = settle(draw("yongfeng", 3)).to_dict()
    assert all(sum(c.values()) == 0 for c in d["deltas"].values()) and sum(d["total"].values()) == 0
