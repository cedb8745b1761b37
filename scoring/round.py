"""The one round model of every rule system, and the reading of round documents (round-format.md).

`Meld` (melds.py), `PlayerTiles` and `Win` are shared by all systems; `Round` is a 冲关 round
(indicator, typed options, 精 counts) and `SimpleRound` what 国标, 芜湖 and 冲击 read (seats,
dealer, win and the raw document for their own fields). Every refusal is a `RoundError` with a
Chinese and an English message that names the problem: wrong tile count, fifth copy, unknown
tile, a 吃 not from 上家, a seat whose 精 is unknown …
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scoring.errors import RoundError, TileError
from scoring.melds import KONG_TYPES, MELD_TYPES, MELD_ZH, Meld
from scoring.settlement import SEAT_ZH, SEATS
from scoring.shapes.decompose import is_sequence
from scoring.tiles import Tile, jing_of, parse_tiles, tile

if TYPE_CHECKING:
    from scoring.chongguan.presets import ChongguanOptions

SPECIALS = ("none", "tianhu", "dihu")


def previous_seat(seat: str) -> str:
    """上家: the seat that plays just before ``seat`` (E→S→W→N→E)."""
    return SEATS[(SEATS.index(seat) - 1) % 4]


@dataclass(frozen=True, slots=True)
class JingCount:
    """A player's 精 in the §8 scope, and how many of them were taken from each other seat."""

    zheng: int = 0
    fu: int = 0
    claimed_from: dict[str, tuple[int, int]] = field(default_factory=dict)  # seat -> (zheng, fu)
    claims_known: bool = True

    @property
    def points(self) -> int:
        return 2 * self.zheng + self.fu


@dataclass(frozen=True, slots=True)
class PlayerTiles:
    """One seat: concealed tiles, declared melds, unclaimed own discards, optional 精 count."""

    seat: str
    hand: tuple[Tile, ...] = ()
    melds: tuple[Meld, ...] = ()
    discards: tuple[Tile, ...] = ()
    jing: JingCount | None = None
    xianggong: bool = False
    has_tiles: bool = False

    @property
    def kongs(self) -> tuple[Meld, ...]:
        return tuple(m for m in self.melds if m.is_kong)

    @property
    def shape_count(self) -> int:
        """Tiles counting toward 13/14 (a kong counts three)."""
        return len(self.hand) + 3 * len(self.melds)

    def all_tiles(self) -> list[Tile]:
        return [*self.hand, *(t for m in self.melds for t in m.tiles), *self.discards]


@dataclass(frozen=True, slots=True)
class Win:
    """The win: seat, winning tile, discarder (None = 自摸), 杠上花, 抢杠, 天胡/地胡, the raw win block."""

    seat: str
    tile: Tile
    from_seat: str | None
    after_kong: bool = False
    robbed_kong: bool = False
    special: str = "none"
    raw: dict[str, Any] = field(default_factory=dict, compare=False)  # system-specific fields (国标 flowers, 芜湖 ya)

    @property
    def self_drawn(self) -> bool:
        return self.from_seat is None


@dataclass(frozen=True, slots=True)
class Round:
    """One round of 冲关, validated: everything the settlement needs."""

    rules: str
    options: ChongguanOptions
    dealer: str
    indicator: Tile
    players: dict[str, PlayerTiles]
    win: Win | None
    follow_dealer: int = 0
    false_win: tuple[str, ...] = ()
    unit: int = 1
    dark_indicator: Tile | None = None
    extra_indicators: tuple[tuple[Tile, bool], ...] = ()

    @property
    def zheng(self) -> Tile:
        return jing_of(self.indicator)[0]

    @property
    def fu(self) -> Tile:
        return jing_of(self.indicator)[1]

    def is_jing(self, t: Tile) -> bool:
        return t == self.zheng or t == self.fu


def _seat(value: Any, what: str) -> str:
    s = str(value).strip().upper() if value is not None else ""
    if s not in SEATS:
        raise RoundError(f"{what}必须是 E/S/W/N 之一，而不是 {value!r}", f"{what}: {value!r} is not one of E S W N")
    return s


def _tiles(value: Any, what_zh: str, what_en: str) -> list[Tile]:
    if value is None:
        return []
    if not isinstance(value, (str, list, tuple)):
        raise RoundError(f"{what_zh}必须是牌串，例如 123m456p", f"{what_en} must be a tile string like 123m456p")
    try:
        return parse_tiles(value)
    except TileError as exc:
        raise RoundError(f"{what_zh}：{exc.zh}", f"{what_en}: {exc.en}") from exc


def _tile(value: Any, what_zh: str, what_en: str) -> Tile:
    if value is None or value == "":
        raise RoundError(f"缺少{what_zh}", f"missing {what_en}")
    try:
        return tile(value if not isinstance(value, str) else value.strip())
    except TileError as exc:
        raise RoundError(f"{what_zh}：{exc.zh}", f"{what_en}: {exc.en}") from exc


def _flag(value: Any, what: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise RoundError(f"{what} 必须是 true 或 false", f"{what} must be true or false")
    return value


def _count(value: Any, what: str, most: int = 99) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RoundError(f"{what} 必须是非负整数", f"{what} must be a non-negative integer")
    if value > most:
        raise RoundError(f"{what} 不可能是 {value}（最多 {most}）", f"{what} cannot be {value} (at most {most})")
    return value


def _meld(seat: str, raw: Any, opts: ChongguanOptions, jing: tuple[Tile, Tile]) -> Meld:
    who = f"{SEAT_ZH[seat]}家的副露"
    if not isinstance(raw, dict):
        raise RoundError(f"{who}必须是对象，例如 {{type: peng, tiles: 777p, from: W}}", f"{seat}: a meld must be a mapping")
    kind = str(raw.get("type", "")).strip()
    if kind not in MELD_TYPES:
        raise RoundError(f"{who}类型 {kind!r} 无效（可用：chi/peng/gang/angang/bugang）",
                         f"{seat}: unknown meld type {kind!r} (chi/peng/gang/angang/bugang)")
    tiles = tuple(_tiles(raw.get("tiles"), who, f"{seat} meld"))
    name = MELD_ZH[kind]
    need = 4 if kind in KONG_TYPES else 3
    if len(tiles) != need:
        raise RoundError(f"{who}「{name}」应有{need}张牌，给了{len(tiles)}张", f"{seat}: a {kind} has {need} tiles, got {len(tiles)}")
    if kind == "chi":
        if not is_sequence([t.index for t in tiles], opts.honor_seq_mixed):
            raise RoundError(f"{who}「吃」{''.join(t.zh for t in tiles)} 不是顺子", f"{seat}: chi {tiles} is not a sequence")
    elif len(set(tiles)) != 1:
        raise RoundError(f"{who}「{name}」的牌必须相同", f"{seat}: a {kind} needs identical tiles")
    from_seat = None
    if kind != "angang":
        if raw.get("from") is None:
            raise RoundError(f"{who}「{name}」是谁打出的牌？请说明来自哪一家（from）", f"{seat}: {kind} needs `from`")
        from_seat = _seat(raw.get("from"), f"{who}的 from")
        if from_seat == seat:
            raise RoundError(f"{who}「{name}」不能从自己拿牌", f"{seat}: {kind} cannot be claimed from oneself")
    if kind == "chi" and from_seat != previous_seat(seat):
        raise RoundError(f"{who}：只能吃上家（{SEAT_ZH[previous_seat(seat)]}家）的牌，不能吃{SEAT_ZH[from_seat or seat]}家的",
                         f"{seat}: chi only from the previous seat {previous_seat(seat)}, not {from_seat}")
    claimed = None
    if kind == "chi":
        claimed = _tile(raw["claimed"], f"{who}吃的牌", f"{seat} chi claimed tile") if raw.get("claimed") else tiles[0]
        if claimed not in tiles:
            raise RoundError(f"{who}：吃的牌 {claimed.zh} 不在这副顺子里", f"{seat}: claimed {claimed} not in the chi")
    if opts.jing_claim == "chow_only" and kind in ("peng", "gang", "bugang") and tiles[0] in jing:
        raise RoundError(f"{who}：本规则下别人打出的精只能吃，不能碰杠", f"{seat}: a discarded 精 may only be chowed here")
    return Meld(kind, tiles, from_seat, claimed)


def _jing_count(seat: str, raw: Any) -> JingCount:
    if not isinstance(raw, dict):
        raise RoundError(f"{SEAT_ZH[seat]}家的 jing 必须是 {{zheng: n, fu: n}}", f"{seat}: jing must be {{zheng, fu}}")
    zheng = _count(raw.get("zheng"), f"{seat}.jing.zheng", most=4)  # a set holds 4 of each tile
    fu = _count(raw.get("fu"), f"{seat}.jing.fu", most=4)
    claims: dict[str, tuple[int, int]] = {}
    cf = raw.get("claimed_from")
    if cf is not None:
        if not isinstance(cf, dict):
            raise RoundError(f"{SEAT_ZH[seat]}家吃碰别家的精要写成 {{座位: {{zheng, fu}}}}（claimed_from）", f"{seat}: bad claimed_from")
        for other, c in cf.items():
            o = _seat(other, f"{SEAT_ZH[seat]}家 claimed_from 的座位")
            if o == seat or not isinstance(c, dict):
                raise RoundError(f"{SEAT_ZH[seat]}家吃碰别家的精写得不对（claimed_from）", f"{seat}: bad claimed_from entry {other!r}")
            claims[o] = (_count(c.get("zheng"), "claimed_from.zheng"), _count(c.get("fu"), "claimed_from.fu"))
        if sum(z for z, _ in claims.values()) > zheng or sum(f for _, f in claims.values()) > fu:
            raise RoundError(f"{SEAT_ZH[seat]}家吃碰别家的精比他的精总数还多", f"{seat}: claimed_from exceeds the count")
    return JingCount(zheng, fu, claims, cf is not None)


def parse_round(doc: dict[str, Any], rules: str, opts: ChongguanOptions) -> Round:
    """Validate a round document under resolved options; refusals raise RoundError."""
    dealer = _seat(doc.get("dealer", "E"), "庄家（dealer）")
    indicator = _tile(doc.get("indicator"), "翻精（indicator）", "indicator")
    jing = jing_of(indicator)
    raw_players = doc.get("players") or {}
    if not isinstance(raw_players, dict):
        raise RoundError("players 必须是 E/S/W/N 到各家牌的对象", "players must map seats to tiles")
    for k in raw_players:
        _seat(k, "players 的座位")
    raw_win = doc.get("win")
    if raw_win is not None and not isinstance(raw_win, dict):
        raise RoundError("win 必须是对象或 null（流局）", "win must be a mapping or null (draw)")
    if raw_win is not None and not raw_win:
        raise RoundError("win 是空的：流局请写 win: null", "win is empty: write win: null for a draw")
    win: Win | None = None
    if raw_win:
        seat = _seat(raw_win.get("seat"), "胡牌的座位（win.seat）")
        wtile = _tile(raw_win.get("tile"), "胡的那张牌（win.tile）", "win.tile")
        frm = raw_win.get("from", "self")
        from_seat = None if frm in (None, "self", "自摸") else _seat(frm, "放炮的座位（win.from）")
        if from_seat == seat:
            raise RoundError("放炮的人不能是胡牌的人；自摸请写 from: self", "win.from equals the winner; use from: self")
        special = str(raw_win.get("special") or "none")
        if special not in SPECIALS:
            raise RoundError(f"special 必须是 none/tianhu/dihu，而不是 {special!r}", f"unknown special {special!r}")
        win = Win(seat, wtile, from_seat, _flag(raw_win.get("after_kong"), "after_kong"),
                  _flag(raw_win.get("robbed_kong"), "robbed_kong"), special)
    players: dict[str, PlayerTiles] = {}
    for seat in SEATS:
        raw = raw_players.get(seat) or raw_players.get(seat.lower()) or {}
        if not isinstance(raw, dict):
            raise RoundError(f"{SEAT_ZH[seat]}家的描述必须是对象", f"players.{seat} must be a mapping")
        who = f"{SEAT_ZH[seat]}家"
        has_tiles = any(raw.get(k) not in (None, "", []) for k in ("hand", "melds", "discards"))
        melds_raw = raw.get("melds") or []
        if not isinstance(melds_raw, list):
            raise RoundError(f"{who}的 melds 必须是列表", f"players.{seat}.melds must be a list")
        players[seat] = PlayerTiles(
            seat=seat,
            hand=tuple(_tiles(raw.get("hand"), f"{who}手牌", f"{seat} hand")),
            melds=tuple(_meld(seat, m, opts, jing) for m in melds_raw),
            discards=tuple(_tiles(raw.get("discards"), f"{who}打出的牌", f"{seat} discards")),
            jing=_jing_count(seat, raw["jing"]) if raw.get("jing") is not None else None,
            xianggong=_flag(raw.get("xianggong"), f"{seat}.xianggong"),
            has_tiles=has_tiles,
        )
    rnd = Round(
        rules=rules, options=opts, dealer=dealer, indicator=indicator, players=players, win=win,
        follow_dealer=_count(doc.get("follow_dealer"), "follow_dealer"),
        false_win=_false_win_seats(doc.get("false_win")),
        unit=_unit(doc, opts),
        dark_indicator=_tile(doc["dark_indicator"], "暗精", "dark_indicator") if doc.get("dark_indicator") else None,
        extra_indicators=_extra_indicators(doc.get("extra_indicators")),
    )
    _validate(rnd)
    return rnd


def _false_win_seats(raw: Any) -> tuple[str, ...]:
    """`false_win`: a list of the seats that declared a false win (诈胡), each seat once."""
    if raw in (None, ""):
        return ()
    if not isinstance(raw, list):
        raise RoundError("false_win（诈胡的人）必须是座位列表，例如 [W]", "false_win must be a list of seats, e.g. [W]")
    return tuple(dict.fromkeys(_seat(s, "诈胡的座位") for s in raw))


def _unit(doc: dict[str, Any], opts: ChongguanOptions) -> int:
    unit = doc.get("unit", 1)
    if unit is None:
        return 1
    if isinstance(unit, bool) or not isinstance(unit, int) or unit < 1:
        raise RoundError("unit（一个子的值）必须是正整数", "unit must be a positive integer")
    return unit


def _extra_indicators(raw: Any) -> tuple[tuple[Tile, bool], ...]:
    if not raw:
        return ()
    if not isinstance(raw, list):
        raise RoundError("extra_indicators 必须是列表", "extra_indicators must be a list")
    out = []
    for item in raw:
        if not isinstance(item, dict):
            raise RoundError("extra_indicators 的每一项必须是 {tile, wild}", "bad extra_indicators entry")
        out.append((_tile(item.get("tile"), "额外精牌", "extra indicator"), _flag(item.get("wild"), "wild")))
    return tuple(out)


def _validate(r: Round) -> None:
    opts = r.options
    win = r.win
    # tile counts
    for seat, p in r.players.items():
        if p.xianggong or not (p.hand or (win and win.seat == seat)):
            continue  # kongs or discards alone (the app's quick entry) are not a full hand to count
        n = len(p.hand) + 3 * len(p.melds)
        if win and win.seat == seat:
            n += 1
            if n != 14:
                raise RoundError(f"胡家（{SEAT_ZH[seat]}家）的牌数不对：手牌{len(p.hand)}张 + 胡的牌1张 + 副露{len(p.melds)}副 = {n}张，应为14张",
                                 f"winner {seat} has {n} tiles (hand {len(p.hand)} + win tile + {len(p.melds)} melds), needs 14")
        elif n != 13:
            raise RoundError(f"{SEAT_ZH[seat]}家的牌数不对：手牌{len(p.hand)}张 + 副露{len(p.melds)}副 = {n}张，应为13张（相公请标 xianggong）",
                             f"{seat} has {n} tiles, needs 13 (mark xianggong for a wrong count)")
    # fifth copies across the round
    seen: Counter[Tile] = Counter()
    for p in r.players.values():
        seen.update(p.all_tiles())
    if win:
        seen[win.tile] += 1
    if not opts.indicator_drawable:
        seen[r.indicator] += 1
    for t, n in sorted(seen.items()):
        if n > 4:
            extra = "（翻开的精牌也算一张）" if t == r.indicator and not opts.indicator_drawable else ""
            raise RoundError(f"{t.zh}（{t.code}）出现了{n}次，一种牌最多4张{extra}",
                             f"tile {t.code} appears {n} times; there are only 4" + (" (the indicator counts)" if extra else ""))
    # every seat's 精 must be known
    if not opts.assume_unknown_jing_zero:
        for seat, p in r.players.items():
            if not p.has_tiles and p.jing is None and not (win and win.seat == seat):
                raise RoundError(f"不知道{SEAT_ZH[seat]}家的精：请给出他的牌或精数（jing: {{zheng, fu}}）",
                                 f"the 精 of seat {seat} are unknown: give its tiles or a jing count")
    for s in r.false_win:
        if win and win.seat == s:
            raise RoundError(f"{SEAT_ZH[s]}家不能既诈胡又胡牌", f"seat {s} cannot both win and false-win")
    if win:
        _validate_win(r, win)


def _validate_win(r: Round, win: Win) -> None:
    opts = r.options
    p = r.players[win.seat]
    who = f"{SEAT_ZH[win.seat]}家"
    if p.xianggong:
        raise RoundError(f"{who}是相公（牌数不对），不能胡牌", f"{win.seat} is 相公 and cannot win")
    if not p.has_tiles:
        raise RoundError(f"缺少胡家（{who}）的手牌", f"the winner {win.seat} has no hand")
    if win.after_kong:
        if not p.kongs:
            raise RoundError(f"杠上花需要{who}有自己的杠", "after_kong needs a kong declared by the winner")
        if win.from_seat is not None:
            raise RoundError("杠上花必须是自摸（from: self）", "after_kong is a self-draw")
    if win.robbed_kong:
        if win.from_seat is None:
            raise RoundError("抢杠要写明被抢杠的人（win.from）", "robbed_kong needs `from` = the konger")
        konger = r.players[win.from_seat]
        if konger.has_tiles and not any(m.type == "peng" and m.kind == win.tile for m in konger.melds):
            raise RoundError(f"抢杠：{SEAT_ZH[win.from_seat]}家没有{win.tile.zh}的碰，无杠可抢（被抢的杠写作 peng）",
                             f"robbed_kong: {win.from_seat} has no peng of {win.tile.code} to add to")
        if win.after_kong:
            raise RoundError("抢杠和杠上花不能同时成立", "robbed_kong and after_kong exclude each other")
    if win.special == "tianhu" and (win.seat != r.dealer or win.from_seat is not None):
        raise RoundError("天胡只能是庄家自摸（起手14张）", "tianhu needs the dealer and from: self")
    if win.special == "dihu":
        if win.seat == r.dealer:
            raise RoundError("地胡只能是闲家", "dihu needs a non-dealer winner")
        if win.from_seat is not None and not (opts.dihu_on_dealer_discard and win.from_seat == r.dealer):
            raise RoundError("地胡必须是自摸（或开启 dihu_on_dealer_discard 时胡庄家第一张牌）",
                             "dihu is a self-draw unless dihu_on_dealer_discard (then on the dealer's discard)")
    if r.is_jing(win.tile) and win.from_seat is not None and win.robbed_kong and opts.jing_claim == "chow_only":
        raise RoundError("本规则下精不能碰杠，也就没有精的杠可抢", "no kong of a discarded 精 exists under jing_claim chow_only")


# ----------------------------------------------------------------------------- 国标, 芜湖, 冲击


@dataclass(frozen=True, slots=True)
class SimpleRound:
    """What the non-冲关 systems read from a round document: seats, dealer, win, and the raw document."""

    rules: str
    dealer: str
    players: dict[str, PlayerTiles]
    win: Win | None
    raw: dict[str, Any]

    @property
    def winner(self) -> PlayerTiles:
        assert self.win is not None
        return self.players[self.win.seat]

    def winner_tiles(self) -> list[Tile]:
        """Concealed hand plus the winning tile (the concealed part of the 14)."""
        assert self.win is not None
        return list(self.winner.hand) + [self.win.tile]


def _source(value: Any, what_zh: str, what_en: str) -> str | None:
    """A seat code E/S/W/N, or None for a self-draw ("self", "zimo" or nothing)."""
    if value in ("self", None, "", "zimo"):
        return None
    if value not in SEATS:
        raise RoundError(f"{what_zh}不是座位（E/S/W/N）：{value!r}", f"{what_en} is not a seat (E/S/W/N): {value!r}")
    return str(value)


def _plain_seat(value: Any, what_zh: str, what_en: str) -> str:
    if value not in SEATS:
        raise RoundError(f"{what_zh}不是座位（E/S/W/N）：{value!r}", f"{what_en} is not a seat (E/S/W/N): {value!r}")
    return str(value)


def _meld_tiles_fit(kind: str, tiles: tuple[Tile, ...]) -> bool:
    """A 吃 is three suited tiles in a row (no honor sequences here); a 碰 three, a kong four identical."""
    if kind == "chi":
        ts = sorted(tiles)
        return (len(ts) == 3 and not ts[0].is_honor and ts[0].suit == ts[2].suit
                and ts[1].index == ts[0].index + 1 and ts[2].index == ts[0].index + 2)
    return len(tiles) == (3 if kind == "peng" else 4) and len(set(tiles)) == 1


def read_meld(doc: Any, seat: str) -> Meld:
    """One meld mapping ``{type, tiles, from, claimed}`` of a 国标/芜湖/冲击 round; checks its tiles fit its type."""
    if not isinstance(doc, dict):
        raise RoundError(f"{SEAT_ZH[seat]}家的副露必须是映射", f"meld of {seat} must be a mapping")
    kind = doc.get("type")
    if kind not in MELD_TYPES:
        raise RoundError(
            f"{SEAT_ZH[seat]}家副露类型未知：{kind!r}（可用：{'/'.join(MELD_TYPES)}）",
            f"unknown meld type {kind!r} for {seat}",
        )
    tiles = tuple(_tiles(doc.get("tiles"), f"{SEAT_ZH[seat]}家的{MELD_ZH[kind]}", f"{kind} of {seat}"))
    if not _meld_tiles_fit(kind, tiles):
        raise RoundError(
            f"{SEAT_ZH[seat]}家的{MELD_ZH[kind]}牌不对：{doc.get('tiles')!r}",
            f"{kind} of {seat} has wrong tiles: {doc.get('tiles')!r}",
        )
    if kind == "chi":
        tiles = tuple(sorted(tiles))
    source = None
    if kind != "angang":
        source = _source(doc.get("from"), f"{SEAT_ZH[seat]}家{MELD_ZH[kind]}的来源", f"source of {kind} of {seat}")
        if source == seat:
            raise RoundError(f"{SEAT_ZH[seat]}家不能{MELD_ZH[kind]}自己的牌", f"{seat} cannot claim from itself")
    claimed = None
    if doc.get("claimed") is not None:
        taken = _tiles(doc.get("claimed"), f"{SEAT_ZH[seat]}家吃的牌", f"claimed tile of {seat}")
        if len(taken) != 1 or taken[0] not in tiles:
            raise RoundError(
                f"{SEAT_ZH[seat]}家{MELD_ZH[kind]}的 claimed 必须是这组里的一张牌（吃进来的那张）",
                f"claimed of {kind} of {seat} must be one tile of the meld, got {doc.get('claimed')!r}",
            )
        claimed = taken[0]
    return Meld(kind, tiles, source, claimed)


def read_seat(seat: str, doc: Any) -> PlayerTiles:
    """One seat's ``{hand, melds, discards}``; an absent seat has no tiles (``has_tiles=False``)."""
    if doc is None:
        return PlayerTiles(seat)
    if not isinstance(doc, dict):
        raise RoundError(f"{SEAT_ZH[seat]}家必须是映射", f"player {seat} must be a mapping")
    hand = tuple(_tiles(doc.get("hand"), f"{SEAT_ZH[seat]}家的手牌", f"hand of {seat}"))
    melds_doc = doc.get("melds") or []
    if not isinstance(melds_doc, list):
        raise RoundError(f"{SEAT_ZH[seat]}家的副露必须是列表", f"melds of {seat} must be a list")
    melds = tuple(read_meld(m, seat) for m in melds_doc)
    discards = tuple(_tiles(doc.get("discards"), f"{SEAT_ZH[seat]}家的弃牌", f"discards of {seat}"))
    return PlayerTiles(seat, hand, melds, discards, has_tiles=bool(hand or melds))


def read_win(doc: Any) -> Win | None:
    """The win block of a 国标/芜湖/冲击 round (its own fields stay in ``raw``); None for a draw (流局)."""
    if doc is None:
        return None
    if not isinstance(doc, dict):
        raise RoundError("win 必须是映射或 null", "win must be a mapping or null")
    seat = _plain_seat(doc.get("seat"), "和牌者", "win.seat")
    if doc.get("tile") is None:
        raise RoundError("缺少和牌张（win.tile）", "win.tile is missing")
    tiles = _tiles(doc.get("tile"), "和牌张", "win.tile")
    if len(tiles) != 1:
        raise RoundError(f"和牌张必须是一张牌：{doc.get('tile')!r}", f"win.tile must be one tile: {doc.get('tile')!r}")
    source = _source(doc.get("from", "self"), "点炮者", "win.from")
    if source == seat:
        raise RoundError("点炮者不能是和牌者本人（自摸请写 self）", "win.from is the winner; write 'self' for 自摸")
    special = str(doc.get("special") or "none")
    if special not in SPECIALS:
        raise RoundError(f"未知的 win.special：{special}", f"unknown win.special {special!r}")
    return Win(seat, tiles[0], source, bool(doc.get("after_kong", False)), bool(doc.get("robbed_kong", False)),
               special, raw=dict(doc))


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
    dealer = _plain_seat(doc.get("dealer", "E"), "庄家", "dealer")
    players_doc = doc.get("players") or {}
    if not isinstance(players_doc, dict):
        raise RoundError("players 必须是映射", "players must be a mapping")
    unknown = [k for k in players_doc if k not in SEATS]
    if unknown:
        raise RoundError(f"未知的座位：{unknown[0]!r}", f"unknown seat {unknown[0]!r}")
    players = {s: read_seat(s, players_doc.get(s)) for s in SEATS}
    win = read_win(doc.get("win"))
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
        if (win is None or s != win.seat) and p.has_tiles and p.shape_count != 13:
            raise RoundError(
                f"{SEAT_ZH[s]}家的牌数不对：{p.shape_count} 张，应为 13 张（杠算 3 张）",
                f"{s} has {p.shape_count} tiles, needs 13 (a kong counts 3)",
            )
    check_fifth_copies(everything)
    return SimpleRound(str(doc.get("rules", "")), dealer, players, win, dict(doc))


def chi_from_previous_seat(rnd: SimpleRound) -> None:
    """A 吃 may only take the previous seat's (上家) discard."""
    for p in rnd.players.values():
        for m in p.melds:
            if m.type == "chi" and m.from_seat is not None and previous_seat(p.seat) != m.from_seat:
                raise RoundError(f"{SEAT_ZH[p.seat]}家只能吃上家的牌", f"{p.seat} may chi only from the previous seat")
