"""Tiles alike side by side (blank 白板 most often) are counted by their span, not by the detector's boxes
(`vision.reader.runs`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.reader.detection import Detection
from vision.reader.detector import tile_confidence
from vision.reader.gaps import GAP_BOX_SCORE
from vision.reader.runs import counted_runs

TW, TH = 40.0, 64.0
RGB = np.zeros((100, 800, 3), np.uint8)


def tile(x1: float, x2: float, code: str, conf: float = 0.8, p: float = 0.95) -> Detection:
    return Detection((x1, 20.0, x2, 20.0 + TH), code, conf, ((code, p), ("back", 0.01)))


def row(blank_boxes: list[tuple[float, float]], code: str = "5z") -> list[Detection]:
    """1m 2m 3m 4m touching at a 40-px pitch, then the blanks' (or `code`'s) boxes as given, then 6s 7s."""
    dets = [tile(10 + i * TW, 10 + (i + 1) * TW, c) for i, c in enumerate(("1m", "2m", "3m", "4m"))]
    dets += [tile(x1, x2, code, conf=0.5, p=0.6) for x1, x2 in blank_boxes]
    end = 170 + 3 * TW
    return dets + [tile(end + i * TW, end + (i + 1) * TW, c) for i, c in enumerate(("6s", "7s"))]


def namer(answer: tuple[tuple[str, float], ...]):
    asked: list[tuple[float, ...]] = []

    def name(rgb: np.ndarray, boxes: list) -> list:
        asked.extend(boxes)
        return [answer for _ in boxes]

    name.asked = asked  # type: ignore[attr-defined]
    return name


def test_three_blanks_boxed_as_two_wide_boxes_are_three_the_one_more_held_back() -> None:
    # three 白板 lie at 170–290; the detector drew two boxes, each half a tile wider than a tile, no hole between
    dets = row([(172, 228), (230, 288)])
    out = counted_runs(RGB, dets, namer((("5z", 0.55), ("back", 0.05))))
    blanks = [d for d in out if d.tile == "5z"]
    assert len(out) == len(dets) + 1 and len(blanks) == 3
    assert [round(d.box[0]) for d in blanks] == [172, 211, 249] and np.allclose([d.width for d in blanks], 116 / 3)
    assert sorted(d.conf for d in blanks) == sorted([0.5, 0.5, tile_confidence(GAP_BOX_SCORE, 0.55)])
    assert max(d.conf for d in blanks[2:]) < 0.25  # the tile more is held back by the layout


def test_blanks_boxed_one_by_one_or_named_otherwise_stay_as_they_are() -> None:
    two = row([(170, 210), (210, 250)])  # two 白板 each boxed as itself: their span holds two
    name = namer((("5z", 0.9),))
    assert counted_runs(RGB, two, name) == two and name.asked == []
    dets = row([(172, 228), (230, 288)])  # room for three, but the classifier sees no 白板 at every place
    assert counted_runs(RGB, dets, namer((("back", 0.7),))) == dets
    apart = row([(172, 228)]) + [tile(300, 356, "5z", conf=0.5, p=0.6)]  # not touching: no run
    assert counted_runs(RGB, apart, namer((("5z", 0.9),))) == apart


def test_three_of_any_tile_boxed_as_two_wide_boxes_are_three() -> None:
    """Three 二筒 side by side boxed as two boxes each half a tile wider than the rest (as three 二萬 were on composed
    tuning photo s34_tuning_one_row_000, 2026-12-06); the row's pitch is measured on the other tiles, not the wide ones."""
    dets = row([(172, 228), (230, 288)], code="2p")
    out = counted_runs(RGB, dets, namer((("2p", 0.8), ("3p", 0.05))))
    assert len(out) == len(dets) + 1 and sorted(d.conf for d in out if d.tile == "2p")[0] < 0.25
    assert counted_runs(RGB, dets, namer((("3p", 0.8),))) == dets  # a place the classifier names otherwise: as boxed


def test_a_blank_boxed_alone_and_two_more_boxed_as_one_wide_box_are_three() -> None:
    """Three 白板 at 170–290: the first boxed as itself, the other two as one box wider than tall but as tall as a tile.
    The wide box joins the run; a box as low as a tile lying sideways does not."""
    dets = row([(170, 210), (210, 290)])
    out = counted_runs(RGB, dets, namer((("5z", 0.55), ("back", 0.05))))
    assert len([d for d in out if d.tile == "5z"]) == 3
    lying = [*dets[:5], Detection((210.0, 20.0 + TH - TW, 290.0, 20.0 + TH), "5z", 0.5, (("5z", 0.6),)), *dets[6:]]
    assert counted_runs(RGB, lying, namer((("5z", 0.9),))) == lying


def test_two_blanks_boxed_as_one_box_beside_a_standing_tile_are_two() -> None:
    """Two 白板 at 170–250 after the 4萬, boxed as one box wider than tall but as tall as the 4萬 beside it: a run of its
    own, parted in two. A box as low as a tile lying sideways (a claimed tile), or one as tall lying alone, is not."""
    dets = row([(172, 248)])
    out = counted_runs(RGB, dets, namer((("5z", 0.55), ("back", 0.05))))
    blanks = [d for d in out if d.tile == "5z"]
    assert len(blanks) == 2 and [round(d.box[0]) for d in blanks] == [172, 210]
    lying = row([])[:4] + [Detection((172.0, 20.0 + TH - TW, 248.0, 20.0 + TH), "5z", 0.5, (("5z", 0.6),))]
    assert counted_runs(RGB, lying, namer((("5z", 0.9),))) == lying
    alone = row([])[:4] + [tile(260, 336, "5z", conf=0.5, p=0.6)]  # half a tile and more from the 4萬: no neighbour
    assert counted_runs(RGB, alone, namer((("5z", 0.9),))) == alone


def table(blank_face: tuple[int, int] = (170, 290)) -> np.ndarray:
    """A photo of the row on green cloth: every tile's face white (the others with a dark mark in the middle), the
    white 白板 faces lying at `blank_face`, a thin grey line where two tiles touch."""
    rgb = np.zeros((100, 800, 3), np.uint8)
    rgb[:] = (40, 140, 60)
    rgb[20:84, 10:170] = rgb[20:84, 290:370] = (235, 235, 228)
    rgb[20:84, blank_face[0]:blank_face[1]] = (235, 235, 228)
    for x in range(10, 370, 40):
        rgb[20:84, x:x + 2] = (150, 150, 150)
        if not 170 <= x < 290:
            rgb[40:64, x + 12:x + 28] = (30, 30, 120)
    return rgb


def test_three_blanks_whose_boxes_stop_short_of_the_blank_face_are_three() -> None:
    """Three 白板 at 170–290, boxed as the first alone and the second with a little of the third: the boxes span 2.3
    tiles, but the white face runs on to the third's end (composed tuning photos s21_tuning_two_rows_013,
    s8_tuning_two_rows_090). On cloth where the face ends with the boxes, they stay two."""
    dets = row([(170, 210), (212, 262)])
    out = counted_runs(table(), dets, namer((("5z", 0.6), ("back", 0.05))))
    blanks = [d for d in out if d.tile == "5z"]
    assert len(blanks) == 3 and [round(d.box[0]) for d in blanks] == [170, 210, 250] and round(blanks[-1].box[2]) == 290
    assert sorted(d.conf for d in blanks)[0] < 0.25  # the tile more is held back by the layout
    two = row([(170, 210), (212, 250)])  # two 白板 on the cloth: the third place is green
    assert counted_runs(table((170, 250)), two, namer((("5z", 0.9),))) == two
    assert counted_runs(RGB, dets, namer((("5z", 0.9),))) == dets  # face and cloth alike (a black photo): as boxed


def test_two_blank_boxes_with_blank_face_between_them_are_one_run() -> None:
    """Three 白板 at 170–290 boxed as the first and the third, a strip of the second's face unboxed between them, too
    narrow for a gap tile (s103_tuning_one_row_060): one run of three. Cloth between them parts them."""
    dets = row([(170, 212), (234, 290)])
    out = counted_runs(table(), dets, namer((("5z", 0.6), ("back", 0.05))))
    assert len([d for d in out if d.tile == "5z"]) == 3
    apart = table()
    apart[20:84, 212:234] = (40, 140, 60)
    assert counted_runs(apart, dets, namer((("5z", 0.9),))) == dets


def test_a_blank_boxed_shifted_half_over_its_neighbour_is_boxed_again_in_its_place() -> None:
    """Three 白板 at 170–290 boxed three times, the middle box shifted half a tile onto the third and named 白板 at 0.05
    (composed tuning photo s97_tuning_two_rows_063, 2026-12-06): the layout took a faint box of another tile instead.
    The run is parted evenly and named again: the middle one surely 白板 in its own place. Where the classifier does not
    name every place 白板, the boxes stay as they were."""
    dets = row([(170, 210), (222, 262), (250, 290)])
    dets = [replace(d, alternatives=(("5z", 0.05), ("1s", 0.02))) if d.box[0] == 222 else d for d in dets]
    out = counted_runs(table(), dets, namer((("5z", 0.9), ("back", 0.02))))
    blanks = [d for d in out if d.tile == "5z"]
    assert [round(d.box[0]) for d in blanks] == [170, 210, 250] and all(d.named_prob == 0.9 for d in blanks)
    assert counted_runs(table(), dets, namer((("back", 0.7),))) == dets


def test_a_blank_boxed_alone_in_a_row_beside_more_blank_face_is_two() -> None:
    """Two 白板 after the 4萬, the first boxed, the second not (composed tuning photo s113_tuning_one_row_017): the white
    face runs on 1.65 tiles from the box's left end, the tile more held back. A 白板 boxed alone off the row, beside a
    light wall as white as its face (s103_tuning_one_row_058), is no run; nor is one whose face ends with its box."""
    dets = row([(170, 212)])  # past the seam's grey line at 210
    out = counted_runs(table((170, 236)), dets, namer((("5z", 0.6), ("back", 0.05))))
    blanks = [d for d in out if d.tile == "5z"]
    assert len(blanks) == 2 and sorted(d.conf for d in blanks)[0] < 0.25  # the tile more is held back by the layout
    assert counted_runs(table((170, 212)), dets, namer((("5z", 0.9),))) == dets
    wall = table((170, 236))
    wall[:, 500:620] = (235, 235, 228)
    lone = [*dets, tile(520, 560, "5z", conf=0.5, p=0.6)]
    assert [d for d in counted_runs(wall, lone, namer((("5z", 0.9),))) if d.box[0] >= 500] == lone[-1:]
