"""算分 keeps its round across pages: going 算分 → 牌局 → 算分 (Streamlit forgets the values of widgets on a page
not drawn) brings back the winner, how he won, 胡, 翻精, the others' 精 and the hand."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.app.apptest import MAIN, open_page, tap

HAND = "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z"


def test_going_to_the_ledger_and_back_keeps_the_round_on_the_score_page(data_dir: Path) -> None:
    at = AppTest.from_file(MAIN, default_timeout=30).run()
    tap(at, *(f"pal_{c}" for c in HAND.split()), "tile_win", "pal_5z", "tile_ind", "pal_9m")
    at.radio(key="win_seat").set_value("S").run()
    at.radio(key="win_from").set_value("W").run()
    at.number_input(key="jz_E").set_value(2).run()
    open_page(at, "ledger")
    assert "win_tile" not in at.session_state  # Streamlit dropped the 算分 widgets' values …
    open_page(at, "score")
    assert at.selectbox(key="win_tile").value == "5z"  # … and the page brought them back from its round
    assert at.selectbox(key="indicator").value == "9m"
    assert at.radio(key="win_seat").value == "S" and at.radio(key="win_from").value == "W"
    assert at.number_input(key="jz_E").value == 2
    assert " ".join(at.session_state["score"].hand) == HAND
    assert not [w.value for w in at.warning if "Session State" in str(w.value)]  # put back without Streamlit's warning
    tap(at, "settle")
    assert at.table, [e.value for e in [*at.error, *at.warning]]  # and the round settles as entered


def test_a_recorded_round_leaves_nothing_to_bring_back(data_dir: Path) -> None:
    at = AppTest.from_file(MAIN, default_timeout=30).run()
    tap(at, *(f"pal_{c}" for c in HAND.split()), "tile_win", "pal_5z", "tile_ind", "pal_9m", "settle", "confirm")
    open_page(at, "ledger")
    open_page(at, "score")
    assert at.selectbox(key="win_tile").value is None and at.selectbox(key="indicator").value is None
    assert at.session_state["score"].hand == []


def test_only_values_the_session_lost_are_put_back() -> None:
    from app.score_logic import RoundDraft, remember_entries, restore_entries

    d = RoundDraft()
    remember_entries(d, {"win_tile": "5z", "indicator": "9m", "m_tiles": "123m"})
    assert d.entries == {"win_tile": "5z", "indicator": "9m"}  # the round's values only
    state: dict[str, object] = {"win_tile": None}  # the player emptied 胡; 翻精 was lost with the page
    restore_entries(d, state)
    assert state == {"win_tile": None, "indicator": "9m"}


def test_a_winning_tile_deleted_from_the_row_stays_deleted(data_dir: Path) -> None:
    at = AppTest.from_file(MAIN, default_timeout=30).run()
    tap(at, *(f"pal_{c}" for c in HAND.split()), "tile_win", "pal_5z", "tile_ind", "pal_9m")
    tap(at, "tile_win", "remove_sel")  # pick 胡 in the row, 删除
    assert at.selectbox(key="win_tile").value is None
    at.run()
    open_page(at, "ledger")
    open_page(at, "score")
    assert at.selectbox(key="win_tile").value is None and at.selectbox(key="indicator").value == "9m"


def test_a_tap_before_the_browser_showed_the_tapped_in_tile_keeps_it(data_dir: Path) -> None:
    """胡 or 翻精 tapped in on the row, then the next tap at once: the browser, which has drawn the row but not yet
    the selectors below it, sends their old empty values with that tap (the by-hand journey's intermittent
    "请先选胡的那张牌" / "请先选翻精"); the tiles the player tapped in count all the same."""
    at = AppTest.from_file(MAIN, default_timeout=30).run()
    tap(at, *(f"pal_{c}" for c in HAND.split()), "tile_win", "pal_5z")
    at.selectbox(key="win_tile").set_value(None)  # what the browser still shows below the row
    tap(at, "tile_ind")
    assert at.button(key="tile_win").label == "白"  # 胡 is still there
    tap(at, "pal_9m")
    at.selectbox(key="indicator").set_value(None)
    tap(at, "settle")
    assert at.table, [e.value for e in [*at.error, *at.warning]]
    assert at.selectbox(key="win_tile").value == "5z" and at.selectbox(key="indicator").value == "9m"


def test_a_tile_the_browser_has_shown_is_the_browsers() -> None:
    from app.score_logic import RoundDraft, keep_filled, note_filled

    d = RoundDraft()
    state: dict[str, object] = {}
    note_filled(d, state, "indicator", "9m")  # a tap on the row (before the page is drawn)
    state["indicator"] = "9m"
    keep_filled(d, state)  # the same run's drawing: not shown yet, nothing to check
    assert d.filled
    d.drawings += 1
    state["indicator"] = "2p"  # the next tap brings the player's own choice from the selector
    keep_filled(d, state)
    assert state["indicator"] == "2p" and not d.filled


def test_the_photo_stays_on_the_page_after_the_ledger_and_a_fix_on_it_is_still_taught(data_dir: Path,
                                                                                       hand_photo: Path) -> None:
    from app.memory_store import current_model, memory_path
    from vision.reader.memory import TileMemory

    at = AppTest.from_file(MAIN, default_timeout=60).run()
    d = at.session_state["score"]
    at.file_uploader(key=d.upload_key).set_value((hand_photo.name, hand_photo.read_bytes(), "image/png")).run()
    assert not at.exception, at.exception
    open_page(at, "ledger")
    open_page(at, "score")  # Streamlit emptied the uploader while 牌局 was shown; the round's photo is kept
    d = at.session_state["score"]
    assert d.photo_bytes == hand_photo.read_bytes()
    assert at.button(key="save_example"), "保存为标注样本 is offered for the photo still on the page"
    tap(at, f"hand_{d.hand.index('4p')}", "pal_7z")  # a fix made now is taught as before the page switch
    table = f"牌桌 1#{at.session_state['table_id']}"
    assert TileMemory.load(memory_path(data_dir / "ledger.sqlite3"), current_model() or "").count(table) == 1


def test_a_language_change_sets_the_rounds_choices_again_from_the_draft() -> None:
    from app.score_logic import RoundDraft, relabel, remember_entries

    d = RoundDraft()
    remember_entries(d, {"win_tile": "5z", "indicator": "9m", "dealer": "E", "win_seat": "S"})
    state: dict[str, object] = {"dealer": "东·东家"}  # what the browser sends back once the labels are English
    relabel(d, state, "zh")
    assert state == {"dealer": "东·东家"}, "first drawing: nothing to set again"
    relabel(d, state, "en")
    assert state["dealer"] == "E" and state["indicator"] == "9m" and state["win_seat"] == "S"
    assert state["m_seat"] == "E" and state["m_type"] == "chi"  # the meld form's choices start over in English
