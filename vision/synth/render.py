"""Rendering of tiles and scenes (see the package docstring)."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from scoring.errors import JingsuanError
from vision.detection import CLASS_NAMES

KDE_TILESET_DIR = Path("/usr/share/kmahjongglib/tilesets")
TILESETS: tuple[str, ...] = ("default", "traditional", "jade")
_WIND_IDS = {1: "WIND_3", 2: "WIND_2", 3: "WIND_4", 4: "WIND_1"}  # 東 南 西 北
_DRAGON_IDS = {5: "DRAGON_1", 6: "DRAGON_2", 7: "DRAGON_3"}  # 白 發 中
_SUIT_IDS = {"m": "CHARACTER", "p": "ROD", "s": "BAMBOO"}
ART_HEIGHT = 128


class TileArtError(JingsuanError):
    """The tile art cannot be found or rendered (package not installed)."""


def element_id(code: str) -> str:
    """SVG element id of a tile code in a KDE tileset ('5p' → 'ROD_5', 'back' → 'TILE_1')."""
    if code == "back":
        return "TILE_1"
    rank, suit = int(code[0]), code[1]
    if suit == "z":
        return _WIND_IDS.get(rank) or _DRAGON_IDS[rank]
    return f"{_SUIT_IDS[suit]}_{rank}"


def _cache_dir() -> Path:
    return Path(os.environ.get("JINGSUAN_CACHE", Path.home() / ".cache" / "jingsuan")) / "tileart"


def _rasterise(tileset: str, elem: str, height: int) -> np.ndarray:
    svg = KDE_TILESET_DIR / f"{tileset}.svgz"
    if not svg.exists():
        raise TileArtError(
            f"找不到牌面素材 {svg}，请安装 kdegames-mahjongg-data-kf5",
            f"tile art {svg} missing: apt-get install kdegames-mahjongg-data-kf5",
        )
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise TileArtError("缺少 rsvg-convert，请安装 librsvg2-bin", "rsvg-convert missing: apt-get install librsvg2-bin")
    out = _cache_dir() / tileset / f"{elem}_{height}.png"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(f".{os.getpid()}.png")
        subprocess.run([exe, f"--export-id={elem}", "-h", str(height), str(svg), "-o", str(tmp)], check=True)
        tmp.replace(out)
    import cv2

    rgba = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if rgba is None or rgba.ndim != 3 or rgba.shape[2] != 4:
        raise TileArtError("牌面素材无法读取", f"cannot read rendered tile art {out}")
    return cv2.cvtColor(rgba, cv2.COLOR_BGRA2RGBA)


def _crop_to_alpha(rgba: np.ndarray) -> np.ndarray | None:
    """Crop to the visible pixels; None if the element draws nothing."""
    ys, xs = np.nonzero(rgba[:, :, 3] > 8)
    if ys.size == 0:
        return None
    return rgba[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


@lru_cache(maxsize=512)
def render_tile(code: str, tileset: str = "default") -> np.ndarray:
    """RGBA image of one standing tile (body + face; a face-down tile is a tinted body), tight crop."""
    cropped = _crop_to_alpha(_rasterise(tileset, "TILE_1", ART_HEIGHT))
    if cropped is None:
        raise TileArtError("牌身素材是空的", f"tile body of {tileset} renders empty")
    body = cropped.copy()
    if code == "back":
        tint = np.array([40, 120, 70], dtype=np.float32)  # green backs, as on most sets
        rgb = body[:, :, :3].astype(np.float32)
        body[:, :, :3] = (0.35 * rgb + 0.65 * tint).astype(np.uint8)
        return body
    if code not in CLASS_NAMES:
        raise TileArtError(f"未知的牌：{code}", f"unknown tile code {code!r}")
    face = _crop_to_alpha(_rasterise(tileset, element_id(code), ART_HEIGHT))
    if face is None:  # e.g. jade's 白 is a blank face: the body alone is the tile
        return body
    bh, bw = body.shape[:2]
    # the face sits on the front of the body (KDE bodies have the 3-D edge at the bottom/left)
    fw_max, fh_max = int(bw * 0.72), int(bh * 0.72)
    s = min(fw_max / face.shape[1], fh_max / face.shape[0])
    import cv2

    face = cv2.resize(face, (max(1, int(face.shape[1] * s)), max(1, int(face.shape[0] * s))), interpolation=cv2.INTER_AREA)
    fh, fw = face.shape[:2]
    x0, y0 = int(bw * 0.56 - fw / 2), int(bh * 0.44 - fh / 2)
    region = body[y0 : y0 + fh, x0 : x0 + fw, :3].astype(np.float32)
    a = face[:, :, 3:4].astype(np.float32) / 255
    body[y0 : y0 + fh, x0 : x0 + fw, :3] = (region * (1 - a) + face[:, :, :3] * a).astype(np.uint8)
    return body


@dataclass(frozen=True, slots=True)
class TileSpec:
    """One tile to draw: a code ('5p') or 'back', optionally sideways (a claimed tile)."""

    code: str
    sideways: bool = False

    @classmethod
    def parse(cls, s: str | TileSpec) -> TileSpec:
        """'5p' standing, '5p>' sideways, 'back' / '?' face-down."""
        if isinstance(s, TileSpec):
            return s
        sideways = s.endswith(">")
        code = s.rstrip(">")
        return cls("back" if code in ("?", "back") else code, sideways)


@dataclass(frozen=True, slots=True)
class SynthTile:
    """A drawn tile: its class name, box (x1, y1, x2, y2) in pixels, row and group index."""

    tile: str
    box: tuple[float, float, float, float]
    row: int
    group: int
    sideways: bool


@dataclass
class SynthScene:
    """A rendered scene and its exact labels."""

    image: np.ndarray  # RGB uint8
    tiles: list[SynthTile] = field(default_factory=list)


def _background(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """Table felt (noisy flat colour) or wood (stripes)."""
    base = rng.integers(30, 200, size=3).astype(np.float32)
    if rng.random() < 0.5:
        noise = rng.normal(0, 8, size=(h, w, 1))
        img = base + noise
    else:
        xs = np.arange(w)[None, :, None]
        stripes = 18 * np.sin(xs / rng.uniform(4, 20) + rng.normal(0, 0.4, size=(h, 1, 1)).cumsum(axis=0) * 0.05)
        img = base * np.array([1.0, 0.75, 0.5]) + stripes
    return np.clip(img, 0, 255).astype(np.uint8)


def _paste(canvas: np.ndarray, rgba: np.ndarray, x: int, y: int) -> tuple[float, float, float, float]:
    h, w = rgba.shape[:2]
    region = canvas[y : y + h, x : x + w].astype(np.float32)
    a = rgba[:, :, 3:4].astype(np.float32) / 255
    canvas[y : y + h, x : x + w] = (region * (1 - a) + rgba[:, :, :3] * a).astype(np.uint8)
    ys, xs = np.nonzero(rgba[:, :, 3] > 127)
    return (float(x + xs.min()), float(y + ys.min()), float(x + xs.max() + 1), float(y + ys.max() + 1))


def render_layout(
    rows: list[list[list[str | TileSpec]]] | list[list[str | TileSpec]],
    tile_height: int = 64,
    tileset: str = "default",
    rng: np.random.Generator | None = None,
    margin: int = 24,
    group_gap: float = 0.35,
    background: tuple[int, int, int] | None = None,
) -> SynthScene:
    """Draw rows of tile groups; returns the image and each tile's exact box.

    `rows` is a list of rows; a row is a list of groups (lists of tile specs) or a flat list of
    specs (one group).  Specs are codes ('5p'), sideways codes ('5p>'), or 'back'/'?' face-down.
    """
    import cv2

    rng = rng or np.random.default_rng(0)
    norm_rows: list[list[list[TileSpec]]] = []
    for row in rows:
        groups = row if row and isinstance(row[0], list) else [row]
        norm_rows.append([[TileSpec.parse(t) for t in g] for g in groups])  # type: ignore[union-attr]
    placed: list[tuple[np.ndarray, int, int, TileSpec, int, int]] = []
    y = margin
    width = 0
    for r, groups in enumerate(norm_rows):
        x = margin
        row_h = 0
        for g, group in enumerate(groups):
            for spec in group:
                art = render_tile(spec.code, tileset)
                s = tile_height / art.shape[0]
                art = cv2.resize(art, (max(1, round(art.shape[1] * s)), tile_height), interpolation=cv2.INTER_AREA)
                if spec.sideways:
                    art = np.ascontiguousarray(np.rot90(art, 1))
                placed.append((art, x, y + (tile_height - art.shape[0]), spec, r, g))
                x += art.shape[1]
                row_h = max(row_h, art.shape[0])
            x += int(tile_height * group_gap)
        width = max(width, x)
        y += row_h + int(tile_height * 0.5)
    h, w = y + margin, width + margin
    canvas = (
        np.full((h, w, 3), background, dtype=np.uint8) if background is not None else _background(h, w, rng)
    )
    scene = SynthScene(canvas)
    for art, x, yy, spec, r, g in placed:
        box = _paste(canvas, art, x, max(0, yy))
        scene.tiles.append(SynthTile(spec.code, box, r, g, spec.sideways))
    return scene


def _degrade(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light, glare, blur and JPEG noise (geometry unchanged, so labels stay exact)."""
    import cv2

    out = img.astype(np.float32) * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    h, w = out.shape[:2]
    if rng.random() < 0.4:  # glare spot
        cy, cx, rad = rng.uniform(0, h), rng.uniform(0, w), rng.uniform(0.1, 0.4) * max(h, w)
        yy, xx = np.mgrid[0:h, 0:w]
        out += 90 * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * rad**2))[:, :, None]
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        k = int(rng.choice([3, 5]))
        out = cv2.GaussianBlur(out, (k, k), 0)
    q = int(rng.integers(35, 95))
    ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(enc, cv2.IMREAD_UNCHANGED) if ok else out


def random_scene(rng: np.random.Generator, tileset: str | None = None, tile_height: int | None = None) -> SynthScene:
    """A hand-like scene: a standing row of 13–14 tiles and a row of exposed melds (some sideways/backs)."""
    codes = [c for c in CLASS_NAMES if c != "back"]
    hand = [str(c) for c in rng.choice(codes, size=int(rng.integers(10, 15)))]
    melds: list[list[str | TileSpec]] = []
    for _ in range(int(rng.integers(0, 4))):
        c = str(rng.choice(codes))
        kind = rng.random()
        if kind < 0.2:
            melds.append(["back", c, c, "back"])  # concealed kong shown with backs
        else:
            meld: list[str | TileSpec] = [c, c, c]
            meld[int(rng.integers(0, 3))] = c + ">"
            melds.append(meld)
    rows: list[list[list[str | TileSpec]]] = [[list(hand)]]
    if melds:
        rows.append(melds)
    scene = render_layout(
        rows,
        tile_height=tile_height or int(rng.integers(40, 90)),
        tileset=tileset or str(rng.choice(TILESETS)),
        rng=rng,
    )
    scene.image = _degrade(scene.image, rng)
    return scene


def write_yolo_sample(scene: SynthScene, out_dir: str | Path, stem: str) -> tuple[Path, Path]:
    """Save `scene` as ``out_dir/images/stem.jpg`` + ``out_dir/labels/stem.txt`` (YOLO format)."""
    import cv2

    from vision.data import YoloBox, write_yolo_labels

    out = Path(out_dir)
    (out / "images").mkdir(parents=True, exist_ok=True)
    h, w = scene.image.shape[:2]
    img_path = out / "images" / f"{stem}.jpg"
    cv2.imwrite(str(img_path), cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 92])
    index = {n: i for i, n in enumerate(CLASS_NAMES)}
    boxes = [
        YoloBox.from_xyxy(index[t.tile], t.box[0] / w, t.box[1] / h, t.box[2] / w, t.box[3] / h) for t in scene.tiles
    ]
    lbl_path = out / "labels" / f"{stem}.txt"
    write_yolo_labels(lbl_path, boxes)
    return img_path, lbl_path
