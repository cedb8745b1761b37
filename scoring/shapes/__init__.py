"""Winning shapes of 冲关 (chongguan.md §4): one module per shape, a shared wildcard decomposition."""

from __future__ import annotations

from scoring.shapes.daqi import daqi_waits_on_anything, is_daqi
from scoring.shapes.decompose import can_form, is_sequence, pairs_fit
from scoring.shapes.pinghu import is_pinghu, pinghu_waits_on_anything
from scoring.shapes.qixing import is_qixing
from scoring.shapes.shisanlan import is_shisanlan
from scoring.shapes.xiaoqi import is_xiaoqi, xiaoqi_waits_on_anything

SHAPES: tuple[str, ...] = ("pinghu", "xiaoqi", "daqi", "shisanlan", "qixing")
SHAPE_ZH = {"pinghu": "平胡", "xiaoqi": "小七对", "daqi": "大七对", "shisanlan": "十三烂", "qixing": "七星十三烂"}

__all__ = [
    "SHAPES", "SHAPE_ZH", "can_form", "daqi_waits_on_anything", "is_daqi", "is_pinghu", "is_qixing",
    "is_sequence", "is_shisanlan", "is_xiaoqi", "pairs_fit", "pinghu_waits_on_anything",
    "xiaoqi_waits_on_anything",
]
