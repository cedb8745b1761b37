"""Tappable tile pictures in Streamlit: a palette, a row of tiles, and a photo whose boxes can be tapped.

The palette and the row are ordinary `st.button`s (so AppTest and keyboard users drive them like any
button) whose faces are our SVG pictures, set by CSS on each button's key; the label stays as
text for screen readers and tests. The photo is an `st.components.v2` component written in plain
HTML+JS (no iframe, no build step, no network): a tap sends its position back, and Python picks
the box nearest to it (`nearest_box`), so a small tile on a phone needs no precise tap.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import streamlit as st

from app.widgets.tile_faces import ALL_FACES, data_uri

TILE_W, TILE_H = 44, 58  # px: a tap target of at least 44 px each way
PHOTO_MAX_SIDE = 1280


@lru_cache(maxsize=1)
def face_variables_css() -> str:
    """One CSS custom property per face (`--jt-3p`), holding its picture; rules below refer to them."""
    return ":root{" + "".join(f'--jt-{code}:url("{data_uri(code)}");' for code in ALL_FACES) + "}"


def tile_buttons_css(
    container: str,
    faces: Mapping[str, str],
    *,
    selected: Collection[str] = (),
    unsure: Collection[str] = (),
    marks: Mapping[str, str] | None = None,
) -> str:
    """CSS that draws each button of `container` as its tile: `faces` maps button key → tile code;
    `selected` keys are raised and ringed in blue, `unsure` keys outlined in dashed red, `marks`
    put a small tag (胡, 精, a number) on a key's tile."""
    base = (
        f".st-key-{container} button{{width:{TILE_W}px;min-width:{TILE_W}px;height:{TILE_H}px;min-height:{TILE_H}px;"
        "padding:0;border-radius:7px;border:1px solid #9e9a8e;background-color:#fbf8ef;background-size:100% 100%;"
        "background-repeat:no-repeat;position:relative;overflow:visible;}"
        f".st-key-{container} button p{{color:transparent;font-size:1px;line-height:1px;}}"
    )
    rules = [base]
    for key, code in faces.items():
        rules.append(f".st-key-{key} button{{background-image:var(--jt-{code});}}")
    for key in selected:
        rules.append(
            f".st-key-{key} button{{outline:3px solid #1565c0;outline-offset:1px;transform:translateY(-5px);}}"
        )
    for key in unsure:
        if key not in selected:
            rules.append(f".st-key-{key} button{{outline:3px dashed #d32f2f;outline-offset:1px;}}")
    for key, tag in (marks or {}).items():
        rules.append(
            f'.st-key-{key} button::after{{content:"{css_string(tag)}";position:absolute;top:-7px;right:-7px;'
            "min-width:18px;height:18px;border-radius:9px;background:#37474f;color:#fff;font-size:11px;"
            "line-height:18px;text-align:center;padding:0 3px;box-sizing:border-box;}"
        )
    return "\n".join(rules)


def css_string(text: str) -> str:
    """`text` safe inside a CSS double-quoted string."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def inject_css(css: str) -> None:
    """Put a style sheet on the page (style-only `st.html` takes no room)."""
    st.html(f"<style>{css}</style>")


def tile_row(
    codes: Sequence[str],
    *,
    key: str,
    label: Callable[[str], str],
    on_tap: Callable[[int], None],
    selected: int | None = None,
    unsure: Collection[int] = (),
    marks: Mapping[int, str] | None = None,
    keys: Sequence[str] | None = None,
    faces_css: bool = True,
) -> None:
    """A wrapping row of tile pictures; button i (key `keys[i]`, else `{key}_{i}`) calls `on_tap(i)`.
    `faces_css=False` when the caller already put `face_variables_css()` on the page in this run."""
    keys = list(keys) if keys is not None else [f"{key}_{i}" for i in range(len(codes))]
    inject_css(
        (face_variables_css() if faces_css else "")
        + tile_buttons_css(
            key,
            dict(zip(keys, codes)),
            selected=[keys[selected]] if selected is not None and 0 <= selected < len(keys) else [],
            unsure=[keys[i] for i in unsure if 0 <= i < len(keys)],
            marks={keys[i]: tag for i, tag in (marks or {}).items() if 0 <= i < len(keys)},
        )
    )
    with st.container(key=key, horizontal=True, gap="xxsmall"):
        for i, (k, code) in enumerate(zip(keys, codes)):
            st.button(label(code), key=k, on_click=on_tap, args=(i,), width="content")


def palette(
    *,
    key: str,
    label: Callable[[str], str],
    on_pick: Callable[[str], None],
    codes: Sequence[str] = ALL_FACES[:34],
    faces_css: bool = True,
) -> None:
    """All tile pictures to choose from; button `{key}_{code}` calls `on_pick(code)` (`faces_css` as in tile_row)."""
    keys = {f"{key}_{code}": code for code in codes}
    inject_css((face_variables_css() if faces_css else "") + tile_buttons_css(key, keys))
    with st.container(key=key, horizontal=True, gap="xxsmall"):
        for k, code in keys.items():
            st.button(label(code), key=k, on_click=on_pick, args=(code,), width="content")


# ----------------------------------------------------------------------------- photo with boxes


@dataclass(frozen=True, slots=True)
class PhotoBox:
    """A box drawn on the photo: corners in the photo's pixels, its number, and how to draw it."""

    box: tuple[float, float, float, float]
    number: str
    title: str = ""
    unsure: bool = False
    selected: bool = False


def crop_around(boxes: Sequence[tuple[float, float, float, float]], size: tuple[int, int], margin: float = 0.6) -> tuple[int, int, int, int]:
    """The part of the photo worth showing: all boxes plus `margin` × the median tile height around
    them, within the photo (the whole photo when there are no boxes)."""
    w, h = size
    if not boxes:
        return 0, 0, w, h
    heights = sorted(b[3] - b[1] for b in boxes)
    pad = margin * heights[len(heights) // 2]
    x1 = max(0, int(min(b[0] for b in boxes) - pad))
    y1 = max(0, int(min(b[1] for b in boxes) - pad))
    x2 = min(w, int(max(b[2] for b in boxes) + pad + 0.999))
    y2 = min(h, int(max(b[3] for b in boxes) + pad + 0.999))
    return x1, y1, max(x2, x1 + 1), max(y2, y1 + 1)


def nearest_box(boxes: Sequence[tuple[float, float, float, float]], x: float, y: float, reach: float = 0.75) -> int | None:
    """Index of the box a tap at (x, y) meant: the box containing it, else the one whose centre is
    nearest, if within `reach` × that box's larger side; None when the tap was on empty table."""
    best, best_d = None, float("inf")
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        if x1 <= x <= x2 and y1 <= y <= y2:
            return i
        d = ((x - (x1 + x2) / 2) ** 2 + (y - (y1 + y2) / 2) ** 2) ** 0.5
        if d < best_d and d <= reach * max(x2 - x1, y2 - y1):
            best, best_d = i, d
    return best


def photo_view(image: bytes, boxes: Sequence[PhotoBox], max_side: int = PHOTO_MAX_SIDE) -> dict[str, Any]:
    """What the photo component draws: the cropped, scaled photo as a data-URI and each box in
    percent of it (so it scales with the screen), plus the crop to map taps back."""
    from PIL import Image, ImageOps

    img = ImageOps.exif_transpose(Image.open(io.BytesIO(image))).convert("RGB")
    crop = crop_around([b.box for b in boxes], img.size)
    part = img.crop(crop)
    part.thumbnail((max_side, max_side))
    out = io.BytesIO()
    part.save(out, format="JPEG", quality=85)
    cw, ch = crop[2] - crop[0], crop[3] - crop[1]
    return {
        "src": "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode("ascii"),
        "crop": list(crop),
        "boxes": [
            {
                "left": 100 * (b.box[0] - crop[0]) / cw,
                "top": 100 * (b.box[1] - crop[1]) / ch,
                "width": 100 * (b.box[2] - b.box[0]) / cw,
                "height": 100 * (b.box[3] - b.box[1]) / ch,
                "number": b.number,
                "title": b.title,
                "unsure": b.unsure,
                "selected": b.selected,
            }
            for b in boxes
        ],
    }


def tap_to_photo(tap: Mapping[str, float], crop: Sequence[float]) -> tuple[float, float]:
    """A tap given as fractions (0..1) of the shown crop → the photo's pixel coordinates."""
    return crop[0] + float(tap["x"]) * (crop[2] - crop[0]), crop[1] + float(tap["y"]) * (crop[3] - crop[1])


PHOTO_CSS = """
.jt-photo { position: relative; width: 100%; line-height: 0; touch-action: manipulation; user-select: none; }
.jt-photo img { width: 100%; height: auto; display: block; border-radius: 6px; }
.jt-box { position: absolute; box-sizing: border-box; border: 2px solid #00e676; border-radius: 3px; pointer-events: none; }
.jt-box.unsure { border: 3px dashed #ff1744; }
.jt-box.selected { border: 3px solid #2979ff; box-shadow: 0 0 0 2px #fff; }
.jt-num { position: absolute; left: 50%; top: 0; transform: translate(-50%, -105%); min-width: 18px; height: 18px;
  padding: 0 3px; box-sizing: border-box; border-radius: 9px; background: rgba(20, 20, 20, 0.82); color: #fff;
  font: bold 12px/18px sans-serif; text-align: center; }
.jt-box.unsure .jt-num { background: #d50000; }
.jt-box.selected .jt-num { background: #2962ff; }
"""

PHOTO_JS = """
export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  let root = parentElement.querySelector(".jt-photo");
  if (!root) {
    root = document.createElement("div");
    root.className = "jt-photo";
    parentElement.appendChild(root);
  }
  root.replaceChildren();
  if (!data || !data.src) { return; }
  const img = document.createElement("img");
  img.src = data.src;
  img.alt = data.alt || "";
  root.appendChild(img);
  (data.boxes || []).forEach((b) => {
    const el = document.createElement("div");
    el.className = "jt-box" + (b.unsure ? " unsure" : "") + (b.selected ? " selected" : "");
    el.style.left = b.left + "%";
    el.style.top = b.top + "%";
    el.style.width = b.width + "%";
    el.style.height = b.height + "%";
    el.title = b.title || "";
    if (b.number) {
      const num = document.createElement("span");
      num.className = "jt-num";
      num.textContent = b.number;
      el.appendChild(num);
    }
    root.appendChild(el);
  });
  root.onclick = (e) => {
    const r = img.getBoundingClientRect();
    if (!r.width || !r.height) { return; }
    setTriggerValue("tap", { x: (e.clientX - r.left) / r.width, y: (e.clientY - r.top) / r.height, t: Date.now() });
  };
}
"""

_photo_component: Any = None


def _component() -> Any:
    """The photo component, registered once per process."""
    global _photo_component
    if _photo_component is None:
        _photo_component = st.components.v2.component("jingsuan_photo_boxes", css=PHOTO_CSS, js=PHOTO_JS)
    return _photo_component


def photo_boxes(
    image: bytes, boxes: Sequence[PhotoBox], *, key: str, on_tap: Callable[[int], None], alt: str = ""
) -> None:
    """The photo (cropped to its tiles) with numbered boxes; a tap calls `on_tap(index of the box)`."""
    view = photo_view(image, boxes)
    crop = view["crop"]

    def tapped() -> None:
        value = getattr(st.session_state.get(key), "tap", None)
        if not value:
            return
        x, y = tap_to_photo(value, crop)
        i = nearest_box([b.box for b in boxes], x, y)
        if i is not None:
            on_tap(i)

    _component()(key=key, data={**view, "alt": alt}, on_tap_change=tapped)
