"""The phone's page bar: fixed at the bottom on narrow screens only, with thumb-sized links, leaving room above."""

from __future__ import annotations

import re

from app.widgets.nav import BAR_HEIGHT, NARROW, page_bar_css


def test_the_bar_shows_only_on_narrow_screens_fixed_at_the_bottom() -> None:
    css = page_bar_css()
    assert css.startswith(".st-key-page_bar{display:none;}")
    narrow = css.split(f"@media (max-width:{NARROW - 0.02}px){{", 1)[1]
    assert "position:fixed" in narrow and "bottom:0" in narrow and "display:flex" in narrow


def test_links_are_thumb_sized_and_the_page_keeps_room_above_the_bar() -> None:
    css = page_bar_css()
    assert int(re.search(r"a\{min-height:(\d+)px", css).group(1)) >= 44
    assert f"padding-bottom:{BAR_HEIGHT + 40}px" in css
