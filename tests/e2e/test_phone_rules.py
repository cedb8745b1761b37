"""A preset change, then a settlement that shows the new preset's numbers (phone and desktop): 南 wins
有精平胡 on 西's discard, which 兴国 refuses and 南昌 allows; after choosing 南昌 on 规则 the round
entered by taps on 算分 settles, and the page shows 南昌's totals."""

from __future__ import annotations

import pytest

from scoring import RoundError, settle
from tests.e2e.helpers import choose
from tests.e2e.journey import open_score_page, small_targets
from tests.e2e.test_phone_journeys import enter_by_hand, settled, shot

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

HAND = ["2m", "4m", "5m", "6p", "7p", "8p", "2s", "3s", "4s", "7p", "8p", "9p", "5s"]  # 二万 stands for 三万
WIN, INDICATOR = "5s", "1m"


def round_doc(rules: str) -> dict:
    players = {s: {"jing": {"zheng": 0, "fu": 0}} for s in "EWN"}
    players["S"] = {"hand": "".join(HAND)}
    return {"rules": rules, "options": {}, "dealer": "E", "indicator": INDICATOR, "players": players,
            "win": {"seat": "S", "tile": WIN, "from": "W"}}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_after_choosing_nanchang_the_settlement_is_nanchangs(server: str, browser: object, size: str) -> None:
    with pytest.raises(RoundError):
        settle(round_doc("xingguo"))  # 兴国: no 有精平胡 on a discard
    want = settle(round_doc("nanchang")).to_dict()["total"]
    page, trip = open_score_page(browser, server, size)
    if size == "phone":
        trip.tap(page.locator(".st-key-page_bar a", has_text="规则"), "规则 in the page bar")
    else:
        page.goto(server + "rules")
    page.get_by_role("heading", name="规则").first.wait_for()
    choose(page, "preset_1", "南昌")
    page.get_by_text("与兴国不同").first.wait_for()
    if size == "phone":  # every option's ? (its option name and spec section) is thumb-sized too
        assert not small_targets(page), f"tap targets under 44 px: {small_targets(page)}"
    trip.tap(page.locator(".st-key-rules_save button"), "保存")
    page.get_by_text("已保存").first.wait_for()
    shot(page, f"{size}-rules-1-nanchang")

    if size == "phone":
        trip.tap(page.locator(".st-key-page_bar a", has_text="算分"), "算分 in the page bar")
    else:
        page.goto(server)
    page.get_by_role("heading", name="算分").wait_for()
    enter_by_hand(trip, page, HAND, WIN, INDICATOR)
    trip.tap(page.locator(".st-key-win_seat label", has_text="南"), "winner 南")
    trip.tap(page.locator(".st-key-win_from label", has_text="西"), "西 discarded")
    trip.tap(page.locator(".st-key-settle button"), "结算")
    table = settled(page)
    total = table.locator("tr", has_text="合计").first.inner_text().split()
    shot(page, f"{size}-rules-2-settled")
    assert [int(x.replace("−", "-")) for x in total[1:5]] == [want[s] for s in "ESWN"], total
    page.context.close()
