"""Other seats' 精 from a photo: the counts the reader found go into that seat's boxes when the player says so."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from app.seat_jing import SeatJing, seat_jing
from app.widgets.seat_photo import use_counts


def test_use_counts_fills_the_seats_number_boxes() -> None:
    entries: dict = {"jz_S": 0, "jf_S": 0}
    use_counts(entries, "S", SeatJing(zheng=2, fu=1))
    assert entries == {"jz_S": 2, "jf_S": 1}


def page() -> None:
    import streamlit as st

    from app.widgets.seat_photo import seat_photo_part

    for s in ("S", "W", "N"):
        st.number_input(f"{s} 正精", 0, 8, 0, key=f"jz_{s}")
        st.number_input(f"{s} 副精", 0, 8, 0, key=f"jf_{s}")
    seat_photo_part(["S", "W", "N"], st.session_state.get("ind"), seat_label={"S": "南", "W": "西", "N": "北"}.get, lang="zh")


class Det:
    def __init__(self, tile: str, x: float) -> None:
        self.tile, self.conf, self.box = tile, 0.9, (x, 10, x + 30, 50)


def photo() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (400, 100), "green").save(out, format="PNG")
    return out.getvalue()


def test_a_read_seat_photo_is_confirmed_into_that_seat_and_stays_editable() -> None:
    from app.widgets.seat_photo import READINGS_KEY, SEAT_KEY, SeatPhoto

    dets = [Det(c, 40 * i) for i, c in enumerate(["5z", "7z", "7z", "3m"])]  # indicator 白: 中 is its 副精
    at = AppTest.from_function(page)
    at.session_state["ind"] = "5z"
    at.session_state[SEAT_KEY] = "W"
    at.session_state[READINGS_KEY] = {"W": SeatPhoto("W", "p.jpg:1", "5z", photo(), seat_jing(dets, "5z"), dets)}
    at.run()
    assert any("西：正精 1 张，副精 2 张" in m.value for m in at.markdown)
    at.button(key="seat_use_W").click().run()
    assert at.number_input(key="jz_W").value == 1 and at.number_input(key="jf_W").value == 2
    assert at.number_input(key="jz_S").value == 0
    at.number_input(key="jf_W").set_value(3).run()  # typing still wins
    assert at.session_state["jf_W"] == 3


def test_without_an_indicator_it_says_to_choose_one_first() -> None:
    at = AppTest.from_function(page).run()
    assert any("先选翻精" in c.value for c in at.caption)
