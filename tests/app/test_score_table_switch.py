"""A round being entered belongs to its table: switching table on 算分 (sidebar or ⚙) starts that table's own
round, and switching back brings the first table's round back; nothing of one table's round (hand, 胡, 翻精,
winner, dealer) is recorded into the other."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.app.apptest import MAIN, tap

HAND = "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z"


def switch_table(at: AppTest, table_id: int) -> AppTest:
    """The sidebar's table picker set to `table_id`."""
    at.sidebar.selectbox[0].set_value(table_id).run()
    assert not at.exception, at.exception
    return at


def test_a_table_switch_starts_that_tables_own_round_and_switching_back_resumes_the_first(data_dir: Path) -> None:
    from app.ledger import Ledger

    at = AppTest.from_file(MAIN, default_timeout=30).run()
    first = at.session_state["table_id"]
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        second = lg.create_table("老张家", {}, "xingguo")
    at.run()
    tap(at, *(f"pal_{c}" for c in HAND.split()), "tile_win", "pal_5z", "tile_ind", "pal_9m")
    at.radio(key="win_seat").set_value("S").run()
    switch_table(at, second)
    assert at.session_state["score"].hand == [], "table A's hand is not on table B's page"
    assert at.selectbox(key="win_tile").value is None and at.selectbox(key="indicator").value is None
    assert at.radio(key="win_seat").value == "E"
    tap(at, "settle")
    assert not at.table, "nothing of table A's round settles on table B"
    switch_table(at, first)
    assert " ".join(at.session_state["score"].hand) == HAND  # table A's round is where it was left
    assert at.selectbox(key="win_tile").value == "5z" and at.selectbox(key="indicator").value == "9m"
    assert at.radio(key="win_seat").value == "S"
    tap(at, "settle", "confirm")
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        assert len(lg.read_rounds(first)[0]) == 1 and not lg.read_rounds(second)[0]


def test_the_dealer_proposed_is_the_switched_to_tables(data_dir: Path) -> None:
    from app.ledger import Ledger

    at = AppTest.from_file(MAIN, default_timeout=30).run()
    first = at.session_state["table_id"]
    tap(at, *(f"pal_{c}" for c in HAND.split()), "tile_win", "pal_5z", "tile_ind", "pal_9m")
    at.radio(key="win_seat").set_value("S").run()
    tap(at, "settle", "confirm")  # 南 won off 东's deal: the deal passes to 南 at this table
    assert at.selectbox(key="dealer").value == "S"
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        second = lg.create_table("老张家", {}, "xingguo")
    at.run()
    switch_table(at, second)
    assert at.selectbox(key="dealer").value == "E", "a new table's first dealer, not table A's next one"
    switch_table(at, first)
    assert at.selectbox(key="dealer").value == "S"
