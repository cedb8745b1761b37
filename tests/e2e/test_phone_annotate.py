"""标注 in Debian's chromium, on a 390×844 touch screen and a 1366×900 desktop: the canvas fits the screen,
a box is drawn by a finger (touch events, not a mouse) or the mouse, its class changed with the box
still the one picked, zoom shows a part of the photo larger without losing boxes, the box is saved, in
移动 it is dragged elsewhere keeping its class and number and saved there, and switching photos leaves the other photo's review mark as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.helpers import choose, wait_for_rerun
from tests.e2e.test_annotate_browser import (
    canvas_element,
    open_annotate,
    picker_shows,
    plain_photo,
    settle,
    synthetic_photo,
)
from tests.e2e.test_phone_journeys import shot
from vision.datasets.yolo import read_yolo_labels
from vision.reader.detection import CLASS_NAMES

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TIMEOUT_MS = 45000


def finger_drag(page: object, start: tuple[float, float], end: tuple[float, float], steps: int = 8) -> None:
    """Drag one finger across the screen (chromium's touch events, as a phone sends them)."""
    cdp = page.context.new_cdp_session(page)  # type: ignore[attr-defined]
    x0, y0 = start
    x1, y1 = end
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        page.wait_for_timeout(20)  # type: ignore[attr-defined]
    page.wait_for_timeout(150)  # type: ignore[attr-defined]  # the finger rests a moment before it lifts
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def mouse_drag(page: object, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Drag with the mouse's left button."""
    page.mouse.move(*start)  # type: ignore[attr-defined]
    page.mouse.down()  # type: ignore[attr-defined]
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=5)  # type: ignore[attr-defined]
    page.mouse.move(*end, steps=5)  # type: ignore[attr-defined]
    page.mouse.up()  # type: ignore[attr-defined]


#: How far (photo pixels) the 移动 step drags the box: left and up, into empty felt.
MOVE = (-120.0, -50.0)


def saved_box(datasets: Path, stem: str) -> tuple[str, tuple[float, float, float, float]]:
    """The one box saved for the 640×400 photo `stem`: (class, (x1, y1, x2, y2) in photo pixels)."""
    from vision.datasets.store import open_dataset

    (label,) = read_yolo_labels(open_dataset("table", datasets).label_path(stem))
    x1, y1, x2, y2 = label.xyxy()
    return CLASS_NAMES[label.cls], (x1 * 640, y1 * 400, x2 * 640, y2 * 400)


def mark_corner(path: Path, text: str) -> None:
    """Write `text` in the photo's bottom-right corner, away from the tiles and the box to draw."""
    from PIL import Image, ImageDraw

    with Image.open(path) as img:
        img = img.convert("RGB")
    ImageDraw.Draw(img).text((560, 380), text, fill=(250, 250, 250))
    img.save(path)


def press(button: object, phone: bool) -> None:
    """A tap on a phone, a click on a desktop."""
    if phone:
        button.tap()  # type: ignore[attr-defined]
    else:
        button.click()  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_annotate_by_touch_or_mouse(annotate_server: tuple[str, Path], browser: object, tmp_path: Path, size: str) -> None:
    from vision.datasets.store import open_dataset

    url, datasets = annotate_server
    photo, empty_box = synthetic_photo()  # 640×400: tiles at the top, felt below
    photo = photo.rename(photo.with_name(f"tiles-and-felt-{size}.png"))
    mark_corner(photo, size)  # each run's photo is a new one to the dataset (a repeated photo is refused)
    other = plain_photo(tmp_path, f"other-{size}.png", (110, 40, 70) if size == "phone" else (70, 40, 110))
    phone = size == "phone"
    ctx, page = open_annotate(browser, url, phone)
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files([str(photo), str(other)])

    def stems_by_name() -> dict[str, str]:
        if not (datasets / "table").exists():
            return {}
        store = open_dataset("table", datasets)  # opened afresh: a store lists its photos once
        return {store.read_sidecar(s).get("original_name"): s for s in store.stems()}

    for _ in range(180):  # the page's 已加入 notice lasts one run: look in the dataset instead
        if {photo.name, other.name} <= set(stems_by_name()):
            break
        page.wait_for_timeout(250)
    settle(page)
    names = stems_by_name()
    store = open_dataset("table", datasets)
    stem, other_stem = names[photo.name], names[other.name]
    choose(page, "ann_stem_pick", photo.name)
    settle(page)
    picker_shows(page, "ann_stem_pick", photo.name)

    canvas = canvas_element(page)
    canvas.scroll_into_view_if_needed()  # type: ignore[attr-defined]
    settle(page)
    area = canvas.bounding_box()  # type: ignore[attr-defined]
    screen = 390 if phone else 1366
    assert area and area["x"] >= 0 and area["x"] + area["width"] <= screen, f"the canvas does not fit the screen: {area}"
    assert area["width"] >= 300, f"the canvas is needlessly small: {area}"
    scale = area["width"] / 640
    x1, y1, x2, y2 = empty_box
    drag = finger_drag if phone else mouse_drag
    drag(page, (area["x"] + x1 * scale, area["y"] + y1 * scale), (area["x"] + x2 * scale, area["y"] + y2 * scale))
    page.get_by_text("框（1 个）").wait_for()
    settle(page)

    choose(page, "ann_sel_cls", "五筒")  # the box just drawn is the picked one: its class changes …
    settle(page)
    picker_shows(page, "ann_sel", "#0 五筒")  # … and it stays the picked one
    shot(page, f"{size}-annotate-1-drawn")

    press(page.locator(".st-key-ann_zoom button", has_text="2×"), phone)
    settle(page)
    zoomed = canvas_element(page).bounding_box()  # type: ignore[attr-defined]
    assert zoomed and zoomed["x"] + zoomed["width"] <= screen
    page.get_by_text("框（1 个）").wait_for()  # zooming loses no box
    picker_shows(page, "ann_sel", "#0 五筒")
    shot(page, f"{size}-annotate-2-zoomed")

    press(page.locator(".st-key-ann_save button"), phone)
    page.get_by_text("已保存 1 个框").wait_for()
    cls, got = saved_box(datasets, stem)
    assert cls == "5p"
    assert all(abs(a - b) < 8 for a, b in zip(got, empty_box)), got

    # 移动: the box is dragged by a finger (or the mouse) elsewhere, and keeps its class and its number
    press(page.locator(".st-key-ann_zoom button", has_text="1×"), phone)
    settle(page)
    press(page.locator(".st-key-ann_canvas_mode button", has_text="移动"), phone)
    settle(page)
    if phone:  # 画框 / 移动 are thumb-sized
        sizes = [b.bounding_box() for b in page.locator(".st-key-ann_canvas_mode button").all()]  # type: ignore[attr-defined]
        assert len(sizes) == 2 and all(b["width"] >= 44 and b["height"] >= 44 for b in sizes), sizes
    canvas = canvas_element(page)
    canvas.scroll_into_view_if_needed()  # type: ignore[attr-defined]
    settle(page)
    area = canvas.bounding_box()  # type: ignore[attr-defined]
    scale = area["width"] / 640
    cx, cy, (dx, dy) = (x1 + x2) / 2, (y1 + y2) / 2, MOVE
    drag(page, (area["x"] + cx * scale, area["y"] + cy * scale), (area["x"] + (cx + dx) * scale, area["y"] + (cy + dy) * scale))
    page.get_by_text("有未保存的修改").wait_for()
    settle(page)
    picker_shows(page, "ann_sel", "#0 五筒")
    shot(page, f"{size}-annotate-3-moved")
    press(page.locator(".st-key-ann_save button"), phone)
    page.get_by_text("已保存 1 个框").wait_for()
    cls, got = saved_box(datasets, stem)
    assert cls == "5p", "the moved box lost its class"
    moved = (x1 + dx, y1 + dy, x2 + dx, y2 + dy)
    assert all(abs(a - b) < 8 for a, b in zip(got, moved)), f"saved {got}, moved to {moved}"

    before = store.load(other_stem).reviewed
    choose(page, "ann_stem_pick", other.name)
    settle(page)
    picker_shows(page, "ann_stem_pick", other.name)
    wait_for_rerun(page, TIMEOUT_MS)
    assert store.load(other_stem).reviewed == before, "switching photos changed the other photo's review mark"
    assert store.load(stem).reviewed is False
    ctx.close()
