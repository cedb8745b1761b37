"""The read hand on 算分: the photo with numbered boxes, one row of tile pictures (hand, 胡, 翻精), and —
once a tile is tapped, on the photo or in the row — 设为胡牌 / 设为翻精 / 删除 and the palette, drawn
between the photo and the row (near the finger either way, and still while the row grows).

Everything a tap decides is in `app.tile_edit`; this module only draws and wires callbacks. The
winning tile and the indicator are the page's widget values `win_tile` and `indicator` (so the
settlement reads them as before); the picked tile is `st.session_state[PICK_KEY]`.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Any

import streamlit as st

from app import tile_edit as edit
from app.i18n import t as translate
from app.tile_edit import HAND, INDICATOR, WIN, Slot
from app.widgets.tiles import PhotoBox, face_variables_css, inject_css, palette, photo_boxes, tile_row
from scoring.tiles import BACK_CODE, CODES

PICK_KEY = "tile_pick"
ADD = Slot("add")
ROW_KEY = "readrow"

TEXT: dict[str, tuple[str, str]] = {
    "hint_photo": ("**胡牌者的牌**：点照片或牌来改，红虚线＝没认准", "**Winner's tiles**: tap one on the photo or below to fix it; dashed red = unsure"),
    "hint_hand": ("**胡牌者的牌**：点牌面加进手牌，点手牌里的一张再点牌面换掉", "**Winner's tiles**: tap tiles to add them; tap a hand tile, then a tile, to replace it"),
    "hint_row": ("**胡牌者的牌**：点一张来改，或设为胡牌、翻精", "**Winner's tiles**: tap one to fix it or set it as the winning tile or indicator"),
    "picked": ("第 {n} 张：{name}，换成哪张？", "Tile {n}: {name} — replace with?"),
    "picked_win": ("胡的那张：{name}，换成哪张？", "Winning tile: {name} — replace with?"),
    "picked_ind": ("翻精：{name}，换成哪张？", "Indicator: {name} — replace with?"),
    "picked_meld": ("副露里的一张：{name}，换成哪张？", "A meld tile: {name} — replace with?"),
    "pick_win": ("胡的是哪一张？点下面的牌面", "Which tile won? Tap it below"),
    "pick_ind": ("翻的精是哪一张？点下面的牌面", "Which tile was flipped (indicator)? Tap it below"),
    "add": ("加一张", "Add a tile"),
    "maybe": ("可能是：", "Likely:"),
    "set_win": ("设为胡牌", "Set as winning tile"),
    "set_ind": ("设为翻精", "Set as indicator"),
    "delete": ("删除", "Delete"),
    "done": ("完成", "Done"),
    "count": ("手牌 {n} 张 + 副露 {m} 组", "{n} concealed tiles + {m} melds"),
    "win_tag": ("胡", "Win"),
    "ind_tag": ("精", "Ind"),
}


def say(key: str, lang: str, **kwargs: object) -> str:
    """A string of this widget in the page's language."""
    return translate(key, lang, strings=TEXT, **kwargs)


def picked() -> Slot | None:
    """The tile the player tapped last (None when none)."""
    value = st.session_state.get(PICK_KEY)
    return Slot(*value) if isinstance(value, tuple) and len(value) == 3 else None


def set_pick(slot: Slot | None) -> None:
    """Remember the picked tile as a plain tuple (a class reloaded by Streamlit's watcher still reads it)."""
    st.session_state[PICK_KEY] = (slot.kind, slot.index, slot.meld) if slot is not None else None


def winner_melds(melds: list[dict[str, Any]], entries: MutableMapping[str, Any]) -> int:
    """The melds that belong to the winner (the photo's, and those entered for the winning seat)."""
    winner = entries.get("win_seat")
    return sum(1 for m in melds if m.get("seat") in ("winner", winner))


def palette_open(draft: Any, entries: MutableMapping[str, Any]) -> bool:
    """The palette shows while a tile is picked, or while the winner's tiles are not all entered."""
    if picked() is not None:
        return True
    return edit.tiles_held(draft.hand, entries, winner_melds(draft.melds, entries)) < edit.FULL_HAND


def read_hand_part(draft: Any, entries: MutableMapping[str, Any], *, lang: str, label: Callable[[str], str],
                   clear: tuple[str, Callable[[], None]] | None = None) -> None:
    """The photo (when there is one), then — while a tile is picked or tiles are missing — its tools and the
    palette, then the row; `clear` = (label, callback) adds a 清空 button (key clear_hand) beside 加一张."""
    inject_css(face_variables_css())  # once per run: the rows and the palette below refer to it
    tiles = edit.row(draft.hand, entries)
    reading = getattr(draft, "reading", None)
    detections = list(getattr(reading, "detections", None) or [])
    slots = edit.photo_slots(getattr(reading, "assignment", None), detections, draft.hand, draft.melds, entries)
    unsure = edit.unsure_slots(slots, detections)
    pick = picked()

    def touched() -> None:
        draft.sel = None
        draft.touched()

    def pick_slot(slot: Slot | None) -> None:
        set_pick(None if slot is None or pick == slot else slot)

    if draft.photo_bytes and detections:
        boxes = [
            PhotoBox(d.box, edit.box_number(s, tiles), title=label(d.tile) if d.tile != BACK_CODE else "",
                     unsure=d.conf < edit.LOW_CONFIDENCE, selected=s is not None and s == pick)
            for d, s in zip(detections, slots)
        ]
        st.markdown(say("hint_photo", lang))
        photo_boxes(draft.photo_bytes, boxes, key=f"photo_boxes_{draft.upload_gen}",
                    on_tap=lambda i: pick_slot(slots[i]), alt=say("hint_photo", lang))
    else:
        st.markdown(say("hint_row" if draft.hand else "hint_hand", lang))

    opened = palette_open(draft, entries)
    if opened:  # between the photo and the row: where the finger is, and it stays put while the row grows
        chooser_part(draft, entries, pick, detections, slots, lang, label, touched)

    shown = list(tiles)
    if not entries.get("win_tile") and entries.get("win_seat") != "none":
        shown.append(edit.RowTile(Slot(WIN), "", "胡", 0))
    if not entries.get("indicator"):
        shown.append(edit.RowTile(Slot(INDICATOR), "", "精", 0))
    keys = [row_key(t.slot) for t in shown]
    tile_row(
        [t.code or BACK_CODE for t in shown],
        key=ROW_KEY,
        keys=keys,
        label=lambda code: label(code) if code != BACK_CODE else "?",
        on_tap=lambda i: pick_slot(shown[i].slot),
        selected=next((i for i, t in enumerate(shown) if t.slot == pick), None),
        unsure=[i for i, t in enumerate(shown) if t.slot in unsure],
        marks={i: say("win_tag" if t.slot.kind == WIN else "ind_tag", lang) for i, t in enumerate(shown)
               if t.slot.kind in (WIN, INDICATOR)},
        faces_css=False,
    )
    with st.container(key="row_tools", horizontal=True, gap="small", vertical_alignment="center"):
        if not opened:
            st.button(say("add", lang), key="tile_add", on_click=set_pick, args=(ADD,))
        if clear and draft.hand:
            st.button(clear[0], key="clear_hand", on_click=clear[1])
        st.caption(say("count", lang, n=len(draft.hand), m=winner_melds(draft.melds, entries)))


def chooser_part(draft: Any, entries: MutableMapping[str, Any], pick: Slot | None, detections: list[Any],
                 slots: list[Slot | None], lang: str, label: Callable[[str], str], touched: Callable[[], None]) -> None:
    """The picked tile's tools, the reader's other guesses for it, and the palette."""
    tools_part(draft, entries, pick, lang, label, touched)
    alternatives = [c for c, _ in getattr(detections[slots.index(pick)], "alternatives", ())
                    if c in CODES and c != edit.code_at(pick, draft.hand, entries, draft.melds)] \
        if pick is not None and pick in slots else []

    def put(code: str) -> None:
        slot = picked()
        if slot is None or slot == ADD or not edit.replace(slot, code, draft.hand, entries, draft.melds):
            draft.hand.append(code)
        set_pick(None)
        touched()

    if alternatives:
        st.caption(say("maybe", lang))
        tile_row(alternatives, key="alts", label=label, on_tap=lambda i: put(alternatives[i]), faces_css=False)
    palette(key="pal", label=label, on_pick=put, faces_css=False)


def row_key(slot: Slot) -> str:
    """The button key of a row tile: hand_{i} (as before), tile_win, tile_ind."""
    return {WIN: "tile_win", INDICATOR: "tile_ind"}.get(slot.kind, f"hand_{slot.index}")


def tools_part(draft: Any, entries: MutableMapping[str, Any], pick: Slot | None, lang: str,
               label: Callable[[str], str], touched: Callable[[], None]) -> None:
    """What the picked tile is, and what can be done to it besides replacing it."""
    if pick is None or pick == ADD:
        return
    code = edit.code_at(pick, draft.hand, entries, draft.melds)
    name = label(code) if code else "?"
    if pick.kind == HAND:
        st.markdown(f"**{say('picked', lang, n=pick.index + 1, name=name)}**")
    elif not code:
        st.markdown(f"**{say('pick_win' if pick.kind == WIN else 'pick_ind', lang)}**")
    else:
        key = {WIN: "picked_win", INDICATOR: "picked_ind"}.get(pick.kind, "picked_meld")
        st.markdown(f"**{say(key, lang, name=name)}**")

    def do(action: Callable[[], bool]) -> None:
        if action():
            set_pick(None)
            touched()

    def delete() -> bool:
        if pick.kind == HAND and 0 <= pick.index < len(draft.hand):
            draft.hand.pop(pick.index)
            return True
        if pick.kind in (WIN, INDICATOR):
            entries["win_tile" if pick.kind == WIN else "indicator"] = None  # emptied, not forgotten: the draft
            # puts back a value the session lost (another page was shown), and must not put this one back
            return True
        return False

    with st.container(key="tile_tools", horizontal=True, gap="small"):
        if pick.kind == HAND:
            st.button(say("set_win", lang), key="tile_set_win",
                      on_click=do, args=(lambda: edit.set_win(pick, draft.hand, entries),))
        if pick.kind in (HAND, "meld") and code and code in CODES:
            st.button(say("set_ind", lang), key="tile_set_ind",
                      on_click=do, args=(lambda: edit.set_indicator(pick, draft.hand, entries, draft.melds,
                                                                    winner_melds(draft.melds, entries)),))
        if code:
            st.button(say("delete", lang), key="remove_sel", on_click=do, args=(delete,))
        st.button(say("done", lang), key="tile_done", on_click=set_pick, args=(None,))

