"""Tappable tiles: the palette and the tile row are buttons drawn as tile pictures; a tap on the photo
finds the box the player meant."""

from __future__ import annotations

import io

from PIL import Image
from streamlit.testing.v1 import AppTest

from app.widgets.tiles import (
    TILE_H,
    TILE_W,
    PhotoBox,
    crop_around,
    face_variables_css,
    nearest_box,
    photo_view,
    tap_to_photo,
    tile_buttons_css,
)

ROW = [(100 + 60 * i, 300, 150 + 60 * i, 370) for i in range(14)]  # 14 tiles, 50×70, 10 px apart


def test_a_tap_inside_a_box_picks_that_box() -> None:
    assert nearest_box(ROW, 125, 335) == 0
    assert nearest_box(ROW, 100 + 60 * 13 + 1, 301) == 13


def test_a_tap_between_two_tiles_or_just_above_picks_the_nearest() -> None:
    assert nearest_box(ROW, 153, 335) == 0  # 3 px right of tile 0, 7 px left of tile 1
    assert nearest_box(ROW, 158, 335) == 1
    assert nearest_box(ROW, 245, 285) == 2  # 15 px above tile 2


def test_a_tap_on_empty_table_picks_nothing() -> None:
    assert nearest_box(ROW, 500, 600) is None
    assert nearest_box([], 1, 1) is None


def test_the_photo_is_cropped_to_its_tiles_with_a_margin_inside_the_photo() -> None:
    x1, y1, x2, y2 = crop_around(ROW, (1280, 720))
    assert (x1, y1) == (58, 258) and (x2, y2) == (972, 412)  # 0.6 × 70 px around
    assert crop_around([(0, 0, 50, 70)], (1280, 720))[:2] == (0, 0)
    assert crop_around([], (640, 480)) == (0, 0, 640, 480)


def test_a_tap_on_the_shown_crop_maps_back_to_the_photo() -> None:
    assert tap_to_photo({"x": 0.5, "y": 0.25}, (100, 200, 300, 600)) == (200, 300)


def photo_bytes(size: tuple[int, int] = (1280, 720)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (30, 110, 60)).save(out, format="PNG")
    return out.getvalue()


def test_photo_view_places_boxes_in_percent_of_the_crop_and_keeps_their_marks() -> None:
    boxes = [PhotoBox(b, str(i + 1), unsure=i == 2, selected=i == 5) for i, b in enumerate(ROW)]
    view = photo_view(photo_bytes(), boxes)
    assert view["src"].startswith("data:image/jpeg;base64,")
    assert view["crop"] == [58, 258, 972, 412]
    first = view["boxes"][0]
    assert round(first["left"], 2) == round(100 * 42 / 914, 2) and round(first["top"], 2) == round(100 * 42 / 154, 2)
    assert [b["number"] for b in view["boxes"]] == [str(i) for i in range(1, 15)]
    assert [i for i, b in enumerate(view["boxes"]) if b["unsure"]] == [2]
    assert [i for i, b in enumerate(view["boxes"]) if b["selected"]] == [5]


def test_button_css_draws_each_key_as_its_tile_and_marks_selected_and_unsure() -> None:
    css = tile_buttons_css("hand", {"hand_0": "3p", "hand_1": "7z"}, selected=["hand_1"], unsure=["hand_0"],
                           marks={"hand_1": "胡"})
    assert ".st-key-hand_0 button{background-image:var(--jt-3p);}" in css
    assert ".st-key-hand_1 button{background-image:var(--jt-7z);}" in css
    assert "solid #1565c0" in css.split(".st-key-hand_1 button{outline")[1].split("}")[0]
    assert ".st-key-hand_0 button{outline:3px dashed" in css
    assert 'content:"胡"' in css
    assert f"width:{TILE_W}px" in css and f"height:{TILE_H}px" in css and TILE_W >= 44 and TILE_H >= 44


def test_every_face_has_a_css_picture() -> None:
    css = face_variables_css()
    assert css.count("--jt-") == 35 and "--jt-back:" in css and "--jt-1m:" in css


def row_app() -> None:
    import streamlit as st

    from app.widgets.tiles import palette, tile_row

    ss = st.session_state
    ss.setdefault("hand", ["1m", "2m", "6p"])
    ss.setdefault("sel", None)

    def tap(i: int) -> None:
        ss["sel"] = i

    def pick(code: str) -> None:
        if ss["sel"] is not None:
            ss["hand"][ss["sel"]] = code
            ss["sel"] = None

    tile_row(ss["hand"], key="hand", label=str, on_tap=tap, selected=ss["sel"])
    palette(key="pal", label=str, on_pick=pick)


def test_tapping_a_row_tile_then_a_palette_tile_replaces_it() -> None:
    at = AppTest.from_function(row_app).run()
    assert [b.label for b in at.button if b.key.startswith("hand_")] == ["1m", "2m", "6p"]
    assert len([b for b in at.button if b.key.startswith("pal_")]) == 34
    at.button(key="hand_2").click().run()
    assert at.session_state["sel"] == 2
    at.button(key="pal_3p").click().run()
    assert at.session_state["hand"] == ["1m", "2m", "3p"]
    assert at.button(key="hand_2").label == "3p"
