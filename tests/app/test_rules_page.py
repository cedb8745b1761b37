"""The 规则 page (issue 21 bug 1): choosing another preset loads that preset's values; only what the
player changes afterwards is stored as an override; every option value reads in Chinese."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app.ledger import Ledger
from scoring import RoundError, settle
from scoring.chongguan.presets import OPTIONS, PRESETS


def _rules_page() -> None:
    from app.views.rules import render

    render()


def table(data_dir: Path) -> tuple[int, str, dict]:
    """The first table's id, preset and stored option overrides."""
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        t = lg.tables()[0]
        return t.id, t.rules, t.options


def page() -> AppTest:
    at = AppTest.from_function(_rules_page, default_timeout=30).run()
    assert not at.exception, at.exception
    return at


def save(at: AppTest) -> AppTest:
    at.button(key="rules_save").click().run()
    assert not at.exception, at.exception
    return at


def ron_youjing_pinghu(rules: str, options: dict) -> dict:
    """S wins 有精平胡 on W's discard (二万 stands for 三万): 南昌 allows it, 兴国 refuses it."""
    players = {s: {"jing": {"zheng": 0, "fu": 1 if s == "N" else 0}} for s in "ESWN"}
    players["S"] = {"hand": "2m45m678p234s789p5s"}
    return {"rules": rules, "options": options, "dealer": "E", "indicator": "1m", "players": players,
            "win": {"seat": "S", "tile": "5s", "from": "W"}}


def test_choosing_nanchang_stores_nanchang_without_overrides_and_settles_by_it(data_dir: Path) -> None:
    at = page()
    tid, rules, _ = table(data_dir)
    assert rules == "xingguo"
    at.selectbox(key=f"preset_{tid}").set_value("nanchang").run()
    assert at.number_input(key=f"opt_{tid}_nanchang_gangjing_value").value == 14
    assert at.checkbox(key=f"opt_{tid}_nanchang_allow_ron_pinghu_with_jing").value is True
    save(at)
    tid, rules, options = table(data_dir)
    assert (rules, options) == ("nanchang", {})
    with pytest.raises(RoundError):
        settle(ron_youjing_pinghu("xingguo", {}))
    assert settle(ron_youjing_pinghu(rules, options)).to_dict()["win"]["method"] == "dianpao"

    at.checkbox(key=f"opt_{tid}_nanchang_bajing_doubles_gangjing").uncheck().run()
    save(at)
    assert table(data_dir)[1:] == ("nanchang", {"bajing_doubles_gangjing": False})


def test_choosing_yongfeng_loads_its_draw_trigger_and_kong_pay(data_dir: Path) -> None:
    at = page()
    tid = table(data_dir)[0]
    at.selectbox(key=f"preset_{tid}").set_value("yongfeng").run()
    assert at.selectbox(key=f"opt_{tid}_yongfeng_draw_trigger_zh").value == "reserve_34"
    assert at.checkbox(key=f"opt_{tid}_yongfeng_gangjing_plus_kong_pay").value is True
    assert any("杠精另计杠分：是" in c.value for c in at.caption)
    at.number_input(key=f"opt_{tid}_yongfeng_kong_pay_an").set_value(3).run()
    save(at)
    assert table(data_dir)[1:] == ("yongfeng", {"kong_pay": {"ming": 2, "an": 3, "bu": 2}})
    again = page()
    assert again.number_input(key=f"opt_{tid}_yongfeng_kong_pay_an").value == 3


RAW = re.compile(r"^(any|null|None|True|False|[a-z0-9]+(_[a-z0-9]+)+)$|[{}]")


def test_every_option_and_value_is_shown_in_chinese(data_dir: Path) -> None:
    at = page()
    tid = table(data_dir)[0]
    for preset in PRESETS:
        at.selectbox(key=f"preset_{tid}").set_value(preset).run()
        boxes = [b for b in at.selectbox if b.key.startswith(f"opt_{tid}_{preset}_")]
        assert len(boxes) == sum(1 for s in OPTIONS.values() if s.kind == "choice")
        for box in boxes:
            assert all(not RAW.search(v) and re.search(r"[\u4e00-\u9fff]|^\d+$|^\d+（", v) for v in box.options), box.options
        labels = [w.label for w in [*at.checkbox, *at.selectbox, *at.number_input] if w.key.startswith("opt_")]
        assert all(re.search(r"[\u4e00-\u9fff]", label) for label in labels), labels
    assert "一律不能" in at.selectbox(key=f"opt_{tid}_lianhua_jingdiao_structure_ron_zh").options
