"""Language and table on a phone without the hidden sidebar: ⚙ in the page bar (outside the sidebar) offers
both, and a choice there is the app's choice (the sidebar follows)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.app.apptest import MAIN


def test_language_and_table_are_chosen_outside_the_sidebar(data_dir: Path) -> None:
    from app.ledger import Ledger
    from app.widgets.nav import LANG_KEY, TABLE_KEY

    at = AppTest.from_file(MAIN, default_timeout=30).run()
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        second = lg.create_table("老张家", {}, "xingguo")
    at.run()
    assert not [w for w in at.sidebar.radio if str(w.key).startswith(LANG_KEY)]
    assert at.main.radio(key=f"{LANG_KEY}_zh").value == "zh"
    first = at.session_state["table_id"]
    assert at.main.selectbox(key=f"{TABLE_KEY}_{first}").value == first
    at.main.selectbox(key=f"{TABLE_KEY}_{first}").set_value(second).run()
    assert not at.exception, at.exception
    assert at.session_state["table_id"] == second
    at.run()  # and it stays, with the sidebar's picker showing it
    assert at.session_state["table_id"] == second and at.sidebar.selectbox[0].value == second
    assert at.main.selectbox(key=f"{TABLE_KEY}_{second}").value == second
    at.main.radio(key=f"{LANG_KEY}_zh").set_value("en").run()
    assert at.session_state["lang"] == "en" and at.title[0].value == "Score"
    assert at.sidebar.radio(key="lang").value == "en" and at.main.radio(key=f"{LANG_KEY}_en").value == "en"
