"""Brute-force oracles for the shapes, written independently of scoring.shapes.

Face-value checks recurse on the sorted tile list (the lowest tile is the smallest member of
whatever contains it); a wild 精 is handled by substituting every one of the 34 kinds.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

WIND_SEQS = [s for s in combinations(range(27, 31), 3)]
DRAGON_SEQ = (31, 32, 33)


def _sequences_from(t: int) -> list[tuple[int, ...]]:
    """Chows whose smallest member is t."""
    if t < 27:
        return [(t, t + 1, t + 2)] if t % 9 <= 6 else []
    return [s for s in [*WIND_SEQS, DRAGON_SEQ] if s[0] == t]


def standard(tiles: list[int], melds: int, pair: bool, chows: bool = True) -> bool:
    """tiles (sorted) = `melds` melds + (a pair if `pair`), at face value."""
    if not tiles:
        return melds == 0 and not pair
    t, rest = tiles[0], tiles[1:]
    if pair and rest and rest[0] == t and standard(rest[1:], melds, False, chows):
        return True
    if melds and rest[:2] == [t, t] and standard(rest[2:], melds - 1, pair, chows):
        return True
    if melds and chows:
        for seq in _sequences_from(t):
            left = list(rest)
            try:
                for k in seq[1:]:
                    left.remove(k)
            except ValueError:
                continue
            if standard(left, melds - 1, pair, chows):
                return True
    return False


def seven_pairs(tiles: list[int]) -> bool:
    return len(tiles) == 14 and all(n % 2 == 0 for n in Counter(tiles).values())


def thirteen_lan(tiles: list[int]) -> bool:
    if len(tiles) != 14 or len(set(tiles)) != 14:
        return False
    for suit in range(3):
        ranks = sorted(t % 9 for t in tiles if t // 9 == suit and t < 27)
        if any(b - a < 3 for a, b in zip(ranks, ranks[1:])):
            return False
    return True


FACE = {
    "pinghu": lambda ts: standard(ts, 4, True),
    "daqi": lambda ts: standard(ts, 4, True, chows=False),
    "xiaoqi": seven_pairs,
    "shisanlan": thirteen_lan,
}


def with_wilds(shape: str, naturals: list[int], wild: int) -> bool:
    """Some substitution of the wild tiles by any of the 34 kinds makes the shape."""
    check = FACE[shape]
    return any(check(sorted(naturals + list(sub))) for sub in combinations_with_replacement(range(34), wild))
