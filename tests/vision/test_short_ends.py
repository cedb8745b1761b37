"""`vision.reader.short_ends`: a box ending short of its tile along the row is grown over the face it left out."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.reader.detection import Detection
from vision.reader.short_ends import face_share, gaps_between, reach_the_face

CLOTH, FACE, ORANGE = (40, 110, 60), (235, 230, 215), (210, 140, 60)
TW, TH = 40, 54
Y = 120


def box(x1: float, y1: float, x2: float, y2: float, code: str) -> Detection:
    return Detection((float(x1), float(y1), float(x2), float(y2)), code, 0.8, ((code, 0.9),))


def table() -> tuple[np.ndarray, list[Detection]]:
    """Green cloth; 1m 2m 3m standing side by side, a true gap of 0.4 tile, then a 吃 4s 5s 6s whose 5s lies sideways
    (a tile's height long, its width high, bottom in line), boxed by the detector with a standing tile's shape: short
    of its right end, so that the 5s box and the 6s box seem 0.6 of a tile apart."""
    rgb = np.zeros((240, 420, 3), np.uint8)
    rgb[:] = CLOTH
    dets = []
    for x, code in ((20, "1m"), (62, "2m"), (104, "3m"), (160, "4s"), (258, "6s")):
        rgb[Y : Y + TH, x : x + TW] = FACE
        dets.append(box(x, Y, x + TW, Y + TH, code))
    rgb[Y + TH - TW : Y + TH, 202 : 202 + TH] = FACE  # the claimed 5s, lying
    dets.insert(4, box(202, Y + 8, 234, Y + TH, "5s"))  # boxed short: 32 long, 46 high
    return rgb, dets


def test_a_claimed_tile_boxed_short_is_grown_over_its_face_to_the_next_tile() -> None:
    rgb, dets = table()
    assert [(dets[i].tile, dets[j].tile) for i, j in gaps_between(dets)] == [("3m", "4s"), ("5s", "6s")]
    assert face_share(rgb, dets[4], dets[5]) > 0.9 and face_share(rgb, dets[2], dets[3]) == 0.0
    out = reach_the_face(rgb, dets)
    assert out[4].box == (202.0, Y + 8.0, 258.0, float(Y + TH)) and out[4].tile == "5s"  # the lower box, to the 6s
    assert [d for k, d in enumerate(out) if k != 4] == [d for k, d in enumerate(dets) if k != 4]  # the true gap stays


def test_a_gap_showing_something_else_than_the_cloth_is_no_face() -> None:
    """An orange thing lies behind the row at its true gap and below it: nearer the tiles' ivory than the green cloth
    is, but it is what lies below the gap, not a tile's face."""
    rgb, dets = table()
    rgb[Y + 10 :, 146:158] = ORANGE
    assert face_share(rgb, dets[2], dets[3]) == 0.0
    assert reach_the_face(rgb, dets)[:4] == dets[:4]


def test_tiles_as_high_as_each_other_are_not_grown_however_their_gap_looks() -> None:
    """Two standing tiles touching, boxed tight: the face between them belongs to either; neither is grown."""
    rgb, dets = table()
    rgb[Y : Y + TH, 60:62] = FACE
    tight = [box(20, Y, 52, Y + TH, "1m"), box(70, Y, 102, Y + TH, "2m"), *dets[2:]]
    assert face_share(rgb, tight[0], tight[1]) > 0.9
    assert reach_the_face(rgb, tight)[:2] == tight[:2]


def test_a_gap_as_wide_as_a_tile_is_left_to_the_gap_filling() -> None:
    """Face a whole tile wide between two boxes is a tile the detector missed (`gaps.gap_tiles`), not a short box."""
    rgb, dets = table()
    missed = [d for d in dets if d.tile != "2m"]
    assert (0, 1) not in gaps_between(missed)
    assert reach_the_face(rgb, missed)[0] == missed[0]


def test_a_gap_inside_a_wall_of_tiles_is_not_judged() -> None:
    """Tiles in a tray lie in rows touching above and below: just above and below a gap there is more tile face, not
    the cloth, and a tight box beside it says nothing of a tile lying sideways (CMD v4 `valid`, 2026-12-05: without
    this, 19 boxes of its 296 photos were grown, nearly all wrongly, most in trays and heaps; with it, 5)."""
    rgb, dets = table()
    shaded = (222, 216, 200)  # their faces a little darker in the tray's shade
    rgb[Y - TH - 2 : Y - 2, 10:320] = shaded  # a row of tiles just above …
    rgb[Y + TH + 2 : Y + 2 * TH + 2, 10:320] = shaded  # … and just below
    assert face_share(rgb, dets[4], dets[5]) == 0.0
    assert reach_the_face(rgb, dets) == dets


def test_a_box_the_reading_leaves_out_does_not_stand_in_the_gap() -> None:
    """The claimed 5s's far end is boxed too, faintly (0.09, named 二條), touching the short box: among every box that
    end is the short box's neighbour and no gap shows. The reading leaves it out (under `conf`), so the short box is
    grown to the 6s as when it is not there (`s199_tuning_one_row_048`: a 吃's sideways 六筒 and its 五筒 read apart)."""
    rgb, dets = table()
    far_end = Detection((236.0, Y + 10.0, 252.0, float(Y + TH)), "2s", 0.09, (("2s", 0.3),))
    with_end = [*dets[:5], far_end, dets[5]]
    assert reach_the_face(rgb, with_end)[4] == dets[4]  # every box counted: the faint end closes the gap
    out = reach_the_face(rgb, with_end, conf=0.25)
    assert out[4].box == (202.0, Y + 8.0, 258.0, float(Y + TH)) and out[4].tile == "5s"


def test_a_short_box_the_reading_leaves_out_is_grown_too() -> None:
    """A claimed tile boxed short and faintly (0.2) is grown all the same: the deeper reading may take it."""
    rgb, dets = table()
    faint = [*dets[:4], replace(dets[4], conf=0.2), dets[5]]
    assert reach_the_face(rgb, faint, conf=0.25)[4].box == (202.0, Y + 8.0, 258.0, float(Y + TH))


class GrownNamer:
    """Names every place 五條 at `p`."""

    def __init__(self, p: float, tile: str = "5s") -> None:
        self.p, self.tile = p, tile

    def __call__(self, rgb: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> list[tuple[tuple[str, float], ...]]:
        return [((self.tile, self.p), ("7s", 0.01)) for _ in boxes]


def test_a_grown_box_is_named_again_and_takes_the_surer_tile() -> None:
    """A claimed 六筒 boxed over its one end was named 七筒 at 0.22; grown over its whole face it is named 六筒 surely.
    The tile stays as named when the grown box is named less surely, or as no tile."""
    rgb, dets = table()
    misnamed = [*dets[:4], Detection(dets[4].box, "7s", 0.3, (("7s", 0.22),)), dets[5]]
    out = reach_the_face(rgb, misnamed, name=GrownNamer(0.9))
    assert out[4].tile == "5s" and out[4].box == (202.0, Y + 8.0, 258.0, float(Y + TH))
    assert out[4].conf > misnamed[4].conf  # the box's own score is kept, the class probability is the new one
    assert out[:4] + out[5:] == misnamed[:4] + misnamed[5:]  # only grown boxes are named again
    assert reach_the_face(rgb, misnamed, name=GrownNamer(0.2))[4].tile == "7s"
    assert reach_the_face(rgb, misnamed, name=GrownNamer(0.9, "none"))[4].tile == "7s"
