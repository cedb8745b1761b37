"""The readings of the winner's hand: which shapes it makes, 德国 or 有精, 精吊 or not (§3–§5).

A reading is one interpretation (shape × 德国 × 精吊).  Legality and payment come later
(`settle.py`); here we only decide what the tiles allow.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.round import Round
from scoring.shapes import (
    can_form,
    daqi_waits_on_anything,
    is_daqi,
    is_pinghu,
    is_qixing,
    is_shisanlan,
    is_xiaoqi,
    pairs_fit,
    pinghu_waits_on_anything,
    xiaoqi_waits_on_anything,
)
from scoring.tiles import NUM_KINDS, Tile

CONCEALED_ONLY = frozenset({"xiaoqi", "shisanlan", "qixing"})


@dataclass(frozen=True, slots=True)
class Reading:
    """One interpretation of the winning hand."""

    shape: str
    german: bool
    jingdiao: bool = False


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What the winner's tiles allow: every complete reading and whether the 13 tiles are a 精吊 structure."""

    readings: tuple[Reading, ...]
    jingdiao_structure: bool
    wild_count: int


def wild_kinds(r: Round) -> frozenset[Tile]:
    """The wild 精 kinds: 正精 and 副精 (and those of extra 精 sets marked wild)."""
    kinds = {r.zheng, r.fu}
    from scoring.tiles import jing_of

    for t, wild in r.extra_indicators:
        if wild:
            kinds.update(jing_of(t))
    return frozenset(kinds)


def _counts(tiles: list[Tile], wild: frozenset[Tile]) -> tuple[list[int], int, list[int]]:
    """(counts of naturals, number of wild 精, counts at face value)."""
    nat = [0] * NUM_KINDS
    face = [0] * NUM_KINDS
    j = 0
    for t in tiles:
        face[t.index] += 1
        if t in wild:
            j += 1
        else:
            nat[t.index] += 1
    return nat, j, face


def shape_complete(shape: str, counts: list[int], wild: int, declared: int, all_pungs: bool, mixed: bool,
                   strict: bool, fill_honor: bool) -> bool:
    """Do `counts` with `wild` 精 make `shape`, under the options: honor runs (`mixed`), a meld's natural tile
    (`strict`), 精 standing for an honor in 七星 (`fill_honor`)?"""
    match shape:
        case "pinghu":
            return is_pinghu(counts, wild, declared, mixed, strict)
        case "daqi":
            return is_daqi(counts, wild, declared, all_pungs, strict)
        case "xiaoqi":
            return is_xiaoqi(counts, wild, declared, strict)
        case "shisanlan":
            return is_shisanlan(counts, wild, declared)
        case "qixing":
            return is_qixing(counts, wild, declared, fill_honor)
    raise AssertionError(shape)


def _complete(shape: str, counts: list[int], wild: int, declared: int, all_pungs: bool, r: Round) -> bool:
    opts = r.options
    return shape_complete(shape, counts, wild, declared, all_pungs, opts.honor_seq_mixed, opts.meld_needs_natural,
                          opts.qixing_jing_may_fill_honor)


def _melds_only(shape: str, counts: list[int], wild: int, declared: int, mixed: bool, strict: bool = False) -> bool:
    """The tiles make complete melds (6 pairs for 小七) with no pair left over."""
    if shape == "xiaoqi":
        return declared == 0 and pairs_fit(counts, wild, 6, strict)
    return can_form(counts, wild, 4 - declared, 0, chows=shape == "pinghu", mixed=mixed, strict=strict)


def _waits_on_anything(shape: str, counts: list[int], wild: int, declared: int, all_pungs: bool, mixed: bool,
                       strict: bool = False) -> bool:
    if shape == "pinghu":
        return pinghu_waits_on_anything(counts, wild, declared, mixed, strict)
    if shape == "daqi":
        return daqi_waits_on_anything(counts, wild, declared, all_pungs, strict)
    if shape == "xiaoqi":
        return xiaoqi_waits_on_anything(counts, wild, declared, strict)
    return False


JINGDIAO_SHAPES = ("pinghu", "daqi", "xiaoqi")  # 十三烂没有精吊
ALL_SHAPES = ("pinghu", "xiaoqi", "daqi", "shisanlan", "qixing")


def hand_facts(r: Round) -> HandFacts:
    """Every complete reading of the winner's 14 tiles and the 精吊 structure of the 13 before."""
    assert r.win is not None
    win = r.win
    p = r.players[win.seat]
    wild = wild_kinds(r)
    declared = len(p.melds)
    all_pungs = all(m.is_pung_like for m in p.melds)
    mixed = r.options.honor_seq_mixed
    strict = r.options.meld_needs_natural
    nat, j, face = _counts(list(p.hand), wild)
    nat14, j14, face14 = list(nat), j, list(face)
    face14[win.tile.index] += 1
    if win.self_drawn and win.tile in wild:
        j14 += 1  # a self-drawn 精 is wild; a discarded one is its face value
    else:
        nat14[win.tile.index] += 1
    readings: list[Reading] = []
    for shape in ALL_SHAPES:
        if shape in CONCEALED_ONLY and declared:
            continue
        german = _complete(shape, face14, 0, declared, all_pungs, r)
        if german:
            readings.append(Reading(shape, True))
        if (german or j14) and _complete(shape, nat14, j14, declared, all_pungs, r):
            readings.append(Reading(shape, False))
    structure = any(_waits_on_anything(s, nat, j, declared, all_pungs, mixed, strict) for s in JINGDIAO_SHAPES)
    if win.special == "tianhu":
        readings += _tianhu_jingdiao(nat14, j14, face14, declared, all_pungs, mixed, wild, strict)
    elif win.self_drawn:
        for shape in JINGDIAO_SHAPES:
            if not _waits_on_anything(shape, nat, j, declared, all_pungs, mixed, strict):
                continue
            readings.append(Reading(shape, False, True))
            # 精吊德国: the drawn tile pairs the single 精 naturally and nothing else is wild
            k = win.tile
            if k in wild and face[k.index] >= 1:
                rest = list(face)
                rest[k.index] -= 1
                if _melds_only(shape, rest, 0, declared, mixed):
                    readings.append(Reading(shape, True, True))
    return HandFacts(tuple(dict.fromkeys(readings)), structure, j14)


def _tianhu_jingdiao(nat: list[int], j: int, face: list[int], declared: int, all_pungs: bool, mixed: bool,
                     wild: frozenset[Tile], strict: bool = False) -> list[Reading]:
    """天胡 精吊: the 14 tiles have a decomposition whose pair is 精 + any tile."""
    out: list[Reading] = []
    for shape in JINGDIAO_SHAPES:
        if shape == "daqi" and not all_pungs:
            continue
        found = False
        if j >= 1:
            if j >= 2 and not strict and _melds_only(shape, nat, j - 2, declared, mixed):
                found = True
            for k in range(len(nat)):
                if found:
                    break
                if nat[k]:
                    nat[k] -= 1
                    found = _melds_only(shape, nat, j - 1, declared, mixed, strict)
                    nat[k] += 1
        if found:
            out.append(Reading(shape, False, True))
            for t in wild:
                if face[t.index] >= 2:
                    face[t.index] -= 2
                    ok = _melds_only(shape, face, 0, declared, mixed)
                    face[t.index] += 2
                    if ok:
                        out.append(Reading(shape, True, True))
                        break
    return out
