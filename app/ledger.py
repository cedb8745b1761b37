"""The table's ledger: SQLite file in the user's data folder (tables, seats, rounds, totals).

One file holds several tables (牌桌).  Each table has four named players on the seats E S W N,
its rules (preset, option overrides, unit value of a 子), and its rounds in order.  A round row
keeps the round document it was settled from, the settlement document (breakdown per component)
and its per-seat total.  Running totals are *derived* from the rounds on every read, so editing
or undoing a past round recomputes every later total automatically, and they always sum to zero
because every stored round does (checked before it is written).

Durability: WAL journal, ``synchronous=FULL``, one transaction per change.  A killed app or a
pulled plug loses at most the round that was being entered.  A file that is not a jingsuan
ledger (corrupt, foreign SQLite, any other file) raises `LedgerError` and is never written to.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scoring.errors import JingsuanError
from scoring.settlement import SEATS
from scoring.systems import SYSTEMS
from vision.datasets.files import atomic_write
from vision.datasets.places import DATA_DIR_ENV, read_settings, settings_path, user_data_dir

APP_ID = "jingsuan-ledger"
SCHEMA_VERSION = 1
LEDGER_FILENAME = "ledger.sqlite3"
SQLITE_MAGIC = b"SQLite format 3\x00"
ENV_DATA_DIR = DATA_DIR_ENV
DATA_DIR_LOCK_ENV = "JINGSUAN_DATA_DIR_LOCKED"
MAX_ROUND_POINTS = 10**9
MAX_IMPORT_ROUNDS = 10_000
MAX_IMPORT_CHARS = 20 * 1024 * 1024
MAX_NAME_CHARS = 60

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    rules TEXT NOT NULL DEFAULT 'xingguo',
    options TEXT NOT NULL DEFAULT '{}',
    unit INTEGER NOT NULL DEFAULT 1,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat TEXT NOT NULL CHECK (seat IN ('E','S','W','N')),
    name TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS rounds (
    id INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    dealer TEXT NOT NULL,
    round_doc TEXT NOT NULL,
    settlement TEXT NOT NULL,
    total TEXT NOT NULL,
    created TEXT NOT NULL,
    edited TEXT,
    UNIQUE (table_id, seq)
);
"""


class LedgerError(JingsuanError):
    """The ledger file cannot be used (corrupt, foreign, unwritable) or a change is refused."""


# ----------------------------------------------------------------------------- data folder


def data_dir_locked() -> bool:
    """True when served on the LAN: the data folder is the laptop's choice (`jingsuan app --data-dir`)."""
    return os.environ.get(DATA_DIR_LOCK_ENV) == "1"


def save_data_dir_setting(folder: str | Path | None) -> None:
    """Remember `folder` as the data folder (None forgets it); refused while served on the LAN."""
    if data_dir_locked():
        raise LedgerError(
            "局域网服务时不能在网页里改数据文件夹；请在电脑上用 jingsuan app --data-dir",
            "the data folder cannot be changed from a browser while served on the LAN; use jingsuan app --data-dir",
        )
    settings = read_settings()
    if folder:
        settings["data_dir"] = str(Path(folder).expanduser())
    else:
        settings.pop("data_dir", None)
    atomic_write(settings_path(), json.dumps(settings, ensure_ascii=False, indent=2).encode("utf-8"))


def default_data_dir() -> Path:
    """The user data folder (the one lookup, `vision.datasets.places.user_data_dir`): the ledger lives there."""
    return user_data_dir()


def default_ledger_path() -> Path:
    """The ledger file inside the data folder."""
    return default_data_dir() / LEDGER_FILENAME


# ----------------------------------------------------------------------------- rules of the table


def next_dealer(dealer: str, winner: str | None) -> str:
    """Dealer wins or the round is a draw → the dealer stays; otherwise the next seat deals."""
    if winner is None or winner == dealer:
        return dealer
    return SEATS[(SEATS.index(dealer) + 1) % len(SEATS)]


def winner_of(settlement: dict[str, Any]) -> str | None:
    """The winning seat of a settlement document, None for a draw."""
    win = settlement.get("win") or {}
    seat = win.get("seat") if isinstance(win, dict) else None
    return seat if seat in SEATS else None


def check_zero_sum(total: dict[str, int]) -> dict[str, int]:
    """A round's per-seat total, refused unless it has the four seats and sums to zero."""
    try:
        if not all(isinstance(total[s], int) and not isinstance(total[s], bool) for s in SEATS):
            raise TypeError("not integers")
        clean = {s: int(total[s]) for s in SEATS}
    except (KeyError, TypeError, ValueError) as exc:
        raise LedgerError("这一局的结算缺少座位的分数", "settlement total must list E S W N as integers") from exc
    if any(abs(v) > MAX_ROUND_POINTS for v in clean.values()):
        raise LedgerError("这一局的分数大得不可能，拒绝记账", f"a round total beyond ±{MAX_ROUND_POINTS} is refused")
    if sum(clean.values()) != 0:
        raise LedgerError(
            f"这一局的分数合计不为零（{sum(clean.values())}），拒绝记账", "round total does not sum to zero"
        )
    return clean


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True)
class TableInfo:
    """One table: its players by seat and its rules."""

    id: int
    name: str
    players: dict[str, str]
    rules: str
    options: dict[str, Any]
    unit: int
    created: str


@dataclass(frozen=True)
class RemovedRound:
    """A deleted round's row exactly as it was stored, kept by the page so that the deletion can be undone."""

    table_id: int
    seq: int
    dealer: str
    round_doc: str
    settlement: str
    total: str
    created: str
    edited: str | None


@dataclass(frozen=True)
class RoundRecord:
    """One stored round with the running totals after it."""

    id: int
    seq: int
    dealer: str
    round_doc: dict[str, Any]
    settlement: dict[str, Any]
    total: dict[str, int]
    running: dict[str, int] = field(default_factory=dict)
    created: str = ""
    edited: str | None = None

    @property
    def winner(self) -> str | None:
        return winner_of(self.settlement)

    @property
    def names(self) -> list[str]:
        win = self.settlement.get("win") or {}
        names = win.get("names") if isinstance(win, dict) else None
        return [str(n) for n in names] if isinstance(names, list) else []


@dataclass(frozen=True)
class DamagedRound:
    """A stored round that cannot be read back (garbage in a cell); skipped by `rounds`, shown as damaged."""

    id: int
    seq: int
    reason_zh: str
    reason_en: str


def _json_cell(raw: Any, what: str) -> Any:
    """A JSON column's value; LedgerError when it is not JSON."""
    try:
        return json.loads(raw)
    except (TypeError, ValueError, RecursionError) as exc:
        raise LedgerError(f"{what} 不是有效的 JSON", f"{what} is not valid JSON") from exc


def read_round_row(row: Any, running: dict[str, int]) -> RoundRecord:
    """One `rounds` row checked as it is read: seats, documents, a zero-sum total that matches its settlement."""
    dealer = row["dealer"]
    if dealer not in SEATS:
        raise LedgerError(f"庄家座位无效：{str(dealer)[:20]!r}", f"bad dealer seat {str(dealer)[:20]!r}")
    round_doc = _json_cell(row["round_doc"], "牌局描述 (round)")
    settlement = _json_cell(row["settlement"], "结算 (settlement)")
    if not isinstance(round_doc, dict) or not isinstance(settlement, dict):
        raise LedgerError("牌局描述或结算不是对象", "round or settlement is not a mapping")
    win = settlement.get("win")
    if win is not None and not (isinstance(win, dict) and win.get("seat", None) in (*SEATS, None)):
        raise LedgerError("结算里的胡牌信息无效", "the settlement's win is malformed")
    total = check_zero_sum(_json_cell(row["total"], "分数 (total)"))
    if isinstance(settlement.get("total"), dict) and check_zero_sum(settlement["total"]) != total:
        raise LedgerError("记下的分数与结算不一致", "the stored total differs from its settlement")
    seq = row["seq"]
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise LedgerError("局号无效", "bad round number")
    after = {s: running[s] + total[s] for s in SEATS}
    return RoundRecord(
        id=int(row["id"]), seq=seq, dealer=dealer, round_doc=round_doc, settlement=settlement, total=total,
        running=after, created=str(row["created"]), edited=None if row["edited"] is None else str(row["edited"]),
    )  # fmt: skip


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ----------------------------------------------------------------------------- the file


def check_ledger_file(path: Path) -> None:
    """Refuse, before any write, a file that is not a jingsuan ledger (never overwrite it)."""
    if not path.exists() or path.stat().st_size == 0:
        return
    if path.is_dir():
        raise LedgerError(f"账本路径是一个文件夹：{path}", f"ledger path is a folder: {path}")
    with path.open("rb") as fh:
        head = fh.read(len(SQLITE_MAGIC))
    if head != SQLITE_MAGIC:
        raise LedgerError(
            f"文件 {path} 不是精算账本（也不是 SQLite 数据库），没有改动它。请换一个数据文件夹。",
            f"{path} is not a jingsuan ledger (not SQLite); left untouched",
        )
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            conn.execute("PRAGMA quick_check").fetchall()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise LedgerError(
            f"文件 {path} 是别的 SQLite 数据库或已损坏，没有改动它。请换一个数据文件夹。",
            f"{path} is a foreign or corrupt SQLite file ({exc}); left untouched",
        ) from exc
    if rows.get("app") != APP_ID:
        raise LedgerError(
            f"文件 {path} 是别的程序的数据库，没有改动它。请换一个数据文件夹。",
            f"{path} is a foreign SQLite database; left untouched",
        )
    try:
        schema = int(str(rows.get("schema", "0")))
    except ValueError as exc:
        raise LedgerError(
            f"账本 {path} 的版本信息损坏，没有改动它。", f"{path} has a damaged schema entry; left untouched"
        ) from exc
    if schema > SCHEMA_VERSION:
        raise LedgerError(
            f"账本 {path} 来自更新版本的精算，请升级后再打开。",
            f"{path} was written by a newer jingsuan (schema {rows.get('schema')})",
        )


class Ledger:
    """The SQLite ledger; every change is one transaction."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else default_ledger_path()
        check_ledger_file(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise LedgerError(f"无法打开账本 {self.path}：{exc}", f"cannot open ledger {self.path}: {exc}") from exc
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()  # the phones at the table share one connection
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        with self._tx() as c:
            for stmt in _SCHEMA.strip().split(";"):
                if stmt.strip():
                    c.execute(stmt)
            c.execute("INSERT OR IGNORE INTO meta VALUES ('app', ?)", (APP_ID,))
            c.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction: all of it is written, or none of it."""
        c = self._conn
        with self._lock:
            c.execute("BEGIN IMMEDIATE")
            try:
                yield c
            except BaseException:
                c.execute("ROLLBACK")
                raise
            c.execute("COMMIT")

    # ---------------------------------------------------------------- tables

    def create_table(
        self,
        name: str,
        players: dict[str, str],
        rules: str = "xingguo",
        options: dict[str, Any] | None = None,
        unit: int = 1,
    ) -> int:
        """A new table with four named players; returns its id."""
        names = {s: str(players.get(s, "")).strip() or default_player_name(s) for s in SEATS}
        with self._tx() as c:
            cur = c.execute(
                "INSERT INTO tables (name, rules, options, unit, created) VALUES (?, ?, ?, ?, ?)",
                (name.strip() or "牌桌", rules, json.dumps(options or {}, ensure_ascii=False), int(unit), _now()),
            )
            tid = int(cur.lastrowid or 0)
            c.executemany("INSERT INTO players VALUES (?, ?, ?)", [(tid, s, names[s]) for s in SEATS])
        return tid

    def tables(self) -> list[TableInfo]:
        """Every table, oldest first."""
        rows = self._conn.execute("SELECT * FROM tables ORDER BY id").fetchall()
        return [self._table_info(r) for r in rows]

    def table(self, table_id: int) -> TableInfo:
        row = self._conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise LedgerError(f"没有编号为 {table_id} 的牌桌", f"no table {table_id}")
        return self._table_info(row)

    def _table_info(self, row: sqlite3.Row) -> TableInfo:
        players = dict(self._conn.execute("SELECT seat, name FROM players WHERE table_id = ?", (row["id"],)).fetchall())
        try:
            options = json.loads(row["options"] or "{}")
        except (TypeError, ValueError, RecursionError):
            options = None
        unit = row["unit"]
        return TableInfo(
            id=int(row["id"]),
            name=str(row["name"]),
            players={s: str(players.get(s, default_player_name(s))) for s in SEATS},
            rules=row["rules"] if row["rules"] in SYSTEMS else "xingguo",
            options=options if isinstance(options, dict) else {},
            unit=unit if isinstance(unit, int) and 1 <= unit <= MAX_ROUND_POINTS else 1,
            created=str(row["created"]),
        )

    def set_players(self, table_id: int, players: dict[str, str]) -> None:
        self.table(table_id)
        with self._tx() as c:
            for s in SEATS:
                if s in players and str(players[s]).strip():
                    c.execute(
                        "UPDATE players SET name = ? WHERE table_id = ? AND seat = ?",
                        (str(players[s]).strip(), table_id, s),
                    )

    def set_rules(self, table_id: int, rules: str, options: dict[str, Any], unit: int) -> None:
        """Save the table's preset, option overrides and the value of one 子."""
        if int(unit) < 1:
            raise LedgerError("一个子的分值至少是 1", "unit must be at least 1")
        self.table(table_id)
        with self._tx() as c:
            c.execute(
                "UPDATE tables SET rules = ?, options = ?, unit = ? WHERE id = ?",
                (rules, json.dumps(options, ensure_ascii=False), int(unit), table_id),
            )

    def delete_table(self, table_id: int) -> None:
        with self._tx() as c:
            c.execute("DELETE FROM rounds WHERE table_id = ?", (table_id,))
            c.execute("DELETE FROM players WHERE table_id = ?", (table_id,))
            c.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    # ---------------------------------------------------------------- rounds

    def add_round(self, table_id: int, round_doc: dict[str, Any], settlement: dict[str, Any]) -> int:
        """Confirm a settled round into the table (one transaction); returns the round id."""
        self.table(table_id)
        total = check_zero_sum(settlement.get("total") or {})
        dealer = str(round_doc.get("dealer", "E"))
        if dealer not in SEATS:
            raise LedgerError(f"庄家座位无效：{dealer}", f"bad dealer seat {dealer!r}")
        with self._tx() as c:
            seq = c.execute(  # a damaged (non-integer) seq never decides the next number
                "SELECT COALESCE(MAX(CASE WHEN typeof(seq) = 'integer' THEN seq END), 0) + 1 FROM rounds "
                "WHERE table_id = ?",
                (table_id,),
            ).fetchone()[0]
            cur = c.execute(
                "INSERT INTO rounds (table_id, seq, dealer, round_doc, settlement, total, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    seq,
                    dealer,
                    json.dumps(round_doc, ensure_ascii=False),
                    json.dumps(settlement, ensure_ascii=False),
                    json.dumps(total),
                    _now(),
                ),
            )
        return int(cur.lastrowid or 0)

    def edit_round(self, round_id: int, round_doc: dict[str, Any], settlement: dict[str, Any]) -> None:
        """Replace a past round's description and settlement; later running totals follow."""
        total = check_zero_sum(settlement.get("total") or {})
        dealer = str(round_doc.get("dealer", "E"))
        with self._tx() as c:
            cur = c.execute(
                "UPDATE rounds SET dealer = ?, round_doc = ?, settlement = ?, total = ?, edited = ? WHERE id = ?",
                (
                    dealer,
                    json.dumps(round_doc, ensure_ascii=False),
                    json.dumps(settlement, ensure_ascii=False),
                    json.dumps(total),
                    _now(),
                    round_id,
                ),
            )
            if cur.rowcount != 1:
                raise LedgerError(f"没有编号为 {round_id} 的一局", f"no round {round_id}")

    def delete_round(self, round_id: int) -> RemovedRound:
        """Undo a round (any of them); the later rounds move up and their totals are recomputed. Returns the
        removed row as it was, so that `restore_round` can put it back."""
        with self._tx() as c:
            row = c.execute(
                "SELECT table_id, seq, dealer, round_doc, settlement, total, created, edited FROM rounds WHERE id = ?",
                (round_id,),
            ).fetchone()
            if row is None:
                raise LedgerError(f"没有编号为 {round_id} 的一局", f"no round {round_id}")
            removed = RemovedRound(*tuple(row))  # the SELECT names the fields in order
            c.execute("DELETE FROM rounds WHERE id = ?", (round_id,))
            later = c.execute(
                "SELECT id FROM rounds WHERE table_id = ? AND seq > ? ORDER BY seq", (row["table_id"], row["seq"])
            ).fetchall()
            for r in later:
                c.execute("UPDATE rounds SET seq = seq - 1 WHERE id = ?", (r["id"],))
        return removed

    def restore_round(self, removed: RemovedRound) -> int:
        """Put a deleted round back where it was (撤销删除): the rounds after it move down one; returns its new id."""
        self.table(removed.table_id)
        with self._tx() as c:
            later = c.execute(  # last first, so that (table, seq) stays unique at every step
                "SELECT id FROM rounds WHERE table_id = ? AND seq >= ? ORDER BY seq DESC", (removed.table_id, removed.seq)
            ).fetchall()
            for r in later:
                c.execute("UPDATE rounds SET seq = seq + 1 WHERE id = ?", (r["id"],))
            cur = c.execute(
                "INSERT INTO rounds (table_id, seq, dealer, round_doc, settlement, total, created, edited) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                dataclasses.astuple(removed),
            )
        return int(cur.lastrowid or 0)

    def undo_last(self, table_id: int) -> RemovedRound | None:
        """Remove the table's latest round and return it (for 撤销删除); None when there is none."""
        row = self._conn.execute(
            "SELECT id FROM rounds WHERE table_id = ? ORDER BY seq DESC LIMIT 1", (table_id,)
        ).fetchone()
        if row is None:
            return None
        return self.delete_round(int(row["id"]))

    def rounds(self, table_id: int) -> list[RoundRecord]:
        """The table's readable rounds in order, each with the running totals after it (damaged ones skipped)."""
        return self.read_rounds(table_id)[0]

    def damaged_rounds(self, table_id: int) -> list[DamagedRound]:
        """The table's rounds that cannot be read back, with the reason (the 牌局 page lists them)."""
        return self.read_rounds(table_id)[1]

    def read_rounds(self, table_id: int) -> tuple[list[RoundRecord], list[DamagedRound]]:
        """The table's readable rounds and its damaged ones, from one read of its rows."""
        with self._lock:
            rows = self._conn.execute("SELECT * FROM rounds WHERE table_id = ? ORDER BY seq", (table_id,)).fetchall()
        running = {s: 0 for s in SEATS}
        out: list[RoundRecord] = []
        damaged: list[DamagedRound] = []
        for r in rows:
            try:
                record = read_round_row(r, running)
            except LedgerError as exc:
                seq = r["seq"] if isinstance(r["seq"], int) else 0
                damaged.append(DamagedRound(int(r["id"]), seq, exc.zh, exc.en))
                continue
            running = dict(record.running)
            out.append(record)
        return out, damaged

    def round(self, round_id: int) -> RoundRecord:
        """One round; its `running` totals sum the rounds before it, so the table's rounds are read."""
        row = self._conn.execute("SELECT table_id FROM rounds WHERE id = ?", (round_id,)).fetchone()
        if row is None:
            raise LedgerError(f"没有编号为 {round_id} 的一局", f"no round {round_id}")
        found = [r for r in self.rounds(int(row["table_id"])) if r.id == round_id]
        if not found:
            raise LedgerError(f"第 {round_id} 局已损坏，无法读取", f"round {round_id} is damaged")
        return found[0]

    def totals(self, table_id: int) -> dict[str, int]:
        """Each seat's total over all rounds (sums to zero)."""
        rs = self.rounds(table_id)
        return dict(rs[-1].running) if rs else {s: 0 for s in SEATS}

    def current_dealer(self, table_id: int) -> str:
        """Who deals the next round: the dealer rule applied to the last round (E for a new table)."""
        rs = self.rounds(table_id)
        if not rs:
            return "E"
        return next_dealer(rs[-1].dealer, rs[-1].winner)

    # ---------------------------------------------------------------- export / import

    def export_json(self, table_id: int) -> str:
        """The whole table (players, rules, every round with its documents) as JSON."""
        t = self.table(table_id)
        doc = {
            "format": APP_ID,
            "schema": SCHEMA_VERSION,
            "table": {"name": t.name, "players": t.players, "rules": t.rules, "options": t.options, "unit": t.unit},
            "rounds": [{"round": r.round_doc, "settlement": r.settlement} for r in self.rounds(table_id)],
        }
        return json.dumps(doc, ensure_ascii=False, indent=2)

    def export_csv(self, table_id: int) -> str:
        """One line per round: seq, dealer, winner, names, each seat's total and running total, documents."""
        t = self.table(table_id)
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(
            ["seq", "dealer", "winner", "names"]
            + [f"{s}:{t.players[s]}" for s in SEATS]
            + [f"running_{s}" for s in SEATS]
            + ["round_json", "settlement_json"]
        )
        for r in self.rounds(table_id):
            w.writerow(
                [r.seq, r.dealer, r.winner or "", " ".join(r.names)]
                + [r.total.get(s, 0) for s in SEATS]
                + [r.running[s] for s in SEATS]
                + [json.dumps(r.round_doc, ensure_ascii=False), json.dumps(r.settlement, ensure_ascii=False)]
            )
        return buf.getvalue()

    def import_json(self, text: str, name: str | None = None) -> int:
        """A new table from `export_json` output; every round re-settled; refused as a whole, with the reason."""
        not_ours = LedgerError("这不是精算导出的 JSON 牌局文件", "not a jingsuan JSON export")
        if not isinstance(text, str) or len(text) > MAX_IMPORT_CHARS:
            raise LedgerError("导入的文件太大", "the file to import is too large")
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise not_ours from exc
        if not isinstance(doc, dict) or doc.get("format") != APP_ID:
            raise not_ours
        t, raw_rounds = doc.get("table"), doc.get("rounds")
        if not isinstance(t, dict) or not isinstance(raw_rounds, list):
            raise not_ours
        rounds = [r.get("round") if isinstance(r, dict) else None for r in raw_rounds]
        return self._import(name or t.get("name"), t, rounds)

    def import_csv(self, text: str, name: str = "导入的牌桌") -> int:
        """A new table from `export_csv` output (players from the header, rounds from the documents, re-settled)."""
        not_ours = LedgerError("这不是精算导出的 CSV 牌局文件", "not a jingsuan CSV export")
        if not isinstance(text, str) or len(text) > MAX_IMPORT_CHARS:
            raise LedgerError("导入的文件太大", "the file to import is too large")
        try:
            rows = list(csv.reader(io.StringIO(text)))
            header = rows[0]
            players = {h.split(":", 1)[0]: h.split(":", 1)[1] for h in header[4:8]}
            if set(players) != set(SEATS):
                raise not_ours
            i_round = header.index("round_json")
            rounds = [_json_cell(r[i_round], f"第 {n} 行") for n, r in enumerate(rows[1:], start=2) if r]
        except (ValueError, IndexError, csv.Error) as exc:
            raise not_ours from exc
        first = rounds[0] if rounds and isinstance(rounds[0], dict) else {}
        return self._import(name, {"players": players, "rules": first.get("rules") or "xingguo"}, rounds)

    def _import(self, name: Any, t: dict[str, Any], rounds: list[Any]) -> int:
        """Check the table's fields, re-settle every round (refusing the first that fails), then write it all."""
        table = import_table_fields(name, t)
        if len(rounds) > MAX_IMPORT_ROUNDS:
            raise LedgerError(f"局数太多（最多 {MAX_IMPORT_ROUNDS}）", f"too many rounds (at most {MAX_IMPORT_ROUNDS})")
        settled = [resettle(i, rd) for i, rd in enumerate(rounds, start=1)]
        with self._tx() as c:
            cur = c.execute(
                "INSERT INTO tables (name, rules, options, unit, created) VALUES (?, ?, ?, ?, ?)",
                (table["name"], table["rules"], json.dumps(table["options"], ensure_ascii=False), table["unit"], _now()),
            )
            tid = int(cur.lastrowid or 0)
            c.executemany("INSERT INTO players VALUES (?, ?, ?)", [(tid, s, table["players"][s]) for s in SEATS])
            for seq, (rd, st, total) in enumerate(settled, start=1):
                c.execute(
                    "INSERT INTO rounds (table_id, seq, dealer, round_doc, settlement, total, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        tid,
                        seq,
                        rd["dealer"],
                        json.dumps(rd, ensure_ascii=False),
                        json.dumps(st, ensure_ascii=False),
                        json.dumps(total),
                        _now(),
                    ),
                )
        return tid


def import_table_fields(name: Any, t: dict[str, Any]) -> dict[str, Any]:
    """An imported table's name, players, rules, options and unit, checked (LedgerError says which is wrong)."""
    raw_players = t.get("players") or {}
    if not isinstance(raw_players, dict):
        raise LedgerError("导入文件里的玩家名单无效", "the players of the imported table are malformed")
    players = {
        s: (str(raw_players.get(s) or "").strip()[:MAX_NAME_CHARS] or default_player_name(s)) for s in SEATS
    }
    rules, options, unit = t.get("rules", "xingguo"), t.get("options") or {}, t.get("unit", 1)
    if not isinstance(rules, str) or rules not in SYSTEMS:
        raise LedgerError("导入文件里的规则名无效", "the rules of the imported table are malformed")
    if not isinstance(options, dict):
        raise LedgerError("导入文件里的规则选项无效", "the options of the imported table are malformed")
    if isinstance(unit, bool) or not isinstance(unit, int) or not 1 <= unit <= MAX_ROUND_POINTS:
        raise LedgerError("导入文件里一个子的分值无效", "the unit of the imported table is malformed")
    label = (str(name).strip() if isinstance(name, str) else "")[:MAX_NAME_CHARS] or "导入的牌桌"
    return {"name": label, "players": players, "rules": rules, "options": options, "unit": unit}


def resettle(index: int, round_doc: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, int]]:
    """(round, its settlement now, total) of imported round `index`; LedgerError says why it is refused."""
    import scoring

    where_zh, where_en = f"第 {index} 局", f"round {index}"
    if not isinstance(round_doc, dict):
        raise LedgerError(f"{where_zh}：没有牌局描述", f"{where_en}: no round description")
    if round_doc.get("dealer", "E") not in SEATS:
        raise LedgerError(f"{where_zh}：庄家座位无效", f"{where_en}: bad dealer seat")
    try:
        settlement = scoring.settle(round_doc).to_dict()
    except JingsuanError as exc:
        raise LedgerError(f"{where_zh}无法结算：{exc.zh}", f"{where_en} cannot be settled: {exc.en}") from exc
    total = check_zero_sum(settlement.get("total") or {})
    return {**round_doc, "dealer": round_doc.get("dealer", "E")}, settlement, total


def default_player_name(seat: str) -> str:
    """A placeholder name for an unnamed seat: 东家, 南家, 西家, 北家."""
    return {"E": "东家", "S": "南家", "W": "西家", "N": "北家"}[seat]
