"""Driving the app in Streamlit's AppTest as a player would: its entry script, taps, page changes."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

MAIN = str(Path(__file__).resolve().parents[2] / "app" / "main.py")


def tap(at: AppTest, *keys: str) -> AppTest:
    """Click the buttons with these keys in turn; none may raise."""
    for key in keys:
        at.button(key=key).click().run()
        assert not at.exception, at.exception
    return at


def open_page(at: AppTest, url_path: str) -> AppTest:
    """Go to a page registered as a callable (AppTest.switch_page only knows page files)."""
    from streamlit.util import calc_hash

    at._page_hash = calc_hash(url_path)
    at.run()
    assert not at.exception, at.exception
    return at
