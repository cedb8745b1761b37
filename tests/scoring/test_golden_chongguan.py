"""Every tested golden case of golden_chongguan.yaml (status ok, table_row, conflict), settled.

A case becomes a round through `golden_builder` (one builder per situation kind) and is settled
under each preset the case names; the test asserts the exact amounts and the reading's flags.
`ambiguous` and `garbled` cases are documentation: listed here, never asserted.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from scoring import RoundError, settle
from scoring.chongguan.hu import lianhua_discard_multiplier, robbed_kong_payment
from scoring.chongguan.jing import jing_value
from scoring.chongguan.presets import resolve_options
from scoring.tiles import jing_of, tile
from tests.scoring.golden_builder import (
    BUILDERS,
    CHONGGUAN_PRESETS,
    DIRECT_KINDS,
    OTHER_SYSTEM_KINDS,
    TESTED_STATUSES,
    build_jing,
    load_cases,
    presets_of,
)

CASES = load_cases()
#: Situations no legal round can build, checked on the formula instead (see UNREALIZABLE_WHY).
UNREALIZABLE = {"xg-qg-daqi-dealer"}
UNREALIZABLE_WHY = {
    "xg-qg-daqi-dealer": "a 有精大七 that robs a kong needs two 精 for the robbed tile's pung, which makes "
    "the 13 tiles a 精吊 structure, and a 精吊 structure may not rob a kong (§5 rule 2)",
}


#: What the refusal of each forbidden golden win must name (chongguan.md §5).
REFUSAL_SAYS = {
    "xg-A5": "有精平胡不能抓点炮",
    "xg-A7": "有精平胡不能抓点炮",
    "xg-A9": "有精平胡不能抓点炮",
    "xg-X-xiaoqi-gangkai": "not a winning hand",
    "xg-C2-jdstruct-ron": "精吊结构",
    "xg-qg-youjing-pinghu": "有精平胡不能抢杠",
}


def _tested(case: dict[str, Any]) -> bool:
    return case["status"] in TESTED_STATUSES and case["kind"] not in OTHER_SYSTEM_KINDS


def _params(kinds: tuple[str, ...]) -> list[Any]:
    out = []
    for c in CASES:
        if _tested(c) and c["kind"] in kinds and c["id"] not in UNREALIZABLE:
            for p in presets_of(c):
                out.append(pytest.param(c, p, id=f"{c['id']}@{p}"))
    return out


def _settle(case: dict[str, Any], preset: str) -> dict[str, Any]:
    built = BUILDERS[case["kind"]](case, preset)
    return settle(built.doc).to_dict()


def _gross(s: dict[str, Any], note: str, to: str | None = None) -> dict[str, int]:
    """Gross 精 payments with `note` (jing / gangjing / bao), summed per payer (to `to` if given)."""
    out: dict[str, int] = {}
    for p in s["payments"]:
        if p["reason"] == "jing" and p.get("note") == note and (to is None or p["to"] == to):
            out[p["from"]] = out.get(p["from"], 0) + p["amount"]
    return out


# ---- 胡计子 ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("case", "preset"), _params(("hu", "hu_flat", "settlement")))
def test_hu_amounts_and_flags(case: dict[str, Any], preset: str) -> None:
    exp = case["expected"]
    built = BUILDERS[case["kind"]](case, preset)
    if exp.get("allowed") is False:
        with pytest.raises(RoundError) as err:
            settle(built.doc)
        assert REFUSAL_SAYS[case["id"]] in f"{err.value.zh} {err.value.en}"
        return
    s = settle(built.doc).to_dict()
    win = s["win"]
    flags = case.get("flags") or {}
    if "hand" in flags:
        assert win["shape"] == flags["hand"]
    for flag in ("german", "jingdiao", "gangshanghua"):
        if flag in flags:
            assert win[flag] is flags[flag], flag
    if flags.get("special"):
        assert win["special"] == flags["special"]
    if "bahu" in exp or "bahu" in flags:
        assert win["bahu"] is bool(exp.get("bahu", flags.get("bahu")))
    hu = s["deltas"]["hu"]
    paid = {p: -v for p, v in hu.items() if v < 0}
    assert paid == {p: v for p, v in exp["payments"].items() if v}
    assert sum(paid.values()) == exp["total"]
    expected_hu = exp.get("components", {}).get("hu", exp.get("deltas"))
    assert hu == expected_hu
    if "components" in exp:
        if "jing" in exp["components"]:
            assert s["deltas"]["jing"] == exp["components"]["jing"]
        assert s["total"] == exp["deltas"]
    if "bajing" in exp:
        assert s["bajing"] == exp["bajing"]


def test_conflict_cases_use_the_corrected_total() -> None:
    conflicts = [c for c in CASES if c["status"] == "conflict"]
    assert conflicts, "the golden file has arithmetic slips"
    for c in conflicts:
        s = _settle(c, presets_of(c)[0])
        got = sum(-v for v in s["deltas"]["hu"].values() if v < 0)
        assert got == c["expected"]["total"] != c["expected"]["stated_total"], c["id"]


def test_robbed_kong_of_the_dealer_with_a_youjing_daqi_follows_the_formula() -> None:
    case = next(c for c in CASES if c["id"] == "xg-qg-daqi-dealer")
    opts = resolve_options("xingguo", case.get("options"))
    assert robbed_kong_payment(4, 1, False, "S", "E", "E", opts) == case["expected"]["payments"]["E"]
    for mode, amount in (("selfdraw_all_by_konger", 32), ("selfdraw_x2_all_by_konger", 64), ("konger_rate_x3", 48)):
        assert robbed_kong_payment(4, 1, False, "S", "E", "E", replace(opts, qianggang=mode)) == amount


# ---- 精计子 ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("case", "preset"), _params(("jing",)))
def test_jing_value_per_payer(case: dict[str, Any], preset: str) -> None:
    exp = case["expected"]
    if "values" in exp:  # a rule line: several point totals at once
        for points, value in exp["values"].items():
            assert jing_value(int(points)) == value
        return
    s = _settle(case, preset)
    assert s["jing"]["S"]["points"] == exp["jing_points"]
    paid = _gross(s, "jing", to="S")
    assert paid == {"E": exp["per_payer"], "W": exp["per_payer"], "N": exp["per_payer"]}
    if "total_from_3" in exp:
        assert sum(paid.values()) == exp["total_from_3"]
    if exp.get("bajing") is False:
        assert s["bajing"] is None
    if "per_payer_if_bajing" in exp:
        alone = settle(build_jing(case, preset, bajing=True).doc).to_dict()
        assert alone["bajing"] == "S"
        assert set(_gross(alone, "jing", to="S").values()) == {exp["per_payer_if_bajing"]}


@pytest.mark.parametrize(("case", "preset"), _params(("gangjing", "jing+gangjing")))
def test_gangjing_per_payer(case: dict[str, Any], preset: str) -> None:
    exp = case["expected"]
    s = _settle(case, preset)
    gang = _gross(s, "gangjing", to="W")
    jing = _gross(s, "jing", to="W")
    assert s["deltas"]["gang"]["W"] == 0, "a kong of 精 scores 杠精, not 杠分"
    if "gangjing" in exp:
        assert s["jing"]["W"]["points"] == exp["jing_points"]
        assert set(jing.values()) == {exp["chongguan_value"] * (2 if exp.get("bajing") else 1)}
        assert set(gang.values()) == {exp["gangjing"] * (2 if exp.get("bajing") else 1)}
        totals = {p: jing[p] + gang[p] for p in jing}
        assert set(totals.values()) == {exp["per_payer"]}
    else:
        assert set(gang.values()) == {exp["per_payer"]}
        assert len(gang) == 3
        if "total_from_3" in exp:
            assert sum(gang.values()) == exp["total_from_3"]
        if exp.get("also_counts_in_jing_points"):
            assert s["jing"]["W"]["points"] == 4 and set(jing.values()) == {4}


@pytest.mark.parametrize(("case", "preset"), _params(("jing_net",)))
def test_four_seat_jing_net(case: dict[str, Any], preset: str) -> None:
    exp = case["expected"]
    s = _settle(case, preset)
    assert {p: v["points"] for p, v in s["jing"].items()} == exp["points"]
    assert {p: v["value"] for p, v in s["jing"].items()} == exp["values"]
    assert s["bajing"] == exp["bajing"]
    comps = exp.get("components")
    expected_jing = exp["deltas"]
    if comps:  # the source splits 精 and 杠精; the engine's jing component holds both
        expected_jing = {p: comps["jing"][p] + comps.get("gangjing", {}).get(p, 0) for p in comps["jing"]}
        assert s["deltas"]["gang"] == comps["gang"]
    assert s["deltas"]["jing"] == expected_jing
    bao = [p for p in s["payments"] if p.get("note") == "bao"]
    if "bao" in exp:
        want = {(b["payer"], b["for"]): b["amount"] for b in exp["bao"]}
        got: dict[tuple[str, str], int] = {}
        for p in bao:
            got[(p["from"], p["to"])] = got.get((p["from"], p["to"]), 0) + p["amount"]
        assert got == want
    if case.get("claims") == [] or "claims" not in case:
        assert not bao
    assert not s["warnings"]


# ---- 流局, 杠, 跟庄, 诈胡 ------------------------------------------------------------------------

@pytest.mark.parametrize(("case", "preset"), _params(("draw",)))
def test_draw_settlement(case: dict[str, Any], preset: str) -> None:
    exp = case["expected"]
    assert resolve_options(preset, None).draw_settlement == exp["draw_settlement"]
    s = _settle(case, preset)
    assert s["win"] is None
    for comp, deltas in exp["components"].items():
        assert s["deltas"][comp] == deltas, comp
    assert s["total"] == exp["deltas"]


@pytest.mark.parametrize(("case", "preset"), _params(("kong",)))
def test_kong_points(case: dict[str, Any], preset: str) -> None:
    s = _settle(case, preset)
    assert s["deltas"]["gang"] == case["expected"]["deltas"]


@pytest.mark.parametrize(("case", "preset"), _params(("genzhuang",)))
def test_follow_the_dealer(case: dict[str, Any], preset: str) -> None:
    s = _settle(case, preset)
    assert s["deltas"]["follow"] == case["expected"]["deltas"]


@pytest.mark.parametrize(("case", "preset"), _params(("penalty",)))
def test_false_win_penalty(case: dict[str, Any], preset: str) -> None:
    s = _settle(case, preset)
    assert s["deltas"]["penalty"] == case["expected"]["deltas"]


# ---- one-function cases -----------------------------------------------------------------------

@pytest.mark.parametrize(("case", "preset"), _params(("indicator",)))
def test_indicator_gives_zheng_and_fu(case: dict[str, Any], preset: str) -> None:
    exp = case["expected"]
    zheng, fu = jing_of(tile(exp["indicator"]))
    assert (zheng.code, fu.code) == (exp["zheng"], exp["fu"])
    doc = BUILDERS["jing"]({"expected": {"jing_points": 0}, "flags": {}}, preset).doc
    doc["indicator"] = exp["indicator"]
    s = settle(doc).to_dict()
    assert any(exp["indicator"] and "正精" in line for line in s["explanation"])


@pytest.mark.parametrize(("case", "preset"), _params(("hu_multiplier",)))
def test_lianhua_discarded_jing_multiply_the_hand(case: dict[str, Any], preset: str) -> None:
    exp = case["expected"]
    assert lianhua_discard_multiplier(exp["discarded_zheng"], exp["discarded_fu"]) == exp["hu_multiplier"]
    plain = BUILDERS["jing"]({"expected": {"jing_points": 0}, "flags": {}}, preset).doc
    plain["options"] = {}
    base = settle(plain).to_dict()["deltas"]["hu"]
    discarded = BUILDERS["jing"]({"expected": {"jing_points": 0}, "flags": {}}, preset).doc
    winner = discarded["win"]["seat"]
    discarded["players"][winner]["discards"] = "1m" * exp["discarded_zheng"] + "2m" * exp["discarded_fu"]
    discarded["players"][winner].pop("jing", None)
    got = settle(discarded).to_dict()["deltas"]["hu"]
    assert got[winner] == base[winner] * exp["hu_multiplier"]


# ---- the file itself --------------------------------------------------------------------------

def test_every_tested_kind_has_a_builder() -> None:
    kinds = {c["kind"] for c in CASES if _tested(c)}
    assert kinds <= set(BUILDERS) | set(DIRECT_KINDS)
    assert all(set(presets_of(c)) <= set(CHONGGUAN_PRESETS) for c in CASES if _tested(c))


def test_the_golden_file_is_the_shared_one() -> None:
    assert len(CASES) == 328
    statuses = {c["status"] for c in CASES}
    assert statuses == {"ok", "table_row", "conflict", "ambiguous", "garbled"}
    documented = [c["id"] for c in CASES if c["status"] in ("ambiguous", "garbled")]
    assert documented == ["nc-09c", "lk-42", "lk-43"]
    refused = {c["id"] for c in CASES if _tested(c) and c["expected"].get("allowed") is False}
    assert refused == set(REFUSAL_SAYS)
