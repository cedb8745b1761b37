"""The ledger keeps every confirmed round, sums to zero, rotates the dealer, and never eats a foreign file."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.ledger import Ledger, LedgerError, default_data_dir, next_dealer
from scoring.settlement import SEATS, Settlement
from tests.app.ledger_writer import settlement_for

PLAYERS = {"E": "老王", "S": "小李", "W": "阿珍", "N": "大刘"}


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    lg = Ledger(tmp_path / "ledger.sqlite3")
    yield lg
    lg.close()


def win_by(seat: str, amount: int) -> dict:
    s = Settlement(rules="xingguo")
    for other in SEATS:
        s.pay(other, seat, amount, "hu")
    s.win = {"seat": seat, "names": ["平胡"]}
    return s.to_dict()


def draw() -> dict:
    return Settlement(rules="xingguo").to_dict()


def test_dealer_stays_on_dealer_win_or_draw_and_passes_otherwise() -> None:
    assert next_dealer("E", "E") == "E"
    assert next_dealer("S", None) == "S"
    assert next_dealer("E", "W") == "S"
    assert next_dealer("N", "E") == "E"


def test_running_totals_sum_to_zero_and_follow_rounds(ledger: Ledger) -> None:
    tid = ledger.create_table("周五局", PLAYERS)
    ledger.add_round(tid, {"dealer": "E"}, win_by("S", 2))
    ledger.add_round(tid, {"dealer": "S"}, win_by("S", 1))
    rs = ledger.rounds(tid)
    assert [r.running for r in rs] == [{"E": -2, "S": 6, "W": -2, "N": -2}, {"E": -3, "S": 9, "W": -3, "N": -3}]
    assert sum(ledger.totals(tid).values()) == 0
    assert ledger.current_dealer(tid) == "S"  # S dealt and won → stays
    assert ledger.table(tid).players == PLAYERS


def test_dealer_rotation_after_draw_and_other_win(ledger: Ledger) -> None:
    tid = ledger.create_table("t", PLAYERS)
    assert ledger.current_dealer(tid) == "E"
    ledger.add_round(tid, {"dealer": "E"}, draw())
    assert ledger.current_dealer(tid) == "E"
    ledger.add_round(tid, {"dealer": "E"}, win_by("N", 1))
    assert ledger.current_dealer(tid) == "S"


def test_editing_a_past_round_recomputes_later_totals(ledger: Ledger) -> None:
    tid = ledger.create_table("t", PLAYERS)
    first = ledger.add_round(tid, {"dealer": "E"}, win_by("E", 1))
    ledger.add_round(tid, {"dealer": "E"}, win_by("W", 2))
    ledger.edit_round(first, {"dealer": "E"}, win_by("N", 5))
    rs = ledger.rounds(tid)
    assert rs[0].winner == "N" and rs[0].edited
    assert rs[1].running == {"E": -7, "S": -7, "W": 1, "N": 13}
    assert sum(rs[1].running.values()) == 0


def test_undoing_a_middle_round_renumbers_and_recomputes(ledger: Ledger) -> None:
    tid = ledger.create_table("t", PLAYERS)
    ids = [ledger.add_round(tid, {"dealer": "E"}, win_by(s, 1)) for s in ("E", "S", "W")]
    ledger.delete_round(ids[1])
    rs = ledger.rounds(tid)
    assert [r.seq for r in rs] == [1, 2]
    assert rs[-1].running == {"E": 2, "S": -2, "W": 2, "N": -2}
    assert ledger.undo_last(tid)
    assert len(ledger.rounds(tid)) == 1


def test_a_deleted_middle_round_is_restored_in_its_place_with_its_totals(ledger: Ledger) -> None:
    tid = ledger.create_table("t", PLAYERS)
    ids = [ledger.add_round(tid, {"dealer": "E"}, win_by(s, n)) for s, n in (("E", 1), ("S", 2), ("W", 3))]
    before = [(r.seq, r.winner, r.running) for r in ledger.rounds(tid)]
    removed = ledger.delete_round(ids[1])
    assert [r.winner for r in ledger.rounds(tid)] == ["E", "W"]
    ledger.restore_round(removed)
    assert [(r.seq, r.winner, r.running) for r in ledger.rounds(tid)] == before
    assert ledger.undo_last(ledger.create_table("empty", PLAYERS)) is None


def test_a_round_that_does_not_sum_to_zero_is_refused(ledger: Ledger) -> None:
    tid = ledger.create_table("t", PLAYERS)
    with pytest.raises(LedgerError) as err:
        ledger.add_round(tid, {"dealer": "E"}, {"total": {"E": 1, "S": 0, "W": 0, "N": 0}})
    assert "不为零" in err.value.zh
    assert ledger.rounds(tid) == []


def test_several_tables_keep_their_own_rounds_and_rules(ledger: Ledger) -> None:
    a = ledger.create_table("A", PLAYERS)
    b = ledger.create_table("B", {"E": "甲"})
    ledger.add_round(a, {"dealer": "E"}, win_by("E", 1))
    ledger.set_rules(b, "nanchang", {"follow_dealer": False}, 5)
    assert len(ledger.rounds(a)) == 1 and ledger.rounds(b) == []
    tb = ledger.table(b)
    assert (tb.rules, tb.options, tb.unit, tb.players["S"]) == ("nanchang", {"follow_dealer": False}, 5, "南家")


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "round.json"


def real_rounds() -> list[dict]:
    """A real round (南家 wins) and a real draw, as the 算分 page writes them."""
    win = json.loads(EXAMPLE.read_text())
    drawn = {"rules": "xingguo", "dealer": "S", "indicator": "1m", "win": None,
             "players": {s: {"jing": {"zheng": 0, "fu": 0}} for s in SEATS}}  # fmt: skip
    return [win, drawn]


def add_real_rounds(ledger: Ledger, tid: int) -> None:
    import scoring

    for doc in real_rounds():
        ledger.add_round(tid, doc, scoring.settle(doc).to_dict())


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_then_import_gives_the_same_table(ledger: Ledger, fmt: str) -> None:
    tid = ledger.create_table("t", PLAYERS)
    add_real_rounds(ledger, tid)
    text = ledger.export_json(tid) if fmt == "json" else ledger.export_csv(tid)
    new = ledger.import_json(text) if fmt == "json" else ledger.import_csv(text)
    assert ledger.table(new).players == PLAYERS
    assert [r.running for r in ledger.rounds(new)] == [r.running for r in ledger.rounds(tid)]
    assert [r.settlement for r in ledger.rounds(new)] == [r.settlement for r in ledger.rounds(tid)]


def test_importing_garbage_is_refused_and_adds_nothing(ledger: Ledger) -> None:
    with pytest.raises(LedgerError):
        ledger.import_json('{"hello": 1}')
    with pytest.raises(LedgerError):
        ledger.import_csv("a,b\n1,2\n")
    assert ledger.tables() == []


def test_a_foreign_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    foreign = tmp_path / "notes.sqlite3"
    foreign.write_bytes(b"my shopping list\n" * 10)
    before = foreign.read_bytes()
    with pytest.raises(LedgerError) as err:
        Ledger(foreign)
    assert "不是精算账本" in err.value.zh
    assert foreign.read_bytes() == before


def test_a_foreign_sqlite_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE songs (title TEXT)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    with pytest.raises(LedgerError) as err:
        Ledger(other)
    assert "别的" in err.value.zh
    assert other.read_bytes() == before


def test_a_truncated_ledger_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    with Ledger(path) as lg:
        lg.create_table("t", PLAYERS)
    data = path.read_bytes()
    path.write_bytes(data[:100] + b"\xff" * (len(data) - 100))
    before = path.read_bytes()
    with pytest.raises(LedgerError):
        Ledger(path)
    assert path.read_bytes() == before


def test_data_folder_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JINGSUAN_DATA_DIR", str(tmp_path / "mine"))
    assert default_data_dir() == tmp_path / "mine"


def test_killed_writer_loses_no_confirmed_round(tmp_path: Path) -> None:
    """Kill -9 a process that is confirming rounds; every round it reported is still there, totals zero-sum."""
    path = tmp_path / "ledger.sqlite3"
    with Ledger(path) as lg:
        tid = lg.create_table("t", PLAYERS)
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.app.ledger_writer", str(path), str(tid)],
        cwd=root,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    confirmed: list[int] = []
    deadline = time.monotonic() + 60
    assert proc.stdout is not None
    while len(confirmed) < 40 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        confirmed.append(int(line))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert len(confirmed) >= 40
    with Ledger(path) as lg:
        rounds = lg.rounds(tid)
        ids = {r.id for r in rounds}
        assert set(confirmed) <= ids
        assert all(sum(r.total.values()) == 0 for r in rounds)
        assert sum(lg.totals(tid).values()) == 0
        stored = {r.id: r.settlement for r in rounds}
        assert all(json.dumps(stored[rid]) for rid in confirmed)
        assert rounds[0].settlement == settlement_for(0)


def test_phones_confirming_at_once_lose_nothing(ledger: Ledger) -> None:
    """Four sessions (threads sharing the app's connection) confirm 25 rounds each."""
    import threading

    tid = ledger.create_table("t", PLAYERS)

    def writer(k: int) -> None:
        for i in range(25):
            ledger.add_round(tid, {"dealer": "E"}, settlement_for(k * 25 + i))

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    rounds = ledger.rounds(tid)
    assert [r.seq for r in rounds] == list(range(1, 101))
    assert sum(ledger.totals(tid).values()) == 0


def test_the_chosen_data_folder_is_remembered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.ledger import save_data_dir_setting

    monkeypatch.delenv("JINGSUAN_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_data_dir() == tmp_path / "data" / "jingsuan"
    save_data_dir_setting(tmp_path / "majiang")
    assert default_data_dir() == tmp_path / "majiang"
    monkeypatch.setenv("JINGSUAN_DATA_DIR", str(tmp_path / "env"))
    assert default_data_dir() == tmp_path / "env"


# ----------------------------------------------------------------------------- validation on read and import


def test_a_garbage_cell_marks_one_round_damaged_and_the_rest_still_works(ledger: Ledger) -> None:
    tid = ledger.create_table("t", PLAYERS)
    for i in range(3):
        ledger.add_round(tid, {"dealer": "E", "rules": "xingguo"}, win_by(SEATS[i], 2))
    with sqlite3.connect(ledger.path) as c:
        c.execute("UPDATE rounds SET total = 'garbage' WHERE seq = 2")
    rounds = ledger.rounds(tid)
    assert [r.seq for r in rounds] == [1, 3]
    assert sum(rounds[-1].running.values()) == 0 and rounds[-1].running["W"] == 6 - 2  # E won round 1, W round 3
    damaged = ledger.damaged_rounds(tid)
    assert [d.seq for d in damaged] == [2] and damaged[0].reason_zh
    assert ledger.current_dealer(tid) in SEATS


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("dealer", "Q"),
        ("round_doc", "[1, 2"),
        ("settlement", '"just a string"'),
        ("settlement", '{"win": {"seat": "X"}}'),
        ("total", '{"E": 1, "S": 0, "W": 0, "N": 0}'),
        ("total", '{"E": "1", "S": "-1", "W": 0, "N": 0}'),
        ("total", '{"E": 5, "S": -5, "W": 0, "N": 0}'),  # does not match its settlement
        ("total", "1e999"),
    ],
)
def test_every_kind_of_damaged_row_is_skipped(ledger: Ledger, column: str, value: str) -> None:
    tid = ledger.create_table("t", PLAYERS)
    ledger.add_round(tid, {"dealer": "E", "rules": "xingguo"}, win_by("S", 2))
    ledger.add_round(tid, {"dealer": "E", "rules": "xingguo"}, win_by("W", 1))
    with sqlite3.connect(ledger.path) as c:
        c.execute(f"UPDATE rounds SET {column} = ? WHERE seq = 1", (value,))
    assert [r.seq for r in ledger.rounds(tid)] == [2]
    assert [d.seq for d in ledger.damaged_rounds(tid)] == [1]
    assert ledger.totals(tid)["W"] == 3


def test_a_damaged_table_row_or_schema_does_not_crash(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    with Ledger(path) as lg:
        tid = lg.create_table("t", PLAYERS)
    with sqlite3.connect(path) as c:
        c.execute("UPDATE tables SET options = 'nope', unit = 'x', rules = 7 WHERE id = ?", (tid,))
    with Ledger(path) as lg:
        t = lg.table(tid)
        assert (t.options, t.unit, t.rules) == ({}, 1, "xingguo")
    with sqlite3.connect(path) as c:
        c.execute("UPDATE meta SET value = 'banana' WHERE key = 'schema'")
    with pytest.raises(LedgerError):
        Ledger(path)


def test_imported_rounds_are_resettled(ledger: Ledger) -> None:
    tid = ledger.create_table("t", PLAYERS)
    add_real_rounds(ledger, tid)
    doc = json.loads(ledger.export_json(tid))
    doc["rounds"][0]["settlement"]["total"] = {"E": 100, "S": -100, "W": 0, "N": 0}  # a forged settlement
    new = ledger.import_json(json.dumps(doc))
    assert [r.total for r in ledger.rounds(new)] == [r.total for r in ledger.rounds(tid)]


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["rounds"][0]["round"].update(dealer="Q"),
        lambda d: d["rounds"][0]["round"].update(indicator="9x"),
        lambda d: d["rounds"][0]["round"]["players"]["N"].update(jing={"zheng": 1000000, "fu": 0}),
        lambda d: d["rounds"][0].update(round=[1, 2]),
        lambda d: d["rounds"].append("nope"),
        lambda d: d["table"].update(unit="five"),
        lambda d: d["table"].update(options=[1]),
        lambda d: d["table"].update(players=["a"]),
        lambda d: d.update(table=[]),
        lambda d: d.update(rounds={"a": 1}),
    ],
)
def test_an_invalid_import_is_refused_with_the_reason_and_adds_nothing(ledger: Ledger, change) -> None:  # noqa: ANN001
    tid = ledger.create_table("t", PLAYERS)
    add_real_rounds(ledger, tid)
    doc = json.loads(ledger.export_json(tid))
    change(doc)
    with pytest.raises(LedgerError) as info:
        ledger.import_json(json.dumps(doc))
    assert info.value.zh and info.value.en
    assert len(ledger.tables()) == 1


def test_csv_import_with_bad_cells_is_refused(ledger: Ledger) -> None:
    tid = ledger.create_table("t", PLAYERS)
    add_real_rounds(ledger, tid)
    text = ledger.export_csv(tid)
    forged = text.replace('""dealer"": ""E""', '""dealer"": ""Q""')
    assert forged != text
    for bad in [forged, text + "1,2,3\n", "seq\n", "\x00,,,\n"]:
        with pytest.raises(LedgerError):
            ledger.import_csv(bad)
    assert len(ledger.tables()) == 1
