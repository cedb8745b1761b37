"""Turn a golden case of golden_chongguan.yaml into a round document the engine settles.

The golden file describes situations (庄家平胡德国自摸, 5精冲关, 流局 …), mostly without tiles.
Every situation kind has one builder here; hand situations pick a concrete hand from
`HAND_TEMPLATES`, one per (shape, 德国, 精吊, 杠上花) combination, with indicator 1m
(正精 一万, 副精 二万).  Seats follow the file's schema: E is the dealer, a non-dealer winner is
S, the discarder is W when S wins and S when E wins, the konger of a robbed kong is W.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

GOLDEN_FILE = Path(__file__).parent / "data" / "golden_chongguan.yaml"
CHONGGUAN_PRESETS = ("xingguo", "nanchang", "jian", "jian_laok", "yongfeng", "lianhua")
TESTED_STATUSES = ("ok", "table_row", "conflict")
#: Kinds settled by other rule systems (tests/scoring/test_wuhu.py, test_chongji.py).
OTHER_SYSTEM_KINDS = ("wuhu", "chongji")


def load_cases() -> list[dict[str, Any]]:
    """Every case of the golden file."""
    return yaml.safe_load(GOLDEN_FILE.read_text("utf-8"))["cases"]


def presets_of(case: dict[str, Any]) -> list[str]:
    """The presets under which the case's expected values hold (absent = its variant)."""
    return list(case.get("presets") or [case["variant"]])


@dataclass(frozen=True)
class HandTemplate:
    """A winner's 13 tiles, the winning tile and declared melds that read as exactly one situation."""

    hand: str
    tile: str
    melds: tuple[dict[str, Any], ...] = ()


ANGANG_9S = ({"type": "angang", "tiles": "9999s"},)

#: (shape, 德国, 精吊, 杠上花) → a hand with that reading and no better-paying one (indicator 1m).
HAND_TEMPLATES: dict[tuple[str, bool, bool, bool], HandTemplate] = {
    ("pinghu", True, False, False): HandTemplate("345m678p234s789p5s", "5s"),
    ("pinghu", False, False, False): HandTemplate("2m45m678p234s789p5s", "5s"),  # 二万 stands for 三万
    ("pinghu", True, True, False): HandTemplate("2m345m678p234s789p", "2m"),  # single 精 paired at face value
    ("pinghu", False, True, False): HandTemplate("2m345m678p234s789p", "9s"),
    ("pinghu", True, False, True): HandTemplate("345m678p234s5s", "5s", ANGANG_9S),
    ("pinghu", False, False, True): HandTemplate("2m45m678p234s5s", "5s", ANGANG_9S),
    ("pinghu", True, True, True): HandTemplate("2m345m678p234s", "2m", ANGANG_9S),
    ("pinghu", False, True, True): HandTemplate("2m345m678p234s", "5s", ANGANG_9S),
    # 小七 is fully concealed: with a declared kong, 5 pairs + a 精 is no winning hand at all (§5 rule 6)
    ("xiaoqi", False, False, True): HandTemplate("2m55m77p99p44s8s", "8s", ANGANG_9S),
    ("xiaoqi", True, False, False): HandTemplate("33m55m77p99p44s66s8s", "8s"),
    ("xiaoqi", False, False, False): HandTemplate("23m55m77p99p44s66s8s", "8s"),  # 二万 pairs 三万
    ("xiaoqi", True, True, False): HandTemplate("2m55m77p99p44s66s88s", "2m"),
    ("xiaoqi", False, True, False): HandTemplate("2m55m77p99p44s66s88s", "3p"),
    ("daqi", True, False, False): HandTemplate("444m555p777s999s3z", "3z"),
    ("daqi", False, False, False): HandTemplate("2m44m555p777s999s3z", "3z"),  # 二万 completes 四万 pung
    ("daqi", True, True, False): HandTemplate("2m444m555p777s999s", "2m"),
    ("daqi", False, True, False): HandTemplate("2m444m555p777s999s", "3z"),
    ("daqi", True, False, True): HandTemplate("444m555p777s3z", "3z", ANGANG_9S),
    ("daqi", False, False, True): HandTemplate("2m44m555p777s3z", "3z", ANGANG_9S),
    ("daqi", True, True, True): HandTemplate("2m444m555p777s", "2m", ANGANG_9S),
    ("daqi", False, True, True): HandTemplate("2m444m555p777s", "3z", ANGANG_9S),
    ("shisanlan", True, False, False): HandTemplate("369m147p258s1234z", "5z"),
    ("shisanlan", False, False, False): HandTemplate("2m47m147p258s1234z", "5z"),  # 二万 stands for 一万
    ("qixing", True, False, False): HandTemplate("369m147p1234567z", "2s"),
    ("qixing", False, False, False): HandTemplate("2m36m147p1234567z", "2s"),  # 二万 stands for 九万
}

#: Robbed-kong hands: W added 8p to his 888p pung and S robs it.
ROBBED_TEMPLATES: dict[tuple[str, bool], HandTemplate] = {
    ("pinghu", True): HandTemplate("345m789s234s55p67p", "8p"),
    ("pinghu", False): HandTemplate("2m45m789s234s55p67p", "8p"),
    ("shisanlan", True): HandTemplate("369m147p25s12345z", "8p"),
    ("qixing", True): HandTemplate("36m14p25s1234567z", "8p"),
}
#: 七对 hands cannot rob this kong: all four 八筒 are W's, so none can be paired in the winner's hand
#: (a 精 standing for it makes a 精吊 structure, which may not rob a kong).

FILLER = "111z222z333z4z"  # ten concealed tiles of a seat that only holds a meld


@dataclass
class Built:
    """A round document plus what the case expects of it."""

    doc: dict[str, Any]
    case: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def _winner_seats(case: dict[str, Any]) -> tuple[str, str | None]:
    """(winner, discarder or None) from the case's winner and win_method."""
    seats = case.get("seats") or {}
    winner = seats.get("winner") or ("E" if case.get("winner") == "dealer" else "S")
    method = case.get("win_method")
    if method in (None, "self_draw"):
        return winner, None
    if method == "robbed_kong":
        return winner, seats.get("konger", "W")
    if method == "discard_by_dealer":
        return winner, seats.get("discarder", "E")
    return winner, seats.get("discarder", "S" if winner == "E" else "W")


def _others_jing(winner: str, zero: bool) -> dict[str, Any]:
    """精 counts of the three seats that show no tiles; one 副精 somewhere (so no 霸胡) unless `zero`."""
    players: dict[str, Any] = {s: {"jing": {"zheng": 0, "fu": 0}} for s in "ESWN" if s != winner}
    if not zero:
        holder = "N" if winner != "N" else "E"
        players[holder] = {"jing": {"zheng": 0, "fu": 1}}
    return players


def _hand_template(case: dict[str, Any]) -> HandTemplate:
    flags = case.get("flags") or {}
    if case.get("tiles"):
        t = case["tiles"]
        return HandTemplate(t["hand"], t["win_tile"])
    shape = flags.get("hand", "pinghu")
    german = bool(flags.get("german"))
    if case.get("win_method") == "robbed_kong":
        return ROBBED_TEMPLATES[(shape, german)]
    return HAND_TEMPLATES[(shape, german, bool(flags.get("jingdiao")), bool(flags.get("gangshanghua")))]


def build_hu(case: dict[str, Any], preset: str) -> Built:
    """胡计子 cases (hu, hu_flat, settlement): the winner's hand from a template, others by 精 count."""
    flags = case.get("flags") or {}
    winner, frm = _winner_seats(case)
    tpl = _hand_template(case)
    jing = case.get("jing")
    bahu = bool(flags.get("bahu")) or case.get("expected", {}).get("bahu") is True
    players = _others_jing(winner, zero=bahu)
    if jing:
        players = {s: {"jing": dict(v)} for s, v in jing.items() if s != winner}
    players[winner] = {"hand": tpl.hand, "melds": [dict(m) for m in tpl.melds]}
    if jing and winner in jing:
        players[winner]["jing"] = dict(jing[winner])
    win: dict[str, Any] = {"seat": winner, "tile": tpl.tile, "from": frm or "self"}
    if flags.get("gangshanghua"):
        win["after_kong"] = True
    if flags.get("special"):
        win["special"] = flags["special"]
    if case.get("win_method") == "robbed_kong":
        win["robbed_kong"] = True
        players[frm] = {"hand": FILLER, "melds": [{"type": "peng", "tiles": "888p", "from": "N" if frm != "N" else "E"}],
                        "jing": {"zheng": 0, "fu": 0}}
    indicator = (case.get("tiles") or {}).get("indicator") or case.get("indicator") or "1m"
    doc = {"rules": preset, "options": dict(case.get("options") or {}), "dealer": "E", "indicator": indicator,
           "players": players, "win": win}
    return Built(doc, case)


def _jing_round(preset: str, counts: dict[str, dict[str, int]], options: dict[str, Any] | None = None,
                winner: str = "E", kongs: list[dict[str, Any]] | None = None,
                claims: list[dict[str, Any]] | None = None, draw: bool = False,
                follow: int = 0) -> dict[str, Any]:
    """A round whose interest is 精计子: every seat by count, `winner` self-draws a 精-free 德国平胡."""
    players: dict[str, Any] = {s: {"jing": {"zheng": 0, "fu": 0, **counts.get(s, {})}} for s in "ESWN"}
    for k in kongs or []:
        p = players[k["seat"]]
        p["hand"], p["melds"] = FILLER, [{"type": k["type"], "tiles": k["tiles"]}]
        if k.get("jing"):
            p.pop("jing")  # counted from the kong's tiles
    for p in players.values():  # every claim is known: none unless the case lists it
        if "jing" in p:
            p["jing"]["claimed_from"] = {}
    for c in claims or []:
        got = {t: c[t] for t in ("zheng", "fu") if c.get(t)}
        players[c["to"]]["jing"].setdefault("claimed_from", {})[c["from"]] = got
    doc: dict[str, Any] = {"rules": preset, "options": dict(options or {}), "dealer": "E", "indicator": "1m",
                           "players": players, "follow_dealer": follow}
    if not draw:
        tpl = HAND_TEMPLATES[("pinghu", True, False, False)]
        w = players[winner]
        w.update({"hand": tpl.hand, "melds": []})
        doc["win"] = {"seat": winner, "tile": tpl.tile, "from": "self"}
    return doc


def jing_counts_for_points(points: int) -> dict[str, int]:
    """A holding worth `points` (正精 2, 副精 1) with as few tiles as the table allows."""
    zheng = min(points // 2, 4)
    return {"zheng": zheng, "fu": points - 2 * zheng}


def build_jing(case: dict[str, Any], preset: str, bajing: bool = False) -> Built:
    """精 value cases: S holds the points; N holds one 副精 unless the case is about 霸精."""
    exp = case["expected"]
    flags = case.get("flags") or {}
    points = exp.get("jing_points")
    counts_s = {"zheng": flags.get("zheng", 0), "fu": flags.get("fu", 0)} if flags else jing_counts_for_points(points)
    bajing = bajing or bool(exp.get("bajing"))
    counts = {"S": counts_s}
    if not bajing:
        counts["N"] = {"zheng": 0, "fu": 1}
    return Built(_jing_round(preset, counts), case)


def build_gangjing(case: dict[str, Any], preset: str) -> Built:
    """杠精 cases: W holds a concealed kong of the four 副精 (+ 正精 in hand); E holds one 正精 so no 霸精."""
    exp = case["expected"]
    zheng = max(0, (exp.get("jing_points", 4) - 4) // 2)
    bajing = bool(exp.get("bajing"))
    counts = {} if bajing else {"E": {"zheng": 1}}
    if bajing:
        zheng = 3
    doc = _jing_round(preset, counts, winner="N")
    hand = "1m" * zheng + "".join(f"{r}z" for r in "1112223334"[: 10 - zheng])
    doc["players"]["W"] = {"hand": hand, "melds": [{"type": "angang", "tiles": "2222m"}]}
    return Built(doc, case)


def build_jing_net(case: dict[str, Any], preset: str) -> Built:
    """4-seat 精计子 with 霸精, 包精 and 杠精: the case's counts, claims and kongs, E self-draws."""
    counts = {s: dict(v) for s, v in case["jing"].items()}
    winner = "E"
    doc = _jing_round(preset, counts, winner=winner, kongs=case.get("kongs"), claims=case.get("claims"),
                      options=case.get("options"))
    doc["players"][winner]["jing"] = {"zheng": 0, "fu": 0, **counts.get(winner, {})}
    return Built(doc, case)


def build_draw(case: dict[str, Any], preset: str) -> Built:
    """流局: counts, kongs and 跟庄 of the case, no winner."""
    counts = {s: dict(v) for s, v in case["jing"].items()}
    doc = _jing_round(preset, counts, kongs=case.get("kongs"), draw=True, follow=case.get("follow_dealer", 0))
    for k in case.get("kongs") or []:
        doc["players"][k["seat"]]["jing"] = {"zheng": 0, "fu": 0, **counts.get(k["seat"], {})}
    return Built(doc, case)


KONG_MELDS = {
    "angang": {"type": "angang", "tiles": "7777z"},
    "penggang": {"type": "gang", "tiles": "7777z", "from": "W"},
    "bugang": {"type": "bugang", "tiles": "7777z", "from": "W"},
}


def build_kong(case: dict[str, Any], preset: str) -> Built:
    """杠分: S declares the kong named by the case id, N self-draws."""
    kind = case["id"].rsplit("-", 1)[-1]
    doc = _jing_round(preset, {"E": {"fu": 1}}, winner="N")
    doc["players"]["S"] = {"hand": FILLER, "melds": [KONG_MELDS[kind]], "jing": {"zheng": 0, "fu": 0}}
    return Built(doc, case)


def build_follow(case: dict[str, Any], preset: str) -> Built:
    """跟庄: the case's go-arounds in a round S wins."""
    doc = _jing_round(preset, {"N": {"fu": 1}}, winner="S", follow=case["expected"]["rounds_followed"])
    return Built(doc, case)


def build_penalty(case: dict[str, Any], preset: str) -> Built:
    """诈胡: the offender declared a false win; the round then ends as a draw."""
    doc = _jing_round(preset, {}, draw=True)
    doc["false_win"] = [case["expected"]["offender"]]
    return Built(doc, case)


BUILDERS = {
    "hu": build_hu,
    "hu_flat": build_hu,
    "settlement": build_hu,
    "jing": build_jing,
    "gangjing": build_gangjing,
    "jing+gangjing": build_gangjing,
    "jing_net": build_jing_net,
    "draw": build_draw,
    "kong": build_kong,
    "genzhuang": build_follow,
    "penalty": build_penalty,
}
#: Kinds checked without a round (a value of one function): indicator, hu_multiplier.
DIRECT_KINDS = ("indicator", "hu_multiplier")
