"""小七对: seven pairs, fully concealed; four identical tiles count as two pairs (chongguan.md §4.2)."""

from __future__ import annotations

from scoring.shapes.decompose import pairs_fit


def is_xiaoqi(counts: list[int], wild: int, declared: int, strict: bool = False) -> bool:
    """「Seven pairs, fully concealed」; 精 fill singles, two 精 may pair."""
    return declared == 0 and pairs_fit(counts, wild, 7, strict)


def xiaoqi_waits_on_anything(counts: list[int], wild: int, declared: int, strict: bool = False) -> bool:
    """小七 精吊: the 13 tiles are 6 pairs (wild 精 allowed) + one single 精."""
    return declared == 0 and wild >= 1 and pairs_fit(counts, wild - 1, 6, strict)
