"""After 确认记账 the next round starts clean in the browser, not only in the server's session: the 胡 and 翻精
selectors show nothing and 结算 asks for them (Streamlit's browser keeps a widget's last value when the server
merely forgets it, and sends it back with the next tap: the recorded round's 翻精 was silently carried on)."""

from __future__ import annotations

import pytest

from tests.e2e.journey import open_score_page
from tests.e2e.test_phone_journeys import HAND, INDICATOR, enter_by_hand, settle_and_record

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def selector_text(page: object, key: str) -> str:
    """The option a selectbox shows ('' while nothing is chosen)."""
    return page.locator(f".st-key-{key} input").input_value().strip()  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_recorded_round_leaves_the_next_round_empty(server: str, browser: object, size: str) -> None:
    page, trip = open_score_page(browser, server, size)
    enter_by_hand(trip, page, HAND[:13], HAND[13], INDICATOR)
    settle_and_record(trip, page)
    page.wait_for_timeout(500)  # type: ignore[attr-defined]
    assert selector_text(page, "win_tile") == "" and selector_text(page, "indicator") == ""
    trip.tap(page.locator(".st-key-settle button"), "结算 on the new, empty round")  # type: ignore[attr-defined]
    said = page.locator('[data-testid="stAlert"]', has_text="请先选翻精")  # type: ignore[attr-defined]
    said.first.wait_for(timeout=20000)
    assert not page.locator('[data-testid="stTable"]').count()  # type: ignore[attr-defined]
    page.context.close()  # type: ignore[attr-defined]
