"""A kong's fourth tile lying on its middle tile shows its face above the row (`face_above_row`).

A 明杠 is often laid as three tiles with the fourth stacked on the middle one. Seen from above, the tile on top sticks
out past the row's top edge; where the detector boxes the pair as one tall box, or the top tile alone, the middle box
itself rises (`layout.readings._middle_rises`), but often it boxes only the lower tile and the tile on top is lost. The
pixels still show it: just above the row, over the middle tile, lies tile face, where over its neighbours lies cloth.
Each standing box with a standing neighbour at either side, the three read as one tile, gets the share of pixels nearer
the tiles' face colour than the cloth's (`lone.face_and_cloth`; the face colour of the neighbours' own top margins,
`own_face`, where they lie in shade) in a band `BAND` above its neighbours' mean top, less the larger such share over
either neighbour; the layout reads the three as a stacked kong when the middle one's share is at
least `readings.STACK_FACE`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from vision.reader.detection import Detection
from vision.reader.gaps import covered_share
from vision.reader.lone import LEAST_CONTRAST, face_and_cloth, lab_at, lab_in, nearer_face

#: The band looked at, from this share of the neighbours' height above their mean top down to this share above it.
BAND = (0.3, 0.05)
#: A neighbour lies beside a box: their centres differ across the row by at most this share of the height, and the
#: gap between them is at most this share of the box's width (overlapping a little is allowed as much).
SAME_ROW = 0.5
NEXT_TO = 0.5
#: The middle of the band's width is looked at, this share of the box's width off each side.
INSET = 0.2
#: The face and cloth colours are learnt from the photo this wide (pixels); the bands are looked at in full.
SAMPLE_WIDTH = 160
#: A tile's top margin, from and to this share of its height below its top: its own face colour (`own_face`).
TOP_MARGIN = (0.04, 0.12)
#: The band over the middle tile lying this much more inside other boxes than the bands over its neighbours is another
#: tile's face (one boxed on its own just above it), not a stacked one's; a row of tiles just above covers all three.
OTHER_TILE = 0.3


def _beside(d: Detection, others: Sequence[Detection], side: int) -> Detection | None:
    """The standing box next to `d` on its left (`side` −1) or right (+1), nearest first; None when there is none."""
    best: tuple[float, Detection] | None = None
    for o in others:
        if o is d or not o.standing or abs(o.cy - d.cy) > SAME_ROW * d.height:
            continue
        gap = (d.box[0] - o.box[2]) if side < 0 else (o.box[0] - d.box[2])
        if -NEXT_TO * d.width <= gap <= NEXT_TO * d.width and (best is None or abs(gap) < best[0]):
            best = (abs(gap), o)
    return best[1] if best else None


def alike_triples(dets: Sequence[Detection]) -> list[tuple[int, Detection, Detection]]:
    """Each standing box lying between two standing neighbours read as the same tile as it (a 碰's or a kong's three):
    (its index, the left neighbour, the right one)."""
    out = []
    for i, d in enumerate(dets):
        if not d.standing:
            continue
        left, right = _beside(d, dets, -1), _beside(d, dets, 1)
        if left is not None and right is not None and left.tile == d.tile == right.tile:
            out.append((i, left, right))
    return out


def face_above_row(rgb: np.ndarray, colours: tuple[np.ndarray, np.ndarray], dets: Sequence[Detection],
                   triples: Sequence[tuple[int, Detection, Detection]] | None = None) -> list[float]:  # fmt: skip
    """For each of `dets`, how much more of the band above its row is tile face than over its neighbours (0 but for the
    middle of three alike, `alike_triples`, given as `triples` when already found); `colours`: the face's and the
    cloth's in Lab (`lone.face_and_cloth`). Only the bands' pixels are looked at, at the photo's own size."""

    def share(d: Detection, top: float, bottom: float, face: np.ndarray) -> float:
        lab = lab_in(rgb, (d.box[0] + INSET * d.width, top, d.box[2] - INSET * d.width, bottom))
        return float(nearer_face(lab, face, colours[1]).mean()) if len(lab) else 0.0

    out = [0.0] * len(dets)
    for i, left, right in alike_triples(dets) if triples is None else triples:
        d = dets[i]
        top = (left.box[1] + right.box[1]) / 2
        h = (left.height + right.height) / 2
        band = (top - BAND[0] * h, top - BAND[1] * h)
        others = [o for o in dets if o is not d and o is not left and o is not right]
        covered = [covered_share((t.box[0] + INSET * t.width, band[0], t.box[2] - INSET * t.width, band[1]), others)
                   for t in (d, left, right)]
        if covered[0] - max(covered[1:]) > OTHER_TILE:
            continue  # a tile boxed on its own lies there alone (the indicator set just above): nothing stacked
        face = own_face(rgb, (left, right), colours)
        out[i] = share(d, *band, face) - max(share(left, *band, face), share(right, *band, face))
    return out


def own_face(rgb: np.ndarray, tiles: Sequence[Detection], colours: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The face colour of these tiles themselves: the median Lab of their top margins (`TOP_MARGIN`, blank on most
    sets), where it differs from the cloth's by `lone.LEAST_CONTRAST` at least; else the photo's (`colours`)."""
    lab = np.concatenate([lab_in(rgb, (t.box[0] + INSET * t.width, t.box[1] + TOP_MARGIN[0] * t.height,
                                       t.box[2] - INSET * t.width, t.box[1] + TOP_MARGIN[1] * t.height)) for t in tiles])
    if not len(lab):
        return colours[0]
    face = np.median(lab, axis=0)
    return face if np.linalg.norm(face - colours[1]) >= LEAST_CONTRAST else colours[0]


class FaceAbove:
    """Each box's `face_above` for one photo: the face and cloth colours (`lone.face_and_cloth`, learnt from the
    photo at `SAMPLE_WIDTH`) made once, only when first needed: when three standing tiles read alike lie side by side."""

    def __init__(self, rgb: np.ndarray) -> None:
        self.rgb = rgb
        self._colours: tuple[np.ndarray, np.ndarray] | None | bool = False  # False: not learnt yet

    def __call__(self, dets: list[Detection], keep: Callable[[Detection], bool] = lambda d: False) -> list[Detection]:
        """`dets`, each standing between two neighbours read as the same tile with its `face_above` (`face_above_row`),
        but those `keep` says to leave as they are; all as they are when no three alike lie side by side or the
        photo's face and cloth colours cannot be told apart (learnt from the first `dets` asked about)."""
        triples = alike_triples(dets) if len(dets) >= 3 else []
        if not triples:
            return dets
        if self._colours is False:
            self._colours = face_and_cloth(*lab_at(self.rgb, SAMPLE_WIDTH), dets)
        if not isinstance(self._colours, tuple):
            return dets
        values = face_above_row(self.rgb, self._colours, dets, triples)
        return [replace(d, face_above=v) if v and not keep(d) else d for d, v in zip(dets, values)]
