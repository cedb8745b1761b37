"""Tile pictures drawn by our own code: the 34 faces and the back, as SVG (data-URIs for HTML) or PNG.

Each face is a short list of shapes (rounded rectangles, circles, text) on a 60×80 tile; one list
is written out as SVG for the browser and drawn with Pillow for a PNG, so both show the same tile.
Characters (萬, 東南西北, 中, 發) use a system CJK font: by `font-family` in SVG, by a font file found
on the machine for PNG (see `cjk_font_path`).
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from scoring.tiles import BACK_CODE, CODES, HONOR_ZH_TRAD, RANK_ZH, tile

WIDTH, HEIGHT = 60, 80
IVORY, EDGE, INK = "#fbf8ef", "#9e9a8e", "#1c1c1c"
BLUE, GREEN, RED = "#1f4e9c", "#1b7f3b", "#c62828"
BACK_GREEN, BACK_LIGHT = "#2e7d32", "#4caf50"
FONT_FAMILY = "'Noto Sans CJK SC','Noto Serif CJK SC','WenQuanYi Zen Hei','Microsoft YaHei','PingFang SC','SimHei',sans-serif"
FONT_CANDIDATES: tuple[str, ...] = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/arphic/uming.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "C:/Windows/Fonts/msyh.ttc",
    "C:/Windows/Fonts/simhei.ttf",
)


@dataclass(frozen=True, slots=True)
class Rect:
    """A (rounded) rectangle: top-left corner, size, corner radius, fill and outline."""

    x: float
    y: float
    w: float
    h: float
    rx: float = 0.0
    fill: str = "none"
    stroke: str = "none"
    width: float = 0.0


@dataclass(frozen=True, slots=True)
class Circle:
    """A circle: centre, radius, fill and outline."""

    cx: float
    cy: float
    r: float
    fill: str = "none"
    stroke: str = "none"
    width: float = 0.0


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text centred on (x, y)."""

    x: float
    y: float
    size: float
    text: str
    fill: str = INK


Shape = Rect | Circle | Text

# ----------------------------------------------------------------------------- the faces

#: Dot centres of 1–9 筒 on the 60×80 tile, with each dot's colour and radius.
DOTS: dict[int, tuple[tuple[float, float, str], ...]] = {
    2: ((30, 24, GREEN), (30, 56, BLUE)),
    3: ((16, 20, BLUE), (30, 40, RED), (44, 60, GREEN)),
    4: ((19, 25, BLUE), (41, 25, GREEN), (19, 55, GREEN), (41, 55, BLUE)),
    5: ((18, 21, BLUE), (42, 21, GREEN), (30, 40, RED), (18, 59, GREEN), (42, 59, BLUE)),
    6: ((20, 17, GREEN), (40, 17, GREEN), (20, 42, RED), (40, 42, RED), (20, 63, RED), (40, 63, RED)),
    7: ((14, 14, GREEN), (30, 21, GREEN), (46, 28, GREEN), (20, 47, RED), (40, 47, RED), (20, 66, RED), (40, 66, RED)),
    8: tuple((x, y, BLUE) for y in (14, 31, 49, 66) for x in (20, 40)),
    9: tuple((x, y, (BLUE, RED, GREEN)[row]) for row, y in enumerate((17, 40, 63)) for x in (14, 30, 46)),
}
DOT_RADIUS = {2: 10, 3: 8, 4: 9, 5: 8, 6: 7.5, 7: 6.5, 8: 7, 9: 7}

#: Stick centres of 2–9 条 (x, y, colour); each stick has a joint in the middle.
STICKS: dict[int, tuple[tuple[float, float, str], ...]] = {
    2: ((30, 25, GREEN), (30, 55, GREEN)),
    3: ((30, 25, GREEN), (19, 55, GREEN), (41, 55, GREEN)),
    4: ((19, 25, GREEN), (41, 25, GREEN), (19, 55, GREEN), (41, 55, GREEN)),
    5: ((16, 25, GREEN), (44, 25, GREEN), (30, 40, RED), (16, 55, GREEN), (44, 55, GREEN)),
    6: tuple((x, y, GREEN) for y in (25, 55) for x in (15, 30, 45)),
    7: ((30, 15, RED), *((x, y, GREEN) for y in (40, 64) for x in (15, 30, 45))),
    8: tuple((x, y, GREEN) for y in (25, 55) for x in (12, 24, 36, 48)),
    9: tuple((x, y, RED if x == 30 else GREEN) for y in (16, 40, 64) for x in (15, 30, 45)),
}


def body() -> list[Shape]:
    """The ivory tile with its edge."""
    return [Rect(1.5, 1.5, WIDTH - 3, HEIGHT - 3, rx=7, fill=IVORY, stroke=EDGE, width=2)]


def dot(cx: float, cy: float, r: float, colour: str) -> list[Shape]:
    """One 筒 dot: a coloured ring around a white ring and a coloured centre."""
    return [Circle(cx, cy, r, fill=colour), Circle(cx, cy, r * 0.62, fill=IVORY), Circle(cx, cy, r * 0.32, fill=colour)]


def stick(cx: float, cy: float, colour: str, w: float = 7, h: float = 19) -> list[Shape]:
    """One 条 bamboo stick with its middle joint."""
    return [
        Rect(cx - w / 2, cy - h / 2, w, h, rx=w / 2, fill=colour),
        Rect(cx - w / 2 - 0.5, cy - 1, w + 1, 2, fill=IVORY),
    ]


def pin_face(rank: int) -> list[Shape]:
    """n 筒: dots (1 筒 is one large flower-like dot)."""
    if rank == 1:
        return [*dot(30, 40, 20, BLUE), Circle(30, 40, 9, fill=RED), Circle(30, 40, 4, fill=IVORY)]
    out: list[Shape] = []
    for x, y, colour in DOTS[rank]:
        out += dot(x, y, DOT_RADIUS[rank], colour)
    return out


def sou_face(rank: int) -> list[Shape]:
    """n 条: bamboo sticks (1 条 is a bird: body, head, tail)."""
    if rank == 1:
        return [
            Circle(30, 47, 13, fill=GREEN),
            Circle(30, 27, 7, fill=RED),
            Circle(33, 25, 1.8, fill=IVORY),
            Rect(26, 58, 8, 14, rx=3, fill=BLUE),
            Rect(17, 38, 6, 16, rx=3, fill=BLUE),
            Rect(37, 38, 6, 16, rx=3, fill=BLUE),
        ]
    out: list[Shape] = []
    width = 5.5 if rank == 8 else 7
    height = 19 if rank in (7, 9) else 24
    for x, y, colour in STICKS[rank]:
        out += stick(x, y, colour, w=width, h=height)
    return out


def man_face(rank: int) -> list[Shape]:
    """n 萬: the Chinese numeral above a red 萬."""
    return [Text(30, 24, 25, RANK_ZH[rank - 1], INK), Text(30, 57, 28, "萬", RED)]


def honor_face(rank: int) -> list[Shape]:
    """東 南 西 北 in ink, 白 as a blue frame, 發 green, 中 red."""
    if rank == 5:
        return [Rect(12, 14, 36, 52, rx=3, stroke=BLUE, width=3.5), Rect(17, 19, 26, 42, rx=2, stroke=BLUE, width=1.5)]
    colour = {6: GREEN, 7: RED}.get(rank, INK)
    return [Text(30, 41, 38, HONOR_ZH_TRAD[rank - 1], colour)]


def back_face() -> list[Shape]:
    """A face-down tile: green back."""
    return [
        Rect(1.5, 1.5, WIDTH - 3, HEIGHT - 3, rx=7, fill=BACK_GREEN, stroke="#1b5e20", width=2),
        Rect(7, 7, WIDTH - 14, HEIGHT - 14, rx=4, stroke=BACK_LIGHT, width=1.5),
    ]


def face_shapes(code: str) -> list[Shape]:
    """All shapes of one tile, `code` = '1m'..'7z' or 'back'."""
    if code == BACK_CODE:
        return back_face()
    t = tile(code)
    draw = {"m": man_face, "p": pin_face, "s": sou_face, "z": honor_face}[t.suit]
    return body() + draw(t.rank)


# ----------------------------------------------------------------------------- SVG


def _attr(fill: str, stroke: str, width: float) -> str:
    out = f' fill="{fill}"'
    if stroke != "none":
        out += f' stroke="{stroke}" stroke-width="{width:g}"'
    return out


def svg_shape(s: Shape) -> str:
    """One shape as an SVG element."""
    if isinstance(s, Rect):
        return f'<rect x="{s.x:g}" y="{s.y:g}" width="{s.w:g}" height="{s.h:g}" rx="{s.rx:g}"{_attr(s.fill, s.stroke, s.width)}/>'
    if isinstance(s, Circle):
        return f'<circle cx="{s.cx:g}" cy="{s.cy:g}" r="{s.r:g}"{_attr(s.fill, s.stroke, s.width)}/>'
    return (
        f'<text x="{s.x:g}" y="{s.y:g}" font-size="{s.size:g}" fill="{s.fill}" text-anchor="middle" '
        f'dominant-baseline="central" font-weight="bold">{s.text}</text>'
    )


@lru_cache(maxsize=64)
def svg(code: str) -> str:
    """The tile as a standalone SVG document (60×80 user units, scales to any size)."""
    inner = "".join(svg_shape(s) for s in face_shapes(code))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'font-family="{FONT_FAMILY}"><title>{title(code)}</title>{inner}</svg>'
    )


def title(code: str) -> str:
    """What the picture shows, in words (the SVG's title, read by screen readers)."""
    return "牌背" if code == BACK_CODE else tile(code).zh


@lru_cache(maxsize=64)
def data_uri(code: str) -> str:
    """The SVG as a data-URI for `<img src>` or CSS `background-image` (no file, no network)."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg(code).encode("utf-8")).decode("ascii")


ALL_FACES: tuple[str, ...] = (*CODES, BACK_CODE)

# ----------------------------------------------------------------------------- PNG


def cjk_font_path(candidates: tuple[str, ...] = FONT_CANDIDATES) -> Path | None:
    """The first CJK font file on this machine, or None (then characters in PNGs are left out)."""
    return next((Path(p) for p in candidates if Path(p).is_file()), None)


def png(code: str, width: int = 60) -> bytes:
    """The tile as PNG bytes, `width` pixels wide (drawn at 4× and scaled down for smooth edges)."""
    from PIL import Image, ImageDraw, ImageFont

    k = 4 * width / WIDTH
    img = Image.new("RGBA", (round(WIDTH * k), round(HEIGHT * k)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    font_path = cjk_font_path()
    for s in face_shapes(code):
        if isinstance(s, Rect):
            box = (s.x * k, s.y * k, (s.x + s.w) * k, (s.y + s.h) * k)
            draw.rounded_rectangle(box, radius=s.rx * k, fill=None if s.fill == "none" else s.fill,
                                   outline=None if s.stroke == "none" else s.stroke, width=max(1, round(s.width * k)))
        elif isinstance(s, Circle):
            box = ((s.cx - s.r) * k, (s.cy - s.r) * k, (s.cx + s.r) * k, (s.cy + s.r) * k)
            draw.ellipse(box, fill=None if s.fill == "none" else s.fill,
                         outline=None if s.stroke == "none" else s.stroke, width=max(1, round(s.width * k)))
        elif font_path is not None or s.text.isascii():
            size = round(s.size * k)
            font = ImageFont.truetype(str(font_path), size) if font_path else ImageFont.load_default(size)
            draw.text((s.x * k, s.y * k), s.text, fill=s.fill, font=font, anchor="mm")
    out = io.BytesIO()
    img.resize((width, round(HEIGHT * width / WIDTH)), Image.Resampling.LANCZOS).save(out, format="PNG")
    return out.getvalue()
