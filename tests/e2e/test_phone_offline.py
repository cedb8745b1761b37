"""Offline: opening every page in chromium (phone size, with a photo read and the tile pictures drawn)
asks nothing of any host but the app's own — no fonts, scripts, pictures or telemetry from outside."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.e2e.helpers import wait_for_rerun
from tests.e2e.journey import PHONE
from tests.e2e.test_phone_journeys import glare_photo

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

LOCAL = {"127.0.0.1", "localhost", ""}


def test_every_page_asks_only_the_app_itself(server: str, browser: object, tmp_path: Path) -> None:
    ctx = browser.new_context(**PHONE)  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.set_default_timeout(30000)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(server)
    page.get_by_role("heading", name="算分").wait_for()
    page.locator('[data-testid="stFileUploader"] input[type="file"]').first.set_input_files(str(glare_photo(tmp_path / "hand.png")))
    page.locator(".jt-photo img").wait_for()
    page.locator(".st-key-hand_0 button").wait_for()
    for path, heading in (("ledger", "牌局"), ("rules", "规则"), ("annotate", "标注")):
        page.goto(server + path)
        page.get_by_role("heading", name=heading).first.wait_for()
        wait_for_rerun(page)
    page.wait_for_timeout(1000)
    ctx.close()
    outside = sorted({u for u in asked if urlparse(u).scheme not in ("data", "blob") and urlparse(u).hostname not in LOCAL})
    assert not outside, f"requests to other hosts: {outside}"
    assert any(urlparse(u).hostname in LOCAL for u in asked)
