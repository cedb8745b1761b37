"""算分: photo → tiles (or tiles by hand) → win details → settlement → confirm into the ledger."""

from __future__ import annotations

import io
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from app.ledger import Ledger, LedgerError, TableInfo
from app.views.common import ALL_CODES, SEATS, current_table, get_ledger, lang, seat_label, tile_label, tr
from scoring.errors import JingsuanError
from scoring.round import previous_seat
from scoring.settlement import COMPONENT_ZH, COMPONENTS
from scoring.tiles import format_tiles, jing_of, parse_tiles, tile

LOW_CONFIDENCE = 0.5
MELD_TYPES: dict[str, str] = {"chi": "吃", "peng": "碰", "gang": "明杠", "angang": "暗杠", "bugang": "补杠"}
MELD_SIZE = {"chi": 3, "peng": 3, "gang": 4, "angang": 4, "bugang": 4}
COMPONENT_EN = {"hu": "Win", "jing": "精", "gang": "Kong", "follow": "跟庄", "penalty": "Penalty"}

# ----------------------------------------------------------------------------- photo adapter


@dataclass
class PhotoReading:
    """What the photo gave: detections (box, tile, conf), a proposed hand, or why nothing came out."""

    detections: list[Any] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    message: str = ""
    seconds: float = 0.0
    assignment: Any = None


def read_photo(data: bytes) -> PhotoReading:
    """Run `vision.detect` (and `vision.assign` when present); a missing model is a message, not a crash."""
    start = time.perf_counter()
    try:
        import vision

        model_dir = os.environ.get("JINGSUAN_MODEL_DIR")  # `jingsuan app --models DIR`
        detections = list(vision.detect(data, model=Path(model_dir) / "tiles.onnx" if model_dir else None))
    except (ModuleNotFoundError, FileNotFoundError):
        return PhotoReading(message=tr("no_model"), seconds=time.perf_counter() - start)
    except JingsuanError as exc:
        return PhotoReading(message=tr("detect_failed", msg=exc.zh), seconds=time.perf_counter() - start)
    except Exception as exc:  # a broken model or image must not take the page down
        return PhotoReading(message=tr("detect_failed", msg=type(exc).__name__), seconds=time.perf_counter() - start)
    result = assignment_of(detections)
    return PhotoReading(detections, proposed_hand(detections, result), "", time.perf_counter() - start, result)


def assignment_of(detections: list[Any]) -> Any:
    """`vision.assign.assign(detections)`, or None when it is missing or fails (assignment is optional)."""
    try:
        from vision import assign as assign_mod

        return assign_mod.assign(detections)
    except Exception:  # a broken assignment must not take the photo reading down
        return None


def proposed_hand(detections: list[Any], result: Any = None) -> list[str]:
    """The winner's tiles the photo suggests (hand + winning tile): `vision.assign`, else face-up tiles left to right."""
    result = result if result is not None else assignment_of(detections)
    if result is not None:
        tiles = list(getattr(result, "hand", None) or [])
        win = getattr(result, "win_tile", None)
        codes = [*tiles, *([win] if win else [])]
        if codes:
            return [x.code for x in parse_tiles(codes)]
    faces = [d for d in detections if d.tile in ALL_CODES]
    return [d.tile for d in sorted(faces, key=lambda d: d.cx)]


GUIDE_PATH = Path(__file__).resolve().parents[2] / "docs" / "photo_guide.md"
GUIDE_SPLIT = "<!-- English -->"


def photo_guide(language: str = "zh", path: Path = GUIDE_PATH) -> str:
    """The photo guide in one language (Chinese part above the marker, English below); '' if missing."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return ""
    zh, _, en = text.partition(GUIDE_SPLIT)
    return (en if language == "en" and en.strip() else zh).strip()


#: Seat of a meld read from the photo: the winner's, whoever that is (chosen later on the page).
WINNER = "winner"


def photo_melds(result: Any) -> list[dict[str, Any]]:
    """The winner's melds the photo shows, as the page's meld list holds them (a concealed kong whose
    kind did not show is left out: its question asks the player to add it)."""
    out = []
    for m in getattr(result, "melds", None) or []:
        if not m.get("tiles") or m.get("type") not in MELD_TYPES:
            continue
        meld = {"seat": WINNER, "photo": True, "type": m["type"], "tiles": m["tiles"]}
        if m["type"] == "chi" and m.get("claimed"):
            meld["claimed"] = m["claimed"]
        if m["type"] != "angang":
            meld["from"] = None  # the photo cannot tell who discarded it: asked on the page (a chi is 上家's)
        out.append(meld)
    return out


def apply_assignment(ss: Any, reading: PhotoReading) -> None:
    """Put what the photo decided on the page: the hand without the winning tile, the winning tile, the
    indicator, and the winner's melds (replacing those of an earlier photo, keeping hand-entered ones)."""
    result = reading.assignment
    hand = list(reading.hand)
    win = getattr(result, "win_tile", None)
    if win and hand and hand[-1] == win:
        hand = hand[:-1]
        ss["win_tile"] = win
    if getattr(result, "indicator", None):
        ss["indicator"] = result.indicator
    if hand:
        ss["hand"] = hand
        ss["sel"] = None
    if result is not None:
        ss["melds"] = [m for m in ss.get("melds", []) if not m.get("photo")] + photo_melds(result)


def low_confidence_tiles(detections: list[Any]) -> list[str]:
    """The uncertain tiles, left to right, as '五筒?0.32' so the player checks them first."""
    low = sorted((d for d in detections if d.conf < LOW_CONFIDENCE), key=lambda d: d.cx)
    return [f"{tile_label(d.tile) if d.tile in ALL_CODES else '背'}?{d.conf:.2f}" for d in low]


def draw_boxes(data: bytes, detections: list[Any]) -> Any:
    """The photo with each box labelled; low-confidence boxes in red."""
    from PIL import Image, ImageDraw

    img = Image.open(io.BytesIO(data)).convert("RGB")
    img.thumbnail((1600, 1600))
    scale = img.width / max(1, Image.open(io.BytesIO(data)).width)
    draw = ImageDraw.Draw(img)
    for d in detections:
        x1, y1, x2, y2 = (v * scale for v in d.box)
        colour = "red" if d.conf < LOW_CONFIDENCE else "lime"
        draw.rectangle((x1, y1, x2, y2), outline=colour, width=3)
        draw.text((x1 + 2, max(0, y1 - 12)), f"{d.tile} {d.conf:.2f}", fill=colour)
    return img


# ----------------------------------------------------------------------------- state


def state() -> Any:
    """Session defaults for the round being entered."""
    ss = st.session_state
    ss.setdefault("hand", [])
    ss.setdefault("sel", None)
    ss.setdefault("melds", [])
    ss.setdefault("result", None)
    ss.setdefault("refusal", None)
    return ss


def reset_round() -> None:
    """Forget the round being entered (after it was confirmed)."""
    for key in ("hand", "melds", "result", "refusal", "photo_key", "reading", "dealer", "false_win_seat", "editing_round"):
        st.session_state.pop(key, None)
    st.session_state["sel"] = None


def load_round(doc: dict[str, Any], round_id: int) -> None:
    """Put a stored round back on the page so that it can be fixed and confirmed again (replacing it)."""
    ss = st.session_state
    reset_round()
    win = doc.get("win") or {}
    winner = win.get("seat") if win.get("seat") in SEATS else None
    players = doc.get("players") or {}
    ss["hand"] = [x.code for x in parse_tiles((players.get(winner) or {}).get("hand", ""))] if winner else []
    ss["melds"] = [
        {"seat": s, **m} for s in SEATS for m in ((players.get(s) or {}).get("melds") or []) if isinstance(m, dict)
    ]
    ss["win_seat"] = winner or "none"
    if winner:
        ss["win_tile"] = tile(win.get("tile", "1m")).code
        ss["win_from"] = win.get("from", "self")
        ss["after_kong"] = bool(win.get("after_kong"))
        ss["robbed_kong"] = bool(win.get("robbed_kong"))
        ss["special"] = win.get("special", "none")
    ss["indicator"] = tile(doc.get("indicator", "1m")).code
    ss["dealer"] = doc.get("dealer", "E")
    ss["follow"] = int(doc.get("follow_dealer", 0))
    for s in SEATS:
        jing = (players.get(s) or {}).get("jing") or {}
        ss[f"jz_{s}"] = int(jing.get("zheng", 0))
        ss[f"jf_{s}"] = int(jing.get("fu", 0))
    ss["editing_round"] = round_id


def tap_hand(i: int) -> None:
    """Select a hand tile (tap again to unselect)."""
    st.session_state["sel"] = None if st.session_state.get("sel") == i else i


def tap_palette(code: str) -> None:
    """Replace the selected hand tile, or add a tile when none is selected."""
    ss = st.session_state
    sel = ss.get("sel")
    if sel is not None and 0 <= sel < len(ss["hand"]):
        ss["hand"][sel] = code
        ss["sel"] = None
    else:
        ss["hand"].append(code)
    ss["result"] = None


def remove_selected() -> None:
    ss = st.session_state
    sel = ss.get("sel")
    if sel is not None and 0 <= sel < len(ss["hand"]):
        ss["hand"].pop(sel)
    ss["sel"] = None
    ss["result"] = None


# ----------------------------------------------------------------------------- round document


def count_jing(codes: list[str], indicator: str) -> dict[str, int]:
    """正精 and 副精 among `codes` for `indicator`."""
    zheng, fu = jing_of(tile(indicator))
    return {"zheng": sum(c == zheng.code for c in codes), "fu": sum(c == fu.code for c in codes)}


def build_round(ss: Any, table: TableInfo) -> dict[str, Any]:
    """The round document (round-format.md) from what was entered on the page."""
    winner = ss.get("win_seat", "none")
    winner = None if winner == "none" else winner
    players: dict[str, Any] = {s: {} for s in SEATS}
    for m in ss["melds"]:
        seat = winner if m["seat"] == WINNER else m["seat"]
        if seat is None:  # the photo's melds, and nobody won: they are not anybody's
            continue
        meld = {k: v for k, v in m.items() if k not in ("seat", "photo") and v not in (None, "")}
        if m["type"] == "chi" and not meld.get("from"):
            meld["from"] = previous_seat(seat)  # a chi is always from 上家
        players[seat].setdefault("melds", []).append(meld)
    for s in SEATS:
        if s == winner:
            players[s]["hand"] = format_tiles(parse_tiles("".join(ss["hand"])))
        else:
            players[s]["jing"] = {"zheng": int(ss.get(f"jz_{s}", 0)), "fu": int(ss.get(f"jf_{s}", 0))}
    doc: dict[str, Any] = {
        "rules": table.rules,
        "options": dict(table.options),
        "unit": table.unit,
        "dealer": ss.get("dealer", "E"),
        "indicator": ss.get("indicator", "1m"),
        "players": players,
        "follow_dealer": int(ss.get("follow", 0)),
        "false_win": [],
    }
    if winner:
        doc["win"] = {
            "seat": winner,
            "tile": ss.get("win_tile", "1m"),
            "from": ss.get("win_from", "self"),
            "after_kong": bool(ss.get("after_kong", False)),
            "robbed_kong": bool(ss.get("robbed_kong", False)),
            "special": ss.get("special", "none"),
        }
    else:
        doc["win"] = None
    return doc


def false_win_round(doc: dict[str, Any]) -> dict[str, Any]:
    """The same round settled as 诈胡 by the would-be winner: no win, his 精 counted from his tiles."""
    seat = doc["win"]["seat"]
    me = doc["players"][seat]
    codes = [x.code for x in parse_tiles(me.get("hand", ""))] + [doc["win"]["tile"]]
    for m in me.get("melds", []):
        codes += [x.code for x in parse_tiles(m["tiles"])]
    out = {**doc, "win": None, "false_win": [seat]}
    out["players"] = {
        **doc["players"],
        seat: {"jing": count_jing(codes, doc["indicator"]), "melds": me.get("melds", [])},
    }
    if not out["players"][seat]["melds"]:
        out["players"][seat].pop("melds")
    return out


def settle_round(doc: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """(settlement document, None) or (None, the Chinese reason it was refused)."""
    import scoring

    try:
        return scoring.settle(doc).to_dict(), None
    except JingsuanError as exc:
        return None, exc.zh if lang() == "zh" else exc.en


# ----------------------------------------------------------------------------- page parts


def photo_part() -> None:
    ss = st.session_state
    guide = photo_guide(lang())
    if guide:
        with st.expander(tr("photo_guide"), expanded=False):
            st.markdown(guide)
    upload = st.file_uploader(tr("photo"), type=["jpg", "jpeg", "png", "webp"], key="photo")
    shot = st.camera_input(tr("camera"), key="camera") if ss.get("https") else None
    got = upload or shot
    if got is None:
        ss.pop("photo_bytes", None)
        return
    data = got.getvalue()
    ss["photo_bytes"] = data
    key = f"{got.name}:{len(data)}"
    if ss.get("photo_key") != key:
        ss["photo_key"] = key
        ss["photo_t0"] = time.perf_counter()
        reading = read_photo(data)
        ss["reading"] = reading
        apply_assignment(ss, reading)
    reading = ss.get("reading")
    if reading is None:
        return
    if reading.message:
        st.warning(reading.message)
    else:
        low = sum(d.conf < LOW_CONFIDENCE for d in reading.detections)
        st.info(tr("detected", n=len(reading.detections), low=low))
        if low:
            st.caption(" ".join(low_confidence_tiles(reading.detections)))
        for q in getattr(reading.assignment, "questions", None) or []:
            st.warning(q["zh"] if lang() == "zh" else q["en"])
        try:
            st.image(draw_boxes(data, reading.detections), width="stretch")
        except Exception:
            st.warning(tr("detect_failed", msg="image"))


PALETTE_CSS = """
<style>
.st-key-palette [data-testid="stHorizontalBlock"], .st-key-handrow [data-testid="stHorizontalBlock"] {
  flex-wrap: wrap; flex-direction: row; gap: 0.2rem; }
.st-key-palette [data-testid="stColumn"], .st-key-handrow [data-testid="stColumn"] {
  min-width: 3.2rem; width: auto; flex: 0 0 auto; }
.st-key-palette button, .st-key-handrow button { padding: 0.2rem 0.35rem; min-height: 2.2rem; }
</style>
"""


def hand_part() -> None:
    ss = st.session_state
    st.markdown(PALETTE_CSS, unsafe_allow_html=True)
    st.subheader(tr("hand"))
    st.caption(tr("hand_hint"))
    with st.container(key="handrow"):
        hand = ss["hand"]
        if hand:
            cols = st.columns(min(len(hand), 14))
            for i, code in enumerate(hand):
                label = ("▶" if ss.get("sel") == i else "") + tile_label(code)
                cols[i % len(cols)].button(label, key=f"hand_{i}", on_click=tap_hand, args=(i,))
    st.caption(tr("tile_count", n=len(ss["hand"]), m=len([m for m in ss["melds"] if m["seat"] in (WINNER, ss.get("win_seat"))])))
    with st.container(key="palette"):
        for row in range(4):
            codes = ALL_CODES[row * 9 : row * 9 + 9]
            cols = st.columns(9)
            for c, code in zip(cols, codes):
                c.button(tile_label(code), key=f"pal_{code}", on_click=tap_palette, args=(code,))
    c1, c2 = st.columns(2)
    c1.button(tr("remove"), key="remove_sel", on_click=remove_selected)
    c2.button(tr("clear"), key="clear_hand", on_click=lambda: ss.update(hand=[], sel=None, result=None))


def meld_part(table: TableInfo) -> None:
    ss = st.session_state
    with st.expander(tr("melds"), expanded=bool(ss["melds"])):
        for i, m in enumerate(ss["melds"]):
            c1, c2 = st.columns([4, 1])
            who = tr("meld_winner") if m["seat"] == WINNER else seat_label(m["seat"], table)
            src = f" ← {seat_label(m['from'], table)}" if m.get("from") else ""
            c1.write(f"{who}：{MELD_TYPES[m['type']]} {tile_label_run(m['tiles'])}{src}")
            if m.get("photo") and m["type"] in ("peng", "gang", "bugang"):
                c1.selectbox(tr("meld_from_photo"), ["", *SEATS], key=f"meld_from_{i}",
                             index=(["", *SEATS].index(m["from"]) if m.get("from") in SEATS else 0),
                             format_func=lambda s: seat_label(s, table) if s else "—",
                             on_change=_set_meld_from, args=(i,))
            if c2.button(tr("meld_remove"), key=f"meld_del_{i}"):
                ss["melds"].pop(i)
                ss["result"] = None
                st.rerun()
        with st.form("meld_form", clear_on_submit=True):
            seat = st.selectbox(tr("meld_seat"), SEATS, format_func=lambda s: seat_label(s, table), key="m_seat")
            kind = st.selectbox(tr("meld_type"), list(MELD_TYPES), format_func=MELD_TYPES.get, key="m_type")
            tiles_text = st.text_input(tr("meld_tiles"), key="m_tiles")
            src = st.selectbox(
                tr("meld_from"), ["", *SEATS], format_func=lambda s: seat_label(s, table) if s else "—", key="m_from"
            )
            from_hand = st.checkbox(tr("meld_from_hand"), key="m_from_hand")
            if st.form_submit_button(tr("meld_add")):
                add_meld(seat, kind, tiles_text, src, from_hand)


def _set_meld_from(i: int) -> None:
    """The player said who discarded the tile of a photo meld."""
    ss = st.session_state
    if 0 <= i < len(ss["melds"]):
        ss["melds"][i]["from"] = ss.get(f"meld_from_{i}") or None
        ss["result"] = None


def tile_label_run(text: str) -> str:
    return "".join(tile_label(x.code) for x in parse_tiles(text)) if lang() == "zh" else text


def add_meld(seat: str, kind: str, tiles_text: str, src: str, from_hand: bool) -> None:
    """Add a declared meld or kong; with `from_hand`, its tiles leave the winner's concealed hand."""
    ss = st.session_state
    try:
        codes = [x.code for x in parse_tiles(tiles_text)]
    except JingsuanError as exc:
        st.error(tr("bad_tiles", msg=exc.zh))
        return
    if len(codes) != MELD_SIZE[kind]:
        st.error(tr("bad_tiles", msg=f"{MELD_TYPES[kind]}要 {MELD_SIZE[kind]} 张牌"))
        return
    if from_hand:
        hand = list(ss["hand"])
        for c in codes:
            if c not in hand:
                st.error(tr("bad_tiles", msg=f"手牌里没有 {tile_label(c)}"))
                return
            hand.remove(c)
        ss["hand"] = hand
        ss["sel"] = None
    meld: dict[str, Any] = {"seat": seat, "type": kind, "tiles": format_tiles(parse_tiles(codes))}
    if kind != "angang":
        meld["from"] = src or None
    if kind == "chi" and src:
        meld["claimed"] = codes[1]
    ss["melds"].append(meld)
    ss["result"] = None


def win_part(ledger: Ledger, table: TableInfo) -> None:
    ss = st.session_state
    c1, c2 = st.columns(2)
    c1.selectbox(tr("win_tile"), ALL_CODES, format_func=tile_label, key="win_tile")
    c2.selectbox(tr("indicator"), ALL_CODES, format_func=tile_label, key="indicator")
    if "dealer" not in ss:
        ss["dealer"] = ledger.current_dealer(table.id)
    st.selectbox(tr("dealer"), SEATS, format_func=lambda s: seat_label(s, table), key="dealer")
    st.subheader(tr("win"))
    st.radio(
        tr("winner"),
        [*SEATS, "none"],
        format_func=lambda s: tr("draw") if s == "none" else seat_label(s, table),
        key="win_seat",
        horizontal=True,
    )
    winner = ss.get("win_seat")
    if winner and winner != "none":
        froms = ["self", *[s for s in SEATS if s != winner]]
        st.radio(
            tr("from"),
            froms,
            format_func=lambda s: tr("self_draw") if s == "self" else tr("discard_by", seat=seat_label(s, table)),
            key="win_from",
            horizontal=True,
        )
        c1, c2 = st.columns(2)
        c1.checkbox(tr("after_kong"), key="after_kong")
        c2.checkbox(tr("robbed_kong"), key="robbed_kong")
        st.radio(
            tr("special"),
            ["none", "tianhu", "dihu"],
            format_func=lambda s: tr("special_none" if s == "none" else s),
            key="special",
            horizontal=True,
        )
    st.subheader(tr("others_jing"))
    for s in SEATS:
        if s == winner:
            continue
        c0, c1, c2 = st.columns([2, 2, 2])
        c0.write(seat_label(s, table))
        c1.number_input(tr("zheng"), 0, 8, 0, key=f"jz_{s}")
        c2.number_input(tr("fu"), 0, 8, 0, key=f"jf_{s}")
    st.number_input(tr("follow"), 0, 20, 0, key="follow")


def settlement_table(settlement: dict[str, Any], table: TableInfo) -> Any:
    """Rows = components (胡 精 杠 跟庄 罚 合计), columns = players; only components with any money."""
    import pandas as pd

    deltas = settlement.get("deltas", {})
    rows, index = [], []
    for comp in COMPONENTS:
        d = deltas.get(comp) or {}
        if any(d.get(s, 0) for s in SEATS):
            rows.append([d.get(s, 0) for s in SEATS])
            index.append(COMPONENT_ZH[comp] if lang() == "zh" else COMPONENT_EN[comp])
    rows.append([settlement.get("total", {}).get(s, 0) for s in SEATS])
    index.append(tr("total"))
    return pd.DataFrame(rows, index=index, columns=[seat_label(s, table) for s in SEATS])


def result_part(ledger: Ledger, table: TableInfo) -> None:
    ss = st.session_state
    result, doc = ss.get("result"), ss.get("result_doc")
    if ss.get("refusal"):
        fw = ss.get("false_win_seat")
        st.error(tr("refused" if fw else "refused_round", msg=ss["refusal"]))
        if fw and st.button(tr("false_win", seat=seat_label(fw, table)), key="false_win"):
            fdoc = false_win_round(ss["attempt_doc"])
            settlement, why = settle_round(fdoc)
            ss["refusal"] = why
            ss["false_win_seat"] = None
            ss["result"], ss["result_doc"] = settlement, fdoc
            st.rerun()
    if not result:
        return
    st.subheader(tr("settlement"))
    if ss.get("photo_t0"):
        elapsed = time.perf_counter() - ss.pop("photo_t0")
        st.caption(f"⏱ {elapsed:.2f} s")
    names = (result.get("win") or {}).get("names") or []
    if names:
        st.markdown("**" + " · ".join(names) + "**")
    st.table(settlement_table(result, table))
    with st.expander(tr("payments"), expanded=False):
        for p in result.get("payments", []):
            why = COMPONENT_ZH.get(p["reason"], p["reason"])
            st.write(tr("pays", a=seat_label(p["from"], table), b=seat_label(p["to"], table), n=p["amount"], why=why))
    if result.get("explanation"):
        st.markdown(tr("explanation"))
        for line in result["explanation"]:
            st.write(f"- {line}")
    for w in result.get("warnings", []):
        st.warning(w)
    if st.button(tr("confirm"), type="primary", key="confirm"):
        editing = ss.get("editing_round")
        try:
            if editing:
                ledger.edit_round(editing, doc, result)
                seq = ledger.round(editing).seq
            else:
                ledger.add_round(table.id, doc, result)
                seq = len(ledger.rounds(table.id))
        except LedgerError as exc:
            st.error(exc.zh)
            return
        reset_round()
        st.session_state["last_confirmed"] = seq
        st.rerun()


EXAMPLE_DATASET = "table"


def save_example() -> None:
    """Save the photo, its detections as corrected by the hand, and the round's details into datasets/table."""
    from app.annotate_logic import save_score_example
    from vision.dataset_store import open_dataset

    ss = st.session_state
    data = ss.get("photo_bytes")
    if not data:
        return
    reading = ss.get("reading")
    detections = list(getattr(reading, "detections", []) or [])
    winner = ss.get("win_seat")
    try:
        store = open_dataset(EXAMPLE_DATASET)
        stem, what = save_score_example(
            store,
            data,
            detections,
            list(ss.get("hand", [])),
            ss.get("win_tile") if winner and winner != "none" else None,
            ss.get("indicator"),
            list(ss.get("melds", [])),
        )
    except JingsuanError as exc:
        ss["example_msg"] = ("error", exc.zh if lang() == "zh" else exc.en)
        return
    ss["example_msg"] = ("success", tr(f"example_{what}", name=EXAMPLE_DATASET, stem=stem))


def example_part() -> None:
    """One button: keep this photo as a labelled example for training (only when a photo was given)."""
    ss = st.session_state
    if ss.get("photo_bytes"):
        st.button(tr("save_example"), key="save_example", on_click=save_example)
    msg = ss.pop("example_msg", None)
    if msg:
        (st.success if msg[0] == "success" else st.error)(msg[1])


def do_settle(table: TableInfo) -> None:
    ss = st.session_state
    try:
        doc = build_round(ss, table)
    except JingsuanError as exc:
        ss["refusal"], ss["result"] = exc.zh, None
        return
    settlement, why = settle_round(doc)
    ss["result"], ss["result_doc"], ss["refusal"] = settlement, doc, why
    ss["attempt_doc"] = doc
    ss["false_win_seat"] = doc["win"]["seat"] if why and doc.get("win") else None


def render() -> None:
    """The 算分 page."""
    ss = state()
    ledger = get_ledger()
    if ledger is None:
        return
    table = current_table(ledger)
    st.title(tr("page_score"))
    if ss.get("load_round"):
        rid = ss.pop("load_round")
        load_round(ledger.round(rid).round_doc, rid)
    if ss.get("editing_round"):
        st.info(tr("editing", seq=ledger.round(ss["editing_round"]).seq))
    if ss.get("last_confirmed"):
        st.success(tr("confirmed", seq=ss.pop("last_confirmed")))
    photo_part()
    hand_part()
    meld_part(table)
    win_part(ledger, table)
    if st.button(tr("settle"), type="primary", key="settle"):
        do_settle(table)
    result_part(ledger, table)
    example_part()


if __name__ == "__main__":
    render()
