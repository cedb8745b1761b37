"""Tiles the detector never boxed, found as patches of the tiles' face colour lying apart (issue 22).

The detector scores a tile lying alone on the cloth (the indicator above or beside the hand) far lower than
one in a row, and now and then draws no box round it at all, even down to the faint boxes (`gaps.faint_tiles`).
Tile faces are one colour (ivory, white, pale green) and the cloth another. The boxes already found give
both: the face colour is the median colour inside them, the cloth colour the median outside. A patch of
pixels nearer the face colour than the cloth's, as large and as shaped as a tile and covered by no box, is
cut out and named by the classifier as a gap tile is (`gaps.first_look_namer`); it is kept when the classifier
names a face surely enough (`LONE_SURE`), scored as a gap tile (`gaps.GAP_BOX_SCORE`), so that the layout holds it
back and takes it in only when the round lacks a tile.

Where face and cloth look alike (a 白板 on a white table) no patch can be cut by colour, and a tile before a light wall
merges with it into one patch far larger than a tile. Such a tile still shows its outline: its rim and the shadow it
casts. Closed rings of the photo's edges about one tile in size (`outlines`), inner rings too (a tile touching the
wall's foot is the hole in the ring the two make), are named the same way after the colour patches. Composed photos
(sixteenth session): 4 more of the 2 280 tuning rounds right (two 白板 indicators on a white wall, a 白板 of the hand,
a 四筒 indicator), one more of the 190 of a fresh draw; none of 3 080 lost. Only photos read again below the threshold
look for lone tiles; there the outlines cost about 2.5 ms.

A tile lying on a light part of the table (the white rings and stripes of an automatic table's centre, where players
often put the indicator) is one patch with it by colour, too large for a tile, and no outline closes round it alone.
Such a patch is looked at in windows of a tile's size (`merged_patch_windows`), those showing a symbol's ink only, and
the window the classifier names a face most surely is the patch's one tile when named surely (`MERGED_SURE`; never 白板,
a blank face being what the light part itself looks like). Composed photos (twenty-eighth session): two more of 120
held-out photos read right (an indicator on the ring, a tile of the hand in a patch larger than a tile), one more of a fresh
held-out draw (its indicator); no tuning or kept-aside round lost or gained.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

import numpy as np

from vision.reader.boxes import covered_shares
from vision.reader.classifier import NO_TILE
from vision.reader.detection import Detection
from vision.reader.detector import Box
from vision.reader.gaps import COVERED, Namer, covered_share, named_face
from vision.reader.layout.geometry import BACK, BLANK

#: The photo is looked at this wide (pixels): enough for a tile a few dozen pixels wide, cheap to label.
WORK_WIDTH = 480
#: A patch's box is kept when its area is this share of the usual box's area or more …
LEAST_AREA = 0.35
#: … and at most this share (the detector's box takes in the tile's side, the patch the face alone).
MOST_AREA = 1.6
#: A patch longer than this many times its width is no tile (an edge of the table, a sleeve).
MOST_ASPECT = 2.2
#: A tile's face fills at least this share of its patch's box (a tile lying at a slant a little less).
LEAST_FILL = 0.55
#: At most this many patches are named a photo, the largest first.
MOST_PATCHES = 6
#: A patch is kept as a tile when the classifier names a face with at least this probability.  It was a gap tile's
#: (`gaps.GAP_SURE`, 0.7 then; 0.5–0.8 read the 540 tuning photos alike), but a patch is a tile's shape and colour lying
#: apart, which a gap is not, and a lone tile on a dark cloth the classifier never saw is named less surely (a 3條
#: indicator at 0.55): 0.5 reads one more of the 570 composed tuning rounds right, none lost, and the kept-aside and
#: held-out photos as before (2026-12-06).
LONE_SURE = 0.5
#: Face and cloth colours nearer than this (Lab units) are not told apart: no patch is cut by colour.
LEAST_CONTRAST = 12.0
#: A tile is also looked for by its outline, where its face looks like the cloth (a 白板 on a white table) or a light
#: wall behind it merges with it: Canny's thresholds at `WORK_WIDTH` …
OUTLINE_EDGES = (20, 60)
#: … its edges closed over this share of a tile's width …
OUTLINE_CLOSE = 0.15
#: … and a closed outline from the first to the second of these shares of a tile's width and height.
OUTLINE_SIZE = (0.6, 1.5)
#: A tile lying on a light part of the table (the white rings of an automatic table's centre) makes one face-coloured
#: patch with it, larger than a tile. Such a patch, up to this many tiles' area (its box), is looked at in windows of a
#: tile's size …
MERGED_MOST_AREA = 40.0
#: … laid a quarter of a tile apart …
WINDOW_STEP = 0.25
#: … showing something other than face colour (a symbol's ink: a window filled more than this is blank, the light part
#: alone or a 白板, which no window can tell from it) …
MOST_FILL = 0.97
#: … at most this many a photo, those fullest of face colour first …
MOST_WINDOWS = 24
#: … and the window of a patch the classifier names a face most surely is a tile when named at this or more (a window
#: over the light part alone shows no tile's face, and is mostly named `none`).
MERGED_SURE = 0.8


def at_width(rgb: np.ndarray, width: int = WORK_WIDTH) -> tuple[np.ndarray, float]:
    """The photo at `width` (never enlarged), and the scale from the photo to it."""
    import cv2

    scale = min(1.0, width / rgb.shape[1])
    return (cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else rgb), scale


def lab_at(rgb: np.ndarray, width: int = WORK_WIDTH) -> tuple[np.ndarray, float]:
    """The photo at `width` (never enlarged) in Lab (float), and the scale from the photo to it."""
    small, scale = at_width(rgb, width)
    return _lab(small), scale


def _lab(rgb: np.ndarray) -> np.ndarray:
    """`rgb` in Lab (float)."""
    import cv2

    return cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32)


def is_face(d: Detection) -> bool:
    """The box is named a tile's face (not a back, not `none`)."""
    return d.tile not in (BACK, NO_TILE, "")


def _faces(dets: Sequence[Detection]) -> list[Detection]:
    """The boxes named a tile's face (`is_face`)."""
    return [d for d in dets if is_face(d)]


def lab_in(rgb: np.ndarray, box: Sequence[float]) -> np.ndarray:
    """The Lab colours (float, one row a pixel) of the photo's pixels in `box` (x1, y1, x2, y2: clipped to the photo,
    then cut to whole pixels toward the top left; none when it is empty), at the photo's own size."""
    return lab_block(rgb, box).reshape(-1, 3)


def lab_block(rgb: np.ndarray, box: Sequence[float]) -> np.ndarray:
    """The photo's pixels in `box` in Lab (float, rows × columns × 3), clipped and cut as `lab_in` does them."""
    import cv2

    height, width = rgb.shape[:2]
    xs, xe = int(np.clip(box[0], 0, width)), int(np.clip(box[2], 0, width))
    ys, ye = int(np.clip(box[1], 0, height)), int(np.clip(box[3], 0, height))
    if xe <= xs or ye <= ys:
        return np.zeros((0, 0, 3), np.float32)
    return cv2.cvtColor(np.ascontiguousarray(rgb[ys:ye, xs:xe]), cv2.COLOR_RGB2LAB).astype(np.float32)


def face_and_cloth(lab: np.ndarray, scale: float, dets: Sequence[Detection]) -> tuple[np.ndarray, np.ndarray] | None:
    """The median Lab colour of `dets`' upright faces and of the cloth (outside them, a little apart) in `lab` (the
    photo at `scale`); None when there are no faces to learn from or face and cloth look alike (`LEAST_CONTRAST`)."""
    inside = _inside_faces(lab, scale, dets)
    if inside is None:
        return None
    face = np.median(lab[inside > 0], axis=0)
    cloth = _cloth_outside(lab, inside)
    if cloth is None or float(np.linalg.norm(face - cloth)) < LEAST_CONTRAST:
        return None
    return face, cloth


def cloth_colour(lab: np.ndarray, scale: float, dets: Sequence[Detection]) -> np.ndarray | None:
    """The median Lab colour of the cloth in `lab` (the photo at `scale`): outside `dets`' upright faces, a little apart;
    None when there are no faces to learn from or no cloth outside them."""
    inside = _inside_faces(lab, scale, dets)
    return None if inside is None else _cloth_outside(lab, inside)


def _inside_faces(lab: np.ndarray, scale: float, dets: Sequence[Detection]) -> np.ndarray | None:
    """Where `dets`' upright faces lie in `lab` (the photo at `scale`; uint8 mask); None with fewer than three."""
    faces = _faces(dets)
    if len(faces) < 3:
        return None
    inside = np.zeros(lab.shape[:2], dtype=np.uint8)
    for d in faces:
        x1, y1, x2, y2 = (int(round(v * scale)) for v in d.box)
        inside[max(y1, 0) : max(y2, 0), max(x1, 0) : max(x2, 0)] = 1
    return inside if inside.any() else None


def _cloth_outside(lab: np.ndarray, inside: np.ndarray) -> np.ndarray | None:
    """The median Lab colour of `lab` a little apart from the faces `inside` marks; None when nothing lies apart."""
    import cv2

    grown = cv2.dilate(inside, np.ones((9, 9), np.uint8))
    return np.median(lab[grown == 0], axis=0) if (grown == 0).any() else None


def nearer_face(lab: np.ndarray, face: np.ndarray, cloth: np.ndarray) -> np.ndarray:
    """Where `lab` is nearer the face colour than the cloth's (bool, its shape less the colour axis)."""
    return np.linalg.norm(lab - face, axis=-1) < np.linalg.norm(lab - cloth, axis=-1)


def face_mask(rgb: np.ndarray, dets: Sequence[Detection]) -> tuple[np.ndarray, float] | None:
    """Where the photo (at WORK_WIDTH) is nearer the face colour of `dets`' upright faces than the cloth's, and
    the scale to the photo; None when there are no faces to learn from or face and cloth look alike."""
    return _face_mask_at(*at_width(rgb), dets)


def _face_mask_at(small: np.ndarray, scale: float, dets: Sequence[Detection]) -> tuple[np.ndarray, float] | None:
    """`face_mask` of the photo already brought to `WORK_WIDTH` (`at_width`: `small`, `scale`)."""
    lab = _lab(small)
    colours = face_and_cloth(lab, scale, dets)
    return (nearer_face(lab, *colours).astype(np.uint8), scale) if colours is not None else None


def patches(mask: np.ndarray, scale: float, usual_w: float, usual_h: float) -> list[tuple[float, float, float, float]]:
    """The boxes (photo pixels) of the mask's patches shaped like one tile (`usual_w` × `usual_h` a box),
    their symbols closed over, largest first."""
    import cv2

    k = max(3, int(round(0.3 * min(usual_w, usual_h) * scale)) | 1)
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    opened = cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    _, _, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    usual = usual_w * usual_h
    out = []
    for x, y, w, h, filled in stats[1:]:
        area = (w * h) / (scale * scale)
        if not LEAST_AREA * usual <= area <= MOST_AREA * usual or max(w, h) > MOST_ASPECT * min(w, h):
            continue
        if filled < LEAST_FILL * w * h:
            continue
        out.append((area, (x / scale, y / scale, (x + w) / scale, (y + h) / scale)))
    return [b for _, b in sorted(out, key=lambda t: -t[0])]


def merged_patch_windows(mask: np.ndarray, scale: float, usual_w: float, usual_h: float,
                         taken: Sequence[Detection], found: Sequence[Detection] = ()) -> list[list[Box]]:
    """The windows of a tile's size (standing, `usual_w` × `usual_h`, `WINDOW_STEP` of a tile apart; photo pixels) over
    each of the mask's patches larger than a tile (`MOST_AREA` to `MERGED_MOST_AREA` tiles' area), filled `LEAST_FILL` or
    more by the patch but not blank (`MOST_FILL`), and covered by no box of `taken`; at most `MOST_WINDOWS` in all, the
    fullest first. A patch round the middle of a tile already `found` lying apart (by its own patch or outline) is not
    looked at: one lone tile a patch. The mask is not closed first (as `patches` closes it): closing joins the tile to
    the stripes and spots of the light part round it."""
    import cv2

    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    usual = usual_w * usual_h
    windows: list[tuple[float, int, Box]] = []
    for label, (x, y, w, h, _) in enumerate(stats[1:], start=1):
        if not MOST_AREA * usual < (w * h) / (scale * scale) <= MERGED_MOST_AREA * usual:
            continue
        if any(x <= d.cx * scale <= x + w and y <= d.cy * scale <= y + h for d in found):
            continue
        own = (labels == label).astype(np.float32)
        for top in np.arange(y / scale, max(y / scale, (y + h) / scale - usual_h) + 1e-6, WINDOW_STEP * usual_h):
            for left in np.arange(x / scale, max(x / scale, (x + w) / scale - usual_w) + 1e-6, WINDOW_STEP * usual_w):
                box = (float(left), float(top), float(left + usual_w), float(top + usual_h))
                x1, y1, x2, y2 = (int(round(v * scale)) for v in box)
                inside = own[max(y1, 0) : y2, max(x1, 0) : x2]
                filled = float(inside.mean()) if inside.size else 0.0
                if LEAST_FILL <= filled <= MOST_FILL and covered_share(box, taken) <= COVERED:
                    windows.append((filled, label, box))
    chosen = sorted(windows, key=lambda t: -t[0])[:MOST_WINDOWS]
    return [[b for _, lab, b in chosen if lab == label] for label in sorted({lab for _, lab, _ in chosen})]


def outlines(small: np.ndarray, scale: float, usual_w: float, usual_h: float,
             ) -> list[tuple[float, float, float, float]]:
    """The boxes (photo pixels) of closed outlines about one tile in size (`OUTLINE_SIZE` of `usual_w` × `usual_h`),
    largest first, in the photo brought to `WORK_WIDTH` (`at_width`: `small`, `scale`): its edges (`OUTLINE_EDGES`)
    closed over `OUTLINE_CLOSE` of a tile's width, each ring of them, outer or inner (a tile touching a line of the
    table is the hole inside the ring they make)."""
    import cv2

    edges = cv2.Canny(cv2.cvtColor(np.ascontiguousarray(small), cv2.COLOR_RGB2GRAY), *OUTLINE_EDGES)
    k = max(3, int(round(OUTLINE_CLOSE * usual_w * scale)) | 1)
    closed = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    low, high = OUTLINE_SIZE
    out = []
    for x, y, w, h in (cv2.boundingRect(c) for c in contours):
        if low * usual_w <= w / scale <= high * usual_w and low * usual_h <= h / scale <= high * usual_h:
            out.append((w * h, (x / scale, y / scale, (x + w) / scale, (y + h) / scale)))
    return [b for _, b in sorted(out, key=lambda t: -t[0])]


def lone_tiles(rgb: np.ndarray, dets: Sequence[Detection], name: Namer, sure: float = LONE_SURE) -> list[Detection]:
    """The tiles the classifier (`name`) surely sees in face-coloured patches (`patches`), then in closed outlines of a
    tile's size (`outlines`), that no box of `dets` covers, nor an earlier patch or outline; at most `MOST_PATCHES`. Then
    one tile in each patch too large for one, where it lies on a light part of the table (`merged_tiles`)."""
    faces = _faces(dets)
    if not faces:
        return []
    usual_w = float(median([d.width for d in faces]))
    usual_h = float(median([d.height for d in faces]))
    small, scale = at_width(rgb)  # both looks at the photo at one size, resized once
    found = _face_mask_at(small, scale, dets)
    boxes: list[tuple[float, float, float, float]] = []
    candidates = [*(patches(*found, usual_w, usual_h) if found is not None else []),
                  *outlines(small, scale, usual_w, usual_h)]
    for b in candidates:
        if covered_share(b, dets) <= COVERED and max(covered_shares(b, boxes), default=0.0) <= COVERED:
            boxes.append(b)
    boxes = boxes[:MOST_PATCHES]
    named = (named_face(box, top, sure) for box, top in zip(boxes, name(rgb, boxes)))
    tiles = [d for d in named if d is not None]
    if found is not None:
        tiles += merged_tiles(rgb, merged_patch_windows(*found, usual_w, usual_h, [*dets, *tiles], tiles), name)
    return tiles


def merged_tiles(rgb: np.ndarray, patches_windows: Sequence[Sequence[Box]], name: Namer) -> list[Detection]:
    """In each patch's windows (`merged_patch_windows`), the one the classifier (`name`) names a face most surely, when
    that is `MERGED_SURE` or more and not a 白板 (a blank face is what the light part looks like): one tile a patch."""
    windows = [b for wins in patches_windows for b in wins]
    tops = iter(name(rgb, windows) if windows else [])
    out = []
    for wins in patches_windows:
        named = [d for d in (named_face(b, top, MERGED_SURE) for b, top in zip(wins, tops))
                 if d is not None and d.tile != BLANK]
        if named:
            out.append(max(named, key=lambda d: d.conf))
    return out
