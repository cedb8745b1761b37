"""The 标注 canvas on any screen: the part of the photo shown (zoom and pan), its canvas size for the
screen's width, and boxes moved between the photo's pixels and the canvas — without Streamlit.

At zoom 1 the whole photo is shown; at zoom z a window 1/z of the photo's width and height is shown,
centred where the player panned to (fractions 0..1 of the photo). Only boxes wholly inside the window
go on the canvas; what the canvas gives back replaces exactly those, the others are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.annotate_logic import changed_box, follow_origins, same_boxes
from app.i18n import t as translate
from vision.datasets.store import LabeledBox

ZOOMS: tuple[int, ...] = (1, 2, 3, 4)
#: The zoom and pan controls' words: (zh, en).
TEXT: dict[str, tuple[str, str]] = {
    "zoom": ("放大", "Zoom"),
    "pan_x": ("左右移动", "Pan left–right"),
    "pan_y": ("上下移动", "Pan up–down"),
}


def say(key: str, lang: str) -> str:
    """A control's word in the page's language."""
    return translate(key, lang, strings=TEXT)


#: Room the page leaves beside the canvas on a narrow screen (Streamlit's padding), CSS pixels.
SIDE_PADDING = 32
MAX_CANVAS_WIDTH = 700
MAX_CANVAS_HEIGHT = 900


@dataclass(frozen=True, slots=True)
class Window:
    """The shown part of the photo, in the photo's pixels."""

    x0: float
    y0: float
    w: float
    h: float

    def holds(self, box: LabeledBox) -> bool:
        """The whole box lies in the window (a box cut by its edge stays off the canvas, untouched,
        since the canvas would give it back cut)."""
        return self.x0 <= box.x1 and box.x2 <= self.x0 + self.w and self.y0 <= box.y1 and box.y2 <= self.y0 + self.h

    @property
    def crop(self) -> tuple[int, int, int, int]:
        """The window as a PIL crop box."""
        return round(self.x0), round(self.y0), round(self.x0 + self.w), round(self.y0 + self.h)


def window(size: tuple[int, int], zoom: int = 1, fx: float = 0.5, fy: float = 0.5) -> Window:
    """The window at `zoom`, centred at (fx, fy) of the photo but kept inside it."""
    width, height = size
    z = max(1, zoom)
    w, h = width / z, height / z
    x0 = min(max(0.0, fx * width - w / 2), width - w)
    y0 = min(max(0.0, fy * height - h / 2), height - h)
    return Window(x0, y0, w, h)


def canvas_width(screen_width: int | None, max_width: int = MAX_CANVAS_WIDTH) -> int:
    """The canvas width that fits the screen (the widest canvas when the screen is not known yet)."""
    if not screen_width or screen_width <= 0:
        return max_width
    return max(200, min(max_width, screen_width - SIDE_PADDING))


def view_scale(win: Window, screen_width: int | None, max_height: int = MAX_CANVAS_HEIGHT) -> float:
    """Canvas pixels per photo pixel for the window on this screen (may enlarge when zoomed in)."""
    return min(canvas_width(screen_width) / win.w, max_height / win.h)


def to_window(boxes: Sequence[LabeledBox], win: Window) -> tuple[list[LabeledBox], list[int]]:
    """The boxes shown in the window, moved to its origin, and their indices in `boxes`."""
    shown = [i for i, b in enumerate(boxes) if win.holds(b)]
    return [_shift(boxes[i], -win.x0, -win.y0) for i in shown], shown


def from_window(boxes: Sequence[LabeledBox], shown: Sequence[int], drawn: Sequence[LabeledBox], win: Window) -> list[LabeledBox]:
    """The photo's boxes after the canvas edit (canvas boxes moved back to photo pixels): boxes outside
    the window untouched; the shown ones replaced in their places (so box numbers and the selection
    stay), boxes newly drawn at the end. When the canvas lost boxes, the shown ones are replaced as a
    block at the end instead."""
    back = [_shift(b, win.x0, win.y0) for b in drawn]
    if len(back) < len(shown):
        hidden = set(shown)
        return [b for i, b in enumerate(boxes) if i not in hidden] + back
    out = list(boxes)
    for i, b in zip(shown, back):
        out[i] = b
    return out + back[len(shown):]


@dataclass(frozen=True, slots=True)
class CanvasEdit:
    """The boxes after a canvas edit, the saved box each came from, and the box to pick (None: keep the pick)."""

    boxes: list[LabeledBox]
    origin: list[int | None]
    pick: int | None


def apply_drawing(
    boxes: Sequence[LabeledBox],
    origin: Sequence[int | None] | None,
    saved: Sequence[LabeledBox],
    shown: Sequence[int],
    drawn: Sequence[LabeledBox],
    win: Window,
    labeled: bool = True,
) -> CanvasEdit | None:
    """What the canvas gave back (window pixels) applied to the photo's boxes; None when nothing changed.

    A moved or resized box stays in its place in the list with its class (a canvas without labels gives
    every box the new-box class, so the shown boxes keep theirs) and is the one picked; a box just drawn
    is added last and picked."""
    if not labeled:
        drawn = [b._replace(cls=boxes[shown[k]].cls) if k < len(shown) else b for k, b in enumerate(drawn)]
    new = from_window(boxes, shown, drawn, win)
    if same_boxes(new, boxes):
        return None
    return CanvasEdit(new, follow_origins(boxes, origin, new, saved), changed_box(boxes, new))


def _shift(b: LabeledBox, dx: float, dy: float) -> LabeledBox:
    return b._replace(x1=b.x1 + dx, y1=b.y1 + dy, x2=b.x2 + dx, y2=b.y2 + dy)
