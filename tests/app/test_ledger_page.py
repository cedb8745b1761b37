"""牌局 page, issue 21: undo/delete ask first, a broken round JSON is explained in Chinese with its place,
the CSV opens in Excel with its Chinese, and each seat has its own colour in the chart."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from app.ledger import Ledger
from app.views.ledger import SEAT_COLOURS, excel_csv, json_problem, running_chart
from tests.app.test_pages import ledger_page, seed


def totals(at: AppTest) -> dict[str, int]:
    return {m.label: int(m.value) for m in at.metric}


def warnings(at: AppTest) -> str:
    return "\n".join(str(w.value) for w in at.warning)


def test_undo_the_last_round_asks_first_and_cancel_keeps_it(data_dir: Path) -> None:
    seed(data_dir)
    at = ledger_page(data_dir)
    before = totals(at)
    at.button(key="undo_last").click().run()
    assert "确定撤销最后一局（第 2 局）" in warnings(at)
    assert totals(at) == before  # nothing thrown away by the first tap
    at.button(key="confirm_no_undo").click().run()
    assert totals(at) == before and "确定撤销" not in warnings(at)
    at.button(key="undo_last").click().run()
    at.button(key="confirm_yes_undo").click().run()
    assert totals(at) == {"东·老王": 6, "南·小李": -2, "西·阿珍": -2, "北·大刘": -2}
    assert list(at.dataframe[0].value["局"]) == [1]


def test_deleting_a_round_asks_first(data_dir: Path) -> None:
    _, ids = seed(data_dir)
    at = ledger_page(data_dir)
    at.selectbox(key="edit_pick").set_value(ids[0]).run()
    at.button(key="edit_delete").click().run()
    assert "确定删除第 1 局" in warnings(at)
    assert list(at.dataframe[0].value["局"]) == [1, 2]
    at.button(key="confirm_yes_delete").click().run()
    assert list(at.dataframe[0].value["Σ 小李"]) == [3]


def test_broken_round_json_is_explained_in_chinese_with_its_line_and_column(data_dir: Path) -> None:
    _, ids = seed(data_dir)
    at = ledger_page(data_dir)
    at.text_area(key=f"edit_json_{ids[0]}").input('{\n "rules": "xingguo"\n "dealer": "E"}').run()
    at.button(key="edit_save").click().run()
    (err,) = [e.value for e in at.error]
    assert "第 3 行第 2 列" in err and "少了一个逗号" in err
    assert "Expecting" not in err
    assert list(at.dataframe[0].value["Σ 老王"]) == [6, 5]


def test_json_problem_names_the_place_in_either_language() -> None:
    try:
        json.loads('{"a": }')
    except json.JSONDecodeError as exc:
        assert json_problem(exc, "zh") == "第 1 行第 7 列：这里缺一个值（或多了一个逗号）"
        assert json_problem(exc, "en") == "line 1, column 7: Expecting value"


def test_csv_export_starts_with_a_bom_so_excel_shows_the_chinese(data_dir: Path) -> None:
    tid, _ = seed(data_dir)
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        data = excel_csv(lg.export_csv(tid))
    assert data.startswith(b"\xef\xbb\xbf") and not data.startswith(b"\xef\xbb\xbf\xef\xbb\xbf")
    text = data.decode("utf-8-sig")
    assert "老王" in text and len(list(csv.reader(io.StringIO(text)))) >= 3
    assert excel_csv("\ufeffa,b\n") == b"\xef\xbb\xbfa,b\n"  # never two marks


def test_the_chart_gives_each_seat_its_own_colour(data_dir: Path) -> None:
    seed(data_dir)
    at = ledger_page(data_dir)
    (chart,) = at.get("vega_lite_chart")
    spec = chart.proto.spec
    assert len(set(SEAT_COLOURS)) == 4
    assert all(c in spec for c in SEAT_COLOURS), spec[:400]


def test_the_chart_starts_every_seat_at_zero_and_counts_rounds_in_whole_numbers(data_dir: Path) -> None:
    """One round already draws a line (from 0 before it); the round axis has no 1.000000 or 0.5."""
    tid, _ = seed(data_dir)
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        spec = running_chart(lg.table(tid), lg.rounds(tid)).to_dict()
    rows = [r for d in spec["datasets"].values() for r in d]
    assert sorted(r["total"] for r in rows if r["round"] == 0) == [0, 0, 0, 0]
    assert {r["round"] for r in rows} == {0, 1, 2}
    assert spec["encoding"]["x"]["axis"]["format"] == "d"
    assert spec["encoding"]["color"]["scale"]["range"] == list(SEAT_COLOURS)


def a_round(**w_extra: object) -> dict:
    """西 wins by self-draw; 东 holds four 正精 (a 冲关)."""
    return {
        "rules": "xingguo", "dealer": "E", "indicator": "4z",
        "players": {"E": {"jing": {"zheng": 4, "fu": 0}}, "S": {"jing": {"zheng": 0, "fu": 0}},
                    "W": {"hand": "123m456m789m123p5s", **w_extra}, "N": {"jing": {"zheng": 0, "fu": 0}}},
        "win": {"seat": "W", "tile": "5s", "from": "self"},
    }  # fmt: skip


def test_a_peng_without_its_discarder_is_asked_in_player_words(data_dir: Path) -> None:
    _, ids = seed(data_dir)
    doc = a_round(hand="123m456m789m5s", melds=[{"type": "peng", "tiles": "777p"}])
    at = ledger_page(data_dir)
    at.text_area(key=f"edit_json_{ids[0]}").input(json.dumps(doc)).run()
    at.button(key="edit_save").click().run()
    (err,) = [e.value for e in at.error]
    assert "这一局无法结算" in err and "是谁打出的牌" in err and "缺少" not in err


def test_an_unknown_jing_claim_is_said_without_field_names() -> None:
    import scoring

    (warning,) = scoring.settle(a_round()).warnings
    assert "无法判断包精" in warning and "claimed_from" not in warning


def test_a_deleted_round_can_be_put_back_where_it_was(data_dir: Path) -> None:
    """Issue 21: undo after deleting — 撤销删除 restores the round in its place with the same totals."""
    _, ids = seed(data_dir)
    at = ledger_page(data_dir)
    before, seqs = totals(at), list(at.dataframe[0].value["局"])
    at.selectbox(key="edit_pick").set_value(ids[0]).run()
    at.button(key="edit_delete").click().run()
    at.button(key="confirm_yes_delete").click().run()
    assert list(at.dataframe[0].value["局"]) == [1] and totals(at) != before
    assert "已删除第 1 局" in "\n".join(str(i.value) for i in at.info)
    at.button(key="restore_round").click().run()
    assert totals(at) == before and list(at.dataframe[0].value["局"]) == seqs
    assert not [b for b in at.button if b.key == "restore_round"]  # offered once


def test_undoing_the_last_round_can_be_undone_too(data_dir: Path) -> None:
    seed(data_dir)
    at = ledger_page(data_dir)
    before = totals(at)
    at.button(key="undo_last").click().run()
    at.button(key="confirm_yes_undo").click().run()
    assert totals(at) != before
    at.button(key="restore_round").click().run()
    assert totals(at) == before
