"""The 算分 page with the tile pictures (AppTest, no browser): 胡 and 翻精 set by taps on their empty
places, a round settled from taps only, and another seat's 精 confirmed from a read photo."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.app.apptest import MAIN, tap

HAND = "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z"


def test_a_round_from_taps_only_win_and_jing_on_their_empty_places(data_dir: Path) -> None:
    at = AppTest.from_file(MAIN, default_timeout=30).run()
    tap(at, *(f"pal_{c}" for c in HAND.split()))
    assert at.button(key="tile_win").label == "?" and at.button(key="tile_ind").label == "?"
    tap(at, "tile_win", "pal_5z", "tile_ind", "pal_9m")
    assert at.selectbox(key="win_tile").value == "5z" and at.selectbox(key="indicator").value == "9m"
    assert at.button(key="tile_win").label == "白" and at.button(key="tile_ind").label == "九万"
    assert not [b for b in at.button if b.key and b.key.startswith("pal_")]  # all tiles in: the palette folds
    tap(at, "settle")
    assert at.table, [e.value for e in at.error + at.warning]
    assert at.table[0].value.loc["合计"].tolist() == [45, -15, -15, -15]


def test_another_seats_jing_read_from_a_photo_goes_into_its_boxes_and_the_title(data_dir: Path) -> None:
    from app.seat_jing import seat_jing
    from app.widgets.seat_photo import READINGS_KEY, SEAT_KEY, SeatPhoto

    class Det:
        def __init__(self, tile: str, x: float) -> None:
            self.tile, self.conf, self.box = tile, 0.9, (x, 10.0, x + 30, 50.0)

    dets = [Det(c, 40.0 * i) for i, c in enumerate(["9m", "9m", "1m", "4p"])]
    at = AppTest.from_file(MAIN, default_timeout=30).run()
    tap(at, *(f"pal_{c}" for c in HAND.split()), "tile_win", "pal_5z", "tile_ind", "pal_9m")
    at.session_state[SEAT_KEY] = "S"
    at.session_state[READINGS_KEY] = {"S": SeatPhoto("S", "s.png:1", "9m", b"", seat_jing(dets, "9m"), [])}
    at.run()
    assert any("南·南家：正精 2 张，副精 1 张" in m.value for m in at.markdown)
    tap(at, "seat_use_S")
    assert at.number_input(key="jz_S").value == 2 and at.number_input(key="jf_S").value == 1
    assert any("南 2/1" in e.label for e in at.expander)  # the folded title shows the counts
    tap(at, "settle")
    assert at.table and at.table[0].value.loc["精"].tolist()[1] > 0  # 南 is paid for its 精


def test_a_recorded_round_can_be_taken_back_with_one_tap_and_comes_back_on_the_page(data_dir: Path) -> None:
    from app.ledger import Ledger

    at = AppTest.from_file(MAIN, default_timeout=30).run()
    tap(at, *(f"pal_{c}" for c in HAND.split()), "tile_win", "pal_5z", "tile_ind", "pal_9m", "settle", "confirm")
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        assert len(lg.rounds(lg.tables()[0].id)) == 1
    assert at.session_state["score"].hand == []  # a clean round …
    tap(at, "undo_recorded")  # … until 撤销这一局
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        assert lg.rounds(lg.tables()[0].id) == []
    assert " ".join(at.session_state["score"].hand) == HAND
    assert at.selectbox(key="win_tile").value == "5z" and at.selectbox(key="indicator").value == "9m"
    tap(at, "settle", "confirm")  # and it can be recorded again
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        assert len(lg.rounds(lg.tables()[0].id)) == 1
