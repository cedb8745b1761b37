"""The synthetic generator's labels are exact: each box is tight on the rendered tile."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.data import read_yolo_labels
from vision.detection import CLASS_NAMES
from vision.synth import element_id, random_scene, render_layout, write_yolo_sample

pytestmark = pytest.mark.skipif(
    not (Path("/usr/share/kmahjongglib/tilesets/default.svgz").exists() and shutil.which("rsvg-convert")),
    reason="needs kdegames-mahjongg-data-kf5 and librsvg2-bin (scripts/install_test_system_deps.sh)",
)

BG = (0, 0, 255)


def _foreground(img: np.ndarray) -> np.ndarray:
    return np.any(np.abs(img.astype(int) - np.array(BG)) > 40, axis=2)


def test_element_ids_follow_the_kde_naming():
    assert element_id("3m") == "CHARACTER_3"
    assert element_id("9p") == "ROD_9"
    assert element_id("1s") == "BAMBOO_1"
    assert [element_id(f"{n}z") for n in range(1, 8)] == [
        "WIND_3", "WIND_2", "WIND_4", "WIND_1", "DRAGON_1", "DRAGON_2", "DRAGON_3"
    ]


@pytest.mark.parametrize("spec", ["5p", "7z>", "back"])
def test_single_tile_box_is_tight(spec):
    scene = render_layout([[spec]], tile_height=60, background=BG)
    (t,) = scene.tiles
    fg = _foreground(scene.image)
    ys, xs = np.nonzero(fg)
    x1, y1, x2, y2 = t.box
    assert abs(xs.min() - x1) <= 1 and abs(ys.min() - y1) <= 1
    assert abs(xs.max() + 1 - x2) <= 1 and abs(ys.max() + 1 - y2) <= 1
    if spec.endswith(">"):
        assert (x2 - x1) > (y2 - y1)  # a sideways tile lies flat


def test_rows_and_groups_are_labelled_in_order():
    scene = render_layout([[["1m", "2m", "3m"], ["5z>", "5z", "5z"]], [["back", "9s", "9s", "back"]]], background=BG)
    assert [t.tile for t in scene.tiles] == ["1m", "2m", "3m", "5z", "5z", "5z", "back", "9s", "9s", "back"]
    assert [t.group for t in scene.tiles[:6]] == [0, 0, 0, 1, 1, 1]
    assert scene.tiles[3].sideways and not scene.tiles[4].sideways
    assert all(t.row == 1 for t in scene.tiles[6:])
    boxes = [t.box for t in scene.tiles[:6]]
    assert all(a[2] <= b[0] for a, b in zip(boxes, boxes[1:]))  # left to right, no overlap


def test_yolo_sample_round_trips(tmp_path):
    scene = random_scene(np.random.default_rng(3))
    img, lbl = write_yolo_sample(scene, tmp_path, "s0")
    boxes = read_yolo_labels(lbl)
    assert img.exists() and len(boxes) == len(scene.tiles)
    h, w = scene.image.shape[:2]
    for b, t in zip(boxes, scene.tiles):
        assert CLASS_NAMES[b.cls] == t.tile
        x1, y1, x2, y2 = b.xyxy()
        assert x1 * w == pytest.approx(t.box[0], abs=0.01) and y2 * h == pytest.approx(t.box[3], abs=0.01)
