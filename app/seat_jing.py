"""Each seat's 精 from a photo: count 正精 and 副精 among the tiles a seat laid out, for the player to confirm.

In 冲关 every player's 精 score (not only the winner's), so each seat may photograph its hand (or just
its 精 tiles); the detector reads the tiles and this module counts them against the indicator. The
cycle comes from `scoring.tiles.jing_of` (suits 1→9→1, winds 东→北→东, dragons 中→发→白→中).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.score_logic import LOW_CONFIDENCE
from scoring.errors import JingsuanError
from scoring.tiles import BACK_CODE, CODES, jing_of, tile

COPIES = 4


@dataclass
class SeatJing:
    """What a seat's photo says: its 正精 and 副精 counts, each tile's mark, and what to check."""

    zheng: int = 0
    fu: int = 0
    marks: list[str | None] = field(default_factory=list)
    questions: list[dict[str, str]] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """As the round format's `jing` field holds them."""
        return {"zheng": self.zheng, "fu": self.fu}


def jing_marks(codes: Iterable[str], indicator: str) -> list[str | None]:
    """'zheng', 'fu' or None for each tile code (a face-down tile or unknown code is None)."""
    zheng, fu = (t.code for t in jing_of(tile(indicator)))
    return ["zheng" if c == zheng else "fu" if c == fu else None for c in codes]


def count_jing(codes: Iterable[str], indicator: str) -> dict[str, int]:
    """正精 and 副精 among `codes` for the flipped `indicator`."""
    marks = Counter(jing_marks(codes, indicator))
    return {"zheng": marks["zheng"], "fu": marks["fu"]}


def _question(code: str, zh: str, en: str) -> dict[str, str]:
    return {"code": code, "zh": zh, "en": en}


def seat_jing(detections: Sequence[Any], indicator: str, low: float = LOW_CONFIDENCE) -> SeatJing:
    """Count a seat's 精 in the detections of its photo (objects with `.tile` and `.conf`), and ask
    about what could make the count wrong: no tiles, face-down tiles, unsure tiles, a fifth copy."""
    codes = [d.tile for d in detections]
    marks = jing_marks(codes, indicator)
    counted = Counter(marks)
    out = SeatJing(zheng=counted["zheng"], fu=counted["fu"], marks=marks)
    zheng, fu = (t.zh for t in jing_of(tile(indicator)))
    if not detections:
        out.questions.append(_question("no_tiles", "照片里没有认出牌，请重拍或直接填写精的张数",
                                       "no tiles found: take the photo again or type the counts"))
        return out
    backs = sum(c == BACK_CODE for c in codes)
    if backs:
        out.questions.append(_question("backs", f"有 {backs} 张牌面朝下（暗杠？），请翻开再拍，或把其中的精算进去",
                                       f"{backs} face-down tiles (a concealed kong?): turn them up, or add their 精 by hand"))
    unsure = [d for d in detections if d.conf < low]
    if unsure:
        names = "、".join(tile(d.tile).zh if d.tile in CODES else "牌背" for d in unsure)
        out.questions.append(_question("unsure", f"{len(unsure)} 张牌认得不确定（{names}），请核对正精 {zheng}、副精 {fu} 的张数",
                                       f"{len(unsure)} unsure tiles: check the counts of 正精 {zheng} and 副精 {fu}"))
    too_many = sorted(c for c, n in Counter(c for c in codes if c in CODES).items() if n > COPIES)
    if too_many:
        names = "、".join(tile(c).zh for c in too_many)
        out.questions.append(_question("fifth_copy", f"{names} 认出超过 4 张：是不是拍进了别人的牌？",
                                       f"more than 4 of {', '.join(too_many)}: are other players' tiles in the photo?"))
    return out


def detect_tiles(data: bytes) -> list[Any]:
    """The detector of `vision.models_dir()` (the shipped one, or the folder `jingsuan app --models DIR` names)
    on a photo's bytes."""
    import vision

    return list(vision.detect(data))


def read_seat_photo(
    data: bytes, indicator: str, detect: Callable[[bytes], Sequence[Any]] = detect_tiles
) -> tuple[SeatJing, list[Any]]:
    """A seat's photo → its 精 reading and the detections (boxes to show); a photo that cannot be
    read gives a reading with one question that says why, so the player types the counts instead."""
    try:
        detections = list(detect(data))
    except (ModuleNotFoundError, FileNotFoundError):
        return SeatJing(questions=[_question("no_model", "识别模型没有安装，请直接填写精的张数",
                                             "no detector model installed: type the counts")]), []
    except JingsuanError as exc:
        return SeatJing(questions=[_question("detect_failed", f"照片识别失败：{exc.zh}", f"could not read the photo: {exc.en}")]), []
    return seat_jing(detections, indicator), detections
