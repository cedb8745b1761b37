"""算分: photo → tiles (or tiles by hand) → win details → settlement → confirm into the ledger."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from app import memory_store
from app import score_logic as logic
from app.ledger import Ledger, LedgerError, TableInfo
from app.score_logic import LOW_CONFIDENCE, MELD_TYPES, WINNER, RoundDraft
from app.views.common import ALL_CODES, SEATS, current_table, get_ledger, lang, ledger_path, seat_label, tile_label, tr
from app.widgets.read_hand import read_hand_part
from app.widgets.seat_photo import seat_photo_part
from app.widgets.taught import PROBLEM_KEY, table_memory, taught_part
from scoring.errors import JingsuanError
from scoring.settlement import COMPONENT_ZH, COMPONENTS
from scoring.tiles import parse_tiles

COMPONENT_EN = {"hu": "Win", "jing": "精", "gang": "Kong", "follow": "跟庄", "penalty": "Penalty"}
#: The round's less used details, folded away on the phone: (zh, en).
MORE_ROUND = ("庄家 · 跟庄 · 天胡/地胡", "Dealer · 跟庄 · heavenly/earthly hand")

# ----------------------------------------------------------------------------- photo adapter


@dataclass
class PhotoReading:
    """What the photo gave: detections (box, tile, conf), a proposed hand, or why nothing came out."""

    detections: list[Any] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    message: str = ""
    seconds: float = 0.0
    assignment: Any = None


def read_photo(data: bytes, options: Any = None, memory: dict[str, Any] | None = None) -> PhotoReading:
    """`vision.read_photo` (the one photo pipeline: detector, layout, the most probable legal round under the
    table's `options`, read as the table taught its tiles: `memory`, `memory_store.read_args`); a missing
    model or a broken photo is a message, not a crash."""
    start = time.perf_counter()
    try:
        import vision

        reading = vision.read_photo(data, options=options, **(memory or {}))
    except ModuleNotFoundError:
        return PhotoReading(message=tr("no_model"), seconds=time.perf_counter() - start)
    except JingsuanError as exc:
        return PhotoReading(message=tr("detect_failed", msg=exc.zh), seconds=time.perf_counter() - start)
    except Exception as exc:  # a broken model or image must not take the page down
        return PhotoReading(message=tr("detect_failed", msg=type(exc).__name__), seconds=time.perf_counter() - start)
    detections, result = list(reading.detections), reading.assignment
    return PhotoReading(detections, proposed_hand(detections, result), "", time.perf_counter() - start, result)


def assignment_of(detections: list[Any]) -> Any:
    """The layout's reading of `detections` (`vision.reader.layout.assign`), or None when it fails."""
    try:
        from vision.reader.layout import assign

        return assign(detections)
    except Exception:  # a broken layout must not take the photo reading down
        return None


def proposed_hand(detections: list[Any], result: Any = None) -> list[str]:
    """The winner's tiles the photo suggests (hand + winning tile): the layout's, else face-up tiles left to right."""
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


# ----------------------------------------------------------------------------- state


def draft() -> RoundDraft:
    """The round being entered in this browser session (one object under one session key)."""
    ss = st.session_state
    current = ss.get(logic.DRAFT_KEY)
    if current is None or not hasattr(current, "upload_key"):  # duck-typed: a reloaded module makes a new class
        current = ss[logic.DRAFT_KEY] = RoundDraft()
    return current


def start_round(new: RoundDraft, entries: dict[str, Any] | None = None) -> None:
    """Replace the round on the page: a fresh draft, the widgets emptied (then set from `entries`)."""
    ss = st.session_state
    logic.clear_entries(ss)
    ss[logic.DRAFT_KEY] = new
    for key, value in (entries or {}).items():
        logic.note_filled(new, ss, key, value)
        ss[key] = value
    new.entries = dict(entries or {})


def entries() -> dict[str, Any]:
    """The widgets' values of the round (winner, winning tile, 翻精, …) as a plain dict."""
    ss = st.session_state
    return {key: ss[key] for key in logic.ENTRY_KEYS if key in ss}


# ----------------------------------------------------------------------------- page parts


def photo_part(d: RoundDraft, table: TableInfo) -> None:
    ss = st.session_state
    guide = photo_guide(lang())
    if guide and not (ss.get(d.upload_key) or d.photo_kept):  # how to shoot: before the photo, not under it
        with st.expander(tr("photo_guide"), expanded=False):
            st.markdown(guide)
    # Streamlit empties the uploader while another page is shown (its key is gone then); the player's ✕ leaves it
    lost = d.upload_key not in ss and f"camera_{d.upload_gen}" not in ss
    upload = st.file_uploader(tr("photo"), type=["jpg", "jpeg", "png", "webp"], key=d.upload_key)
    shot = st.camera_input(tr("camera"), key=f"camera_{d.upload_gen}") if ss.get("https") else None
    got = upload or shot
    if got is not None:
        d.photo_kept = False
        read_upload(d, got, table)
    elif lost and d.photo_bytes:  # the round keeps its photo: its boxes stay tappable, its fixes are still taught
        d.photo_kept = True
    elif not d.photo_kept:  # the photo taken away: the round's photo goes with it
        d.photo_bytes = None
    if d.photo_bytes is None:
        return
    reading = d.reading
    if reading is None:
        return
    if reading.message:
        st.warning(reading.message)
        return
    if heap := logic.not_a_hand(logic.tiles_read(reading), lang()):  # one clear word, not a wall of questions
        st.warning(heap)
        return
    low = sum(d_.conf < LOW_CONFIDENCE for d_ in reading.detections)
    if low:  # the tiles to check are outlined on the photo and in the row; the count says how many
        st.caption(tr("detected", n=len(reading.detections), low=low))
    questions_part(d)  # the photo itself, with numbered boxes to tap, is drawn by hand_part


def read_upload(d: RoundDraft, got: Any, table: TableInfo) -> None:
    """A photo in the uploader: read once (as the table taught its tiles), its tiles put into the round."""
    ss = st.session_state
    data = got.getvalue()
    d.photo_bytes = data
    key = f"{got.name}:{len(data)}"
    if d.photo_key != key:
        d.photo_key = key
        d.photo_t0 = time.perf_counter()
        memory = table_memory(lang())  # the current table's, `table`
        d.reading = read_photo(data, logic.table_options(table), **({"memory": memory} if memory else {}))
        for name, value in logic.apply_reading(d, d.reading).items():
            logic.note_filled(d, ss, name, value, drawing=True)
            ss[name] = value


def questions_part(d: RoundDraft) -> None:
    """The photo's open questions, each with 知道了; one a widget answers goes once that widget has a value."""
    questions = getattr(getattr(d.reading, "assignment", None), "questions", None) or []
    for i, q in logic.open_questions(questions, entries(), d.dismissed):
        c1, c2 = st.columns([5, 1])
        c1.warning(q["zh"] if lang() == "zh" else q["en"])
        c2.button(tr("question_done"), key=f"question_done_{i}", on_click=d.dismissed.add, args=(str(i),))


def hand_part(d: RoundDraft) -> None:
    """The photo with tappable numbered boxes and the read hand as tile pictures (app.widgets.read_hand)."""
    read_hand_part(d, logic.FilledEntries(st.session_state, d), lang=lang(), label=tile_label,
                   clear=(tr("clear"), d.clear_hand))


def memory_part(d: RoundDraft, table: TableInfo, confirmed: bool = False) -> None:
    """The tiles the player changed on the photo are taught to the table's memory (`confirmed`: every tile of
    the read hand); under the row, '这桌已教会 N 张牌' once the table taught any (one short line: a phone's screen)."""
    path = memory_store.memory_path(ledger_path())
    problem = memory_store.sync_score(st.session_state, path, memory_store.current_model(),
                                      memory_store.table_key(table), d, entries(),
                                      confirmed, lang())
    if problem:
        st.session_state[PROBLEM_KEY] = problem
    if not confirmed:
        taught_part(path, memory_store.table_key(table), lang(), forget=False, hide_none=True)


def meld_type_label(kind: str) -> str:
    return MELD_TYPES[kind] if lang() == "zh" else logic.MELD_TYPES_EN[kind]


def meld_part(d: RoundDraft, table: TableInfo) -> None:
    ss = st.session_state
    missing = logic.melds_missing_source(d.melds)
    with st.expander(tr("melds"), expanded=bool(d.melds)):
        for i, m in enumerate(d.melds):
            c1, c2 = st.columns([4, 1])
            who = tr("meld_winner") if m["seat"] == WINNER else seat_label(m["seat"], table)
            src = f" ← {seat_label(m['from'], table)}" if m.get("from") else ""
            c1.write(f"{who}：{meld_type_label(m['type'])} {tile_label_run(m['tiles'])}{src}")
            if i in missing or (m.get("photo") and m["type"] in logic.NEEDS_SOURCE):
                ss[f"meld_from_{i}"] = m.get("from") or ""
                c1.selectbox(tr("meld_from_photo"), ["", *SEATS], key=f"meld_from_{i}",
                             format_func=lambda s: seat_label(s, table) if s else tr("choose"),
                             on_change=lambda i=i: d.set_meld_source(i, ss.get(f"meld_from_{i}")))
            c2.button(tr("meld_remove"), key=f"meld_del_{i}", on_click=d.remove_meld, args=(i,))
        with st.form("meld_form", clear_on_submit=True):
            st.selectbox(tr("meld_seat"), SEATS, format_func=lambda s: seat_label(s, table), key="m_seat")
            st.selectbox(tr("meld_type"), list(MELD_TYPES), format_func=meld_type_label, key="m_type")
            st.text_input(tr("meld_tiles"), key="m_tiles")
            st.selectbox(tr("meld_from"), ["", *SEATS], format_func=lambda s: seat_label(s, table) if s else "—", key="m_from")
            st.checkbox(tr("meld_from_hand"), key="m_from_hand")
            st.form_submit_button(tr("meld_add"), on_click=submit_meld, args=(d,))
            if d.meld_error:
                st.error(d.meld_error)


def submit_meld(d: RoundDraft) -> None:
    """加上这组: add the typed meld before the page is drawn again, so it shows at once."""
    ss = st.session_state
    d.meld_error = None
    try:
        logic.add_meld(d, ss.get("m_seat", "E"), ss.get("m_type", "chi"), ss.get("m_tiles", ""), ss.get("m_from") or None,
                       bool(ss.get("m_from_hand")))
    except JingsuanError as exc:
        d.meld_error = logic.error_text(exc, lang())


def tile_label_run(text: str) -> str:
    return "".join(tile_label(x.code) for x in parse_tiles(text)) if lang() == "zh" else text


def win_part(ledger: Ledger, table: TableInfo) -> None:
    ss = st.session_state
    with st.container(key="win_tile_indicator", horizontal=True, gap="small"):  # side by side on a phone too
        st.selectbox(tr("win_tile"), ALL_CODES, index=None, placeholder=tr("choose"), format_func=tile_label,
                     key="win_tile", width=160)
        st.selectbox(tr("indicator"), ALL_CODES, index=None, placeholder=tr("choose"), format_func=tile_label,
                     key="indicator", width=160)
    if "dealer" not in ss:
        ss["dealer"] = ledger.current_dealer(table.id)
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
        with st.container(key="win_extras", horizontal=True, gap="medium"):
            st.checkbox(tr("after_kong"), key="after_kong")
            st.checkbox(tr("robbed_kong"), key="robbed_kong")
    others = [s for s in SEATS if s != winner]
    counts = "，".join(f"{seat_label(s)} {int(ss.get(f'jz_{s}') or 0)}/{int(ss.get(f'jf_{s}') or 0)}" for s in others)
    with st.expander(f"{tr('others_jing')}（{tr('zheng')}/{tr('fu')}：{counts}）", key="others_jing"):
        for s in others:
            with st.container(key=f"jing_row_{s}", horizontal=True, vertical_alignment="center", gap="small"):
                st.markdown(seat_label(s, table), width=80)
                st.number_input(tr("zheng"), 0, 8, key=f"jz_{s}", width=118)  # starts at its least, 0: the
                st.number_input(tr("fu"), 0, 8, key=f"jf_{s}", width=118)  # round's kept value goes in unwarned
        seat_photo_part(others, ss.get("indicator"), seat_label=lambda s: seat_label(s, table), lang=lang(),
                        upload_gen=draft().upload_gen, framed=False)
    with st.expander(MORE_ROUND[lang() == "en"], expanded=False):
        st.selectbox(tr("dealer"), SEATS, format_func=lambda s: seat_label(s, table), key="dealer")
        st.number_input(tr("follow"), 0, 20, key="follow")
        if winner and winner != "none":
            st.radio(
                tr("special"),
                ["none", "tianhu", "dihu"],
                format_func=lambda s: tr("special_none" if s == "none" else s),
                key="special",
                horizontal=True,
            )


def settlement_table(settlement: dict[str, Any], table: TableInfo) -> Any:
    """Rows = components (胡 精 杠 跟庄 罚 合计), columns = players; only components with any money."""
    import pandas as pd

    deltas = settlement.get("deltas", {})
    rows, index = [], []
    for comp in COMPONENTS:
        dd = deltas.get(comp) or {}
        if any(dd.get(s, 0) for s in SEATS):
            rows.append([dd.get(s, 0) for s in SEATS])
            index.append(COMPONENT_ZH[comp] if lang() == "zh" else COMPONENT_EN[comp])
    rows.append([settlement.get("total", {}).get(s, 0) for s in SEATS])
    index.append(tr("total"))
    return pd.DataFrame(rows, index=index, columns=[seat_label(s, table) for s in SEATS])


def settle_round(doc: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """(settlement document, None) or (None, the reason it was refused, in this session's language)."""
    import scoring

    try:
        return scoring.settle(doc).to_dict(), None
    except JingsuanError as exc:
        return None, logic.error_text(exc, lang())


def do_settle(d: RoundDraft, table: TableInfo) -> None:
    """结算: a question when something is not said yet, else the settlement or why the hand cannot win."""
    logic.keep_filled(d, st.session_state)  # a tap before the browser showed 胡 / 翻精 sends them empty
    d.touched()
    try:
        doc = logic.build_round(d, entries(), table)
    except logic.MissingAnswer as exc:
        d.ask = logic.error_text(exc, lang())
        return
    except JingsuanError as exc:
        d.refusal = tr("refused_round", msg=logic.error_text(exc, lang()))
        return
    settlement, why = settle_round(doc)
    d.result, d.result_doc, d.attempt_doc = settlement, doc, doc
    if why:
        d.false_win_seat = doc["win"]["seat"] if doc.get("win") else None
        d.refusal = logic.refusal_text(why, lang()) if d.false_win_seat else tr("refused_round", msg=why)


def settle_as_false_win(d: RoundDraft) -> None:
    """按诈胡处理: the refused hand settled as 诈胡 by the would-be winner."""
    fdoc = logic.false_win_round(d.attempt_doc or {})
    settlement, why = settle_round(fdoc)
    d.refusal = tr("refused_round", msg=why) if why else None
    d.false_win_seat = None
    d.result, d.result_doc = settlement, fdoc


def confirm(d: RoundDraft, ledger: Ledger, table: TableInfo) -> None:
    """确认记账: into the ledger, then a clean round (the table and the ledger's next dealer kept)."""
    logic.keep_filled(d, st.session_state)
    before = entries()
    rid = None
    memory_part(d, table, confirmed=True)  # every tile of the photo's read hand is confirmed now
    try:
        if d.editing_round:
            ledger.edit_round(d.editing_round, d.result_doc, d.result)
            seq = ledger.round(d.editing_round).seq
        else:
            rid = ledger.add_round(table.id, d.result_doc, d.result)
            seq = ledger.round(rid).seq  # its own number (a count would be short past a damaged row)
    except LedgerError as exc:
        d.refusal = logic.error_text(exc, lang())
        return
    start_round(d.next_round())
    st.session_state[logic.DRAFT_KEY].recorded = seq
    st.session_state[UNDO_KEY] = (rid, seq, d, before) if rid else None


#: The rounds being entered at the session's other tables: {table id: draft}, each resumed when its table is chosen.
PARKED_KEY = "score_parked"
#: The round just recorded, to take back once: (round id, its number, its draft, its widget values).
UNDO_KEY = "score_undo"
#: (zh, en) of the take-back button and what it says after.
UNDO_TEXT = {"undo": ("撤销这一局", "Undo this round"),
             "undone": ("已撤销第 {seq} 局，它回到了页面上，可以改了再记", "Round {seq} taken back: it is on the page again")}


def undo_recorded(ledger: Ledger) -> None:
    """撤销这一局 right after 确认记账: the round leaves the ledger and comes back on the page as it was."""
    undo = st.session_state.pop(UNDO_KEY, None)
    if not undo:
        return
    rid, seq, old, values = undo
    try:
        ledger.delete_round(rid)
    except LedgerError as exc:
        st.session_state[logic.DRAFT_KEY].refusal = logic.error_text(exc, lang())
        return
    old.recorded = None
    start_round(old, values)
    st.toast(UNDO_TEXT["undone"][lang() == "en"].format(seq=seq), icon="↩️")


def result_part(d: RoundDraft, ledger: Ledger, table: TableInfo) -> None:
    if d.ask:
        st.warning(d.ask)
    if d.refusal:
        st.error(d.refusal)
        if d.false_win_seat:
            st.button(tr("false_win", seat=seat_label(d.false_win_seat, table)), key="false_win",
                      on_click=settle_as_false_win, args=(d,))
    if not d.result:
        return
    names = (d.result.get("win") or {}).get("names") or []
    took = f":material/timer: {time.perf_counter() - d.photo_t0:.2f} s" if d.photo_t0 else ""
    d.photo_t0 = None
    st.markdown(f"**{tr('settlement')}**" + (" · " + " · ".join(names) if names else "") + (f"　:gray[{took}]" if took else ""))
    st.table(settlement_table(d.result, table))
    for w in d.result.get("warnings", []):
        st.warning(w)
    st.button(tr("confirm"), type="primary", key="confirm", on_click=confirm, args=(d, ledger, table))
    with st.expander(tr("payments"), expanded=False):
        for p in d.result.get("payments", []):
            why = COMPONENT_ZH.get(p["reason"], p["reason"])
            st.write(tr("pays", a=seat_label(p["from"], table), b=seat_label(p["to"], table), n=p["amount"], why=why))
        if d.result.get("explanation"):
            st.markdown(tr("explanation"))
            for line in d.result["explanation"]:
                st.write(f"- {line}")


EXAMPLE_DATASET = "table"


def save_example(d: RoundDraft) -> None:
    """Save the photo, its detections as corrected by the hand, and the round's details into datasets/table."""
    from app.annotate_logic import save_score_example
    from vision.datasets.store import open_dataset

    if not d.photo_bytes:
        return
    detections = list(getattr(d.reading, "detections", []) or [])
    values = entries()
    try:
        store = open_dataset(EXAMPLE_DATASET)
        stem, what = save_score_example(
            store,
            d.photo_bytes,
            detections,
            list(d.hand),
            values.get("win_tile") if logic.winner_of(values) else None,
            values.get("indicator"),
            list(d.melds),
        )
    except JingsuanError as exc:
        d.example_msg = ("error", logic.error_text(exc, lang()))
        return
    d.example_msg = ("success", tr(f"example_{what}", name=EXAMPLE_DATASET, stem=stem))


def example_part(d: RoundDraft) -> None:
    """One button: keep this photo as a labelled example for training (only when a photo was given)."""
    if d.photo_bytes:
        st.button(tr("save_example"), key="save_example", on_click=save_example, args=(d,))
    msg, d.example_msg = d.example_msg, None
    if msg:
        (st.success if msg[0] == "success" else st.error)(msg[1])


def render() -> None:
    """The 算分 page."""
    ss = st.session_state
    ledger = get_ledger()
    if ledger is None:
        return
    table = current_table(ledger)
    st.title(tr("page_score"))
    if ss.get("load_round"):
        rid = ss.pop("load_round")
        start_round(*logic.load_round(ledger.round(rid).round_doc, rid))
    d = draft()
    if (at_table := d.at_table(table.id, ss.setdefault(PARKED_KEY, {}))) is not d:  # another table: its own round
        ss.pop(UNDO_KEY, None)
        start_round(at_table, at_table.entries)
        d = at_table
    logic.restore_entries(d, ss)  # the round's values, which Streamlit dropped while another page was shown
    logic.relabel(d, ss, lang())  # English or Chinese chosen: the round's choices in the new labels
    logic.keep_filled(d, ss)
    d.drawings += 1
    if d.editing_round:
        st.info(tr("editing", seq=ledger.round(d.editing_round).seq))
    photo_part(d, table)
    hand_part(d)
    memory_part(d, table)
    meld_part(d, table)
    win_part(ledger, table)
    if d.recorded:  # said where the player is: at the bottom, where 确认记账 was, and as a toast
        with st.container(key="recorded", horizontal=True, vertical_alignment="center"):
            st.success(tr("confirmed", seq=d.recorded))
            if st.session_state.get(UNDO_KEY):  # taken back with one tap, until the next tap on the page
                st.button(UNDO_TEXT["undo"][lang() == "en"], key="undo_recorded", on_click=undo_recorded, args=(ledger,))
        st.toast(tr("confirmed_toast"), icon=":material/check_circle:")
        d.recorded = None
    st.button(tr("settle"), type="primary", key="settle", on_click=do_settle, args=(d, table))
    result_part(d, ledger, table)
    example_part(d)
    logic.remember_entries(d, entries())  # drawn: the values as the page shows them now
