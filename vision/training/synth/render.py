"""Rendering of tiles and scenes (see the package docstring).

Tilesets (`TILESETS`): the KDE SVGs ``default``, ``traditional``, ``jade``; GNOME's ``smooth``;
and ``glyph``, drawn here from the Noto CJK fonts.

GNOME ``smooth.png`` (package ``gnome-mahjongg``, ``/usr/share/gnome-mahjongg/themes``) is one
4128 × 264 sprite sheet: 43 columns × 2 rows of 96 × 132 cells, each a whole tile with its 3-D edge
(bottom and left).  Row 0 is the normal look, row 1 the same tiles highlighted (selected); only
row 0 is used.  Columns (verified by eye):

==========  ==========================================================
cell        tile
==========  ==========================================================
0–8         1筒–9筒 (``1p``–``9p``)
9, 10       北 (``4z``), 西 (``3z``)
11, 12      南 (``2z``), 東 (``1z``)
13, 14      中 (``7z``), 發 (``6z``)
15–23       一萬–九萬 (``1m``–``9m``)
24–32       1條–9條 (``1s``–``9s``; 1條 is a single red stick, not a bird)
33–36       flowers 蘭 菊 梅 竹 (not used)
37          白 (``5z``), a double frame
38–41       seasons 春 夏 秋 冬 (not used)
42          the blank tile body (tinted green for ``back``)
==========  ==========================================================
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from scoring.errors import JingsuanError
from vision.reader.detection import CLASS_NAMES

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont

KDE_TILESET_DIR = Path("/usr/share/kmahjongglib/tilesets")
KDE_TILESETS: tuple[str, ...] = ("default", "traditional", "jade")
TILESETS: tuple[str, ...] = (*KDE_TILESETS, "smooth", "glyph")
#: KDE art that no training scene uses (`random_scene` never picks it): `bench/heldout_tileset.py`
#: reads scenes of it to see how the models do on a tile set they have never seen.
HELD_OUT_TILESETS: tuple[str, ...] = ("classic",)
GNOME_SMOOTH_PNG = Path("/usr/share/gnome-mahjongg/themes/smooth.png")
SMOOTH_GRID = (43, 2)  # columns, rows of the sheet
_SMOOTH_HONOURS = {4: 9, 3: 10, 2: 11, 1: 12, 7: 13, 6: 14, 5: 37}  # rank of a 'z' code → cell
_SMOOTH_SUIT_START = {"p": 0, "m": 15, "s": 24}
SMOOTH_BODY_CELL = 42
NOTO_DIR = Path("/usr/share/fonts/opentype/noto")
# (file, face index): index 3 is the Traditional Chinese face (萬 發 東 in their usual forms)
NOTO_FONTS: tuple[tuple[str, int], ...] = (
    ("NotoSerifCJK-Bold.ttc", 3),
    ("NotoSansCJK-Bold.ttc", 3),
    ("NotoSerifCJK-Regular.ttc", 3),
    ("NotoSansCJK-Regular.ttc", 3),
)
BACK_TINT = (40, 120, 70)  # green backs, as on most sets
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


def _check_code(code: str) -> None:
    """Raise TileArtError for anything that is not a tile class name."""
    if code not in CLASS_NAMES:
        raise TileArtError(f"未知的牌：{code}", f"unknown tile code {code!r}")


def _tint_back(body: np.ndarray) -> np.ndarray:
    """A face-down tile: the blank body tinted with the back colour."""
    out = body.copy()
    rgb = out[:, :, :3].astype(np.float32)
    out[:, :, :3] = (0.35 * rgb + 0.65 * np.array(BACK_TINT, dtype=np.float32)).astype(np.uint8)
    return out


@lru_cache(maxsize=512)
def render_tile(code: str, tileset: str = "default") -> np.ndarray:
    """RGBA image of one standing tile (body + face; a face-down tile is a tinted body), tight crop."""
    _check_code(code)
    if tileset == "smooth":
        return _smooth_tile(code)
    if tileset == "glyph":
        return _glyph_tile(code)
    if tileset.startswith(GLYPH_VARIED_PREFIX) and tileset[len(GLYPH_VARIED_PREFIX):].isdigit():
        return _glyph_tile(code, glyph_style(int(tileset[len(GLYPH_VARIED_PREFIX):])))
    return _kde_tile(code, tileset)


def _kde_tile(code: str, tileset: str) -> np.ndarray:
    """A tile from a KDE tileset: the rasterised body with the face element drawn on its front."""
    cropped = _crop_to_alpha(_rasterise(tileset, "TILE_1", ART_HEIGHT))
    if cropped is None:
        raise TileArtError("牌身素材是空的", f"tile body of {tileset} renders empty")
    body = cropped.copy()
    if code == "back":
        return _tint_back(body)
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


# --- GNOME smooth.png ---------------------------------------------------------------------------


def smooth_cell(code: str) -> int:
    """Column of a tile code in GNOME's smooth.png ('1p' → 0, '1z' 東 → 12, 'back' → the blank body)."""
    if code == "back":
        return SMOOTH_BODY_CELL
    rank, suit = int(code[0]), code[1]
    if suit == "z":
        return _SMOOTH_HONOURS[rank]
    return _SMOOTH_SUIT_START[suit] + rank - 1


@lru_cache(maxsize=2)
def _smooth_sheet(path: Path) -> np.ndarray:
    """The smooth.png sprite sheet as RGBA, checked to be a 43 × 2 grid."""
    if not path.exists():
        raise TileArtError(
            f"找不到牌面素材 {path}，请安装 gnome-mahjongg",
            f"tile art {path} missing: apt-get install gnome-mahjongg",
        )
    import cv2

    bgra = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    cols, rows = SMOOTH_GRID
    if bgra is None or bgra.ndim != 3 or bgra.shape[2] != 4 or bgra.shape[1] % cols or bgra.shape[0] % rows:
        raise TileArtError("牌面素材无法读取或尺寸不对", f"cannot read {path} as a {cols} × {rows} RGBA sprite sheet")
    return cv2.cvtColor(bgra, cv2.COLOR_BGRA2RGBA)


def _smooth_tile(code: str) -> np.ndarray:
    """One tile cut from row 0 of GNOME's smooth.png (its 3-D edge included), tight crop."""
    sheet = _smooth_sheet(GNOME_SMOOTH_PNG)
    cols, rows = SMOOTH_GRID
    cw, ch = sheet.shape[1] // cols, sheet.shape[0] // rows
    c = smooth_cell(code)
    tile = _crop_to_alpha(sheet[:ch, c * cw : (c + 1) * cw])
    if tile is None:
        raise TileArtError("牌面素材是空的", f"cell {c} of {GNOME_SMOOTH_PNG} is empty")
    return _tint_back(tile) if code == "back" else tile.copy()


# --- glyph tiles drawn from Noto CJK ------------------------------------------------------------

_SS = 4  # supersampling of the glyph drawing
_GLYPH_W, _GLYPH_H = 96, ART_HEIGHT
_IVORY, _EDGE, _OUTLINE = (246, 241, 222), (201, 191, 160), (120, 110, 85)
_BLUE, _RED, _GREEN, _BLACK = (30, 50, 140), (200, 35, 35), (20, 125, 55), (25, 25, 25)
_NUMERALS = "一二三四五六七八九"
_HONOUR_GLYPHS = {
    1: ("東", _BLACK),
    2: ("南", _BLACK),
    3: ("西", _BLACK),
    4: ("北", _BLACK),
    6: ("發", _GREEN),
    7: ("中", _RED),
}
# dot patterns: (u, v) centres in the face (0..1), radius as a fraction of the face width, colours
_DOTS: dict[int, tuple[list[tuple[float, float]], float, list[tuple[int, int, int]]]] = {
    2: ([(0.5, 0.27), (0.5, 0.73)], 0.2, [_GREEN, _BLUE]),
    3: ([(0.22, 0.18), (0.5, 0.5), (0.78, 0.82)], 0.17, [_BLUE, _RED, _GREEN]),
    4: ([(0.28, 0.27), (0.72, 0.27), (0.28, 0.73), (0.72, 0.73)], 0.19, [_BLUE, _GREEN, _GREEN, _BLUE]),
    5: ([(0.25, 0.22), (0.75, 0.22), (0.5, 0.5), (0.25, 0.78), (0.75, 0.78)], 0.16, [_BLUE, _GREEN, _RED, _GREEN, _BLUE]),
    6: ([(x, y) for y in (0.18, 0.5, 0.82) for x in (0.3, 0.7)], 0.15, [_GREEN] * 2 + [_RED] * 4),
    7: ([(0.22, 0.12), (0.5, 0.24), (0.78, 0.36)] + [(x, y) for y in (0.62, 0.87) for x in (0.3, 0.7)], 0.12,
        [_GREEN] * 3 + [_RED] * 4),
    8: ([(x, y) for y in (0.12, 0.37, 0.63, 0.88) for x in (0.3, 0.7)], 0.115, [_BLUE] * 8),
    9: ([(x, y) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)], 0.13, [_BLUE] * 3 + [_RED] * 3 + [_GREEN] * 3),
}  # fmt: skip
# bamboo patterns: (u, v, angle in degrees) per stick, stick length as a fraction of the face height, colours
_G3 = [(x, 0.0) for x in (0.2, 0.5, 0.8)]
_STICKS: dict[int, tuple[list[tuple[float, float, float]], float, list[tuple[int, int, int]]]] = {
    2: ([(0.5, 0.27, 0), (0.5, 0.73, 0)], 0.36, [_BLUE, _GREEN]),
    3: ([(0.5, 0.27, 0), (0.3, 0.73, 0), (0.7, 0.73, 0)], 0.36, [_BLUE, _GREEN, _GREEN]),
    4: ([(x, y, 0) for y in (0.27, 0.73) for x in (0.3, 0.7)], 0.36, [_GREEN, _BLUE, _BLUE, _GREEN]),
    5: ([(0.2, 0.27, 0), (0.8, 0.27, 0), (0.5, 0.5, 0), (0.2, 0.73, 0), (0.8, 0.73, 0)], 0.36,
        [_GREEN, _BLUE, _RED, _BLUE, _GREEN]),
    6: ([(x, y, 0) for y in (0.27, 0.73) for x, _ in _G3], 0.36, [_GREEN] * 3 + [_BLUE] * 3),
    7: ([(0.5, 0.16, 0)] + [(x, y, 0) for y in (0.5, 0.83) for x, _ in _G3], 0.27, [_RED] + [_GREEN] * 6),
    8: ([(0.13, 0.27, 0), (0.37, 0.27, 25), (0.63, 0.27, -25), (0.87, 0.27, 0),
         (0.13, 0.73, 0), (0.37, 0.73, -25), (0.63, 0.73, 25), (0.87, 0.73, 0)], 0.36, [_GREEN] * 4 + [_BLUE] * 4),
    9: ([(x, y, 0) for y in (0.17, 0.5, 0.83) for x, _ in _G3], 0.27, [_GREEN, _RED, _GREEN] * 3),
}  # fmt: skip

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in supersampled pixels


@lru_cache(maxsize=1)
def _noto_path() -> tuple[Path, int]:
    """The first installed Noto CJK font file and its Traditional Chinese face index."""
    for name, index in NOTO_FONTS:
        if (NOTO_DIR / name).exists():
            return NOTO_DIR / name, index
    raise TileArtError(
        f"找不到 Noto CJK 字体（{NOTO_DIR}），请安装 fonts-noto-cjk",
        f"Noto CJK fonts missing under {NOTO_DIR}: apt-get install fonts-noto-cjk",
    )


RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class GlyphStyle:
    """How a drawn tile set looks: body and back colours, the colours its suits are printed in, the
    font face, 萬 or 万, how 白 is drawn and whether the corners carry index marks (as on sets sold
    abroad).  The fields `blue`, `green` and `red` stand in for the three inks of the dot and stick
    patterns (`_DOTS`, `_STICKS`); the default is the ``glyph`` tileset."""

    face: RGB = _IVORY
    edge: RGB = _EDGE
    outline: RGB = _OUTLINE
    back: RGB = (46, 128, 80)
    back_edge: RGB = (24, 82, 48)
    back_outline: RGB = (15, 50, 30)
    blue: RGB = _BLUE
    green: RGB = _GREEN
    red: RGB = _RED
    numeral: RGB = _BLUE
    wan: RGB = _RED
    wan_char: str = "萬"
    winds: RGB = _BLACK
    font: tuple[str, int] | None = None  # (font file, face); None: the ``glyph`` set's Noto CJK
    white_dragon: str = "frame"  # "frame" | "blank" | "border"
    index_marks: bool = False
    stick_width: float = 0.085
    stick_length: float = 1.0  # × the pattern's stick length
    dot_style: str = "rings"  # "rings" (ink, face, ink, face, ink) | "disc" (solid, a face-coloured eye) | "double"
    # | "petals" (an ink disc ringed by face-coloured petals around a centre of the second ink)
    dot_scale: float = 1.0  # × the pattern's dot radius
    bird: bool = True  # 1條 a bird; else one tall stick, as on some sets
    stick_style: str = "rod"  # "rod" (a bar with nodes) | "segmented" (bulging joints) | "hollow" (an ink outline)
    bird_facing: int = 1  # 1: the bird looks right; -1: left
    spread: float = 1.0  # × the distance of each dot and stick from the face's centre (tighter or looser patterns)

    def ink(self, colour: RGB) -> RGB:
        """This style's ink for one of the base inks of the patterns."""
        return {_BLUE: self.blue, _GREEN: self.green, _RED: self.red, _BLACK: self.winds}.get(colour, colour)


GLYPH_DEFAULT = GlyphStyle()
#: Inks real sets print in (blues, greens, reds, black, dark teal); bodies ivory to white, a few tinted.
_INKS_BLUE: tuple[RGB, ...] = ((30, 50, 140), (20, 60, 170), (15, 35, 90), (40, 90, 160), (20, 20, 20))
_INKS_GREEN: tuple[RGB, ...] = ((20, 125, 55), (10, 100, 40), (40, 150, 70), (0, 110, 100), (70, 120, 30))
_INKS_RED: tuple[RGB, ...] = ((200, 35, 35), (170, 20, 30), (220, 60, 40), (150, 30, 60))
_FACES: tuple[RGB, ...] = ((246, 241, 222), (250, 250, 245), (238, 232, 205), (240, 244, 236), (236, 226, 214),
                           (232, 218, 190), (228, 236, 240))  # fmt: skip
_BACKS: tuple[RGB, ...] = ((46, 128, 80), (40, 80, 160), (220, 170, 40), (230, 120, 40), (210, 110, 140),
                           (120, 120, 120), (150, 40, 40), (60, 150, 150), (90, 60, 140))  # fmt: skip
#: Name of the varied drawn tilesets: ``glyph-<seed>`` is the style `glyph_style(seed)`.
GLYPH_VARIED_PREFIX = "glyph-"
#: CJK fonts the varied drawn tilesets print in, where installed (file, face): Noto Sans CJK in two
#: weights and three regional forms (`fonts-noto-cjk`), AR PL UKai, the brush style of most real tiles,
#: and AR PL UMing (`fonts-arphic-ukai`, `fonts-arphic-uming`), WenQuanYi Zen Hei (`fonts-wqy-zenhei`).
_ARPHIC, _WQY = Path("/usr/share/fonts/truetype/arphic"), Path("/usr/share/fonts/truetype/wqy")
CJK_FONT_CHOICES: tuple[tuple[Path, int], ...] = (
    (NOTO_DIR / "NotoSansCJK-Bold.ttc", 3), (NOTO_DIR / "NotoSansCJK-Bold.ttc", 2), (NOTO_DIR / "NotoSansCJK-Bold.ttc", 0),
    (NOTO_DIR / "NotoSansCJK-Regular.ttc", 3), (NOTO_DIR / "NotoSansCJK-Regular.ttc", 2),
    (_ARPHIC / "ukai.ttc", 2), (_ARPHIC / "ukai.ttc", 0), (_ARPHIC / "uming.ttc", 2), (_WQY / "wqy-zenhei.ttc", 0),
)  # fmt: skip


@lru_cache(maxsize=1)
def installed_cjk_fonts() -> tuple[tuple[str, int], ...]:
    """The `CJK_FONT_CHOICES` installed on this machine (the varied styles pick among these)."""
    return tuple((str(f), i) for f, i in CJK_FONT_CHOICES if f.exists())


def _darker(c: RGB, f: float = 0.6) -> RGB:
    return (int(c[0] * f), int(c[1] * f), int(c[2] * f))


@lru_cache(maxsize=256)
def glyph_style(seed: int) -> GlyphStyle:
    """A random but plausible drawn tile set (``glyph-<seed>``): inks, body and back colours, font
    and face (among `installed_cjk_fonts`, so it depends on the fonts installed), 萬 or 万, the look of
    白, dots and sticks, and corner index marks, each drawn from what real sets do."""
    rng = np.random.default_rng(seed)

    def pick(options: tuple) -> RGB:  # type: ignore[type-arg]
        return tuple(int(v) for v in options[int(rng.integers(len(options)))])  # type: ignore[return-value]

    face = pick(_FACES)
    back = pick(_BACKS)
    blue, green, red = pick(_INKS_BLUE), pick(_INKS_GREEN), pick(_INKS_RED)
    fonts = installed_cjk_fonts()
    return GlyphStyle(
        face=face, edge=_darker(face, 0.82), outline=_darker(face, 0.45), back=back, back_edge=_darker(back), back_outline=_darker(back, 0.33),
        blue=blue, green=green, red=red,
        numeral=blue if rng.random() < 0.6 else pick((_BLACK, red, green)),
        wan=red if rng.random() < 0.8 else pick((_BLACK, blue)),
        wan_char="万" if rng.random() < 0.25 else "萬",
        winds=_BLACK if rng.random() < 0.6 else blue,
        font=fonts[int(rng.integers(len(fonts)))] if fonts else None,
        white_dragon=str(rng.choice(["frame", "blank", "border"])),
        index_marks=bool(rng.random() < 0.3),
        stick_width=float(rng.uniform(0.06, 0.12)), stick_length=float(rng.uniform(0.85, 1.05)),
        dot_style=str(rng.choice(["rings", "rings", "disc", "double", "petals"])), dot_scale=float(rng.uniform(0.85, 1.1)),
        bird=bool(rng.random() < 0.8),
        stick_style=str(rng.choice(["rod", "rod", "segmented", "hollow"])), bird_facing=1 if rng.random() < 0.6 else -1,
        spread=float(rng.uniform(0.88, 1.04)),
    )  # fmt: skip


def random_glyph_tileset(rng: np.random.Generator, styles: int = 100_000) -> str:
    """The name of one of `styles` varied drawn tilesets (``glyph-<seed>``), picked by `rng`."""
    return f"{GLYPH_VARIED_PREFIX}{int(rng.integers(styles))}"


def _glyph_tile(code: str, st: GlyphStyle = GLYPH_DEFAULT) -> np.ndarray:
    """A tile drawn procedurally in style `st`: body, CJK characters, dots or bamboo sticks."""
    from PIL import Image, ImageDraw

    back = code == "back"
    img = Image.new("RGBA", (_GLYPH_W * _SS, _GLYPH_H * _SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    face = _draw_body(draw, back, st)
    if not back:
        _draw_face(draw, code, face, st)
        if st.index_marks:
            _draw_index_mark(draw, code, face, st)
    small = img.convert("RGBa").resize((_GLYPH_W, _GLYPH_H), Image.Resampling.BOX).convert("RGBA")
    tile = _crop_to_alpha(np.asarray(small))
    assert tile is not None  # the body fills the canvas
    return tile.copy()


def _draw_body(draw: ImageDraw.ImageDraw, back: bool, st: GlyphStyle = GLYPH_DEFAULT) -> Box:
    """The rounded body with a darker edge (thicker at the bottom, the tile's depth); returns the face box."""
    s, w, h = _SS, _GLYPH_W * _SS, _GLYPH_H * _SS
    face_colour, edge = (st.back, st.back_edge) if back else (st.face, st.edge)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=11 * s, fill=st.back_outline if back else st.outline)
    draw.rounded_rectangle((s, s, w - 1 - s, h - 1 - s), radius=10 * s, fill=edge)
    draw.rounded_rectangle((3 * s, 2 * s, w - 1 - 3 * s, h - 1 - 9 * s), radius=9 * s, fill=face_colour)
    return (9 * s, 9 * s, w - 9 * s, h - 16 * s)


def _draw_face(draw: ImageDraw.ImageDraw, code: str, face: Box, st: GlyphStyle = GLYPH_DEFAULT) -> None:
    """Draw the face of a (face-up) tile code inside `face`."""
    rank, suit = int(code[0]), code[1]
    x0, y0, x1, y1 = face
    if suit == "m":
        split = y0 + (y1 - y0) * 0.42
        inset = (x1 - x0) * 0.12
        _draw_char(draw, _NUMERALS[rank - 1], (x0 + inset, y0, x1 - inset, split), st.numeral, st)
        _draw_char(draw, st.wan_char, (x0, split + 2 * _SS, x1, y1), st.wan, st)
    elif suit == "z" and rank == 5:
        _draw_frame(draw, face, st)
    elif suit == "z":
        ch, colour = _HONOUR_GLYPHS[rank]
        _draw_char(draw, ch, (x0 + 2 * _SS, y0 + 8 * _SS, x1 - 2 * _SS, y1 - 8 * _SS), st.ink(colour), st)
    elif suit == "p":
        _draw_dots(draw, rank, face, st)
    elif rank == 1 and st.bird:
        _draw_bird(draw, face, st)
    elif rank == 1:  # one tall stick, as on sets without the bird
        _draw_stick(draw, (x0 + x1) / 2, (y0 + y1) / 2, (y1 - y0) * 0.85, st.red, 0, replace(st, stick_width=st.stick_width * 1.6))
    else:
        _draw_sticks(draw, rank, face, st)


_INDEX_MARKS = {"m": "123456789", "p": "123456789", "s": "123456789", "z": "ESWNPFC"}


def _draw_index_mark(draw: ImageDraw.ImageDraw, code: str, face: Box, st: GlyphStyle) -> None:
    """A small Latin index in the top-left corner (1–9, E S W N, P F C), as on sets sold abroad."""
    rank, suit = int(code[0]), code[1]
    x0, y0, x1, y1 = face
    size = (x1 - x0) * 0.22
    _draw_char(draw, _INDEX_MARKS[suit][rank - 1], (x0 - 6 * _SS, y0 - 6 * _SS, x0 - 6 * _SS + size, y0 - 6 * _SS + size),
               _BLACK, st)  # fmt: skip


@lru_cache(maxsize=256)
def _cjk_font(size: int, font: tuple[str, int] | None = None) -> ImageFont.FreeTypeFont:
    """A CJK font at `size` pixels: `font` = (file, face), or None for the ``glyph`` set's Noto CJK."""
    from PIL import ImageFont

    path, index = font if font is not None else _noto_path()
    return ImageFont.truetype(str(path), size, index=index)


def _draw_char(draw: ImageDraw.ImageDraw, ch: str, box: Box, colour: RGB, st: GlyphStyle = GLYPH_DEFAULT) -> None:
    """One CJK character in the style's font, scaled to fit `box` and centred on its ink."""
    ref = 100
    left, top, right, bottom = _cjk_font(ref, st.font).getbbox(ch)
    fit = min((box[2] - box[0]) / max(1, right - left), (box[3] - box[1]) / max(1, bottom - top))
    font = _cjk_font(max(1, int(ref * fit)), st.font)
    left, top, right, bottom = font.getbbox(ch)
    xy = ((box[0] + box[2] - left - right) / 2, (box[1] + box[3] - top - bottom) / 2)
    draw.text(xy, ch, font=font, fill=colour)


def _draw_frame(draw: ImageDraw.ImageDraw, face: Box, st: GlyphStyle = GLYPH_DEFAULT) -> None:
    """白: an empty face with a blue rectangular frame (an outer and a thin inner line), a plain blue
    border, or nothing at all, as the style says."""
    x0, y0, x1, y1 = face
    s = _SS
    if st.white_dragon == "blank":
        return
    draw.rectangle((x0 + 4 * s, y0 + 4 * s, x1 - 4 * s, y1 - 4 * s), outline=st.blue, width=3 * s)
    if st.white_dragon == "frame":
        draw.rectangle((x0 + 9 * s, y0 + 9 * s, x1 - 9 * s, y1 - 9 * s), outline=st.blue, width=s)


def _draw_ring_dot(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colours: list[RGB], st: GlyphStyle = GLYPH_DEFAULT
) -> None:
    """One 筒 circle: concentric rings in `colours` (outside in) on the face."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=st.outline)
    if st.dot_style == "petals":
        _draw_petal_dot(draw, cx, cy, r, colours[0], colours[1 % len(colours)], st)
        return
    radii = {"rings": [0.93, 0.75, 0.55, 0.38, 0.2], "disc": [0.93, 0.25], "double": [0.93, 0.72, 0.55, 0.2]}[st.dot_style]
    inner = colours[1 % len(colours)]
    fills = {"rings": [colours[0], st.face, inner, st.face, colours[2 % len(colours)]],
             "disc": [colours[0], st.face], "double": [colours[0], st.face, inner, st.face]}[st.dot_style]  # fmt: skip
    for k, fill in zip(radii, fills):
        draw.ellipse((cx - k * r, cy - k * r, cx + k * r, cy + k * r), fill=fill)


def _draw_petal_dot(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: RGB, centre: RGB,
                    st: GlyphStyle) -> None:  # fmt: skip
    """One 筒 circle drawn as a flower: an ink disc ringed by eight face-coloured petals, an inked centre."""
    import math

    draw.ellipse((cx - 0.93 * r, cy - 0.93 * r, cx + 0.93 * r, cy + 0.93 * r), fill=ink)
    for k in range(8):
        a = k * math.pi / 4
        px, py, pr = cx + 0.6 * r * math.cos(a), cy + 0.6 * r * math.sin(a), 0.17 * r
        draw.ellipse((px - pr, py - pr, px + pr, py + pr), fill=st.face)
    draw.ellipse((cx - 0.3 * r, cy - 0.3 * r, cx + 0.3 * r, cy + 0.3 * r), fill=st.face)
    draw.ellipse((cx - 0.18 * r, cy - 0.18 * r, cx + 0.18 * r, cy + 0.18 * r), fill=centre)


def _spread(u: float, st: GlyphStyle) -> float:
    """A pattern coordinate (0..1 across the face) moved towards or away from the centre by the style's spread."""
    return 0.5 + (u - 0.5) * st.spread


def _draw_dots(draw: ImageDraw.ImageDraw, rank: int, face: Box, st: GlyphStyle = GLYPH_DEFAULT) -> None:
    """n筒 in the standard pattern; 1筒 is one large blue/green/red circle."""
    x0, y0, x1, y1 = face
    fw, fh = x1 - x0, y1 - y0
    if rank == 1:
        _draw_ring_dot(draw, x0 + fw / 2, y0 + fh / 2, 0.42 * fw * min(st.dot_scale, 1.05), [st.blue, st.green, st.red], st)
        return
    centres, rr, colours = _DOTS[rank]
    for (u, v), colour in zip(centres, colours):
        _draw_ring_dot(draw, x0 + _spread(u, st) * fw, y0 + _spread(v, st) * fh, rr * fw * st.dot_scale, [st.ink(colour)], st)


def _draw_stick(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, length: float, colour: RGB, angle: float,
    st: GlyphStyle = GLYPH_DEFAULT,
) -> None:  # fmt: skip
    """One 條 stick tilted by `angle` degrees: a rounded bar with nodes at its ends and middle (``rod``),
    two bulging joints (``segmented``) or an ink outline round a face-coloured core (``hollow``)."""
    import math

    w = st.stick_width * _GLYPH_W * _SS
    dx, dy = math.sin(math.radians(angle)) * length / 2, math.cos(math.radians(angle)) * length / 2
    p0, p1 = (cx - dx, cy - dy), (cx + dx, cy + dy)
    if st.stick_style == "segmented":
        _draw_segmented_stick(draw, p0, p1, w, colour, st)
        return
    draw.line((p0, p1), fill=st.outline, width=int(w + 2 * _SS))
    if st.stick_style == "hollow":
        draw.line((p0, p1), fill=colour, width=int(w))
        draw.line((p0, p1), fill=st.face, width=max(1, int(w * 0.45)))
        return
    draw.line((p0, p1), fill=colour, width=int(w))
    draw.line((p0, p1), fill=st.face, width=max(1, int(w / 5)))
    nx, ny = math.cos(math.radians(angle)) * w * 0.75, -math.sin(math.radians(angle)) * w * 0.75
    for t in (0.0, 0.5, 1.0):
        px, py = p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t
        draw.line(((px - nx, py - ny), (px + nx, py + ny)), fill=colour, width=int(w * 0.45))


def _draw_segmented_stick(draw: ImageDraw.ImageDraw, p0: tuple[float, float], p1: tuple[float, float], w: float,
                          colour: RGB, st: GlyphStyle) -> None:  # fmt: skip
    """A stick of two joints, each a rounded barrel, outlined, with a highlight down its middle."""
    import math

    (ax, ay), (bx, by) = p0, p1
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / max(length, 1e-6), (by - ay) / max(length, 1e-6)
    nx, ny = -uy, ux
    for k in range(2):
        mx, my = ax + (bx - ax) * (k + 0.5) / 2, ay + (by - ay) * (k + 0.5) / 2
        for half_l, half_w, fill in ((length / 4.8 + _SS, w * 0.75 + _SS, st.outline), (length / 4.8, w * 0.75, colour),
                                     (length / 7, w * 0.15, st.face)):  # fmt: skip
            pts = []
            for i in range(24):
                t = 2 * math.pi * i / 24
                c, d = math.cos(t), math.sin(t)  # a squircle: a barrel with rounded ends
                a, b = math.copysign(abs(c) ** 0.5, c) * half_l, math.copysign(abs(d) ** 0.5, d) * half_w
                pts.append((mx + ux * a + nx * b, my + uy * a + ny * b))
            draw.polygon(pts, fill=fill)


def _draw_sticks(draw: ImageDraw.ImageDraw, rank: int, face: Box, st: GlyphStyle = GLYPH_DEFAULT) -> None:
    """n條 (n ≥ 2) in the standard pattern."""
    x0, y0, x1, y1 = face
    fw, fh = x1 - x0, y1 - y0
    sticks, lf, colours = _STICKS[rank]
    for (u, v, angle), colour in zip(sticks, colours):
        _draw_stick(draw, x0 + _spread(u, st) * fw, y0 + _spread(v, st) * fh, lf * fh * st.stick_length, st.ink(colour), angle, st)


def _draw_bird(draw: ImageDraw.ImageDraw, face: Box, st: GlyphStyle = GLYPH_DEFAULT) -> None:
    """1條: a simple bird (green body and tail, red head, yellow beak) standing on a short stick, looking
    right or (`bird_facing` -1) left."""
    x0, y0, x1, y1 = face
    fw, fh = x1 - x0, y1 - y0

    def p(u: float, v: float) -> tuple[float, float]:
        return (x0 + (u if st.bird_facing > 0 else 1 - u) * fw, y0 + v * fh)

    def oval(u0: float, v0: float, u1: float, v1: float) -> tuple[float, float, float, float]:
        (ax, ay), (bx, by) = p(u0, v0), p(u1, v1)
        return (min(ax, bx), ay, max(ax, bx), by)

    draw.polygon([p(0.45, 0.55), p(0.05, 0.9), p(0.2, 0.95), p(0.3, 0.98), p(0.5, 0.7)], fill=st.blue)  # tail
    draw.ellipse(oval(0.2, 0.35, 0.8, 0.72), fill=st.green, outline=st.outline, width=_SS)  # body
    draw.polygon([p(0.35, 0.45), p(0.6, 0.5), p(0.4, 0.65)], fill=(120, 190, 90))  # wing
    draw.ellipse(oval(0.55, 0.12, 0.85, 0.34), fill=st.red, outline=st.outline, width=_SS)  # head
    draw.polygon([p(0.84, 0.2), p(0.98, 0.25), p(0.84, 0.29)], fill=(230, 170, 30))  # beak
    draw.ellipse(oval(0.7, 0.19, 0.76, 0.24), fill=_BLACK)  # eye
    draw.line((p(0.45, 0.72), p(0.42, 0.85)), fill=st.red, width=2 * _SS)  # legs
    draw.line((p(0.58, 0.72), p(0.6, 0.85)), fill=st.red, width=2 * _SS)
    draw.line((p(0.3, 0.86), p(0.75, 0.86)), fill=st.green, width=3 * _SS)  # perch


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


@dataclass(frozen=True, slots=True)
class _Placed:
    """A tile's art (resized, turned if sideways) and where its top-left corner goes on the canvas."""

    art: np.ndarray
    x: int
    y: int
    spec: TileSpec
    row: int
    group: int


def _normalise_rows(rows: list[list[list[str | TileSpec]]] | list[list[str | TileSpec]]) -> list[list[list[TileSpec]]]:
    """Rows of groups of TileSpecs (a flat row is one group)."""
    norm_rows: list[list[list[TileSpec]]] = []
    for row in rows:
        groups = row if row and isinstance(row[0], list) else [row]
        norm_rows.append([[TileSpec.parse(t) for t in g] for g in groups])  # type: ignore[union-attr]
    return norm_rows


def _place_tiles(
    rows: list[list[list[TileSpec]]], tile_height: int, tileset: str, margin: int, group_gap: float
) -> tuple[list[_Placed], int, int]:
    """Lay the tiles out left to right, rows top to bottom; returns the placements and canvas h, w."""
    import cv2

    placed: list[_Placed] = []
    y = margin
    width = 0
    for r, groups in enumerate(rows):
        x = margin
        row_h = 0
        for g, group in enumerate(groups):
            for spec in group:
                art = render_tile(spec.code, tileset)
                s = tile_height / art.shape[0]
                art = cv2.resize(art, (max(1, round(art.shape[1] * s)), tile_height), interpolation=cv2.INTER_AREA)
                if spec.sideways:
                    art = np.ascontiguousarray(np.rot90(art, 1))
                placed.append(_Placed(art, x, max(0, y + (tile_height - art.shape[0])), spec, r, g))
                x += art.shape[1]
                row_h = max(row_h, art.shape[0])
            x += int(tile_height * group_gap)
        width = max(width, x)
        y += row_h + int(tile_height * 0.5)
    return placed, y + margin, width + margin


def render_layout(
    rows: list[list[list[str | TileSpec]]] | list[list[str | TileSpec]],
    tile_height: int = 64,
    tileset: str = "default",
    rng: np.random.Generator | None = None,
    margin: int = 24,
    group_gap: float = 0.35,
    background: tuple[int, int, int] | None = None,
    perspective: bool = False,
    shadow: bool = False,
) -> SynthScene:
    """Draw rows of tile groups; returns the image and each tile's exact box.

    `rows` is a list of rows; a row is a list of groups (lists of tile specs) or a flat list of
    specs (one group).  Specs are codes ('5p'), sideways codes ('5p>'), or 'back'/'?' face-down.
    With `perspective`, the whole scene is warped by a mild random perspective (drawn from `rng`)
    and each box is the bounding box of the tile's warped visible pixels.  With `shadow`, every tile
    casts a soft shadow on the table (`_cast_shadows`); boxes stay on the tiles.
    """
    rng = rng or np.random.default_rng(0)
    placed, h, w = _place_tiles(_normalise_rows(rows), tile_height, tileset, margin, group_gap)
    canvas = np.full((h, w, 3), background, dtype=np.uint8) if background is not None else _background(h, w, rng)
    scene = SynthScene(canvas)
    if shadow:
        _cast_shadows(canvas, placed, tile_height, rng)
    for p in placed:
        box = _paste(canvas, p.art, p.x, p.y)
        scene.tiles.append(SynthTile(p.spec.code, box, p.row, p.group, p.spec.sideways))
    if perspective:
        _warp_scene(scene, placed, rng)
    return scene


def _cast_shadows(canvas: np.ndarray, placed: list[_Placed], tile_height: int, rng: np.random.Generator) -> None:
    """Darken the table where the tiles' shadows fall: each tile's outline shifted away from one light
    (up to a fifth of a tile), blurred, in place on `canvas` before the tiles are pasted over it."""
    import cv2

    h, w = canvas.shape[:2]
    mask = np.zeros((h, w), np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    reach = rng.uniform(0.05, 0.2) * tile_height
    dx, dy = int(round(np.cos(angle) * reach)), int(round(np.sin(angle) * reach))
    for p in placed:
        ah, aw = p.art.shape[:2]
        x0, y0 = p.x + dx, p.y + dy
        cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(w, x0 + aw), min(h, y0 + ah)
        if cx1 > cx0 and cy1 > cy0:
            alpha = p.art[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0, 3].astype(np.float32) / 255
            mask[cy0:cy1, cx0:cx1] = np.maximum(mask[cy0:cy1, cx0:cx1], alpha)
    k = 2 * int(max(1, tile_height * rng.uniform(0.04, 0.12))) + 1
    mask = cv2.GaussianBlur(mask, (k, k), 0)
    strength = rng.uniform(0.25, 0.55)
    canvas[:] = (canvas.astype(np.float32) * (1 - strength * mask[:, :, None])).astype(np.uint8)


def _area_shadow(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A soft shadow over part of the scene (a hand, a phone, a lamp's edge): h × w × 1 light factors,
    0.45–0.8 on the shaded side of a random line, 1 on the other, with a blurred edge."""
    import cv2

    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    cut = rng.uniform(0.25, 0.75)
    side = (xx / w - 0.5) * np.cos(angle) + (yy / h - 0.5) * np.sin(angle) - (cut - 0.5)
    shade = (side > 0).astype(np.float32)
    k = 2 * int(max(h, w) * rng.uniform(0.02, 0.08)) + 1
    shade = cv2.GaussianBlur(shade, (k, k), 0)
    return (1 - rng.uniform(0.2, 0.55) * shade)[:, :, None]


def random_homography(
    w: int, h: int, rng: np.random.Generator, max_shrink: float = 0.15, max_angle: float = 4.0
) -> tuple[np.ndarray, tuple[int, int]]:
    """A mild camera tilt for a w × h image: top edge shrunk by up to `max_shrink`, a small rotation.

    Returns the 3 × 3 homography and the (width, height) of the output that holds the whole warped image.
    """
    import cv2

    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    dx = rng.uniform(0, max_shrink) * w / 2
    dst = np.array([[dx, 0], [w - dx, 0], [w, h], [0, h]], dtype=np.float64)
    a = np.radians(rng.uniform(-max_angle, max_angle))
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    centre = np.array([w / 2, h / 2])
    dst = (dst - centre) @ rot.T + centre
    dst -= dst.min(axis=0)
    size = (int(np.ceil(dst[:, 0].max())), int(np.ceil(dst[:, 1].max())))
    return cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)), size


def _translation(tx: float, ty: float) -> np.ndarray:
    """3 × 3 translation matrix."""
    return np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]], dtype=np.float64)


def _warped_box(
    alpha: np.ndarray, x: int, y: int, hom: np.ndarray, size: tuple[int, int]
) -> tuple[float, float, float, float]:
    """Box of a tile's visible pixels (alpha > 127) after the warp; `alpha` sits at (x, y) before it."""
    import cv2

    ph, pw = alpha.shape
    corners = np.array([[[x, y]], [[x + pw, y]], [[x + pw, y + ph]], [[x, y + ph]]], dtype=np.float64)
    warped_corners = cv2.perspectiveTransform(corners, hom).reshape(-1, 2)
    x0, y0 = (max(0, int(np.floor(v)) - 2) for v in warped_corners.min(axis=0))
    x1 = min(size[0], int(np.ceil(warped_corners[:, 0].max())) + 2)
    y1 = min(size[1], int(np.ceil(warped_corners[:, 1].max())) + 2)
    local = _translation(-x0, -y0) @ hom @ _translation(x, y)
    mask = cv2.warpPerspective(alpha, local, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderValue=0)
    ys, xs = np.nonzero(mask > 127)
    if ys.size == 0:  # too small to survive the warp: fall back to the warped corners
        return (float(x0), float(y0), float(x1), float(y1))
    return (float(x0 + xs.min()), float(y0 + ys.min()), float(x0 + xs.max() + 1), float(y0 + ys.max() + 1))


def _warp_scene(scene: SynthScene, placed: list[_Placed], rng: np.random.Generator) -> None:
    """Warp the scene by a random mild perspective, in place; boxes follow each tile's warped alpha."""
    import cv2

    h, w = scene.image.shape[:2]
    hom, size = random_homography(w, h, rng)
    # edge pixels are background (the margin), so replicating them adds no unlabelled tile parts
    scene.image = cv2.warpPerspective(scene.image, hom, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    scene.tiles = [
        replace(t, box=_warped_box(p.art[:, :, 3], p.x, p.y, hom, size)) for t, p in zip(scene.tiles, placed)
    ]


def _degrade(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light, an area shadow, glare, blur and JPEG noise (geometry unchanged, so labels stay exact)."""
    import cv2

    out = img.astype(np.float32) * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    h, w = out.shape[:2]
    if rng.random() < 0.3:  # a soft shadow across part of the scene
        out *= _area_shadow(h, w, rng)
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


def random_scene(
    rng: np.random.Generator, tileset: str | None = None, tile_height: int | None = None, perspective: float = 0.5
) -> SynthScene:
    """A hand-like scene: a row of 10–14 standing tiles and a row of melds, warped with probability
    `perspective`; tiles cast shadows in 60 % of scenes, and `_degrade` adds light, shade and noise."""
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
        perspective=bool(rng.random() < perspective),
        shadow=bool(rng.random() < 0.6),
    )
    scene.image = _degrade(scene.image, rng)
    return scene


def write_yolo_sample(scene: SynthScene, out_dir: str | Path, stem: str) -> tuple[Path, Path]:
    """Save `scene` as ``out_dir/images/stem.jpg`` + ``out_dir/labels/stem.txt`` (YOLO format)."""
    import cv2

    from vision.datasets.yolo import YoloBox, write_yolo_labels

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
