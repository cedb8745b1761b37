"""End-to-end in Debian's chromium (Playwright, no browser download): upload a real photo, fix a tile,
settle, see the ledger row and the totals — at desktop size and at phone size.

The time from photo upload to settlement on screen is logged (not asserted): the machine's part is
upload → photo result shown, plus the 结算 click → settlement shown (the player's taps in between
are not the app's time).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest

from tests.e2e.helpers import choose, tap, wait_for_rerun

DATASET = Path(os.environ.get("JINGSUAN_E2E_DATASET", "/work/shared/data/chinese-mahjong-detection-v4"))
LOG = Path(os.environ.get("JINGSUAN_E2E_LOG", Path(tempfile.gettempdir()) / "jingsuan-e2e-timings.log"))

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def real_photo() -> Path | None:
    """A real table photo: $JINGSUAN_E2E_PHOTO, else one from the shared CC BY 4.0 data set (read in place)."""
    env = os.environ.get("JINGSUAN_E2E_PHOTO")
    if env:
        return Path(env)
    found = sorted((DATASET / "valid" / "images").glob("*.jpg")) if DATASET.exists() else []
    return found[0] if found else None


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_photo_fix_settle_ledger(server: str, browser: object, viewport: str) -> None:
    photo = real_photo()
    if photo is None:  # CI without the shared data set: still drive the whole flow, and say so in the log
        from PIL import Image, ImageDraw

        photo = Path(tempfile.mkdtemp()) / "synthetic-no-real-photo.png"
        img = Image.new("RGB", (1280, 720), (30, 110, 60))
        for i in range(14):
            ImageDraw.Draw(img).rectangle((60 + i * 80, 300, 130 + i * 80, 400), fill="white", outline="black")
        img.save(photo)
    if viewport == "phone":
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    else:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.goto(server)
    page.get_by_role("heading", name="算分").wait_for()

    t0 = time.perf_counter()
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(photo))
    page.locator('[data-testid="stAlert"], [data-testid="stImage"]').first.wait_for()
    photo_s = time.perf_counter() - t0

    # The hand by palette taps (the detector, when installed, pre-fills it; start clean for a fixed hand)
    tap(page, "clear_hand")
    wait_for_rerun(page)
    for code in ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "6p", "5s"]:  # 6p is a mistake ...
        tap(page, f"pal_{code}")
        wait_for_rerun(page)
    tap(page, "hand_11")  # ... fixed with one tap on it and one on the palette
    wait_for_rerun(page)
    tap(page, "pal_3p")
    wait_for_rerun(page)
    page.locator(".st-key-hand_11 button", has_text="三筒").wait_for()
    choose(page, "win_tile", "五条")
    choose(page, "indicator", "北")
    wait_for_rerun(page)

    t1 = time.perf_counter()
    tap(page, "settle")
    page.locator('[data-testid="stTable"], [data-testid="stAlert"]:has-text("不能胡")').first.wait_for()
    settle_s = time.perf_counter() - t1
    LOG.parent.mkdir(parents=True, exist_ok=True)
    line = f"{viewport}: upload→photo result {photo_s:.2f} s, settle click→settlement {settle_s:.2f} s, app time {photo_s + settle_s:.2f} s ({photo.name})"
    with LOG.open("a", encoding="utf-8") as fh:
        fh.write(line + "\n")
    print(line)
    refusal = page.locator('[data-testid="stAlert"]:has-text("不能胡")')
    if refusal.count() and "尚未实现" in refusal.first.inner_text():
        pytest.skip("scoring core (scoring.chongguan) not merged yet: settlement refused as unavailable")
    assert page.locator('[data-testid="stTable"]').count() == 1, refusal.first.inner_text() if refusal.count() else ""

    tap(page, "confirm")
    page.get_by_text("已记入第").wait_for()
    page.goto(server + "ledger")
    page.get_by_role("heading", name="牌局").first.wait_for()
    page.locator('[data-testid="stDataFrame"]').wait_for()
    metrics = page.locator('[data-testid="stMetricValue"]').all_inner_texts()
    assert len(metrics) == 4 and sum(int(m.replace("−", "-")) for m in metrics) == 0
    assert int(metrics[0].replace("−", "-")) > 0  # 东 won
    ctx.close()
