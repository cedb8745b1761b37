"""七星十三烂: a 十三烂 holding all 7 honors (东南西北中发白) + 7 suited tiles (chongguan.md §4.5)."""

from __future__ import annotations

from scoring.shapes.shisanlan import shisanlan_room


def is_qixing(counts: list[int], wild: int, declared: int, jing_may_fill_honor: bool = False) -> bool:
    """「十三烂 containing all 7 honors」; a wild 精 counts as an honor only with qixing_jing_may_fill_honor."""
    if declared or sum(counts) + wild != 14:
        return False
    fit = shisanlan_room(counts)
    if fit is None:
        return False
    room, missing = fit
    if missing and not jing_may_fill_honor:
        return False
    # wilds first fill the missing honors, the rest must fit in the suits (7 suited tiles in all)
    return wild >= missing and wild - missing <= room
