"""Labels the classifier doubts: boxes of a labelled photo that the shipped crop classifier names as another
tile, surely, for a person to look at in 标注 (`jingsuan dataset audit NAME`).

A wrong label teaches the reader a wrong tile and counts a right reading wrong. Read this way on 2026-12-05,
22 of CMD v4's 6 317 `valid` labels and 3 of its `train` labels proved wrong on the photo (a 伍萬 labelled 5筒,
a row of 1–3筒 labelled 1–3條); the rest of the doubted boxes were the classifier's own mistakes. So a doubt is
a question for a person, never a change made here. A label the classifier agrees with is not doubted, right or
wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

Box = tuple[float, float, float, float]
#: Names each box of a photo: (tile, probability), as `TileClassifier.classify` does.
Namer = Callable[[np.ndarray, list[Box]], list[tuple[str, float]]]

#: A reading this sure that disagrees with the label is doubted (CMD v4 `valid`: each of the 16 readings at 0.9 or
#: more that disagreed was a wrong label; of the 60 less sure ones, 6).
DOUBT_P = 0.9
#: Labels the classifier does not name as tiles of the game: never doubted.
NOT_READ = ("back",)


@dataclass(frozen=True)
class LabelDoubt:
    """One labelled box the classifier reads otherwise: where it is, its label, and the classifier's reading."""

    stem: str
    box: Box
    label: str
    reading: str
    p: float


def label_doubts(stem: str, labels: Sequence[tuple[Box, str]], readings: Sequence[tuple[str, float]],
                 min_p: float = DOUBT_P) -> list[LabelDoubt]:
    """The labels of one photo that `readings` (one per label) contradict with probability ≥ `min_p`."""
    return [LabelDoubt(stem, box, label, tile, p) for (box, label), (tile, p) in zip(labels, readings)
            if label not in NOT_READ and tile != label and tile != "none" and p >= min_p]


def doubts_in_store(store: Any, name: Namer, min_p: float = DOUBT_P) -> list[LabelDoubt]:
    """Every label of a team dataset (`vision.datasets.store.DatasetStore`) that `name` contradicts surely;
    an unreadable photo is passed over (the other photos are still read)."""
    from scoring.errors import JingsuanError
    from vision.reader.image import load_image

    out: list[LabelDoubt] = []
    for stem in store.stems():
        try:
            example = store.load(stem)
            rgb = load_image(example.image_path)
        except JingsuanError:
            continue
        labels = [((b.x1, b.y1, b.x2, b.y2), b.cls) for b in example.boxes]
        if labels:
            out += label_doubts(stem, labels, name(rgb, [box for box, _ in labels]), min_p)
    return out


def classifier_namer(detector_onnx: str | Path | None = None) -> Namer:
    """The shipped crop classifier (beside `detector_onnx`, default the models folder's) as a `Namer`."""
    from vision.reader.detector import TileDetector

    classifier = TileDetector(detector_onnx).classifier
    if classifier is None:
        return lambda rgb, boxes: [("none", 0.0)] * len(boxes)
    return classifier.classify
