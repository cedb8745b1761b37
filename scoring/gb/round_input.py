"""A small reader of round documents (round-format.md) for the non-冲关 systems.

国标, 芜湖 and 冲击 need only part of the 冲关 round: the four seats' tiles and melds, the dealer
and the win block (plus a few system-specific win fields, read by each system).  This module
turns a ``dict`` into frozen dataclasses and refuses what cannot be a real round with a
:class:`~scoring.errors.RoundError` carrying a Chinese and an English message.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import JingsuanError, RoundError
from scoring.melds import KONG_TYPES as KONG_KINDS  # one list of meld types for every system
from scoring.melds import MELD_TYPES as MELD_KINDS
from scoring.melds import MELD_ZH as MELD_ZH
from scoring.settlement import SEAT_ZH, SEATS
from scoring.tiles import Tile, parse_tiles


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared meld: ``kind`` one of MELD_KINDS, ``source`` the seat it came from (None = own)."""

    kind: str
    tiles: tuple[Tile, ...]
    source: str | None = None
    claimed: Tile | None = None

    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS

    @property
    def is_concealed(self) -> bool:
        """Only a concealed kong (暗杠) is concealed; every other declared meld is exposed."""
        return self.kind == "angang"

    @property
    def first(self) -> Tile:
        return self.tiles[0]

    @property
    def shape_tiles(self) -> tuple[Tile, ...]:
        """The three tiles that count for the hand's shape (a kong counts as three)."""
        return self.tiles[:3]


@dataclass(frozen=True, slots=True)
class SeatTiles:
    """One seat's concealed hand, declared melds and own discards."""

    seat: str
    hand: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    discards: tuple[Tile, ...]
    given: bool  # whether the document gave this seat's tiles at all

    def all_tiles(self) -> list[Tile]:
        out = list(self.hand) + list(self.discards)
        for m in self.melds:
            out.extend(m.tiles)
        return out

    @property
    def shape_count(self) -> int:
        """Tiles counting toward 13/14 (a kong counts three)."""
        return len(self.hand) + 3 * len(self.melds)


@dataclass(frozen=True, slots=True)
class WinInfo:
    """The win block: winner, winning tile, discarder (None = self-draw) and the raw block."""

    seat: str
    tile: Tile
    source: str | None
    after_kong: bool = False
    robbed_kong: bool = False
    special: str = "none"
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def self_drawn(self) -> bool:
        return self.source is None


@dataclass(frozen=True, slots=True)
class SimpleRound:
    """What the non-冲关 systems read from a round document."""

    rules: str
    dealer: str
    players: dict[str, SeatTiles]
    win: WinInfo | None
    raw: dict[str, Any]

    @property
    def winner(self) -> SeatTiles:
        assert self.win is not None
        return self.players[self.win.seat]

    def winner_tiles(self) -> list[Tile]:
        """Concealed hand plus the winning tile (the concealed part of the 14)."""
        assert self.win is not None
        return list(self.winner.hand) + [self.win.tile]


def _seat(value: Any, what_zh: str, what_en: str, *, allow_self: bool = False) -> str | None:
    """A seat code E/S/W/N (or None for "self" where allowed)."""
    if allow_self and value in ("self", None, "", "zimo"):
        return None
    if value not in SEATS:
        raise RoundError(f"{what_zh}不是座位（E/S/W/N）：{value!r}", f"{what_en} is not a seat (E/S/W/N): {value!r}")
    return str(value)


def _tiles(value: Any, where_zh: str, where_en: str) -> tuple[Tile, ...]:
    if value is not None and not isinstance(value, str | list | tuple):
        raise RoundError(f"{where_zh}必须是牌串：{value!r}", f"{where_en} must be a tile string: {value!r}")
    try:
        return tuple(parse_tiles(value))
    except JingsuanError as exc:
        raise RoundError(f"{where_zh}：{exc.zh}", f"{where_en}: {exc.en}") from exc


def parse_meld(doc: Any, seat: str) -> Meld:
    """One meld mapping ``{type, tiles, from, claimed}``; checks its tiles fit its type."""
    if not isinstance(doc, dict):
        raise RoundError(f"{SEAT_ZH[seat]}家的副露必须是映射", f"meld of {seat} must be a mapping")
    kind = doc.get("type")
    if kind not in MELD_KINDS:
        raise RoundError(
            f"{SEAT_ZH[seat]}家副露类型未知：{kind!r}（可用：{'/'.join(MELD_KINDS)}）",
            f"unknown meld type {kind!r} for {seat}",
        )
    tiles = _tiles(doc.get("tiles"), f"{SEAT_ZH[seat]}家的{MELD_ZH[kind]}", f"{kind} of {seat}")
    ok = False
    if kind == "chi":
        ts = sorted(tiles)
        ok = (
            len(ts) == 3
            and not ts[0].is_honor
            and ts[0].suit == ts[2].suit
            and ts[1].index == ts[0].index + 1
            and ts[2].index == ts[0].index + 2
        )
        tiles = tuple(ts)
    elif kind == "peng":
        ok = len(tiles) == 3 and len(set(tiles)) == 1
    else:
        ok = len(tiles) == 4 and len(set(tiles)) == 1
    if not ok:
        raise RoundError(
            f"{SEAT_ZH[seat]}家的{MELD_ZH[kind]}牌不对：{doc.get('tiles')!r}",
            f"{kind} of {seat} has wrong tiles: {doc.get('tiles')!r}",
        )
    source = None
    if kind != "angang":
        source = _seat(doc.get("from", None), f"{SEAT_ZH[seat]}家{MELD_ZH[kind]}的来源", f"source of {kind} of {seat}", allow_self=True)
        if source == seat:
            raise RoundError(f"{SEAT_ZH[seat]}家不能{MELD_ZH[kind]}自己的牌", f"{seat} cannot claim from itself")
    claimed = None
    if doc.get("claimed") is not None:
        claimed = _tiles(doc.get("claimed"), f"{SEAT_ZH[seat]}家吃的牌", f"claimed tile of {seat}")[0]
    return Meld(kind, tiles, source, claimed)


def parse_seat(seat: str, doc: Any) -> SeatTiles:
    """One seat's ``{hand, melds, discards}``; an absent seat has no tiles (``given=False``)."""
    if doc is None:
        return SeatTiles(seat, (), (), (), False)
    if not isinstance(doc, dict):
        raise RoundError(f"{SEAT_ZH[seat]}家必须是映射", f"player {seat} must be a mapping")
    hand = _tiles(doc.get("hand"), f"{SEAT_ZH[seat]}家的手牌", f"hand of {seat}")
    melds_doc = doc.get("melds") or []
    if not isinstance(melds_doc, list):
        raise RoundError(f"{SEAT_ZH[seat]}家的副露必须是列表", f"melds of {seat} must be a list")
    melds = tuple(parse_meld(m, seat) for m in melds_doc)
    discards = _tiles(doc.get("discards"), f"{SEAT_ZH[seat]}家的弃牌", f"discards of {seat}")
    given = bool(hand or melds)
    return SeatTiles(seat, hand, melds, discards, given)


def parse_win(doc: Any, dealer: str) -> WinInfo | None:
    """The win block; None for a draw (流局)."""
    if doc is None:
        return None
    if not isinstance(doc, dict):
        raise RoundError("win 必须是映射或 null", "win must be a mapping or null")
    seat = _seat(doc.get("seat"), "和牌者", "win.seat")
    assert seat is not None
    if doc.get("tile") is None:
        raise RoundError("缺少和牌张（win.tile）", "win.tile is missing")
    tiles = _tiles(doc.get("tile"), "和牌张", "win.tile")
    if len(tiles) != 1:
        raise RoundError(f"和牌张必须是一张牌：{doc.get('tile')!r}", f"win.tile must be one tile: {doc.get('tile')!r}")
    source = _seat(doc.get("from", "self"), "点炮者", "win.from", allow_self=True)
    if source == seat:
        raise RoundError("点炮者不能是和牌者本人（自摸请写 self）", "win.from is the winner; write 'self' for 自摸")
    special = str(doc.get("special") or "none")
    if special not in ("none", "tianhu", "dihu"):
        raise RoundError(f"未知的 win.special：{special}", f"unknown win.special {special!r}")
    return WinInfo(
        seat=seat,
        tile=tiles[0],
        source=source,
        after_kong=bool(doc.get("after_kong", False)),
        robbed_kong=bool(doc.get("robbed_kong", False)),
        special=special,
        raw=dict(doc),
    )


def check_fifth_copies(tiles: Iterable[Tile]) -> None:
    """Refuse any kind that appears more than four times in the round."""
    over = sorted(t for t, n in Counter(tiles).items() if n > 4)
    if over:
        t = over[0]
        raise RoundError(f"{t.zh}（{t.code}）出现超过四张", f"tile {t.code} appears more than four times")


def parse_simple_round(doc: dict[str, Any], *, extra_tiles: Iterable[Tile] = ()) -> SimpleRound:
    """Read seats, dealer and win; check tile counts (14 winner, 13 others given) and fifth copies.

    ``extra_tiles`` are tiles outside the players' (an indicator) that count toward the four copies.
    """
    if not isinstance(doc, dict):
        raise RoundError("牌局描述必须是一个对象（JSON/YAML 映射）", "a round must be a JSON/YAML mapping")
    dealer = _seat(doc.get("dealer", "E"), "庄家", "dealer")
    assert dealer is not None
    players_doc = doc.get("players") or {}
    if not isinstance(players_doc, dict):
        raise RoundError("players 必须是映射", "players must be a mapping")
    unknown = [k for k in players_doc if k not in SEATS]
    if unknown:
        raise RoundError(f"未知的座位：{unknown[0]!r}", f"unknown seat {unknown[0]!r}")
    players = {s: parse_seat(s, players_doc.get(s)) for s in SEATS}
    win = parse_win(doc.get("win"), dealer)
    everything: list[Tile] = list(extra_tiles)
    for p in players.values():
        everything.extend(p.all_tiles())
    if win is not None:
        everything.append(win.tile)
        winner = players[win.seat]
        if winner.shape_count + 1 != 14:
            raise RoundError(
                f"{SEAT_ZH[win.seat]}家（和牌者）的牌数不对：手牌+副露+和牌张共 {winner.shape_count + 1} 张，应为 14 张（杠算 3 张）",
                f"winner {win.seat} has {winner.shape_count + 1} tiles, needs 14 (a kong counts 3)",
            )
    for s, p in players.items():
        if (win is None or s != win.seat) and p.given and p.shape_count != 13:
            raise RoundError(
                f"{SEAT_ZH[s]}家的牌数不对：{p.shape_count} 张，应为 13 张（杠算 3 张）",
                f"{s} has {p.shape_count} tiles, needs 13 (a kong counts 3)",
            )
    check_fifth_copies(everything)
    return SimpleRound(str(doc.get("rules", "")), dealer, players, win, dict(doc))


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
        if m.kind == "chi":
            packs.append(Pack(True, CHOW, gb_code(m.tiles[1])))
        elif m.kind == "peng":
            packs.append(Pack(True, PUNG, gb_code(m.first)))
        else:
            packs.append(Pack(m.kind != "angang", KONG, gb_code(m.first)))
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


def chi_from_previous_seat(rnd: SimpleRound) -> None:
    """A 吃 may only take the previous seat's (上家) discard."""
    for p in rnd.players.values():
        for m in p.melds:
            if m.kind == "chi" and m.source is not None and SEATS[(SEATS.index(p.seat) - 1) % 4] != m.source:
                raise RoundError(f"{SEAT_ZH[p.seat]}家只能吃上家的牌", f"{p.seat} may chi only from the previous seat")
