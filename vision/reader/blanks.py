"""How unlike the photo's surest 白板 each other box named 白板 looks (`Detection.blank_apart`).

A tile set's 白板 all look alike. A patch of table, or the white side of a tile wall behind the tiles, boxed and named
白板 does not, however sure the classifier is of it: a set's framed 白板 and a wall's plain white side were both named
白板 at 0.9 in one composed photo. How alike two crops look is the cosine distance of the classifier's embeddings (its
penultimate layer, as the table's memory compares crops: `memory.crop_embeddings`), each box's against that of the box
named 白板 most surely; the layout weighs it where that one is sure (`layout._unsure_blank`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from vision.reader.detection import Detection
from vision.reader.detector import Box
from vision.reader.layout.geometry import BLANK
from vision.reader.memory import crop_embeddings, gives_embeddings, unit


class BlankLikeness:
    """Gives each box named 白板 its `blank_apart` from the photo's surest one, each crop embedded once per photo."""

    def __init__(self, rgb: np.ndarray, classifier: Any) -> None:
        self.rgb = rgb
        self.classifier = classifier if gives_embeddings(classifier) else None
        self._embedded: dict[Box, np.ndarray] = {}

    def __call__(self, dets: list[Detection], keep: Callable[[Detection], bool] = lambda d: False) -> list[Detection]:
        """`dets`, each box named 白板 but the surest with its `blank_apart`, but those `keep` says to leave as they
        are; all as they are with fewer than two such boxes or a classifier that gives no embedding."""
        blanks = [d for d in dets if d.tile == BLANK and d.alternatives]
        if len(blanks) < 2 or self.classifier is None:
            return dets
        new = list(dict.fromkeys(d.box for d in blanks if d.box not in self._embedded))
        if new:
            self._embedded.update(zip(new, unit(crop_embeddings(self.classifier, self.rgb, new))))
        surest = max(blanks, key=lambda d: d.named_prob)
        ref = self._embedded[surest.box]
        apart = {id(d): float(1.0 - self._embedded[d.box] @ ref) for d in blanks if d is not surest and not keep(d)}
        return [replace(d, blank_apart=apart[id(d)]) if id(d) in apart else d for d in dets]
