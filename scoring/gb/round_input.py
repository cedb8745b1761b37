"""国标's own fields of a round document (flowers, winds, 绝张, 海底) and the calculator's hand.

The seats, melds and win are read into the one round model of every system
(`scoring.round.parse_simple_round`: `PlayerTiles`, `Meld`, `Win`); this module adds what only
国标 reads, refusing bad values with a :class:`~scoring.errors.RoundError` (Chinese and English).
"""

from __future__ import annotations

from typing import Any

from scoring.errors import RoundError
from scoring.round import SimpleRound, parse_simple_round
from scoring.settlement import SEATS
from scoring.tiles import Tile

# ----------------------------------------------------------------------------- 国标 fields

WIND_CODES = {"E": 0, "S": 1, "W": 2, "N": 3, "东": 0, "東": 0, "南": 1, "西": 2, "北": 3}


def gb_code(t: Tile) -> int:
    """A tile in the calculator's coding (万 0x1r, 条 0x2r, 饼 0x3r, 东南西北 0x41–44, 中 45 发 46 白 47)."""
    if t.suit == "m":
        return 0x10 + t.rank
    if t.suit == "s":
        return 0x20 + t.rank
    if t.suit == "p":
        return 0x30 + t.rank
    return {1: 0x41, 2: 0x42, 3: 0x43, 4: 0x44, 5: 0x47, 6: 0x46, 7: 0x45}[t.rank]


def _wind(value: Any, default: int, what_zh: str, what_en: str) -> int:
    if value is None:
        return default
    if value in WIND_CODES:
        return WIND_CODES[value]
    raise RoundError(f"{what_zh}必须是 E/S/W/N（东南西北）：{value!r}", f"{what_en} must be E/S/W/N: {value!r}")


def _flag(raw: dict[str, Any], key: str) -> bool:
    v = raw.get(key, False)
    if not isinstance(v, bool):
        raise RoundError(f"win.{key} 必须是 true 或 false：{v!r}", f"win.{key} must be a boolean: {v!r}")
    return v


def _flowers(value: Any) -> int:
    """``flowers``: a count 0–8, or a list / string of the flowers themselves."""
    if value is None:
        return 0
    if isinstance(value, bool):
        raise RoundError("flowers 必须是 0–8 的整数或花牌列表", "flowers must be 0-8 or a list")
    n = value if isinstance(value, int) else len(value) if isinstance(value, list | str) else -1
    if not 0 <= n <= 8:
        raise RoundError(f"花牌数必须是 0–8：{value!r}", f"flowers must be 0-8: {value!r}")
    return n


def gb_hand(rnd: SimpleRound) -> Any:
    """The calculator's :class:`~scoring.gb.calculator.Hand` for the winner of ``rnd``."""
    from scoring.gb.calculator import CHOW, KONG, PUNG, Hand, Pack

    assert rnd.win is not None
    win = rnd.win
    raw = win.raw
    packs = []
    for m in rnd.winner.melds:
        if m.type == "chi":
            packs.append(Pack(True, CHOW, gb_code(m.tiles[1])))
        elif m.type == "peng":
            packs.append(Pack(True, PUNG, gb_code(m.kind)))
        else:
            packs.append(Pack(m.type != "angang", KONG, gb_code(m.kind)))
    if win.after_kong and not win.self_drawn:
        raise RoundError("杠上开花只能是自摸（from: self）", "after_kong needs from: self")
    if win.robbed_kong and win.self_drawn:
        raise RoundError("抢杠和必须和别人补杠的牌（from 写补杠者）", "robbed_kong needs from = the konger")
    if win.after_kong and not any(m.is_kong for m in rnd.winner.melds):
        raise RoundError("杠上开花需要和牌者有杠", "after_kong needs a kong of the winner")
    seat_default = (SEATS.index(win.seat) - SEATS.index(rnd.dealer)) % 4
    return Hand(
        packs=tuple(packs),
        standing=tuple(gb_code(t) for t in rnd.winner.hand),
        win_tile=gb_code(win.tile),
        flowers=_flowers(raw.get("flowers")),
        self_drawn=win.self_drawn,
        fourth_tile=_flag(raw, "fourth_tile"),
        kong_involved=win.after_kong or win.robbed_kong,
        wall_last=_flag(raw, "last_tile"),
        seat_wind=_wind(raw.get("seat_wind"), seat_default, "门风（seat_wind）", "win.seat_wind"),
        prevalent_wind=_wind(raw.get("prevalent_wind", doc_prevalent(rnd)), 0, "圈风（prevalent_wind）", "win.prevalent_wind"),
    )


def doc_prevalent(rnd: SimpleRound) -> Any:
    """``prevalent_wind`` may also sit at the top level of the round."""
    return rnd.raw.get("prevalent_wind")


def parse_gb_round(doc: dict[str, Any]) -> tuple[SimpleRound, Any]:
    """The round and, when someone won, the winner's calculator input (None for 荒庄)."""
    rnd = parse_simple_round(doc)
    if rnd.win is None:
        return rnd, None
    return rnd, gb_hand(rnd)

