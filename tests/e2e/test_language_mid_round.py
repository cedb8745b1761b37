"""English chosen in the middle of a round (⚙ on a phone, the sidebar on a desktop) keeps the round as entered:
the selectors and radios show it in English, and 结算 settles it. Streamlit's browser keeps a choice as the
label it showed, which no longer names an option once the labels change language: the winner and how he won
showed nothing, 胡 / 翻精 stayed in Chinese, and 结算 refused the round ("'东·东家' is not one of E S W N")."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import wait_for_rerun
from tests.e2e.journey import open_score_page
from tests.e2e.test_phone_journeys import HAND, INDICATOR, enter_by_hand, settled

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def to_english(page: object, trip: object, size: str) -> None:
    """English, as a player at this screen size picks it."""
    if size == "phone":
        trip.tap(page.locator(".st-key-page_bar_settings button").first, "⚙", rerun=False)  # type: ignore[attr-defined]
        page.locator('[class*="st-key-lang_quick_"] label', has_text="English").first.click()  # type: ignore[attr-defined]
    else:
        page.locator('[data-testid="stSidebar"] label', has_text="English").first.click()  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Score").first.wait_for()  # type: ignore[attr-defined]
    wait_for_rerun(page)
    page.wait_for_timeout(500)  # type: ignore[attr-defined]
    if size == "phone":
        page.keyboard.press("Escape")  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_switching_to_english_mid_round_keeps_the_round(server: str, browser: object, size: str) -> None:
    page, trip = open_score_page(browser, server, size)
    enter_by_hand(trip, page, HAND[:13], HAND[13], INDICATOR)
    trip.tap(page.locator(".st-key-win_seat label", has_text="南"), "南 won")
    trip.tap(page.locator(".st-key-win_from label", has_text="西"), "西 discarded")
    to_english(page, trip, size)
    assert page.locator(".st-key-win_tile input").input_value() == HAND[13]
    assert page.locator(".st-key-indicator input").input_value() == INDICATOR
    assert page.locator(".st-key-win_seat label", has_text="South").locator("input").is_checked()
    assert page.locator(".st-key-win_from label", has_text="West").locator("input").is_checked()
    trip.tap(page.locator(".st-key-settle button"), "Settle")
    settled(page)
    page.context.close()  # type: ignore[attr-defined]
