"""Streamlit entry: `streamlit run app/main.py` (what `jingsuan app` starts).

Pages (st.navigation, each a `render` callable of `app.views`): 算分, 牌局, 规则, 标注.
When served beyond localhost, the access gate in front of Streamlit (app/gate.py, served by
app/server/asgi.py) admits only browsers with its cookie.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from app.i18n import uploader_style  # noqa: E402
from app.views import annotate, rules, score  # noqa: E402
from app.views import ledger as ledger_view  # noqa: E402
from app.views.common import current_table, get_ledger, ledger_path, tr  # noqa: E402
from app.widgets.nav import page_bar  # noqa: E402
from app.widgets.phone import compact_on_phone  # noqa: E402


def sidebar() -> None:
    """Language switch, table picker (and a new table), the data folder."""
    with st.sidebar:
        st.radio(
            tr("language"),
            ["zh", "en"],
            format_func=lambda x: "中文" if x == "zh" else "English",
            key="lang",
            horizontal=True,
        )
        ledger = get_ledger()
        if ledger is not None:
            table = current_table(ledger)
            tables = ledger.tables()
            ids = [tb.id for tb in tables]
            pick = st.selectbox(
                tr("table"),
                ids,
                index=ids.index(table.id),
                format_func=lambda i: next(tb.name for tb in tables if tb.id == i),
            )
            if pick != table.id:
                st.session_state["table_id"] = pick
                st.rerun()
            with st.expander(tr("new_table")), st.form("new_table", clear_on_submit=True):
                name = st.text_input(tr("table_name"), key="new_table_name")
                if st.form_submit_button(tr("create")):
                    st.session_state["table_id"] = ledger.create_table(
                        name or f"牌桌 {len(tables) + 1}", {}, table.rules, table.options, table.unit
                    )
                    st.rerun()
        st.caption(f"{tr('data_dir')}: {ledger_path().parent}")


def pages() -> list[st.Page]:
    """The app's pages, each the `render` function of its view."""
    return [
        st.Page(score.render, title=tr("page_score"), icon=":material/calculate:", url_path="score", default=True),
        st.Page(ledger_view.render, title=tr("page_ledger"), icon=":material/menu_book:", url_path="ledger"),
        st.Page(rules.render, title=tr("page_rules"), icon=":material/gavel:", url_path="rules"),
        st.Page(annotate.render, title=tr("page_annotate"), icon=":material/label:", url_path="annotate"),
    ]


def main() -> None:
    st.set_page_config(page_title="精算", page_icon="🀄", layout="centered")
    st.session_state.setdefault("lang", "zh")
    st.session_state.setdefault("https", os.environ.get("JINGSUAN_HTTPS") == "1")
    sidebar()
    if style := uploader_style(st.session_state["lang"], int(st.get_option("server.maxUploadSize"))):
        st.html(style)  # the file uploaders' English in Chinese (Streamlit has no locale)
    compact_on_phone()  # narrow screens: the page starts higher, elements sit closer
    nav = pages()
    current = st.navigation(nav, position="top")
    page_bar(nav)  # narrow screens fold the navigation into the hidden sidebar: a bar at the bottom instead
    current.run()


main()
