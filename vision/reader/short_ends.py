"""A box ending short of its tile along the row: the tile's face goes on past its end (`reach_the_face`).

A claimed tile lying sideways in a meld is longer along the row than a standing one. The detector, trained mostly on
standing tiles, often boxes it with a standing tile's shape: centred on it and short at one end. Between that end and
the next box then lies what looks like a gap, and the layout reads the meld's tiles apart (the meld as concealed tiles,
its last tile as the winning tile set apart). The pixels tell a true gap from a short box: a true gap shows what lies
just above and below it (the cloth, or whatever lies behind the row), a short box's gap the tiles' face. Where the
middle band of a gap between two boxes of a row, `MIN_GAP`–`MAX_GAP` tile widths wide, is mostly nearer the two tiles'
face colour than the colours just above and below the gap (`face_share` ≥ `FACE_GAP`), the lower of the two boxes (a
lying tile is lower than a standing one) is grown to its neighbour; its name stays. A colour of the whole photo's
cloth (`lone.face_and_cloth`) would not do: a light wooden table, or an orange box lying behind the row, is nearer the
ivory face than the photo's green cloth is.

The cloth just above and below must look like cloth, not like the faces (`CLOTH_CONTRAST`): in a tray or a heap more
tiles lie there, and on CMD v4's 296 `valid` photos 19 boxes were grown without this check, nearly all wrongly (a tile
in a wall grown into its neighbour's tight box, a heap's tile over another); with it 5 are, 4 of them in heaps.

Composed photos (2026-12-05, tenth session): with `halves`' tile boxed twice (`ONE_TILE_TWICE`), tuning seeds 47/0/8
525 → 533 of 570 rounds right (this module alone +4), none lost; kept-aside seed 13 276 → 278 of 300 (279 without the
cloth check), held-out seed 2 83 of 120 as before. `FACE_GAP` 0.5: the claimed tiles' gaps measured 0.52–0.78, true
gaps 0–0.49 (a bright reflection on a wooden table).

A claimed tile boxed short is sometimes boxed at its far end too, faintly and named another tile (0.09): touching
the short box, that end box closes the gap, and the short box was never grown though the reading leaves the faint box
out. The gaps are now also looked for among the boxes the reading keeps (`conf`) alone; the pairs among every box are
still grown first (a claimed tile boxed short and faintly itself is grown, for the deeper reading). A grown box is
named again (`name`, the classifier's `classify_top`) and takes the tile named there when that is surer: the crop of
a sideways 六筒's one end read 七筒 at 0.22, the grown box 六筒. Composed photos (2026-12-07, twenty-fifth session):
tuning +1, seeds 199/211 +1, none of the 6 500 lost; 231 photos' rounds read with other confidences (over the 6 120
saved photos 17 fewer `low_confidence` questions, 7 fewer `legal_fix`, 3 more `win_tile_check`), the kept-aside,
held-out and fresh draws right as before; `jingsuan read` about as fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from statistics import median

import numpy as np

from vision.reader.classifier import NO_TILE
from vision.reader.detection import Detection
from vision.reader.detector import named_as_whole
from vision.reader.gaps import Namer
from vision.reader.lone import is_face, lab_in

#: A gap is looked at when it is at least this share of a tile's width (narrower: boxes a little tight) …
MIN_GAP = 0.15
#: … and at most this share (wider: a tile the detector missed, `gaps.gap_tiles`, or a group set apart).
MAX_GAP = 0.7
#: Two boxes lie in one row when their centres differ across it by at most this share of the lower one's height.
SAME_ROW = 0.4
#: The gap's band looked at leaves out this share of the two boxes' shared height at top and bottom (tile edges, shadows).
INSET = 0.25
#: The two tiles' face is looked at in the same band, leaving out this share of each box's width at either side.
FACE_INSET = 0.15
#: The gap is the tile's face, not the cloth, when at least this share of its band is nearer the face colour.
FACE_GAP = 0.5
#: The cloth is looked at in bands this share of a tile's height above and below the gap, from the farther to the nearer.
CLOTH_BAND = (0.3, 0.05)
#: Each band must lie this far (Lab units) from the face colour to be the cloth: nearer, it is more tiles (a wall of
#: tiles in a tray, a heap) or a table as light as the faces, and the gap is not judged.
CLOTH_CONTRAST = 20.0
#: The grown box is the lower one only when it is at most this share of the other's height (about as high: no telling
#: which tile the face belongs to, and neither is grown).
LOWER = 0.95


def _right_neighbour(d: Detection, dets: Sequence[Detection]) -> Detection | None:
    """The box nearest to `d`'s right in its row (its left end past `d`'s middle), else None."""
    best = None
    for o in dets:
        if o is d or o.box[0] <= d.cx or abs(o.cy - d.cy) > SAME_ROW * min(o.height, d.height):
            continue
        if best is None or o.box[0] < best.box[0]:
            best = o
    return best


def gaps_between(dets: Sequence[Detection]) -> list[tuple[int, int]]:
    """Pairs (left, right) of indices into `dets`: two face boxes side by side in a row, `MIN_GAP`–`MAX_GAP` of a tile's
    width apart."""
    index = {id(d): k for k, d in enumerate(dets)}
    out = []
    for i, d in enumerate(dets):
        if not is_face(d):
            continue
        r = _right_neighbour(d, dets)
        if r is None or not is_face(r):
            continue
        tile = float(median([min(d.width, d.height), min(r.width, r.height)]))
        if MIN_GAP * tile <= r.box[0] - d.box[2] <= MAX_GAP * tile:
            out.append((i, index[id(r)]))
    return out


def _lab(rgb: np.ndarray, box: Sequence[float]) -> np.ndarray:
    """`lone.lab_in` of the whole pixels inside `box`."""
    return lab_in(rgb, (np.ceil(box[0]), np.ceil(box[1]), np.floor(box[2]), np.floor(box[3])))


def face_share(rgb: np.ndarray, a: Detection, b: Detection) -> float:
    """The share of the middle band of the gap between `a` and `b` (left to right) nearer the two tiles' face (the
    lighter half of their pixels in that band) than the cloth just above and just below the gap (`CLOTH_BAND`);
    0 when either band lies outside the photo or looks like the face (`CLOTH_CONTRAST`)."""
    top, bottom = max(a.box[1], b.box[1]), min(a.box[3], b.box[3])
    inset = INSET * (bottom - top)
    band = (top + inset, bottom - inset)
    gap = _lab(rgb, (a.box[2], band[0], b.box[0], band[1]))
    inside = np.concatenate([_lab(rgb, (d.box[0] + FACE_INSET * d.width, band[0], d.box[2] - FACE_INSET * d.width,
                                        band[1])) for d in (a, b)])
    if not len(gap) or not len(inside):
        return 0.0
    face = np.median(inside[inside[:, 0] >= np.median(inside[:, 0])], axis=0)
    h = min(a.height, b.height)
    above, below = min(a.box[1], b.box[1]), max(a.box[3], b.box[3])
    bands = (_lab(rgb, (a.box[2], above - CLOTH_BAND[0] * h, b.box[0], above - CLOTH_BAND[1] * h)),
             _lab(rgb, (a.box[2], below + CLOTH_BAND[1] * h, b.box[0], below + CLOTH_BAND[0] * h)))
    if not all(len(c) for c in bands):
        return 0.0
    cloths = [np.median(c, axis=0) for c in bands]
    if min(float(np.linalg.norm(c - face)) for c in cloths) < CLOTH_CONTRAST:
        return 0.0  # tiles above or below (a wall, a heap), or a table as light as the faces: nothing to tell by
    to_cloth = np.min([np.linalg.norm(gap - c, axis=1) for c in cloths], axis=0)
    return float((np.linalg.norm(gap - face, axis=1) < to_cloth).mean())


def reach_the_face(rgb: np.ndarray, dets: list[Detection], conf: float = 0.0,
                   name: Namer | None = None) -> list[Detection]:
    """`dets` with the lower box of each pair (`gaps_between`; then among the boxes of confidence ≥ `conf` alone: a box
    the reading leaves out does not stand in a gap) whose gap is tile face (`face_share` ≥ `FACE_GAP`) grown to its
    neighbour; with `name`, a grown box is named again and takes the tile named there when that is surer."""
    out = list(dets)
    kept = [k for k, d in enumerate(dets) if d.conf >= conf]
    among_kept = [(kept[a], kept[b]) for a, b in gaps_between([dets[k] for k in kept])]
    grown: list[int] = []
    for i, j in dict.fromkeys([*gaps_between(dets), *among_kept]):
        if i in grown or j in grown:  # grown once, to its nearest neighbour
            continue
        a, b = out[i], out[j]
        if face_share(rgb, a, b) < FACE_GAP:
            continue
        if a.height <= LOWER * b.height:
            out[i] = replace(a, box=(a.box[0], a.box[1], b.box[0], a.box[3]))
            grown.append(i)
        elif b.height <= LOWER * a.height:
            out[j] = replace(b, box=(a.box[2], b.box[1], b.box[2], b.box[3]))
            grown.append(j)
    if name is not None and grown:
        for i, top in zip(grown, name(rgb, [out[i].box for i in grown])):
            d = out[i]
            if top and top[0][0] != NO_TILE and top[0][1] > d.named_prob:
                out[i] = named_as_whole(d, d.box, top)
    return out
