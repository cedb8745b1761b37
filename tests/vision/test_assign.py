"""`vision.reader.layout`: hand-written detection lists → rows, groups, roles, 精 marks and questions."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from vision.reader.detection import Detection
from vision.reader.layout import Assignment, assign, turned_a_quarter

ROOT = Path(__file__).resolve().parents[2]
TW, TH = 30.0, 40.0  # a standing tile's width and height in pixels

#: Winning hands throughout (a hand that is no win is said to be none, `not_a_win`): HAND + 3m,
#: HAND[:10] + 2z + one meld, HAND[:7] + 5z + two melds.
HAND = ["4p", "5p", "6p", "7s", "8s", "9s", "5z", "2z", "2z", "5z", "1m", "2m", "2z"]


def layout(rows: list[list[list[str]]], group_gap: float = 0.5, row_gap: float = 0.5) -> list[Detection]:
    """Detections of rows of groups laid like a player would: 'x>' is sideways, 'back' face down."""
    dets: list[Detection] = []
    y = 10.0
    for row in rows:
        x = 10.0
        for group in row:
            for spec in group:
                code = spec.rstrip(">")
                if spec.endswith(">"):
                    dets.append(Detection((x, y + TH - TW, x + TH, y + TH), code, 0.9))
                    x += TH
                else:
                    dets.append(Detection((x, y, x + TW, y + TH), code, 0.9))
                    x += TW
            x += group_gap * TW
        y += TH * (1 + row_gap)
    return dets


def rotate(dets: list[Detection], deg: float) -> list[Detection]:
    """The detections of the same tiles in a photo turned by `deg` (axis-aligned boxes of the turned tiles)."""
    th = math.radians(deg)
    c, s = math.cos(th), math.sin(th)
    out = []
    for d in dets:
        x1, y1, x2, y2 = d.box
        pts = [(x * c - y * s + 100, x * s + y * c + 100) for x in (x1, x2) for y in (y1, y2)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        out.append(Detection((min(xs), min(ys), max(xs), max(ys)), d.tile, d.conf))
    return out


def codes(a: Assignment) -> list[str]:
    return [q["code"] for q in a.questions]


FULL = [[["9m"]], [HAND[:10], ["2z"]], [["4m>", "5m", "6m"]]]  # 10 + win + chi = 14


def test_a_laid_out_hand_is_read_into_roles() -> None:
    a = assign(layout([[["9m"]], [HAND, ["3m"]]]))
    assert a.hand == HAND and a.win_tile == "3m" and a.indicator == "9m" and a.melds == []
    assert a.questions == []
    part = a.to_round_part()
    assert part["hand"] == "12m456p789s22255z" and part["win"] == {"tile": "3m"} and part["indicator"] == "9m"
    json.dumps(part, ensure_ascii=False)  # plain data


@pytest.mark.parametrize("deg", [8.0, -8.0])
def test_tilted_rows_are_found_along_their_own_direction(deg: float) -> None:
    flat = assign(layout(FULL))
    tilted = assign(rotate(layout(FULL), deg))
    assert abs(tilted.angle_deg - deg) < 0.5
    assert len(tilted.rows) == 3 and [len(r) for r in tilted.rows] == [1, 11, 3]
    assert (tilted.hand, tilted.win_tile, tilted.indicator) == (flat.hand, "2z", "9m")
    assert tilted.melds == [{"type": "chi", "tiles": "456m", "claimed": "4m"}]
    assert tilted.questions == []


def test_a_row_drifting_more_than_a_tile_height_stays_one_row() -> None:
    dets = rotate(layout([[HAND, ["3m"]]]), 8.0)
    assert max(d.cy for d in dets) - min(d.cy for d in dets) > TH  # cy alone would split it
    a = assign(dets)
    assert len(a.rows) == 1 and a.hand == HAND and a.win_tile == "3m"


def test_melds_close_together_are_split_by_the_gap() -> None:
    rows = [[["9m"]], [HAND[:7], ["5z"]], [["1m", "2m>", "3m"], ["7p", "7p>", "7p"]]]
    a = assign(layout(rows, group_gap=0.35))
    assert a.melds == [{"type": "chi", "tiles": "123m", "claimed": "2m"}, {"type": "peng", "tiles": "777p", "claimed": "7p"}]
    assert a.questions == []


def test_touching_melds_are_cut_when_only_one_cut_makes_melds() -> None:
    a = assign(layout([[["9m"]], [HAND[:7], ["5z"]], [["1m", "2m>", "3m", "7p", "7p>", "7p"]]]))
    assert a.melds == [{"type": "chi", "tiles": "123m", "claimed": "2m"}, {"type": "peng", "tiles": "777p", "claimed": "7p"}]
    assert a.confidence["meld0"] < 0.9  # a cut is less sure than a gap
    assert a.questions == []


def test_touching_melds_that_cut_two_ways_are_asked_about() -> None:
    # a kong and a pung of one kind cannot be on a table; what is tested is the two-way cut
    a = assign(layout([[["9m"]], [HAND[:4], ["5z"]], [["7p>", "7p", "7p", "7p", "7p>", "7p", "7p"]]]))
    assert a.melds == [] and "touching_melds" in codes(a)


def test_a_kong_of_jing_counts_four_fu() -> None:
    # the indicator is itself 正精 and one of its four copies, so a kong of 精 is a kong of 副精
    rows = [[["4p"]], [["1m", "2m", "3m", "7s", "8s", "9s", "4p", "4p", "1z", "1z"], ["4p"]], [["5p", "5p>", "5p", "5p"]]]
    a = assign(layout(rows))
    assert a.melds == [{"type": "gang", "tiles": "5555p", "claimed": "5p"}]
    assert a.jing_count == {"zheng": 3, "fu": 4}  # the kong + 44p in the hand + the winning 4p
    meld_marks = [t.mark for t in a.tiles if t.role == "meld"]
    assert meld_marks == ["fu"] * 4
    assert a.questions == []


def test_an_indicator_equal_to_a_hand_tile_is_the_lone_one() -> None:
    hand = ["5p", "5p", "5p", "6p", "7p", "8p", "2s", "3s", "4s", "7z", "7z", "9m", "9m"]
    for given in (None, "5p", "五筒"):
        a = assign(layout([[["5p"]], [hand, ["7z"]]]), indicator=given)
        assert a.indicator == "5p" and a.hand == hand and a.win_tile == "7z"
        ind = [t for t in a.tiles if t.role == "indicator"]
        assert len(ind) == 1 and ind[0].det.cy < 60  # the lone tile above, not a hand 5p
        assert a.jing_count == {"zheng": 3, "fu": 1} and a.questions == []


def test_a_given_indicator_that_differs_from_the_lone_tile_is_used_and_the_tile_reported() -> None:
    a = assign(layout([[["9m"]], [HAND, ["3m"]]]), indicator="1z")
    assert a.indicator == "1z" and a.jing_count == {"zheng": 0, "fu": 3}
    assert "unexplained_tiles" in codes(a)


def test_no_indicator_in_the_photo_is_asked_for() -> None:
    a = assign(layout([[HAND, ["3m"]]]))
    assert a.indicator is None and a.jing_count is None
    assert "indicator" in codes(a) and all(t.mark is None for t in a.tiles)


def test_fourteen_tiles_without_a_gap_ask_for_the_winning_tile() -> None:
    a = assign(layout([[["9m"]], [[*HAND, "3m"]]]))
    assert a.win_tile is None and len(a.hand) == 14
    q = [q for q in a.questions if q["code"] == "win_tile"]
    assert len(q) == 1 and "pick the winning tile" in q[0]["en"] and "胡" in q[0]["zh"]
    assert "tile_count" not in codes(a)  # 14 tiles are all there, only the winning one is unknown


def test_a_missed_tile_fails_the_count_with_a_clear_question() -> None:
    a = assign(layout([[["9m"]], [HAND[:12], ["3m"]]]))
    q = [q for q in a.questions if q["code"] == "tile_count"]
    assert len(q) == 1
    assert "13 tiles seen" in q[0]["en"] and "missed" in q[0]["en"]
    assert "看到 13 张" in q[0]["zh"] and "漏" in q[0]["zh"]


def test_an_extra_tile_fails_the_count_too() -> None:
    a = assign(layout([[["9m"]], [[*HAND, "4m"], ["3m"]]]))
    assert any(q["code"] == "tile_count" and "extra" in q["en"] for q in a.questions)


def test_the_sideways_tile_is_the_claimed_one() -> None:
    rows = [[["9m"]], [HAND[:10], ["2z"]], [["3s", "4s>", "5s"]]]
    a = assign(layout(rows))
    assert a.melds == [{"type": "chi", "tiles": "345s", "claimed": "4s"}]
    side = [t for t in a.tiles if t.role == "meld" and t.det.width > t.det.height]
    assert [t.det.tile for t in side] == ["4s"]


def test_a_chi_without_a_sideways_tile_asks_which_was_claimed() -> None:
    a = assign(layout([[["9m"]], [HAND[:10], ["2z"]], [["3s", "4s", "5s"]]]))
    assert a.melds == [{"type": "chi", "tiles": "345s", "claimed": None}]
    assert "chi_claimed" in codes(a)


def test_winds_and_dragons_make_honor_chows() -> None:
    a = assign(layout([[["9m"]], [HAND[:7], ["2z"]], [["1z>", "2z", "3z"], ["5z", "6z>", "7z"]]]))
    assert [m["tiles"] for m in a.melds] == ["123z", "567z"] and {m["type"] for m in a.melds} == {"chi"}


def test_a_concealed_kong_with_two_backs() -> None:
    rows = [[["6z"]], [HAND[:10], ["2z"]], [["back", "7z", "7z", "back"]]]
    a = assign(layout(rows))
    assert a.melds == [{"type": "angang", "tiles": "7777z"}]
    assert a.jing_count == {"zheng": 0, "fu": 2}  # 6z's 副精 is 5z (7z→6z→5z→7z): the hand's 55z...
    a = assign(layout(rows), indicator="7z")  # ... and with 7z as indicator the backs count as 精 too
    assert a.jing_count == {"zheng": 4, "fu": 0}
    assert [t.mark for t in a.tiles if t.role == "meld"] == ["zheng"] * 4


def test_a_concealed_kong_of_four_backs_asks_which_tile() -> None:
    a = assign(layout([[["9m"]], [HAND[:10], ["2z"]], [["back"] * 4]]))
    assert a.melds == [{"type": "angang", "tiles": None}]
    assert "angang_tile" in codes(a) and "tile_count" not in codes(a)


def test_a_group_that_is_no_meld_is_asked_about() -> None:
    a = assign(layout([[["9m"]], [HAND[:10], ["2z"]], [["3s", "4s>", "7s"]]]))
    assert a.melds == [] and "not_a_meld" in codes(a) and "tile_count" in codes(a)


def test_dragon_cycle_marks_fu() -> None:
    hand = ["5z", "5z", "6z", "6z", "6z", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "7s"]
    a = assign(layout([[["6z"]], [hand, ["7s"]]]))
    marks = {t.det.tile: t.mark for t in a.tiles if t.role == "hand"}
    assert marks["6z"] == "zheng" and marks["5z"] == "fu" and marks["1m"] is None


def test_nothing_detected_is_one_question() -> None:
    a = assign([])
    assert codes(a) == ["no_tiles"] and a.hand == [] and a.to_round_part()["hand"] == ""


def test_unsure_detections_are_named() -> None:
    dets = layout([[["9m"]], [HAND, ["3m"]]])
    dets[3] = Detection(dets[3].box, dets[3].tile, 0.3)
    assert "low_confidence" in codes(assign(dets))


def test_score_page_gets_hand_plus_winning_tile() -> None:
    from app.views.score import proposed_hand

    assert proposed_hand(layout([[["9m"]], [HAND, ["3m"]]])) == [*HAND, "3m"]


def test_assign_imports_no_torch_and_no_app() -> None:
    code = "import sys, vision.reader.layout\nbad = [m for m in sys.modules if m.split('.')[0] in ('torch', 'ultralytics', 'app')]\nsys.exit(1 if bad else 0)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=60).returncode == 0


def test_melds_without_sideways_tiles_do_not_outvote_a_short_hand() -> None:
    rows = [[["9m"]], [["3p", "3p", "1z", "1z"], ["3p"]], [["5m", "6m", "7m"], ["4z", "4z", "4z", "4z"], ["1s", "1s", "1s"]]]
    a = assign(layout(rows))
    assert a.hand == ["3p", "3p", "1z", "1z"] and a.win_tile == "3p" and a.indicator == "9m"
    assert [m["type"] for m in a.melds] == ["chi", "gang", "peng"]
    assert codes(a) == ["chi_claimed"]  # only the chi's claimed tile is unknown


def test_an_indicator_beside_the_hand_on_the_left_is_found_when_the_count_says_so() -> None:
    a = assign(layout([[["9m"], HAND, ["3m"]]]))
    assert a.indicator == "9m" and a.hand == HAND and a.win_tile == "3m" and a.questions == []
    b = assign(layout([[["9m"], HAND[:12], ["3m"]]]))  # 13 tiles with the lone 9m: it is a hand tile
    assert b.indicator is None and "indicator" in codes(b)


def test_a_gap_inside_the_hand_as_wide_as_the_win_gap_asks_to_check_the_winning_tile() -> None:
    a = assign(layout([[["9m"]], [HAND[:5], HAND[5:], ["3m"]]]))
    assert a.hand == HAND and a.win_tile == "3m"  # kept, but ...
    assert "win_tile_check" in codes(a) and a.confidence["win"] < 0.9  # ... asked about


def _with_doubtful_extra(conf: float) -> list[Detection]:
    """The FULL layout plus a box read as 2p inside the hand row (a patch of table, a half-seen tile)."""
    rows = [[["9m"]], [[*HAND[:5], "2p", *HAND[5:10]], ["2z"]], [["4m>", "5m", "6m"]]]
    return [Detection(d.box, d.tile, conf) if d.tile == "2p" else d for d in layout(rows)]


def test_a_doubtful_extra_box_is_set_aside_when_that_makes_the_count_right() -> None:
    a = assign(_with_doubtful_extra(0.08))
    assert a.hand == HAND[:10] and a.win_tile == "2z" and len(a.melds) == 1
    assert [d.tile for d in a.set_aside] == ["2p"]
    q = [q for q in a.questions if q["code"] == "set_aside"]
    assert q and "2p (0.08)" in q[0]["en"] and "二筒" in q[0]["zh"] and "tile_count" not in codes(a)
    assert a.to_round_part()["set_aside"][0]["tile"] == "2p"


def test_an_extra_box_at_middling_confidence_is_set_aside_too() -> None:
    """The classifier pair names a patch of white table between tiles 白板 more surely than v9 did: such a box
    scored 0.53 in a composed photo, and kept, it made the hand a tile too many."""
    a = assign(_with_doubtful_extra(0.55))
    assert a.hand == HAND[:10] and a.win_tile == "2z" and [d.tile for d in a.set_aside] == ["2p"]


def test_three_doubtful_boxes_in_the_gaps_of_a_white_rail_are_set_aside_together() -> None:
    """A white rail behind the tiles shows through each gap, and the classifier pair names a gap 白板 at 0.3–0.5:
    three such boxes (before the hand, between it and the winning tile, after that) make a round of three too many."""
    dets = layout([[["9m"]], [["5z", *HAND[:10], "5z"], ["2z", "5z"]], [["4m>", "5m", "6m"]]])
    strays = {1: 0.3, 12: 0.5, 14: 0.45}  # the indicator is dets[0], the hand dets[2:12]
    dets = [Detection(d.box, d.tile, strays[i]) if i in strays else d for i, d in enumerate(dets)]
    a = assign(dets)
    assert a.hand == HAND[:10] and a.win_tile == "2z" and a.indicator == "9m" and len(a.melds) == 1
    assert sorted(d.conf for d in a.set_aside) == [0.3, 0.45, 0.5] and "set_aside" in codes(a)


def test_of_two_boxes_either_of_which_set_aside_adds_up_the_likelier_reading_is_kept() -> None:
    """The lone indicator above the hand scored 0.28, and a patch of white table at the hand row's left end, named a
    dragon, 0.32 (composed tuning photo s97_tuning_one_row_053). Either box set aside leaves a round that adds up: the
    less sure one first made the patch the indicator at the row's end. The reading with the indicator alone above the
    hand is the likelier, and is kept."""
    dets = layout([[["9m"]], [["7z"], HAND[:10], ["2z"]], [["4m>", "5m", "6m"]]])
    dets = [Detection(d.box, d.tile, {"9m": 0.28, "7z": 0.32}.get(d.tile, d.conf)) for d in dets]
    a = assign(dets)
    assert a.indicator == "9m" and a.hand == HAND[:10] and a.win_tile == "2z" and len(a.melds) == 1
    assert [d.tile for d in a.set_aside] == ["7z"] and "set_aside" in codes(a)


def test_of_pairs_of_boxes_whose_setting_aside_adds_up_the_likelier_reading_is_kept() -> None:
    """Two patches of table named a dragon at both ends of the hand row (0.32, 0.30) and the lone indicator above it
    (0.28): no one box set aside adds up. The two least sure set aside leave the left patch as the indicator at the
    row's end; the two patches set aside leave the indicator alone above the hand, the likelier reading."""
    dets = layout([[["9m"]], [["7z"], HAND[:10], ["2z"], ["7z"]], [["4m>", "5m", "6m"]]])
    sevens = [i for i, d in enumerate(dets) if d.tile == "7z"]
    conf = {0: 0.28, sevens[0]: 0.32, sevens[1]: 0.30}
    a = assign([Detection(d.box, d.tile, conf.get(i, d.conf)) for i, d in enumerate(dets)])
    assert a.indicator == "9m" and a.hand == HAND[:10] and a.win_tile == "2z" and len(a.melds) == 1
    assert sorted(d.conf for d in a.set_aside) == [0.30, 0.32]


def test_a_confident_extra_box_is_kept_and_the_count_asked_about() -> None:
    a = assign(_with_doubtful_extra(0.9))
    assert a.set_aside == [] and "tile_count" in codes(a) and "2p" in a.hand


def _meld_row_with(group: list[str], unsure: int, conf: float = 0.2) -> list[Detection]:
    """FULL's hand with `group` as the meld, its tile at index `unsure` read with low confidence."""
    dets = layout([[["9m"]], [HAND[:10], ["2z"]], [group]])
    meld_dets = dets[-3:]
    weak = meld_dets[unsure]
    return [Detection(d.box, d.tile, conf) if d is weak else d for d in dets]


def test_a_meld_one_unsure_tile_away_from_a_peng_is_taken_as_that_peng_and_asked_about() -> None:
    a = assign(_meld_row_with(["7p>", "7p", "1p"], unsure=2))
    assert a.melds == [{"type": "peng", "tiles": "777p", "claimed": "7p"}]
    assert "tile_count" not in codes(a) and "not_a_meld" not in codes(a)
    q = [q for q in a.questions if q["code"] == "meld_guess"][0]
    assert "1p (0.20)" in q["en"] and "7p" in q["en"] and "一筒" in q["zh"]
    assert [m["tile"] for m in a.jing_marks() if m["role"] == "meld"] == ["7p", "7p", "7p"]


def test_a_chow_with_its_unsure_middle_tile_misread_is_repaired() -> None:
    a = assign(_meld_row_with(["4s>", "9s", "6s"], unsure=1))
    assert a.melds == [{"type": "chi", "tiles": "456s", "claimed": "4s"}] and "meld_guess" in codes(a)


def test_a_chow_misread_at_its_end_is_repaired_in_the_order_it_is_laid() -> None:
    a = assign(_meld_row_with(["4m>", "5m", "1p"], unsure=2))  # 3m or 6m: laid 4 5 _, so 6m
    assert a.melds == [{"type": "chi", "tiles": "456m", "claimed": "4m"}] and "meld_guess" in codes(a)
    a = assign(_meld_row_with(["1p>", "5m", "6m"], unsure=0))  # laid _ 5 6, so 4m
    assert a.melds == [{"type": "chi", "tiles": "456m", "claimed": "4m"}]


def test_a_group_two_ways_from_a_meld_is_not_guessed() -> None:
    a = assign(_meld_row_with(["4m>", "1p", "6m"], unsure=1))  # only 5m makes a meld
    assert a.melds == [{"type": "chi", "tiles": "456m", "claimed": "4m"}]
    a = assign(_meld_row_with(["4m>", "1p", "5m"], unsure=1))  # 3m or 6m, neither laid in order
    assert a.melds == [] and "not_a_meld" in codes(a) and "meld_guess" not in codes(a)


def test_a_confident_odd_tile_is_not_re_read() -> None:
    a = assign(_meld_row_with(["7p>", "7p", "1p"], unsure=2, conf=0.9))
    assert a.melds == [] and "not_a_meld" in codes(a)


def _loosen(dets: list[Detection], frac: float) -> list[Detection]:
    """The same tiles with boxes `frac` of a tile width looser on each side (as detector boxes run)."""
    return [Detection((d.box[0] - frac * TW, d.box[1], d.box[2] + frac * TW, d.box[3]), d.tile, d.conf) for d in dets]


def test_loose_boxes_still_find_the_winning_tile_set_apart() -> None:
    dets = _loosen(layout([[["9m"]], [HAND, ["3m"]]], group_gap=0.4), 0.05)  # win gap now 0.3 tile, touching -0.1
    a = assign(dets)
    assert a.win_tile == "3m" and a.hand == HAND and "win_tile" not in codes(a)


def test_slightly_uneven_touching_tiles_are_not_split() -> None:
    dets = layout([[["9m"]], [HAND, ["3m"]]], group_gap=0.6)
    shifted = [Detection((d.box[0] + (3 if i % 3 == 0 else 0), d.box[1], d.box[2] + (3 if i % 3 == 0 else 0),
                          d.box[3]), d.tile, d.conf) for i, d in enumerate(dets)]  # gaps of ±0.1 tile
    a = assign(shifted)
    assert a.win_tile == "3m" and a.hand == HAND and a.questions == []


def test_a_concealed_kong_with_one_back_not_found_is_still_a_kong_of_four() -> None:
    rows = [[["6z"]], [HAND[:10], ["2z"]], [["back", "7z", "7z"]]]
    a = assign(layout(rows), indicator="7z")
    assert a.melds == [{"type": "angang", "tiles": "7777z"}] and "tile_count" not in codes(a)
    assert "angang_missing" in codes(a) and a.jing_count == {"zheng": 4, "fu": 0}


def test_two_touching_melds_without_visible_sideways_tiles_do_not_pass_for_the_hand() -> None:
    hand = ["8s", "8s", "8s", "6z"]
    rows = [[["7p"]], [hand, ["6z"]], [["2s", "2s>", "2s"], ["4p", "5p", "6p", "5z", "6z", "7z"]]]
    a = assign(layout(rows))
    assert a.hand == hand and a.win_tile == "6z" and a.indicator == "7p"
    assert [m["tiles"] for m in a.melds] == ["222s", "456p", "567z"] and "tile_count" not in codes(a)


@pytest.mark.parametrize("deg", [90.0, -90.0])
def test_a_photo_turned_a_quarter_reads_as_if_upright(deg: float) -> None:
    upright = assign(layout(FULL))
    turned_dets = rotate(layout(FULL), deg)
    turned = assign(turned_dets)
    assert (turned.hand, turned.win_tile, turned.melds, turned.indicator) == (
        upright.hand, upright.win_tile, upright.melds, upright.indicator)
    assert codes(turned) == codes(upright) == []
    photo_boxes = {tuple(round(v, 1) for v in d.box) for d in turned_dets}
    assert {tuple(m["box"]) for m in turned.jing_marks()} == photo_boxes  # the photo's boxes, not the turned frame's


def test_a_turned_photo_that_reads_alike_both_ways_asks_which_is_the_winning_tile() -> None:
    turned = assign(rotate(layout([[HAND + ["3m"]]]), 90.0))  # no gap: neither way finds the winning tile
    assert turned.win_tile is None and {"turned", "win_tile"} <= set(codes(turned))


def test_an_upright_photo_with_sideways_claimed_tiles_is_not_taken_as_turned() -> None:
    dets = layout([[HAND[:4], ["3m"]], [["4m>", "5m", "6m"], ["7p>", "7p", "7p"], ["1s>", "1s", "1s"]]])
    assert not turned_a_quarter(dets)
