"""Correcting the read hand by taps: the row, the photo's boxes linked to it, palette taps, 设为胡牌 / 设为翻精."""

from __future__ import annotations

import dataclasses

from app.tile_edit import (
    HAND,
    INDICATOR,
    MELD,
    WIN,
    Slot,
    box_number,
    code_at,
    photo_slots,
    replace,
    row,
    set_indicator,
    set_win,
    unsure_slots,
)
from vision.reader.detection import Detection
from vision.reader.layout import Assignment, TileRole


def det(code: str, x: float, conf: float = 0.9) -> Detection:
    return Detection((x, 100, x + 40, 160), code, conf)


def photo() -> tuple[list[Detection], Assignment, list[str], dict, list[dict]]:
    """A photo of 4 hand tiles, a winning tile, a pung and an indicator (detections in photo order)."""
    hand = [det(c, 40 * i, 0.3 if i == 2 else 0.9) for i, c in enumerate(["1m", "2m", "6p", "4p"])]
    win = det("5s", 220)
    pung = [det("7z", 300 + 40 * i) for i in range(3)]
    ind = det("9s", 600)
    detections = [*pung, ind, *hand, win]  # the detector's order is not the reading order
    roles = [*(TileRole(d, "hand") for d in hand), TileRole(win, "win"),
             *(TileRole(d, "meld", 0) for d in pung), TileRole(ind, "indicator")]
    assignment = Assignment(tiles=roles, hand=["1m", "2m", "6p", "4p"], win_tile="5s", indicator="9s")
    melds = [{"seat": "E", "type": "chi", "tiles": "123s"}, {"seat": "winner", "photo": True, "type": "peng", "tiles": "777z"}]
    return detections, assignment, ["1m", "2m", "6p", "4p"], {"win_tile": "5s", "indicator": "9s"}, melds


def test_the_row_is_hand_then_winning_tile_then_indicator_numbered() -> None:
    tiles = row(["1m", "2m"], {"win_tile": "3m", "indicator": "7z"})
    assert [(t.code, t.tag, t.number) for t in tiles] == [("1m", "", 1), ("2m", "", 2), ("3m", "胡", 3), ("7z", "精", 4)]
    assert [t.slot.kind for t in row(["1m"], {})] == [HAND]


def test_each_box_on_the_photo_is_linked_to_its_tile_in_the_row() -> None:
    detections, assignment, hand, entries, melds = photo()
    slots = photo_slots(assignment, detections, hand, melds)
    assert slots[4:8] == [Slot(HAND, 0), Slot(HAND, 1), Slot(HAND, 2), Slot(HAND, 3)]
    assert slots[8] == Slot(WIN) and slots[3] == Slot(INDICATOR)
    assert slots[:3] == [Slot(MELD, 0, 1), Slot(MELD, 1, 1), Slot(MELD, 2, 1)]  # the photo's pung is meld 1 of the draft
    tiles = row(hand, entries)
    assert [box_number(s, tiles) for s in slots] == ["副", "副", "副", "6", "1", "2", "3", "4", "5"]


def test_boxes_stay_linked_when_the_layout_hands_back_renamed_copies() -> None:
    """The legal-round decoder returns copies of the boxes it renamed ("读成了一筒，应是一条？"): tapping one
    on the photo must still pick its tile in the row."""
    detections, assignment, hand, _, melds = photo()
    copies = [TileRole(dataclasses.replace(r.det, tile="3p" if r.det.tile == "6p" else r.det.tile), r.role, r.meld)
              for r in assignment.tiles]
    fixed = dataclasses.replace(assignment, tiles=copies, hand=["1m", "2m", "3p", "4p"])
    slots = photo_slots(fixed, detections, ["1m", "2m", "3p", "4p"], melds)
    assert slots[4:8] == [Slot(HAND, 0), Slot(HAND, 1), Slot(HAND, 2), Slot(HAND, 3)]
    assert slots[8] == Slot(WIN) and slots[3] == Slot(INDICATOR)


def test_after_a_tile_is_added_by_hand_the_hand_boxes_keep_no_guessed_link() -> None:
    detections, assignment, hand, entries, melds = photo()
    slots = photo_slots(assignment, detections, [*hand, "9m"], melds)
    assert slots[4:8] == [None] * 4 and slots[8] == Slot(WIN)


def test_a_palette_tap_replaces_the_picked_tile_wherever_it_is() -> None:
    _, _, hand, entries, melds = photo()
    assert replace(Slot(HAND, 2), "3p", hand, entries, melds) and hand == ["1m", "2m", "3p", "4p"]
    assert replace(Slot(WIN), "6s", hand, entries, melds) and entries["win_tile"] == "6s"
    assert replace(Slot(INDICATOR), "1z", hand, entries, melds) and entries["indicator"] == "1z"
    assert replace(Slot(MELD, 1, 1), "6z", hand, entries, melds) and melds[1]["tiles"] == "677z"  # kept in tile order
    assert code_at(Slot(MELD, 0, 1), hand, entries, melds) == "6z"
    assert not replace(Slot(HAND, 9), "1m", hand, entries, melds)


def test_set_as_winning_tile_takes_it_out_of_the_hand_and_puts_the_old_one_back() -> None:
    hand, entries = ["1m", "2m", "3m"], {"win_tile": "9p"}
    assert set_win(Slot(HAND, 1), hand, entries)
    assert hand == ["1m", "9p", "3m"] and entries["win_tile"] == "2m"
    hand, entries = ["1m", "2m", "3m"], {}
    assert set_win(Slot(HAND, 2), hand, entries) and hand == ["1m", "2m"] and entries["win_tile"] == "3m"


def test_set_as_indicator_of_a_tile_read_into_a_full_hand_takes_it_out() -> None:
    hand = ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m", "5z"]
    entries: dict = {"win_tile": "4m"}  # 14 + the winning tile: one too many, the 白 is the indicator
    assert set_indicator(Slot(HAND, 13), hand, entries, [], 0)
    assert entries["indicator"] == "5z" and len(hand) == 13 and "5z" not in hand


def test_set_as_indicator_of_a_tile_in_a_right_sized_hand_only_names_the_kind() -> None:
    hand, entries = ["1m", "2m", "3m", "4m"], {"win_tile": "4m"}
    assert set_indicator(Slot(HAND, 0), hand, entries, [], 3)  # 4 + 1 + 3×3 = 14
    assert entries["indicator"] == "1m" and hand == ["1m", "2m", "3m", "4m"]


def test_unsure_boxes_mark_their_tiles_in_the_row() -> None:
    detections, assignment, hand, _, melds = photo()
    assert unsure_slots(photo_slots(assignment, detections, hand, melds), detections) == {Slot(HAND, 2)}


def test_a_hand_tile_set_as_winning_tile_keeps_its_box_linked_to_the_winning_place() -> None:
    detections, assignment, _, _, melds = photo()
    roles = [r for r in assignment.tiles if r.role == "hand"]  # a photo of the hand only: no 胡, no 精 read
    only_hand = Assignment(tiles=roles, hand=["1m", "2m", "6p", "4p"])
    hand, entries = ["1m", "2m", "6p", "4p"], {}
    assert set_win(Slot(HAND, 1), hand, entries)
    slots = photo_slots(only_hand, detections, hand, melds, entries)
    assert slots[4:8] == [Slot(HAND, 0), Slot(WIN), Slot(HAND, 1), Slot(HAND, 2)]
    assert [box_number(s, row(hand, entries)) for s in slots[4:8]] == ["1", "4", "2", "3"]


def test_which_read_tile_left_the_hand() -> None:
    from app.tile_edit import hand_tile_taken_out

    assert hand_tile_taken_out(["1m", "2m", "3m"], ["1m", "3m"]) == 1
    assert hand_tile_taken_out(["5z", "5z"], ["5z"]) == 1  # equal tiles: the last
    assert hand_tile_taken_out(["1m", "2m"], ["1m", "2m"]) is None
