"""`vision.reader.stacked`: tile face above the middle of three alike (a kong's fourth tile lying on it)."""

from __future__ import annotations

import numpy as np

from vision.reader.detection import Detection
from vision.reader.stacked import FaceAbove, alike_triples, face_above_row

CLOTH, FACE = (40, 110, 60), (235, 230, 215)
TW, TH = 40, 54


def table(stacked: bool, row_above: bool = False) -> tuple[np.ndarray, list[Detection]]:
    """Green cloth, a row of 1m 2m 3m then three 5s (boxed as three tiles), the middle 5s with a fourth lying on it,
    a third of a tile higher, when `stacked`; `row_above`: another row of tiles just above the whole row."""
    rgb = np.zeros((240, 420, 3), np.uint8)
    rgb[:] = CLOTH
    y = 120
    codes = ["1m", "2m", "3m", "5s", "5s", "5s"]
    dets = []
    for i, code in enumerate(codes):
        x = 20 + i * (TW + 2)
        rgb[y : y + TH, x : x + TW] = FACE
        dets.append(Detection((float(x), float(y), float(x + TW), float(y + TH)), code, 0.9, ((code, 0.95),)))
    if stacked:
        x = 20 + 4 * (TW + 2)
        rgb[y - TH // 3 : y + TH - TH // 3, x : x + TW] = FACE
    if row_above:
        rgb[y - TH - 4 : y - 4, 20 : 20 + 6 * (TW + 2)] = FACE
    return rgb, dets


def test_a_stacked_tile_shows_face_above_the_middle_one_and_none_above_its_neighbours() -> None:
    rgb, dets = table(stacked=True)
    faced = FaceAbove(rgb)(dets)
    assert faced[4].face_above > 0.9
    assert [d.face_above for i, d in enumerate(faced) if i != 4] == [0.0] * 5  # the ends lack a neighbour, 1m–3m differ


def test_a_pung_or_a_row_of_tiles_above_shows_no_more_face_over_the_middle_one() -> None:
    for rgb, dets in (table(stacked=False), table(stacked=False, row_above=True)):
        assert all(d.face_above == 0.0 for d in FaceAbove(rgb)(dets))
    rgb, dets = table(stacked=True, row_above=True)  # tile face over all three: nothing tells the stack apart
    assert abs(FaceAbove(rgb)(dets)[4].face_above) < 0.2


def test_only_three_read_alike_side_by_side_are_looked_at() -> None:
    rgb, dets = table(stacked=True)
    assert [i for i, _, _ in alike_triples(dets)] == [4]
    mixed = [*dets[:4], Detection(dets[4].box, "6s", 0.9), dets[5]]
    assert not alike_triples(mixed) and FaceAbove(rgb)(mixed) == mixed
    assert face_above_row(rgb, (np.array([240.0, 128, 135]), np.array([100.0, 90, 150])), mixed)[4] == 0.0


def test_boxes_asked_to_be_kept_stay_the_very_same_objects() -> None:
    rgb, dets = table(stacked=True)
    kept = FaceAbove(rgb)(dets, keep=lambda d: d is dets[4])
    assert kept[4] is dets[4] and kept == dets


def test_a_tile_of_its_own_just_above_the_middle_one_is_no_stacked_tile() -> None:
    """The indicator set down just above a 碰's middle tile shows face there too, but the detector boxed it alone."""
    rgb, dets = table(stacked=True)  # the drawn face above the middle 5s, now boxed as a tile of its own
    x1, y1, x2, _ = dets[4].box
    indicator = Detection((x1, y1 - TH // 3 - 2, x2, y1 - 2), "9m", 0.8, (("9m", 0.9),))
    faced = FaceAbove(rgb)([*dets, indicator])
    assert faced[4].face_above == 0.0


def test_a_stacked_kong_of_darker_tiles_than_the_rest_is_told_by_its_own_face_colour() -> None:
    """Tiles lit unevenly: the kong's three and the tile on them lie in shade, darker than the photo's other faces
    and nearer the cloth's lightness than theirs; their own top margins give the face colour looked for above them."""
    rgb, dets = table(stacked=True)
    shade = (150, 148, 140)
    for d in dets[3:]:
        x1, y1, x2, y2 = (int(v) for v in d.box)
        rgb[y1:y2, x1:x2] = shade
    x1, y1, x2, _ = (int(v) for v in dets[4].box)
    rgb[y1 - TH // 3 : y1, x1:x2] = shade  # the stacked tile's part above the row
    cloth = np.array([100.0, 90, 150])
    bright = np.array([240.0, 128, 135])  # the photo's faces, as `lone.face_and_cloth` learns them
    assert face_above_row(rgb, (bright, cloth), dets)[4] > 0.9
    rgb, dets = table(stacked=False)
    for d in dets[3:]:
        x1, y1, x2, y2 = (int(v) for v in d.box)
        rgb[y1:y2, x1:x2] = shade
    assert face_above_row(rgb, (bright, cloth), dets)[4] == 0.0
