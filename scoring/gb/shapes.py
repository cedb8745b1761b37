"""Hand shapes without wildcards: decompositions into sets and a pair, and waits.

Counts are length-34 vectors indexed like :mod:`scoring.tiles` (0..26 suits, 27..33 honors).
A set is ``("chow", i)`` (tiles i, i+1, i+2), ``("pung", i)``; the pair is ``("pair", i)``.
"""

from __future__ import annotations

from collections.abc import Iterator

Unit = tuple[str, int]


def _can_start_chow(i: int) -> bool:
    return i < 27 and i % 9 <= 6


def set_decompositions(counts: list[int], n_sets: int) -> Iterator[list[Unit]]:
    """Every way (as sorted lists, each once) to split ``counts`` into exactly ``n_sets`` sets."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        if n_sets == 0:
            yield []
        return
    if n_sets == 0:
        return
    if counts[i] >= 3:
        counts[i] -= 3
        for rest in set_decompositions(counts, n_sets - 1):
            yield [("pung", i), *rest]
        counts[i] += 3
    if _can_start_chow(i) and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        for rest in set_decompositions(counts, n_sets - 1):
            yield [("chow", i), *rest]
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1


def standard_decompositions(counts: list[int]) -> Iterator[list[Unit]]:
    """Every split of ``counts`` (3n+2 tiles) into n sets and one pair (pair listed last)."""
    total = sum(counts)
    if total % 3 != 2:
        return
    n = (total - 2) // 3
    seen: set[tuple[Unit, ...]] = set()
    for p in range(34):
        if counts[p] >= 2:
            counts[p] -= 2
            for sets in set_decompositions(counts, n):
                key = (*sets, ("pair", p))
                if key not in seen:
                    seen.add(key)
                    yield [*sets, ("pair", p)]
            counts[p] += 2


def is_standard_win(counts: list[int]) -> bool:
    """Whether ``counts`` (3n+2 tiles) splits into n sets and a pair."""
    return next(standard_decompositions(list(counts)), None) is not None


def standard_waits(counts: list[int], kinds: range | list[int] = range(34)) -> list[int]:
    """Tile kinds that complete ``counts`` (3n+1 tiles) into a standard win (sets + pair)."""
    out = []
    for k in kinds:
        if counts[k] >= 4:
            continue
        counts[k] += 1
        if is_standard_win(counts):
            out.append(k)
        counts[k] -= 1
    return out
