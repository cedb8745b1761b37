"""What the photo cannot decide, asked in Chinese and English: each question is `{code, zh, en}`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.tiles import CODES, tile
from vision.reader.detection import Detection

LOW_CONFIDENCE = 0.5


#: Questions that mean the layout does not add up (a box too many or a stray box).
TROUBLE = frozenset({"tile_count", "unexplained_tiles", "indicator", "not_a_meld", "not_a_win"})


def question(code: str, zh: str, en: str) -> dict[str, str]:
    """One thing the photo cannot decide, in Chinese and English."""
    return {"code": code, "zh": zh, "en": en}


def tile_zh(code: str) -> str:
    return tile(code).zh if code in CODES else "背面"


def run_zh(codes: Sequence[str]) -> str:
    return "".join(tile_zh(c) for c in codes)


def count_check(hand: list[str], win: str | None, melds: list[dict[str, Any]]) -> dict[str, str] | None:
    """Hand + winning tile + 3 per meld must be 14 (13 or 14 when the winning tile is not set apart)."""
    n = len(hand) + (1 if win else 0) + 3 * len(melds)
    if n == 14 or (win is None and n == 13):
        return None
    miss = "可能漏拍或漏认了牌" if n < 14 else "可能多认了一张牌"
    miss_en = "a tile may be missed" if n < 14 else "a tile may be extra"
    return question(
        "tile_count",
        f"看到 {n} 张（手牌 {len(hand)} 张 + 胡的牌 {1 if win else 0} 张 + 副露 {len(melds)} 副×3），应为 14 张：{miss}",
        f"{n} tiles seen (hand {len(hand)} + win {1 if win else 0} + {len(melds)} melds × 3), 14 expected: {miss_en}",
    )


def win_question(hand: list[str]) -> dict[str, str]:
    """Ask for the winning tile (it was not set apart at the right end of the hand)."""
    if len(hand) % 3 == 2:
        return question("win_tile", "胡的是哪一张？请点选（或把胡的牌放在手牌最右边，隔开半张牌）",
                        "pick the winning tile (or set it apart at the right end of the hand, half a tile away)")
    return question("win_tile", "照片里没有单独放的胡牌：胡的是哪一张？", "no winning tile set apart: which tile won?")


def _tile_list(dets: Sequence[Detection]) -> tuple[str, str]:
    """The detections left to right as 'tile(conf)', in Chinese and English."""
    ordered = sorted(dets, key=lambda d: d.cx)
    return ("、".join(f"{tile_zh(d.tile)}({d.conf:.2f})" for d in ordered),
            ", ".join(f"{d.tile} ({d.conf:.2f})" for d in ordered))


def low_confidence_question(dets: Sequence[Detection]) -> dict[str, str] | None:
    """One question naming the tiles the detector is unsure of."""
    low = [d for d in dets if d.conf < LOW_CONFIDENCE]
    if not low:
        return None
    zh, en = _tile_list(low)
    return question("low_confidence", f"这几张牌认得不确定，请核对：{zh}", f"unsure tiles, please check: {en}")


def set_aside_question(aside: Sequence[Detection]) -> dict[str, str]:
    """Name the doubtful boxes left out so that the tile count adds up."""
    zh, en = _tile_list(aside)
    return question("set_aside", f"这几个框不太像牌，已略去（张数才对得上）；若是牌请补上：{zh}",
                    f"doubtful boxes left out so the tile count adds up; add back any that is a tile: {en}")


def weak_question(added: Sequence[Detection]) -> dict[str, str]:
    """Name the barely-seen boxes taken in because the round adds up only with them."""
    zh, en = _tile_list(added)
    return question("weak_added", f"这几张牌看得不清楚，按张数和胡牌算了进去，请核对：{zh}",
                    f"barely seen tiles counted in, since the round adds up only with them; please check: {en}")
