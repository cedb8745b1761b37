"""Correcting the read hand by taps, without Streamlit: which tile is picked, what a palette tap does to
it, 设为胡牌 / 设为翻精, and which box on the photo shows which tile.

The page shows one row of tile pictures: the winner's concealed tiles, then the winning tile (胡), then
the indicator (翻精). A `Slot` names one place in that row (or one tile of a meld); the photo's boxes
are linked to slots through the reader's roles, so tapping a box picks the same tile as tapping it in
the row. Hand tiles live in the draft (`RoundDraft.hand`), the winning tile and the indicator in the
page's widget values (`entries["win_tile"]`, `entries["indicator"]`), melds in `RoundDraft.melds`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.score_logic import LOW_CONFIDENCE
from scoring.tiles import BACK_CODE, format_tiles, parse_tiles

HAND, WIN, INDICATOR, MELD = "hand", "win", "indicator", "meld"
FULL_HAND = 14


@dataclass(frozen=True, slots=True)
class Slot:
    """One tile place: a hand position, the winning tile, the indicator, or tile `index` of meld `meld`."""

    kind: str
    index: int = 0
    meld: int = 0


@dataclass(frozen=True, slots=True)
class RowTile:
    """A tile of the row as drawn: its slot, code ('' when not chosen yet), tag and number."""

    slot: Slot
    code: str
    tag: str = ""
    number: int = 0


def row(hand: Sequence[str], entries: MutableMapping[str, Any]) -> list[RowTile]:
    """The read hand as one row: concealed tiles numbered 1…n, then 胡 and 翻精 when they are known."""
    out = [RowTile(Slot(HAND, i), code, "", i + 1) for i, code in enumerate(hand)]
    if entries.get("win_tile"):
        out.append(RowTile(Slot(WIN), str(entries["win_tile"]), "胡", len(out) + 1))
    if entries.get("indicator"):
        out.append(RowTile(Slot(INDICATOR), str(entries["indicator"]), "精", len(out) + 1))
    return out


def winner_meld_indices(melds: Sequence[dict[str, Any]]) -> list[int]:
    """Indices (in the draft's meld list) of the melds the photo read, in the photo's order."""
    return [i for i, m in enumerate(melds) if m.get("photo")]


def hand_tile_taken_out(read: Sequence[str], hand: Sequence[str]) -> int | None:
    """Which of the photo's hand tiles left the hand (set as 胡 or 翻精, or deleted) when the hand is one
    tile shorter than the photo read: the one whose removal leaves the fewest differences (the last
    such, among equal tiles); None when the hand is not exactly one shorter."""
    if len(read) != len(hand) + 1:
        return None
    best, best_diff = None, len(read) + 1
    for j in range(len(read)):
        rest = [*read[:j], *read[j + 1 :]]
        diff = sum(a != b for a, b in zip(rest, hand))
        if diff <= best_diff:
            best, best_diff = j, diff
    return best


def detection_index(detections: Sequence[Any]) -> Callable[[Any], int | None]:
    """Which of `detections` a role's box is: the same object, or a copy with the same box (the layout and
    the legal-round decoder hand back copies, e.g. of a tile they renamed); None for a box not among them."""
    by_id = {id(d): i for i, d in enumerate(detections)}
    by_box: dict[tuple[float, ...], int] = {}
    for i, d in enumerate(detections):
        by_box.setdefault(tuple(d.box), i)

    def find(det: Any) -> int | None:
        i = by_id.get(id(det))
        return i if i is not None else by_box.get(tuple(det.box))

    return find


def photo_slots(assignment: Any, detections: Sequence[Any], hand: Sequence[str], melds: Sequence[dict[str, Any]],
                entries: Mapping[str, Any] | None = None) -> list[Slot | None]:
    """For each detection, the slot it shows (None: a box with no place in the round, e.g. a stray tile).

    Hand boxes are linked while the hand has as many tiles as the photo read, or one fewer (a tile set
    as 胡 / 翻精 since: its box then shows that place when the photo had none). After more tiles are
    added or removed by hand the link would be a guess, so hand boxes keep no link."""
    slots: list[Slot | None] = [None] * len(detections)
    roles = list(getattr(assignment, "tiles", None) or [])
    index = detection_index(detections)
    hand_roles = [r for r in roles if r.role == HAND and r.det.tile != BACK_CODE]
    photo_melds = winner_meld_indices(melds)
    left_out = hand_tile_taken_out([r.det.tile for r in hand_roles], hand)
    if len(hand_roles) == len(hand) or left_out is not None:
        k = 0
        for j, r in enumerate(hand_roles):
            i = index(r.det)
            if j == left_out:  # set as the winning tile or the indicator since the photo was read
                if i is not None:
                    slots[i] = taken_to(roles, entries or {})
                continue
            if i is not None:
                slots[i] = Slot(HAND, k)
            k += 1
    seen: dict[int, int] = {}
    for r in roles:
        i = index(r.det)
        if i is None:
            continue
        if r.role == WIN:
            slots[i] = Slot(WIN)
        elif r.role == INDICATOR:
            slots[i] = Slot(INDICATOR)
        elif r.role == MELD and r.meld is not None and r.meld < len(photo_melds):
            j = seen.get(r.meld, 0)
            seen[r.meld] = j + 1
            slots[i] = Slot(MELD, j, photo_melds[r.meld])
    return slots


def taken_to(roles: Sequence[Any], entries: Mapping[str, Any]) -> Slot | None:
    """Where a hand tile taken out went: the winning tile's place if the photo had no winning tile and
    one is set now, else the indicator's on the same terms, else nowhere (it was deleted)."""
    had = {r.role for r in roles}
    if entries.get("win_tile") and WIN not in had:
        return Slot(WIN)
    if entries.get("indicator") and INDICATOR not in had:
        return Slot(INDICATOR)
    return None


def box_number(slot: Slot | None, tiles: Sequence[RowTile]) -> str:
    """The label of a box: the row number of its tile, 胡 / 精 for those, 副 for a meld tile, ? for none."""
    if slot is None:
        return "?"
    if slot.kind == MELD:
        return "副"
    for t in tiles:
        if t.slot == slot:
            return str(t.number)
    return "?"


def code_at(slot: Slot, hand: Sequence[str], entries: MutableMapping[str, Any], melds: Sequence[dict[str, Any]]) -> str | None:
    """The tile now at `slot` (None when the slot no longer exists)."""
    if slot.kind == HAND:
        return hand[slot.index] if 0 <= slot.index < len(hand) else None
    if slot.kind == WIN:
        return entries.get("win_tile") or None
    if slot.kind == INDICATOR:
        return entries.get("indicator") or None
    if 0 <= slot.meld < len(melds):
        codes = [x.code for x in parse_tiles(melds[slot.meld]["tiles"])]
        return codes[slot.index] if 0 <= slot.index < len(codes) else None
    return None


def replace(slot: Slot, code: str, hand: list[str], entries: MutableMapping[str, Any], melds: list[dict[str, Any]]) -> bool:
    """Put `code` at `slot` (a palette tap on a picked tile); False when the slot no longer exists."""
    if slot.kind == HAND and 0 <= slot.index < len(hand):
        hand[slot.index] = code
    elif slot.kind == WIN:
        entries["win_tile"] = code
    elif slot.kind == INDICATOR:
        entries["indicator"] = code
    elif slot.kind == MELD and 0 <= slot.meld < len(melds):
        codes = [x.code for x in parse_tiles(melds[slot.meld]["tiles"])]
        if not 0 <= slot.index < len(codes):
            return False
        codes[slot.index] = code
        melds[slot.meld]["tiles"] = format_tiles(parse_tiles(codes))
    else:
        return False
    return True


def tiles_held(hand: Sequence[str], entries: MutableMapping[str, Any], winner_melds: int) -> int:
    """How many tiles the winner shows: hand + winning tile + 3 per meld (a kong counts as three)."""
    return len(hand) + (1 if entries.get("win_tile") else 0) + 3 * winner_melds


def set_win(slot: Slot, hand: list[str], entries: MutableMapping[str, Any]) -> bool:
    """设为胡牌 on a hand tile: it leaves the hand as the winning tile; an earlier winning tile takes its place."""
    if slot.kind != HAND or not 0 <= slot.index < len(hand):
        return False
    code = hand.pop(slot.index)
    old = entries.get("win_tile")
    if old:
        hand.insert(slot.index, str(old))
    entries["win_tile"] = code
    return True


def set_indicator(slot: Slot, hand: list[str], entries: MutableMapping[str, Any], melds: list[dict[str, Any]], winner_melds: int) -> bool:
    """设为翻精 on a tile: the indicator becomes its kind; a hand tile the winner has one too many of
    (more than 14 with the winning tile) was the indicator read into the hand, so it leaves the hand."""
    code = code_at(slot, hand, entries, melds)
    if code is None or code == BACK_CODE:
        return False
    if slot.kind == HAND and tiles_held(hand, entries, winner_melds) > FULL_HAND:
        hand.pop(slot.index)
    entries["indicator"] = code
    return True


def unsure_slots(slots: Sequence[Slot | None], detections: Sequence[Any], low: float = LOW_CONFIDENCE) -> set[Slot]:
    """The slots whose photo box the detector was unsure of (outlined on the row too)."""
    return {s for s, d in zip(slots, detections) if s is not None and d.conf < low}
