"""Page switching on a phone without the hidden sidebar: a bar of page links fixed at the bottom of the
screen (on narrow screens only; wider screens keep Streamlit's own navigation)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

BAR_KEY = "page_bar"
#: Below this width (CSS pixels) Streamlit folds its navigation into the hidden sidebar.
NARROW = 768
BAR_HEIGHT = 60


def page_bar_css(key: str = BAR_KEY, narrow: int = NARROW, height: int = BAR_HEIGHT) -> str:
    """Fixed bottom bar on narrow screens, hidden on wide ones; the page keeps room above it."""
    return (
        f".st-key-{key}{{display:none;}}"
        f"@media (max-width:{narrow - 0.02}px){{"
        f".st-key-{key}{{display:flex;position:fixed;left:0;right:0;bottom:0;z-index:999990;height:{height}px;"
        "padding:4px 6px calc(4px + env(safe-area-inset-bottom));box-sizing:content-box;background:#ffffff;"
        "border-top:1px solid rgba(49,51,63,0.2);align-items:center;justify-content:space-around;}"
        f".st-key-{key} a{{min-height:48px;min-width:64px;justify-content:center;}}"
        f'[data-testid="stMainBlockContainer"]{{padding-bottom:{height + 40}px;}}'
        "}"
    )


def page_bar(pages: Sequence[Any], key: str = BAR_KEY) -> None:
    """One link per page (icon and title) in the bottom bar; the current page is marked by Streamlit."""
    st.html(f"<style>{page_bar_css(key)}</style>")
    with st.container(key=key, horizontal=True, horizontal_alignment="distribute", gap=None):
        for page in pages:
            st.page_link(page, label=page.title, icon=page.icon or None)
