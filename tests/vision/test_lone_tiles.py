"""A tile the detector never boxed, lying alone, is found by its face colour (`vision.reader.lone`)."""

from __future__ import annotations

import numpy as np

from vision.reader import lone
from vision.reader.detection import Detection
from vision.reader.lone import face_mask, lone_tiles

CLOTH, FACE, INK = (40, 120, 60), (232, 230, 214), (30, 40, 120)
TW, TH = 40, 54


def photo(lone: tuple[int, int, int, int] | None = (300, 30, 300 + TW, 30 + TH), cloth=CLOTH) -> tuple[np.ndarray, list[Detection]]:
    """A 800 × 300 photo of cloth with a row of six tiles (boxed) along its bottom and, maybe, a lone tile
    (not boxed); each face carries an ink mark, as a tile's symbol."""
    rgb = np.zeros((300, 800, 3), np.uint8)
    rgb[:] = cloth
    dets = []
    faces = [(100 + i * TW, 200, 100 + (i + 1) * TW, 200 + TH) for i in range(6)]
    for i, (x1, y1, x2, y2) in enumerate(faces):
        rgb[y1 + 1 : y2 - 1, x1 + 1 : x2 - 1] = FACE
        dets.append(Detection((x1, y1, x2, y2), f"{i + 1}m", 0.8, ((f"{i + 1}m", 0.95),)))
    if lone:
        x1, y1, x2, y2 = lone
        rgb[y1:y2, x1:x2] = FACE
    for x1, y1, x2, y2 in [*faces, *([lone] if lone else [])]:
        rgb[y1 + 15 : y2 - 15, x1 + 12 : x2 - 12] = INK
    return rgb, dets


def namer(answer):
    asked = []

    def name(rgb, boxes):
        asked.extend(boxes)
        return [answer for _ in boxes]

    name.asked = asked
    return name


def test_a_lone_indicator_no_box_covers_is_found_where_it_lies_and_named() -> None:
    rgb, dets = photo()
    found = lone_tiles(rgb, dets, namer((("7z", 0.93), ("1s", 0.01))))
    assert [d.tile for d in found] == ["7z"]
    x1, y1, x2, y2 = found[0].box
    assert abs(x1 - 300) <= 3 and abs(y1 - 30) <= 3 and abs(x2 - 340) <= 3 and abs(y2 - 84) <= 3
    assert found[0].conf < 0.25  # held back: taken in only when the round lacks a tile


def test_a_patch_the_classifier_does_not_surely_name_a_face_is_left_out() -> None:
    rgb, dets = photo()
    for answer in ((("7z", 0.45), ("6z", 0.4)), (("none", 0.95),), (("back", 0.95),)):
        assert lone_tiles(rgb, dets, namer(answer)) == []
    # a tile alone on a cloth unlike any the classifier saw is named less surely than one in a row: still a tile
    assert [d.tile for d in lone_tiles(rgb, dets, namer((("7z", 0.55), ("6z", 0.2))))] == ["7z"]


def test_nothing_is_proposed_without_a_lone_patch_or_where_a_box_lies() -> None:
    rgb, dets = photo(lone=None)
    name = namer((("7z", 0.99),))
    assert lone_tiles(rgb, dets, name) == [] and name.asked == []  # the boxed row itself is never proposed
    rgb, dets = photo()
    boxed = [*dets, Detection((298.0, 28.0, 342.0, 86.0), "7z", 0.2, (("7z", 0.9),))]
    assert lone_tiles(rgb, boxed, name) == [] and name.asked == []


def test_a_patch_far_larger_than_a_tile_is_no_tile() -> None:
    rgb, dets = photo(lone=None)
    rgb[20:120, 300:500] = FACE  # a sheet of paper on the table
    name = namer((("5z", 0.99),))
    assert lone_tiles(rgb, dets, name) == [] and name.asked == []


def test_a_tile_on_cloth_of_its_own_colour_without_an_outline_to_see_is_not_proposed() -> None:
    rgb, dets = photo(cloth=(225, 225, 210))
    assert face_mask(rgb, dets) is None  # no patch by colour, and the faces' edges are too faint for an outline
    name = namer((("7z", 0.99),))
    assert lone_tiles(rgb, dets, name) == [] and name.asked == []


def rimmed(rgb: np.ndarray, box: tuple[int, int, int, int]) -> None:
    """Draws a tile's rim round `box`: a grey edge, and its shadow along the right and bottom sides."""
    x1, y1, x2, y2 = box
    rgb[y1 : y1 + 2, x1:x2] = rgb[y1:y2, x1 : x1 + 2] = (185, 185, 175)
    rgb[y2 - 3 : y2, x1:x2] = rgb[y1:y2, x2 - 3 : x2] = (120, 120, 110)


def test_a_blank_tile_on_cloth_of_its_own_colour_is_found_by_its_outline() -> None:
    """A 白板 above the hand on a white table: face and cloth alike, so no patch by colour; its rim and shadow close
    round it, and the classifier names it."""
    lone = (300, 30, 300 + TW, 30 + TH)
    rgb, dets = photo(lone=None, cloth=(225, 225, 210))
    x1, y1, x2, y2 = lone
    rgb[y1:y2, x1:x2] = FACE  # blank: no ink
    rimmed(rgb, lone)
    assert face_mask(rgb, dets) is None
    found = lone_tiles(rgb, dets, namer((("5z", 0.9), ("back", 0.03))))
    assert [d.tile for d in found] == ["5z"] and found[0].conf < 0.25
    assert all(abs(a - b) <= 4 for a, b in zip(found[0].box, lone))


def test_a_tile_touching_a_line_of_the_table_is_found_inside_the_ring_they_make() -> None:
    """A light wall behind the row, its foot a dark line the lone tile touches: by colour the tile is part of the wall
    (a patch far larger than a tile); its outline, joined to the line, still closes round it."""
    lone = (300, 30, 300 + TW, 30 + TH)
    rgb, dets = photo(lone=None)
    rgb[:100] = (236, 234, 220)  # the wall, face-coloured
    rgb[28:31] = (60, 60, 60)  # its foot, touching the tile's top
    x1, y1, x2, y2 = lone
    rgb[y1 + 15 : y2 - 15, x1 + 12 : x2 - 12] = INK
    rimmed(rgb, lone)
    found = lone_tiles(rgb, dets, namer((("7z", 0.93), ("1s", 0.01))))
    assert [d.tile for d in found] == ["7z"]
    assert sum(abs(a - b) for a, b in zip(found[0].box, lone)) <= 16


def light_part(rgb: np.ndarray, box: tuple[int, int, int, int]) -> None:
    """Paints a light part of the table (an automatic table's white ring): face-coloured, with dark stripes on it."""
    x1, y1, x2, y2 = box
    rgb[y1:y2, x1:x2] = (240, 240, 236)
    for x in range(x1 + 6, x2 - 3, 14):
        rgb[y1 + 8 : y2 - 8, x : x + 3] = (70, 70, 70)


def placed_namer(tile: tuple[int, int, int, int], answer, elsewhere=(("none", 0.9), ("5z", 0.05))):
    """A classifier naming `answer` on a window lying over `tile` (IoU 0.6 or more), and `elsewhere` on any other."""
    from vision.reader.boxes import box_iou

    asked = []

    def name(rgb, boxes):
        asked.extend(boxes)
        return [answer if box_iou(b, tile) >= 0.6 else elsewhere for b in boxes]

    name.asked = asked
    return name


LONE = (300, 30, 300 + TW, 30 + TH)


def on_a_light_part() -> tuple[np.ndarray, list[Detection]]:
    """The photo with its lone tile lying on the edge of a light, striped part of the table, one patch with it."""
    rgb, dets = photo(lone=None)
    light_part(rgb, (200, 40, 300, 120))
    x1, y1, x2, y2 = LONE
    rgb[y1:y2, x1:x2] = FACE
    rgb[y1 + 15 : y2 - 15, x1 + 12 : x2 - 12] = INK
    return rgb, dets


def test_a_tile_lying_on_a_light_part_of_the_table_is_found_in_a_window_of_its_patch() -> None:
    """The indicator on an automatic table's white ring: by colour it is one patch with the ring, larger than a tile;
    windows of a tile's size over the patch are named, and the one over the tile is kept."""
    rgb, dets = on_a_light_part()
    name = placed_namer(LONE, (("7p", 0.95), ("9p", 0.02)))
    found = lone_tiles(rgb, dets, name)
    assert [d.tile for d in found] == ["7p"] and found[0].conf < 0.25  # held back, as every lone tile is
    assert all(abs(a - b) <= 0.25 * TH for a, b in zip(found[0].box, LONE))
    assert 1 < len(name.asked) <= lone.MOST_WINDOWS


def test_a_window_named_unsurely_or_blank_is_no_tile() -> None:
    rgb, dets = on_a_light_part()
    for answer in ((("7p", 0.7), ("9p", 0.2)), (("5z", 0.97),), (("none", 0.9),)):
        assert lone_tiles(rgb, dets, placed_namer(LONE, answer)) == []


def test_the_surest_window_of_a_patch_is_its_one_tile() -> None:
    """Every window round the tile names a tile; only the surest is kept, one tile a patch."""
    rgb, dets = on_a_light_part()
    name = placed_namer(LONE, (("7p", 0.97),), elsewhere=(("7p", 0.85),))
    found = lone_tiles(rgb, dets, name)
    assert len(found) == 1 and found[0].alternatives[0] == ("7p", 0.97)
    assert all(abs(a - b) <= 0.25 * TH for a, b in zip(found[0].box, LONE))


def test_a_large_light_part_is_looked_at_in_few_windows() -> None:
    """A striped light part many tiles large (no tile on it) costs at most `MOST_WINDOWS` crops to name."""
    rgb, dets = photo(lone=None)
    light_part(rgb, (150, 10, 650, 150))  # 500 × 140: 32 tiles' area
    name = placed_namer(LONE, (("7p", 0.95),))
    assert lone_tiles(rgb, dets, name) == []
    assert 0 < len(name.asked) <= lone.MOST_WINDOWS
