"""Tiles the detector missed, found from the rows' geometry (`vision.reader.gaps`), on a drawn photo."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.reader.boxes import box_iou
from vision.reader.classifier import CLASSIFIER_NAMES, NO_TILE
from vision.reader.detection import Detection
from vision.reader.detector import box_floor, tile_confidence
from vision.reader.gaps import GAP_BOX_SCORE, Proposal, faint_tiles, gap_tiles, named_gap, proposals
from vision.reader.layout import WEAK_FLOOR, read_layout
from vision.reader.levels import DetectionLevels

TW, TH = 30.0, 40.0  # a standing tile's box in pixels
CLOTH, FACE = (40, 120, 50), (235, 232, 220)
Box = tuple[float, float, float, float]


def row(codes: list[str], x0: float = 40.0, y: float = 120.0, gap: float = 1.0) -> list[tuple[Box, str]]:
    """Tiles side by side (a `+0.8` entry is a gap of 0.8 tile widths more), as (box, code)."""
    out, x = [], x0
    for code in codes:
        if code.startswith("+"):
            x += float(code[1:]) * TW
            continue
        out.append(((x, y, x + TW, y + TH), code))
        x += TW + gap
    return out


def photo(tiles: list[tuple[Box, str]], size: tuple[int, int] = (720, 220)) -> np.ndarray:
    """A table cloth with each tile drawn as a light face with a dark stroke."""
    rgb = np.zeros((size[1], size[0], 3), np.uint8)
    rgb[:] = CLOTH
    for (x1, y1, x2, y2), _ in tiles:
        rgb[int(y1):int(y2), int(x1):int(x2)] = FACE
        rgb[int(y1) + 12:int(y1) + 16, int(x1) + 8:int(x2) - 8] = (30, 30, 30)
    return rgb


def found(tiles: list[tuple[Box, str]], missed: set[int] = frozenset()) -> list[Detection]:
    """The detector's boxes: every tile but those at the indices `missed`."""
    return [Detection(b, c, 0.9, ((c, 0.97),)) for i, (b, c) in enumerate(tiles) if i not in missed]


def is_face(rgb: np.ndarray, box: Box) -> bool:
    """The middle of `box` shows a tile's face, not cloth."""
    cx, cy = int((box[0] + box[2]) / 2), int((box[1] + box[3]) / 2)
    patch = rgb[cy + 4:cy + 14, cx - 5:cx + 5].astype(int)
    return bool((np.abs(patch - FACE).sum(axis=2) < 30).mean() > 0.9)


class Classifier:
    """A crop classifier that sees a tile's face in the middle of a crop, named as the drawn photo has it
    (`truth`), surer the better the crop fits the tile: cloth is `none` (its likeliest tile at 0.03), or
    `lie` names everything."""

    names = CLASSIFIER_NAMES

    def __init__(self, truth: list[tuple[Box, str]], lie: str | None = None) -> None:
        self.truth, self.lie = truth, lie

    def classify_top(self, rgb: np.ndarray, boxes: list[Box], k: int = 3, first: np.ndarray | None = None,
                     needed: np.ndarray | None = None) -> list[tuple[tuple[str, float], ...]]:
        out = []
        for box in boxes:
            fit, code = max((box_iou(t[0], box), t[1]) for t in self.truth)
            sure = self.lie is not None or is_face(rgb, box)
            p = 0.95 if self.lie else 0.95 * min(1.0, fit / 0.8)
            out.append(((self.lie or code, p), ("1m", 0.02)) if sure else ((code, 0.03), ("1m", 0.01)))
        return out

    def __call__(self, crops: np.ndarray) -> np.ndarray:
        probs = np.full((len(crops), len(self.names)), 0.001)
        for i, crop in enumerate(crops):
            h, w = crop.shape[:2]
            middle = crop[h // 2:h // 2 + 8, w // 2 - 4:w // 2 + 4].astype(int)
            face = self.lie is not None or (np.abs(middle - FACE).sum(axis=2) < 40).mean() > 0.9
            probs[i, 0 if face else self.names.index(NO_TILE)] = 0.95
        return probs


class Detector:
    """A two-stage detector whose YOLO stage finds the boxes of `dets`, each at box score 0.9 or its `scores`."""

    def __init__(self, dets: list[Detection], classifier: Classifier, scores: dict[int, float] | None = None) -> None:
        self.dets, self.classifier = dets, classifier
        self.scores = np.array([(scores or {}).get(i, 0.9) for i in range(len(dets))])

    def find_boxes(self, rgb: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        keep = self.scores >= conf
        return np.array([d.box for d in self.dets])[keep], self.scores[keep], np.zeros(int(keep.sum()), int)

    def find_boxes_and_doubt(self, rgb: np.ndarray, conf: float, doubt_from: float) -> tuple[np.ndarray, ...]:
        """`find_boxes`, no box's top doubted and none lifted over it (as `TileDetector.find_boxes_and_doubt` gives them)."""
        boxes, scores, ids = self.find_boxes(rgb, conf)
        return boxes, scores, ids, np.zeros(len(scores)), np.zeros(len(scores))

    def name_boxes(self, rgb: np.ndarray, boxes: np.ndarray, scores: np.ndarray, conf: float) -> list[Detection]:
        """As `TileDetector.name_boxes`: the boxes whose score can reach `conf`, named (no tile boxed by a part here)."""
        sure = scores >= box_floor(conf)
        return self._classify(rgb, boxes[sure], scores[sure])

    def _classify(self, rgb: np.ndarray, boxes: np.ndarray, scores: np.ndarray) -> list[Detection]:
        by_box = {d.box: d for d in self.dets}
        return [Detection(tuple(b), by_box[tuple(b)].tile, tile_confidence(s, 0.97), by_box[tuple(b)].alternatives)
                for b, s in zip(boxes, scores)]


def namer(truth: list[tuple[Box, str]], lie: str | None = None):  # noqa: ANN201 - gaps.Namer
    return Classifier(truth, lie).classify_top


# ------------------------------------------------------------------------ the geometry alone


def test_a_row_with_one_hole_gets_its_tile_in_the_hole() -> None:
    tiles = row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s"])
    rgb = photo(tiles)
    added = gap_tiles(rgb, found(tiles, {4}), namer(tiles))
    assert [d.tile for d in added] == ["5p"]
    assert box_iou(added[0].box, tiles[4][0]) > 0.8
    assert WEAK_FLOOR <= added[0].conf < 0.25  # held back: the layout takes it only when the round lacks a tile


def test_a_gap_between_meld_groups_is_proposed_but_holds_no_tile() -> None:
    tiles = row(["1m", "2m", "3m", "4p", "+0.8", "5z", "5z", "5z"])
    rgb = photo(tiles)
    dets = found(tiles)
    assert any(p.where == "hole" for p in proposals(dets, (720, 220)))  # the classifier decides, and sees cloth
    assert gap_tiles(rgb, dets, namer(tiles)) == []


def test_a_short_row_is_extended_at_its_right_end() -> None:
    tiles = row(["2s", "3s", "4s", "6m", "6m", "7z"])
    rgb = photo(tiles)
    added = gap_tiles(rgb, found(tiles, {5}), namer(tiles))
    assert [d.tile for d in added] == ["7z"] and box_iou(added[0].box, tiles[5][0]) > 0.7


def test_a_claimed_tile_missed_at_a_melds_end_is_found_lying_sideways() -> None:
    standing = row(["4p", "6p"])
    x = standing[-1][0][2] + 1
    claimed = ((x, 120.0 + TH - TW, x + TH, 120.0 + TH), "5p")  # 吃 of 5筒, the claimed tile sideways
    tiles = [*standing, claimed]
    added = gap_tiles(photo(tiles), found(tiles, {2}), namer(tiles))
    assert [d.tile for d in added] == ["5p"] and added[0].width > added[0].height
    assert box_iou(added[0].box, claimed[0]) > 0.8


def test_two_tiles_missed_side_by_side_are_both_found() -> None:
    tiles = row(["1p", "2p", "3p", "4p", "5p", "6p", "7p"])
    added = gap_tiles(photo(tiles), found(tiles, {3, 4}), namer(tiles))
    assert [d.tile for d in added] == ["4p", "5p"]


def test_two_alike_tiles_missed_past_a_rows_end_are_both_found_though_a_place_over_both_reads_surer() -> None:
    """A 碰 of 九筒 boxed once: past the row's end the place set apart, lying over both missed tiles, looks as much a
    九筒 as the place touching the row, a little more surely; the hole it leaves is looked at again, not passed over
    as a place already tried."""
    tiles = row(["1m", "2m", "3m", "4p", "5p", "6p", "9p", "9p", "9p"])
    rgb = photo(tiles)

    def further_right_surer(rgb: np.ndarray, boxes: list[Box]) -> list[tuple[tuple[str, float], ...]]:
        out = []
        for box in boxes:
            code = next((c for b, c in tiles if b[0] <= (box[0] + box[2]) / 2 <= b[2]), None)
            out.append(((code, 0.8 + 0.1 * box[0] / rgb.shape[1]),) if code and is_face(rgb, box) else ((NO_TILE, 0.9),))
        return out

    added = gap_tiles(rgb, found(tiles, {7, 8}), further_right_surer)
    assert [d.tile for d in added] == ["9p", "9p"]
    assert all(max(box_iou(d.box, tiles[k][0]) for d in added) > 0.5 for k in (7, 8))


def test_a_crop_the_classifier_calls_no_tile_or_is_unsure_of_is_not_added() -> None:
    hole = Proposal(((100.0, 120.0, 130.0, 160.0),), "hole", beside_back=False)
    assert named_gap(hole, [((NO_TILE, 0.99), ("5z", 0.01))]) is None
    assert named_gap(hole, [(("5z", 0.45), ("1m", 0.2))]) is None
    assert named_gap(hole, [(("5z", 0.9),)]) is not None


def test_a_tile_named_a_little_over_half_surely_in_a_hole_is_a_gap_tile_held_back() -> None:
    """A 四條 no box was drawn round, half under its neighbour's shifted box, named 0.54 at the hole's place (composed
    tuning photo s89_tuning_one_row_003, 2026-12-06): a gap tile, held back by the layout until the round lacks it."""
    hole = Proposal(((100.0, 120.0, 130.0, 160.0),), "hole", beside_back=False)
    tile = named_gap(hole, [(("4s", 0.54), ("5s", 0.2))])
    assert tile is not None and tile.tile == "4s" and WEAK_FLOOR <= tile.conf < 0.25


def test_a_back_is_added_only_beside_a_back_or_past_a_row_end() -> None:
    box = (100.0, 120.0, 130.0, 160.0)
    assert named_gap(Proposal((box,), "hole", beside_back=False), [(("back", 0.95),)]) is None
    assert named_gap(Proposal((box,), "hole", beside_back=True), [(("back", 0.95),)]).tile == "back"


def test_a_back_read_where_none_may_lie_does_not_hide_a_sure_face_at_another_place() -> None:
    middle, left, right = (100.0, 120.0, 130.0, 160.0), (92.0, 120.0, 122.0, 160.0), (108.0, 120.0, 138.0, 160.0)
    tops = [(("back", 0.98), ("5p", 0.01)), (("5p", 0.85), ("6p", 0.1)), ()]  # right: cloth to the first look
    between_faces = Proposal((middle, left, right), "hole", beside_back=False)
    tile = named_gap(between_faces, tops)
    assert tile is not None and tile.tile == "5p" and tile.box == left
    assert tile.conf == tile_confidence(GAP_BOX_SCORE, 0.85) and tile.alternatives == tops[1]
    assert named_gap(replace(between_faces, beside_back=True), tops).tile == "back"  # a back may lie there: surest wins
    unsure = [tops[0], (("5p", 0.45),), ()]
    assert named_gap(between_faces, unsure) is None  # the face elsewhere is not sure enough either


def test_a_tile_missed_in_a_wide_hole_is_found_though_the_holes_middle_reads_as_a_back() -> None:
    tiles = row(["1m", "2m", "3m", "4p", "+0.4", "6p", "7p", "8p"])
    hole = ((tiles[2][0][2] + tiles[4][0][0]) / 2, tiles[3][0][1] + TH / 2)  # between 3m and 6p, 4p against 3m

    def back_in_the_middle(rgb: np.ndarray, boxes: list[Box]) -> list[tuple[tuple[str, float], ...]]:
        tops = namer(tiles)(rgb, boxes)
        return [(("back", 0.99),) if abs((b[0] + b[2]) / 2 - hole[0]) < 2 and abs((b[1] + b[3]) / 2 - hole[1]) < 2
                else t for b, t in zip(boxes, tops)]

    added = gap_tiles(photo(tiles), found(tiles, {3}), back_in_the_middle)
    assert [d.tile for d in added] == ["4p"] and box_iou(added[0].box, tiles[3][0]) > 0.8


# ------------------------------------------------------------------------ read as `jingsuan read` reads


HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "7s", "8s", "9s"]


def one_row_round(meld_gap: float = 0.8) -> list[tuple[Box, str]]:
    """The indicator above; the hand, the winning tile set apart and a 碰 set apart, on one row."""
    return [*row(["9m"], x0=200, y=40), *row([*HAND, "+0.7", "7s", f"+{meld_gap}", "5z", "5z", "5z"])]


def read(tiles: list[tuple[Box, str]], missed: set[int] = frozenset(), lie: str | None = None,
         scores: dict[int, float] | None = None, undrawn: list[tuple[Box, str]] = ()):  # noqa: ANN201
    """`jingsuan read` of the drawn `tiles`; the detector also boxes `undrawn` (table, no tile)."""
    rgb = photo(tiles)
    boxed = [*tiles, *undrawn]
    levels = DetectionLevels(Detector(found(boxed, missed), Classifier(boxed, lie), scores), rgb, WEAK_FLOOR)
    return read_layout(levels.at, 0.25, (rgb.shape[1], rgb.shape[0]))[1]


def test_a_hand_tile_the_detector_missed_is_read_from_the_hole_and_asked_about() -> None:
    a = read(one_row_round(), missed={5})  # the 5p (index 0 is the indicator)
    assert sorted(a.hand) == sorted(HAND) and a.win_tile == "7s" and a.indicator == "9m"
    assert [(m["type"], m["tiles"]) for m in a.melds] == [("peng", "555z")]
    assert any(q["code"] == "weak_added" for q in a.questions)


def test_a_round_that_adds_up_takes_no_gap_tile_even_where_the_classifier_sees_one() -> None:
    a = read(one_row_round(), lie="5z")  # every gap between groups named 5z: the count does not ask for one
    assert sorted(a.hand) == sorted(HAND) and a.win_tile == "7s"
    assert [(m["type"], m["tiles"]) for m in a.melds] == [("peng", "555z")]
    assert not any(q["code"] == "weak_added" for q in a.questions)


def test_a_lone_indicator_the_detector_boxed_only_faintly_is_named_and_asked_about() -> None:
    a = read(one_row_round(), scores={0: 0.01})  # the indicator's box scores under every floor of the second look
    assert a.indicator == "9m" and sorted(a.hand) == sorted(HAND) and a.win_tile == "7s"
    assert any(q["code"] == "weak_added" for q in a.questions)


def test_a_lone_tile_boxed_faintly_round_its_top_is_named_from_a_fainter_box_round_all_of_it() -> None:
    """The surer of two faint boxes at the indicator holds its top half (named 九萬 unsurely there); the fainter one
    holds the whole tile, and names it."""
    tiles = one_row_round()
    (x1, y1, x2, y2), _ = tiles[0]
    top, whole = (x1, y1 - 4, x2 + 2, y1 + (y2 - y1) / 2), (x1 - 1, y1, x2 + 1, y2 + 1)
    faint = faint_tiles(photo(tiles), found(tiles, {0}), np.array([top, whole]), np.array([0.03, 0.01]),
                        namer(tiles))
    assert [(d.tile, d.box) for d in faint] == [("9m", whole)]
    assert faint_tiles(photo(tiles), found(tiles, {0}), np.array([top]), np.array([0.03]), namer(tiles)) == []


def test_a_faint_box_on_the_table_is_not_a_tile() -> None:
    tiles = one_row_round()[1:]  # no indicator in the photo
    cloth = ((600.0, 40.0, 630.0, 80.0), "9m")  # a faint box with nothing under it
    a = read(tiles, scores={len(tiles): 0.01}, undrawn=[cloth])
    assert a.indicator is None and not any(q["code"] == "weak_added" for q in a.questions)


def test_a_photo_shot_turned_a_quarter_gets_the_tile_in_its_rows_hole_too() -> None:
    # the row of the first test, the photo turned anticlockwise (720 × 220 → 220 × 720): it runs up and down
    tiles = [((y1, 720 - x2, y2, 720 - x1), c) for (x1, y1, x2, y2), c in row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s"])]
    rgb = photo(tiles, size=(220, 720))
    added = gap_tiles(rgb, found(tiles, {4}), namer(tiles))
    assert [d.tile for d in added] == ["5p"]
    assert box_iou(added[0].box, tiles[4][0]) > 0.8


def test_each_proposed_place_is_read_once_when_its_first_look_is_sure() -> None:
    from vision.reader.classifier import TileClassifier
    from vision.reader.gaps import first_look_namer

    class Sure(TileClassifier):
        """The reader's classifier with a network that names every crop 1m at 0.95 and counts the crops it read."""

        def __init__(self) -> None:
            self.names, self.read = CLASSIFIER_NAMES, 0

        def __call__(self, crops: np.ndarray) -> np.ndarray:
            self.read += len(crops)
            probs = np.full((len(crops), len(self.names)), 0.05 / (len(self.names) - 1))
            probs[:, 0] = 0.95
            return probs

    tiles = row(["1m", "2m", "3m", "4m"])
    classifier = Sure()
    tops = first_look_namer(classifier)(photo(tiles), [b for b, _ in tiles])
    assert [top[0] for top in tops] == [("1m", 0.95)] * 4
    assert classifier.read == 4  # the first look, not again inside classify_top
