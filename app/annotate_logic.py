"""The 标注 page's logic without Streamlit: canvas JSON ↔ boxes, scaling, class names, saving a scored photo.

Boxes are `vision.datasets.store.LabeledBox` in the photo's pixels; the canvas shows the photo scaled
by `fit_scale`, so canvas coordinates are photo pixels × scale.  Nothing here imports streamlit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scoring.tiles import tile
from vision.datasets.store import DatasetStore, DuplicateExampleError, LabeledBox
from vision.reader.boxes import box_iou
from vision.reader.detection import CLASS_NAMES

#: Widest canvas (CSS pixels) that fits the app's centred layout.
CANVAS_WIDTH = 700
#: Tallest canvas; portrait photos are scaled down to this.
CANVAS_MAX_HEIGHT = 900
#: Boxes smaller than this (photo pixels) drawn on the canvas are taken as stray clicks and ignored.
MIN_BOX_SIDE = 2.0
BACK_ZH = "背面"
BOX_COLOURS = {"m": "#e4572e", "p": "#2e86ab", "s": "#3bb273", "z": "#8e44ad", "b": "#555555"}


def class_label(code: str, lang: str = "zh") -> str:
    """How a class is shown: '五筒 5p', '背面 back' (zh) or the code (en)."""
    if lang != "zh":
        return code
    return f"{BACK_ZH} back" if code == "back" else f"{tile(code).zh} {code}"


def label_to_code(label: str) -> str | None:
    """A label typed or stamped on the canvas → class code ('5p', '五筒', '五筒 5p', '背面' …); None if unknown."""
    text = label.strip()
    if not text:
        return None
    if text in CLASS_NAMES:
        return text
    last = text.split()[-1]
    if last in CLASS_NAMES:
        return last
    if text in (BACK_ZH, "背", "back"):
        return "back"
    for code in CLASS_NAMES[:-1]:
        if tile(code).zh == text:
            return code
    return None


def fit_scale(width: int, height: int, max_width: int = CANVAS_WIDTH, max_height: int = CANVAS_MAX_HEIGHT) -> float:
    """Scale that fits a photo into the canvas (never enlarges)."""
    if width <= 0 or height <= 0:
        return 1.0
    return min(1.0, max_width / width, max_height / height)


def canvas_size(width: int, height: int, scale: float) -> tuple[int, int]:
    """Canvas (width, height) in CSS pixels for a photo shown at `scale`."""
    return max(1, round(width * scale)), max(1, round(height * scale))


def box_colour(code: str) -> str:
    """Stroke colour per suit (万 red, 筒 blue, 条 green, 字 purple, back grey)."""
    return BOX_COLOURS["b" if code == "back" else code[-1]]


#: Size (CSS pixels) of a box's corner handles when boxes are moved: a fingertip finds them and a tile's box
#: still has room between them to be dragged by.
HANDLE_SIZE = 16


def boxes_to_drawing(
    boxes: Iterable[LabeledBox], scale: float, labeled: bool = True, stroke_width: int = 2, handles: int | None = None
) -> dict[str, Any]:
    """Boxes (photo pixels) → a fabric.js drawing for `st_canvas(initial_drawing=...)` at `scale`; `handles`
    gives the corner handles that size (for moving and resizing by finger)."""
    objects = []
    for b in boxes:
        obj: dict[str, Any] = {
            "type": "LabeledRect" if labeled else "rect",
            "left": b.x1 * scale,
            "top": b.y1 * scale,
            "width": (b.x2 - b.x1) * scale,
            "height": (b.y2 - b.y1) * scale,
            "originX": "left",
            "originY": "top",
            "scaleX": 1,
            "scaleY": 1,
            "angle": 0,
            "stroke": box_colour(b.cls),
            "strokeWidth": stroke_width,
            "strokeUniform": True,
            "fill": "rgba(0, 0, 0, 0)",
            "lockRotation": True,
        }
        if labeled:
            obj["label"] = b.cls
        if handles:
            obj.update(cornerSize=handles, touchCornerSize=handles, transparentCorners=False)
        objects.append(obj)
    return {"version": "4.4.0", "objects": objects}


_ORIGIN = {"left": 0.0, "top": 0.0, "center": 0.5, "right": 1.0, "bottom": 1.0}


def drawing_to_boxes(
    drawing: Mapping[str, Any] | None, scale: float, default_cls: str, width: int, height: int
) -> list[LabeledBox]:
    """A fabric.js drawing → boxes in photo pixels (clipped; stray tiny boxes dropped).

    Rectangles carry their class in ``label`` (LabeledRect); plain rects, and labels that are not
    a class, get `default_cls`.  Object scaling (resize handles) and origins are applied.
    """
    out: list[LabeledBox] = []
    if not drawing or scale <= 0:
        return out
    for obj in drawing.get("objects") or []:
        if str(obj.get("type", "")).lower() not in ("rect", "labeledrect"):
            continue
        w = float(obj.get("width", 0)) * abs(float(obj.get("scaleX", 1) or 1))
        h = float(obj.get("height", 0)) * abs(float(obj.get("scaleY", 1) or 1))
        left = float(obj.get("left", 0)) - _ORIGIN.get(str(obj.get("originX", "left")), 0.0) * w
        top = float(obj.get("top", 0)) - _ORIGIN.get(str(obj.get("originY", "top")), 0.0) * h
        x1, y1 = max(0.0, left / scale), max(0.0, top / scale)
        x2, y2 = min(float(width), (left + w) / scale), min(float(height), (top + h) / scale)
        if x2 - x1 < MIN_BOX_SIDE or y2 - y1 < MIN_BOX_SIDE:
            continue
        cls = label_to_code(str(obj.get("label", ""))) or default_cls
        out.append(LabeledBox(x1, y1, x2, y2, cls))
    return out


def same_boxes(a: Sequence[LabeledBox], b: Sequence[LabeledBox], tol: float = 0.75) -> bool:
    """Equal up to `tol` pixels per coordinate (canvas round trips are not exact)."""
    return len(a) == len(b) and all(
        x.cls == y.cls and all(abs(u - v) <= tol for u, v in zip(x[:4], y[:4], strict=True)) for x, y in zip(a, b, strict=True)
    )


def box_to_select(old: Sequence[LabeledBox], new: Sequence[LabeledBox]) -> int | None:
    """After a canvas edit: the box just drawn (the canvas appends new boxes last), or None if none was added."""
    return len(new) - 1 if len(new) > len(old) else None


def changed_box(old: Sequence[LabeledBox], new: Sequence[LabeledBox], tol: float = 0.75) -> int | None:
    """After a canvas edit: the box just drawn, else the first box moved or resized in its place; None if neither."""
    if len(new) != len(old):
        return box_to_select(old, new)
    return next((i for i, (a, b) in enumerate(zip(old, new, strict=True)) if not same_boxes([a], [b], tol)), None)


def follow_origins(
    old: Sequence[LabeledBox], origin: Sequence[int | None] | None, new: Sequence[LabeledBox], saved: Sequence[LabeledBox]
) -> list[int | None]:
    """Each new box's saved box after a canvas edit: boxes kept in their places (moved or not) keep theirs, boxes
    added after them have none; when boxes were lost (the places shifted), matched to the saved ones by overlap."""
    if origin is None or len(origin) != len(old) or len(new) < len(old):
        return match_origins(saved, new)
    return [*origin, *[None] * (len(new) - len(old))]


def match_origins(old: Sequence[LabeledBox], new: Sequence[LabeledBox], min_iou: float = 0.3) -> list[int | None]:
    """For each new box, the old box it came from (best IoU, each old box used once), or None if drawn new."""
    pairs = sorted(((box_iou(o[:4], n[:4]), i, j) for i, o in enumerate(old) for j, n in enumerate(new)), reverse=True)
    origin: list[int | None] = [None] * len(new)
    used: set[int] = set()
    for score, i, j in pairs:
        if score < min_iou:
            break
        if i in used or origin[j] is not None:
            continue
        origin[j] = i
        used.add(i)
    return origin


def remap_sidecar(sidecar: Mapping[str, Any], origin: Sequence[int | None]) -> dict[str, Any]:
    """Sidecar box references renumbered after an edit (`origin[j]` = old index of new box j); lost boxes drop out."""
    new_of = {o: j for j, o in enumerate(origin) if o is not None}
    out = dict(sidecar)
    for key in ("winning", "indicator"):
        v = out.get(key)
        out[key] = new_of.get(v) if isinstance(v, int) and not isinstance(v, bool) else None
    melds = []
    for m in out.get("melds") or []:
        idx = [new_of.get(i) for i in m.get("boxes", [])]
        if idx and all(i is not None for i in idx):
            melds.append({**m, "boxes": idx})
    out["melds"] = melds
    return out


def save_edited(store: DatasetStore, stem: str, boxes: Sequence[LabeledBox], origin: Sequence[int | None] | None = None) -> None:
    """Save edited boxes; sidecar references follow their boxes when `origin` is known."""
    if origin is not None:
        sidecar = store.read_sidecar(stem)  # a corrupt sidecar stops the save here
        store.save_labels(stem, boxes)
        store.update_sidecar(stem, remap_sidecar(sidecar, origin))
    else:
        store.save_labels(stem, boxes)


def detections_to_boxes(detections: Iterable[Any]) -> list[LabeledBox]:
    """Detector output (`vision.Detection`, from `vision.detect` / `vision.read_photo`) → boxes; unknown classes are skipped."""
    return [LabeledBox(*(float(v) for v in d.box), d.tile) for d in detections if d.tile in CLASS_NAMES]


def corrected_boxes(detections: Sequence[Any], hand: Sequence[str]) -> tuple[list[LabeledBox], bool]:
    """Detections relabelled with the confirmed hand → (boxes, corrected).

    The score page proposes the face-up tiles left to right as the hand, and the player fixes
    tiles in place; when the number of face-up detections still equals the hand's length, the
    i-th face-up tile from the left takes the hand's i-th tile.  Otherwise the detector's labels
    are kept and `corrected` is False.
    """
    boxes = detections_to_boxes(detections)
    faces = sorted((i for i, b in enumerate(boxes) if b.cls != "back"), key=lambda i: (boxes[i].x1 + boxes[i].x2) / 2)
    if not hand or len(faces) != len(hand) or any(c not in CLASS_NAMES for c in hand):
        return boxes, False
    for i, code in zip(faces, hand, strict=True):
        boxes[i] = boxes[i]._replace(cls=code)
    return boxes, True


def save_score_example(
    store: DatasetStore,
    image: bytes,
    detections: Sequence[Any],
    hand: Sequence[str],
    win_tile: str | None,
    indicator: str | None,
    melds: Sequence[Mapping[str, Any]] = (),
) -> tuple[str, str]:
    """Save a photo from the 算分 page as a labelled example → (stem, 'added' | 'updated' | 'kept').

    The boxes are the detections corrected by the confirmed hand (`corrected_boxes`); the sidecar
    keeps the hand, winning tile, indicator and declared melds as tile codes (box indices are not
    known yet, so ``winning``/``indicator``/``melds`` stay empty until someone reviews it).  A photo
    saved before is updated unless it was reviewed since, then it is kept.
    """
    boxes, corrected = corrected_boxes(detections, hand)
    sidecar = {
        "hand": list(hand),
        "winning_tile": win_tile,
        "indicator_tile": indicator,
        "declared_melds": [dict(m) for m in melds],
        "labels_corrected": corrected,
    }
    try:
        return store.add_example(image, boxes, sidecar, source="score"), "added"
    except DuplicateExampleError as dup:
        if store.read_sidecar(dup.stem).get("reviewed"):
            return dup.stem, "kept"
        return store.add_example(image, boxes, sidecar, source="score", overwrite=True), "updated"


def unboxed_tiles(boxes: Sequence[LabeledBox], found: Sequence[tuple[tuple[float, float, float, float], str]]) -> list[LabeledBox]:
    """Tiles a finder sees (box, tile code) that none of `boxes` covers, as new boxes for the labeller to check."""
    from vision.datasets.unlabelled import unlabelled_tiles

    missing = set(unlabelled_tiles([(b.x1, b.y1, b.x2, b.y2) for b in boxes], [f for f, _ in found]))
    return [LabeledBox(*f, tile) for f, tile in found if f in missing]
