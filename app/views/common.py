"""What every page shares: the ledger, the current table, the language, seat and tile labels."""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from app.i18n import t
from app.ledger import Ledger, LedgerError, TableInfo, default_ledger_path
from scoring.settlement import SEAT_ZH, SEATS
from scoring.tiles import TILES, tile

SEAT_EN = {"E": "East", "S": "South", "W": "West", "N": "North"}


def lang() -> str:
    """The interface language of this browser session (zh unless switched)."""
    return str(st.session_state.get("lang", "zh"))


def tr(key: str, **kwargs: object) -> str:
    """`t(key)` in this session's language."""
    return t(key, lang(), **kwargs)


def ledger_path() -> Path:
    """The ledger file this session uses (the setting on the ledger page may change it)."""
    chosen = st.session_state.get("ledger_path")
    return Path(chosen) if chosen else default_ledger_path()


@st.cache_resource(show_spinner=False)
def _open_ledger(path: str) -> Ledger:
    return Ledger(path)


def get_ledger() -> Ledger | None:
    """The open ledger, or None after showing (in Chinese) why the file cannot be used."""
    try:
        return _open_ledger(str(ledger_path()))
    except LedgerError as exc:
        st.error(exc.zh if lang() == "zh" else exc.en)
        return None


def current_table(ledger: Ledger) -> TableInfo:
    """The table chosen in the sidebar; a first table is created when the ledger is empty."""
    tables = ledger.tables()
    if not tables:
        ledger.create_table("牌桌 1", {}, rules=os.environ.get("JINGSUAN_DEFAULT_RULES", "xingguo"))
        tables = ledger.tables()
    wanted = st.session_state.get("table_id")
    for tb in tables:
        if tb.id == wanted:
            return tb
    st.session_state["table_id"] = tables[-1].id
    return tables[-1]


def seat_label(seat: str, table: TableInfo | None = None) -> str:
    """东·老王 — the seat and, when known, the player's name."""
    base = SEAT_ZH[seat] if lang() == "zh" else SEAT_EN[seat]
    return f"{base}·{table.players[seat]}" if table else base


def tile_label(code: str) -> str:
    """A tile as players call it: 五筒, 东, 中 (code in English mode)."""
    return tile(code).zh if lang() == "zh" else code


ALL_CODES: tuple[str, ...] = tuple(x.code for x in TILES)
__all__ = ["ALL_CODES", "SEATS", "current_table", "get_ledger", "lang", "seat_label", "tile_label", "tr"]
