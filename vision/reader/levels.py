"""One detector pass over a photo, named as deep as the layout asks (`DetectionLevels.at(conf)`).

`layout.read_layout` reads a photo at the threshold, and only a photo whose reading is in doubt (`layout._in_doubt`:
lacking a tile or its indicator, not adding up to a legal round, with no winning tile apart, or read only by assuming
much) again down to `layout.WEAK_FLOOR`. Run twice, the detector would find its boxes twice and name every box again,
many of them table; here the YOLO stage runs once, down to the floor, and the classifier names the boxes the threshold
can pass first, then, if asked, at most `MAX_WEAK` of the others that no named box covers, surest first, each scored as
the better of the YOLO stage's looks at the photo as it is and mirrored left to right (`mirrored_scores`: the one more
YOLO run a deeper reading costs), a lone one read whole when it boxes half a tile (`halves.grown_tiles`) or a part of
one the detector also boxed whole, more faintly (`detector.whole_over_part`); with `fill_gaps`, also the tiles no box
brought (`vision.reader.gaps`: a box where a row has a hole or ends short, `gap_tiles`, a box scored under the floor
lying alone, `faint_tiles`, a patch of the tiles' face colour no box covers, `vision.reader.lone`, and tiles alike side
by side boxed fewer times than their span holds, `vision.reader.runs`), each kept when the classifier is sure of its
tile and held back like the faint boxes, so that it counts only when the round lacks a tile. The boxes named at the threshold are
the detector's own at that threshold: greedy NMS keeps a box whatever weaker boxes lie under it; a tile boxed as two
halves or by one half alone is read whole first (`vision.reader.halves`, then `detector.whole_over_part`), and each
carries how far the detector's boxes before NMS disagree on its top (`Detection.top_doubt`), how surely one of them lies
lifted over it (`Detection.box_above`) and how much tile face shows above its row over it (`Detection.face_above`,
`vision.reader.stacked`): a kong's fourth tile stacked on it; each box named 白板 also carries how unlike the photo's
surest 白板 its crop looks (`Detection.blank_apart`, `vision.reader.blanks`): a patch of table or a tile wall's side.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from vision.reader.blanks import BlankLikeness
from vision.reader.boxes import iou_matrix
from vision.reader.detection import Detection
from vision.reader.detector import box_floor, drop_covered, whole_over_part
from vision.reader.gaps import FAINT_FLOOR, faint_tiles, first_look_namer, gap_tiles
from vision.reader.halves import grown_tiles, whole_tiles
from vision.reader.lone import lone_tiles
from vision.reader.refit import parted_wide_boxes, refit_loose_tiles
from vision.reader.runs import counted_runs
from vision.reader.short_ends import reach_the_face
from vision.reader.stacked import FaceAbove

#: Weak boxes named at most on the second look (surest box scores first).
MAX_WEAK = 12
#: A weak box overlapping a named one this much is that tile again, not named.
SAME_TILE = 0.3
#: Below the first threshold the detector also looks at the photo mirrored left to right (`mirrored_scores`): the
#: detector is trained without flips (`TrainConfig.fliplr` 0) and is not mirror-symmetric: a tile it boxes at 0.04 one
#: way round it may box at 0.6 the other.
MIRRORED_LOOK = True
#: A box of the mirrored pass overlapping a box of the first this much is the same box.
SAME_BOX = 0.5


def mirrored_scores(detector: Any, rgb: np.ndarray, boxes: np.ndarray, scores: np.ndarray, floor: float) -> np.ndarray:
    """Each of `boxes`' `scores`, or the detector's score of the same box on the photo mirrored left to right where
    that is higher (mirrored boxes down to `floor`). A box only the mirrored pass finds is not added: of the 1 140
    saved tuning photos, adding them read 11 more rounds right and 5 fewer, raising scores alone 8 and 1."""
    if not len(boxes):
        return scores
    width = rgb.shape[1]
    found, found_scores, _ = detector.find_boxes(np.ascontiguousarray(rgb[:, ::-1]), floor)
    better = np.array(scores, dtype=float, copy=True)
    if len(found):
        found = np.stack([width - found[:, 2], found[:, 1], width - found[:, 0], found[:, 3]], axis=1)
        overlap = iou_matrix(found, boxes)
        best = overlap.argmax(axis=1)
        same = overlap[np.arange(len(found)), best] >= SAME_BOX
        np.maximum.at(better, best[same], found_scores[same])
    return better


def with_box_cues(dets: list[Detection], boxes: np.ndarray, doubt: np.ndarray, above: np.ndarray) -> list[Detection]:
    """`dets` (named from `boxes`) each with its box's `top_doubt` and `box_above`."""
    by_box = {tuple(float(v) for v in b): (float(x), float(y)) for b, x, y in zip(boxes, doubt, above) if x or y}
    return [replace(d, top_doubt=by_box[d.box][0], box_above=by_box[d.box][1]) if d.box in by_box else d for d in dets]


class DetectionLevels:
    """The detections of one photo at any threshold down to `floor`, from one YOLO pass."""

    def __init__(self, detector: Any, rgb: np.ndarray, floor: float, fill_gaps: bool = True) -> None:
        """`fill_gaps`: below the first threshold, also give the tiles no box brought (`gaps`)."""
        self.detector, self.rgb, self.floor, self.fill_gaps = detector, rgb, floor, fill_gaps
        self._boxes: np.ndarray | None = None
        self._scores: np.ndarray | None = None
        self._doubt: np.ndarray = np.zeros(0)
        self._above: np.ndarray = np.zeros(0)
        #: The first threshold asked and every box named for it, those it leaves out too (they count deeper down).
        self._first: tuple[float, list[Detection]] | None = None
        #: Each box's face above its row (`stacked.FaceAbove`: the photo's face colour mask made once, when needed).
        self._face_above = FaceAbove(rgb)
        #: How unlike the photo's surest 白板 each other 白板 looks (`blanks.BlankLikeness`: each crop embedded once).
        self._blank_apart = BlankLikeness(rgb, detector.classifier)

    def at(self, conf: float) -> list[Detection]:
        """The photo's detections of confidence ≥ `conf` (below the first threshold asked: up to MAX_WEAK more,
        and the gap and faint tiles)."""
        if self.detector.classifier is None:  # a single-stage model names its boxes itself
            return self.detector(self.rgb, conf=conf)
        if self._boxes is None:  # with gap filling, down to the faint boxes (`gaps.faint_tiles`)
            lowest = box_floor(min(conf, self.floor))
            floor = min(lowest, FAINT_FLOOR) if self.fill_gaps else lowest
            self._boxes, self._scores, _, self._doubt, self._above = self.detector.find_boxes_and_doubt(
                self.rgb, floor, doubt_from=box_floor(conf))
        assert self._scores is not None
        if self._first is None:
            sure = self._scores >= box_floor(conf)
            named = with_box_cues(self.detector._classify(self.rgb, self._boxes[sure], self._scores[sure]),
                                  self._boxes[sure], self._doubt[sure], self._above[sure])
            if hasattr(self.detector.classifier, "classify_top"):  # a tile boxed as two halves, read whole
                named = whole_tiles(self.rgb, named, self._boxes, self._scores, self.detector.classifier.classify_top)
                named = grown_tiles(self.rgb, named, self.detector.classifier.classify_top)
                named = refit_loose_tiles(self.rgb, named, self.detector.classifier)
                named = parted_wide_boxes(self.rgb, named, self.detector.classifier)  # two tiles boxed as one
            if hasattr(self.detector.classifier, "first_look_top"):  # or by a part of it (as `TileDetector.name_boxes`)
                named = whole_over_part(self.rgb, named, self._boxes, self._scores, self.detector.classifier.first_look_top,
                                        conf)
            # a claimed tile boxed short of its length, grown and named again
            named = reach_the_face(self.rgb, named, conf, getattr(self.detector.classifier, "classify_top", None))
            named = self._face_above(named)  # a kong's fourth tile stacked on its middle one
            named = self._blank_apart(named)  # a patch of table named 白板 beside the set's own 白板
            self._first = (conf, named)
        first_conf, named = self._first
        if conf >= first_conf:
            return [d for d in named if d.conf >= conf]
        unnamed = self._scores < box_floor(first_conf)
        boxes, scores = self._boxes[unnamed], self._scores[unnamed]
        if MIRRORED_LOOK:  # the boxes the first threshold left unnamed, as sure as either way round makes them
            scores = mirrored_scores(self.detector, self.rgb, boxes, scores, box_floor(conf))
        rest = scores >= box_floor(conf)
        boxes, scores = boxes[rest], scores[rest]
        if len(named) and len(boxes):
            keep = iou_matrix(boxes, np.array([d.box for d in named])).max(axis=1) < SAME_TILE
            boxes, scores = boxes[keep], scores[keep]
        order = np.argsort(-scores, kind="stable")[:MAX_WEAK]
        weak = self.detector._classify(self.rgb, boxes[order], scores[order]) if len(order) else []
        out = drop_covered([d for d in [*named, *weak] if d.conf >= conf])
        first = {id(d) for d in named}  # the first look's boxes stay the very same objects (`layout.read_layout`)
        if weak and hasattr(self.detector.classifier, "classify_top"):  # a weak box of half a lone tile, or cut short
            out = grown_tiles(self.rgb, out, self.detector.classifier.classify_top,
                              among=[i for i, d in enumerate(out) if id(d) not in first], lone_only=True)
            out = refit_loose_tiles(self.rgb, out, self.detector.classifier, among=lambda d: id(d) not in first)
        if weak and hasattr(self.detector.classifier, "first_look_top"):  # a weak box round part of a tile
            out = whole_over_part(self.rgb, out, self._boxes, self._scores, self.detector.classifier.first_look_top, conf,
                                  among=lambda d: id(d) not in first)
        if self.fill_gaps and hasattr(self.detector.classifier, "classify_top"):  # tiles boxed faintly or not at all
            name = first_look_namer(self.detector.classifier)
            faint = self._scores < box_floor(conf)
            out += [d for d in faint_tiles(self.rgb, out, self._boxes[faint], self._scores[faint], name) if d.conf >= conf]
            out += [d for d in gap_tiles(self.rgb, out, name) if d.conf >= conf]
            out += [d for d in lone_tiles(self.rgb, out, name) if d.conf >= conf]
            out = counted_runs(self.rgb, out, name)  # tiles alike side by side boxed fewer times than they lie
        out = self._face_above(out, keep=lambda d: id(d) in first)
        out = self._blank_apart(out, keep=lambda d: id(d) in first)
        return sorted(out, key=lambda d: (d.cx, d.cy))
