"""Differential test: our 国标 calculator against the C++ one in PyPI ``pymahjonggb``.

10,000 random winning hands (exposed chows/pungs/kongs, concealed kongs, flowers, every seat and
prevalent wind, 和绝张/杠/海底 flags, the special shapes) must give the same fan list — same
fans, same order, same 番 — with the reference's names mapped to ours (独听・边张 → 边张 ...).
2,000 near misses (the winning tile swapped for a random kind) must agree on win / not a win.
The unit-test hands of every fan are compared as well.  Both run in a few seconds.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scoring.gb.calculator import NotWinning, calculate, fan_list
from scoring.gb.fans import FANS
from scoring.gb.random_hands import random_hand, random_near_hand, reference_fans
from scoring.gb.round_input import gb_hand
from scoring.round import parse_simple_round
from tests.scoring.gb_helpers import gb_doc
from tests.scoring.test_gb_fans import CASES

try:
    import MahjongGB  # noqa: F401
except ImportError:  # pragma: no cover - the test extra installs it
    pytest.fail("pymahjonggb is a test dependency: pip install pymahjonggb (see pyproject [test])", pytrace=False)

N_HANDS = 10_000
N_NEAR = 2_000


def ours(hand) -> list[tuple[str, int]] | None:
    try:
        return fan_list(calculate(hand))
    except NotWinning:
        return None


def test_random_winning_hands_agree() -> None:
    rng = random.Random(20261202)
    disagreements = []
    seen: Counter[str] = Counter()
    kinds = Counter()
    for _ in range(N_HANDS):
        hand = random_hand(rng)
        ref = reference_fans(hand)
        got = ours(hand)
        kinds["melds"] += bool(hand.packs)
        kinds["flowers"] += bool(hand.flowers)
        for name, _ in ref or []:
            seen[name] += 1
        if got != ref:
            disagreements.append((hand, ref, got))
    assert not disagreements, f"{len(disagreements)} of {N_HANDS} disagree, first: {disagreements[:3]}"
    # the sample really exercises melds, kongs, flowers and (nearly) the whole fan table
    assert kinds["melds"] > N_HANDS // 2 and kinds["flowers"] > N_HANDS // 3
    assert seen["明杠"] and seen["暗杠"] and seen["明暗杠"] and seen["圈风刻"] and seen["门风刻"]
    assert len(seen) >= 75, sorted(set(f.zh for f in FANS) - set(seen))


def test_near_misses_agree_on_win_or_not() -> None:
    rng = random.Random(7)
    wins = 0
    for _ in range(N_NEAR):
        hand = random_near_hand(rng)
        ref = reference_fans(hand)
        assert ours(hand) == ref, hand
        wins += ref is not None
    assert 0 < wins < N_NEAR  # both outcomes occur


@pytest.mark.parametrize("fan", list(CASES))
def test_unit_hands_agree(fan: str) -> None:
    for spec in CASES[fan]:
        if spec is None:
            continue
        rnd = parse_simple_round(gb_doc(**spec))
        hand = gb_hand(rnd)
        assert ours(hand) == reference_fans(hand)
