"""The journey harness counts the scrolls a player must make and the page's height (tested on a plain page)."""

from __future__ import annotations

import pytest

from tests.e2e.journey import PHONE, Journey

pytestmark = [pytest.mark.e2e]

TALL = """
<html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin:0">
<button id="a" style="height:60px">A</button>
<div style="height:1500px"></div>
<button id="b" style="height:60px" onclick="document.getElementById('out').textContent='b'">B</button>
<div id="out"></div>
</body></html>
"""


def test_a_target_below_the_screen_costs_one_scroll_down_and_one_back_up(browser: object) -> None:
    ctx = browser.new_context(**PHONE)  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.set_content(TALL)
    trip = Journey(page)
    trip.tap(page.locator("#a"), "A", rerun=False)
    assert trip.scroll_count == 0
    trip.tap(page.locator("#b"), "B", rerun=False)
    assert page.locator("#out").inner_text() == "b"
    assert trip.scroll_count == 1 and trip.scrolls[0].pixels > 0 and trip.scrolls_back_up == 0
    trip.look_at(page.locator("#a"), "back to A")
    assert trip.scroll_count == 2 and trip.scrolls_back_up == 1
    assert 1.9 < trip.max_screens() < 2.1  # 60 + 1500 + 60 + text ≈ 1640 px of an 844 px screen
    assert "back to A" in trip.summary()
    ctx.close()
