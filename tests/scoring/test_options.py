"""The typed 冲关 options: every option and every value has a Chinese label, and a round's
`options:` mapping (round-format.md) is read with the spec's names and values, refusing the rest."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from scoring import RoundError, settle
from scoring.chongguan.presets import OPTIONS, PRESETS, XINGGUO, ChongguanOptions, KongPay, resolve_options
from scoring.options import as_plain, overrides_of
from tests.scoring.chongguan_helpers import round_doc

DOCS = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"
CJK = re.compile(r"[\u4e00-\u9fff]")


def test_every_option_has_labels_and_a_spec_section() -> None:
    assert [f.name for f in fields(ChongguanOptions)] == list(OPTIONS)
    for spec in OPTIONS.values():
        assert CJK.search(spec.zh) and spec.en and spec.section, spec.name


@pytest.mark.parametrize("name", list(OPTIONS))
def test_every_value_an_option_can_take_reads_in_chinese(name: str) -> None:
    spec = OPTIONS[name]
    values = set(spec.choices) | {getattr(o, name) for o in PRESETS.values()}
    for value in values:
        label = spec.label(value)
        assert label != str(value) or isinstance(value, int), (name, value)
        assert "{" not in label and label not in ("any", "null", "None", "True", "False"), (name, label)
        assert spec.label(value, "en")


def test_a_record_option_reads_by_its_parts() -> None:
    assert OPTIONS["kong_pay"].label(KongPay(1, 2, 1)) == "明杠 1 / 暗杠 2 / 补杠 1"
    assert OPTIONS["full_jing_value"].label(None) == "70（按公式）"
    assert OPTIONS["gangjing_plus_kong_pay"].label(True) == "是"


def test_presets_are_instances_that_differ_from_xingguo_as_the_spec_says() -> None:
    assert all(isinstance(o, ChongguanOptions) for o in PRESETS.values())
    assert overrides_of(XINGGUO, PRESETS["yongfeng"]) == {
        "genzhuang_rounds": "first", "draw_trigger": "reserve_34", "draw_settlement": "non_hu",
        "gangjing_plus_kong_pay": True}
    assert overrides_of(XINGGUO, PRESETS["jian"]) == {}


def test_the_docs_preset_table_lists_what_each_preset_changes() -> None:
    rows = {m[1]: m[2] for m in re.finditer(r"^\| `(\w+)` [^|]*\| (.*) \|$", DOCS.read_text("utf-8"), re.M)}
    assert set(rows) == set(PRESETS) - {"xingguo"}
    for preset, text in rows.items():
        assert set(re.findall(r"`(\w+)`", text)) == set(overrides_of(XINGGUO, PRESETS[preset])), preset


def test_a_round_gives_options_by_the_spec_names_and_values() -> None:
    opts = resolve_options("xingguo", {"kong_pay": {"ming": 1, "bu": 1}, "full_jing_value": 100,
                                       "qianggang": "konger_rate_x3", "bao_on_hu": False})
    assert opts.kong_pay == KongPay(ming=1, an=2, bu=1)
    assert (opts.full_jing_value, opts.qianggang, opts.bao_on_hu) == (100, "konger_rate_x3", False)
    assert as_plain(opts)["kong_pay"] == {"ming": 1, "an": 2, "bu": 1}
    assert resolve_options("nanchang", None) is PRESETS["nanchang"]


def test_a_changed_kong_pay_changes_the_settlement() -> None:
    doc = round_doc("345m678p234s5s", "5s", melds=[{"type": "angang", "tiles": "9999s"}],
                    options={"kong_pay": {"an": 3}})
    assert settle(doc).to_dict()["deltas"]["gang"] == {"E": -3, "S": 9, "W": -3, "N": -3}


@pytest.mark.parametrize(("overrides", "says"), [
    ({"no_such_option": 1}, "未知的选项：no_such_option"),
    ({"qianggang": "whatever"}, "选项 qianggang 的值 'whatever' 无效"),
    ({"jing_claim": True}, "选项 jing_claim 的值 True 无效"),
    ({"bao_on_hu": 1}, "选项 bao_on_hu 必须是 true 或 false"),
    ({"gangjing_value": -1}, "选项 gangjing_value 必须是非负整数"),
    ({"gangjing_value": True}, "选项 gangjing_value 必须是非负整数"),
    ({"full_jing_value": "70"}, "选项 full_jing_value 必须是非负整数"),
    ({"kong_pay": {"dark": 2}}, "选项 kong_pay 必须是 {ming, an, bu} 的整数表"),
    ({"kong_pay": {"an": "2"}}, "选项 kong_pay 的值必须是非负整数"),
    ({"kong_pay": 2}, "选项 kong_pay 必须是"),
])
def test_unknown_names_and_values_are_refused_with_the_name(overrides: dict, says: str) -> None:
    with pytest.raises(RoundError) as exc:
        resolve_options("xingguo", overrides)
    assert says in exc.value.zh and exc.value.en


def test_options_must_be_a_mapping_and_the_preset_known() -> None:
    with pytest.raises(RoundError, match="options must be a mapping"):
        resolve_options("xingguo", ["bao_on_hu"])  # type: ignore[arg-type]
    with pytest.raises(RoundError, match="unknown 冲关 preset"):
        resolve_options("shanghai", None)
