"""A tile the detector boxed as two halves is read whole (`vision.reader.halves`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.reader import detector
from vision.reader.detection import Detection
from vision.reader.detector import whole_over_part
from vision.reader.halves import grown_tiles, whole_tiles

TW, TH = 40.0, 54.0
RGB = np.zeros((200, 600, 3), np.uint8)


def tile(x: float, code: str, y: float = 20.0, w: float = TW, h: float = TH, p: float = 0.95) -> Detection:
    return Detection((x, y, x + w, y + h), code, 0.8, ((code, p), ("1m", 0.01)))


def row_with_a_halved_4p() -> list[Detection]:
    """1m 2m 3m, then a 4筒 boxed as its top and bottom pair of circles (each named 2筒), then 5s 6s."""
    x = 10.0
    dets = [tile(x + i * TW, c) for i, c in enumerate(("1m", "2m", "3m"))]
    x += 3 * TW
    dets += [tile(x, "2p", h=TH / 2), tile(x, "2p", y=20 + TH / 2, h=TH / 2)]
    dets += [tile(x + TW + i * TW, c) for i, c in enumerate(("5s", "6s"))]
    return dets


def namer(answers: dict[tuple[int, int], tuple[tuple[str, float], ...]]):
    """A classifier that names a box by its rounded (x1, y1), and records what it was asked."""
    asked: list[tuple[float, ...]] = []

    def name(rgb: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> list[tuple[tuple[str, float], ...]]:
        asked.extend(boxes)
        return [answers.get((round(b[0]), round(b[1])), (("none", 0.9),)) for b in boxes]

    name.asked = asked  # type: ignore[attr-defined]
    return name


def whole_box(dets: list[Detection]) -> np.ndarray:
    """The detector's own weak box over the 4筒, looser than the tile."""
    return np.array([[dets[3].box[0] - 6, dets[3].box[1] - 8, dets[3].box[2] + 6, dets[4].box[3] + 8]])


def test_two_half_boxes_named_2p_become_the_4p_they_are_halves_of() -> None:
    dets = row_with_a_halved_4p()
    out = whole_tiles(RGB, dets, whole_box(dets), np.array([0.07]), namer({(130, 20): (("4p", 0.9), ("2p", 0.05))}))
    assert sorted(d.tile for d in out) == ["1m", "2m", "3m", "4p", "5s", "6s"]
    four = next(d for d in out if d.tile == "4p")
    assert four.box == (130.0, 20.0, 170.0, 74.0)  # the halves' union, not the detector's looser box
    assert 0.25 <= four.conf <= 1.0 and four.alternatives[0] == ("4p", 0.9)


def test_a_standing_tile_boxed_as_its_top_and_bottom_each_named_as_it_is_one_tile() -> None:
    """A standing 八條 boxed as its top and bottom half, each half named 八條 too (the sticks of a half look like the
    tile): one above the other they are no two tiles, and a 碰 of them is no kong (composed tuning photo). Two boxes
    side by side named as their union stay two tiles."""
    dets = [d if d.tile != "2p" else Detection(d.box, "8s", d.conf, (("8s", 0.9),)) for d in row_with_a_halved_4p()]
    out = whole_tiles(RGB, dets, whole_box(dets), np.array([0.07]), namer({(130, 20): (("8s", 0.97),)}))
    assert sorted(d.tile for d in out) == ["1m", "2m", "3m", "5s", "6s", "8s"]
    beside = [*dets[:3], tile(130, "8s", w=TW / 2), tile(130 + TW / 2, "8s", w=TW / 2), *dets[5:]]
    union = np.array([[124.0, 12.0, 176.0, 68.0]])
    assert whole_tiles(RGB, beside, union, np.array([0.07]), namer({(130, 20): (("8s", 0.97),)})) == beside


def test_halves_are_kept_when_the_classifier_is_not_sure_of_a_whole_tile_there() -> None:
    dets = row_with_a_halved_4p()
    for answer in ((("4p", 0.3), ("2p", 0.2)), (("none", 0.8),), (("back", 0.9),)):
        assert whole_tiles(RGB, dets, whole_box(dets), np.array([0.07]), namer({(130, 20): answer})) == dets


def test_halves_without_the_detectors_own_box_over_them_are_left_alone() -> None:
    dets = row_with_a_halved_4p()
    name = namer({(130, 20): (("4p", 0.9),)})
    assert whole_tiles(RGB, dets, np.zeros((0, 4)), np.zeros(0), name) == dets
    assert whole_tiles(RGB, dets, whole_box(dets), np.array([0.01]), name) == dets  # under WHOLE_FLOOR
    assert name.asked == []  # nothing worth naming


def test_two_whole_tiles_side_by_side_are_never_merged() -> None:
    """Two neighbours of a row are each a tile's size: however a weak box spans them, they stay two tiles."""
    dets = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m", "4p", "4p", "5s"))]
    span = np.array([[10 + 3 * TW, 20, 10 + 5 * TW, 20 + TH]])
    name = namer({(130, 20): (("4p", 0.99),)})
    assert whole_tiles(RGB, dets, span, np.array([0.3]), name) == dets and name.asked == []


def test_small_far_tiles_among_small_neighbours_are_not_halves() -> None:
    """Tiles far from the camera are small, but so are their neighbours: a pair is small only against them."""
    near = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m", "4m"))]
    far = [tile(300 + i * TW / 2, c, y=150, w=TW / 2, h=TH / 2) for i, c in enumerate(("1p", "1m", "5s", "6s"))]
    dets = near + far
    span = np.array([[300, 150, 300 + TW, 150 + TH / 2]])
    name = namer({(300, 150): (("1p", 0.9),)})
    assert whole_tiles(RGB, dets, span, np.array([0.3]), name) == dets


def test_a_lower_half_boxed_with_the_table_below_it_is_still_a_half() -> None:
    # a standing 4筒's two pairs of circles boxed one above the other, overlapping; the lower box runs into the
    # table and holds 0.75 of a tile's area: still its half. Two tiles side by side that small are two tiles.
    x = 10.0 + 3 * TW
    dets = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m"))]
    dets += [tile(x, "2p", h=0.55 * TH), tile(x, "2p", y=20 + 0.3 * TH, h=0.75 * TH)]
    dets += [tile(x + TW + i * TW, c) for i, c in enumerate(("5s", "6s"))]
    whole = np.array([[x - 4, 16, x + TW + 4, 20 + 1.05 * TH + 4]])
    out = whole_tiles(RGB, dets, whole, np.array([0.07]), namer({(round(x), 20): (("4p", 0.7), ("2p", 0.2))}))
    assert sorted(d.tile for d in out) == ["1m", "2m", "3m", "4p", "5s", "6s"]
    # the same tile nearer the camera than its neighbours (a lone indicator below the rows): its lower half holds
    # 0.85 of their area
    dets[3:5] = [tile(x, "2p", h=0.5 * TH), tile(x, "2p", y=20 + 0.4 * TH, h=0.85 * TH)]
    whole = np.array([[x - 4, 16, x + TW + 4, 20 + 1.25 * TH + 4]])
    out = whole_tiles(RGB, dets, whole, np.array([0.07]), namer({(round(x), 20): (("4p", 0.7), ("2p", 0.2))}))
    assert sorted(d.tile for d in out) == ["1m", "2m", "3m", "4p", "5s", "6s"]
    side = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m"))]
    side += [tile(x, "4s", w=0.75 * TW), tile(x + 0.75 * TW, "2s", w=0.75 * TW)]  # two tiles, farther away
    side += [tile(x + 1.5 * TW + i * TW, c) for i, c in enumerate(("5s", "6s"))]
    span = np.array([[x - 2, 18, x + 1.5 * TW + 2, 20 + TH + 2]])
    assert whole_tiles(RGB, side, span, np.array([0.07]), namer({(round(x), 20): (("4s", 0.7),)})) == side


def test_a_pung_of_4p_each_boxed_as_two_halves_is_read_as_three_4p() -> None:
    """Three 4筒 side by side, each boxed as its top and bottom pair (all six named 2筒): each half's nearest boxes
    are halves too, so a half is measured against the photo's tiles as well (composed tuning photos, 2026-12-05)."""
    dets = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m", "5s", "6s", "7s", "8s"))]
    weak, answers = [], {}
    for k in range(3):
        x = 10 + (7 + k) * TW
        dets += [tile(x, "2p", h=TH / 2), tile(x, "2p", y=20 + TH / 2, h=TH / 2)]
        weak.append([x - 4, 14, x + TW + 4, 20 + TH + 6])
        answers[(round(x), 20)] = (("4p", 0.9), ("2p", 0.05))
    out = whole_tiles(RGB, dets, np.array(weak), np.full(3, 0.2), namer(answers))
    assert sorted(d.tile for d in out) == ["1m", "2m", "3m", "4p", "4p", "4p", "5s", "6s", "7s", "8s"]
    # the photo's tiles are no reference for two boxes side by side: narrow tiles among narrow ones stay tiles
    side = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m", "5s", "6s", "7s", "8s"))]
    x = 10 + 7 * TW
    side += [tile(x + k * 0.6 * TW, c, w=0.6 * TW) for k, c in enumerate(("2z", "3s", "3s", "4s"))]  # a farther row
    span = np.array([[x - 2, 18, x + 1.2 * TW + 2, 20 + TH + 2]])
    assert whole_tiles(RGB, side, span, np.array([0.3]), namer({(round(x), 20): (("3s", 0.8),)})) == side


def test_a_tile_lying_sideways_boxed_as_two_unequal_halves_is_read_whole_against_the_photos_tiles() -> None:
    """A claimed 5筒 lying sideways (a tile's height long, its width high) in a meld, boxed as two pieces 30 and 24
    long; the boxes nearest it include two narrow ones of the row above, so its longer piece is no half against
    them; against the photo's tiles it is, and the two make a tile lying down (composed tuning photo
    s12_tuning_two_rows_044, 2026-12-05)."""
    dets = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m", "5s", "6s", "7s", "8s"))]
    x, y = 10 + 2 * TW, 20 + 2 * TH  # the meld's row, under the first row's 3m
    dets += [tile(x - 0.75 * TW, "4m", y=y - TH - 6, w=0.75 * TW), tile(x + 0.3 * TW, "3s", y=y - TH - 6, w=0.75 * TW)]
    dets += [tile(x, "2p", y=y + TH - TW, w=30, h=TW), tile(x + 30, "2p", y=y + TH - TW, w=24, h=TW)]
    dets += [tile(x + 54 + k * TW, c, y=y) for k, c in enumerate(("6p", "7p"))]
    weak = np.array([[x - 3, y + TH - TW - 3, x + 57, y + TH + 3]])
    out = whole_tiles(RGB, dets, weak, np.array([0.2]), namer({(round(x), round(y + TH - TW)): (("5p", 0.9), ("2p", 0.05))}))
    assert sorted(d.tile for d in out) == sorted(["1m", "2m", "3m", "5s", "6s", "7s", "8s", "4m", "3s", "5p", "6p", "7p"])


def test_a_pung_of_4p_boxed_as_halves_its_claimed_tile_as_two_offset_pieces_is_read_whole() -> None:
    """A 碰 of 4筒: the two standing ones each boxed as their top and bottom pair, the claimed one lying sideways as
    its left and right pair, the right box 6 px lower. Against its nearest boxes, halves themselves, its pieces are
    no halves; once those are read whole, they are (composed tuning photo s47_tuning_two_rows_048, 2026-12-06)."""
    dets = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m", "5s", "6s", "7s", "8s"))]
    y = 20 + 2 * TH  # the meld's row
    weak, answers = [], {}
    for k in range(2):
        x = 10 + k * TW
        dets += [tile(x, "2p", y=y, h=TH / 2), tile(x, "2p", y=y + TH / 2, h=TH / 2)]
        weak.append([x - 4, y - 6, x + TW + 4, y + TH + 6])
        answers[(round(x), round(y))] = (("4p", 0.9), ("2p", 0.05))
    x, top = 10 + 2 * TW, y + TH - TW
    dets += [tile(x, "2p", y=top, w=TH / 2, h=TW), tile(x + TH / 2, "2p", y=top + 6, w=TH / 2, h=TW)]
    weak.append([x - 3, top - 3, x + TH + 3, top + TW + 9])
    answers[(round(x), round(top))] = (("4p", 0.9), ("2p", 0.05))
    out = whole_tiles(RGB, dets, np.array(weak), np.full(3, 0.2), namer(answers))
    assert sorted(d.tile for d in out) == ["1m", "2m", "3m", "4p", "4p", "4p", "5s", "6s", "7s", "8s"]
    # a pair of halves whose union the classifier is unsure of stays two, and its union is named once, not each look
    x = 10 + 9 * TW
    unsure = [tile(10 + 7 * TW, "9s"), tile(10 + 8 * TW, "9m"), tile(x, "2p", h=TH / 2), tile(x, "2p", y=20 + TH / 2, h=TH / 2)]
    answers[(round(x), 20)] = (("4p", 0.3), ("2p", 0.2))
    name = namer(answers)
    out = whole_tiles(RGB, [*dets, *unsure], np.array([*weak, [x - 4, 14, x + TW + 4, 20 + TH + 6]]), np.full(4, 0.2), name)
    assert [d.tile for d in out].count("2p") == 2 and [d.tile for d in out].count("4p") == 3
    assert len(name.asked) == len(set(name.asked))


def row_with_a_short_4p(top: bool = True) -> list[Detection]:
    """1m 2m 3m, a 4筒 boxed by its top (or bottom) pair of circles alone (named 2筒), then 5s 6s."""
    dets = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m"))]
    dets.append(tile(10 + 3 * TW, "2p", y=20.0 if top else 20 + TH / 2, h=TH / 2))
    return dets + [tile(10 + (4 + i) * TW, c) for i, c in enumerate(("5s", "6s"))]


def test_a_4p_boxed_by_one_pair_of_circles_is_read_at_its_neighbours_height() -> None:
    for top in (True, False):
        name = namer({(130, 20): (("4p", 0.85), ("2p", 0.1))})
        out = grown_tiles(RGB, row_with_a_short_4p(top), name)
        assert [d.tile for d in out] == ["1m", "2m", "3m", "4p", "5s", "6s"]
        assert out[3].box == (130.0, 20.0, 170.0, 74.0)  # grown from the end in line with the row to a tile's height
        assert name.asked == [(130.0, 20.0, 170.0, 74.0)]  # the only box lower than its neighbours


def test_a_short_box_stays_as_named_when_the_grown_box_is_unsure_or_the_same_tile() -> None:
    for answer in ((("4p", 0.5), ("2p", 0.4)), (("2p", 0.9),), (("none", 0.9),)):
        dets = row_with_a_short_4p()
        assert grown_tiles(RGB, dets, namer({(130, 20): answer})) == dets


def test_a_tile_lying_sideways_or_a_row_of_even_tiles_is_never_grown() -> None:
    """A claimed tile lies lower than the standing ones but is wider: it is no half."""
    row = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m"))]
    sideways = [*row, tile(10 + 3 * TW, "4p", y=20 + TH - TW, w=TH, h=TW)]
    even = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m", "4m", "5m"))]
    for dets in (sideways, even):
        name = namer({})
        assert grown_tiles(RGB, dets, name) == dets and name.asked == []


def test_half_of_a_tile_lying_sideways_in_a_meld_is_read_whole_where_the_classifier_is_surest() -> None:
    # 1m 2m 3m standing, then a 吃's sideways 4筒 whose left pair of circles the detector missed: its box (named
    # 2筒) is a tile's width high but only half a tile's length long; grown to the left it is the 4筒
    lying = tile(10 + 3 * TW + TH / 2, "2p", y=20 + TH - TW, w=TH / 2, h=TW)
    dets = [*(tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m"))), lying]
    dets += [tile(10 + 3 * TW + TH + i * TW, c) for i, c in enumerate(("5s", "6s"))]
    whole = (10 + 3 * TW, 20 + TH - TW, 10 + 3 * TW + TH, 20 + TH)
    name = namer({(round(whole[0]), round(whole[1])): (("4p", 0.9), ("2p", 0.05)),
                  (round(whole[0] + TH / 2), round(whole[1])): (("2p", 0.7),)})
    out = grown_tiles(RGB, dets, name)
    assert [d.tile for d in out] == ["1m", "2m", "3m", "4p", "5s", "6s"] and out[3].box == whole
    assert name.asked == [whole]  # grown to the right it would lie over the 5條: not even named
    gap = [*dets[:4], *(replace(d, box=(d.box[0] + TW, d.box[1], d.box[2] + TW, d.box[3])) for d in dets[4:])]
    name = namer({(round(whole[0]), round(whole[1])): (("4p", 0.9), ("2p", 0.05)),
                  (round(whole[0] + TH / 2), round(whole[1])): (("4p", 0.95),)})
    out = grown_tiles(RGB, gap, name)
    assert len(name.asked) == 2 and out[3].box == (whole[0] + TH / 2, whole[1], whole[2] + TH / 2, whole[3])  # the surer


def test_a_lone_indicators_half_box_below_the_row_is_grown_the_way_the_classifier_sees_a_tile() -> None:
    """翻精 四筒 lies alone under the hand, nearer the camera (a third larger): the detector boxed its top pair of
    circles alone (named 二筒). Off the row, it may be either half: it is grown down and up, to the row's height
    and to the height the row's shape gives its width, and read where the classifier sees a tile surest."""
    row = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m", "5s", "6s"))]
    w = 1.3 * TW
    half = tile(60, "2p", y=120, w=w, h=0.55 * 1.3 * TH)
    tall = w * TH / TW
    down = (60.0, 120.0, 60 + w, 120 + tall)
    asked: list[tuple[float, ...]] = []

    def name(rgb: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> list[tuple[tuple[str, float], ...]]:
        asked.extend(boxes)  # the whole 四筒 in the box grown down to its height; its top pair alone in the lower one
        return [(("4p", 0.9), ("2p", 0.05)) if np.allclose(b, down) else (("2p", 0.7),) for b in boxes]

    out = grown_tiles(RGB, [*row, half], name)
    assert [d.tile for d in out] == ["1m", "2m", "3m", "5s", "6s", "4p"]
    assert np.allclose(out[5].box, down)  # the tile's height at its width, not the smaller row's
    ends = {(round(b[1]), round(b[3])) for b in asked}
    assert ends == {(120, round(120 + TH)), (120, round(120 + tall)), (round(half.box[3] - TH), round(half.box[3])),
                    (round(half.box[3] - tall), round(half.box[3]))}  # both ways, both heights


def test_only_the_boxes_asked_about_are_grown() -> None:
    dets = row_with_a_short_4p()
    name = namer({(130, 20): (("4p", 0.85), ("2p", 0.1))})
    assert grown_tiles(RGB, dets, name, among=[0, 1, 2, 4, 5]) == dets and name.asked == []
    assert [d.tile for d in grown_tiles(RGB, dets, name, among=[3])] == ["1m", "2m", "3m", "4p", "5s", "6s"]


def around_a_claimed_tile(before: tuple[str, ...], after: tuple[str, ...],
                          ) -> tuple[list[Detection], list[Detection], float, float, np.ndarray]:
    """Standing tiles `before` and `after` the place (x, y) of a claimed tile lying sideways in a meld's row, and the
    detector's weak box round that tile: (before, after, x, y, weak box)."""
    x, y = 10 + len(before) * TW, 20 + TH - TW
    return ([tile(10 + i * TW, c) for i, c in enumerate(before)], [tile(x + TH + k * TW, c) for k, c in enumerate(after)],
            x, y, np.array([[x - 2, y - 2, x + TH + 2, y + TW + 2]]))


def test_a_claimed_tile_boxed_twice_each_box_named_as_it_is_read_as_one_tile() -> None:
    """A 吃's sideways 6條 boxed as two overlapping pieces, each named 六條 (composed tuning photo s0_tuning_one_row_048,
    2026-12-05): one tile lying down, not two; two standing tiles whose boxes barely touch stay two."""
    row, after, x, y, weak = around_a_claimed_tile(("1m", "2m", "3m"), ("7s", "8s"))
    pieces = [tile(x, "6s", y=y, w=32, h=TW, p=0.3), tile(x + 22, "6s", y=y, w=32, h=TW, p=0.3)]
    out = whole_tiles(RGB, [*row, *pieces, *after], weak, np.array([0.1]), namer({(round(x), round(y)): (("6s", 0.9),)}))
    assert sorted(d.tile for d in out) == ["1m", "2m", "3m", "6s", "7s", "8s"]
    assert next(d for d in out if d.tile == "6s").box == (x, y, x + TH, y + TW)
    touching = [tile(x, "6s", w=27), tile(x + 27, "6s", w=27)]  # standing, as tall as the row, overlapping by nothing
    dets = [*row, *touching, *after]
    assert whole_tiles(RGB, dets, weak, np.array([0.1]), namer({(round(x), round(y)): (("6s", 0.9),)})) == dets


def test_a_standing_tile_boxed_twice_overlapping_is_one_tile() -> None:
    """A standing 4條 boxed as two narrow boxes overlapping by a third, each named 四條 (composed tuning photo
    s47_tuning_two_rows_077, 2026-12-05): one tile, and the hand is not a tile too long."""
    x = 10 + 3 * TW
    pair = [tile(x, "4s", w=26, p=0.4), tile(x + 14, "4s", w=26, p=0.5)]
    dets = [*(tile(10 + i * TW, c) for i, c in enumerate(("2s", "3s", "3s"))), *pair, tile(x + TW, "6m")]
    weak = np.array([[x - 2, 18, x + TW + 2, 20 + TH + 2]])
    out = whole_tiles(RGB, dets, weak, np.array([0.1]), namer({(round(x), 20): (("4s", 0.8),)}))
    assert [d.tile for d in sorted(out, key=lambda d: d.box[0])] == ["2s", "3s", "3s", "4s", "6m"]


def test_a_claimed_tile_boxed_as_its_two_ends_each_misnamed_is_read_whole_when_surely_one() -> None:
    """A 吃's sideways 一萬 boxed as its two ends, each three quarters of a tile's area and misnamed 南 and 三條
    (composed tuning photos, 2026-12-06): one tile when the classifier names the two together surely; two tiles side by
    side boxed loosely, overlapping as much, named at 0.58 together, stay two."""
    row, after, x, y, weak = around_a_claimed_tile(("5p", "6p", "7p"), ("2m", "3m"))
    ends = [tile(x, "2z", y=y, w=40, h=TW, p=0.3), tile(x + 14, "3s", y=y, w=40, h=TW, p=0.25)]
    out = whole_tiles(RGB, [*row, *ends, *after], weak, np.array([0.1]), namer({(round(x), round(y)): (("1m", 0.96),)}))
    assert sorted(d.tile for d in out) == ["1m", "2m", "3m", "5p", "6p", "7p"]
    loose = [tile(x, "1m", y=24, w=34, h=46), tile(x + 29, "2m", y=28, w=33, h=42)]  # overlapping by 5 of 33 px
    dets = [*row, *loose, *after]
    weak = np.array([[x - 2, 22, x + 64, 72]])
    assert whole_tiles(RGB, dets, weak, np.array([0.1]), namer({(round(x), 24): (("2m", 0.58), ("1m", 0.18))})) == dets


def test_a_claimed_tile_boxed_as_two_pieces_one_a_little_lower_lies_sideways() -> None:
    """A 吃's sideways 4筒 boxed as its two pairs of circles (each 二筒), the right one 8 px lower: their union is hardly
    wider than tall, the pieces are (composed tuning photo s8_tuning_one_row_031, 2026-12-06). Lying down, it is
    measured against the photo's tiles too, for its neighbours in the meld are narrow (seen at a slant)."""
    row = [tile(10 + i * TW, c) for i, c in enumerate(("1m", "2m", "3m", "5s", "6s", "7s", "8s"))]
    y = 20 + 2 * TH
    narrow = [tile(10 + k * 24, c, y=y, w=24, h=44) for k, c in enumerate(("2p", "3p"))]
    x, top = 10 + 48, y + 8
    pieces = [tile(x, "2p", y=top, w=27, h=36), tile(x + 22, "2p", y=top + 8, w=27, h=36)]
    after = tile(x + 49 + 20, "5s", y=y, w=24, h=44)
    dets = [*row, *narrow, *pieces, after]
    weak = np.array([[x - 2, top - 2, x + 51, top + 46]])
    out = whole_tiles(RGB, dets, weak, np.array([0.1]), namer({(round(x), round(top)): (("4p", 0.9), ("2p", 0.05))}))
    assert sorted(d.tile for d in out) == sorted(["1m", "2m", "3m", "5s", "6s", "7s", "8s", "2p", "3p", "4p", "5s"])


def test_a_standing_tile_named_surely_beside_a_piece_of_a_claimed_tile_is_no_half_of_it() -> None:
    """A 吃's standing 五萬, as tall as its neighbours and named surely, beside one end of the claimed 六萬 lying sideways
    (misnamed 北): the classifier names their union 六萬, but the 五萬 is a tile of its own, and the end is left to be
    grown to the claimed tile (composed tuning photo s61_tuning_one_row_077, 2026-12-06). Named unsurely, a box so tall
    beside the piece is the claimed tile's other end, boxed loosely, and the two are read whole."""
    row = [Detection((10 + k * 42, 20, 52 + k * 42, 76), c, 0.8, ((c, 0.95),)) for k, c in enumerate(("2p", "3p", "4m"))]
    x = 10 + 3 * 42
    piece = Detection((x + 30, 36, x + 68, 76), "4z", 0.3, (("4z", 0.3), ("6m", 0.1)))
    weak = np.array([[x - 2, 23, x + 72, 78]])
    name = namer({(x, 25): (("6m", 0.89), ("5m", 0.05))})
    for sure, read in ((0.95, ["2p", "3p", "4m", "5m", "4z"]), (0.3, ["2p", "3p", "4m", "6m"])):
        standing = Detection((x, 25, x + 30, 76), "5m", 0.7, (("5m", sure), ("4m", 0.01)))
        out = whole_tiles(RGB, [*row, standing, piece], weak, np.array([0.1]), name)
        assert [d.tile for d in sorted(out, key=lambda d: d.box[0])] == read


def test_two_standing_tiles_one_boxed_short_are_no_claimed_tile_lying_between_them() -> None:
    """Two 三條 side by side, the first boxed over its top alone and named unsurely, the second boxed shifted and named
    0.74: low on average and as long as a tile lying sideways, their union was read as one claimed 三條 (composed photo
    s109_tuning_two_rows_061, 2026-12-06). The second box is as tall as its neighbours: a standing tile, so they stay
    two."""
    row = [Detection((10 + k * 42, 20, 52 + k * 42, 76), c, 0.8, ((c, 0.95),)) for k, c in enumerate(("2p", "3p", "4m"))]
    x = 10 + 3 * 42
    top = Detection((x, 20, x + 26, 60), "3s", 0.3, (("3s", 0.12), ("1s", 0.02)))
    shifted = Detection((x + 31, 20, x + 62, 72), "3s", 0.55, (("3s", 0.74), ("2s", 0.01)))
    weak = np.array([[x - 2, 18, x + 64, 74]])
    out = whole_tiles(RGB, [*row, top, shifted], weak, np.array([0.1]), namer({(x, 20): (("3s", 0.83),)}))
    assert [d.tile for d in sorted(out, key=lambda d: d.box[0])] == ["2p", "3p", "4m", "3s", "3s"]


def heap_with_a_4p_boxed_by_two_circles() -> tuple[list[Detection], np.ndarray, np.ndarray]:
    """A 4筒 lying askew in a heap, boxed surely only round two of its circles (named 2筒), with its neighbours; the
    detector's own weaker boxes: one round the whole 4筒, one over the 4筒 and its neighbour together."""
    part = tile(100, "2p", y=40, w=36, h=30, p=0.84)
    dets = [tile(20, "1m", y=40), part, tile(160, "5s", y=40)]
    boxes = np.array([[96.0, 36.0, 146.0, 86.0],    # the whole 4筒 (2.3 times the part)
                      [60.0, 36.0, 150.0, 96.0],    # the 4筒 and the 1m beside it: too large
                      [100.0, 40.0, 126.0, 70.0]])  # the part itself
    return dets, boxes, np.array([0.15, 0.05, 0.5])


def test_a_tile_boxed_by_a_part_of_it_is_read_by_the_detectors_weaker_box_round_it() -> None:
    dets, boxes, scores = heap_with_a_4p_boxed_by_two_circles()
    name = namer({(96, 36): (("4p", 0.83), ("2p", 0.05))})
    out = whole_over_part(RGB, dets, boxes, scores, name)
    assert [d.tile for d in out] == ["1m", "4p", "5s"]
    four = out[1]
    assert four.box == (96.0, 36.0, 146.0, 86.0) and four.alternatives[0] == ("4p", 0.83)
    assert (60.0, 36.0, 150.0, 96.0) not in name.asked and (100.0, 40.0, 126.0, 70.0) not in name.asked  # type: ignore[attr-defined]


def test_a_part_stays_as_named_unless_the_box_round_it_is_surely_a_tile_with_more_circles() -> None:
    dets, boxes, scores = heap_with_a_4p_boxed_by_two_circles()
    # unsure; the part's own tile; fewer circles; another suit (the box reaching over a 四條 beside the 二筒); no tile
    for answer in ((("4p", 0.6), ("2p", 0.3)), (("2p", 0.9),), (("1p", 0.9),), (("4s", 0.95),), (("4m", 0.95),),
                   (("none", 0.95),), (("back", 0.9),)):
        assert whole_over_part(RGB, dets, boxes, scores, namer({(96, 36): answer})) == dets
    assert whole_over_part(RGB, dets, boxes, np.array([0.01, 0.05, 0.5]), namer({(96, 36): (("4p", 0.9),)})) == dets


def test_a_box_over_a_whole_tile_and_the_neighbour_it_is_named_as_is_not_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 六筒 boxed whole (the detector's "part"), and a weaker box over it and the 七筒 beside it named 七筒 (more
    circles): two tiles, not one round a part (composed tuning photos, 2026-12-06). Named 七筒 with no 七筒 inside it,
    the same box is not taken either, being twice as wide as the row's tiles (`wider_than_its_row`); with no bound on
    the width, it would be."""
    six = tile(100, "6p", y=40, w=36, h=50, p=0.96)
    seven = Detection((138.0, 42.0, 174.0, 92.0), "7p", 0.55, (("7p", 0.97), ("3p", 0.01)))
    dets = [tile(20, "1m", y=40), six, seven]
    boxes = np.array([[98.0, 38.0, 174.0, 94.0]])  # over both: 2.4 times the 六筒
    name = namer({(98, 38): (("7p", 0.83), ("6p", 0.04))})
    assert whole_over_part(RGB, dets, boxes, np.array([0.05]), name) == dets
    other = [*dets[:2], Detection(seven.box, "9s", 0.55, (("9s", 0.97),))]  # nothing inside named as the box is
    assert whole_over_part(RGB, other, boxes, np.array([0.05]), name) == other
    monkeypatch.setattr(detector, "WIDEST_WHOLE", 3.0)
    assert "7p" in [d.tile for d in whole_over_part(RGB, other, boxes, np.array([0.05]), name)]
    assert whole_over_part(RGB, dets, boxes, np.array([0.05]), name) == dets  # the 七筒 inside still says two tiles


def test_a_box_over_two_tiles_of_a_row_is_no_box_round_a_part() -> None:
    """A row of standing tiles; the detector's weaker box round the 四條 reaches over half the 三條 and the 五條 beside it
    and is named 六條 (composed tuning photos s61_tuning_two_rows_037 and s101_tuning_one_row_032, 2026-12-06): over
    twice as wide as the row's tiles, it is two tiles' parts, not a whole tile round a part, and the row stays as named.
    As wide as a tile and a quarter it is taken, as the 四筒 in a heap is."""
    codes = ("2p", "3p", "3s", "4s", "5s", "9m")
    row = [Detection((10 + k * TW, 20, 10 + (k + 1) * TW, 20 + TH), c, 0.8 if c == "4s" else 0.6, ((c, 0.9), ("1m", 0.01)))
           for k, c in enumerate(codes)]
    four = row[3]
    over_two = np.array([[four.box[0] - 20, 16, four.box[2] + 25, 78]])
    name = namer({(round(four.box[0]) - 20, 16): (("6s", 0.9), ("4s", 0.05))})
    assert whole_over_part(RGB, row, over_two, np.array([0.1]), name) == row
    loose = np.array([[four.box[0] - 5, 16, four.box[2] + 5, 78]])  # a tile and a quarter wide
    name = namer({(round(four.box[0]) - 5, 16): (("6s", 0.9), ("4s", 0.05))})
    assert "6s" in [d.tile for d in whole_over_part(RGB, row, loose, np.array([0.1]), name)]


def test_a_box_round_a_part_that_lies_over_surer_tiles_is_not_taken() -> None:
    dets, boxes, scores = heap_with_a_4p_boxed_by_two_circles()
    surer = Detection((112.0, 56.0, 152.0, 96.0), "9m", 0.95, (("9m", 0.99),))  # under 0.41 of the box round the 2筒
    dets = [*dets, surer]
    out = whole_over_part(RGB, dets, boxes, scores, namer({(96, 36): (("4p", 0.9),)}))
    assert sorted(d.tile for d in out) == ["1m", "2p", "5s", "9m"]


def test_a_claimed_8s_boxed_as_its_two_ends_each_named_as_it_is_one_tile_lying_sideways() -> None:
    """A 碰's sideways 八條 boxed as its two ends, barely overlapping, each named 八條 (composed tuning photo
    s21_tuning_one_row_090, 2026-12-06): as low as a tile lying sideways and as long as a tile is tall, one tile, and
    the 碰 no kong. Two standing 八條 boxed short, as low, but their union a tile's width longer, stay two."""
    row, after, x, y, weak = around_a_claimed_tile(("8s", "8s"), ("2m", "3m"))
    ends = [tile(x, "8s", y=y, w=28, h=TW, p=0.5), tile(x + 26, "8s", y=y, w=28, h=TW, p=0.5)]
    out = whole_tiles(RGB, [*row, *ends, *after], weak, np.array([0.1]), namer({(round(x), round(y)): (("8s", 0.9),)}))
    assert sorted(d.tile for d in out) == ["2m", "3m", "8s", "8s", "8s"]
    assert next(d for d in out if d.box[0] == x).box == (x, y, x + TH, y + TW)
    short = [tile(x, "8s", y=y, w=TW, h=TW), tile(x + TW, "8s", y=y, w=TW, h=TW)]  # two standing tiles' lower parts
    dets = [*row, *short, *after]
    weak = np.array([[x - 2, y - 2, x + 2 * TW + 2, y + TW + 2]])
    assert whole_tiles(RGB, dets, weak, np.array([0.1]), namer({(round(x), round(y)): (("8s", 0.9),)})) == dets
