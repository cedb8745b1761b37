"""标注 in Debian's chromium: a box picked and the class of new boxes chosen, then English, then a tap, then 中文 again:
the box selectors speak the page's language and the picked box, its class and the new-box class stay. Streamlit's
browser keeps a choice as the label it showed: the selectors kept their Chinese labels after English was chosen, and
the next tap reset the picked box to #0 and new boxes to 一万 (1m)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.helpers import choose, wait_for_rerun
from tests.e2e.test_annotate_browser import plain_photo, settle

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TIMEOUT_MS = 45000
SELECTORS = ("ann_sel", "ann_sel_cls", "ann_new_cls")


def shown(page: object) -> tuple[str, ...]:
    """What the box picker, the box's class and the new-box class show."""
    return tuple(page.locator(f".st-key-{key} input").first.input_value() for key in SELECTORS)  # type: ignore[attr-defined]


def add_box(page: object, x1: int, shown_class: str) -> None:
    """A 40×60 box at x1 of the class shown as `shown_class`, added by hand."""
    choose(page, "ann_new_cls", shown_class)
    wait_for_rerun(page, TIMEOUT_MS)
    if not page.locator(".st-key-ann_x1 input").is_visible():  # type: ignore[attr-defined]  # the expander closes on a rerun
        page.locator('[data-testid="stExpander"] summary', has_text="手动添加").click()  # type: ignore[attr-defined]
    for key, value in (("ann_x1", x1), ("ann_x2", x1 + 40)):
        page.locator(f".st-key-{key} input").fill(str(value))  # type: ignore[attr-defined]
        page.keyboard.press("Enter")  # type: ignore[attr-defined]
        wait_for_rerun(page, TIMEOUT_MS)
    page.locator(".st-key-ann_add_btn button").click()  # type: ignore[attr-defined]
    settle(page)


def language(page: object, name: str, heading: str) -> None:
    """中文 / English in the sidebar."""
    page.locator('[data-testid="stSidebar"] label', has_text=name).first.click()  # type: ignore[attr-defined]
    page.get_by_role("heading", name=heading).first.wait_for()  # type: ignore[attr-defined]
    settle(page)


def test_the_box_selectors_follow_the_language_and_keep_the_picked_box(
    annotate_server: tuple[str, Path], browser: object, tmp_path: Path
) -> None:
    url, _ = annotate_server
    page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()  # type: ignore[attr-defined]
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url + "annotate")
    page.get_by_role("heading", name="标注").wait_for()
    wait_for_rerun(page, TIMEOUT_MS)
    photo = plain_photo(tmp_path, "language.png", (70, 40, 110))
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(photo))
    page.get_by_text("已加入 1 张照片").wait_for()
    settle(page)
    for x1, shown_class in ((10, "五筒"), (60, "七条"), (110, "中")):
        add_box(page, x1, shown_class)
    choose(page, "ann_sel", "#1")
    settle(page)
    assert shown(page) == ("#1 七条 7s", "七条 7s", "中 7z")

    language(page, "English", "Annotate")
    assert shown(page) == ("#1 7s", "7s", "7z")  # they said '#1 七条 7s', '七条 7s', '中 7z'
    page.locator(".st-key-ann_zoom button").nth(1).click()  # any tap: zoom 2×
    settle(page)
    assert shown(page) == ("#1 7s", "7s", "7z")  # it went to '#0 5p', '5p', '1m'

    language(page, "中文", "标注")
    assert shown(page) == ("#1 七条 7s", "七条 7s", "中 7z")
    page.locator(".st-key-ann_zoom button").nth(0).click()
    settle(page)
    assert shown(page) == ("#1 七条 7s", "七条 7s", "中 7z")
    page.context.close()
