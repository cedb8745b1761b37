"""A rule option chosen on 规则, then English, then Save: the choice is what is stored. Streamlit's browser keeps a
choice as its shown label, which names no option once the labels change language: 保存 said the rules were saved
and stored the preset's value instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.helpers import ARGS, CHROMIUM, app_server, wait_for_rerun
from tests.e2e.journey import DESKTOP

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_a_choice_made_before_english_is_the_one_saved(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    from app.ledger import Ledger

    with app_server(tmp_path) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_context(**DESKTOP).new_page()
        page.set_default_timeout(30000)
        page.goto(url + "rules")
        page.get_by_role("heading", name="规则").first.wait_for()
        choice = page.locator('[class*="st-key-opt_"][class*="_jing_claim"] input')
        choice.click()
        choice.fill("只能吃")  # 别人打出的精: only a chow may claim it
        page.keyboard.press("Enter")
        wait_for_rerun(page)
        page.locator('[data-testid="stSidebar"] label', has_text="English").first.click()
        page.get_by_role("heading", name="Rules").first.wait_for()
        wait_for_rerun(page)
        page.wait_for_timeout(500)
        assert choice.input_value() == "chow only"
        page.locator(".st-key-rules_save button").click()
        page.get_by_text("Rules saved").first.wait_for()
        browser.close()
    with Ledger(tmp_path / "ledger.sqlite3") as lg:
        assert lg.tables()[0].options == {"jing_claim": "chow_only"}
