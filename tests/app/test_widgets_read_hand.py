"""The read hand on 算分, driven through Streamlit's AppTest: pick a tile, replace it, 设为胡牌, 设为翻精."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def page() -> None:
    import streamlit as st

    from app.score_logic import DRAFT_KEY, RoundDraft
    from app.widgets.read_hand import read_hand_part
    from scoring.tiles import tile

    ss = st.session_state
    if DRAFT_KEY not in ss:
        ss[DRAFT_KEY] = RoundDraft(hand=list(ss.get("start_hand", [])))
    st.selectbox("胡的那张牌", [tile(i).code for i in range(34)], index=None, key="win_tile")
    st.selectbox("翻精", [tile(i).code for i in range(34)], index=None, key="indicator")
    read_hand_part(ss[DRAFT_KEY], ss, lang="zh", label=lambda c: tile(c).zh)


FOURTEEN = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "5z", "5z"]


def start(hand: list[str]) -> AppTest:
    at = AppTest.from_function(page)
    at.session_state["start_hand"] = hand
    return at.run()


def hand_of(at: AppTest) -> list[str]:
    return list(at.session_state["score"].hand)


def test_an_empty_hand_shows_the_palette_and_taps_add_tiles() -> None:
    at = start([])
    at.button(key="pal_3p").click().run()
    at.button(key="pal_7z").click().run()
    assert hand_of(at) == ["3p", "7z"]
    assert at.button(key="hand_1").label == "中"


def test_tapping_a_tile_then_the_palette_replaces_it_and_closes_the_palette() -> None:
    at = start(FOURTEEN)
    assert not [b for b in at.button if b.key and b.key.startswith("pal_")]  # 14 tiles: nothing to add
    at.button(key="hand_3").click().run()
    assert any("第 4 张：四筒" in m.value for m in at.markdown)
    at.button(key="pal_9p").click().run()
    assert hand_of(at)[3] == "9p"
    assert not [b for b in at.button if b.key and b.key.startswith("pal_")]


def test_set_as_winning_tile_moves_it_out_of_the_hand() -> None:
    at = start(FOURTEEN)
    at.button(key="hand_8").click().run()
    at.button(key="tile_set_win").click().run()
    assert at.session_state["win_tile"] == "9s" and at.selectbox(key="win_tile").value == "9s"
    assert len(hand_of(at)) == 13 and at.button(key="tile_win").label == "九条"


def test_set_as_indicator_names_the_kind_and_the_empty_slot_can_be_filled_from_the_palette() -> None:
    at = start(FOURTEEN[:13])
    at.button(key="tile_ind").click().run()  # the empty 精 slot
    assert any("翻的精是哪一张" in m.value for m in at.markdown)
    at.button(key="pal_6z").click().run()
    assert at.session_state["indicator"] == "6z"
    at.button(key="hand_0").click().run()
    at.button(key="tile_set_ind").click().run()
    assert at.session_state["indicator"] == "1m" and len(hand_of(at)) == 13


def test_deleting_the_picked_tile() -> None:
    at = start(FOURTEEN)
    at.button(key="hand_0").click().run()
    at.button(key="remove_sel").click().run()
    assert hand_of(at) == FOURTEEN[1:]


def photo_page() -> None:
    import io

    import streamlit as st
    from PIL import Image

    from app.score_logic import DRAFT_KEY, RoundDraft
    from app.widgets.read_hand import read_hand_part
    from scoring.tiles import tile
    from vision.reader.detection import Detection
    from vision.reader.layout import Assignment, TileRole

    ss = st.session_state
    if DRAFT_KEY not in ss:
        dets = [Detection((40.0 * i, 100, 40.0 * i + 36, 150), c, 0.3 if i == 1 else 0.9,
                          (("6p", 0.4), ("9p", 0.35), ("8p", 0.1)) if i == 1 else ())
                for i, c in enumerate(["1m", "6p", "3m"])]

        class Reading:
            detections = dets
            assignment = Assignment(tiles=[TileRole(d, "hand") for d in dets], hand=["1m", "6p", "3m"])

        out = io.BytesIO()
        Image.new("RGB", (200, 200), "green").save(out, format="PNG")
        ss[DRAFT_KEY] = RoundDraft(hand=["1m", "6p", "3m"], reading=Reading(), photo_bytes=out.getvalue())
    read_hand_part(ss[DRAFT_KEY], ss, lang="zh", label=lambda c: tile(c).zh)


def test_the_readers_other_guesses_for_a_picked_tile_come_first() -> None:
    at = AppTest.from_function(photo_page).run()
    at.button(key="hand_1").click().run()
    assert [b.label for b in at.button if b.key and b.key.startswith("alts_")] == ["九筒", "八筒"]
    at.button(key="alts_0").click().run()
    assert at.session_state["score"].hand == ["1m", "9p", "3m"]


def test_clearing_a_read_hand_opens_the_palette_with_the_photo_still_shown() -> None:
    at = AppTest.from_function(photo_page).run()
    at.session_state["score"].hand.clear()
    at.run()
    assert not at.exception, at.exception
    assert len([b for b in at.button if b.key and b.key.startswith("pal_")]) == 34
    at.button(key="pal_7z").click().run()
    assert at.session_state["score"].hand == ["7z"]
