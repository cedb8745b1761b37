"""Declared melds (吃/碰/明杠/暗杠/补杠): natural tiles only (chongguan.md §3, round-format.md).

One `Meld` for every rule system (冲关, 国标, 芜湖, 冲击): its fields are named as in the round format
(`type`, `tiles`, `from` → `from_seat`, `claimed`).
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.tiles import Tile

MELD_TYPES: tuple[str, ...] = ("chi", "peng", "gang", "angang", "bugang")
MELD_ZH = {"chi": "吃", "peng": "碰", "gang": "明杠", "angang": "暗杠", "bugang": "补杠"}
KONG_TYPES = frozenset({"gang", "angang", "bugang"})


@dataclass(frozen=True, slots=True)
class Meld:
    """One declared meld: its type, natural tiles, the seat it was claimed from, the claimed tile."""

    type: str
    tiles: tuple[Tile, ...]
    from_seat: str | None = None
    claimed: Tile | None = None

    @property
    def is_kong(self) -> bool:
        return self.type in KONG_TYPES

    @property
    def is_pung_like(self) -> bool:
        """A pung or a kong (大七 allows these declared melds, not chows)."""
        return self.type != "chi"

    @property
    def kind(self) -> Tile:
        """The meld's first tile (the kind of a pung or kong)."""
        return self.tiles[0]

    def claimed_tile(self) -> Tile | None:
        """The tile taken from another seat's discard (none for 暗杠)."""
        if self.type == "angang":
            return None
        return self.claimed or self.tiles[0]

    def to_dict(self) -> dict[str, object]:
        from scoring.tiles import format_tiles

        d: dict[str, object] = {"type": self.type, "tiles": format_tiles(self.tiles)}
        if self.from_seat:
            d["from"] = self.from_seat
        if self.claimed is not None and self.type == "chi":
            d["claimed"] = self.claimed.code
        return d
