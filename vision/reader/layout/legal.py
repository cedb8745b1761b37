"""The most probable legal round: roles and tiles that make a win, from the classifier's top choices.

A layout proposes one or more `Hypothesis` (who is hand, winning tile, meld, indicator: each with a
cost, −log of how unusual that layout is); each tile is a `Slot` holding the classifier's few best
codes with their probabilities. `decode` picks the hypothesis and codes of least total cost
(the hypothesis's cost + for each changed tile, log p(first choice) − log p(chosen)) that make a
*legal* round (`is_legal`):

- the counts: concealed tiles + winning tile = 14 − 3 × melds;
- every meld valid (吃 a run, 碰 three alike, ``three`` either of them, 杠 four alike (``gang3``: three
  seen, the fourth stacked), 暗杠 its faces alike);
- no tile more than 4 times, counting the indicator and every meld (a kong holds four);
- the winner's 14 tiles make a winning shape of the rules (`scoring.shapes`: 平胡, 小七对, 大七对,
  十三烂, 七星; 精 wild as the options say, or 德国 with no 精 used); a 精 that won may be wild
  (self-drawn) or its face (a discard). With no indicator known, any indicator will do.

At most `MAX_CHANGES` tiles change, each to a choice no less than `MIN_ALTERNATIVE` likely (a tile whose first
choice is under `ANY_BELOW` may become any tile but a 精, at its share of the belief the top choices leave, but the
indicator: its tile sets the 精, and 精 are wild, so nearly any indicator, or a 精 in the hand, makes some hand a
win), and all of them
together no less likely than `MAX_STEP` allows one to be; every change
comes back in `Decoded.changed` so that it is asked about, never taken silently. When nothing legal
lies within those choices, the first hypothesis with the first choices comes back with `legal=False`.

Pure Python over `scoring` (tiles, shapes, options); no image work.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from scoring.chongguan.hand import CONCEALED_ONLY, shape_complete
from scoring.shapes import is_sequence
from scoring.tiles import CODES, NUM_KINDS, jing_of, tile

#: Tiles that may change from the classifier's first choice to make a round legal.
MAX_CHANGES = 2
#: A choice less likely than this is never taken.
MIN_ALTERNATIVE = 0.01
#: … nor one this many times less likely than the first choice (e^5 ≈ 150), nor a set of changes less likely than that
#: together: two 三万 read 0.94, each 二万 at 0.01, no longer make a drawn hand a win (2026-12-05; on the 1 140 tuning
#: photos a limit together from 4 up reads alike, 3 loses 3).
MAX_STEP = 5.0
#: A slot whose first choice is less likely than this may take any tile, at its share of the leftover belief (the
#: classifier's top three then miss the tile often: composed tuning photos +3 of 300, none lost; 2026-12-05). Not the
#: indicator: an indicator named 3條 at 0.03 was read 一萬, whose 精 made the hand a win (nineteenth session: tuning +1
#: of 2 470, none of the 3 840 saved photos lost). Nor any tile a 精 of the round: a 精 is wild, so it makes nearly any
#: hand a win (a winning 6筒 named 7筒 at 0.29 became the indicator's 3條). 0.2 → 0.3 with that (2026-12-07: of the
#: 5 360 saved photos 4 more right, kept-aside and a fresh draw +1 each among them, none lost).
ANY_BELOW = 0.3
#: Legality checks one `decode` may make (20–60 µs each: a read stays within its time).
MAX_CHECKS = 1000
SHAPES = ("pinghu", "xiaoqi", "daqi", "shisanlan", "qixing")
MELD_TYPES = ("chi", "peng", "three", "gang", "gang3", "angang")

__all__ = ["Decoded", "Hypothesis", "Slot", "decode", "is_legal"]


@dataclass(frozen=True, slots=True)
class Slot:
    """One visible tile of a hypothesis: role (hand, win, meld, indicator), meld index, and the
    classifier's choices (code, probability), the first choice first."""

    role: str
    choices: tuple[tuple[str, float], ...]
    meld: int | None = None

    @property
    def first(self) -> str:
        return self.choices[0][0]


@dataclass(frozen=True, slots=True)
class Hypothesis:
    """One reading of the roles: the slots, each meld's type and face-down tile count, and its cost."""

    slots: tuple[Slot, ...]
    melds: tuple[str, ...] = ()
    hidden: tuple[int, ...] = ()
    cost: float = 0.0
    indicator: str | None = None  # given by the player: it overrides any indicator slot


@dataclass(frozen=True, slots=True)
class Decoded:
    """The chosen hypothesis (index), a code per slot, the slots changed from the first choice, the cost."""

    hypothesis: int
    codes: tuple[str, ...]
    changed: tuple[int, ...]
    cost: float
    legal: bool


# ----------------------------------------------------------------------------- legality


def _options_key(options: Any) -> tuple[bool, bool, bool]:
    """The three options a winning shape depends on, read from typed options or a plain mapping."""
    def get(name: str) -> bool:
        return bool(options[name] if isinstance(options, dict) else getattr(options, name, False))

    return get("honor_seq_mixed"), get("meld_needs_natural"), get("qixing_jing_may_fill_honor")


@lru_cache(maxsize=65536)
def _wins(face: tuple[int, ...], wild_kinds: frozenset[int], win: int | None, declared: int, all_pungs: bool,
          opts: tuple[bool, bool, bool]) -> bool:
    """Do the winner's tiles (counts at face value) make a winning shape, 德国 or with 精 wild?"""
    mixed, strict, fill_honor = opts
    nat = list(face)
    wild = 0
    for k in wild_kinds:
        wild += nat[k]
        nat[k] = 0
    readings = [(list(face), 0)]
    if wild:
        readings.append((nat, wild))
        if win is not None and win in wild_kinds:  # a discarded 精 counts at its face
            won = list(nat)
            won[win] += 1
            readings.append((won, wild - 1))
    for counts, j in readings:
        for shape in SHAPES:
            if shape in CONCEALED_ONLY and declared:
                continue
            if shape_complete(shape, counts, j, declared, all_pungs, mixed, strict, fill_honor):
                return True
    return False


def _meld_ok(kind: str, codes: Sequence[str], mixed: bool) -> bool:
    """A declared meld as shown: a run, three or four alike, a concealed kong's faces alike."""
    if any(c not in CODES for c in codes):
        return False
    if kind == "chi":
        return len(codes) == 3 and is_sequence([tile(c).index for c in codes], mixed)
    if kind == "peng":
        return len(codes) == 3 and len(set(codes)) == 1
    if kind == "three":  # three faces with no sideways tile to tell: a 吃 or a 碰
        return _meld_ok("chi", codes, mixed) or _meld_ok("peng", codes, mixed)
    if kind == "gang":
        return len(codes) == 4 and len(set(codes)) == 1
    if kind == "gang3":  # a kong with its fourth tile stacked out of sight
        return len(codes) == 3 and len(set(codes)) == 1
    return len(set(codes)) <= 1


def is_legal(h: Hypothesis, codes: Sequence[str], options: Any = None) -> bool:
    """Is the round these codes give the hypothesis's slots a legal win (counts, melds, ≤ 4, shape)?"""
    from scoring.chongguan.presets import XINGGUO

    opts = _options_key(options if options is not None else XINGGUO)
    winner = [c for s, c in zip(h.slots, codes) if s.role in ("hand", "win")]
    if len(winner) != 14 - 3 * len(h.melds) or any(c not in CODES for c in winner):
        return False
    by_meld: dict[int, list[str]] = {}
    for s, c in zip(h.slots, codes):
        if s.role == "meld" and s.meld is not None:
            by_meld.setdefault(s.meld, []).append(c)
    count: Counter[str] = Counter(winner)
    for i, kind in enumerate(h.melds):
        faces = by_meld.get(i, [])
        if not faces:
            if kind == "angang":  # four backs: its kind is asked about
                continue
            return False
        if not _meld_ok(kind, faces, opts[0]):
            return False
        if kind in ("gang", "gang3", "angang") or len(set(faces)) == 1:
            count[faces[0]] += 4 if kind in ("gang", "gang3", "angang") else 3
        else:
            count.update(faces)
    indicators = [h.indicator] if h.indicator else [c for s, c in zip(h.slots, codes) if s.role == "indicator"]
    if len(indicators) > 1 or any(c not in CODES for c in indicators):
        return False
    count.update(indicators)
    if max(count.values(), default=0) > 4:
        return False
    face = [0] * NUM_KINDS
    for c in winner:
        face[tile(c).index] += 1
    win = next((tile(c).index for s, c in zip(h.slots, codes) if s.role == "win"), None)
    all_pungs = all(k != "chi" for k in h.melds)
    kinds = [tile(indicators[0])] if indicators else [tile(k) for k in CODES]
    return any(_wins(tuple(face), frozenset(j.index for j in jing_of(k)), win, len(h.melds), all_pungs, opts)
               for k in kinds)


# ----------------------------------------------------------------------------- decoding


def _steps(h: Hypothesis) -> list[tuple[float, int, str]]:
    """Every allowed change of one slot: (cost, slot, code), cheapest first."""
    out = []
    indicator = h.indicator or next((s.first for s in h.slots if s.role == "indicator"), None)
    wild = {j.code for j in jing_of(tile(indicator))} if indicator in CODES else set()
    for i, s in enumerate(h.slots):
        if s.role == "indicator" and h.indicator:
            continue
        p0 = max(s.choices[0][1], 1e-9)
        choices = list(s.choices)
        if p0 < ANY_BELOW and s.role != "indicator":  # barely named (not the 精's indicator): the rest of its belief
            # spread over every other tile but the 精, which would make nearly any hand a win
            named = {code for code, _ in s.choices}
            rest = [c for c in CODES if c not in named and c not in wild]
            left = max(1.0 - sum(p for _, p in s.choices), 0.0) / max(len(rest), 1)
            choices += [(c, left) for c in rest]
        for code, p in choices[1:]:
            step = math.log(p0 / max(p, 1e-9))
            if p >= MIN_ALTERNATIVE and step <= MAX_STEP and code in CODES:
                out.append((step, i, code))
    return sorted(out)


def _change_sets(steps: list[tuple[float, int, str]], most: int) -> list[tuple[float, tuple[tuple[int, str], ...]]]:
    """Sets of up to `most` changes on distinct slots, cheapest first (the empty set first)."""
    sets: list[tuple[float, tuple[tuple[int, str], ...]]] = [(0.0, ())]
    for k in range(1, most + 1):
        for combo in itertools.combinations(steps, k):
            if len({i for _, i, _ in combo}) == k:
                sets.append((sum(c for c, _, _ in combo), tuple((i, code) for _, i, code in combo)))
    return sorted(sets, key=lambda s: s[0])


def decode(hypotheses: Sequence[Hypothesis], options: Any = None, max_changes: int = MAX_CHANGES) -> Decoded:
    """The hypothesis and codes of least cost that make a legal round (see the module docstring);
    the first hypothesis at its first choices, `legal=False`, when none does within the limits."""
    if not hypotheses:
        return Decoded(-1, (), (), 0.0, False)
    best: Decoded | None = None
    checks = 0
    for n, h in sorted(enumerate(hypotheses), key=lambda x: x[1].cost):
        if best is not None and h.cost >= best.cost:
            break
        first = [s.first for s in h.slots]
        if not _count_ok(h):
            continue
        for extra, changes in _change_sets(_steps(h), max_changes):
            total = h.cost + extra
            if (best is not None and total >= best.cost) or checks >= MAX_CHECKS or extra > MAX_STEP:
                break
            codes = list(first)
            for i, code in changes:
                codes[i] = code
            checks += 1
            if is_legal(h, codes, options):
                best = Decoded(n, tuple(codes), tuple(sorted(i for i, _ in changes)), total, True)
                break
    if best is None:
        h0 = hypotheses[0]
        return Decoded(0, tuple(s.first for s in h0.slots), (), h0.cost, False)
    return best


def _count_ok(h: Hypothesis) -> bool:
    """The hypothesis has the right number of winner's tiles (no code can change that)."""
    return sum(s.role in ("hand", "win") for s in h.slots) == 14 - 3 * len(h.melds)
