"""Language and table on a 390×844 touch screen without opening the hidden sidebar: ⚙ in the page bar opens
both choices on screen, and picking English turns the page into English."""

from __future__ import annotations

import pytest

from tests.e2e.journey import open_score_page
from tests.e2e.test_phone_journeys import shot

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_the_page_bars_gear_switches_the_language_on_a_phone(server: str, browser: object) -> None:
    page, trip = open_score_page(browser, server, "phone")
    page.wait_for_function("() => { const b = document.querySelector('.st-key-page_bar');"  # type: ignore[attr-defined]
                           " return !!b && getComputedStyle(b).position === 'fixed'; }")  # the phone style is on
    gear = page.locator(".st-key-page_bar_settings button").first  # type: ignore[attr-defined]
    box = gear.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44 and box["x"] + box["width"] <= 390, box
    assert box["y"] >= 844 - 80, f"⚙ is not in the bar at the bottom: {box}"
    trip.tap(gear, "⚙", rerun=False)
    english = page.get_by_test_id("stPopoverBody").get_by_text("English")  # type: ignore[attr-defined]
    english.wait_for()
    shown = english.bounding_box()
    assert shown and 0 <= shown["y"] <= 844 - shown["height"], f"the choice is off screen: {shown}"
    page.locator('[class*="st-key-table_quick_"]').wait_for()  # type: ignore[attr-defined]  # the table picker is there too
    shot(page, "phone-settings")
    trip.tap(english, "English")
    page.get_by_role("heading", name="Score").wait_for()  # type: ignore[attr-defined]
    page.context.close()  # type: ignore[attr-defined]
