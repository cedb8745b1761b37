"""Photos of complete winning hands composed from real tile pixels (issue 22's bench).

Every tile is a crop of a labelled real photo (its labelled box), laid on a box-free patch of a real
photo's table (the cloth), in a layout players use, then seen through a camera: a tilt (perspective
and a turn of a few degrees), sometimes a little motion blur or lost detail (`camera`), and JPEG.

Crops of one composed photo come from one shoot (`photo_family`: one tile set, one table), so a photo
never mixes tile sets. Face-down tiles (暗杠) have no labelled crops in the data: a back is drawn the
size of a real tile crop of that shoot, in a back colour with a darker rim.

Layouts (`LAYOUTS`):
- ``two_rows`` — the photo guide's: hand + winning tile set apart in one row, melds in a row below;
- ``one_row`` — pushed down (推倒): concealed tiles | winning tile | melds, each group set apart, on one
  line; melds at the left end in some photos; a claimed tile lies sideways only in some.
Kongs: a fourth tile sideways, stacked on the middle one, or set slightly apart; 暗杠 with the backs
outside or in the middle. The indicator lies alone above, below, or beside the rows.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from scoring.tiles import CODES, format_tiles, parse_tiles
from vision.reader.detection import CLASS_NAMES

LAYOUTS = ("two_rows", "one_row")
INDICATOR_PLACES = ("above", "below", "left", "right")
KONG_STYLES = ("sideways", "stacked", "apart")
BACK_COLOURS = ((40, 120, 60), (200, 160, 40), (50, 90, 170), (150, 40, 40))
MELD_COUNTS = (0, 1, 2)
SUITED_RUNS = [(s * 9 + r, s * 9 + r + 1, s * 9 + r + 2) for s in range(3) for r in range(7)]
#: The canvas of a composed photo before the camera: its longer side in pixels.
CANVAS = 1280
#: The shadow of a tile's body, below and right of its face: this share of the tile's width.
SHADOW = 0.06


@dataclass
class TileBank:
    """Real tile crops of one shoot by tile code, with the shoot's cloth patches."""

    family: str
    crops: dict[str, list[np.ndarray]] = field(default_factory=dict)
    cloth: list[np.ndarray] = field(default_factory=list)
    plain: list[np.ndarray] = field(default_factory=list)  # table colour, for when no photo has a free patch

    @property
    def kinds(self) -> set[str]:
        return {c for c, v in self.crops.items() if v}


@dataclass
class Piece:
    """One tile to lay: code ('back' for a face-down one), turned sideways, and where (canvas pixels)."""

    code: str
    sideways: bool = False
    x: float = 0.0
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0
    role: str = "hand"


@dataclass
class Truth:
    """The round part a composed photo shows (round-format.md names)."""

    indicator: str
    hand: list[str]
    win: str
    melds: list[dict[str, Any]]

    def round_part(self) -> dict[str, Any]:
        return {"indicator": self.indicator, "hand": format_tiles(parse_tiles(self.hand)),
                "win": {"tile": self.win}, "melds": [dict(m) for m in self.melds]}


@dataclass
class Composed:
    """A composed photo: the RGB image, the truth, each tile's box and code, and how it was laid out."""

    image: np.ndarray
    truth: Truth
    boxes: list[tuple[tuple[float, float, float, float], str]]
    layout: str
    indicator_place: str
    tags: list[str]
    family: str


# ----------------------------------------------------------------------------- banks of real pixels


def _free_patch(img: np.ndarray, boxes: Sequence[tuple[float, float, float, float]], rng: random.Random,
                tries: int = 60) -> np.ndarray | None:
    """A rectangle of the photo (≥ 30 % of each side) that touches no labelled box grown by a quarter."""
    h, w = img.shape[:2]
    grown = [(x1 - (x2 - x1) / 4, y1 - (y2 - y1) / 4, x2 + (x2 - x1) / 4, y2 + (y2 - y1) / 4) for x1, y1, x2, y2 in boxes]
    for _ in range(tries):
        pw, ph = int(w * rng.uniform(0.3, 0.6)), int(h * rng.uniform(0.3, 0.6))
        x, y = rng.randrange(0, w - pw + 1), rng.randrange(0, h - ph + 1)
        if all(x + pw < a or b < x or y + ph < c or d < y for a, c, b, d in grown):
            return img[y : y + ph, x : x + pw].copy()
    return None


def build_banks(photos: Sequence[Path], seed: int = 0,
                tiles_in: Callable[[np.ndarray], int] | None = None) -> dict[str, TileBank]:
    """Tile crops and cloth patches of labelled photos (a cleaned YOLO split), one bank per shoot.
    `tiles_in(patch)` counts the tiles a detector finds in a patch: one with any is no cloth (photos
    hold tiles their labels leave out: flowers, half tiles, a wall)."""
    import cv2

    from vision.datasets.yolo import label_file, photo_family, read_yolo_labels

    rng = random.Random(seed)
    banks: dict[str, TileBank] = {}
    for photo in photos:
        bgr = cv2.imread(str(photo), cv2.IMREAD_COLOR)
        if bgr is None:
            continue
        img = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        h, w = img.shape[:2]
        bank = banks.setdefault(photo_family(photo.stem), TileBank(photo_family(photo.stem)))
        boxes = []
        for b in read_yolo_labels(label_file(photo)):
            if not 0 <= b.cls < len(CLASS_NAMES) - 1:
                continue
            x1, y1, x2, y2 = b.pixels(w, h)
            boxes.append((x1, y1, x2, y2))
            ix1, iy1, ix2, iy2 = max(0, int(x1)), max(0, int(y1)), min(w, int(math.ceil(x2))), min(h, int(math.ceil(y2)))
            if ix2 - ix1 < 8 or iy2 - iy1 < 10:
                continue
            crop = img[iy1:iy2, ix1:ix2]
            if crop.shape[1] > crop.shape[0] * 1.15:  # a tile lying sideways in its photo: stand it up
                crop = np.ascontiguousarray(np.rot90(crop, -1))
            bank.crops.setdefault(CLASS_NAMES[b.cls], []).append(crop)
        patch = _free_patch(img, boxes, rng)
        if patch is not None and min(patch.shape[:2]) >= 60 and (tiles_in is None or tiles_in(patch) == 0):
            bank.cloth.append(patch)
        elif not bank.plain:
            bank.plain.append(_plain_cloth(img, boxes, rng))
    return share_cloth(banks)


def _plain_cloth(img: np.ndarray, boxes: Sequence[tuple[float, float, float, float]], rng: random.Random) -> np.ndarray:
    """A table-coloured patch for a photo with no free rectangle: the median colour outside its boxes, with grain."""
    mask = np.ones(img.shape[:2], bool)
    for x1, y1, x2, y2 in boxes:
        mask[max(0, int(y1)) : max(0, int(y2)), max(0, int(x1)) : max(0, int(x2))] = False
    colour = np.median(img[mask] if mask.any() else img.reshape(-1, 3), axis=0)
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 6, (240, 320, 3))
    return np.clip(colour + noise, 0, 255).astype(np.uint8)


def share_cloth(banks: dict[str, TileBank]) -> dict[str, TileBank]:
    """A shoot with no free patch of table borrows the cloth of the other shoots given; when no shoot has
    one, each lays its tiles on its plain table colour (so a split of crowded photos still composes)."""
    pool = [c for b in banks.values() for c in b.cloth]
    for b in banks.values():
        if not b.cloth:
            b.cloth = list(pool) or list(b.plain) or [c for o in banks.values() for c in o.plain]
    return banks


# ----------------------------------------------------------------------------- random winning rounds


@dataclass
class MeldSpec:
    """A declared meld (round-format.md) and the pieces that show it, in row order."""

    meld: dict[str, Any]
    pieces: list[Piece]
    style: str = ""


def _take(pool: dict[str, int], codes: Sequence[str]) -> bool:
    need = {c: codes.count(c) for c in set(codes)}
    if any(pool.get(c, 0) < n for c, n in need.items()):
        return False
    for c, n in need.items():
        pool[c] -= n
    return True


def _random_set(rng: random.Random, kinds: Sequence[str]) -> list[str]:
    """A chow (suited) or a pung of kinds the bank holds."""
    if rng.random() < 0.55:
        runs = [r for r in SUITED_RUNS if all(CODES[i] in kinds for i in r)]
        if runs:
            return [CODES[i] for i in rng.choice(runs)]
    return [rng.choice(list(kinds))] * 3


def _meld_spec(rng: random.Random, codes: list[str], pool: dict[str, int], sideways_p: float) -> MeldSpec:
    """A declared meld from a set, with its pieces: claimed tile sideways (sometimes), kongs in every style."""
    tiles = format_tiles(parse_tiles(codes))
    if len(set(codes)) == 3:
        k = rng.randrange(3)
        side = rng.random() < sideways_p
        pieces = [Piece(c, side and i == k) for i, c in enumerate(codes)]
        claimed = codes[k] if side else None
        return MeldSpec({"type": "chi", "tiles": tiles, **({"claimed": claimed} if claimed else {})}, pieces, "chi")
    c = codes[0]
    roll = rng.random()
    if roll < 0.4 and _take(pool, [c]):
        kong = format_tiles(parse_tiles([c] * 4))
        if roll < 0.15:
            backs = rng.choice(("outside", "middle"))
            pattern = ["back", c, c, "back"] if backs == "outside" else [c, "back", "back", c]
            return MeldSpec({"type": "angang", "tiles": kong}, [Piece(p) for p in pattern], f"angang_{backs}")
        style = rng.choice(KONG_STYLES)
        pieces = [Piece(c) for _ in range(4)]
        if style == "sideways":
            pieces[rng.randrange(4)].sideways = True
        return MeldSpec({"type": "gang", "tiles": kong}, pieces, f"gang_{style}")
    side = rng.random() < sideways_p
    pieces = [Piece(c) for _ in range(3)]
    if side:
        pieces[rng.randrange(3)].sideways = True
    return MeldSpec({"type": "peng", "tiles": format_tiles(parse_tiles([c] * 3))}, pieces, "peng")


def random_round(rng: random.Random, kinds: set[str], n_melds: int, sideways_p: float) -> tuple[Truth, list[MeldSpec]]:
    """A winning hand of 4 sets and a pair in `kinds`, `n_melds` of them declared, and an indicator."""
    pool_kinds = sorted(kinds, key=CODES.index)
    while True:
        pool = {c: 4 for c in pool_kinds}
        ind = rng.choice(pool_kinds)
        pool[ind] -= 1
        sets = [_random_set(rng, pool_kinds) for _ in range(4)]
        pair = [rng.choice(pool_kinds)] * 2
        if not all(_take(pool, s) for s in sets) or not _take(pool, pair):
            continue
        specs = [_meld_spec(rng, s, pool, sideways_p) for s in sets[:n_melds]]
        concealed = [c for s in sets[n_melds:] for c in s] + pair
        win = concealed.pop(rng.randrange(len(concealed)))
        hand = sorted(concealed, key=CODES.index) if rng.random() < 0.7 else rng.sample(concealed, len(concealed))
        return Truth(ind, hand, win, [s.meld for s in specs]), specs


# ----------------------------------------------------------------------------- laying the tiles out


def _row(groups: Sequence[Sequence[Piece]], gaps: Sequence[float], x0: float, base: float, w: float, h: float,
         rng: random.Random, stacked: Sequence[str] = ()) -> float:
    """Lay groups left to right along a row whose bottom edge is `base`: `gaps[i]` (× w) before group i.
    Returns the x where the row ends. A group tagged 'stacked' has its fourth piece laid on the middle one."""
    x = x0
    for gi, (group, gap) in enumerate(zip(groups, gaps)):
        x += gap * w
        tag = stacked[gi] if gi < len(stacked) else ""
        laid = group[:3] if tag == "stacked" else group
        for i, p in enumerate(laid):
            if i and tag == "apart" and i == len(laid) - 1:
                x += rng.uniform(0.12, 0.25) * w
            p.w, p.h = (h, w) if p.sideways else (w, h)
            p.x = x
            p.y = base - p.h + rng.uniform(-0.03, 0.03) * h
            x += p.w + rng.uniform(0.0, 0.04) * w
        if tag == "stacked":
            top, mid = group[3], laid[1]
            top.w, top.h = w, h
            top.x, top.y = mid.x + rng.uniform(-0.05, 0.05) * w, mid.y - rng.uniform(0.3, 0.45) * h
    return x


def lay_out(truth: Truth, specs: list[MeldSpec], layout: str, place: str, rng: random.Random,
            w: float, h: float) -> tuple[list[Piece], list[str]]:
    """Pieces of a composed round at canvas positions (before any margin), and tags describing the layout."""
    hand = [Piece(c) for c in truth.hand]
    win = [Piece(truth.win, role="win")]
    melds = [[*s.pieces] for s in specs]
    for m in melds:
        for p in m:
            p.role = "meld"
    tags = [s.style for s in specs]
    styles = [s.style.split("_")[1] if s.style.startswith("gang_") else "" for s in specs]
    win_gap = rng.uniform(0.5, 1.0)  # the guide's half a tile, or more
    if layout == "two_rows":
        end = _row([hand, win], [0.0, win_gap], 0.0, 2.2 * h, w, h, rng)
        if melds:
            _row(melds, [0.0] + [rng.uniform(0.35, 0.9) for _ in melds[1:]], rng.uniform(0, 2) * w,
                 3.5 * h, w, h, rng, styles)
    else:
        gaps = [rng.uniform(0.4, 1.0) for _ in melds]
        if melds and rng.random() < 0.25:
            tags.append("melds_left")
            x = _row(melds, [0.0] + gaps[1:], 0.0, 2.2 * h, w, h, rng, styles)
            end = _row([hand, win], [rng.uniform(0.4, 1.0), win_gap], x, 2.2 * h, w, h, rng)
        else:
            end = _row([hand, win, *melds], [0.0, win_gap, *gaps], 0.0, 2.2 * h, w, h, rng, ["", "", *styles])
    pieces = [*hand, *win, *(p for m in melds for p in m)]
    ind = Piece(truth.indicator, role="indicator")
    ind.w, ind.h = w, h
    xs = [p.x for p in pieces]
    ys = [p.y for p in pieces]
    left, right = min(xs), max(p.x + p.w for p in pieces)
    top, bottom = min(ys), max(p.y + p.h for p in pieces)
    if place == "above":
        ind.x, ind.y = rng.uniform(left, max(left, right - 2 * w)), top - rng.uniform(1.4, 2.0) * h
    elif place == "below":
        ind.x, ind.y = rng.uniform(left, max(left, right - 2 * w)), bottom + rng.uniform(0.4, 1.0) * h
    elif place == "left":
        ind.x, ind.y = left - w - rng.uniform(0.6, 1.5) * w, 2.2 * h - h + rng.uniform(-0.1, 0.1) * h
    else:
        ind.x, ind.y = right + rng.uniform(1.0, 2.0) * w, 2.2 * h - h - rng.uniform(0.7, 1.0) * h
    tags.append(f"indicator_{place}")
    del end
    return [*pieces, ind], tags


# ----------------------------------------------------------------------------- drawing and the camera


def _back(face: np.ndarray, colour: tuple[int, int, int], rng: random.Random) -> np.ndarray:
    """A face-down tile the size of a real tile crop: the back colour, a darker rim, light falling off
    across it, a little sensor noise (CMD v4 labels no backs to crop)."""
    h, w = face.shape[:2]
    out = np.empty((h, w, 3), np.float32)
    out[:] = np.array(colour, np.float32) * rng.uniform(0.85, 1.1)
    rim = max(1, round(0.06 * min(h, w)))
    for sl in (np.s_[:rim], np.s_[-rim:], np.s_[:, :rim], np.s_[:, -rim:]):
        out[sl] *= 0.5
    out *= np.linspace(rng.uniform(1.0, 1.15), rng.uniform(0.85, 1.0), h)[:, None, None]
    out += np.random.default_rng(rng.randrange(2**31)).normal(0, 4, out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


def _paste(canvas: np.ndarray, crop: np.ndarray, x: float, y: float, w: float, h: float) -> None:
    """The crop resized into the box, with the shadow a tile's body casts below and right of it (a crop
    holds the face only: without it a blank 白板 on a light cloth would have no edge at all)."""
    import cv2

    H, W = canvas.shape[:2]
    x1, y1 = int(round(x)), int(round(y))
    pw, ph = max(2, int(round(w))), max(2, int(round(h)))
    tile = cv2.resize(crop, (pw, ph), interpolation=cv2.INTER_AREA if crop.shape[1] > pw else cv2.INTER_LINEAR)
    edge = max(1, round(SHADOW * min(pw, ph)))
    shadow = canvas[max(0, y1 + edge) : min(H, y1 + ph + edge), max(0, x1 + edge) : min(W, x1 + pw + edge)]
    shadow[:] = (shadow.astype(np.float32) * 0.6).astype(np.uint8)
    sx1, sy1, sx2, sy2 = max(0, x1), max(0, y1), min(W, x1 + pw), min(H, y1 + ph)
    if sx2 > sx1 and sy2 > sy1:
        canvas[sy1:sy2, sx1:sx2] = tile[sy1 - y1 : sy2 - y1, sx1 - x1 : sx2 - x1]


def _homography(w: int, h: int, rng: random.Random) -> np.ndarray:
    """A camera tilt: the far edge a little narrower, a turn of a few degrees, a slight shift."""
    import cv2

    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    squeeze = rng.uniform(0.0, 0.08) * w
    turn = math.radians(rng.uniform(-7, 7))
    c, s = math.cos(turn), math.sin(turn)
    dst = np.float32([[squeeze, 0], [w - squeeze, 0], [w, h], [0, h]])
    centre = np.float32([w / 2, h / 2])
    dst = (dst - centre) @ np.float32([[c, s], [-s, c]]) + centre
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def _warp_box(m: np.ndarray, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = box
    pts = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], np.float64) @ m.T
    pts = pts[:, :2] / pts[:, 2:]
    return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))


def render(pieces: list[Piece], bank: TileBank, rng: random.Random, camera: bool = True) -> tuple[np.ndarray, list]:
    """The pieces drawn from the bank's crops on its cloth, then tilted, blurred and JPEG-compressed."""
    import cv2

    from vision.training.synth.camera import low_resolution, motion_blur

    pad = 1.2 * max(p.h for p in pieces)
    left = min(p.x for p in pieces) - pad
    top = min(p.y for p in pieces) - pad
    width = max(p.x + p.w for p in pieces) + pad - left
    height = max(p.y + p.h for p in pieces) + pad - top
    scale = CANVAS / max(width, height)
    W, H = int(width * scale), int(height * scale)
    cloth = rng.choice(bank.cloth)
    canvas = cv2.resize(cloth, (W, H), interpolation=cv2.INTER_LINEAR)
    colour = rng.choice(BACK_COLOURS)
    kinds = sorted(bank.kinds)
    boxes = []
    for p in pieces:  # in row order: a kong's stacked fourth tile comes after the one it lies on
        face = rng.choice(bank.crops[p.code]) if p.code != "back" else _back(rng.choice(bank.crops[rng.choice(kinds)]), colour, rng)
        crop = np.ascontiguousarray(np.rot90(face, rng.choice((1, -1)))) if p.sideways else face
        x, y, w, h = (p.x - left) * scale, (p.y - top) * scale, p.w * scale, p.h * scale
        _paste(canvas, crop, x, y, w, h)
        boxes.append(((x, y, x + w, y + h), p.code))
    if camera:
        m = _homography(W, H, rng)
        canvas = cv2.warpPerspective(canvas, m, (W, H), borderMode=cv2.BORDER_REFLECT)
        boxes = [(_warp_box(m, b), c) for b, c in boxes]
        if rng.random() < 0.4:  # a hand-held shot: a little motion blur
            canvas = motion_blur(canvas, rng.randint(3, 9), rng.uniform(0, 180))
        if rng.random() < 0.3:  # a farther or cheaper camera: lost detail
            canvas = low_resolution(canvas, rng.uniform(0.5, 0.8))
        ok, buf = cv2.imencode(".jpg", canvas[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, rng.randint(60, 92)])
        canvas = cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1].copy()
    return canvas, boxes


def compose(bank: TileBank, rng: random.Random, layout: str | None = None, place: str | None = None,
            n_melds: int | None = None) -> Composed:
    """One composed photo of a random winning round from `bank`'s crops (random layout, place, melds when None)."""
    layout = layout or rng.choice(LAYOUTS)
    place = place or rng.choice(INDICATOR_PLACES)
    n = rng.choice(MELD_COUNTS) if n_melds is None else n_melds
    truth, specs = random_round(rng, bank.kinds, n, sideways_p=0.9 if layout == "two_rows" else 0.5)
    aspect = float(np.median([c.shape[1] / c.shape[0] for v in bank.crops.values() for c in v]))
    h = 100.0
    w = h * min(0.85, max(0.6, aspect))
    pieces, tags = lay_out(truth, specs, layout, place, rng, w, h)
    image, boxes = render(pieces, bank, rng)
    return Composed(image, truth, boxes, layout, place, tags, bank.family)
