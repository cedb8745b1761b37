"""Tiles a training photo shows but its labels leave out, painted over so that training does not learn
them as background.

Chinese Mahjong Detection v4 labels every tile on most photos, but not on all of them:
* flowers and seasons are physical tiles, yet their labels are dropped on import (they are not in the
  136-tile game), so they would stay in the photo unlabelled;
* about one photo in seven of its `train` split labels only the hand row and leaves the tiles spread on
  the table (dozens of them) unlabelled.

A detector trained on such photos learns that a tile lying on the table is background (a likely
reason why the long runs of the model card missed more tiles). This module paints over what the labels leave out:
`paint_boxes` for the known boxes of dropped classes, and `paint_outside` for everything away from
the labelled tiles once a finder (the shipped detector and classifier) sees tiles there
(`unlabelled_tiles`). The fill is ultralytics' letterbox grey, which the detector already reads as
nothing. Only training photos are painted, and only with `jingsuan train --paint-unlabelled`; `valid`
stays as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.datasets.yolo import ground_truth, image_files, source_photo
from vision.reader.boxes import iou_matrix

#: ultralytics' letterbox and mosaic fill: what the detector has always seen as "no tile here".
FILL = (114, 114, 114)
#: A painted box grows by this share of its size a side, to take the tile's edge and shadow too.
PAINT_GROW = 0.06
#: Around each labelled tile this share of its size a side stays unpainted (its edge, shadow, table).
KEEP_GROW = 0.35
#: A found box overlapping every label by less than this IoU is a tile the labels leave out.
UNLABELLED_IOU = 0.2
#: A photo with at least this many unlabelled tiles found is partly labelled.
MIN_UNLABELLED = 2

Box = tuple[float, float, float, float]
#: A finder: RGB photo → boxes (x1, y1, x2, y2 in pixels) of what it takes for tiles of the game.
Finder = Callable[[np.ndarray], list[Box]]


def _grown(box: Box, grow: float, width: int, height: int) -> tuple[int, int, int, int]:
    x1, y1, x2, y2 = box
    gx, gy = (x2 - x1) * grow, (y2 - y1) * grow
    return (max(0, int(np.floor(x1 - gx))), max(0, int(np.floor(y1 - gy))),
            min(width, int(np.ceil(x2 + gx))), min(height, int(np.ceil(y2 + gy))))


def box_mask(shape: tuple[int, ...], boxes: Sequence[Box], grow: float = 0.0) -> np.ndarray:
    """A boolean (height, width) mask, true inside the `boxes` grown by `grow` of their size a side."""
    height, width = shape[:2]
    mask = np.zeros((height, width), bool)
    for b in boxes:
        x1, y1, x2, y2 = _grown(b, grow, width, height)
        mask[y1:y2, x1:x2] = True
    return mask


def paint_boxes(image: np.ndarray, boxes: Sequence[Box], keep: Sequence[Box] = (),
                grow: float = PAINT_GROW) -> np.ndarray:
    """The photo with `boxes` (tiles its labels leave out) painted grey; pixels inside `keep` (the
    labelled tiles) are never painted."""
    paint = box_mask(image.shape, boxes, grow) & ~box_mask(image.shape, keep)
    out = image.copy()
    out[paint] = FILL
    return out


def paint_outside(image: np.ndarray, keep: Sequence[Box], grow: float = KEEP_GROW) -> np.ndarray:
    """The photo painted grey everywhere but around its labelled tiles (`keep`, grown by `grow`)."""
    out = image.copy()
    out[~box_mask(image.shape, keep, grow)] = FILL
    return out


def unlabelled_tiles(labels: Sequence[Box], found: Sequence[Box], iou: float = UNLABELLED_IOU) -> list[Box]:
    """Found tiles that no label covers: IoU under `iou` with every label and the centre inside none."""
    if not found:
        return []
    if not labels:
        return list(found)
    lab = np.asarray(labels, float)
    fnd = np.asarray(found, float)
    overlap = iou_matrix(fnd, lab).max(axis=1)
    cx, cy = (fnd[:, 0] + fnd[:, 2]) / 2, (fnd[:, 1] + fnd[:, 3]) / 2
    inside = ((cx[:, None] >= lab[None, :, 0]) & (cx[:, None] <= lab[None, :, 2])
              & (cy[:, None] >= lab[None, :, 1]) & (cy[:, None] <= lab[None, :, 3])).any(axis=1)
    return [tuple(f) for f, o, i in zip(found, overlap, inside) if o < iou and not i]  # type: ignore[misc]


@dataclass
class PaintReport:
    """What `paint_unlabelled_split` did."""

    photos: int = 0
    partly_labelled: int = 0
    unlabelled_found: int = 0

    def summary(self) -> str:
        return (f"{self.partly_labelled} of {self.photos} photos labelled only in part ({self.unlabelled_found} tiles "
                f"without a label found in all): painted grey away from their labels")


def paint_unlabelled_split(split: str | Path, finder: Finder, min_unlabelled: int = MIN_UNLABELLED,
                           skip_prefixes: tuple[str, ...] = ("synth_", "camera_")) -> PaintReport:
    """Paint grey, away from their labels, the photos of a YOLO split (``images/`` + ``labels/``) in
    which `finder` sees at least `min_unlabelled` tiles no label covers, and every other copy of the
    same source photo (`source_photo`: a finder trained on these photos overlooks the tiles it learnt
    as background on some copies). A painted photo is written as a new PNG beside its labels (a
    linked original is never touched)."""
    import cv2

    split = Path(split)
    report = PaintReport()
    labels: dict[Path, list[Box]] = {}
    partly: set[str] = set()
    for img_path in image_files(split / "images"):
        if img_path.name.startswith(skip_prefixes):
            continue
        image = cv2.imread(str(img_path))
        if image is None:
            continue
        report.photos += 1
        height, width = image.shape[:2]
        boxes = [d.box for d in ground_truth(img_path, width, height)]
        if not boxes:
            continue
        labels[img_path] = boxes
        missing = unlabelled_tiles(boxes, finder(np.ascontiguousarray(image[:, :, ::-1])))
        report.unlabelled_found += len(missing)
        if len(missing) >= min_unlabelled:
            partly.add(source_photo(img_path.stem))
    for img_path, boxes in labels.items():
        if source_photo(img_path.stem) not in partly:
            continue
        image = cv2.imread(str(img_path))
        report.partly_labelled += 1
        out = img_path.with_suffix(".png")
        painted = paint_outside(image, boxes)
        img_path.unlink()
        cv2.imwrite(str(out), painted)
    return report


def named_finder(detector_onnx: str | Path | None = None, box_floor: float = 0.03,
                 min_prob: float = 0.6) -> Callable[[np.ndarray], list[tuple[Box, str]]]:
    """A finder from the shipped models that also names what it finds: every box the detector scores
    at least `box_floor` (far under its usual threshold: a detector trained on partly labelled photos
    scores table tiles low) that the classifier names a tile of the game or a face-down tile (CMD v4
    labels no backs) with probability at least `min_prob` → (box, tile code)."""
    from vision.reader.detector import TileDetector

    detector = TileDetector(detector_onnx)  # None: tiles.onnx of models_dir()

    def find(rgb: np.ndarray) -> list[tuple[Box, str]]:
        if detector.classifier is None:
            return []
        boxes: list[Box] = [tuple(float(v) for v in b) for b in detector.find_boxes(rgb, box_floor)[0]]  # type: ignore[misc]
        named = detector.classifier.classify(rgb, boxes) if boxes else []
        return [(b, tile) for b, (tile, p) in zip(boxes, named) if tile != "none" and p >= min_prob]

    return find


def detector_finder(detector_onnx: str | Path | None = None, box_floor: float = 0.03,
                    min_prob: float = 0.6) -> Finder:
    """`named_finder`'s boxes alone."""
    named = named_finder(detector_onnx, box_floor, min_prob)
    return lambda rgb: [box for box, _ in named(rgb)]


def unlabelled_in_store(store: Any, finder: Finder, min_unlabelled: int = 1) -> dict[str, list[Box]]:
    """Examples of a team dataset (`vision.datasets.store.DatasetStore`) in which `finder` sees at least
    `min_unlabelled` tiles no label covers: stem → those tiles' boxes. An annotator should box them
    before fine-tuning, or the detector learns them as background."""
    from scoring.errors import JingsuanError
    from vision.reader.image import load_image

    found: dict[str, list[Box]] = {}
    for stem in store.stems():
        try:  # one unreadable photo does not stop the check of the others
            example = store.load(stem)
            rgb = load_image(example.image_path)
        except JingsuanError:
            continue
        labels = [(b.x1, b.y1, b.x2, b.y2) for b in example.boxes]
        missing = unlabelled_tiles(labels, finder(rgb))
        if len(missing) >= min_unlabelled:
            found[stem] = missing
    return found
