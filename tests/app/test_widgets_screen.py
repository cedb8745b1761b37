"""The screen-width reporter: before the browser has said its width, the page gets None (and sizes for desktop)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def page() -> None:
    import streamlit as st

    from app.annotate_view import canvas_width
    from app.widgets.screen import screen_width

    st.write(f"width={screen_width()} canvas={canvas_width(screen_width(key='again'))}")


def test_without_a_browser_the_width_is_unknown_and_the_canvas_keeps_its_desktop_size() -> None:
    at = AppTest.from_function(page).run()
    assert not at.exception
    assert at.markdown[0].value == "width=None canvas=700"


def touch_page() -> None:
    import streamlit as st

    from app.widgets.touch import touch_draws_on_canvas

    touch_draws_on_canvas()
    st.write("after")


def test_the_touch_helper_mounts_without_a_browser_and_takes_no_room() -> None:
    at = AppTest.from_function(touch_page).run()
    assert not at.exception
    assert at.markdown[0].value == "after"
