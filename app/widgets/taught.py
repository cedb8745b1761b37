"""'这桌已教会 N 张牌' and 忘记 (with a confirmation): the table's correction memory on a page (`app.memory_store`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import streamlit as st

from app import memory_store as store
from vision.reader.memory import MEMORY_FILENAME

#: The session key of an open 忘记 question: the table it asks about.
ASK_KEY = "memory_forget_ask"
#: The session key of what 忘记 did: (kind, message), shown once.
NOTE_KEY = "memory_note"
#: The session key of what was wrong with the memory file (it was set aside), shown until 知道了.
PROBLEM_KEY = "memory_problem"


def ask_forget(table: str) -> None:
    """忘记 tapped: ask before anything is forgotten."""
    st.session_state[ASK_KEY] = table


def cancel_forget() -> None:
    """取消: nothing is forgotten."""
    st.session_state.pop(ASK_KEY, None)


def do_forget(path: Path, model: str, table: str, lang: str) -> None:
    """确认忘记: the table's crops leave the memory file."""
    st.session_state.pop(ASK_KEY, None)
    gone, problem = store.forget_table(path, model, table, lang)
    if problem:
        st.session_state[PROBLEM_KEY] = problem
    st.session_state[NOTE_KEY] = ("success", store.say("forgotten", lang, n=gone))


def taught_part(path: Path, table: str, lang: str, *, forget: bool = True, hide_none: bool = False) -> int:
    """The table's count of taught tiles (a caption; `hide_none`: none while it taught nothing), a damaged
    file's message (until 知道了), and — `forget` — 忘记 with a confirmation; returns the count."""
    ss = st.session_state
    model = store.current_model()
    n, problem = store.taught_count(path, model, table, lang)
    if problem:
        ss[PROBLEM_KEY] = problem
    if ss.get(PROBLEM_KEY):
        with st.container(key="memory_problem", horizontal=True, vertical_alignment="center", gap="small"):
            st.warning(ss[PROBLEM_KEY])
            st.button(store.say("seen", lang), key="memory_problem_seen", on_click=ss.pop, args=(PROBLEM_KEY, None))
    note = ss.pop(NOTE_KEY, None)
    if note:
        (st.success if note[0] == "success" else st.warning)(note[1])
    asking = forget and model and ss.get(ASK_KEY) == table
    if hide_none and not n and not asking:
        return n
    with st.container(key="memory_line", horizontal=True, vertical_alignment="center", gap="small"):
        st.caption(store.say("taught", lang, n=n) if n else store.say("taught_none", lang))
        if forget and n and model and not asking:
            st.button(store.say("forget", lang), key="memory_forget", on_click=ask_forget, args=(table,))
    if asking:
        st.warning(store.say("forget_ask", lang, n=n))
        with st.container(key="memory_forget_confirm", horizontal=True, gap="small"):
            st.button(store.say("forget_yes", lang), key="memory_forget_yes", type="primary",
                      on_click=do_forget, args=(path, model, table, lang))
            st.button(store.say("forget_no", lang), key="memory_forget_no", on_click=cancel_forget)
    return n


def teach_annotation(dataset: Any, stem: str, boxes: Sequence[Any], lang: str) -> None:
    """标注 saved `stem`'s boxes: the current table learns them, and the dataset folder gets its memory file."""
    from app.views.common import current_table, get_ledger, ledger_path

    ledger = get_ledger()
    if ledger is None:
        return
    table = store.table_key(current_table(ledger))
    _, problem = store.teach_annotation(store.memory_path(ledger_path()), store.current_model(), table,
                                        dataset.image_path(stem), boxes, f"ann:{dataset.name}/{stem}",
                                        dataset.root / MEMORY_FILENAME, lang)
    if problem:
        st.session_state[PROBLEM_KEY] = problem


def table_memory(lang: str = "zh") -> dict[str, Any] | None:
    """The current table's memory as `app.views.score.read_photo`'s `memory` (None when it taught nothing)."""
    from app.views.common import current_table, get_ledger, ledger_path

    ledger = get_ledger()
    if ledger is None:
        return None
    args, problem = store.read_args(store.memory_path(ledger_path()), store.current_model(),
                                   store.table_key(current_table(ledger)), lang)
    if problem:
        st.session_state[PROBLEM_KEY] = problem
    return args or None
