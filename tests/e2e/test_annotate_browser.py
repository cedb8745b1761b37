"""End-to-end in Debian's chromium: on the 标注 page upload a photo, draw a box with the mouse on the
drawable canvas, relabel it with the class selector, save, and find the box with its new class on disk."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.e2e.helpers import choose, tap, wait_for_rerun
from vision.datasets.yolo import read_yolo_labels
from vision.reader.detection import CLASS_NAMES

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TIMEOUT_MS = 45000
#: The drawn box's class after the relabel, and how the class selector shows it.
NEW_CLASS, NEW_CLASS_SHOWN = "5p", "五筒"


def synthetic_photo() -> tuple[Path, tuple[float, float, float, float]]:
    """A photo: a row of tiles at the top (KDE art when installed) over empty felt → (file, a box in the empty part).

    The box is drawn where there is no tile, so boxes an installed detector pre-draws never overlap it.
    """
    from PIL import Image, ImageDraw

    out = Path(tempfile.mkdtemp()) / "tiles-and-felt.png"
    img = Image.new("RGB", (640, 400), (40, 110, 70))
    try:
        from vision.training.synth import render_layout

        scene = render_layout([["1m", "2m", "3m", "5p", "9s"]], tile_height=64, background=(40, 110, 70))
        img.paste(Image.fromarray(scene.image), (0, 0))
    except Exception:  # no tile art on this machine: drawn rectangles stand in for the tiles
        for i in range(5):
            ImageDraw.Draw(img).rectangle((24 + i * 52, 24, 72 + i * 52, 88), fill="white", outline="black")
    img.save(out)
    return out, (420.0, 230.0, 480.0, 310.0)


def canvas_element(page: object) -> object:
    """The drawable canvas' event layer: inline (components v2) or inside the component's iframe (v1)."""
    inline = page.locator("canvas.upper-canvas")  # type: ignore[attr-defined]
    frames = page.locator('iframe[title*="drawable_canvas"]')  # type: ignore[attr-defined]
    inline.or_(frames).first.wait_for(timeout=TIMEOUT_MS)
    if frames.count():
        return page.frame_locator('iframe[title*="drawable_canvas"]').first.locator("canvas.upper-canvas")  # type: ignore[attr-defined]
    return inline.first


def test_draw_relabel_save(annotate_server: tuple[str, Path], browser: object) -> None:
    url, datasets = annotate_server
    photo, empty_box = synthetic_photo()
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url + "annotate")
    page.get_by_role("heading", name="标注").wait_for()

    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(photo))
    page.get_by_text("已加入 1 张照片").wait_for()
    wait_for_rerun(page, TIMEOUT_MS)
    store = datasets / "table"
    (label_file,) = sorted((store / "labels").glob("*.txt"))
    n_before = len(read_yolo_labels(label_file))  # the detector, when installed, pre-draws boxes

    canvas = canvas_element(page)
    canvas.scroll_into_view_if_needed()  # type: ignore[attr-defined]
    wait_for_rerun(page, TIMEOUT_MS)
    area = canvas.bounding_box()  # type: ignore[attr-defined]
    assert area, "the canvas is not on screen"
    scale = area["width"] / photo_size(photo)[0]
    x1, y1, x2, y2 = empty_box
    page.mouse.move(area["x"] + x1 * scale, area["y"] + y1 * scale)
    page.mouse.down()
    page.mouse.move(area["x"] + (x1 + x2) / 2 * scale, area["y"] + (y1 + y2) / 2 * scale, steps=5)
    page.mouse.move(area["x"] + x2 * scale, area["y"] + y2 * scale, steps=5)
    page.mouse.up()
    page.get_by_text(f"框（{n_before + 1} 个）").wait_for()
    wait_for_rerun(page, TIMEOUT_MS)

    choose(page, "ann_sel_cls", NEW_CLASS_SHOWN)  # the box just drawn is the one picked
    wait_for_rerun(page, TIMEOUT_MS)
    page.wait_for_function(  # the box picker now names the new class
        "([key, text]) => { const el = document.querySelector(`.st-key-${key}`);"
        " return !!el && (el.innerText + ' ' + [...el.querySelectorAll('input')].map(i => i.value).join(' ')).includes(text); }",
        arg=["ann_sel", f"#{n_before} {NEW_CLASS_SHOWN}"],
        timeout=TIMEOUT_MS,
    )
    tap(page, "ann_save")
    page.get_by_text(f"已保存 {n_before + 1} 个框").wait_for()
    ctx.close()

    boxes = read_yolo_labels(label_file)
    assert len(boxes) == n_before + 1
    w, h = photo_size(photo)
    tol = 6.0  # pixels: mouse positions are rounded to CSS pixels and fabric adds the stroke width
    near = [b for b in boxes if all(abs(u - v) < tol for u, v in zip(scaled(b.xyxy(), w, h), empty_box))]
    assert len(near) == 1, f"no saved box at {empty_box}: {[scaled(b.xyxy(), w, h) for b in boxes]}"
    assert CLASS_NAMES[near[0].cls] == NEW_CLASS


def scaled(xyxy: tuple[float, float, float, float], w: int, h: int) -> tuple[float, float, float, float]:
    """Normalised corners → pixels."""
    return xyxy[0] * w, xyxy[1] * h, xyxy[2] * w, xyxy[3] * h


def photo_size(path: Path) -> tuple[int, int]:
    """(width, height) of an image file."""
    from PIL import Image

    with Image.open(path) as img:
        return img.width, img.height


def open_annotate(browser: object, url: str, phone: bool) -> tuple[object, object]:
    """A new browser context on a 390×844 touch screen (`phone`) or a 1366×900 desktop, open at 标注 → (context, page)."""
    from tests.e2e.journey import DESKTOP, PHONE

    ctx = browser.new_context(**(PHONE if phone else DESKTOP))  # type: ignore[attr-defined]
    page = ctx.new_page()  # type: ignore[attr-defined]
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url + "annotate")
    page.get_by_role("heading", name="标注").wait_for()
    return ctx, page


def plain_photo(folder: Path, name: str, colour: tuple[int, int, int]) -> Path:
    """A small photo of one colour with a white 'tile' (distinct colours make distinct photos)."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (320, 200), colour)
    ImageDraw.Draw(img).rectangle((20, 20, 68, 84), fill="white", outline="black")
    path = folder / name
    img.save(path)
    return path


def picker_shows(page: object, key: str, text: str) -> None:
    """Wait until the selectbox with widget key `key` shows `text` (fails the test after the timeout)."""
    page.wait_for_function(  # type: ignore[attr-defined]
        "([key, text]) => { const el = document.querySelector(`.st-key-${key}`);"
        " return !!el && (el.innerText + ' ' + [...el.querySelectorAll('input')].map(i => i.value).join(' ')).includes(text); }",
        arg=[key, text],
        timeout=TIMEOUT_MS,
    )


def tap_review(page: object, label: str) -> None:
    """Tap the review button, which must say `label` (标为已核对 / 取消已核对), as a player does."""
    page.locator(".st-key-ann_toggle_reviewed button").filter(has_text=label).click()  # type: ignore[attr-defined]


def shows_reviewed(page: object) -> bool:
    """Whether the page says the photo shown is reviewed."""
    return page.get_by_text("✓ 这张已核对").count() > 0  # type: ignore[attr-defined]


def settle(page: object) -> None:
    """Let the canvas component's own reruns happen and finish (the old bugs struck on those)."""
    wait_for_rerun(page, TIMEOUT_MS)
    page.wait_for_timeout(1500)  # type: ignore[attr-defined]
    wait_for_rerun(page, TIMEOUT_MS)


def uploader_speaks_chinese(page: object) -> None:
    """The uploader's own English ("Upload", "40MB per file • …") is shrunk away and Chinese drawn instead (issue 21)."""
    zone = page.locator('[data-testid="stFileUploaderDropzone"]').first  # type: ignore[attr-defined]
    button, limit = zone.locator("button p"), zone.locator('[data-testid="stFileUploaderDropzoneInstructions"] span')
    assert button.evaluate("e => getComputedStyle(e, '::after').content") == '"选择文件"'
    assert limit.evaluate("e => getComputedStyle(e, '::after').content") == '"每个文件最多 40 MB"'
    assert button.evaluate("e => getComputedStyle(e).fontSize") == "0px"  # "Upload" takes no room
    assert limit.evaluate("e => getComputedStyle(e).fontSize") == "0px"


def test_new_dataset_takes_the_uploads_and_switching_photos_keeps_each_review_mark(
    annotate_server: tuple[str, Path], browser: object, tmp_path: Path
) -> None:
    """Issue 21, bugs 5 and 2: 创建 switches to the new dataset (the uploads land there, not in the last one);
    switching between a reviewed and an unreviewed photo keeps the picker on the chosen photo and each
    photo's 已核对 as it was."""
    from vision.datasets.store import open_dataset

    url, datasets = annotate_server
    before = sorted(datasets.glob("*/images/*"))
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url + "annotate")
    page.get_by_role("heading", name="标注").wait_for()
    settle(page)  # a rerun landing between typing and 创建 redraws the form's box from its last submitted value ('')

    new_name = ".st-key-ann_new_name input"
    for name in ("spare", "second"):  # the second 创建 in a row went back to the first dataset (issue 21)
        page.locator(new_name).fill(name)
        # the form clears its box after a submit: type only once the box holds what was typed
        page.wait_for_function("([sel, v]) => document.querySelector(sel)?.value === v", arg=[new_name, name])
        page.get_by_role("button", name="创建").click()
        settle(page)
        picker_shows(page, "ann_pick_dataset", name)
        page.wait_for_function("(sel) => document.querySelector(sel)?.value === ''", arg=new_name)

    uploader_speaks_chinese(page)
    a = plain_photo(tmp_path, "photo-a.png", (40, 110, 70))
    b = plain_photo(tmp_path, "photo-b.png", (110, 40, 70))
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files([str(a), str(b)])
    page.get_by_text("已加入 2 张照片").wait_for()
    settle(page)
    store = open_dataset("second", datasets)
    names = {store.read_sidecar(s).get("original_name"): s for s in store.stems()}
    assert set(names) == {"photo-a.png", "photo-b.png"}, "the uploads did not land in the new dataset"
    new = sorted(set(datasets.glob("*/images/*")) - set(before))
    assert {p.parent.parent.name for p in new} == {"second"}, f"the uploads went elsewhere too: {new}"
    stem_a, stem_b = names["photo-a.png"], names["photo-b.png"]

    def reviewed() -> tuple[bool, bool]:
        return store.load(stem_a).reviewed, store.load(stem_b).reviewed

    picker_shows(page, "ann_stem_pick", "photo-a.png")
    tap_review(page, "标为已核对")
    settle(page)
    assert reviewed() == (True, False)

    choose(page, "ann_stem_pick", "photo-b.png")
    settle(page)
    picker_shows(page, "ann_stem_pick", "photo-b.png")  # the picker stays on the chosen photo
    assert reviewed() == (True, False), "switching to an unchecked photo changed a review mark"
    assert not shows_reviewed(page)

    tap_review(page, "标为已核对")
    settle(page)
    picker_shows(page, "ann_stem_pick", "photo-b.png")
    assert reviewed() == (True, True), "ticking 已核对 on the second photo un-reviewed the first"

    choose(page, "ann_stem_pick", "photo-a.png")
    settle(page)
    picker_shows(page, "ann_stem_pick", "photo-a.png")
    tap_review(page, "取消已核对")
    settle(page)
    assert reviewed() == (False, True), "un-ticking the first photo changed the second"
    choose(page, "ann_stem_pick", "photo-b.png")
    settle(page)
    picker_shows(page, "ann_stem_pick", "photo-b.png")
    assert reviewed() == (False, True), "switching to a reviewed photo changed a review mark"
    assert shows_reviewed(page)
    ctx.close()
