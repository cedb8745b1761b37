"""Tiles: the 34 kinds, tile strings (tenhou codes and Chinese), and the 精 cycles.

Index order = detector class order: 1m..9m (0..8), 1p..9p (9..17), 1s..9s (18..26),
1z..7z (27..33) = 東 南 西 北 白 發 中.  ``BACK`` (34) is a face-down tile, detector only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from scoring.errors import TileError

SUITS = ("m", "p", "s", "z")
SUIT_ZH = {"m": "万", "p": "筒", "s": "条"}
HONOR_ZH = ("东", "南", "西", "北", "白", "发", "中")
HONOR_ZH_TRAD = ("東", "南", "西", "北", "白", "發", "中")
RANK_ZH = ("一", "二", "三", "四", "五", "六", "七", "八", "九")
CODES: tuple[str, ...] = tuple(f"{r}{s}" for s in "mps" for r in range(1, 10)) + tuple(
    f"{r}z" for r in range(1, 8)
)
NUM_KINDS = 34
BACK = 34
BACK_CODE = "back"


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One of the 34 tile kinds; ``index`` is the detector class index (0..33)."""

    index: int

    @property
    def code(self) -> str:
        return CODES[self.index]

    @property
    def suit(self) -> str:
        return SUITS[self.index // 9] if self.index < 27 else "z"

    @property
    def rank(self) -> int:
        return self.index % 9 + 1 if self.index < 27 else self.index - 26

    @property
    def is_honor(self) -> bool:
        return self.index >= 27

    @property
    def is_wind(self) -> bool:
        return 27 <= self.index <= 30

    @property
    def is_dragon(self) -> bool:
        return self.index >= 31

    @property
    def zh(self) -> str:
        """Chinese name: 一万, 五筒, 九条, 东, 白, 发, 中."""
        if self.is_honor:
            return HONOR_ZH[self.index - 27]
        return RANK_ZH[self.rank - 1] + SUIT_ZH[self.suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile({self.code})"


TILES: tuple[Tile, ...] = tuple(Tile(i) for i in range(NUM_KINDS))
_BY_CODE = {c: TILES[i] for i, c in enumerate(CODES)}

_SUIT_CHARS = {
    "m": "m", "万": "m", "萬": "m", "w": "m",
    "p": "p", "筒": "p", "饼": "p", "餅": "p", "t": "p",
    "s": "s", "条": "s", "條": "s", "索": "s", "b": "s",
    "z": "z",
}
_HONOR_CHARS = {
    "东": 27, "東": 27, "南": 28, "西": 29, "北": 30,
    "白": 31, "发": 32, "發": 32, "中": 33,
}
_NUMERALS = {str(i): i for i in range(1, 10)} | {c: i + 1 for i, c in enumerate(RANK_ZH)}
# Filler characters after an honor ("东风", "红中", "白板", "发财") and separators.
_IGNORED = set(" \t\n,，、;；|/风風板财財红紅")


def tile(code: str | int | Tile) -> Tile:
    """One tile from a code (``5p``), an index (13) or a Chinese name (``五筒``, ``發``)."""
    if isinstance(code, Tile):
        return code
    if isinstance(code, int) and not isinstance(code, bool):
        if 0 <= code < NUM_KINDS:
            return TILES[code]
        raise TileError(f"未知的牌：{code}", f"unknown tile index {code}")
    if isinstance(code, str):
        s = code.strip()
        if s in _BY_CODE:
            return _BY_CODE[s]
        parsed = parse_tiles(s)
        if len(parsed) == 1:
            return parsed[0]
        raise TileError(f"不是一张牌：{code!r}", f"not a single tile: {code!r}")
    raise TileError(f"未知的牌：{code!r}", f"unknown tile {code!r}")


def parse_tiles(text: str | Iterable[str | int | Tile] | None) -> list[Tile]:
    """Parse a tile string: ``123m456p789s1234567z``, ``一二三万东东發``, ``1万 2筒``, spaces ok.

    A list of codes is accepted too.  Unknown characters raise :class:`TileError`
    naming them.
    """
    if text is None:
        return []
    if not isinstance(text, str):
        return [tile(t) for t in text]
    out: list[Tile] = []
    pending: list[int] = []
    pending_text = ""
    for pos, ch in enumerate(text):
        if ch in _NUMERALS:
            pending.append(_NUMERALS[ch])
            pending_text += ch
        elif ch in _SUIT_CHARS:
            suit = _SUIT_CHARS[ch]
            if not pending:
                raise TileError(
                    f"牌串中「{ch}」前面缺少点数（第{pos + 1}个字符）",
                    f"suit {ch!r} without ranks at position {pos + 1} in {text!r}",
                )
            for r in pending:
                if suit == "z":
                    if not 1 <= r <= 7:
                        raise TileError(f"没有这张牌：{r}z", f"unknown tile code {r}z")
                    out.append(TILES[26 + r])
                else:
                    out.append(TILES[SUITS.index(suit) * 9 + r - 1])
            pending, pending_text = [], ""
        elif ch in _HONOR_CHARS:
            if pending:
                raise TileError(
                    f"「{pending_text}」后面缺少花色（万/筒/条）",
                    f"ranks {pending_text!r} without a suit before {ch!r}",
                )
            out.append(TILES[_HONOR_CHARS[ch]])
        elif ch in _IGNORED:
            continue
        else:
            raise TileError(
                f"无法识别的牌：「{ch}」（第{pos + 1}个字符，牌串 {text!r}）",
                f"unknown tile character {ch!r} at position {pos + 1} in {text!r}",
            )
    if pending:
        raise TileError(
            f"「{pending_text}」后面缺少花色（万/筒/条/z）",
            f"ranks {pending_text!r} at the end of {text!r} have no suit",
        )
    return out


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Tenhou-style compact string, sorted: ``123m456p11z``."""
    groups: dict[str, list[int]] = {s: [] for s in SUITS}
    for t in sorted(tiles):
        groups[t.suit].append(t.rank)
    return "".join("".join(map(str, groups[s])) + s for s in SUITS if groups[s])


def format_tiles_zh(tiles: Iterable[Tile]) -> str:
    """Chinese, space separated, in the given order: ``一万 二万 东``."""
    return " ".join(t.zh for t in tiles)


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    """Count vector of length 34."""
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t.index] += 1
    return c


def next_in_cycle(t: Tile) -> Tile:
    """The kind after ``t`` in its 精 cycle: suits 1→…→9→1, winds 东→南→西→北→东,
    dragons 中→发→白→中 (7z→6z→5z→7z, the reverse of code order)."""
    i = t.index
    if i < 27:
        return TILES[(i // 9) * 9 + (i % 9 + 1) % 9]
    if i <= 30:
        return TILES[27 + (i - 27 + 1) % 4]
    return {33: TILES[32], 32: TILES[31], 31: TILES[33]}[i]


def jing_of(indicator: Tile) -> tuple[Tile, Tile]:
    """(正精, 副精) for a flipped indicator: 正精 = its kind, 副精 = the next in its cycle."""
    return indicator, next_in_cycle(indicator)


def fifth_copies(tiles: Iterable[Tile], limit: int = 4) -> list[Tile]:
    """Kinds that appear more than ``limit`` times."""
    return sorted(t for t, n in Counter(tiles).items() if n > limit)
