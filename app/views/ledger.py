"""牌局: players and seats, every round with its breakdown, running totals and chart, edit/undo, export/import."""

from __future__ import annotations

import json
import os
from typing import Any

import streamlit as st

from app.ledger import (
    ENV_DATA_DIR,
    Ledger,
    LedgerError,
    RoundRecord,
    TableInfo,
    data_dir_locked,
    default_data_dir,
    save_data_dir_setting,
)
from app.memory_store import memory_path, table_key
from app.views.common import SEATS, current_table, get_ledger, lang, ledger_path, seat_label, tr
from app.widgets.taught import taught_part
from scoring.errors import JingsuanError
from scoring.settlement import COMPONENT_ZH, COMPONENTS


def round_result(r: RoundRecord, table: TableInfo) -> str:
    """胡牌者 and the hand's names, or 流局."""
    if r.winner is None:
        fw = r.round_doc.get("false_win") or []
        return ("诈胡 " + " ".join(seat_label(s, table) for s in fw)) if fw else ("流局" if lang() == "zh" else "draw")
    return f"{seat_label(r.winner, table)} " + " ".join(r.names)


def breakdown(r: RoundRecord) -> str:
    """胡+9 精-2 … for the row's details, seat by seat."""
    deltas = r.settlement.get("deltas", {})
    parts = []
    for s in SEATS:
        bits = [f"{COMPONENT_ZH[c]}{deltas.get(c, {}).get(s, 0):+d}" for c in COMPONENTS if deltas.get(c, {}).get(s, 0)]
        parts.append(f"{s}: " + (" ".join(bits) or "0"))
    return " | ".join(parts)


def rounds_frame(rounds: list[RoundRecord], table: TableInfo) -> Any:
    import pandas as pd

    rows = []
    for r in rounds:
        row: dict[str, Any] = {tr("round_no"): r.seq}
        for s in SEATS:  # the four scores first: on a phone they fit the screen, the rest scrolls
            row[table.players[s]] = r.total.get(s, 0)
        row[tr("dealer")] = seat_label(r.dealer)
        row[tr("result")] = round_result(r, table)
        for s in SEATS:
            row[f"Σ {table.players[s]}"] = r.running[s]
        row["明细" if lang() == "zh" else "breakdown"] = breakdown(r)
        rows.append(row)
    return pd.DataFrame(rows)


def players_part(ledger: Ledger, table: TableInfo) -> None:
    with st.expander(tr("players")), st.form("players_form"):
        names = {s: st.text_input(seat_label(s), table.players[s], key=f"pname_{s}") for s in SEATS}
        if st.form_submit_button(tr("save")):
            ledger.set_players(table.id, names)
            st.rerun()


#: One colour per seat in the chart (东 南 西 北), told apart at a glance and by colour-blind eyes (Okabe–Ito).
SEAT_COLOURS: tuple[str, ...] = ("#D55E00", "#0072B2", "#009E73", "#CC79A7")

#: Python's JSON complaints in a player's words (any other: 这里的写法不对).
JSON_PROBLEMS_ZH: dict[str, str] = {
    "Expecting ',' delimiter": "这里少了一个逗号 ,",
    "Expecting ':' delimiter": "这里少了一个冒号 :",
    "Expecting value": "这里缺一个值（或多了一个逗号）",
    "Expecting property name enclosed in double quotes": "名称要用英文双引号 \" \" 括起来（或多了一个逗号）",
    "Unterminated string starting at": "引号没有配对（少了结尾的 \"）",
    "Invalid control character at": "引号里有换行之类不能直接写的字符",
    "Extra data": "内容在结尾之后还有多余的字",
    "Invalid \\escape": "反斜杠 \\ 的写法不对",
}


def json_problem(exc: json.JSONDecodeError, language: str) -> str:
    """Where a round's JSON is broken (line, column) and what is wrong there, in the player's language."""
    if language != "zh":
        return f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
    return f"第 {exc.lineno} 行第 {exc.colno} 列：{JSON_PROBLEMS_ZH.get(exc.msg, '这里的写法不对')}"


def excel_csv(text: str) -> bytes:
    """The CSV as Excel opens it with the Chinese intact: UTF-8 with a byte-order mark."""
    return ("\ufeff" + text.removeprefix("\ufeff")).encode("utf-8")


def totals_part(table: TableInfo, rounds: list[RoundRecord]) -> None:

    totals = dict(rounds[-1].running) if rounds else {s: 0 for s in SEATS}  # the rows render already read
    st.subheader(tr("totals"))
    cols = st.columns(4)
    for c, s in zip(cols, SEATS):
        value = totals[s]
        c.metric(
            seat_label(s, table), value, help=f"× {table.unit} = {value * table.unit}" if table.unit != 1 else None
        )
    if rounds:
        st.caption(tr("chart"))
        st.altair_chart(running_chart(table, rounds))


def running_chart(table: TableInfo, rounds: list[RoundRecord]) -> Any:
    """Each seat's running total by round, from 0 before the first (so one round already draws a line), rounds
    numbered in whole numbers, a colour per seat (named by seat and player: two players may share a name)."""
    import altair as alt
    import pandas as pd

    names = {s: seat_label(s, table) for s in SEATS}
    rows = [{"round": 0, "player": names[s], "total": 0} for s in SEATS]
    rows += [{"round": r.seq, "player": names[s], "total": r.running[s]} for r in rounds for s in SEATS]
    return alt.Chart(pd.DataFrame(rows)).mark_line(point=True).encode(
        x=alt.X("round:Q", title=tr("round_no"), axis=alt.Axis(format="d", tickMinStep=1)),
        y=alt.Y("total:Q", title=None),
        color=alt.Color("player:N", title=None, sort=list(names.values()),
                        scale=alt.Scale(domain=list(names.values()), range=list(SEAT_COLOURS))),
    )


def edit_part(ledger: Ledger, table: TableInfo, rounds: list[RoundRecord]) -> None:
    import scoring

    with st.expander(tr("edit_round")):
        pick = st.selectbox(
            tr("pick_round"),
            [r.id for r in rounds],
            format_func=lambda i: next((f"#{r.seq}" for r in rounds if r.id == i), "—"),  # a deleted id: "—"
            key="edit_pick",
        )
        rec = next(r for r in rounds if r.id == pick)
        text = st.text_area(
            tr("round_json"),
            json.dumps(rec.round_doc, ensure_ascii=False, indent=1),
            height=260,
            key=f"edit_json_{pick}",
        )
        if st.button(tr("edit_in_score"), key="edit_in_score"):
            from app.views import score

            st.session_state["load_round"] = pick
            st.switch_page(st.Page(score.render, url_path="score"))
        c1, c2 = st.columns(2)
        if c1.button(tr("resettle_save"), key="edit_save"):
            try:
                doc = json.loads(text)
                settlement = scoring.settle(doc).to_dict()
                ledger.edit_round(pick, doc, settlement)
            except json.JSONDecodeError as exc:
                st.error(tr("bad_json", msg=json_problem(exc, lang())))
            except JingsuanError as exc:
                st.error(tr("refused_round", msg=exc.zh if lang() == "zh" else exc.en))
            else:
                st.session_state["ledger_msg"] = tr("saved")
                st.rerun()
        if c2.button(tr("delete_round"), key="edit_delete"):
            st.session_state["ledger_confirm"] = ("delete", pick)
        seq = next(r.seq for r in rounds if r.id == pick)
        confirm_part(("delete", pick), tr("confirm_delete", seq=seq), lambda: ledger.delete_round(pick))
    if st.button(tr("undo_last"), key="undo_last"):
        st.session_state["ledger_confirm"] = ("undo", table.id)
    confirm_part(("undo", table.id), tr("confirm_undo", seq=rounds[-1].seq), lambda: ledger.undo_last(table.id))


REMOVED_KEY = "ledger_removed"


def restore_part(ledger: Ledger, table: TableInfo) -> None:
    """After a deletion: 已删除第 N 局 with 撤销删除, which puts the round back where it was."""
    ss = st.session_state
    removed = ss.get(REMOVED_KEY)
    if removed is None or removed.table_id != table.id:
        return
    c1, c2 = st.columns([3, 1], vertical_alignment="center")
    c1.info(tr("deleted_round", seq=removed.seq))
    if c2.button(tr("restore_round"), key="restore_round"):
        ss.pop(REMOVED_KEY, None)
        try:
            ledger.restore_round(removed)
        except LedgerError as exc:
            st.error(exc.zh if lang() == "zh" else exc.en)
            return
        st.toast(tr("restored_round", seq=removed.seq), icon="↩️")
        st.rerun()


def confirm_part(what: tuple[str, int], question: str, act: Any) -> None:
    """Ask before a round is thrown away: 确定 does `act`, 取消 forgets the question."""
    ss = st.session_state
    if ss.get("ledger_confirm") != what:
        return
    st.warning(question)
    c1, c2 = st.columns(2)
    if c1.button(tr("confirm_yes"), key=f"confirm_yes_{what[0]}", type="primary"):
        ss.pop("ledger_confirm", None)
        removed = act()
        if removed is not None:  # kept so that 撤销删除 can put it back
            ss[REMOVED_KEY] = removed
        st.toast(tr("deleted"), icon=":material/delete:")
        st.rerun()
    if c2.button(tr("cancel"), key=f"confirm_no_{what[0]}"):
        ss.pop("ledger_confirm", None)
        st.rerun()


def transfer_part(ledger: Ledger, table: TableInfo) -> None:
    with st.expander(f"{tr('export')} / {tr('import')}"):
        c1, c2 = st.columns(2)
        c1.download_button("CSV", excel_csv(ledger.export_csv(table.id)), f"{table.name}.csv", "text/csv", key="dl_csv")
        c2.download_button(
            "JSON", ledger.export_json(table.id), f"{table.name}.json", "application/json", key="dl_json"
        )
        up = st.file_uploader(tr("import_file"), type=["csv", "json"], key="import_file")
        if up is not None and st.button(tr("import"), key="do_import"):
            text = up.getvalue().decode("utf-8", errors="replace")
            try:
                tid = (
                    ledger.import_json(text)
                    if up.name.lower().endswith(".json")
                    else ledger.import_csv(text, up.name.rsplit(".", 1)[0])
                )
            except LedgerError as exc:
                st.error(exc.zh)
            else:
                st.session_state["table_id"] = tid
                st.session_state["ledger_msg"] = tr("imported")
                st.rerun()


def data_dir_part() -> None:
    with st.expander(tr("data_dir")):
        st.code(str(ledger_path()))
        if os.environ.get(ENV_DATA_DIR):
            st.caption(tr("data_dir_env", env=ENV_DATA_DIR))
        if data_dir_locked():  # served on the LAN: the laptop chose the folder (jingsuan app --data-dir)
            return
        folder = st.text_input(tr("data_dir_change"), str(default_data_dir()), key="data_dir_input")
        if st.button(tr("save"), key="data_dir_save"):
            save_data_dir_setting(folder)
            st.session_state["ledger_path"] = None
            st.session_state.pop("table_id", None)
            st.rerun()


def render() -> None:
    """The 牌局 page."""
    ledger = get_ledger()
    if ledger is None:
        data_dir_part()
        return
    table = current_table(ledger)
    st.title(f"{tr('page_ledger')} · {table.name}")
    if st.session_state.get("ledger_msg"):
        st.success(st.session_state.pop("ledger_msg"))
    players_part(ledger, table)
    rounds, damaged = ledger.read_rounds(table.id)  # one read of the rows for both
    for bad in damaged:  # unreadable rows are skipped, never fatal
        st.warning(f"第 {bad.seq} 局已损坏，已跳过：{bad.reason_zh}" if lang() == "zh" else
                   f"round {bad.seq} is damaged and skipped: {bad.reason_en}")
    totals_part(table, rounds)
    st.subheader(tr("rounds"))
    restore_part(ledger, table)
    if not rounds:
        st.info(tr("no_rounds"))
    else:
        st.dataframe(rounds_frame(rounds, table), hide_index=True, width="stretch")
        edit_part(ledger, table, rounds)
    transfer_part(ledger, table)
    taught_part(memory_path(ledger_path()), table_key(table), lang())  # 这桌已教会 N 张牌, with 忘记
    data_dir_part()
