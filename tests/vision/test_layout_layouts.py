"""Issue 22: every layout players use, read into the most probable legal round (hand-written detection lists)."""

from __future__ import annotations

import time
from dataclasses import replace

from vision.reader.detection import Detection
from vision.reader.layout import Assignment, assign

TW, TH = 30.0, 40.0  # a standing tile's width and height in pixels


def lay(rows: list[list[list[str]]], gap: float = 0.6, row_gap: float = 0.6, x0: float = 10.0,
        sure: dict[str, tuple[tuple[str, float], ...]] | None = None, conf: dict[str, float] | None = None,
        ) -> list[Detection]:
    """Detections of rows of groups: 'x>' lies sideways, 'back' face down; a group given as ['+0.5'] is
    a gap of half a tile more. `sure` gives a tile spec ('1p@3' = the 3rd tile read 1p) its classifier
    choices, `conf` its confidence."""
    dets: list[Detection] = []
    y = 10.0
    n = 0
    for row in rows:
        x = x0
        for group in row:
            if group and group[0].startswith("+"):
                x += float(group[0][1:]) * TW
                continue
            for spec in group:
                n += 1
                code = spec.rstrip(">")
                key = f"{code}@{n}"
                alts = (sure or {}).get(key, ((code, 0.97),))
                c = (conf or {}).get(key, 0.9)
                if spec.endswith(">"):
                    dets.append(Detection((x, y + TH - TW, x + TH, y + TH), code, c, alts))
                    x += TH
                else:
                    dets.append(Detection((x, y, x + TW, y + TH), code, c, alts))
                    x += TW
            x += gap * TW
        y += TH * (1 + row_gap)
    return dets


def codes(a: Assignment) -> list[str]:
    return [q["code"] for q in a.questions]


def melds(a: Assignment) -> list[tuple[str, str]]:
    return [(m["type"], m["tiles"]) for m in a.melds]


# --------------------------------------------------------------------------- one row pushed down (推倒)


def test_one_row_hand_win_and_a_meld_without_a_sideways_tile() -> None:
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "7s", "8s", "9s"]
    a = assign(lay([[["9m"]], [hand, ["7s"], ["5z", "5z", "5z"]]]))
    assert (a.hand, a.win_tile, a.indicator) == (hand, "7s", "9m")
    assert melds(a) == [("peng", "555z")] and "not_a_win" not in codes(a) and "tile_count" not in codes(a)


def test_one_row_with_two_melds_one_claimed_tile_sideways() -> None:
    hand = ["2p", "3p", "4p", "6s", "6s", "6s", "9m"]
    a = assign(lay([[["1z"]], [hand, ["9m"], ["3m", "4m>", "5m"], ["7z", "7z", "7z"]]]))
    assert (a.hand, a.win_tile) == (hand, "9m")
    assert melds(a) == [("chi", "345m"), ("peng", "777z")]
    assert a.melds[0]["claimed"] == "4m"


def test_one_row_with_four_melds() -> None:
    a = assign(lay([[["1z"]], [["8p"], ["8p"], ["1m", "1m", "1m"], ["2s", "3s", "4s"], ["6z", "6z>", "6z"], ["7p", "8p", "9p"]]]))
    assert (a.hand, a.win_tile) == (["8p"], "8p")
    assert sorted(melds(a)) == [("chi", "234s"), ("chi", "789p"), ("peng", "111m"), ("peng", "666z")]


def test_melds_at_the_left_end_of_the_row() -> None:
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m"]
    a = assign(lay([[["1z"]], [["3m", "4m", "5m"], ["7z", "7z", "7z"], hand, ["9m"]]]))
    assert (a.hand, a.win_tile) == (hand, "9m")
    assert melds(a) == [("chi", "345m"), ("peng", "777z")]


def _loosened(dets: list[Detection], left: int, more: float) -> list[Detection]:
    """`dets` with the boxes of `dets[left]` and `dets[left + 1]` run `more` of a tile wide into the gap between them."""
    out = list(dets)
    for k, side in ((left, 2), (left + 1, 0)):
        box = list(out[k].box)
        box[side] += more * TW if side == 2 else -more * TW
        out[k] = replace(out[k], box=(box[0], box[1], box[2], box[3]))
    return out


def test_a_pung_laid_a_little_apart_at_the_left_is_a_meld_though_loose_boxes_all_but_close_its_gap() -> None:
    """A 碰 of 三筒 0.4 of a tile left of the concealed tiles, the boxes on either side of the gap 0.14 of a tile too
    wide: the boxes lie 0.12 apart (no gap to `split_groups`), the tiles' centres 0.26 farther than the row's pitch
    (`geometry.meld_left_splits`). Read into the hand, the hand is a win too (333p 123m 44m 456s 444z)."""
    hand = ["1m", "2m", "3m", "4m", "4m", "4s", "6s", "4z", "4z", "4z"]
    row = [["3p", "3p", "3p"], hand, ["+0.1"], ["5s"]]
    a = assign(_loosened(lay([[["+5"], ["4s"]], row], gap=0.4), 3, 0.14))
    assert melds(a) == [("peng", "333p")] and (a.hand, a.win_tile, a.indicator) == (hand, "5s", "4s")
    # the tiles 0.16 apart as hand tiles jostle: three alike at the hand's left end are concealed
    row = [["3p", "3p", "3p"], ["+-0.1"], hand, ["+0.1"], ["5s"]]
    a = assign(_loosened(lay([[["+5"], ["4s"]], row], gap=0.4), 3, 0.14))
    assert melds(a) == [] and a.hand == ["3p", "3p", "3p", *hand] and a.win_tile == "5s"


def test_a_run_at_the_left_of_the_hand_is_no_meld_when_the_melds_lie_at_the_right() -> None:
    """The hand 789p | 56s11z set a little apart, the winning 7s, then a 吃 789p and a 吃 789s: reading the first 789p
    as a meld at the left end as well reads a legal round too, but players push their melds to one side (composed
    tuning photo s8_tuning_one_row_057, 2026-12-05)."""
    a = assign(lay([[["6m"]], [["7p", "8p", "9p"], ["5s", "6s", "1z", "1z"], ["+0.5"], ["7s"], ["+0.5"],
                               ["7p", "8p", "9p"], ["+0.5"], ["7s", "8s>", "9s"]]], gap=0.35))
    assert (sorted(a.hand), a.win_tile, a.indicator) == (sorted(["7p", "8p", "9p", "5s", "6s", "1z", "1z"]), "7s", "6m")
    assert sorted(melds(a)) == [("chi", "789p"), ("chi", "789s")]


def test_a_run_at_the_left_of_the_hand_row_is_no_meld_when_the_melds_lie_in_another_row() -> None:
    """The photo guide's two rows: the hand 234s | 3334555z set a little apart and the winning 4z, the melds' row below
    holding a 碰 777z. Reading 234s as a 吃 laid at the left of the hand row reads a legal round too, but melds lie in
    one place (composed tuning photo s47_tuning_two_rows_058, 2026-12-05)."""
    hand = ["2s", "3s", "4s", "3z", "3z", "3z", "4z", "5z", "5z", "5z"]
    a = assign(lay([[["2z"]], [hand[:3], hand[3:], ["+0.5"], ["4z"]], [["7z", "7z", "7z"]]], gap=0.35))
    assert (sorted(a.hand), a.win_tile) == (sorted(hand), "4z")
    assert melds(a) == [("peng", "777z")]


def test_a_kong_with_its_fourth_tile_sideways_in_one_row() -> None:
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    a = assign(lay([[["3z"]], [hand, ["1z"], ["5s", "5s", "5s>", "5s"]]]))
    assert melds(a) == [("gang", "5555s")] and a.win_tile == "1z" and a.hand == hand


def test_a_kong_with_its_fourth_tile_set_a_little_apart_is_a_kong() -> None:
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    a = assign(lay([[["3z"]], [hand, ["1z"], ["5s", "5s", "5s"], ["+-0.3"], ["5s"]]]))
    assert melds(a) == [("gang", "5555s")] and a.win_tile == "1z" and a.hand == hand


def test_a_concealed_kong_with_its_backs_in_the_middle() -> None:
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    a = assign(lay([[["3z"]], [hand, ["1z"], ["7p", "back", "back", "7p"]]]))
    assert melds(a) == [("angang", "7777p")] and a.win_tile == "1z"


def test_a_concealed_kong_parted_between_its_backs_in_a_row_of_melds_is_one_kong() -> None:
    # two 暗杠 in a row of melds below the hand, each boxed with a fifth of a tile between its two backs (the
    # row's other tiles touch, so that gap parts groups): each half is no meld, the whole is one (composed tuning
    # photo s12_tuning_two_rows_041)
    hand = ["1m", "3m", "1s", "2s", "3s", "6s", "6s"]
    a = assign(lay([[["1m"]], [hand, ["+0.4"], ["2m"]],
                    [["9s", "back"], ["back", "9s"], ["+0.6"], ["6z", "back"], ["back", "6z"]]],
                   gap=0.2))
    assert melds(a) == [("angang", "9999s"), ("angang", "6666z")]
    assert (a.hand, a.win_tile, a.indicator) == (hand, "2m", "1m") and "not_a_meld" not in codes(a)


def test_a_concealed_kong_a_back_short_parted_where_the_missed_back_lies_is_one_kong() -> None:
    # the detector boxed one of the 暗杠's two backs: its 东 and back, a tile's room, its other 东 (composed tuning
    # photos s21_tuning_one_row_031, s109_tuning_one_row_056): apart, neither part is a meld
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    a = assign(lay([[["3z"]], [hand, ["1z"], ["6z", "back"], ["+0.4"], ["6z"]]]))
    assert melds(a) == [("angang", "6666z")]
    assert (a.hand, a.win_tile, a.indicator) == (hand, "1z", "3z") and "angang_missing" in codes(a)


def test_a_concealed_kong_whose_two_backs_were_both_missed_is_read_from_its_faces_two_tiles_apart() -> None:
    # face, back, back, face with neither flat-coloured back boxed (composed tuning photos s163_tuning_one_row_026,
    # s173_tuning_one_row_003): two lone 九條 two tiles apart, and the round a kong short
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    a = assign(lay([[["3z"]], [hand, ["1z"], ["9s"], ["+1.4"], ["9s"]]]))
    assert melds(a) == [("angang", "9999s")] and "angang_backs_unseen" in codes(a)
    assert (a.hand, a.win_tile, a.indicator) == (hand, "1z", "3z")
    # its two unseen tiles count as 精 as its faces do: 8條 flipped, 9條 is 副精
    jing = assign(lay([[["8s"]], [hand, ["1z"], ["9s"], ["+1.4"], ["9s"]]]))
    assert melds(jing) == [("angang", "9999s")] and jing.jing_count == {"zheng": 1, "fu": 4}
    # the two lone tiles unlike, or set apart by more than two tiles' room: no kong
    assert melds(assign(lay([[["3z"]], [hand, ["1z"], ["9s"], ["+1.4"], ["8s"]]]))) == []
    assert melds(assign(lay([[["3z"]], [hand, ["1z"], ["9s"], ["+2.6"], ["9s"]]]))) == []


def test_a_concealed_kong_laid_touching_the_winning_tile_is_cut_off_it() -> None:
    # the winning 七筒 laid against the 暗杠's first back (composed tuning photo s89_tuning_one_row_049): one group of
    # five, no meld and no winning tile apart; no concealed tile lies face down, so the four make the kong
    hand = ["1p", "2p", "3p", "7p", "9p", "9p", "9p"]
    a = assign(lay([[["4m"]], [hand, ["7p", "back", "2m", "2m", "back"], ["5m", "6m", "7m"]]]))
    assert melds(a) == [("angang", "2222m"), ("chi", "567m")]
    assert (a.hand, a.win_tile, a.indicator) == (hand, "7p", "4m")


# --------------------------------------------------------------------------- the indicator anywhere


def test_an_indicator_below_the_hand() -> None:
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "7s", "8s", "9s", "5z", "5z", "5z"]
    a = assign(lay([[hand, ["7s"]], [["+4"], ["2m"]]]))
    assert (a.indicator, a.win_tile, a.hand) == ("2m", "7s", hand)
    assert "indicator" not in codes(a)


def test_a_blank_white_dragon_alone_above_the_hand_is_the_indicator() -> None:
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "7s", "8s", "9s", "2z", "2z", "2z"]
    dets = lay([[["+3"], ["5z"]], [hand, ["7s"]]], conf={"5z@1": 0.3},
               sure={"5z@1": (("5z", 0.35), ("back", 0.2), ("8p", 0.05))})
    a = assign(dets)
    assert a.indicator == "5z" and a.win_tile == "7s" and a.hand == hand


def test_a_blank_white_dragon_set_apart_after_the_hand_read_as_a_back_is_the_winning_tile() -> None:
    """The winning 白板 between the hand and its melds, read face down (back 0.63, 白 0.19): a lone back is no
    winning tile, so it was read into the hand and the round had no winning tile."""
    hand = ["5z", "8s", "8s", "3m", "2m", "4m", "8s"]
    sure = {"back@9": (("back", 0.63), ("5z", 0.19), ("2s", 0.01))}
    a = assign(lay([[["+8"], ["1p"]], [hand, ["back"], ["1m", "2m", "3m"], ["back", "7p", "7p", "back"]]], sure=sure))
    assert (a.hand, a.win_tile, a.indicator) == (hand, "5z", "1p")
    assert melds(a) == [("chi", "123m"), ("angang", "7777p")] and "legal_fix" in codes(a)


# --------------------------------------------------------------------------- the most probable legal round


def test_a_one_bamboo_misread_as_one_dot_is_fixed_when_only_one_bamboo_makes_a_win_and_asked_about() -> None:
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "1s", "2s", "3s", "7z", "7z", "9p", "9p"]
    sure = {"1p@8": (("1p", 0.55), ("1s", 0.40), ("7s", 0.02))}
    a = assign(lay([[["3z"]], [[*hand[:6], "1p", *hand[7:]], ["9p"]]], sure=sure))
    assert a.hand == hand and a.win_tile == "9p" and "not_a_win" not in codes(a)
    q = [q for q in a.questions if q["code"] == "legal_fix"]
    assert len(q) == 1 and "一筒" in q[0]["zh"] and "一条" in q[0]["zh"] and "1s" in q[0]["en"]


def test_a_hand_with_no_legal_reading_is_said_and_shown_as_read() -> None:
    hand = ["1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s", "1z", "1z", "2z", "2z"]
    a = assign(lay([[["3z"]], [hand, ["6z"]]]))
    assert "not_a_win" in codes(a)
    assert a.hand == hand and a.win_tile == "6z" and a.indicator == "3z"  # the first reading, as seen


def test_an_indicator_that_would_be_a_fifth_copy_is_read_as_its_second_choice_and_asked_about() -> None:
    hand = ["1m", "1m", "1m", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "9p"]
    sure = {"1m@1": (("1m", 0.6), ("7m", 0.35))}  # four 1m in the hand: the indicator cannot be a fifth
    a = assign(lay([[["1m"]], [hand, ["9p"]]], sure=sure))
    assert a.indicator == "7m" and a.hand == hand and a.win_tile == "9p"
    q = [q for q in a.questions if q["code"] == "legal_fix"]
    assert len(q) == 1 and "一万" in q[0]["zh"] and "七万" in q[0]["zh"]


def test_decoding_adds_little_time_to_a_read() -> None:
    hand = ["1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s", "1z", "1z", "2z", "2z"]
    dets = lay([[["3z"]], [hand, ["6z"]]])
    dets = [Detection(d.box, d.tile, 0.7, ((d.tile, 0.6), ("5z", 0.2), ("8p", 0.1))) for d in dets]
    assign(dets)
    t = time.perf_counter()
    assign(dets)
    assert time.perf_counter() - t < 0.25  # the worst case (nothing legal: every choice tried) on a slow CI core


def test_a_kong_with_its_fourth_tile_stacked_on_the_middle_one_is_a_kong() -> None:
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    dets = lay([[["3z"]], [hand, ["1z"], ["5s", "5s", "5s"]]])
    x1, y1, x2, y2 = dets[-2].box  # the middle tile of the three: the stacked pair shows taller
    dets[-2] = Detection((x1, y1 - 0.4 * TH, x2, y2), "5s", 0.9, (("5s", 0.97),))
    a = assign(dets)
    assert melds(a) == [("gang", "5555s")] and a.win_tile == "1z" and "kong_stacked" in codes(a)


def test_a_pung_tile_read_face_down_is_read_as_its_face_when_only_that_makes_a_win() -> None:
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    sure = {"back@14": (("back", 0.7), ("5z", 0.2), ("3p", 0.01))}
    a = assign(lay([[["3z"]], [hand, ["1z"]], [["5z", "back", "5z"]]], sure=sure))
    assert melds(a) == [("peng", "555z")] and "legal_fix" in codes(a)


def test_a_kong_split_in_two_by_the_gap_of_its_sideways_tile_is_one_kong() -> None:
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    a = assign(lay([[["3z"]], [hand, ["1z"], ["5s", "5s"], ["+-0.2"], ["5s", "5s"]]]))
    assert melds(a) == [("gang", "5555s")] and a.win_tile == "1z" and a.hand == hand


# --------------------------------------------------------------------------- gaps and stacks the boxes hide


def test_a_winning_tile_whose_loose_box_eats_its_gap_is_still_read_apart() -> None:
    """The detector's box of the winning tile runs wide into its gap: the boxes almost touch, but the
    tile's centre lies 0.2 tile widths farther than the row's pitch (`geometry.weak_splits`)."""
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"]
    dets = lay([[["9m"]], [hand]])
    end = dets[-1].box[2]
    y1, y2 = dets[-1].box[1], dets[-1].box[3]
    apart = [*dets, Detection((end + 0.05 * TW, y1, end + 1.35 * TW, y2), "2z", 0.9, (("2z", 0.97),))]
    a = assign(apart)
    assert (a.hand, a.win_tile, a.indicator) == (hand, "2z", "9m")
    touching = [*dets, Detection((end, y1, end + TW, y2), "2z", 0.9, (("2z", 0.97),))]
    assert assign(touching).win_tile is None  # nothing sets it apart: asked, not guessed


def _with_middle_box(dets: list[Detection], box: tuple[float, float, float, float]) -> list[Detection]:
    out = list(dets)
    out[-2] = Detection(box, out[-2].tile, 0.9, ((out[-2].tile, 0.97),))
    return out


def test_a_kong_whose_stacked_fourth_tile_rises_a_fifth_above_the_middle_one_is_a_kong() -> None:
    """The detector boxes the stacked pair as one box from the top tile's top to the lower tile's bottom:
    only 1.2× as tall, its bottom in line with its neighbours' (`readings._middle_rises`)."""
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    dets = lay([[["3z"]], [hand, ["1z"], ["5s", "5s", "5s"]]])
    x1, y1, x2, y2 = dets[-2].box
    a = assign(_with_middle_box(dets, (x1, y1 - 0.2 * TH, x2, y2)))
    assert melds(a) == [("gang", "5555s")] and "kong_stacked" in codes(a)
    # the pair's box narrower than a tile opens a gap before it: the three are still one kong
    a = assign(_with_middle_box(dets, (x1 + 0.35 * TW, y1 - 0.2 * TH, x2, y2)))
    assert melds(a) == [("gang", "5555s")] and a.hand == hand and a.win_tile == "1z"


def test_a_pung_whose_middle_box_is_a_little_taller_stays_a_pung() -> None:
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    dets = lay([[["3z"]], [hand, ["1z"], ["5s", "5s", "5s"]]])
    x1, y1, x2, y2 = dets[-2].box
    assert melds(assign(_with_middle_box(dets, (x1, y1 - 0.1 * TH, x2, y2)))) == [("peng", "555s")]
    # risen as far, but the whole box moved up (its bottom too): a tile set a little higher, not a stack
    assert melds(assign(_with_middle_box(dets, (x1, y1 - 0.19 * TH, x2, y2 - 0.19 * TH)))) == [("peng", "555s")]


def test_a_pung_whose_claimed_tile_lies_sideways_boxed_square_stays_a_pung() -> None:
    """A claimed tile lying sideways at the pung's end boxed square (as high as a tile is wide, lying lower): against
    it and the tile at the other end together the middle one rose a fifth of a tile, and the pung was read a stacked
    kong. Measured against the standing one alone it lies in line."""
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    dets = lay([[["3z"]], [hand, ["1z"], ["5s", "5s", "5s"]]])
    square = list(dets)
    x1, _, _, y2 = dets[-3].box
    square[-3] = Detection((x1, y2 - TW, x1 + TW, y2), "5s", 0.9, (("5s", 0.97),))
    square = _with_middle_box(square, (dets[-2].box[0], dets[-2].box[1] - 2, dets[-2].box[2], dets[-2].box[3]))
    assert melds(assign(square)) == [("peng", "555s")]

def test_a_middle_tile_set_a_little_higher_whose_top_the_detector_doubts_is_a_stacked_kong() -> None:
    """Lifted as a whole by 0.15 of a tile, the middle box alone says nothing; where the detector's own boxes
    there disagree on its top by a fifth of a tile (boxed now as the pair, now as the tile on top), a fourth tile
    lies on it (`Detection.top_doubt`)."""
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    dets = lay([[["3z"]], [hand, ["1z"], ["5s", "5s", "5s"]]])
    x1, y1, x2, y2 = dets[-2].box
    lifted = _with_middle_box(dets, (x1, y1 - 0.15 * TH, x2, y2 - 0.15 * TH))
    assert melds(assign(lifted)) == [("peng", "555s")]
    doubted = list(lifted)
    doubted[-2] = replace(lifted[-2], top_doubt=0.2)
    a = assign(doubted)
    assert melds(a) == [("gang", "5555s")] and "kong_stacked" in codes(a) and a.hand == hand
    doubted[-2] = replace(lifted[-2], top_doubt=0.05)  # candidates about agreeing: a tile alone
    assert melds(assign(doubted)) == [("peng", "555s")]
    level = list(dets)
    level[-2] = replace(dets[-2], top_doubt=0.3)  # doubt, but the tile lies in line: nothing on it
    assert melds(assign(level)) == [("peng", "555s")]


def test_three_alike_with_tile_face_above_the_middle_one_are_a_stacked_kong() -> None:
    """The detector boxed only the lower tile of the stacked pair, in line with the others; the photo shows tile face
    just above the middle one (`Detection.face_above`, `vision.reader.stacked`): a fourth tile lies on it."""
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    dets = lay([[["3z"]], [hand, ["1z"], ["5s", "5s", "5s"]]])
    assert melds(assign(dets)) == [("peng", "555s")]
    faced = list(dets)
    faced[-2] = replace(dets[-2], face_above=0.6)
    a = assign(faced)
    assert melds(a) == [("gang", "5555s")] and "kong_stacked" in codes(a) and a.hand == hand and a.win_tile == "1z"
    faced[-2] = replace(dets[-2], face_above=0.3)  # a little face: a tile edge, a shadow
    assert melds(assign(faced)) == [("peng", "555s")]
    chow = lay([[["3z"]], [hand, ["1z"], ["5s", "6s", "7s"]]])
    chow[-2] = replace(chow[-2], face_above=0.8)  # three that may not be alike: never a kong
    assert melds(assign(chow)) == [("chi", "567s")]


def test_three_alike_with_a_box_drawn_lifted_over_the_middle_one_are_a_stacked_kong() -> None:
    """The detector boxed the lower tile of the stacked pair in line with the others and the tile on top only before
    NMS dropped it, at 0.1 (`Detection.box_above`): a fourth tile lies on it. A faint box there (0.02) is no reason."""
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    dets = lay([[["3z"]], [hand, ["1z"], ["5s", "5s", "5s"]]])
    boxed = list(dets)
    boxed[-2] = replace(dets[-2], box_above=0.1)
    a = assign(boxed)
    assert melds(a) == [("gang", "5555s")] and "kong_stacked" in codes(a) and a.hand == hand and a.win_tile == "1z"
    boxed[-2] = replace(dets[-2], box_above=0.02)
    assert melds(assign(boxed)) == [("peng", "555s")]
    chow = lay([[["3z"]], [hand, ["1z"], ["5s", "6s", "7s"]]])
    chow[-2] = replace(chow[-2], box_above=0.5)  # three that are not alike: never a kong
    assert melds(assign(chow)) == [("chi", "567s")]

def test_two_melds_laid_touching_at_the_left_end_are_cut_into_melds() -> None:
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m"]
    a = assign(lay([[["1z"]], [["3m", "4m>", "5m", "7z", "7z", "7z"], hand, ["9m"]]]))
    assert (a.hand, a.win_tile) == (hand, "9m")
    assert melds(a) == [("chi", "345m"), ("peng", "777z")]


def test_a_pung_whose_sideways_claimed_tile_lies_low_is_not_a_stacked_kong() -> None:
    """A sideways tile is shorter and lies lower than its standing neighbours; that is not a tile on top."""
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    dets = lay([[["3z"]], [hand, ["1z"]], [["5m>", "5m", "5m"]]])
    x1, y1, x2, y2 = dets[-3].box
    dets[-3] = Detection((x1, y1 + 0.15 * TH, x2, y2 + 0.15 * TH), "5m", 0.9, (("5m", 0.97),))
    a = assign(dets)
    assert melds(a) == [("peng", "555m")] and "kong_stacked" not in codes(a)
    assert a.melds[0]["claimed"] == "5m"


def test_a_chow_split_by_its_claimed_tiles_gap_is_one_meld_though_no_box_lies_sideways() -> None:
    """A claimed tile's box is not always wider than tall; the three still make a 吃 (`readings._split_meld`)."""
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z"]
    a = assign(lay([[["9m"]], [hand, ["1z"], ["2s", "3s"], ["4s"]]]))
    assert (a.hand, a.win_tile) == (hand, "1z")
    assert melds(a) == [("chi", "234s")]


def test_a_meld_whose_sideways_tile_touches_the_hand_is_cut_from_it() -> None:
    """The claimed 6萬 lies sideways against the concealed tiles: a claimed tile is never in the hand, so the
    row is also read cut beside it (`geometry.sideways_cuts`), and 4萬5萬 + 6萬 make the 吃."""
    hand = ["3m", "3m", "6m", "7m", "8m", "1s", "1s"]
    a = assign(lay([[["3p"]], [["4p", "4p", "4p"], ["4m", "5m"], ["6m>", *hand], ["3m"]]]))
    assert (a.hand, a.win_tile, a.indicator) == (hand, "3m", "3p")
    assert melds(a) == [("peng", "444p"), ("chi", "456m")] and a.melds[1]["claimed"] == "6m"


def test_a_pung_in_a_tilted_row_whose_outer_tile_sits_higher_is_not_a_stack() -> None:
    """Only the middle tile rising above both others is a tile stacked on it."""
    hand = ["2p", "3p", "4p", "6s", "7s", "8s", "9m", "9m", "1z", "1z"]
    dets = lay([[["3z"]], [hand, ["1z"], ["5s", "5s", "5s"]]])
    x1, y1, x2, y2 = dets[-3].box
    dets[-3] = Detection((x1, y1 - 0.25 * TH, x2, y2 - 0.25 * TH), "5s", 0.9, (("5s", 0.97),))
    assert melds(assign(dets)) == [("peng", "555s")]


def test_a_winning_tile_is_read_apart_when_the_hands_last_box_runs_wide_into_its_gap() -> None:
    """The last concealed tile's box runs into the gap, a little wider than tall: the tile still stands
    (only a box `SIDEWAYS_CLEAR` longer than tall lies sideways), and the pitch shows the gap."""
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"]
    dets = lay([[["9m"]], [hand]])
    x1, y1, x2, y2 = dets[-1].box
    dets[-1] = Detection((x1, y1, x2 + 0.45 * TW, y2), "2z", 0.9, (("2z", 0.97),))  # 43.5 × 40
    win = Detection((x2 + 0.5 * TW, y1, x2 + 1.5 * TW, y2), "2z", 0.9, (("2z", 0.97),))
    a = assign([*dets, win])
    assert (a.hand, a.win_tile) == (hand, "2z")


def test_a_tile_the_classifier_barely_names_may_be_any_tile_that_makes_the_win_and_is_asked_about() -> None:
    """Its top three choices (4條 0.05, 南 0.02, 4萬 0.01) say little and none makes a win; the rest of its belief is
    spread over every other tile (`legal.ANY_BELOW`), so a tile that makes the hand a win is read (6條 for 666條,
    or 東 for a pung of 東 and a pair of 6條) and asked about, instead of no win at all."""
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "6s", "6s", "6s", "1z"]
    seen = [*hand[:11], "4s", hand[12]]  # the third 6條, the 13th tile laid (after the indicator), read as 4條
    sure = {"4s@13": (("4s", 0.05), ("2z", 0.02), ("4m", 0.01))}
    a = assign(lay([[["3z"]], [seen, ["1z"]]], sure=sure, conf={"4s@13": 0.3}))
    legal = [sorted(hand), sorted([*hand[:11], "1z", hand[12]])]
    assert sorted(a.hand) in legal and a.win_tile == "1z" and "not_a_win" not in codes(a)
    q = [q for q in a.questions if q["code"] == "legal_fix"]
    assert len(q) == 1 and "读成了四条" in q[0]["zh"]


def test_a_chis_sideways_claimed_tile_at_the_rows_end_is_not_read_as_the_winning_tile() -> None:
    """One row: ten concealed tiles, the winning 4條 laid against them (a tenth of a tile apart), then a 吃 of 2萬 3萬
    and the claimed 4萬 lying sideways (composed tuning photo s173_tuning_one_row_087). Cut beside its sideways tile, the
    吃 made a lone 4萬 at the row's end, and it was read as the winning tile, 2萬 3萬 as concealed tiles. A claimed tile
    lies sideways, a winning tile does not (`sideways_win`): the 吃 is read, and the winning tile is asked about."""
    hand = ["2p", "5m", "5m", "3s", "2p", "5s", "1p", "2p", "2p", "3p"]
    a = assign(lay([[["4z"]], [hand, ["+0.1"], ["4s"], ["+0.7"], ["2m", "3m", "4m>"]]], gap=0.0))
    assert [(m["type"], m["tiles"]) for m in a.melds] == [("chi", "234m")] and a.win_tile != "4m"
    assert a.hand == [*hand, "4s"] and "win_tile" in codes(a)


def test_a_winning_tile_named_under_a_third_may_be_any_tile_that_makes_the_win() -> None:
    """The winning 6筒 set apart after the hand is named 7筒 at 0.29 (9筒 0.11, 8筒 0.05: composed tuning photo
    s8_tuning_two_rows_081): none of its top choices makes 44 66筒 567 789條 222南 a win, nor does any other single
    change. Named under `legal.ANY_BELOW`, its leftover belief is spread over every tile: a tile that makes the win
    (4筒 or 6筒) is read and asked about, instead of no win at all."""
    hand = ["4p", "4p", "6p", "6p", "5s", "6s", "7s", "7s", "8s", "9s", "2z", "2z", "2z"]
    sure = {"7p@15": (("7p", 0.29), ("9p", 0.11), ("8p", 0.05))}
    a = assign(lay([[["3s"]], [hand, ["7p"]]], sure=sure, conf={"7p@15": 0.44}))
    assert a.hand == hand and a.win_tile in ("4p", "6p") and "not_a_win" not in codes(a)
    q = [q for q in a.questions if q["code"] == "legal_fix"]
    assert len(q) == 1 and "读成了七筒" in q[0]["zh"]


def test_an_indicator_the_classifier_barely_names_is_not_any_tile_whose_jing_would_make_the_win() -> None:
    """The indicator above the hand is named 3條 at 0.03 (composed tuning photo s55_tuning_one_row_067). A hand tile so
    barely named may become any tile that makes the win (above), but a changed indicator changes the 精, and 精 are wild:
    an indicator of 東 would make 東 東 南 wild here and the hand a win. Only its own top choices are tried: the hand
    is said to be no win, the indicator left as read."""
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "6z"]
    sure = {"3s@1": (("3s", 0.03), ("4s", 0.003), ("8m", 0.002))}
    a = assign(lay([[["+3"], ["3s"]], [hand, ["2z"]]], sure=sure, conf={"3s@1": 0.3}))
    assert a.indicator == "3s" and "legal_fix" not in codes(a) and "not_a_win" in codes(a)
    named = {"3s@1": (("3s", 0.03), ("1z", 0.02), ("8m", 0.002))}  # among its top choices, 東 is taken and asked about
    b = assign(lay([[["+3"], ["3s"]], [hand, ["2z"]]], sure=named, conf={"3s@1": 0.3}))
    assert b.indicator == "1z" and "legal_fix" in codes(b) and "not_a_win" not in codes(b)


def test_a_concealed_kong_touching_a_pung_whose_sideways_tile_is_misread_is_cut_into_both() -> None:
    # a 暗杠 (backs outside) laid touching a 碰 of 4筒 whose sideways claimed tile the classifier reads 4條 0.24 /
    # 4筒 0.14: cut by the first choices it is no melds; by the top choices it is the 暗杠 and the 碰
    from vision.reader.layout.geometry import place
    from vision.reader.layout.melds import meld_by_choices, partition_melds
    from vision.reader.layout.readings import Unit, _melds_cut

    sure = {"4s@5": (("4s", 0.24), ("4p", 0.14), ("6p", 0.04))}
    tiles = place(lay([[["back", "3p", "3p", "back", "4s>", "4p", "4p"]]], sure=sure), 0.0)
    assert partition_melds(tiles) == [] and partition_melds(tiles, need_sideways=False) == []
    assert [4, 3] in partition_melds(tiles, by_choices=True)
    assert meld_by_choices(tiles[4:]) and not meld_by_choices(place(lay([[["4s", "5p", "4p"]]]), 0.0))
    cut = _melds_cut(Unit(tuple(tiles), 0))
    assert cut is not None and [len(u.tiles) for u in cut] == [4, 3]


def test_a_pung_without_its_sideways_tile_touching_a_concealed_kong_is_no_second_concealed_kong() -> None:
    # 碰 777筒 laid without a sideways tile, touching a 暗杠 of 4條 with its backs outside: cut 4 + 3 the group shows
    # "every sideways tile" (none), but reads 7筒 7筒 7筒 + a back as one 暗杠 and the other a tile short
    hand = ["2m", "3p", "4p", "5p", "6z", "6z", "6z"]
    a = assign(lay([[["3m"]], [hand, ["2m"], ["7p", "7p", "7p", "back", "4s", "4s", "back"]]]))
    assert melds(a) == [("peng", "777p"), ("angang", "4444s")] and (a.hand, a.win_tile) == (hand, "2m")
    assert "angang_missing" not in codes(a)


def test_a_pung_with_a_sideways_tile_and_one_loose_tall_box_is_not_a_stacked_kong() -> None:
    # the first 9條's box runs loose, 1.3× the others' height; the sideways claimed tile lies low: a 碰 all the same
    hand = ["1m", "2m", "3m", "2p", "3p", "4p", "6s", "6s", "6s", "9m"]
    dets = lay([[["1z"]], [hand, ["9m"], ["9s", "9s>", "9s"]]])
    x1, y1, x2, y2 = dets[12].box
    dets[12] = Detection((x1 - 3, y1 - 0.3 * TH, x2 + 3, y2), "9s", 0.6, (("9s", 0.93),))
    a = assign(dets)
    assert melds(a) == [("peng", "999s")] and (a.hand, a.win_tile) == (hand, "9m")


def test_a_tile_boxed_twice_side_by_side_does_not_make_a_pung_a_kong() -> None:
    # the middle 5條 of a 碰 is boxed twice, two narrow boxes a third of a tile apart, the weaker one doubtful:
    # four boxes alike would be a kong; one of them is that tile again, set aside and asked about
    from vision.reader.layout import read_layout

    hand = ["1m", "2m", "3m", "2p", "3p", "4p", "6s", "6s", "6s", "9m"]
    dets = lay([[["1z"]], [hand, ["9m"], ["5s", "5s", "5s"]]])
    x1, y1, x2, y2 = dets[13].box
    dets[13] = Detection((x1 - 4, y1, x1 + 0.8 * TW, y2), "5s", 0.36, (("5s", 0.36), ("6s", 0.22)))
    twice = Detection((x1 + 0.3 * TW, y1, x2 + 2, y2), "5s", 0.28, (("5s", 0.25), ("6s", 0.03)))
    _, a = read_layout(lambda c: [d for d in [*dets, twice] if d.conf >= c], 0.25, (1000, 1000))
    assert melds(a) == [("peng", "555s")] and (a.hand, a.win_tile, a.indicator) == (hand, "9m", "1z")
    assert a.set_aside == [twice] and "set_aside" in codes(a)
    # both boxes fairly sure (0.53 and 0.49): the weaker is still that tile again
    dets[13] = Detection(dets[13].box, "5s", 0.53, (("5s", 0.55), ("3s", 0.05)))
    twice = Detection(twice.box, "5s", 0.49, (("5s", 0.78), ("2s", 0.01)))
    _, a = read_layout(lambda c: [d for d in [*dets, twice] if d.conf >= c], 0.25, (1000, 1000))
    assert melds(a) == [("peng", "555s")] and a.set_aside == [twice]


def test_a_kong_whose_stacked_tile_alone_is_boxed_a_quarter_higher_is_a_kong() -> None:
    # the detector boxed the tile lying on the middle one, not the pair: the middle box lies a quarter of a tile
    # higher as a whole (a composed tuning photo's three 8萬, in the row's frame: centres 401 / 368 / 390 px
    # across the row, heights 119 / 112 / 103); set merely a little higher (0.19 of a tile) it stays a 碰
    from vision.reader.layout.geometry import Placed
    from vision.reader.layout.readings import _other_reading

    def tile(u: float, v: float, across: float) -> Placed:
        return Placed(Detection((u - 47, v - across / 2, u + 47, v + across / 2), "8m", 0.5, (("8m", 0.9),)), u, v, 94, across)

    assert _other_reading((tile(600, 401, 119), tile(697, 368, 112), tile(786, 390, 103))) == "stacked"
    assert _other_reading((tile(600, 401, 119), tile(697, 401 - 0.19 * 119, 119), tile(786, 401, 119))) is None


def test_a_stacked_kong_at_the_left_end_of_the_row_is_no_three_concealed_tiles() -> None:
    """Three 東 with tile face above the middle one, set apart at the left of the hand: read as three concealed 東 the
    hand is a win too, but the fourth tile on top would be ignored; they are a kong."""
    hand = ["2m", "3m", "4m", "7s", "7s", "9s", "9s", "3z", "3z", "3z"]
    dets = lay([[["2m"]], [["1z", "1z", "1z"], hand, ["9s"]]])
    dets[2] = replace(dets[2], face_above=0.6)
    a = assign(dets)
    assert melds(a) == [("gang", "1111z")] and "kong_stacked" in codes(a)
    assert (a.hand, a.win_tile, a.indicator) == (hand, "9s", "2m")


def test_a_stacked_kong_touching_a_pung_at_the_left_end_is_cut_out_as_a_kong() -> None:
    """A kong's three with its fourth on the middle one, laid against a pung, both at the left of the hand: the group
    is cut into a kong and a pung, not read as six concealed tiles."""
    hand = ["7m", "8m", "9m", "4p", "5p", "6p", "6z"]
    dets = lay([[["3p"]], [["1p", "1p", "1p", "2m", "2m", "2m"], hand, ["6z"]]])
    dets[2] = replace(dets[2], face_above=0.6)
    a = assign(dets)
    assert melds(a) == [("gang", "1111p"), ("peng", "222m")] and "kong_stacked" in codes(a)
    assert (a.hand, a.win_tile) == (hand, "6z")
    plain = assign(lay([[["3p"]], [["1p", "1p", "1p", "2m", "2m", "2m"], hand, ["6z"]]]))  # nothing on top: no kong
    assert not any(kind == "gang" for kind, _ in melds(plain)) and "kong_stacked" not in codes(plain)


def test_a_chow_split_by_gaps_on_both_sides_of_its_middle_tile_is_one_meld_though_its_left_end_pairs_otherwise() -> None:
    """An indicator at the row's left end, then two 吃 whose claimed 八萬 was boxed narrow, opening a gap on either
    side of it: the 七八 may pair with the indicator before (the three share a faint choice) or with the 九 after;
    read with the 九, the round is the 吃 七八九 and 五六七."""
    hand = ["2m", "2m", "1s", "2s", "3s", "7s", "7s"]
    faint = {"2s@1": (("2s", 0.96), ("7m", 0.02)), "8m@3": (("8m", 0.95), ("7m", 0.02), ("9m", 0.01))}
    a = assign(lay([[["2s"], ["7m", "8m"], ["9m"], ["5m", "6m", "7m"], hand, ["7s"]]], sure=faint))
    assert melds(a) == [("chi", "789m"), ("chi", "567m")]
    assert (a.hand, a.win_tile, a.indicator) == (hand, "7s", "2s")


def test_a_chow_whose_middle_tile_rises_is_no_stacked_kong_for_choices_the_decoding_never_takes() -> None:
    """七八九萬 whose claimed 八萬 is boxed higher: each gives 七萬 half a percent, a choice no legal reading may take
    (`legal.MIN_ALTERNATIVE`), so they are no three alike that a fourth tile lies on; given 2 % they may be."""
    from vision.reader.layout.geometry import Placed
    from vision.reader.layout.readings import _other_reading

    def tile(u: float, v: float, code: str, seven: float) -> Placed:
        alts = ((code, 0.95), ("7m", seven)) if code != "7m" else ((code, 0.95),)
        return Placed(Detection((u - 47, v - 60, u + 47, v + 60), code, 0.5, alts), u, v, 94, 120)

    def chow(seven: float) -> tuple[Placed, ...]:
        return tile(600, 400, "7m", seven), tile(697, 360, "8m", seven), tile(794, 400, "9m", seven)

    assert _other_reading(chow(0.005)) is None
    assert _other_reading(chow(0.02)) == "stacked"


def test_a_chow_at_the_left_whose_claimed_tile_is_barely_named_and_set_apart_is_one_meld() -> None:
    """A 吃's sideways 三條 boxed as two pieces, the one kept named 南 at 0.09, set apart from its 四五條 by the gap of the
    piece left out: the three may be a meld whatever that tile is, and read so the row is a 吃 and the hand, not
    fourteen concealed tiles with a gap inside."""
    hand = ["4p", "4p", "4p", "6p", "5s", "6s", "7s", "7s", "8s", "9s"]
    barely = {"2z@2": (("2z", 0.09), ("8p", 0.04), ("1p", 0.03))}
    a = assign(lay([[["7m"]], [["2z"], ["4s", "5s"], hand, ["6p"]]], sure=barely))
    assert melds(a) == [("chi", "345s")]
    assert (a.hand, a.win_tile, a.indicator) == (hand, "6p", "7m")
    sure = assign(lay([[["7m"]], [["2z"], ["4s", "5s"], hand, ["6p"]]]))  # a 南 named surely: no meld with them
    assert not melds(sure)


def test_a_chow_and_a_pung_laid_touching_and_parted_by_a_gap_inside_the_pung_are_cut_into_both() -> None:
    """After the winning tile, a 吃 四五六條 touching the first 四條 of a 碰, a gap, then its other two: two groups of four
    and two tiles, neither a meld, together cut into the 吃 and the 碰."""
    hand = ["7m", "8m", "9m", "5p", "5p", "7p", "8p"]
    a = assign(lay([[["2s"]], [hand, ["6p"], ["4s", "5s", "6s", "4s"], ["4s", "4s"]]]))
    assert melds(a) == [("chi", "456s"), ("peng", "444s")]
    assert (a.hand, a.win_tile, a.indicator) == (hand, "6p", "2s")


def test_a_stacked_kong_beside_a_concealed_kong_across_a_gap_is_read_as_the_two_kongs() -> None:
    """In the melds row, three 二筒 with a fourth stacked on the middle one, a gap, then a 暗杠 of 一條: the seven may be
    cut as 二筒 ×3 + a back and a 暗杠 short of a tile, but the stacked kong and the whole 暗杠 are the likelier round."""
    hand = ["2m", "2m", "6s", "6s", "8s", "8s", "8s"]
    dets = lay([[["4s"], ["2p", "2p", "2p"], ["back", "1s", "1s", "back"]], [hand, ["6s"]]])
    dets[2] = replace(dets[2], face_above=0.8)
    a = assign(dets)
    assert sorted(melds(a)) == [("angang", "1111s"), ("gang", "2222p")] and "kong_stacked" in codes(a)
    assert (a.hand, a.win_tile, a.indicator) == (hand, "6s", "4s")


def test_a_box_round_part_of_a_sideways_claimed_tile_is_set_aside_not_the_lone_indicator() -> None:
    """A small box round the left end of a 吃's sideways 五筒 is named 二筒, a little surer than the 五筒's own box and
    than the lone 四筒 above the rows (composed tuning photo s113_tuning_two_rows_071). One of them is no tile; the box
    lying mostly inside another box named otherwise is a part of that tile, however sure, and is the one set aside,
    though six boxes are less sure than it: the 四筒 stays the indicator."""
    from vision.reader.layout import read_layout

    hand = ["7p", "8p", "2s", "2s", "2s", "5s", "5s"]
    conf = {"4p@1": 0.49, "5s@7": 0.53, "5s@8": 0.56, "9p@9": 0.48, "5p@10": 0.52, "5z@13": 0.40, "5z@14": 0.45,
            "5z@15": 0.5, "5z@16": 0.51, "2s@4": 0.55}
    dets = lay([[["+6"], ["4p"]], [hand, ["9p"]], [["5p>", "6p", "7p"], ["5z", "5z", "5z", "5z"]]], conf=conf)
    x1, y1, x2, y2 = dets[9].box  # the sideways 五筒
    part = Detection((x1 - 2, y1 - 1, x1 + 0.55 * (x2 - x1), y2), "2p", 0.54, (("2p", 0.93), ("5p", 0.004)))
    _, a = read_layout(lambda c: [d for d in [*dets, part] if d.conf >= c], 0.25, (1000, 1000))
    assert a.indicator == "4p" and (a.hand, a.win_tile) == (hand, "9p")
    assert melds(a) == [("chi", "567p"), ("gang", "5555z")] and a.set_aside == [part]
    # the part named as the tile it lies in is that tile boxed twice: the less sure box goes, as before
    same = replace(part, tile="5p", alternatives=(("5p", 0.9),))
    _, b = read_layout(lambda c: [d for d in [*dets, same] if d.conf >= c], 0.25, (1000, 1000))
    assert b.indicator == "4p" and melds(b) == [("chi", "567p"), ("gang", "5555z")] and b.set_aside == [dets[9]]


def test_the_winning_tile_is_the_one_set_apart_by_a_gap_wider_than_any_inside_the_hand() -> None:
    """A lone 一筒 at the left of the hand row, set apart by most of a tile, and a 七條 at the right, less far: read
    either as the indicator, the round adds up and is a win (composed tuning photo s163_tuning_two_rows_004). Taking
    the 七條 for the indicator makes the last 四條, set apart by a quarter of a tile only, the winning tile, with a wider
    gap inside the hand; the winning tile is the one set apart by a gap wider than every gap inside the hand."""
    hand = ["7s", "2p", "4s", "3p", "4p", "4s", "4s"]
    for gap in (0.25, 0.4):
        dets = lay([[["1p"], ["+0.6"], hand[:6], hand[6:], ["+0.3"], ["7s"]],
                    [["7m", "8m", "9m>"], ["5s", "5s", "5s>"]]], gap=gap)
        a = assign(dets)
        assert (a.indicator, a.hand, a.win_tile) == ("1p", hand, "7s")
        assert melds(a) == [("chi", "789m"), ("peng", "555s")] and "win_tile_check" not in codes(a)


def test_a_pung_whose_end_box_runs_tall_is_no_stacked_kong_but_one_box_over_two_tiles_at_its_end_is() -> None:
    """A 碰 pushed down in the hand row, no tile sideways, its last 七條 boxed loosely 1.3 times the others' height
    (composed tuning photo s163_tuning_one_row_012): a stacked kong shows its pair on the middle tile, so a tall end box
    is a loose box and the three stay a 碰. An end box as tall and as wide as two tiles is two of a kong's tiles boxed as
    one (s103_tuning_one_row_026): three alike boxes are then a kong."""
    hand = ["2p", "3p", "4p", "6m", "7m", "8m", "9m", "9m", "1z", "1z"]
    dets = lay([[["3z"]], [hand, ["1z"], ["7s", "7s", "7s"]]])
    x1, y1, x2, y2 = dets[-1].box
    dets[-1] = Detection((x1, y1 - 0.3 * TH, x2 + 2, y2), "7s", 0.6, (("7s", 0.96),))
    a = assign(dets)
    assert melds(a) == [("peng", "777s")] and (a.hand, a.win_tile) == (hand, "1z") and "kong_stacked" not in codes(a)
    dets[-1] = Detection((x1, y1 - 0.6 * TH, x2 + TW, y2), "7s", 0.6, (("7s", 0.96),))  # 2 tiles wide, still standing
    b = assign(dets)
    assert melds(b) == [("gang", "7777s")] and (b.hand, b.win_tile) == (hand, "1z")
