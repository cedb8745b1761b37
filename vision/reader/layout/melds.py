"""Which groups are melds: 碰/吃/明杠/暗杠 from the codes and the sideways (claimed) tile, a misread tile
read again, and a long group cut into melds.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from scoring.shapes.decompose import is_sequence
from scoring.tiles import CODES, format_tiles, parse_tiles, tile
from vision.reader.layout.geometry import BACK, Placed
from vision.reader.layout.questions import question, run_zh, tile_zh

#: A group that is no meld as read has its least sure tile read again when that tile is below this.
REREAD_BELOW = 0.8  # the two-stage conf mixes box and class belief: a misread tile often scores 0.5-0.8


def claimed_tile(g: Sequence[Placed]) -> str | None:
    """The sideways tile of a meld: the most sideways-looking face when at least one looks sideways."""
    faces = [p for p in g if p.face_up]
    best = max(faces, key=lambda p: p.along / p.across, default=None)
    return best.tile if best is not None and best.sideways else None


def classify_meld(g: Sequence[Placed]) -> tuple[dict[str, Any] | None, list[dict[str, str]], float]:
    """A group as a declared meld {type, tiles, claimed}; (None, questions, 0) when it is none."""
    codes = [p.tile for p in g]
    faces = [c for c in codes if c != BACK]
    conf = min(p.det.conf for p in g)
    if BACK in codes:
        return _classify_concealed_kong(codes, faces, conf)
    kinds = set(faces)
    claimed = claimed_tile(g)
    if len(codes) == 4 and len(kinds) == 1:
        return {"type": "gang", "tiles": format_tiles(parse_tiles(faces)), "claimed": faces[0]}, [], conf
    if len(codes) == 3 and len(kinds) == 1:
        return {"type": "peng", "tiles": format_tiles(parse_tiles(faces)), "claimed": faces[0]}, [], conf
    if len(codes) == 3 and is_sequence([tile(c).index for c in codes]):
        meld = {"type": "chi", "tiles": format_tiles(parse_tiles(faces)), "claimed": claimed}
        if claimed is None:
            q = question("chi_claimed", f"吃 {run_zh(codes)}：哪一张是吃来的牌？（请把吃来的牌横放）",
                         f"chi {''.join(codes)}: which tile was claimed? (turn the claimed tile sideways)")
            return meld, [q], conf * 0.8
        return meld, [], conf
    return None, [question("not_a_meld", f"这一组牌 {run_zh(codes)} 不是吃、碰或杠，请检查",
                           f"the group {' '.join(codes)} is not a chi, peng or kong; please check")], 0.0


def guess_meld(
    g: Sequence[Placed],
) -> tuple[list[Placed], dict[str, Any], list[dict[str, str]], float] | None:
    """A group that is one misread tile away from a meld: the least sure tile (conf < REREAD_BELOW) re-read.

    Only when exactly one tile code makes the group a 碰, 杠 or 吃; the guess is asked about, never silent.
    """
    if len(g) not in (3, 4) or any(not p.face_up for p in g):
        return None
    order = sorted(range(len(g)), key=lambda i: g[i].det.conf)
    weakest = order[0]
    if g[weakest].det.conf >= REREAD_BELOW or g[weakest].det.conf == g[order[1]].det.conf:
        return None
    others = [p.tile for i, p in enumerate(g) if i != weakest]
    fits = [c for c in CODES if _is_meld_of([*others, c])]
    if len(fits) > 1:  # a chow is laid in order: keep the re-readings that keep the row in order
        fits = [c for c in fits if _in_order([c if i == weakest else p.tile for i, p in enumerate(g)])]
    if len(fits) != 1:
        return None
    old = g[weakest]
    fixed = replace(old, det=replace(old.det, tile=fits[0]))
    tiles = [fixed if i == weakest else p for i, p in enumerate(g)]
    meld, qs, conf = classify_meld(tiles)
    if meld is None:
        return None
    codes = [p.tile for p in tiles]
    q = question("meld_guess",
                 f"这一组里有一张认成了 {tile_zh(old.tile)}（不确定 {old.det.conf:.2f}），按 {run_zh(codes)} 计，请核对",
                 f"one tile of this group read as {old.tile} ({old.det.conf:.2f}) is taken as {fits[0]}: "
                 f"{' '.join(codes)}; please check")
    return tiles, meld, [*qs, q], conf * 0.5


def _in_order(codes: list[str]) -> bool:
    """The tiles, as laid in the row, run up or down (how players lay out a chow)."""
    idx = [tile(c).index for c in codes]
    steps = [b - a for a, b in zip(idx, idx[1:])]
    return all(d > 0 for d in steps) or all(d < 0 for d in steps)


def _is_meld_of(codes: list[str]) -> bool:
    """Three identical, four identical, or a chow (suited or honour)."""
    if len(set(codes)) == 1:
        return True
    return len(codes) == 3 and is_sequence([tile(c).index for c in codes])


def _classify_concealed_kong(
    codes: list[str], faces: list[str], conf: float
) -> tuple[dict[str, Any] | None, list[dict[str, str]], float]:
    """A group with face-down tiles: a 暗杠 of 4 tiles whose visible faces agree."""
    if len(codes) == 3 and len(faces) == 2 and len(set(faces)) == 1:  # one of the four not found
        kind = faces[0]
        return {"type": "angang", "tiles": format_tiles(parse_tiles([kind] * 4))}, [question(
            "angang_missing", f"暗杠只认出三张（{run_zh(codes)}），按 {tile_zh(kind)} 暗杠计，请核对",
            f"only three tiles of a concealed kong found ({' '.join(codes)}); taken as a concealed kong of {kind}")], conf * 0.6
    if len(codes) != 4 or len(set(faces)) > 1:
        return None, [question("not_a_meld", f"有背面朝上的一组牌 {run_zh(codes)} 不是暗杠（4 张，露出的牌相同）",
                               f"the group with face-down tiles {' '.join(codes)} is not a concealed kong")], 0.0
    if not faces:
        return {"type": "angang", "tiles": None}, [question(
            "angang_tile", "暗杠四张都是背面：这是什么牌？（请翻开中间两张）",
            "a concealed kong shows four backs: which tile is it? (turn the middle two face up)")], conf * 0.5
    kind = faces[0]
    return {"type": "angang", "tiles": format_tiles(parse_tiles([kind] * 4))}, [], conf * (1.0 if len(faces) == 2 else 0.8)


def kong_of_two_faces(g: Sequence[Placed]) -> tuple[dict[str, Any], list[dict[str, str]], float]:
    """Two alike faces a 暗杠's room apart read as that 暗杠, its two backs not found (`readings.backs_unseen_between`):
    always asked about."""
    kind = g[0].tile
    asked = question("angang_backs_unseen",
                     f"两张{tile_zh(kind)}中间空着两张牌的位置：按 {tile_zh(kind)} 暗杠计（背面没认出），请核对",
                     f"two {kind} two tiles apart: taken as a concealed kong whose backs were not found, please check")
    return {"type": "angang", "tiles": format_tiles(parse_tiles([kind] * 4))}, [asked], min(p.det.conf for p in g)


def partition_melds(g: Sequence[Placed], need_sideways: bool = True, by_choices: bool = False) -> list[list[int]]:
    """All ways to cut a long group into consecutive valid melds of 3 or 4 tiles (cut sizes); with
    `need_sideways` each claimed meld must show its sideways tile; with `by_choices` a part is a meld when the
    classifier's top choices can make it one (`meld_by_choices`), not only its first choices."""
    out: list[list[int]] = []
    is_meld = meld_by_choices if by_choices else (lambda part: classify_meld(part)[0] is not None)

    def walk(start: int, sizes: list[int]) -> None:
        if start == len(g):
            out.append(list(sizes))
            return
        for n in (3, 4):
            part = g[start : start + n]
            if len(part) == n and is_meld(part) and (not need_sideways or sideways_ok(part)):
                walk(start + n, [*sizes, n])

    walk(0, [])
    return out


def sideways_ok(part: Sequence[Placed]) -> bool:
    """A claimed meld shows a sideways tile (a concealed kong shows backs instead): used to cut touching melds."""
    return any(not p.face_up for p in part) or any(p.sideways for p in part)


#: A choice at least this likely may stand for a tile when a group is cut into melds (`meld_by_choices`).
CUT_CHOICE = 0.05


def meld_by_choices(part: Sequence[Placed]) -> bool:
    """The group is a meld with some of its faces read as another of the classifier's top choices (at least
    `CUT_CHOICE`): a sideways 4筒 read 4條 0.24 / 4筒 0.14 still cuts a 碰 of 4筒 from the tiles it touches. The
    legal decoding then weighs the change and asks about it."""
    options = [[p.tile] if not p.face_up or not p.det.alternatives
               else [c for c, q in p.det.alternatives if q >= CUT_CHOICE and c != BACK] or [p.tile] for p in part]
    for codes in itertools.product(*options):
        tiles = [replace(p, det=replace(p.det, tile=c)) for p, c in zip(part, codes)]
        if classify_meld(tiles)[0] is not None:
            return True
    return False
