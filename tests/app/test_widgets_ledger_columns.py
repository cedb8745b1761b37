"""牌局 on a phone: the rounds table starts with the round number and the four players' scores, so they
are what a 390 px screen shows (the dealer, result, running totals and details scroll in after)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.app.apptest import open_page
from tests.app.test_pages import seed


def test_the_four_scores_come_right_after_the_round_number(data_dir: Path) -> None:
    seed(data_dir)
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app" / "main.py"), default_timeout=30).run()
    open_page(at, "ledger")
    assert not at.exception, at.exception
    columns = list(at.dataframe[0].value.columns)
    assert columns[:5] == ["局", "老王", "小李", "阿珍", "大刘"], columns
    assert columns.index("庄家") > 4 and columns.index("Σ 老王") > 4
