"""Where the tiles lie: the rows' direction, the rows, the groups of touching tiles, and photos turned 90°.

A detection becomes a `Placed` tile in the row frame (along and across the rows); `estimate_angle`,
`cluster_rows` and `split_groups` are steps 1–3 of `vision.reader.layout`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median
from typing import Any

import numpy as np

from vision.reader.detection import Detection

GAP_FRACTION = 0.3  # of the median tile width: a bigger gap always starts a new group


#: A gap this much wider than the row's usual gap between touching tiles also starts a group (detector
#: boxes run a little loose, eating into the half-tile gap before the winning tile), never below MIN_GAP.
GAP_OVER_USUAL = 0.15


MIN_GAP_FRACTION = 0.15


#: A boundary between two standing tiles that `split_groups` keeps together is a possible gap when it lies
#: this much (tile widths) beyond the row's usual spacing, by its boxes' gap or their centres' distance:
#: loose boxes eat into the gap before a winning tile or a meld, so it is weighed, not decided, here.
WEAK_GAP = 0.15
#: A boundary `WEAK_GAP` would weigh is a cut when it lies this far beyond the row's usual spacing and sets a group's
#: first 3 or 4 tiles apart from 4 or more after them (`meld_left_splits`): a 碰 or 吃 laid at the left of the hand row
#: a quarter of a tile apart was read into the concealed hand. Composed photos, 2026-12-07: boundaries this far that
#: cut 3–4 tiles off were a meld's end 26 times in 30; 0.2 read alike, and so did cutting a last 3 or 4 off too;
#: cutting wherever a boundary lies this far lost 9 photos and gained 7.
MELD_LEFT_GAP = 0.25
#: Weak boundaries tried per row (the widest).
MAX_WEAK_SPLITS = 2
#: A tile clearly lying sideways (`sideways_cuts`): its box this much longer along the row than across (a standing
#: tile's loose box reaches 1.0; a claimed tile's 1.2–1.4).
SIDEWAYS_CLEAR = 1.15


ROW_FRACTION = 0.5  # of the median tile height: a bigger perpendicular jump starts a new row


MAX_ANGLE = math.radians(40)


BACK = "back"
#: The blank 白板: an empty face, which the table and a light back can pass for.
BLANK = "5z"


@dataclass(frozen=True, slots=True)
class Placed:
    """A detection in the row frame: position along the row `u`, across it `v`, and its true extents."""

    det: Detection
    u: float
    v: float
    along: float
    across: float

    @property
    def tile(self) -> str:
        return self.det.tile

    @property
    def face_up(self) -> bool:
        return self.det.tile != BACK

    @property
    def sideways(self) -> bool:
        """Turned 90° (a claimed tile): longer along the row than across it."""
        return self.along > self.across

    @property
    def standing_face(self) -> bool:
        return self.face_up and not self.sideways


@dataclass
class Group:
    """Touching tiles of one row; `role` is hand, win, meld, indicator or unknown."""

    tiles: list[Placed]
    row: int
    role: str = "unknown"
    meld: dict[str, Any] | None = None
    confidence: float = 1.0

    @property
    def detections(self) -> list[Detection]:
        return [p.det for p in self.tiles]

    @property
    def codes(self) -> list[str]:
        return [p.tile for p in self.tiles]

    def __len__(self) -> int:
        return len(self.tiles)


def _centres(dets: Sequence[Detection]) -> np.ndarray:
    return np.array([[d.cx, d.cy] for d in dets], dtype=np.float64).reshape(-1, 2)


def nearest_neighbours(dets: Sequence[Detection]) -> tuple[np.ndarray, np.ndarray]:
    """For each tile, the vector to its nearest neighbour's centre and that distance (needs ≥ 2 tiles)."""
    pts = _centres(dets)
    diff = pts[None, :, :] - pts[:, None, :]
    dist = np.hypot(diff[..., 0], diff[..., 1])
    np.fill_diagonal(dist, np.inf)
    nn = dist.argmin(axis=1)
    return pts[nn] - pts, dist[np.arange(len(pts)), nn]


def nearest_neighbour_angle(dets: Sequence[Detection]) -> float:
    """Median direction (radians, |θ| < 40°) from each tile to its nearest neighbour; 0 if none."""
    if len(dets) < 2:
        return 0.0
    vec, dist = nearest_neighbours(dets)
    vec[vec[:, 0] < 0] *= -1
    ang = np.arctan2(vec[:, 1], vec[:, 0])
    size = float(median([max(d.width, d.height) for d in dets]))
    keep = (np.abs(ang) < MAX_ANGLE) & (dist < 2.0 * size)
    return float(median(ang[keep].tolist())) if keep.any() else 0.0


def true_extents(det: Detection, angle: float) -> tuple[float, float]:
    """(along, across) of a tile whose axis-aligned box encloses it rotated by `angle`."""
    c, s = math.cos(abs(angle)), math.sin(abs(angle))
    den = c * c - s * s
    along = (det.width * c - det.height * s) / den
    across = (det.height * c - det.width * s) / den
    floor = 0.2 * min(det.width, det.height)
    return max(along, floor), max(across, floor)


def place(dets: Sequence[Detection], angle: float) -> list[Placed]:
    """Each detection in the frame of rows running at `angle`."""
    c, s = math.cos(angle), math.sin(angle)
    out = []
    for d in dets:
        along, across = true_extents(d, angle)
        out.append(Placed(d, d.cx * c + d.cy * s, -d.cx * s + d.cy * c, along, across))
    return out


def tile_size(placed: Sequence[Placed]) -> tuple[float, float]:
    """(median width, median height) of a standing tile, from every tile's short and long extents."""
    if not placed:
        return 1.0, 1.0
    short = float(median([min(p.along, p.across) for p in placed]))
    long = float(median([max(p.along, p.across) for p in placed]))
    return max(short, 1e-6), max(long, 1e-6)


def cluster_rows(placed: Sequence[Placed], height: float) -> list[list[Placed]]:
    """Rows by perpendicular offset (a jump > half a tile height starts a row), each ordered along the row."""
    order = sorted(placed, key=lambda p: p.v)
    rows: list[list[Placed]] = []
    for p in order:
        if rows and p.v - rows[-1][-1].v <= ROW_FRACTION * height:
            rows[-1].append(p)
        else:
            rows.append([p])
    return [sorted(r, key=lambda p: p.u) for r in rows]


def pooled_slope_angle(rows: Sequence[Sequence[Placed]]) -> float | None:
    """Least-squares direction of the rows: one slope, one intercept per row, standing tiles' centres."""
    num = den = 0.0
    for row in rows:
        pts = _centres([p.det for p in row if not p.sideways])
        if len(pts) < 3:
            continue
        dx = pts[:, 0] - pts[:, 0].mean()
        num += float((dx * (pts[:, 1] - pts[:, 1].mean())).sum())
        den += float((dx * dx).sum())
    if den <= 0:
        return None
    ang = math.atan(num / den)
    return ang if abs(ang) < MAX_ANGLE else None


def estimate_angle(dets: Sequence[Detection], iterations: int = 2) -> float:
    """The rows' direction (radians): nearest-neighbour guess, refined by least squares over the rows."""
    angle = nearest_neighbour_angle(dets)
    for _ in range(iterations):
        placed = place(dets, angle)
        refined = pooled_slope_angle(cluster_rows(placed, tile_size(placed)[1]))
        if refined is None:
            break
        angle = refined
    return angle


def measure_rows(dets: Sequence[Detection]) -> tuple[float, float, float, list[list[Placed]]]:
    """Steps 1–2 of the layout: the rows' direction (radians), a standing tile's width and height, and the rows."""
    angle = estimate_angle(dets)
    placed = place(dets, angle)
    width, height = tile_size([p for p in placed if p.face_up] or placed)
    return angle, width, height, cluster_rows(placed, height)


def gaps(row: Sequence[Placed]) -> list[float]:
    """Free space between consecutive tiles of an ordered row (negative = overlap)."""
    return [(b.u - b.along / 2) - (a.u + a.along / 2) for a, b in zip(row, row[1:])]


def split_groups(row: Sequence[Placed], width: float, row_index: int = 0) -> list[Group]:
    """Split an ordered row where a gap is wide for this row: over GAP_FRACTION of the tile width, or,
    between two standing tiles of a row of 5 or more, GAP_OVER_USUAL wider than the row's median gap
    (and over MIN_GAP_FRACTION). Gaps next to a sideways tile measure wide and keep the fixed rule."""
    if not row:
        return []
    row_gaps = gaps(row)
    fixed = GAP_FRACTION * width
    adaptive = fixed
    if len(row_gaps) >= 4:
        usual = float(median(row_gaps))
        adaptive = width * min(GAP_FRACTION, max(MIN_GAP_FRACTION, usual / width + GAP_OVER_USUAL))
    groups = [Group([row[0]], row_index)]
    for prev, p, gap in zip(row, row[1:], row_gaps):
        limit = fixed if (prev.sideways or p.sideways) else adaptive
        if gap > limit:
            groups.append(Group([p], row_index))
        else:
            groups[-1].tiles.append(p)
    return groups


def group_ends(groups: Sequence[Group]) -> set[int]:
    """The boundaries between a row's consecutive `groups` (k: between the row's k-th and (k+1)-th tile)."""
    ends, start = set(), 0
    for g in groups[:-1]:
        start += len(g)
        ends.add(start - 1)
    return ends


def _beyond_usual(row: Sequence[Placed], width: float, hard: set[int]) -> list[tuple[float, int]]:
    """(how far beyond the row's usual spacing, in tile widths, by its boxes' gap or their centres' distance; k) for
    each boundary between two standing tiles other than the `hard` ones; none in a row of fewer than 4 such."""
    if len(row) < 4:
        return []
    row_gaps = gaps(row)
    pitch = [b.u - a.u - width for a, b in zip(row, row[1:])]
    upright = [p.face_up and not clearly_sideways(p) for p in row]  # a loose box may be a little wide
    standing = [k for k in range(len(row_gaps)) if upright[k] and upright[k + 1]]
    if len(standing) < 3:
        return []
    usual_gap = float(median([row_gaps[k] for k in standing]))
    usual_pitch = float(median([pitch[k] for k in standing]))
    return [(max(row_gaps[k] - usual_gap, pitch[k] - usual_pitch) / width, k) for k in standing if k not in hard]


def weak_splits(row: Sequence[Placed], width: float, hard: set[int], limit: int = MAX_WEAK_SPLITS) -> list[int]:
    """Boundaries (k: between row[k] and row[k+1]) other than the `hard` ones (`group_ends` of `split_groups`) that
    still lie `WEAK_GAP` beyond the row's usual spacing, by gap or by centre distance, between standing tiles: the
    widest `limit`."""
    picked = sorted((s for s in _beyond_usual(row, width, hard) if s[0] >= WEAK_GAP), reverse=True)[:limit]
    return sorted(k for _, k in picked)


def meld_left_splits(row: Sequence[Placed], width: float, hard: set[int]) -> list[int]:
    """Boundaries other than the `hard` ones that set a group's first 3 or 4 tiles apart from 4 or more after them by
    `MELD_LEFT_GAP` beyond the row's usual spacing (`_beyond_usual`): a meld laid a little apart at the left of the
    hand row, or of the concealed tiles after a lone indicator."""
    score = {k: s for s, k in _beyond_usual(row, width, hard)}
    return [k for first, last in group_spans(len(row), hard) for k in (first + 2, first + 3)
            if score.get(k, 0.0) >= MELD_LEFT_GAP and last - k >= 4]


def group_spans(n: int, hard: set[int]) -> list[tuple[int, int]]:
    """(first, last) index of each group of a row of `n` tiles cut at the `hard` boundaries (k: after row[k])."""
    return list(zip([0, *sorted(k + 1 for k in hard)], [*sorted(hard), n - 1]))


def sideways_cuts(row: Sequence[Placed], hard: set[int], limit: int = MAX_WEAK_SPLITS) -> list[int]:
    """Boundaries other than the `hard` ones on either side of a face-up tile clearly sideways inside a group: a
    claimed tile never lies in the concealed hand, so its meld may end or start there, touching the hand."""
    cuts = sorted({k for i, p in enumerate(row) if clearly_sideways(p)
                   for k in (i - 1, i) if 0 <= k < len(row) - 1 and k not in hard})
    return cuts[:limit]


def clearly_sideways(p: Placed) -> bool:
    """A face-up tile whose box is `SIDEWAYS_CLEAR` longer along the row than across: lying, not a loose box."""
    return p.face_up and p.along >= SIDEWAYS_CLEAR * p.across


def split_at(row: Sequence[Placed], cuts: Sequence[int], row_index: int = 0) -> list[Group]:
    """The row's groups when it is cut after each index of `cuts` (and nowhere else)."""
    groups: list[Group] = []
    start = 0
    for k in sorted(cuts):
        groups.append(Group(list(row[start : k + 1]), row_index))
        start = k + 1
    groups.append(Group(list(row[start:]), row_index))
    return [g for g in groups if g.tiles]


def turned_a_quarter(dets: Sequence[Detection]) -> bool:
    """The photo was shot turned 90°: most tiles are wider than tall and each one's nearest neighbour
    lies above or below it (the rows run up and down)."""
    if len(dets) < 4 or 2 * sum(d.width > d.height for d in dets) <= len(dets):
        return False
    vec, _ = nearest_neighbours(dets)
    return 2 * int((np.abs(vec[:, 1]) > np.abs(vec[:, 0])).sum()) > len(dets)


def quarter_turn(d: Detection, clockwise: bool) -> Detection:
    """The detection in the photo turned upright by a quarter turn (clockwise: (x, y) → (−y, x))."""
    x1, y1, x2, y2 = d.box
    box = (-y2, x1, -y1, x2) if clockwise else (y1, -x2, y2, -x1)
    return Detection(box, d.tile, d.conf, d.alternatives)
