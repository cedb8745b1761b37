"""Page switching on a phone without the hidden sidebar: a bar of page links fixed at the bottom of the
screen (on narrow screens only; wider screens keep Streamlit's own navigation), with a ⚙ that opens the
sidebar's language and table choices above it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

BAR_KEY = "page_bar"
#: Below this width (CSS pixels) Streamlit folds its navigation into the hidden sidebar.
NARROW = 768
BAR_HEIGHT = 60
#: The widget keys of the ⚙ choices, each followed by the value it shows (the sidebar's own are "lang" and its
#: table selectbox): a choice made elsewhere makes a new widget instead of the app setting this one's value,
#: which a tap landing before the browser drew it would send back old, and its on_change would undo the choice.
LANG_KEY, TABLE_KEY = "lang_quick", "table_quick"


def page_bar_css(key: str = BAR_KEY, narrow: int = NARROW, height: int = BAR_HEIGHT) -> str:
    """Fixed bottom bar on narrow screens, hidden on wide ones; the page keeps room above it."""
    return (
        f".st-key-{key}{{display:none;}}"
        f"@media (max-width:{narrow - 0.02}px){{"
        f".st-key-{key}{{display:flex;position:fixed;left:0;right:0;bottom:0;z-index:999990;height:{height}px;"
        "padding:4px 6px calc(4px + env(safe-area-inset-bottom));box-sizing:content-box;background:#ffffff;"
        "border-top:1px solid rgba(49,51,63,0.2);align-items:center;justify-content:space-around;}"
        f".st-key-{key} a{{min-height:48px;min-width:64px;justify-content:center;}}"
        f".st-key-{key} button{{min-height:48px;min-width:48px;padding:0 8px;}}"
        f'[data-testid="stMainBlockContainer"]{{padding-bottom:{height + 40}px;}}'
        "}"
    )


def _copy(source: str, target: str) -> None:
    """A ⚙ choice made: it becomes the app's own (the sidebar shows it too)."""
    st.session_state[target] = st.session_state[source]


def table_and_language() -> None:
    """The sidebar's language and table choices, for a phone whose sidebar is folded away."""
    from app.views.common import current_table, get_ledger, tr

    lang = str(st.session_state.get("lang", "zh"))
    langs = ["zh", "en"]
    key = f"{LANG_KEY}_{lang}"
    st.radio(tr("language"), langs, index=langs.index(lang) if lang in langs else 0, key=key, horizontal=True,
             format_func=lambda x: "中文" if x == "zh" else "English", on_change=_copy, args=(key, "lang"))
    ledger = get_ledger()
    if ledger is None:
        return
    tables = {tb.id: tb.name for tb in ledger.tables()}
    table = current_table(ledger).id
    key = f"{TABLE_KEY}_{table}"
    st.selectbox(tr("table"), list(tables), index=list(tables).index(table), key=key,
                 format_func=lambda i: tables.get(i, str(i)), on_change=_copy, args=(key, "table_id"))


def page_bar(pages: Sequence[Any], key: str = BAR_KEY, settings: Callable[[], None] | None = table_and_language) -> None:
    """One link per page (icon and title) in the bottom bar, the current page marked by Streamlit, and ⚙ with
    `settings` (language and table) last."""
    st.html(f"<style>{page_bar_css(key)}</style>")
    with st.container(key=key, horizontal=True, horizontal_alignment="distribute", gap=None):
        for page in pages:
            st.page_link(page, label=page.title, icon=page.icon or None)
        if settings is not None:
            with st.popover("⚙", key=f"{key}_settings"):
                settings()
