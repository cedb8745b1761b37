"""Property tests (hypothesis): the wildcard DFS agrees with brute force, 德国 iff complete at face
value, and every settlement is zero-sum in every component."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoring import RoundError, settle
from scoring.chongguan.hand import hand_facts
from scoring.chongguan.presets import PRESETS, resolve_options
from scoring.round import parse_round
from scoring.shapes import can_form, is_daqi, is_shisanlan, is_xiaoqi
from scoring.tiles import CODES
from tests.scoring import oracle

SUITED_CHOWS = [(s * 9 + r, s * 9 + r + 1, s * 9 + r + 2) for s in range(3) for r in range(7)]
HONOR_CHOWS = [*oracle.WIND_SEQS, oracle.DRAGON_SEQ]


@st.composite
def near_complete(draw: st.DrawFn) -> list[int]:
    """14 tiles: four random melds + a pair (often complete), or 14 random tiles, ≤ 4 of a kind."""
    if draw(st.booleans()):
        tiles: list[int] = []
        for _ in range(4):
            kind = draw(st.sampled_from(["chow", "pung", "honor"]))
            if kind == "chow":
                tiles += draw(st.sampled_from(SUITED_CHOWS))
            elif kind == "honor":
                tiles += draw(st.sampled_from(HONOR_CHOWS))
            else:
                tiles += [draw(st.integers(0, 33))] * 3
        tiles += [draw(st.integers(0, 33))] * 2
        if draw(st.booleans()):  # perturb one tile
            tiles[draw(st.integers(0, 13))] = draw(st.integers(0, 33))
    else:
        tiles = draw(st.lists(st.integers(0, 33), min_size=14, max_size=14))
    if max(Counter(tiles).values()) > 4:  # no fifth copy: fall back to a random legal hand
        tiles = draw(st.lists(st.integers(0, 33), min_size=14, max_size=14).filter(
            lambda ts: max(Counter(ts).values()) <= 4))
    return tiles


@st.composite
def hand_with_wilds(draw: st.DrawFn) -> tuple[list[int], int]:
    """(naturals, number of wild 精): 0–3 positions of a 14-tile hand turned into wilds."""
    tiles = draw(near_complete())
    wild = draw(st.integers(0, 3))
    positions = draw(st.lists(st.integers(0, 13), min_size=wild, max_size=wild, unique=True))
    return [t for i, t in enumerate(tiles) if i not in positions], wild


def counts(tiles: list[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


SLOW = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@SLOW
@given(hand_with_wilds())
def test_pinghu_dfs_agrees_with_brute_force_substitution(hand: tuple[list[int], int]) -> None:
    naturals, wild = hand
    assert can_form(counts(naturals), wild, 4, 1) == oracle.with_wilds("pinghu", naturals, wild)


@SLOW
@given(hand_with_wilds())
def test_daqi_xiaoqi_shisanlan_agree_with_brute_force(hand: tuple[list[int], int]) -> None:
    naturals, wild = hand
    c = counts(naturals)
    assert is_daqi(c, wild, 0, True) == oracle.with_wilds("daqi", naturals, wild)
    assert is_xiaoqi(c, wild, 0) == oracle.with_wilds("xiaoqi", naturals, wild)
    assert is_shisanlan(c, wild, 0) == oracle.with_wilds("shisanlan", naturals, wild)


def doc_for(tiles: list[int], indicator: int, seat: str = "S") -> dict:
    hand, win = tiles[:13], tiles[13]
    players = {s: {"jing": {"zheng": 0, "fu": 1}} for s in "ESWN"}
    players[seat] = {"hand": "".join(CODES[t] for t in hand)}
    return {"rules": "xingguo", "dealer": "E", "indicator": CODES[indicator], "players": players,
            "win": {"seat": seat, "tile": CODES[win], "from": "self"}, "options": {"indicator_drawable": True}}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(near_complete(), st.integers(0, 33))
def test_a_hand_is_german_iff_complete_with_every_jing_at_face_value(tiles: list[int], indicator: int) -> None:
    doc = doc_for(tiles, indicator)
    rnd = parse_round(doc, "xingguo", resolve_options("xingguo", doc["options"]))
    german = any(r.german for r in hand_facts(rnd).readings)
    face = sorted(tiles)
    assert german == any(check(face) for check in oracle.FACE.values())  # 七星 is a 十三烂


SEATS = "ESWN"


@st.composite
def rounds(draw: st.DrawFn) -> dict:
    """A random round: a winner's hand (perhaps not winning), 精 counts, kongs, 跟庄, 诈胡, any preset."""
    tiles = draw(near_complete())
    seat = draw(st.sampled_from(SEATS))
    doc = doc_for(tiles, draw(st.integers(0, 33)), seat)
    doc["rules"] = draw(st.sampled_from(sorted(PRESETS)))
    for s in SEATS:
        if s != seat:
            doc["players"][s] = {"jing": {"zheng": draw(st.integers(0, 3)), "fu": draw(st.integers(0, 4))}}
            if draw(st.integers(0, 4)) == 0:
                doc["players"][s]["melds"] = [{"type": "angang", "tiles": CODES[draw(st.integers(0, 33))] * 4}]
    frm = draw(st.sampled_from(["self", *[s for s in SEATS if s != seat]]))
    doc["win"]["from"] = frm
    if draw(st.integers(0, 5)) == 0:
        doc["win"] = None
    doc["follow_dealer"] = draw(st.integers(0, 3))
    doc["false_win"] = draw(st.lists(st.sampled_from([s for s in SEATS if s != seat]), max_size=2, unique=True))
    doc["options"] = {"indicator_drawable": True} | draw(st.sampled_from([
        {}, {"qianggang": "selfdraw_all_by_konger"}, {"dealer_mode": "tongzhuang_x2"}, {"bao_split": "by_points"},
        {"draw_settlement": "non_hu"}, {"jing_scope": "hand_melds"}]))
    return doc


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rounds())
def test_every_component_of_every_settlement_sums_to_zero(doc: dict) -> None:
    try:
        s = settle(doc).to_dict()
    except RoundError as err:
        assert err.zh  # a refusal always says why
        event("refused")
        return
    event("settled")
    for name, comp in s["deltas"].items():
        assert sum(comp.values()) == 0, name
    assert s["total"] == {k: sum(c[k] for c in s["deltas"].values()) for k in SEATS}
    assert all(p["amount"] > 0 for p in s["payments"])
