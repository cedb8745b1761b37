"""标注's 查错标 in Debian's chromium on a 390×844 touch screen and a 1366×900 desktop: a box given the wrong class is listed with the
model's reading, the list fits the screen, and the box keeps the class the player gave it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.helpers import app_server, choose
from tests.e2e.test_annotate_browser import open_annotate, picker_shows, settle
from tests.e2e.test_phone_journeys import shot

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(scope="module")
def modelled_annotate_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app with its datasets in a temporary folder and the shipped models → (base URL, datasets folder)."""
    datasets = tmp_path_factory.mktemp("datasets")
    with app_server(tmp_path_factory.mktemp("ledger"), {"JINGSUAN_DATASETS": str(datasets)}) as url:
        yield url, datasets


def scene_photo(folder: Path, size: str) -> Path:
    """A drawn photo of a row of 14 tiles (KDE default art) the shipped models read: the first is a 三万."""
    import cv2
    import numpy as np

    from vision.training.synth import random_scene

    scene = random_scene(np.random.default_rng(3), tileset="default", perspective=0.0)
    path = folder / f"audit-scene-{size}.png"
    image = cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR)
    image[-1, -1] = (0, 0, 255) if size == "phone" else (255, 0, 0)  # each run's photo is a new one to the dataset
    cv2.imwrite(str(path), image)
    return path


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_wrong_class_is_found_by_the_label_check(modelled_annotate_server: tuple[str, Path], browser: object,
                                                   tmp_path: Path, size: str) -> None:
    from vision.datasets.store import open_dataset

    url, datasets = modelled_annotate_server
    phone = size == "phone"
    ctx, page = open_annotate(browser, url, phone)
    photo = scene_photo(tmp_path, size)
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files([str(photo)])
    for _ in range(180):  # the page's 已加入 notice lasts one run: look in the dataset instead
        if (datasets / "table").exists() and any(open_dataset("table", datasets).read_sidecar(s).get("original_name") == photo.name
                                                 for s in open_dataset("table", datasets).stems()):
            break
        page.wait_for_timeout(250)
    settle(page)
    choose(page, "ann_stem_pick", photo.name)
    settle(page)
    picker_shows(page, "ann_sel", "#0 三万")
    choose(page, "ann_sel_cls", "一万")  # the player gives the 三万 a wrong class
    settle(page)
    picker_shows(page, "ann_sel", "#0 一万")
    button = page.get_by_role("button", name="查错标")
    button.tap() if phone else button.click()
    notice = page.get_by_text("1 个框的牌面可能标错了")
    notice.wait_for()
    assert "#0 标的是一万 1m，模型有" in notice.inner_text() and "三万 3m" in notice.inner_text()
    area = notice.bounding_box()
    screen = 390 if phone else 1366
    assert area and area["x"] >= 0 and area["x"] + area["width"] <= screen, f"the notice does not fit the screen: {area}"
    picker_shows(page, "ann_sel", "#0 一万")  # nothing changed: the player decides
    shot(page, f"{size}-annotate-audit")
    ctx.close()
