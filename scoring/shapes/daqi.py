"""大七对 (大三对 / 碰碰胡): 4 pungs/kongs + pair, no chows of any kind (chongguan.md §4.3)."""

from __future__ import annotations

from scoring.shapes.decompose import can_form


def is_daqi(counts: list[int], wild: int, declared: int, declared_all_pungs: bool, strict: bool = False) -> bool:
    """「4 pungs/kongs + pair; no chows of any kind」 (declared pungs/kongs allowed)."""
    return declared_all_pungs and can_form(counts, wild, 4 - declared, 1, chows=False, strict=strict)


def daqi_waits_on_anything(counts: list[int], wild: int, declared: int, declared_all_pungs: bool, strict: bool = False) -> bool:
    """大七 精吊: the 13 tiles are pungs + one single 精."""
    return declared_all_pungs and wild >= 1 and can_form(counts, wild - 1, 4 - declared, 0, chows=False, strict=strict)
