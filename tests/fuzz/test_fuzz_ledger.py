"""Garbage in ledger cells and malformed imports: a damaged row is skipped, a bad import refused; never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from app.ledger import Ledger, LedgerError
from scoring.settlement import SEATS
from tests.fuzz.strategies import JSON, mutated

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = json.loads((ROOT / "examples" / "round.json").read_text())
FUZZ = settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
CELL = st.one_of(
    JSON.map(json.dumps),
    st.text(max_size=20),
    st.integers(),
    st.none(),
    st.binary(max_size=8),
    st.floats(allow_nan=True),
)


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    lg = Ledger(tmp_path_factory.mktemp("ledger") / "ledger.sqlite3")
    yield lg
    lg.close()


@pytest.fixture(scope="module")
def export(ledger: Ledger) -> dict:
    tid = ledger.create_table("t", {"E": "甲", "S": "乙", "W": "丙", "N": "丁"})
    ledger.add_round(tid, EXAMPLE, scoring.settle(EXAMPLE).to_dict())
    return json.loads(ledger.export_json(tid))


@FUZZ
@given(column=st.sampled_from(["dealer", "round_doc", "settlement", "total", "seq", "created", "edited"]), value=CELL)
def test_garbage_in_a_cell_is_skipped_as_damaged(ledger: Ledger, column: str, value: object) -> None:
    tid = ledger.create_table("fuzz", {})
    ids = [ledger.add_round(tid, EXAMPLE, scoring.settle(EXAMPLE).to_dict()) for _ in range(2)]
    try:
        with ledger._tx() as c:  # what a broken disk or another program might leave
            c.execute(f"UPDATE rounds SET {column} = ? WHERE id = ?", (value, ids[0]))
    except Exception:  # noqa: BLE001 - SQLite refused the value itself (e.g. a duplicate seq): nothing to read back
        return
    rounds, damaged = ledger.rounds(tid), ledger.damaged_rounds(tid)
    assert len(rounds) + len(damaged) == 2 and ids[1] in [r.id for r in rounds]
    assert sum(ledger.totals(tid).values()) == 0 and ledger.current_dealer(tid) in SEATS
    ledger.export_csv(tid), ledger.export_json(tid)  # noqa: B018 - they must not crash either
    ledger.add_round(tid, EXAMPLE, scoring.settle(EXAMPLE).to_dict())  # the table still takes rounds
    assert len(ledger.rounds(tid)) == len(rounds) + 1
    ledger.delete_table(tid)


@FUZZ
@given(doc=st.data())
def test_malformed_json_imports_are_refused_with_a_reason(ledger: Ledger, export: dict, doc: st.DataObject) -> None:
    forged = doc.draw(mutated(export) | JSON)
    before = len(ledger.tables())
    try:
        tid = ledger.import_json(json.dumps(forged))
    except LedgerError as exc:
        assert exc.zh and exc.en and len(ledger.tables()) == before
        return
    for r in ledger.rounds(tid):  # what came in was re-settled
        assert r.settlement == scoring.settle(r.round_doc).to_dict()
    ledger.delete_table(tid)


@FUZZ
@given(text=st.text(max_size=200) | st.builds(lambda a, b: a + b, st.just("seq,dealer,winner,names,E:a,S:b,W:c,N:d,"
                                                                              "running_E,running_S,running_W,running_N,"
                                                                              "round_json,settlement_json\n"),
                                                   st.text(max_size=200)))  # fmt: skip
def test_malformed_csv_imports_are_refused(ledger: Ledger, text: str) -> None:
    try:
        tid = ledger.import_csv(text)
    except LedgerError as exc:
        assert exc.zh and exc.en
        return
    ledger.delete_table(tid)
