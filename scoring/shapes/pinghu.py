"""平胡: 4 melds (pungs, kongs, suited chows, honor sequences) + 1 pair (chongguan.md §4.1)."""

from __future__ import annotations

from scoring.shapes.decompose import can_form


def is_pinghu(counts: list[int], wild: int, declared: int, mixed: bool = False, strict: bool = False) -> bool:
    """「4 melds + 1 pair」: the concealed tiles make 4 − declared melds and the pair."""
    return can_form(counts, wild, 4 - declared, 1, chows=True, mixed=mixed, strict=strict)


def pinghu_waits_on_anything(counts: list[int], wild: int, declared: int, mixed: bool = False, strict: bool = False) -> bool:
    """精吊: the 13 tiles are complete melds + one single 精 (the single 精 pairs with any tile)."""
    return wild >= 1 and can_form(counts, wild - 1, 4 - declared, 0, chows=True, mixed=mixed, strict=strict)
