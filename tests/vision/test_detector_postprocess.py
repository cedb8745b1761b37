"""NMS and decoding of the YOLO head, as the detector uses them."""

from __future__ import annotations

import numpy as np

from vision.reader.detector import decode_yolo_output, nms


def test_nms_keeps_the_best_of_overlapping_boxes_and_separate_tiles():
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 0, 30, 10]], dtype=float)
    scores = np.array([0.6, 0.9, 0.5])
    assert nms(boxes, scores, 0.5) == [1, 2]


def test_nms_keeps_neighbouring_tiles_that_touch():
    boxes = np.array([[0, 0, 10, 14], [10, 0, 20, 14], [20, 0, 30, 14]], dtype=float)
    assert sorted(nms(boxes, np.array([0.5, 0.6, 0.7]), 0.5)) == [0, 1, 2]


def test_nms_of_nothing_is_nothing():
    assert nms(np.zeros((0, 4)), np.zeros(0)) == []


def test_nms_with_a_limit_keeps_the_first_of_what_it_would_keep_and_stops_there():
    rng = np.random.default_rng(0)
    xy = rng.uniform(0, 400, (2000, 2))
    boxes = np.hstack([xy, xy + rng.uniform(8, 30, (2000, 2))])  # a busy photo read down to the faint boxes
    scores = rng.uniform(0.003, 1.0, 2000)
    every = nms(boxes, scores, 0.5)
    assert len(every) > 300
    assert nms(boxes, scores, 0.5, 300) == every[:300]
    assert nms(boxes, scores, 0.5, 5000) == every


def test_decode_picks_best_class_and_converts_centre_size_to_corners():
    nc = 35
    out = np.zeros((1, 4 + nc, 3), dtype=np.float32)
    out[0, :4, 0] = [50, 40, 20, 30]
    out[0, 4 + 7, 0] = 0.9  # class 7 = 8m
    out[0, 4 + 2, 0] = 0.3
    out[0, :4, 1] = [10, 10, 5, 5]
    out[0, 4 + 1, 1] = 0.1  # below threshold
    out[0, :4, 2] = [100, 100, 10, 10]
    out[0, 4 + 34, 2] = 0.5  # back
    boxes, scores, cls = decode_yolo_output(out, 0.25)
    assert cls.tolist() == [7, 34]
    np.testing.assert_allclose(boxes[0], [40, 25, 60, 55])
    np.testing.assert_allclose(scores, [0.9, 0.5])


def test_top_doubt_is_how_far_a_boxs_own_candidates_disagree_on_its_top():
    """A tile stacked on another is boxed now as the pair, now as the tile on top: its candidates' tops lie a
    fifth of a tile apart. A tile alone is boxed alike each time; its neighbour's boxes and weak strays do not count."""
    from vision.reader.detector import top_doubt

    stacked = [[100, 40, 140, 100], [100, 28, 140, 100], [101, 27, 141, 90]]  # pair, pair taller, the top tile
    alone = [[0, 40, 40, 100], [1, 41, 41, 100], [0, 39, 40, 101]]
    neighbour = [[40, 20, 80, 80]]  # the next tile, set higher: not a candidate of either
    stray = [[100, 0, 140, 95]]  # a weak box reaching far up: under half the best candidate's score
    boxes = np.array(stacked + alone + neighbour + stray, float)
    scores = np.array([0.8, 0.7, 0.6, 0.9, 0.8, 0.7, 0.9, 0.2])
    kept = np.array([stacked[0], alone[0], neighbour[0]], float)
    doubt = top_doubt(kept, np.array([0.8, 0.9, 0.9]), boxes, scores)
    assert doubt[0] == np.float64(13 / 60) and doubt[1] == np.float64(2 / 60) and doubt[2] == 0
    assert top_doubt(kept, np.array([0.8, 0.9, 0.9]), boxes, scores, least=0.85)[0] == 0  # not measured


def test_lifted_over_is_the_score_of_a_box_lying_a_third_of_a_tile_higher_over_a_kept_one():
    """A kong's fourth tile stacked on its middle tile is boxed before NMS, however faintly, as a tile-sized box a third
    of a tile higher; a tile of the row above (a whole tile higher), a neighbour or the box itself is no such box."""
    from vision.reader.detector import lifted_over

    middle = [100, 100, 140, 160]  # a tile 40 × 60
    on_top = [[101, 80, 141, 139], [99, 78, 139, 140]]  # a third of a tile higher, scored 0.08 and 0.03
    row_above = [[100, 30, 140, 90]]  # more than a tile higher: the hand row's tile over a meld row
    beside = [[130, 80, 170, 139]]  # as high, but three quarters of a tile across
    itself = [[100, 98, 140, 160]]  # the kept box's own candidate, its top two pixels higher
    boxes = np.array(on_top + row_above + beside + itself, float)
    scores = np.array([0.08, 0.03, 0.9, 0.5, 0.7])
    kept = np.array([middle, [0, 100, 40, 160]], float)
    above = lifted_over(kept, np.array([0.8, 0.9]), boxes, scores)
    assert above[0] == np.float64(0.08) and above[1] == 0
    assert lifted_over(kept, np.array([0.8, 0.9]), boxes, scores, least=0.85)[0] == 0  # not measured


def test_a_box_over_a_stacked_pair_is_measured_against_its_rows_line():
    """The middle tile of a stacked kong is often boxed between the pair and the lower tile, a little high; the tile on
    top lies lifted against the row (its surest neighbour at either side), not against that box. A stray box lying
    lower beside it is no neighbour to go by."""
    from vision.reader.detector import lifted_over, row_line

    left, middle, right = [60, 100, 100, 160], [100, 92, 140, 156], [140, 100, 180, 160]
    stray = [139, 120, 179, 180]  # nearer than the right tile, lying lower, and far less sure
    kept = np.array([left, middle, right, stray], float)
    scores = np.array([0.9, 0.8, 0.9, 0.3])
    np.testing.assert_allclose(row_line(kept, scores)[1], [100, 100, 140, 160])
    on_top = np.array([[101, 88, 141, 146]], float)  # a fifth of a tile over the row's top, 4 px over the box's own
    assert lifted_over(kept, scores, on_top, np.array([0.2]))[1] == np.float64(0.2)
    alone = np.array([middle], float)
    assert lifted_over(alone, np.array([0.8]), on_top, np.array([0.2]))[0] == 0  # against its own top: too little
