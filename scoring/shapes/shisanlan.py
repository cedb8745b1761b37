"""十三烂: 14 concealed tiles, no two identical, suited tiles ≥ 3 apart, honors all different (§4.4)."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from scoring.shapes.decompose import HONORS


@cache
def _spread_sets() -> tuple[frozenset[int], ...]:
    """Every set of ranks 0..8 whose members differ pairwise by ≥ 3 (1-4-7, 2-6-9, 3-7, …)."""
    out = [frozenset()]
    for n in (1, 2, 3):
        out += [frozenset(s) for s in combinations(range(9), n) if all(b - a >= 3 for a, b in zip(s, s[1:]))]
    return tuple(out)


def suit_room(ranks: frozenset[int]) -> int:
    """How many more ranks a suit can take (−1 if the natural ranks already break the ≥3 rule)."""
    fits = [len(s) for s in _spread_sets() if ranks <= s]
    return max(fits) - len(ranks) if fits else -1


def shisanlan_room(counts: list[int]) -> tuple[int, int] | None:
    """(room in the suits, missing honors) for the natural tiles, or None if they break 十三烂."""
    if any(n > 1 for n in counts):
        return None
    room = 0
    for suit in range(3):
        r = suit_room(frozenset(k for k in range(9) if counts[suit * 9 + k]))
        if r < 0:
            return None
        room += r
    missing_honors = sum(1 for h in HONORS if not counts[h])
    return room, missing_honors


def is_shisanlan(counts: list[int], wild: int, declared: int) -> bool:
    """「No two identical, within a suit any two differ by ≥ 3, honors all different」; 精 fill any legal slot."""
    if declared or sum(counts) + wild != 14:
        return False
    fit = shisanlan_room(counts)
    return fit is not None and wild <= fit[0] + fit[1]
