"""Second stage of the detector: a crop classifier that names the tile in a crop cut from the full photo (the shipped
one is a pair of CNNs in one ONNX graph, their logits averaged: `vision.training.ensemble`).

The YOLO stage finds where the tiles are; this stage looks at each tile at the photo's own
resolution (a 12-MP photo letterboxed to 416 px leaves a tile some 20 px wide, too few to tell
4/5/6筒 or 二/三萬 apart).  A crop is the box grown by `CROP_MARGIN`, turned upright when it is
wider than tall (a claimed tile lies sideways), and resized to `CROP_W` × `CROP_H`.  A crop the
first look is unsure of (`SECOND_LOOK_BELOW`) gets a second look: the crop turned 180° and a wider
crop (`SECOND_LOOK_MARGIN`) both ways round, the four readings averaged (`second_look_views`).  A crop
still unsure after that (`THIRD_LOOK_BELOW`) gets a third look: the usual crop tilted by each of `THIRD_LOOK_TILTS` (a tile
lying askew in a heap, stood up), both ways round, averaged with the four (`third_look_views`).

Besides the 35 classes of the detector it has a 36th, `none` (`NO_TILE`): the box holds no tile
of the game (a flower, two half tiles, the table).  It is never given as an answer: a box is named
by its most likely tile class, whose probability the `none` belief lowers, so a doubtful box falls
below the confidence threshold instead of being dropped outright (dropping every box the classifier
calls `none` lost 10 % of the real tiles on `valid`, 2026-12-03).
Inference is onnxruntime + OpenCV only; training lives in `vision/training/classifier.py`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.reader.detection import CLASS_NAMES
from vision.reader.session import open_session

CROP_W, CROP_H = 48, 64
#: Margin of a crop read by the classifier, a fraction of the box on each side.  The shipped
#: classifier learnt from crops at `TRAIN_CROP_MARGIN` ± 0.06 per side; reading at 0.12, inside that
#: range, gives it more of the tile's border (a box cut a little short no longer hides the top stroke
#: of 二/三萬): valid per-tile 0.966 → 0.969, exact-match 0.626 → 0.651 (2026-12-03).
CROP_MARGIN = 0.12
#: A crop this much wider than tall holds a sideways (claimed) tile, and is stood upright.
SIDEWAYS = 1.15
#: Margin of the crops the classifier is trained on (`vision.training.classifier`).
TRAIN_CROP_MARGIN = 0.08
#: A crop whose likeliest tile has a probability below this is looked at again (about one crop in
#: five on `valid`, most of them boxes that hold no tile).
SECOND_LOOK_BELOW = 0.8
#: The wider crop of the second look: 24 % a side, not 18 % (a box cut short shows more of the tile's edge
#: strokes). Chosen on the 238 `valid` photos of seen shoots, cached boxes (`bench/classifier_variants.py
#: --tta`): per-tile 5 270 → 5 278 of 5 372, whole photos 177 → 178; 0.21 and 0.30 gained less (2026-12-05).
SECOND_LOOK_MARGIN = 0.24
#: The third look's tilts (degrees, counter-clockwise) of a crop the second look left unsure. Chosen on the
#: 238 `valid` photos of seen shoots and the 1 140 saved composed tuning photos against 0/±15/±20/±25,
#: upright only or both ways up, and as more views of the second look itself (docs/detector.md, "A third
#: look, tilted"): seen shoots' whole photos 0.807 → 0.824, per-tile 0.987 → 0.989 (2026-12-05).
THIRD_LOOK_TILTS: tuple[float, ...] = (15.0, -15.0)
#: A crop whose likeliest tile is still below this after the second look gets the third. 0.5 reads the seen and
#: the unseen shoots exactly as 0.8 does, on 17 % fewer crops; 0.35 loses a seen photo (2026-12-05).
THIRD_LOOK_BELOW = 0.5
#: The photo around a tilted crop, a side, that fills its corners once it is turned (as a share of the box).
TILT_PAD = 0.3
MEAN = np.array([0.5, 0.5, 0.5], dtype=np.float32)
STD = np.array([0.25, 0.25, 0.25], dtype=np.float32)
#: How many of its likeliest classes the classifier gives each box (`classify_top`): the layout's
#: legal-round decoding may take a lesser one when only it makes the hand a win (issue 22).
TOP_CHOICES = 3
#: The classifier's extra class: the box holds no tile of the game.
NO_TILE = "none"
CLASSIFIER_NAMES: tuple[str, ...] = (*CLASS_NAMES, NO_TILE)


def grown_window(box: tuple[float, float, float, float], margin: float,
                 jitter: np.ndarray | None = None) -> tuple[int, int, int, int]:
    """The whole pixels round `box` grown by `margin` of its size a side (plus `jitter` per side: left, right,
    top, bottom), as (x1, y1, x2, y2); it may reach past the photo."""
    x1, y1, x2, y2 = box
    bw, bh = max(x2 - x1, 1.0), max(y2 - y1, 1.0)
    dx = jitter if jitter is not None else np.zeros(4)
    return (int(np.floor(x1 - bw * (margin + dx[0]))), int(np.floor(y1 - bh * (margin + dx[2]))),
            int(np.ceil(x2 + bw * (margin + dx[1]))), int(np.ceil(y2 + bh * (margin + dx[3]))))


def crop_tile(rgb: np.ndarray, box: tuple[float, float, float, float], margin: float | None = None,
              jitter: np.ndarray | None = None) -> np.ndarray:
    """The tile under `box` (x1, y1, x2, y2 in the photo's pixels), upright, CROP_H × CROP_W × 3 uint8;
    grown by `margin` a side (default `CROP_MARGIN`, read at call time)."""
    import cv2

    h, w = rgb.shape[:2]
    ix1, iy1, ix2, iy2 = grown_window(box, CROP_MARGIN if margin is None else margin, jitter)
    ix1, iy1, ix2, iy2 = max(0, ix1), max(0, iy1), min(w, ix2), min(h, iy2)
    if ix2 <= ix1 or iy2 <= iy1:
        return np.zeros((CROP_H, CROP_W, 3), np.uint8)
    crop = rgb[iy1:iy2, ix1:ix2]
    if crop.shape[1] > crop.shape[0] * SIDEWAYS:  # a sideways (claimed) tile: stand it up
        crop = np.ascontiguousarray(np.rot90(crop, -1))
    return cv2.resize(crop, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)


def turned(crops: np.ndarray) -> np.ndarray:
    """N × H × W × 3 crops turned 180° (the classifier learns every tile both ways up)."""
    return np.ascontiguousarray(crops[:, ::-1, ::-1])


def second_look_views(rgb: np.ndarray, boxes: list[tuple[float, float, float, float]],
                      usual: np.ndarray | None = None) -> list[np.ndarray]:
    """The extra views of a second look at `boxes`: the usual crop turned 180°, and a wider crop
    (`SECOND_LOOK_MARGIN`) both ways up — each an N × H × W × 3 stack. `usual`: the boxes' usual crops (`crop_tile`)
    when the first look has made them already."""
    if usual is None:
        usual = np.stack([crop_tile(rgb, b) for b in boxes])
    wide = np.stack([crop_tile(rgb, b, SECOND_LOOK_MARGIN) for b in boxes])
    return [turned(usual), wide, turned(wide)]


def tilted_crops(rgb: np.ndarray, box: tuple[float, float, float, float], angles: tuple[float, ...]) -> list[np.ndarray]:
    """The usual crop of `box` (`crop_tile`) turned by each of `angles` (degrees, counter-clockwise) about its
    centre, its corners filled from the photo around it (a tile lying askew by -angle comes out upright)."""
    import cv2

    grown = CROP_MARGIN + TILT_PAD
    ix1, iy1, ix2, iy2 = grown_window(box, grown)
    h, w = rgb.shape[:2]
    cx1, cy1, cx2, cy2 = max(0, ix1), max(0, iy1), min(w, ix2), min(h, iy2)
    if cx2 <= cx1 or cy2 <= cy1:
        return [np.zeros((CROP_H, CROP_W, 3), np.uint8) for _ in angles]
    region = cv2.copyMakeBorder(rgb[cy1:cy2, cx1:cx2], cy1 - iy1, iy2 - cy2, cx1 - ix1, ix2 - cx2, cv2.BORDER_REPLICATE)
    if max(box[2] - box[0], 1.0) > max(box[3] - box[1], 1.0) * SIDEWAYS:  # a sideways tile: stand it up, as `crop_tile` does
        region = np.ascontiguousarray(np.rot90(region, -1))
    scale = (1 + 2 * grown) / (1 + 2 * CROP_MARGIN)
    big_w, big_h = int(round(CROP_W * scale)), int(round(CROP_H * scale))
    big = cv2.resize(region, (big_w, big_h), interpolation=cv2.INTER_AREA)
    ox, oy = (big_w - CROP_W) // 2, (big_h - CROP_H) // 2
    out = []
    for angle in angles:
        turn = cv2.getRotationMatrix2D((big_w / 2, big_h / 2), angle, 1.0)
        turn[:, 2] -= (ox, oy)  # cut the middle CROP_W × CROP_H out while turning
        out.append(cv2.warpAffine(big, turn, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    return out


def third_look_views(rgb: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> list[np.ndarray]:
    """The extra views of a third look at `boxes`: the usual crop tilted by each of `THIRD_LOOK_TILTS`,
    both ways up — each an N × H × W × 3 stack."""
    per_box = [tilted_crops(rgb, b, THIRD_LOOK_TILTS) for b in boxes]
    views = []
    for k in range(len(THIRD_LOOK_TILTS)):
        tilted = np.stack([crops[k] for crops in per_box])
        views += [tilted, turned(tilted)]
    return views


def tile_columns(names: tuple[str, ...]) -> list[int]:
    """Indices of a classifier's classes that are tiles of the game (all but `NO_TILE`)."""
    return [i for i, n in enumerate(names) if n != NO_TILE]


def to_blob(crops: np.ndarray) -> np.ndarray:
    """N × H × W × 3 uint8 crops → N × 3 × H × W float32, normalised as in training."""
    x = crops.transpose(0, 3, 1, 2).astype(np.float32, order="C")  # one pass per step: 15× faster than
    x *= (1 / (255 * STD))[:, None, None]  # scaling in the H × W × 3 layout (0.8 → 0.05 ms for 16 crops)
    x -= (MEAN / STD)[:, None, None]
    return x


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax."""
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class TileClassifier:
    """The ONNX crop classifier (34 tiles + `back`, and `none` in models that learnt it)."""

    def __init__(self, model_path: str | Path, threads: int | None = None) -> None:
        """`threads`: intra-op threads (None: one per physical core; one thread was slower in every run of
        40 photos taken in turn with two, 2 shared cores, 2026-12-05)."""
        path = Path(model_path)
        self.session = open_session(path, threads, "牌面分类模型", "tile classifier")
        self.input_name = self.session.get_inputs()[0].name
        self.path = path
        raw = self.session.get_modelmeta().custom_metadata_map.get("names", "")
        self.names: tuple[str, ...] = tuple(raw.split(",")) if raw else CLASS_NAMES

    def classify(self, rgb: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> list[tuple[str, float]]:
        """(most likely tile class, its probability) for each box of the photo; never `NO_TILE`."""
        return [top[0] for top in self.classify_top(rgb, boxes, 1)]

    def classify_top(self, rgb: np.ndarray, boxes: list[tuple[float, float, float, float]],
                     k: int = TOP_CHOICES, first: np.ndarray | None = None,
                     needed: np.ndarray | None = None) -> list[tuple[tuple[str, float], ...]]:
        """The `k` most likely tile classes of each box with their probabilities, best first; never `NO_TILE`.
        A box the first look is unsure of is read from the mean of four views (`second_look_views`), one still under
        `THIRD_LOOK_BELOW` from the mean of those and the tilted ones (`third_look_views`). `first`: the
        first look's probabilities of `boxes` when the caller has already read them (`gaps.first_look_namer`).
        `needed`: the least probability each box's tile must reach to be kept; a box that could not reach it
        even were every tilted view sure gets no third look (None: every box may)."""
        if not boxes:
            return []
        crops = np.stack([crop_tile(rgb, b) for b in boxes]) if first is None else None
        probs = self(crops) if crops is not None else np.array(first, copy=True)
        tiles = tile_columns(self.names)
        unsure = np.nonzero(probs[:, tiles].max(axis=1) < SECOND_LOOK_BELOW)[0]
        if len(unsure):
            views = second_look_views(rgb, [boxes[i] for i in unsure], crops[unsure] if crops is not None else None)
            more = self(np.concatenate(views)).reshape(len(views), len(unsure), -1)
            probs[unsure] = (probs[unsure] + more.sum(axis=0)) / (1 + len(views))
            still = unsure[probs[unsure][:, tiles].max(axis=1) < THIRD_LOOK_BELOW]
            seen, tilts = 1 + len(views), 2 * len(THIRD_LOOK_TILTS)
            if needed is not None and len(still):
                at_best = (probs[still][:, tiles].max(axis=1) * seen + tilts) / (seen + tilts)
                still = still[at_best >= np.asarray(needed)[still]]
            tilted = third_look_views(rgb, [boxes[i] for i in still]) if len(still) else []
            if tilted:
                again = self(np.concatenate(tilted)).reshape(len(tilted), len(still), -1)
                probs[still] = (probs[still] * seen + again.sum(axis=0)) / (seen + len(tilted))
        return self._top_choices(probs, k)

    def first_look_top(self, rgb: np.ndarray, boxes: list[tuple[float, float, float, float]],
                       k: int = TOP_CHOICES) -> list[tuple[tuple[str, float], ...]]:
        """`classify_top` from the first look alone: no second or third look (where only a sure answer counts, and a
        crop the first look is unsure of is not worth them)."""
        if not boxes:
            return []
        return self._top_choices(self(np.stack([crop_tile(rgb, b) for b in boxes])), k)

    def _top_choices(self, probs: np.ndarray, k: int) -> list[tuple[tuple[str, float], ...]]:
        """Each row of class probabilities' `k` likeliest tile classes (never `NO_TILE`), best first."""
        tiles = tile_columns(self.names)
        order = np.argsort(-probs[:, tiles], axis=1, kind="stable")[:, :k]
        return [tuple((self.names[tiles[j]], float(probs[n, tiles[j]])) for j in row) for n, row in enumerate(order)]

    def logits(self, blob: np.ndarray) -> np.ndarray:
        """The graph's logits of crops already made a blob (`to_blob`)."""
        return self.session.run(None, {self.input_name: blob})[0]

    def __call__(self, crops: np.ndarray) -> np.ndarray:
        """Class probabilities for N prepared crops."""
        return softmax(self.logits(to_blob(crops)))


