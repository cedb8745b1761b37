"""`detect(image) -> list[Detection]`: the shipped YOLO ONNX model run with onnxruntime + OpenCV.

Pipeline: load (EXIF applied) → letterbox to the model's square input → onnxruntime → decode the
YOLOv8 head (``1 × (4+nc) × anchors``: cx, cy, w, h in input pixels, then per-class scores) →
confidence filter → class-agnostic NMS (tiles do not overlap, so one box gets one label) → boxes
mapped back to the photo's pixels, sorted left to right.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from statistics import median
from typing import Any

import numpy as np

from vision.reader.boxes import box_area, covered_shares, iou_matrix, nms
from vision.reader.detection import CLASS_NAMES, Detection
from vision.reader.image import DetectorError, boxes_to_image, letterbox_blob, letterbox_pixels, load_image
from vision.reader.session import CLASSIFIER_FILE, DETECTOR_FILE, models_dir, open_session, shipped_models_dir

#: The shipped models (what benches and training compare against); reading uses `models_dir()`.
DEFAULT_MODEL = shipped_models_dir() / DETECTOR_FILE
DEFAULT_CLASSIFIER = shipped_models_dir() / CLASSIFIER_FILE
CONF_THRESHOLD = 0.25
#: Two-stage: the YOLO stage proposes every box scoring at least this; the classifier then names
#: it, and the final confidence (`tile_confidence`) is held to `conf`.
BOX_THRESHOLD = 0.05
#: Two-stage: the weight of the box score in `tile_confidence` (the class probability has the rest).
#: The plain product pushed sure tiles of a weakly scored box below any usable threshold; the even
#: geometric mean let extra boxes the classifier was sure of through.  On `valid` at conf 0.3 with
#: classifier v3: ⅔ gives per-tile 0.949 / exact-match 0.595, ½ gives 0.950 / 0.405 (0.938 / 0.602 at
#: conf 0.4), 0.8 gives 0.948 / 0.533 (2026-12-03).
BOX_WEIGHT = 2 / 3
#: Two-stage: a box more than this fraction of its area inside a surer box is dropped (NMS at IoU 0.5
#: keeps a half-tile box beside the whole one; on `valid` this raised exact-match 0.12 → 0.19 at conf 0.3).
COVERED = 0.4
#: Two-stage: … or more than this fraction inside surer boxes together (a box straddling the corner
#: of four tiles in a wall of tiles, a quarter in each; on `valid` exact-match 0.19 → 0.44 at conf 0.3).
COVERED_TOGETHER = 0.6
#: Two-stage: tiles piled on each other do overlap.  A box no surer box covers more than `COVERED`, that
#: surer boxes cover up to `PILED_TOGETHER` together, is a tile partly under them when it names another tile
#: than each of them and none of them lies more than `PILED_UNDER` inside it (two tiles of a pile overlap
#: about alike; a half box or a box round two tiles holds much of one of them).  On all `valid` photos
#: the rule kept 19 of the 22 tiles `COVERED_TOGETHER` dropped and 2 of its 331 other boxes; on the unseen
#: IMG_27xx shoot (tiles scattered in heaps) whole photos 0.400 → 0.486, per-tile 0.969 → 0.978 (2026-12-05).
PILED_TOGETHER = 0.9
PILED_UNDER = 0.4
#: A tile of a heap may lie up to half under one surer tile (`piled_under`); any other box lying more than
#: `COVERED` inside a surer box is dropped.  Of the 111 boxes of `valid` that one surer box covered 40–50 %, 2 were
#: tiles of a heap (a sideways 8筒 under a 4筒, a 7萬 under a 9條, both `IMG_27xx`) and only they pass `piled_under`;
#: 107 named the tile over them.  Over 50 % none of 147 was a tile (2026-12-06).
PILED_ONE = 0.5
#: A box the classifier names surely (`APART_SURE`) as another tile than each surer box over it, the two of a size
#: (`APART_AREA`), lies up to this share under one of them (and it as much under the box) and is still a tile
#: (`named_apart`): a loose box of its neighbour reaches over it. Of the boxes so named lying 40–60 % under one surer box,
#: 1 on `valid` and 13 in 1 140 composed tuning photos, most were a tile's whole box under the box of a part of it (a
#: 四筒 under its 二筒 half); sizes alike and neither box more than 60 % inside the other leaves none on `valid` and one in
#: the tuning photos, a 四條 under its neighbour's loose box (2026-12-06).
APART_ONE = 0.6
APART_SURE = 0.8
APART_AREA = (0.75, 1.33)
IOU_THRESHOLD = 0.5
MAX_DETECTIONS = 300
#: A box in the photo's pixels (x1, y1, x2, y2).
Box = tuple[float, float, float, float]
#: A box's likeliest tile classes with their probabilities, best first (empty: not named).
Top = tuple[tuple[str, float], ...]
#: The weakest box looked at as the whole tile round a named box that may box only a part of it (`whole_over_part`).
PART_FLOOR = 0.02

__all__ = ["DetectorError", "TileDetector", "detect", "nms", "decode_yolo_output", "get_detector"]


def decode_yolo_output(
    output: np.ndarray, conf_threshold: float = CONF_THRESHOLD, nc: int = len(CLASS_NAMES),
    agnostic_score: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """YOLOv8 raw head (1×(4+nc)×N, or N×(4+nc)) → (xyxy boxes, scores, class ids) above threshold.

    With `agnostic_score` a box scores the sum of its class scores (capped at 1): "there is a tile
    here", however the detector splits its belief between look-alikes (the two-stage mode)."""
    out = np.asarray(output)
    if out.ndim == 3:
        out = out[0]
    if out.shape[0] != 4 + nc and out.shape[1] == 4 + nc:  # N×(4+nc) layout
        out = out.T
    cxcywh, cls_scores = out[:4].T, out[4:].T
    cls_ids = cls_scores.argmax(axis=1)
    scores = cls_scores[np.arange(cls_scores.shape[0]), cls_ids]
    if agnostic_score:
        scores = np.minimum(cls_scores.sum(axis=1), 1.0)
    mask = scores >= conf_threshold
    cxcywh, scores, cls_ids = cxcywh[mask], scores[mask], cls_ids[mask]
    xyxy = np.empty_like(cxcywh)
    xyxy[:, 0] = cxcywh[:, 0] - cxcywh[:, 2] / 2
    xyxy[:, 1] = cxcywh[:, 1] - cxcywh[:, 3] / 2
    xyxy[:, 2] = cxcywh[:, 0] + cxcywh[:, 2] / 2
    xyxy[:, 3] = cxcywh[:, 1] + cxcywh[:, 3] / 2
    return xyxy, scores, cls_ids


def _names_from_metadata(session: Any) -> tuple[str, ...]:
    """Class names stored by ultralytics in the ONNX metadata, else the project's CLASS_NAMES."""
    meta = session.get_modelmeta().custom_metadata_map
    raw = meta.get("names")
    if not raw:
        return CLASS_NAMES
    try:
        names = json.loads(raw.replace("'", '"'))
    except ValueError:
        import ast

        names = ast.literal_eval(raw)
    if isinstance(names, dict):
        return tuple(str(names[k]) for k in sorted(names, key=int))
    return tuple(str(n) for n in names)


class TileDetector:
    """A loaded ONNX tile detector (thread-safe to call; onnxruntime sessions are)."""

    def __init__(self, model_path: str | Path | None = None, threads: int | None = None,
                 classifier: str | Path | None | bool = None, boxes_only: bool = False) -> None:
        """`model_path`: the detector ONNX (None = `tiles.onnx` of `models_dir()`). `classifier`: a crop classifier ONNX (two-stage), None = `tile_classifier.onnx` beside the
        model if there is one, False = the detector's own 34-class labels (single stage).
        `boxes_only`: only `find_boxes` will be used, so a find-only model needs no classifier."""
        path = Path(model_path) if model_path else models_dir() / DETECTOR_FILE
        self.session = open_session(path, threads, "识别模型", "detector model")
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        #: The graph takes the letterboxed pixels (1 × S × S × 3 uint8, `quantize_detector.pixel_input_graph`),
        #: else ultralytics' export input (1 × 3 × S × S float in 0–1).
        self.takes_pixels = inp.type == "tensor(uint8)"
        side = inp.shape[1] if self.takes_pixels else inp.shape[2]
        self.imgsz = int(side) if isinstance(side, int) else 416
        self.names = _names_from_metadata(self.session)
        self.path = path
        self.classifier = None
        cls_path = path.parent / CLASSIFIER_FILE if classifier is None else classifier
        if cls_path and Path(cls_path).is_file():
            from vision.reader.classifier import TileClassifier

            self.classifier = TileClassifier(cls_path, threads)
        if self.classifier is None and not boxes_only and not set(self.names) <= set(CLASS_NAMES):
            raise DetectorError(
                f"识别模型 {path.name} 只找牌的位置，需要旁边的牌面分类模型 {CLASSIFIER_FILE}",
                f"{path.name} only finds tiles (classes {list(self.names)[:3]}); it needs {CLASSIFIER_FILE} beside it",
            )

    def __call__(
        self,
        image: Any,
        conf: float = CONF_THRESHOLD,
        iou: float = IOU_THRESHOLD,
        max_det: int = MAX_DETECTIONS,
    ) -> list[Detection]:
        rgb = load_image(image)
        if self.classifier is not None:  # boxes under `box_floor` cannot pass and are not named
            mapped, scores, _ = self.find_boxes(rgb, min(box_floor(conf), PART_FLOOR), iou, max_det, agnostic_score=True)
            return [d for d in self.name_boxes(rgb, mapped, scores, conf) if d.conf >= conf]
        mapped, scores, cls_ids = self.find_boxes(rgb, conf, iou, max_det, agnostic_score=False)
        dets = [
            Detection(tuple(float(v) for v in b), self.names[int(c)], float(s))  # type: ignore[arg-type]
            for b, s, c in zip(mapped, scores, cls_ids)
            if (b[2] - b[0]) > 0 and (b[3] - b[1]) > 0
        ]
        return sorted(dets, key=lambda d: (d.cx, d.cy))

    def find_boxes(self, rgb: np.ndarray, conf: float = CONF_THRESHOLD, iou: float = IOU_THRESHOLD,
                   max_det: int = MAX_DETECTIONS, agnostic_score: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The YOLO stage alone on an RGB array: (boxes in the photo's pixels, scores, class ids), after NMS."""
        return self.find_boxes_and_doubt(rgb, conf, iou, max_det, agnostic_score)[:3]

    def find_boxes_and_doubt(self, rgb: np.ndarray, conf: float = CONF_THRESHOLD, iou: float = IOU_THRESHOLD,
                             max_det: int = MAX_DETECTIONS, agnostic_score: bool = True,
                             doubt_from: float = math.inf) -> tuple[np.ndarray, ...]:
        """`find_boxes`, and each box's `top_doubt` and `lifted_over` among the boxes before NMS (measured for boxes
        scoring at least `doubt_from`, 0 for the others)."""
        blob, geo = letterbox_pixels(rgb, self.imgsz) if self.takes_pixels else letterbox_blob(rgb, self.imgsz)
        output = self.session.run(None, {self.input_name: blob})[0]
        boxes, scores, cls_ids = decode_yolo_output(output, conf, len(self.names), agnostic_score=agnostic_score)
        keep = nms(boxes, scores, iou, max_det)
        doubt = top_doubt(boxes[keep], scores[keep], boxes, scores, doubt_from)
        lifted = lifted_over(boxes[keep], scores[keep], boxes, scores, doubt_from)
        return boxes_to_image(boxes[keep], geo), scores[keep], cls_ids[keep], doubt, lifted

    def name_boxes(self, rgb: np.ndarray, boxes: np.ndarray, scores: np.ndarray, conf: float = CONF_THRESHOLD) -> list[Detection]:
        """The YOLO stage's `boxes` scoring at least `box_floor(conf)`, named (`_classify`); a tile the reader keeps (at
        `CONF_THRESHOLD`, or `conf` when higher) boxed by a part of it is read by the weaker box round it among all
        `boxes` (`whole_over_part`, boxes down to `PART_FLOOR`)."""
        sure = scores >= box_floor(conf)
        dets = self._classify(rgb, boxes[sure], scores[sure], conf)
        if not hasattr(self.classifier, "first_look_top"):
            return dets
        return whole_over_part(rgb, dets, boxes, scores, self.classifier.first_look_top, max(conf, CONF_THRESHOLD))

    def _classify(self, rgb: np.ndarray, mapped: np.ndarray, box_scores: np.ndarray,
                  conf: float = 0.0) -> list[Detection]:
        """Second stage: name each box from a crop of the full-resolution photo. `conf`: the confidence the
        caller keeps from; a box that cannot reach it however its tile is named is not looked at a third time."""
        good = [(tuple(float(v) for v in b), float(s)) for b, s in zip(mapped, box_scores)
                if (b[2] - b[0]) > 0 and (b[3] - b[1]) > 0]
        top = getattr(self.classifier, "classify_top", None)  # a classifier without top choices gives its first
        crops = [b for b, _ in good]
        needed = class_prob_needed(conf, np.array([s for _, s in good]))
        labels = (top(rgb, crops, needed=needed) if top else [(x,) for x in self.classifier.classify(rgb, crops)]) if good else []  # type: ignore[union-attr]
        dets = [Detection(b, top[0][0], tile_confidence(s, top[0][1]), top)  # type: ignore[arg-type]
                for (b, s), top in zip(good, labels)]
        return sorted(drop_covered(dets), key=lambda d: (d.cx, d.cy))


#: A box's candidates (`top_doubt`): the detector's boxes before NMS lying over it (IoU at least `DOUBT_IOU`), their
#: centre within `DOUBT_CENTRE` of its width across from its own, scoring at least `DOUBT_SCORE` of the best of them.
DOUBT_IOU = 0.3
DOUBT_CENTRE = 0.3
DOUBT_SCORE = 0.5


def top_doubt(kept: np.ndarray, kept_scores: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
              least: float = 0.0) -> np.ndarray:
    """For each kept box scoring at least `least`, how far its candidates among `boxes` (before NMS; see
    `DOUBT_IOU`) disagree on where its top is: highest top − lowest, in its own heights (0 for the others). A tile
    lying on another (a kong's fourth stacked on its middle tile) is boxed now as the pair, now as the tile on
    top; a tile alone, about alike every time."""
    out = np.zeros(len(kept))
    measured = np.nonzero(kept_scores >= least)[0]
    if not len(measured) or not len(boxes):
        return out
    pool = scores >= DOUBT_SCORE * kept_scores[measured].min()
    cand, cand_scores = boxes[pool], scores[pool]
    overlap = iou_matrix(kept[measured], cand)
    for row, k in enumerate(measured):
        x1, y1, x2, y2 = kept[k]
        near = (overlap[row] >= DOUBT_IOU) & (np.abs((cand[:, 0] + cand[:, 2]) / 2 - (x1 + x2) / 2) < DOUBT_CENTRE * (x2 - x1))
        if near.sum() < 2:
            continue
        tops = cand[near, 1][cand_scores[near] >= DOUBT_SCORE * cand_scores[near].max()]
        out[k] = (tops.max() - tops.min()) / max(y2 - y1, 1e-9)
    return out


#: A box before NMS lying lifted over a kept one (`lifted_over`): its centre within `LIFT_CENTRE` of the kept box's
#: width across from its own, its top `LIFT_TOP` of the kept box's height above the kept top, its bottom at least
#: `LIFT_BOTTOM` above the kept bottom, and about as large (`LIFT_HEIGHT`, `LIFT_WIDTH` of it): the box of a tile lying
#: on the kept one, a kong's fourth tile stacked on its middle tile, however faint (it seldom survives NMS).
LIFT_CENTRE = 0.25
LIFT_TOP = (0.15, 0.6)
LIFT_BOTTOM = 0.15
LIFT_HEIGHT = (0.75, 1.25)
LIFT_WIDTH = (0.7, 1.3)


def row_line(boxes: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Each of `boxes` with its top and bottom moved to its row's: the mean of its surest neighbour among the others at
    either side (its centre 0.7–1.4 of its width away, lying across at most half its height from it), where it has
    one at both."""
    out = boxes.astype(float, copy=True)
    for i, b in enumerate(boxes):
        w, h, cx, cy = b[2] - b[0], b[3] - b[1], (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        dx, dy = (boxes[:, 0] + boxes[:, 2]) / 2 - cx, (boxes[:, 1] + boxes[:, 3]) / 2 - cy
        near = (np.abs(dx) >= 0.7 * w) & (np.abs(dx) <= 1.4 * w) & (np.abs(dy) <= 0.5 * h)
        left, right = np.nonzero(near & (dx < 0))[0], np.nonzero(near & (dx > 0))[0]
        if len(left) and len(right):
            a, c = boxes[left[np.argmax(scores[left])]], boxes[right[np.argmax(scores[right])]]
            out[i, 1], out[i, 3] = (a[1] + c[1]) / 2, (a[3] + c[3]) / 2
    return out


def lifted_over(kept: np.ndarray, kept_scores: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                least: float = 0.0) -> np.ndarray:
    """For each kept box scoring at least `least`, the best score of the detector's boxes before NMS lying lifted
    over it (see `LIFT_CENTRE`; measured against its row's line, `row_line`), 0 when none (and for the others).
    Composed tuning photos, 2026-12-06, measured at the tiles' true boxes: of 59 stacked kongs' lower middle tiles, 78 %
    had one scoring 0.05 or more (86 % 0.01); of 1 739 three alike side by side in a row (碰 and concealed), none scored
    0.05 (the most, 0.042). After NMS, 46 % of those kongs kept such a box."""
    out = np.zeros(len(kept))
    measured = np.nonzero(kept_scores >= least)[0]
    if not len(measured) or not len(boxes):
        return out
    k = row_line(kept[measured], kept_scores[measured])
    w, h = (k[:, 2] - k[:, 0])[:, None], (k[:, 3] - k[:, 1])[:, None]
    bw, bh = (boxes[:, 2] - boxes[:, 0])[None, :], (boxes[:, 3] - boxes[:, 1])[None, :]
    lift = k[:, 1:2] - boxes[None, :, 1]
    over = ((np.abs((boxes[None, :, 0] + boxes[None, :, 2]) - (k[:, 0:1] + k[:, 2:3])) / 2 < LIFT_CENTRE * w)
            & (lift >= LIFT_TOP[0] * h) & (lift <= LIFT_TOP[1] * h) & (k[:, 3:4] - boxes[None, :, 3] >= LIFT_BOTTOM * h)
            & (bh >= LIFT_HEIGHT[0] * h) & (bh <= LIFT_HEIGHT[1] * h) & (bw >= LIFT_WIDTH[0] * w) & (bw <= LIFT_WIDTH[1] * w))
    out[measured] = np.where(over, scores[None, :], 0.0).max(axis=1)
    return out


def drop_covered(dets: list[Detection], cover: float = COVERED,
                 together: float = COVERED_TOGETHER) -> list[Detection]:
    """Tiles seldom overlap: a box lying more than `cover` of its area inside a surer box, or more than
    `together` inside surer boxes together, is a tile already found (or parts of several), unless it is
    `piled_under` them and lies at most `PILED_ONE` inside each, or is `named_apart` from them and lies at most
    `APART_ONE` inside each."""
    kept: list[Detection] = []
    for d in sorted(dets, key=lambda d: -d.conf):
        inside = covered_shares(d.box, (k.box for k in kept))
        most = max(inside, default=0.0)
        if (most <= cover and sum(inside) <= together or most <= PILED_ONE and piled_under(d, kept, inside)
                or most <= APART_ONE and sum(inside) <= PILED_TOGETHER and named_apart(d, kept, inside)):
            kept.append(d)
    return kept


def named_apart(d: Detection, kept: list[Detection], inside: list[float]) -> bool:
    """A tile the classifier names surely (`APART_SURE`) as another tile than every surer box over it, each about as
    large as it (`APART_AREA`: neither box a part of the other's tile): a box of its neighbour reaching over it, not a
    second box of the same tile."""
    area = box_area(d.box)
    return d.named_prob >= APART_SURE and all(k.tile != d.tile and APART_AREA[0] * box_area(k.box) <= area <= APART_AREA[1] * box_area(k.box)
                                       and covered_shares(k.box, [d.box])[0] <= APART_ONE
                                       for k, share in zip(kept, inside) if share > 0)


def piled_under(d: Detection, kept: list[Detection], inside: list[float]) -> bool:
    """A tile lying partly under other tiles of a heap: they cover it up to `PILED_TOGETHER` together, it
    is no tile of theirs and none of them lies more than `PILED_UNDER` inside it."""
    over = [k for k, share in zip(kept, inside) if share > 0]
    return (sum(inside) <= PILED_TOGETHER and all(k.tile != d.tile for k in over)
            and all(covered_shares(k.box, [d.box])[0] <= PILED_UNDER for k in over))


#: The detector's larger box round a named one (`whole_over_part`) scores at least `PART_FLOOR` (the whole tile's box
#: is weak where a part of it is boxed surely), is this many times the named box's area (a part: 40–77 % of the tile) …
PART_OF_AREA = (1.3, 2.6)
#: … holds at least this share of it …
PART_INSIDE = 0.85
#: … and the classifier names it a tile the named one may be a part of at least this surely.
PART_SURE = 0.8
#: A box round a named one that holds this share of another named box read as the tile it is named is a box over two
#: tiles, the part a whole tile and the other its neighbour (a 六筒 and the 七筒 beside it boxed as one, named 七筒). On
#: 1 330 composed tuning photos the rule replaced six boxes, all wrongly; this keeps four of them. The two 四筒 of
#: `IMG_27xx` it was made for hold a 二筒, the other part, and are still read whole.
NEIGHBOUR_INSIDE = 0.5
#: A box round a named one wider than this many times the standing tiles of its row (the median of at least
#: `ROW_TILES` of them) is a box over two tiles, not one round a part: a 四條 and half the 三條 beside it boxed as one,
#: named 六條. Composed tuning photos (2 470, 2026-12-06): of the five boxes the rule put in, the four over two tiles were
#: 1.74–2.05 times as wide as their row's tiles, the one right 1.06; the 四筒 of `IMG_2765` in a heap 1.41.
WIDEST_WHOLE = 1.6
ROW_TILES = 2


def more_of_the_same(part: str, whole: str) -> bool:
    """A part of a 筒 or 條 tile's face shows fewer of its circles or sticks: `whole` is a tile of `part`'s suit
    (筒 or 條) with more of them (二筒 ⊂ 四筒, 四筒 ⊂ 六筒)."""
    return (len(part) == len(whole) == 2 and part[1] == whole[1] and part[1] in "ps"
            and part[0].isdigit() and whole[0].isdigit() and int(whole[0]) > int(part[0]))


def boxes_round(d: Detection, boxes: np.ndarray, scores: np.ndarray) -> list[Box]:
    """The detector's boxes (`boxes`, `scores`: the YOLO stage's) that may be the whole tile `d` boxes a part of:
    scoring at least `PART_FLOOR`, `PART_OF_AREA` times its area, holding `PART_INSIDE` of it."""
    if not len(boxes):
        return []
    x1, y1, x2, y2 = d.box
    own = (x2 - x1) * (y2 - y1)
    sizes = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    shared = (np.clip(np.minimum(boxes[:, 2], x2) - np.maximum(boxes[:, 0], x1), 0, None)
              * np.clip(np.minimum(boxes[:, 3], y2) - np.maximum(boxes[:, 1], y1), 0, None))
    round_it = ((scores >= PART_FLOOR) & (sizes >= PART_OF_AREA[0] * own) & (sizes <= PART_OF_AREA[1] * own)
                & (shared >= PART_INSIDE * own))
    return [tuple(float(v) for v in b) for b in boxes[round_it]]  # type: ignore[misc]


def whole_over_part(rgb: np.ndarray, named: list[Detection], boxes: np.ndarray, scores: np.ndarray,
                    name: Callable[[np.ndarray, list[Box]], list[Top]], conf: float = 0.0,
                    among: Callable[[Detection], bool] = lambda d: True) -> list[Detection]:
    """`named` with each tile boxed by a part of it read whole (only those of confidence ≥ `conf` looked at): where the
    detector's own larger, weaker box round a named box (`boxes_round`, among `boxes` and `scores`) is named by `name`
    surely (`PART_SURE`) a tile the named one may be a part of (`more_of_the_same`), the surest such box that no surer
    tiles cover (`drop_covered`) takes its place (a 四筒 boxed round two of its circles and read 二筒; the box round its
    other two, now lying inside the whole tile, is dropped as covered). `among`: which of `named` may be looked at.
    See `vision.reader.halves`."""
    found = [(i, b) for i, d in enumerate(named) if d.conf >= conf and among(d) and more_of_the_same(d.tile, f"9{d.tile[-1]}")
             for b in boxes_round(d, boxes, scores)]  # a 筒 or 條 tile with fewer than nine, that may be a part
    if not found:
        return named
    out = list(named)
    surest_first = sorted(zip(found, name(rgb, [b for _, b in found])), key=lambda x: -(x[1][0][1] if x[1] else 0.0))
    for (i, box), top in surest_first:
        if out[i] is not named[i] or not top or top[0][1] < PART_SURE or not more_of_the_same(named[i].tile, top[0][0]):
            continue
        if any(k != i and d.tile == top[0][0] and covered_shares(d.box, [box])[0] >= NEIGHBOUR_INSIDE
               for k, d in enumerate(named)):
            continue  # a box over the tile and the neighbour it is named as: two tiles, not one round a part
        whole = named_as_whole(named[i], box, top)
        if wider_than_its_row(whole, named):
            continue  # a box over two tiles of a row, not one round a part of a tile
        others = [d for k, d in enumerate(out) if k != i]
        if any(k is whole for k in drop_covered([*others, whole])):  # a box lying over surer tiles is no tile
            out[i] = whole
    return named if all(a is b for a, b in zip(out, named)) else sorted(drop_covered(out), key=lambda d: (d.cx, d.cy))


def wider_than_its_row(box: Detection, named: Sequence[Detection]) -> bool:
    """`box` is wider than `WIDEST_WHOLE` times the standing tiles of its row among `named` (their median width; at
    least `ROW_TILES` of them, their centres within half a tile's height of its own, and six tiles' widths)."""
    row = [d.width for d in named if d.standing and abs(d.cy - box.cy) < 0.5 * d.height and abs(d.cx - box.cx) < 6 * d.width]
    return len(row) >= ROW_TILES and box.width > WIDEST_WHOLE * float(median(row))


def own_box_score(d: Detection) -> float:
    """The detector's own score of `d`'s box (its `conf` mixes in the classifier's)."""
    return min(box_score(d.conf, d.alternatives[0][1] if d.alternatives else 1.0), 1.0)


def named_as_whole(d: Detection, box: Box, top: Top) -> Detection:
    """`box` named `top`'s tile, keeping the box score the detector gave `d` (a part of it)."""
    return Detection(box, top[0][0], tile_confidence(own_box_score(d), top[0][1]), top)


def tile_confidence(box_score: float, class_prob: float) -> float:
    """Two-stage confidence: a weighted geometric mean of the detector's "a tile is here" (weight
    `BOX_WEIGHT`) and the classifier's "it is this tile"."""
    return max(box_score, 0.0) ** BOX_WEIGHT * max(class_prob, 0.0) ** (1 - BOX_WEIGHT)


def box_floor(conf: float) -> float:
    """The least box score whose tile can reach `conf` once named: box^⅔ × class^⅓ ≥ conf needs box ≥ conf^1.5
    (and every box from `BOX_THRESHOLD` up is named)."""
    return max(min(conf, BOX_THRESHOLD), conf ** (1 / BOX_WEIGHT))


def class_prob_needed(conf: float, box_score: Any) -> Any:
    """The least class probability that lifts a box of `box_score` (a number or an array) to `conf`
    (`tile_confidence` ≥ conf)."""
    if conf <= 0:
        return np.zeros_like(box_score, dtype=float) if isinstance(box_score, np.ndarray) else 0.0
    return (conf / np.maximum(box_score, 1e-9) ** BOX_WEIGHT) ** (1 / (1 - BOX_WEIGHT))


def box_score(conf: float, class_prob: float) -> float:
    """The detector's box score a two-stage confidence was made from, with the classifier's `class_prob`
    (`tile_confidence` undone)."""
    return (max(conf, 0.0) / max(class_prob, 1e-9) ** (1 - BOX_WEIGHT)) ** (1 / BOX_WEIGHT)


def get_detector(model_path: str | Path | None = None) -> TileDetector:
    """The detector of a model file (default: `tiles.onnx` of `models_dir()`), loaded once per path."""
    return _cached_detector(str(model_path or models_dir() / DETECTOR_FILE))


@lru_cache(maxsize=4)
def _cached_detector(model_path: str) -> TileDetector:
    return TileDetector(model_path)


def detect(
    image: Any, model: str | Path | None = None, conf: float = CONF_THRESHOLD, iou: float = IOU_THRESHOLD
) -> list[Detection]:
    """Detect tiles in a photo (path, bytes, PIL image or RGB array) → detections left to right."""
    return get_detector(model)(image, conf=conf, iou=iou)
