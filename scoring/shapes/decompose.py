"""Wildcard-aware decomposition shared by the shapes (chongguan.md §4.6).

A hand is a count vector ``c[34]`` of natural concealed tiles plus ``wild`` 精 that may stand for
any tile.  `can_form` answers whether the naturals and wilds split exactly into ``melds`` melds
(pungs, suited chows, honor sequences) and ``pairs`` (0 or 1) pair.  The DFS always consumes the
lowest natural tile first and fills a missing member with a wild only when no natural is left
(a wild can stand for any natural, so natural-first loses no solution); results are memoised.
"""

from __future__ import annotations

from functools import cache, lru_cache

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
HONORS = WINDS + DRAGONS


def _combos(pool: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    return tuple((a, b, c) for i, a in enumerate(pool) for j, b in enumerate(pool[i + 1 :], i + 1) for c in pool[j + 1 :])


HONOR_SEQUENCES: tuple[tuple[int, int, int], ...] = _combos(WINDS) + (DRAGONS,)
"""三张不重复的同类字牌: any 3 different winds (东南西, 东南北, 东西北, 南西北) or 中发白."""

MIXED_HONOR_SEQUENCES: tuple[tuple[int, int, int], ...] = _combos(HONORS)
"""Option honor_seq_mixed: any 3 different honors."""


def honor_sequences(mixed: bool) -> tuple[tuple[int, int, int], ...]:
    """The honor sequences allowed under option ``honor_seq_mixed``."""
    return MIXED_HONOR_SEQUENCES if mixed else HONOR_SEQUENCES


def is_sequence(kinds: list[int], mixed: bool = False) -> bool:
    """Three tile kinds form a chow: n,n+1,n+2 of one suit, or an honor sequence."""
    k = sorted(kinds)
    if len(k) != 3:
        return False
    if k[2] < 27:
        return k[0] // 9 == k[2] // 9 and k[1] == k[0] + 1 and k[2] == k[0] + 2
    return tuple(k) in honor_sequences(mixed)


def can_form(counts: list[int] | tuple[int, ...], wild: int, melds: int, pairs: int = 1,
             chows: bool = True, mixed: bool = False, strict: bool = False) -> bool:
    """Do the naturals + ``wild`` wildcards make exactly ``melds`` melds and ``pairs`` pair(s)?

    ``strict`` (option meld_needs_natural): every meld and pair holds at least one natural tile.
    """
    if wild < 0 or melds < 0:
        return False
    if sum(counts) + wild != 3 * melds + 2 * pairs:
        return False
    if strict:
        return _dfs_strict(tuple(counts), wild, melds, pairs, chows, mixed)
    return _dfs(tuple(counts), wild, melds, pairs, chows, mixed)


@lru_cache(maxsize=200_000)
def _dfs_strict(c: tuple[int, ...], wild: int, melds: int, pairs: int, chows: bool, mixed: bool) -> bool:
    """Like `_dfs`, but no group is made of wilds alone, so every natural/wild split is tried."""
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return wild == 0 and melds == 0 and pairs == 0
    cl = list(c)
    groups: list[tuple[int, int, int]] = []  # (naturals of i used, wilds used, kind: 0 pair / 1 meld)
    if pairs:
        groups += [(n, 2 - n, 0) for n in (1, 2) if n <= cl[i] and 2 - n <= wild]
    if melds:
        groups += [(n, 3 - n, 1) for n in (1, 2, 3) if n <= cl[i] and 3 - n <= wild]
    for n, w, kind in groups:
        cl[i] -= n
        if _dfs_strict(tuple(cl), wild - w, melds - kind, pairs - (1 - kind), chows, mixed):
            return True
        cl[i] += n
    if not (melds and chows):
        return False
    cl[i] -= 1
    for seq in _sequences_with(i, mixed):
        others = [k for k in seq if k != i]
        for use in ((True, True), (True, False), (False, True), (False, False)):
            need = sum(1 for u in use if not u)
            if need > wild or any(u and cl[k] == 0 for u, k in zip(use, others)):
                continue
            for u, k in zip(use, others):
                cl[k] -= u
            ok = _dfs_strict(tuple(cl), wild - need, melds - 1, pairs, chows, mixed)
            for u, k in zip(use, others):
                cl[k] += u
            if ok:
                return True
    cl[i] += 1
    return False


@lru_cache(maxsize=200_000)
def _dfs(c: tuple[int, ...], wild: int, melds: int, pairs: int, chows: bool, mixed: bool) -> bool:
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:  # only wilds left: they fill the remaining melds and pair by themselves
        return wild == 3 * melds + 2 * pairs
    cl = list(c)
    # the lowest natural in the pair
    if pairs:
        take = min(2, cl[i])
        need = 2 - take
        if need <= wild:
            cl[i] -= take
            if _dfs(tuple(cl), wild - need, melds, pairs - 1, chows, mixed):
                return True
            cl[i] += take
    if not melds:
        return False
    # the lowest natural in a pung
    take = min(3, cl[i])
    need = 3 - take
    if need <= wild:
        cl[i] -= take
        if _dfs(tuple(cl), wild - need, melds - 1, pairs, chows, mixed):
            return True
        cl[i] += take
    if not chows:
        return False
    # the lowest natural in a chow (lower members, if any, are wilds)
    for seq in _sequences_with(i, mixed):
        need = 0
        used = []
        for k in seq:
            if cl[k] > 0:
                cl[k] -= 1
                used.append(k)
            else:
                need += 1
        if need <= wild and need < 3 and _dfs(tuple(cl), wild - need, melds - 1, pairs, chows, mixed):
            return True
        for k in used:
            cl[k] += 1
    return False


@cache
def _sequences_with(i: int, mixed: bool) -> tuple[tuple[int, ...], ...]:
    """Every chow that contains kind ``i``."""
    if i >= 27:
        return tuple(s for s in honor_sequences(mixed) if i in s)
    base, r = (i // 9) * 9, i % 9
    return tuple(tuple(base + a + d for d in range(3)) for a in range(max(0, r - 2), min(r, 6) + 1))


def pairs_fit(counts: list[int] | tuple[int, ...], wild: int, pairs: int = 7, strict: bool = False) -> bool:
    """Do the naturals + wilds make exactly ``pairs`` pairs (four identical = two pairs)?

    ``strict``: no pair of two wilds — spare wilds must split natural pairs (XX ww → Xw Xw).
    """
    if sum(counts) + wild != 2 * pairs:
        return False
    singles = sum(n % 2 for n in counts)
    if singles > wild:
        return False
    return not strict or (wild - singles) // 2 <= sum(n // 2 for n in counts)
