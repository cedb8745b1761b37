"""Other seats' 精 from a photo on 算分: pick the seat, photograph its tiles (or just its 精 laid out),
see the 正精 / 副精 the reader counted on the photo, and confirm them into that seat's number boxes
(`jz_{seat}` / `jf_{seat}`, which stay editable by typing)."""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from app.i18n import t as translate
from app.seat_jing import SeatJing, read_seat_photo
from app.widgets.tiles import PhotoBox, photo_boxes

READINGS_KEY = "seat_photo_readings"
SEAT_KEY = "seat_photo_seat"

TEXT: dict[str, tuple[str, str]] = {
    "title": ("用照片数其他人的精", "Count other players' 精 from a photo"),
    "seat": ("谁的牌", "Whose tiles"),
    "photo": ("拍这家的牌（或只把精摆出来拍）", "Photo of this player's tiles (or just the 精)"),
    "need_indicator": ("先选翻精（指示牌），才能数精。", "Choose the indicator first, then the 精 can be counted."),
    "counted": ("{seat}：正精 {zheng} 张，副精 {fu} 张", "{seat}: {zheng} 正精, {fu} 副精"),
    "use": ("记入{seat}", "Use for {seat}"),
    "used": ("已记入{seat}：正精 {zheng}，副精 {fu}", "Set for {seat}: 正精 {zheng}, 副精 {fu}"),
}


def say(key: str, lang: str, **kwargs: object) -> str:
    """A string of this widget in the page's language."""
    return translate(key, lang, strings=TEXT, **kwargs)


@dataclass
class SeatPhoto:
    """One seat's photo as read: which photo, against which indicator, what was counted, the boxes."""

    seat: str
    photo_key: str
    indicator: str
    photo: bytes
    reading: SeatJing
    detections: list[Any] = field(default_factory=list)
    used: bool = False


def use_counts(entries: MutableMapping[str, Any], seat: str, reading: SeatJing) -> None:
    """Put the counted 正精 / 副精 into the seat's number boxes (the player can still change them)."""
    entries[f"jz_{seat}"] = reading.zheng
    entries[f"jf_{seat}"] = reading.fu


def readings() -> dict[str, SeatPhoto]:
    """This session's seat photos, by seat."""
    return st.session_state.setdefault(READINGS_KEY, {})


MARK_TAG = {"zheng": "正", "fu": "副"}


def seat_photo_part(
    seats: Sequence[str],
    indicator: str | None,
    *,
    seat_label: Callable[[str], str],
    lang: str,
    upload_gen: int = 0,
    read: Callable[[bytes, str], tuple[SeatJing, list[Any]]] = read_seat_photo,
    framed: bool = True,
) -> None:
    """The seat picker, the uploader, the counted 精 on the photo and 记入 (use them): in an expander of
    its own, or (`framed=False`) under a caption inside the caller's expander."""
    ss = st.session_state
    frame = st.expander(say("title", lang), expanded=bool(readings())) if framed else st.container(key="seat_photo")
    if not framed:
        frame.caption(say("title", lang))
    with frame:
        if not indicator:
            st.caption(say("need_indicator", lang))
            return
        if ss.get(SEAT_KEY) not in seats:
            ss[SEAT_KEY] = seats[0]
        seat = st.segmented_control(say("seat", lang), list(seats), format_func=seat_label, key=SEAT_KEY) or seats[0]
        got = st.file_uploader(say("photo", lang), type=["jpg", "jpeg", "png", "webp"], key=f"seat_photo_{seat}_{upload_gen}")
        if got is not None:
            data = got.getvalue()
            key = f"{got.name}:{len(data)}"
            known = readings().get(seat)
            if known is None or known.photo_key != key or known.indicator != indicator:
                reading, detections = read(data, indicator)
                readings()[seat] = SeatPhoto(seat, key, indicator, data, reading, detections)
        shown = readings().get(seat)
        if shown is None or shown.indicator != indicator:
            return
        if shown.detections:
            boxes = [PhotoBox(d.box, MARK_TAG.get(m or "", ""), unsure=d.conf < 0.5)
                     for d, m in zip(shown.detections, shown.reading.marks)]
            photo_boxes(shown.photo, boxes, key=f"seat_boxes_{seat}_{upload_gen}",
                        on_tap=lambda i: None)
        for q in shown.reading.questions:
            st.warning(q["en"] if lang == "en" else q["zh"])
        name = seat_label(seat)
        st.markdown(f"**{say('counted', lang, seat=name, zheng=shown.reading.zheng, fu=shown.reading.fu)}**")

        def use() -> None:
            use_counts(ss, seat, shown.reading)
            shown.used = True

        if shown.used:
            st.caption(say("used", lang, seat=name, zheng=shown.reading.zheng, fu=shown.reading.fu))
        st.button(say("use", lang, seat=name), key=f"seat_use_{seat}", type="primary", on_click=use)
