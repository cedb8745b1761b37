"""Photo detections → the winner's part of a round: rows, groups, hand, melds, winning tile, indicator, 精.

Pure Python + NumPy (never torch, ultralytics or `app`).  The steps, each a small function in
`geometry`, `melds`, `roles` and `questions`; this module holds `assign`, the one entry, and `Assignment`:

1. `estimate_angle` — the rows' direction: nearest-neighbour directions give a first guess, then a
   least-squares fit of the standing tiles' centres (one slope, one intercept per row) refines it;
2. `cluster_rows` — tiles go into rows by their offset perpendicular to that direction (a new row
   where the offset jumps by more than half a tile height); each row is ordered along the direction;
3. `split_groups` — a row splits where the gap between neighbours exceeds 0.3 median tile widths;
4. roles — the hand row is the row with the most standing face-up tiles; a lone tile set apart at
   its right end is the winning tile; other groups are melds (碰/吃/明杠/暗杠, a sideways tile is the
   claimed one) or, alone, the indicator (翻精);
5. checks — the tile count (14 with the winning tile), and a `question` for everything that could not
   be decided: nothing is guessed silently.

A photo shot turned 90° (most tiles wider than tall, rows running up and down; `turned_a_quarter`)
is read turned upright both ways, and the way whose layout adds up is kept (`_assign_turned`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.tiles import format_tiles, parse_tiles, tile
from vision.reader.detection import Detection
from vision.reader.detector import box_score
from vision.reader.layout.geometry import (
    BLANK,
    ROW_FRACTION,
    Group,
    Placed,
    cluster_rows,
    estimate_angle,
    measure_rows,
    quarter_turn,
    split_groups,
    turned_a_quarter,
)
from vision.reader.layout.questions import (
    TROUBLE,
    count_check,
    low_confidence_question,
    question,
    set_aside_question,
    tile_zh,
    weak_question,
    win_question,
)
from vision.reader.layout.readings import Decision, decide, not_a_win_question, row_readings, win_gap_clear
from vision.reader.layout.roles import (
    RoleState,
    TileRole,
    assign_hand_row,
    assign_indicator,
    assign_melds,
    count_winner_jing,
    hand_codes,
    pick_hand_row,
    report_leftovers,
    tile_roles,
    unseen_kong_tiles,
)

#: A box below this confidence may be set aside when that makes the photo's counts add up (bench, step-2 detector: 0.3 →
#: 0.45 settled-equal 96.5 → 97.5 %). 0.45 → 0.6 with the classifier pair, which names a patch of table more surely
#: than v9: saved tuning rounds 1 048 → 1 056 (0.5: 1 050, 0.55: 1 054, 0.65 and 0.7: 1 055; 2026-12-05).
DOUBTFUL = 0.6
#: At most this many doubtful boxes are set aside together: a white rail behind the tiles shows through the gaps
#: before the hand, before the winning tile and after it, each boxed as a 白板 (2 → 3: one more of the 570 composed
#: tuning rounds right, none lost, 2026-12-06).
MAX_SET_ASIDE = 3
#: When the layout does not add up, this many of the least sure doubtful boxes are each tried set aside alone, and the
#: likeliest reading of those that add up is kept.
SET_ASIDE_TRIES = 6
#: Held-back boxes (`assign(sure_above=…)`) weighed at most, likeliest tiles first (`held_odds`) …
WEAK_TRIES = 6
#: … taken in at most at once (a hand with two blank 白板 and a faint indicator lacks three) …
MAX_TAKEN = 4
#: … beyond the tiles the round lacks, at most this many more (a kong's fourth tile held back beside a 碰; 1 → 2: a
#: 暗杠's two backs both boxed faintly, beside another kong the count already takes for a 碰; tuning +1, none lost).
MAX_KONGS = 2
#: What each tile taken beyond what the round lacks costs: a 碰 read as a kong assumes its fourth tile.
KONG_EXTRA = 1.0
#: The least sure doubtful boxes that may be set aside while held-back tiles are taken in (3 → 5: a stray box named
#: at 0.17 was surer than three true tiles boxed doubtfully, and was never tried; tuning +1).
ASIDE_TRIES = 5
#: Layouts read at most to choose the held-back tiles (0.3–1 ms each; 4, 6 and 8 read the tuning split alike; 16,
#: with five boxes that may be set aside, read 2 more of 300 tuning rounds right, the median read unchanged).
MAX_HELD_BACK_READS = 16
#: A held-back box scored this (a gap tile's score, `gaps.GAP_BOX_SCORE`) or more is as likely a tile as its
#: classifier says; a box scored under it less so.
HELD_BACK_BOX = 0.1
#: A held-back box this much covered by one sure box is its tile again (or a box over two tiles): never taken. Two
#: neighbours' loose boxes each reaching a little over it do not add up to that (tuning: a 5條 lost that way).
HELD_COVERED = 0.4
#: A held-back box larger than this many usual boxes is less likely one tile (tuning: boxes 2.6–4.7 times the
#: usual one lay over two tiles, all but one).
HELD_LARGE = 1.8
#: A gap or faint tile is a true tile at most this likely, however sure its classifier (tuning: upright ones
#: named at 0.9 or more were true 14 in 19; table passes for a blank 白板 or a sideways 9條).
GAP_ODDS = 0.75
#: A held-back box lying sideways is this much less likely a tile (tuning: 14 of 30 were table).
SIDEWAYS_ODDS = 0.6
#: … and, together, all those the classifier names with at least this probability (the detector scores a
#: blank 白板 low, the classifier rarely doubts it: a hand of three 白 and a 白 indicator lose four boxes).
NAMED_WEAK = 0.6
#: A doubtful box whose tile the classifier gives less than this may be a stray box counted in place of a tile
#: held back: a round read with one is read again (tuning: such boxes lie in 1 photo in 15, 1 in 4 of them stray).
STRAY_P = 0.2  # 0.15 → 0.2: a half box over a 4筒 named 2筒 at 0.17 was never swapped (tuning +1)
#: … or a 白板 less than this: a blank face looks like the table, and a patch of table between two groups is
#: named 白板 unsurely (tuning: two such boxes made a 碰 a kong).
BLANK_STRAY_P = 0.5
#: … or, beside a 白板 of the photo named at least `BLANK_SURE`, a 白板 named under `BLANK_UNLIKE` (tuning: a white
#: table between tiles named 白板 at 0.43–0.61 beside the set's framed 白板 named 0.99).
BLANK_SURE = 0.95
BLANK_UNLIKE = 0.7
#: … or, beside such a 白板, one whose crop looks this unlike it, however surely named (`Detection.blank_apart`; the 3 800
#: looked-at composed photos: 398 true 白板 beside a sure one lay 0.008–0.24 from it, 90 % under 0.1, 4 at 0.18 or
#: more; of 42 boxes on a tile wall's white side or the table, named 白板 up to 0.93, 35 lay 0.18–0.52 from it, and 5
#: of the 6 named 0.7 or more, which `BLANK_UNLIKE` leaves).
BLANK_APART = 0.18
#: … and is a tile this likely (tuning, 420 photos: of 8 such boxes, 2 were a 白板, 6 table).
BLANK_TABLE_ODDS = 0.25
#: A box whose centre lies under this share of a tile's width from a surer box's, side by side with it, is that
#: tile boxed twice more often than a tile of its own (tuning, 840 photos: 24 of 32; doubtful ones 21 of 28, the
#: surer ones 3 of 4), a tile at these odds.
CROWDED = 0.6
CROWDED_ODDS = 0.25
#: Of two boxes on one tile, the one with this share of its area inside the other is the part (`_the_part`).
PART_INSIDE = 0.6
#: A box under this share of the usual box's area is a piece of a tile or of the table more often than a tile
#: (tuning, 1 140 photos: of 30 such boxes at the threshold 5 were tiles, none under 0.35), a tile at these odds.
SMALL = 0.5
SMALL_ODDS = 0.2
#: A box at least this many times the usual width holding two other boxes side by side (each at least `OVER_TWO_INSIDE`
#: inside it, held back or not) is a box over two tiles, a tile of its own at `OVER_TWO_ODDS`: a 碰's last two 八條
#: boxed faintly each and surely together made it a kong.
OVER_TWO_WIDE = 1.5
OVER_TWO_INSIDE = 0.7
OVER_TWO_ODDS = 0.25
#: A legal round read at the threshold whose reading costs this much (−log odds, `Assignment.cost`) or more is read
#: again down to `WEAK_FLOOR` (tuning, 1 140 photos: 21 more read deeper; a doubled box named 1筒, changed to 2筒, had made
#: a 碰 a kong, and read deeper, where the doubled box is left out, the 碰 is read; +1, none lost at 0.7–3).
UNLIKELY = 2.0
#: A box within this share of the photo's shorter side from its edge touches the frame (`cut_by_the_frame`).
FRAME_EDGE = 0.01
#: A photo whose round does not add up is detected again down to this confidence, its boxes under the
#: threshold held back (`read_layout`). A blank 白板 is named by the classifier (p 0.8–0.99) but its box
#: scores low (0.05–0.6: an empty face), so it often ends under 0.25; on composed real-pixel photos
#: a lone 白板 scored 0.14–0.73, and 0.25 alone missed a tile in 1 photo in 4 (0.15: 1 in 12).
WEAK_FLOOR = 0.1

__all__ = ["WEAK_FLOOR", "Assignment", "read_layout", "Group", "Placed", "TileRole", "assign", "cluster_rows", "estimate_angle", "split_groups", "turned_a_quarter"]


@dataclass
class Assignment:
    """What the photo says about the winner: rows, groups, hand, melds, winning tile, indicator, 精, questions."""

    rows: list[list[Detection]] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    melds: list[dict[str, Any]] = field(default_factory=list)
    win_tile: str | None = None
    indicator: str | None = None
    tiles: list[TileRole] = field(default_factory=list)
    jing_count: dict[str, int] | None = None
    confidence: dict[str, float] = field(default_factory=dict)
    questions: list[dict[str, str]] = field(default_factory=list)
    angle_deg: float = 0.0
    set_aside: list[Detection] = field(default_factory=list)
    cost: float = 0.0  # how unusual the chosen reading is (−log odds: layout + tiles changed; `legal.decode`)

    def winner_tiles(self) -> list[str]:
        """Concealed hand + winning tile (what the score page edits)."""
        return [*self.hand, *([self.win_tile] if self.win_tile else [])]

    def jing_marks(self) -> list[dict[str, Any]]:
        """Every tile with its role and 精 mark ('zheng', 'fu' or None), in reading order."""
        return [
            {"tile": t.det.tile, "role": t.role, "meld": t.meld, "mark": t.mark, "box": [round(v, 1) for v in t.det.box]}
            for t in self.tiles
        ]

    def to_round_part(self) -> dict[str, Any]:
        """The winner's part of a round document (round-format.md) plus the 精 marks and open questions."""
        return {
            "indicator": self.indicator,
            "hand": format_tiles(parse_tiles(self.hand)),
            "melds": [dict(m) for m in self.melds],
            "win": {"tile": self.win_tile},
            "jing_count": dict(self.jing_count) if self.jing_count is not None else None,
            "jing_marks": self.jing_marks(),
            "confidence": {k: round(v, 3) for k, v in self.confidence.items()},
            "questions": [dict(q) for q in self.questions],
            "set_aside": [{"tile": d.tile, "conf": round(d.conf, 3), "box": [round(v, 1) for v in d.box]}
                          for d in self.set_aside],
        }


# ----------------------------------------------------------------------------- entry point


def _normalise_indicator(indicator: str | None) -> str | None:
    """The code of a given indicator ('5p', '五筒', ...); unknown codes raise TileError."""
    return None if indicator in (None, "") else tile(str(indicator)).code


def _inside(d: Detection, image_size: tuple[int, int] | None) -> bool:
    """The box centre lies in the photo (always true when the size is not given)."""
    return image_size is None or (0 <= d.cx <= image_size[0] and 0 <= d.cy <= image_size[1])


def assign(
    detections: Sequence[Detection], image_size: tuple[int, int] | None = None, indicator: str | None = None,
    sure_above: float | None = None, options: Any = None,
) -> Assignment:
    """Rows, groups and roles of a photo's detections; `indicator` (a tile code) overrides the photo's.

    When the layout does not add up (a tile too many, a stray box), the doubtful boxes (conf < DOUBTFUL)
    are set aside, least sure first, up to MAX_SET_ASIDE; the first layout that adds up is kept and the
    boxes set aside are named in a question, so the player can put one back.

    With `sure_above`, boxes less sure than that are held back: the photo is read without them, and when
    that round lacks a tile, does not add up or holds a 碰, the held-back tiles it needs are chosen together
    (`_take_held_back`: up to `MAX_TAKEN` of them, with up to `MAX_SET_ASIDE` doubtful boxes set aside, as the most probable
    complete legal round) — a tile the detector barely saw, a blank 白板 the classifier cannot name, a kong's
    fourth tile. Each tile taken in and each box set aside is asked about.

    `options`: the table's rule options (`scoring.chongguan` typed options; default 兴国) that decide which
    hands are wins when the legal round is chosen.
    """
    given = _normalise_indicator(indicator)
    dets = _usable(detections, image_size)
    if not dets:
        return _empty(given)
    if sure_above is None:
        return _assign_any(dets, given, options)
    return _with_held_back(dets, given, sure_above, options)


def _usable(detections: Sequence[Detection], image_size: tuple[int, int] | None) -> list[Detection]:
    """The boxes with an area whose centre lies in the photo, but for tiles the photo's frame cuts off
    (`cut_by_the_frame`)."""
    dets = [d for d in detections if d.width > 0 and d.height > 0 and _inside(d, image_size)]
    cut = cut_by_the_frame(dets, image_size)
    return [d for d in dets if id(d) not in cut]


def cut_by_the_frame(dets: Sequence[Detection], image_size: tuple[int, int] | None) -> set[int]:
    """The ids of boxes touching the photo's edge above or below the rows (left or right of them in a photo shot
    turned 90°) that are under `SMALL` of the usual box's area: tiles the frame cuts off, lying beyond the round
    laid out (another player's discards). A row's end cut off by the frame may be the hand's last tile: kept."""
    if image_size is None or len(dets) < 3:
        return set()
    w, h = image_size
    usual = _usual_area(dets)
    edge = FRAME_EDGE * min(w, h)
    if turned_a_quarter(dets):
        return {id(d) for d in dets if d.width * d.height < SMALL * usual and (d.box[0] <= edge or d.box[2] >= w - edge)}
    return {id(d) for d in dets if d.width * d.height < SMALL * usual and (d.box[1] <= edge or d.box[3] >= h - edge)}


def _with_held_back(dets: list[Detection], given: str | None, sure_above: float, options: Any = None,
                    first: Assignment | None = None) -> Assignment:
    """`assign(sure_above=…)` of usable boxes; `first`: the reading of the sure boxes alone, when already made."""
    sure = _sure(dets, sure_above)
    turned = turned_a_quarter(sure)
    weak = [d for d in dets if not _is_sure(d, sure_above)]
    # a sure box over two tiles covers both without being either: they stay held back, and it may be set aside for them
    # (two 八萬 boxed faintly each and surely together; composed photos, 2026-12-07: 1 more right, none of 5 360 lost)
    wide = over_two(sure, weak)
    cover = [d for d in sure if id(d) not in wide]
    held = sorted(((d, q) for d in weak if (q := held_odds(d, cover, turned)) > 0), key=lambda t: -t[1])
    first = first or _assign_any(sure or dets, given, options)
    stray = _stray_in(first)
    if not sure or not (held or stray) or not (_in_doubt(first) or _pungs(first) or stray):
        return first
    return _take_held_back(first, sure, held, given, options)


def named_on_a_place(d: Detection) -> bool:
    """A gap or faint tile (`vision.reader.gaps`): named by the classifier on a place the detector did not box
    (or barely), scored as a gap tile's box (`HELD_BACK_BOX`, `gaps.GAP_BOX_SCORE`) whatever the threshold."""
    p = d.alternatives[0][1] if d.alternatives else 1.0
    return abs(box_score(d.conf, p) - HELD_BACK_BOX) < 1e-6


def _is_sure(d: Detection, sure_above: float) -> bool:
    """A box the threshold passes; a gap or faint tile never does (read at a threshold under its score, 0.2 say,
    it would be counted unasked, or set aside with a question, where it is to be held back)."""
    return d.conf >= sure_above and not named_on_a_place(d)


def _sure(dets: Sequence[Detection], sure_above: float) -> list[Detection]:
    """The boxes the threshold passes (`_is_sure`)."""
    return [d for d in dets if _is_sure(d, sure_above)]


def sure_odds(d: Detection, odd: Mapping[int, float] | None = None) -> float:
    """How likely a box the threshold passed is a true tile, by its confidence (tuning split: 0.25–0.35 four
    in five, 0.35 and more nineteen in twenty); a box boxed oddly (its id in `odd`, `odd_boxes`) as likely as
    `odd` says."""
    if odd and id(d) in odd:
        return odd[id(d)]
    return min(0.97, 0.5 + d.conf)


def crowded(dets: Sequence[Detection]) -> set[int]:
    """The ids of boxes lying side by side with another (overlapping across at least half their height) whose
    centre is under `CROWDED` of a tile's width from theirs: two boxes on one tile, not two tiles; of each two, the
    one `_the_part` says (mostly the less sure). However sure, such a box may be set aside (`_held_back_tries`)."""
    if len(dets) < 2:
        return set()
    width = sorted(min(d.width, d.height) for d in dets)[len(dets) // 2]
    out = set()
    for a, b in itertools.combinations(dets, 2):
        across = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
        if across >= 0.5 * min(a.height, b.height) and abs(a.cx - b.cx) < CROWDED * width:
            out.add(id(_the_part(a, b)))
    return out


def _the_part(a: Detection, b: Detection) -> Detection:
    """Of two boxes on one tile, the one boxed oddly: when they are named as two tiles and only one lies mostly
    (`PART_INSIDE`) inside the other, that one (a box round the end of a sideways 五筒 named 二筒, surer than the 五筒's
    own box: seed 113 +1, none lost, 2026-12-06); else the less sure."""
    shared = _overlap(a, b)
    a_in = shared >= PART_INSIDE * a.width * a.height
    b_in = shared >= PART_INSIDE * b.width * b.height
    if a.tile != b.tile and a_in != b_in:
        return a if a_in else b
    return a if a.conf < b.conf else b


def small_boxes(dets: Sequence[Detection]) -> set[int]:
    """The ids of boxes under `SMALL` of the usual box's area: a piece of a tile or of the table, seldom a tile."""
    if len(dets) < 3:
        return set()
    usual = _usual_area(dets)
    return {id(d) for d in dets if d.width * d.height < SMALL * usual}


def _unsure_blank(d: Detection, surest_blank: float = 0.0) -> bool:
    """A box named 白板 unsurely: a blank face looks like the table. Doubtful and named under `BLANK_STRAY_P`, or,
    where another 白板 of the photo is named `BLANK_SURE` (`surest_blank`), named under `BLANK_UNLIKE` or its crop
    `BLANK_APART` unlike that one's: the set's 白板 look alike, a patch of table does not."""
    if d.tile != BLANK or not d.alternatives:
        return False
    p = d.alternatives[0][1]
    return (d.conf < DOUBTFUL and p < BLANK_STRAY_P) or (
        surest_blank >= BLANK_SURE and (p < BLANK_UNLIKE or d.blank_apart >= BLANK_APART))


def odd_boxes(dets: Sequence[Detection]) -> dict[int, float]:
    """The ids of the boxes boxed oddly, with how likely each is a tile of its own: one tile boxed twice
    (`crowded`, `CROWDED_ODDS`), a box far smaller than a tile (`small_boxes`, `SMALL_ODDS`), a 白板 named
    unsurely (`_unsure_blank`, `BLANK_TABLE_ODDS`). However sure, such a box may be set aside (`_held_back_tries`), and it makes a
    round read again (`_stray_in`)."""
    out = dict.fromkeys(crowded(dets), CROWDED_ODDS)
    for i in small_boxes(dets):
        out[i] = min(out.get(i, 1.0), SMALL_ODDS)
    surest_blank = max((d.alternatives[0][1] for d in dets if d.tile == BLANK and d.alternatives), default=0.0)
    for d in dets:
        if _unsure_blank(d, surest_blank):
            out[id(d)] = min(out.get(id(d), 1.0), BLANK_TABLE_ODDS)
    return out


def over_two(sure: Sequence[Detection], held: Sequence[Detection]) -> set[int]:
    """The ids of the `sure` boxes over two tiles: `OVER_TWO_WIDE` times the usual width, holding two other boxes (sure or
    `held`) side by side, each at least `OVER_TWO_INSIDE` inside it."""
    if len(sure) < 3:
        return set()
    width = sorted(d.width for d in sure)[len(sure) // 2]
    out = set()
    for d in sure:
        if d.width < OVER_TWO_WIDE * width:
            continue
        inside = [e for e in (*sure, *held) if e is not d and e.width * e.height > 0
                  and _overlap(d, e) >= OVER_TWO_INSIDE * e.width * e.height]
        if any(abs(a.cx - b.cx) >= 0.6 * min(a.width, b.width) for a, b in itertools.combinations(inside, 2)):
            out.add(id(d))
    return out


def _usual_area(dets: Sequence[Detection]) -> float:
    """The median box area of `dets` (not empty)."""
    return sorted(d.width * d.height for d in dets)[len(dets) // 2]


def held_odds(d: Detection, sure: Sequence[Detection], turned: bool = False) -> float:
    """How likely a held-back box is a true tile the round lacks (tuning split, 8 × 60 photos): the classifier's
    probability of its tile, scaled down when its box scored under a gap tile's `HELD_BACK_BOX` (conf = box^⅔ ·
    p^⅓), at most `GAP_ODDS` for a gap or faint tile (upright ones named at 0.9 or more: 14 in 19), less for a
    box lying sideways (`SIDEWAYS_ODDS`: half of them were table) or larger than two tiles, and none when boxes
    not doubtful cover it (`HELD_COVERED`, one box: that tile again; a doubtful box over it may be the stray one,
    set aside; `_with_held_back` leaves a sure box over two tiles out of `sure`, `over_two`). `turned`: the photo was
    shot turned 90° (`turned_a_quarter`), so a box standing in it lies sideways in the rows, and one lying in it
    stands."""
    p = d.alternatives[0][1] if d.alternatives else 1.0
    area = d.width * d.height
    if area <= 0 or max((_overlap(d, s) for s in sure if s.conf >= DOUBTFUL), default=0.0) > HELD_COVERED * area:
        return 0.0
    usual = _usual_area(sure) if sure else area
    q = p * min(1.0, box_score(d.conf, p) / HELD_BACK_BOX) * min(1.0, HELD_LARGE * usual / area)
    if named_on_a_place(d):
        q = min(q, GAP_ODDS)
    if (d.width > d.height) != turned:
        q *= SIDEWAYS_ODDS
    return max(0.02, min(0.97, q))


def _overlap(a: Detection, b: Detection) -> float:
    """The area two boxes share."""
    w = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
    h = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
    return max(w, 0.0) * max(h, 0.0)


def _log_odds(q: float) -> float:
    """log(q / (1 − q)): what leaving out a box that is a tile with probability q costs against taking it."""
    return math.log(q / (1 - q))


def _is_stray(d: Detection, odd: Collection[int] = ()) -> bool:
    """A doubtful box the classifier names no tile surely (`STRAY_P`), maybe table, or a box boxed oddly (its id
    in `odd`, `odd_boxes`: a 白板 named unsurely among them)."""
    return id(d) in odd or bool(d.conf < DOUBTFUL and d.alternatives and d.alternatives[0][1] < STRAY_P)


def _stray_in(a: Assignment) -> bool:
    """The reading counts a stray box (`_is_stray`): it may be table, or stand in for a tile held back (it is
    then set aside or swapped only when that is the more probable round)."""
    dets = [t.det for t in a.tiles]
    odd = odd_boxes(dets)
    return any(_is_stray(d, odd) for d in dets)


def _pungs(a: Assignment) -> bool:
    """The reading holds a 碰, which may be a kong whose fourth tile was held back."""
    return any(m.get("type") == "peng" for m in a.melds)


def _held_back_tries(sure: Sequence[Detection], held: Sequence[tuple[Detection, float]], lacking: int,
                     ) -> list[tuple[float, tuple[Detection, ...], tuple[Detection, ...], int]]:
    """(box cost, held-back boxes taken, sure boxes set aside, boxes taken past the count): any `MAX_TAKEN` of the
    held-back boxes (each with its `held_odds`), with up to `MAX_SET_ASIDE` of the `ASIDE_TRIES` least sure doubtful or
    oddly boxed ones (`odd_boxes`, and a box over two tiles: `over_two`) set aside, that bring the tiles the round lacks,
    or up to `MAX_KONGS` more (a kong's fourth tile, `KONG_EXTRA` each), cheapest first. Taking a box costs its doubt (a
    gain when it is likely a tile), setting one aside the odds that it is one. Stray boxes (`_is_stray`) are also tried
    set aside alone, nothing taken. The round's count takes no kong into account: with a kong laid as four boxes, a
    hand tile held back counts as one more than the round lacks, and was tried only after every swap of a doubtful box
    for it, often past `MAX_HELD_BACK_READS`; by cost alone it comes first (composed tuning photos: 3 more of 1 710
    rounds right, none lost; kept-aside +1; 2026-12-06)."""
    odd = odd_boxes(sure)
    for i in over_two(sure, [d for d, _ in held]):
        odd[i] = min(odd.get(i, 1.0), OVER_TWO_ODDS)
    doubtful = sorted((d for d in sure if d.conf < DOUBTFUL or id(d) in odd), key=lambda d: d.conf)[:ASIDE_TRIES]
    asides = [(c, sum(_log_odds(sure_odds(d, odd)) for d in c))
              for k in range(MAX_SET_ASIDE + 1) for c in itertools.combinations(doubtful, k)]
    out = []
    for k in range(0, min(MAX_TAKEN, len(held)) + 1):
        for taken in itertools.combinations(held, k):
            take = -sum(_log_odds(q) for _, q in taken)
            for aside, cost in asides:
                if not k and not (aside and all(_is_stray(d, odd) for d in aside)):
                    continue
                extra = k - len(aside) - max(lacking, 0)
                if lacking <= k - len(aside) and extra <= MAX_KONGS:
                    out.append((take + cost + KONG_EXTRA * max(extra, 0), tuple(d for d, _ in taken), aside,
                                max(extra, 0)))
    return sorted(out, key=lambda t: t[0])


def _take_held_back(first: Assignment, sure: list[Detection], held: list[tuple[Detection, float]], given: str | None,
                    options: Any = None) -> Assignment:
    """The most probable complete legal round from the sure boxes and the held-back ones: each try (`_held_back_tries`)
    costs its boxes' doubt + its reading's cost (`Assignment.cost`); tries are read in that order, at most
    `MAX_HELD_BACK_READS`, each only while it may still be cheaper than the best round found. A round as read without them is kept only when it
    lacks no tile and is legal; every tile taken in is asked about (`weak_added`), every box set aside too. A try
    taking more boxes than the round lacks pays `KONG_EXTRA` a box for a kong's fourth tile, except for each kong its
    reading lays out of sure boxes alone (`_kongs_laid_whole`): four boxes for one tile's place, so the box taken is the
    hand's (composed tuning photos: 1 more of 2 280 right, none of 3 270 lost; sixteenth session). When no try makes a
    round, `_take_many_held_back`."""
    lacking = 14 + (given is None) - len(sure)
    best, best_cost = (first, first.cost) if not (_troubled(first) or _short(first)) else (None, math.inf)
    reads = 0
    for cost, taken, aside, extra in _held_back_tries(sure, held[:WEAK_TRIES], lacking):
        if reads >= MAX_HELD_BACK_READS:
            break
        if cost - KONG_EXTRA * extra >= best_cost:  # a kong laid whole may take back what the extra boxes cost
            continue
        kept = [d for d in sure if all(d is not x for x in aside)]
        reads += 1
        a = _assign_plain([*kept, *taken], given, options)
        cost -= KONG_EXTRA * min(extra, _kongs_laid_whole(a, taken))  # the extra tile is the hand's, no kong's fourth
        if _troubled(a) or _short(a) or cost + a.cost >= best_cost:
            continue
        if taken:
            a.questions.append(weak_question(taken))
        if aside:
            a.set_aside = list(aside)
            a.questions.append(set_aside_question(aside))
        best, best_cost = a, cost + a.cost
    return best or _take_many_held_back(first, sure, held, lacking, given, options)


def _kongs_laid_whole(a: Assignment, taken: Sequence[Detection]) -> int:
    """How many kongs the reading lays out of boxes none of which is `taken`: four boxes the round's count took for a
    tile's place each, so that one more tile taken is the hand's, not a kong's fourth."""
    kongs = {i for i, m in enumerate(a.melds) if m.get("type") in ("gang", "angang")}
    with_taken = {t.meld for t in a.tiles if t.meld in kongs and any(t.det is d for d in taken)}
    return len(kongs - with_taken)


def _take_many_held_back(first: Assignment, sure: list[Detection], held: list[tuple[Detection, float]], lacking: int,
                         given: str | None, options: Any = None) -> Assignment:
    """When no try makes a round: every held-back box the classifier names surely (`NAMED_WEAK`: a row of blank
    白板), when there are more than a try takes in; else, when the round lacks more than `MAX_TAKEN` tiles (a tile
    set the detector scores low), the likeliest held-back boxes, as many as it lacks or a kong's fourth tile more,
    when that makes a whole legal round. The boxes taken are asked about; otherwise `first` stands."""
    named = [w for w, _ in held if w.alternatives and w.alternatives[0][1] >= NAMED_WEAK]
    if len(named) > MAX_TAKEN:
        a = _assign_plain([*sure, *named], given, options)
        if not _troubled(a):
            a.questions.append(weak_question(named))
            return a
    if lacking > MAX_TAKEN:
        for n in range(lacking, min(lacking + MAX_KONGS, len(held)) + 1):
            taken = [w for w, _ in held[:n]]
            a = _assign_plain([*sure, *taken], given, options)
            if not _troubled(a) and not _short(a):
                a.questions.append(weak_question(taken))
                return a
    return first


def read_layout(detect_at: Callable[[float], list[Detection]], conf: float, image_size: tuple[int, int] | None = None,
                indicator: str | None = None, options: Any = None) -> tuple[list[Detection], Assignment]:
    """The detections and layout of a photo, `detect_at(conf)` giving its detections at a threshold: read at
    `conf`; when that round lacks a tile or its indicator (`_short`), counts a box the classifier names no
    tile surely (`_stray_in`), does not add up to a legal round (`_troubled`: a box over the threshold may stand
    in for a tile held back under it), or has no winning tile set apart (`_no_win`) or is read only by assuming much (`_unlikely`), the photo is detected again down to
    WEAK_FLOOR and read with the boxes under `conf` held back (`assign(sure_above=conf)`), so a barely-seen
    tile is taken in only when the round needs it. Any other photo costs one detection, as before."""
    dets = detect_at(conf)
    first = assign(dets, image_size, indicator, options=options)
    if not (_in_doubt(first) or _stray_in(first)) or conf <= WEAK_FLOOR:
        return dets, first
    more = detect_at(WEAK_FLOOR)
    usable = _usable(more, image_size)
    if not usable:
        return dets, first
    same = {id(d) for d in _sure(usable, conf)} == {id(d) for d in _usable(dets, image_size)}
    second = _with_held_back(usable, _normalise_indicator(indicator), conf, options, first if same else None)
    return (more, second) if not _troubled(second) else (dets, first)


def _short(a: Assignment) -> bool:
    """The reading lacks a tile (fewer than 14 with the melds) or its indicator: a box may have scored low."""
    n = len(a.hand) + (1 if a.win_tile else 0) + 3 * len(a.melds)
    return n < 14 or a.indicator is None


def _in_doubt(a: Assignment) -> bool:
    """A reading worth reading again with the boxes under the threshold: it lacks a tile or its indicator, does not add
    up, has no winning tile set apart, or assumes much (`_short`, `_troubled`, `_no_win`, `_unlikely`)."""
    return _short(a) or _troubled(a) or _no_win(a) or _unlikely(a)


def _no_win(a: Assignment) -> bool:
    """The reading found no winning tile set apart: the hand row may hold a meld short of a tile the detector scored
    under the threshold, read as concealed tiles instead (the round is still read as it is when nothing better is found)."""
    return a.win_tile is None


def _unlikely(a: Assignment) -> bool:
    """The reading assumes things together as unlikely as `UNLIKELY` (its cost: tiles changed from the classifier's
    first choice, an odd layout): a box over the threshold may stand in for a tile held back under it."""
    return a.cost >= UNLIKELY


def _assign_any(dets: list[Detection], given: str | None, options: Any = None) -> Assignment:
    """The layout of `dets`, upright or turned a quarter."""
    if turned_a_quarter(dets):
        return _assign_turned(dets, given, options)
    return _assign_tolerant(dets, given, options)


def _assign_plain(dets: list[Detection], given: str | None, options: Any = None) -> Assignment:
    """The layout of `dets` as they are (no box set aside), upright or turned a quarter."""
    if turned_a_quarter(dets):
        return _assign_turned(dets, given, options, tolerant=False)
    return _assign_layout(dets, given, options)


def _assign_tolerant(dets: list[Detection], given: str | None, options: Any = None) -> Assignment:
    """The layout of `dets`, or, when it does not add up, of `dets` without up to MAX_SET_ASIDE doubtful boxes: of the
    single boxes whose setting aside makes it add up, the one whose reading is likeliest (its cost, and the log odds
    that the box is a tile, `sure_odds`: a patch of table at the hand row's end, not the lone indicator above it,
    though that scored a little lower; tuning +2 of 2 470, none lost, 2026-12-06); else, of the fewest of the four
    least sure that do together, the likeliest so (tuning +1 more, none lost). The boxes boxed oddly (`odd_boxes`)
    are tried singly too however sure: a part of a tile named surer than the lone indicator."""
    first = _assign_layout(dets, given, options)
    if not _troubled(first):
        return first
    doubtful = sorted((d for d in dets if d.conf < DOUBTFUL), key=lambda d: d.conf)
    # one box at a time, each of the least sure (the stray box is not always the least sure: a true tile may score
    # lower), then two or more of the four least sure
    singles: list[tuple[float, int, Assignment, Detection]] = []
    odd = odd_boxes(dets)
    tries = doubtful[:SET_ASIDE_TRIES]
    tries += [d for d in dets if id(d) in odd and all(d is not e for e in tries)]
    for d in tries:
        retry = _assign_layout([e for e in dets if e is not d], given, options)
        if not _troubled(retry):
            singles.append((retry.cost + _log_odds(sure_odds(d, odd)), len(singles), retry, d))
    if singles:
        _, _, retry, d = min(singles, key=lambda s: s[:2])
        retry.set_aside = [d]
        retry.questions.append(set_aside_question([d]))
        return retry
    for k in range(2, MAX_SET_ASIDE + 1):
        found: list[tuple[float, int, Assignment, list[Detection]]] = []
        for c in itertools.combinations(doubtful[:4], k):
            kept = [d for d in dets if all(d is not x for x in c)]
            if not kept:
                break
            retry = _assign_layout(kept, given, options)
            if not _troubled(retry):
                found.append((retry.cost + sum(_log_odds(sure_odds(d, odd)) for d in c), len(found), retry, list(c)))
        if found:
            _, _, retry, aside = min(found, key=lambda s: s[:2])
            retry.set_aside = aside
            retry.questions.append(set_aside_question(aside))
            return retry
    return first


def _assign_turned(dets: list[Detection], given: str | None, options: Any = None, tolerant: bool = True) -> Assignment:
    """A photo turned 90°: read it turned upright both ways and keep the way whose layout adds up
    (the winning tile set apart at the right end decides); when both read alike, ask. `tolerant`: each way
    may set doubtful boxes aside (`_assign_tolerant`), else every box is read as it is (`_assign_layout`)."""
    readings = []
    for clockwise in (True, False):
        turned = [quarter_turn(d, clockwise) for d in dets]
        back = {t.box: d for t, d in zip(turned, dets)}
        a = (_assign_tolerant if tolerant else _assign_layout)(turned, given, options)
        merit = (not _troubled(a), a.win_tile is not None, -len(a.questions))
        readings.append((merit, _in_photo_frame(a, back)))
    (best_merit, best), (other_merit, _) = sorted(readings, key=lambda r: r[0], reverse=True)
    if best_merit == other_merit:
        best.questions.append(question(
            "turned", "照片是横着拍的，两个方向读起来一样好，请核对胡的那张牌是哪一张",
            "the photo is turned 90° and reads as well both ways; check which tile is the winning one"))
    return best


def _in_photo_frame(a: Assignment, back: dict[tuple[float, float, float, float], Detection]) -> Assignment:
    """The assignment of turned detections with every box put back as the photo has it (keeping a re-read tile)."""
    def orig(d: Detection) -> Detection:
        return replace(back[d.box], tile=d.tile) if d.box in back else d

    for g in a.groups:
        g.tiles = [replace(p, det=orig(p.det)) for p in g.tiles]
    a.rows = [[orig(d) for d in r] for r in a.rows]
    a.tiles = [replace(t, det=orig(t.det)) for t in a.tiles]
    a.set_aside = [orig(d) for d in a.set_aside]
    return a


def _troubled(a: Assignment) -> bool:
    """The layout does not add up: a count, stray-box, indicator or meld question."""
    return any(q["code"] in TROUBLE for q in a.questions)


def _assign_layout(dets: list[Detection], given: str | None, options: Any = None) -> Assignment:
    """One pass of rows → groups → roles over `dets`."""
    angle, width, height, rows = measure_rows(dets)
    groups = [g for i, r in enumerate(rows) for g in split_groups(r, width, i)]
    st = RoleState(groups, pick_hand_row(rows, width))
    st.confidence["rows"] = _row_confidence(rows, height)
    if st.hand_row is not None:
        assign_hand_row(st)
    assign_melds(st)
    ind = assign_indicator(st, given)
    return _legal_reading(_finish(st, rows, ind, angle), rows, width, given, options)


def _legal_reading(a: Assignment, rows: list[list[Placed]], width: float, given: str | None,
                   options: Any = None) -> Assignment:
    """The most probable legal round among every layout reading and the classifier's top choices
    (`decide`): kept as `a` when it is the same round, said (`not_a_win`) when there is none."""
    units = [row_readings(r, width, i) for i, r in enumerate(rows)]
    hand_row = next((g.row for g in a.groups if g.role in ("hand", "win")), None)
    d = decide(units, hand_row, given, options)
    if d is None:
        a.questions.append(not_a_win_question())
        a.cost = math.inf
        return a
    a.cost = d.cost
    if not d.changed and _same_round(a, d):
        return a
    st = RoleState(d.groups, next((g.row for g in d.groups if g.role in ("hand", "win")), None), d.questions)
    st.confidence["rows"] = a.confidence.get("rows", 1.0)
    st.confidence["indicator"] = 1.0 if given else next((g.confidence for g in d.groups if g.role == "indicator"), 0.0)
    if not win_gap_clear(d.groups):
        win = next(g for g in d.groups if g.role == "win")
        st.questions.append(question("win_tile_check", f"胡的牌是单独的 {tile_zh(win.codes[0])} 吗？手牌中间也有空隙",
                                     f"is the lone {win.codes[0]} the winning tile? the hand has gaps too"))
    if d.indicator is None:
        st.questions.append(question("indicator", "没找到翻精的牌：哪一张是翻出来的精？",
                                     "no indicator found: which tile is the indicator?"))
    out = _finish(st, rows, d.indicator, math.radians(a.angle_deg))
    out.cost = d.cost
    return out


def _same_round(a: Assignment, d: Decision) -> bool:
    """The decision reads the same round as the first pass (roles and tiles)."""
    hand = sorted(c for g in d.groups if g.role == "hand" for c in g.codes)
    win = next((g.codes[0] for g in d.groups if g.role == "win"), None)
    melds = sorted((m["type"], m.get("tiles") or "") for g in d.groups if g.role == "meld" and (m := g.meld))
    return (sorted(a.hand) == hand and a.win_tile == win and a.indicator == d.indicator
            and sorted((m["type"], m.get("tiles") or "") for m in a.melds) == melds)


def _finish(st: RoleState, rows: list[list[Placed]], ind: str | None, angle: float) -> Assignment:
    """Collect roles into an Assignment and add the count, winning-tile and confidence questions."""
    report_leftovers(st)
    hand = hand_codes(st)
    win_groups = [g for g in st.groups if g.role == "win"]
    win = win_groups[0].codes[0] if win_groups else None
    melds = [g.meld for g in st.groups if g.role == "meld" and g.meld]
    if win is None and hand:
        st.questions.append(win_question(hand))
    if (q := count_check(hand, win, melds)) is not None:
        st.questions.append(q)
    all_dets = [p.det for r in rows for p in r]
    if (q := low_confidence_question(all_dets)) is not None:
        st.questions.append(q)
    roles = tile_roles(st.groups, ind)
    hand_dets = [p.det.conf for g in st.groups if g.role == "hand" for p in g.tiles]
    st.confidence["hand"] = min(hand_dets, default=0.0)
    st.confidence["win"] = win_groups[0].confidence if win_groups else 0.0
    for i, g in enumerate(g for g in st.groups if g.role == "meld" and g.meld):
        st.confidence[f"meld{i}"] = g.confidence
    return Assignment(
        rows=[[p.det for p in r] for r in rows], groups=st.groups, hand=hand, melds=melds, win_tile=win,
        indicator=ind, tiles=roles, jing_count=count_winner_jing(roles, unseen_kong_tiles(st.groups), ind) if ind else None,
        confidence=st.confidence, questions=st.questions, angle_deg=math.degrees(angle),
    )


def _row_confidence(rows: Sequence[Sequence[Placed]], height: float) -> float:
    """How cleanly the rows separate: the smallest jump between rows against the threshold."""
    if len(rows) < 2:
        return 1.0
    jumps = [min(p.v for p in b) - max(p.v for p in a) for a, b in zip(rows, rows[1:])]
    ratio = min(jumps) / (ROW_FRACTION * height)
    return float(min(1.0, max(0.0, ratio - 1.0)))


def _empty(given: str | None) -> Assignment:
    """No tiles at all: one question."""
    q = question("no_tiles", "照片里没有认出牌，请重拍（光线均匀，牌占满画面）",
                 "no tiles found in the photo; shoot again (even light, tiles filling the frame)")
    return Assignment(indicator=given, questions=[q])
