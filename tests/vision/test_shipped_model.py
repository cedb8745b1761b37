"""The shipped model (models/tiles.onnx) reads rendered scenes and real validation photos above a floor.

Floors are set from what the shipped model measured (models/MODEL_CARD.md), a little below, so a
regression (broken pre/post-processing, wrong class order, a worse model) fails the test.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.reader.detection import CLASS_NAMES
from vision.reader.detector import DEFAULT_MODEL, TileDetector
from vision.training.evaluate import evaluate

ROOT = Path(__file__).resolve().parents[2]
DATA_CANDIDATES = [
    Path(os.environ.get("JINGSUAN_CMD_V4", "/nonexistent")),
    ROOT.parent / "shared" / "data" / "chinese-mahjong-detection-v4",
    ROOT.parent.parent / "shared" / "data" / "chinese-mahjong-detection-v4",
]
REAL_VALID_IMAGES = 60
#: Floors: measured values of the shipped model (see the model card) minus a margin.
#: Measured 2026-12-04 (single-class detector step 3 + int8 crop classifier v9 read at margin 0.12 with a
#: second look at unsure crops, box^⅔ × class^⅓, the covered-box rules, conf ≥ 0.25): real 60 photos
#: mAP50 0.963, box recall 0.977, per-tile 0.961; 12 rendered KDE scenes box recall 1.000, per-tile 0.990.
#: The int8 classifier may round a little differently on another CPU, hence about 0.015 of headroom.
REAL_MAP50_FLOOR = 0.945
REAL_BOX_RECALL_FLOOR = 0.96
REAL_TILE_ACCURACY_FLOOR = 0.945
SYNTH_BOX_RECALL_FLOOR = 0.97
SYNTH_TILE_ACCURACY_FLOOR = 0.95
#: Tile art never trained on (KDE `classic`, `HELD_OUT_TILESETS`), 12 scenes: classifier v9 measured box
#: recall 0.980, per-tile 0.608, mAP50 0.54 (2026-12-04; v8: 1.000 / 0.623, v7: per-tile 0.593); classifier
#: v4, before the varied drawn sets, read such scenes at per-tile 0.33-0.40.
#: The 51 `valid` photos of the two shoots `train` has no photo of (`vision.datasets.yolo.unseen_families`):
#: measured mAP50 0.968, box recall 0.995, per-tile 0.975 (2026-12-05, fifth session: the third look at
#: crops still unsure, `classifier.THIRD_LOOK_TILTS`; 0.951 / 0.988 / 0.957 without it, so the mAP50 and
#: per-tile floors fail when it is lost; 0.931 / 0.975 / 0.939 on 2026-12-04).
UNSEEN_SHOOTS_MAP50_FLOOR = 0.955
UNSEEN_SHOOTS_BOX_RECALL_FLOOR = 0.96
UNSEEN_SHOOTS_TILE_ACCURACY_FLOOR = 0.965
#: IMG_27xx alone (35 phone photos, tiles in rows and in heaps), whole photos right at conf 0.25: measured 0.657
#: (2026-12-05, fifth session: the third look, and IMG_2751's unlabelled 六萬 added; 0.600 in the fourth session,
#: when a tile partly under two others was first kept, `detector.piled_under`; 0.400 before it). One photo is
#: 0.029. Since then: 0.771 with the classifier pair (eighth session), 0.800 with `whole_over_part` (eleventh),
#: 0.857 with `PILED_ONE` (2026-12-06): the floor 0.79 leaves two photos for another CPU's int8 rounding.
HEAPS_WHOLE_PHOTO_FLOOR = 0.79
HELD_OUT_BOX_RECALL_FLOOR = 0.97
HELD_OUT_TILE_ACCURACY_FLOOR = 0.55


def _real_data() -> Path | None:
    return next((p for p in DATA_CANDIDATES if (p / "valid" / "images").is_dir()), None)


@pytest.fixture(scope="module")
def detector() -> TileDetector:
    assert DEFAULT_MODEL.is_file(), "models/tiles.onnx must be shipped"
    return TileDetector(DEFAULT_MODEL)


def test_shipped_model_is_small_and_knows_the_project_classes(detector):
    assert DEFAULT_MODEL.stat().st_size < 15_000_000
    assert detector.names == ("item",)  # it finds tiles; the classifier names them
    assert detector.classifier is not None, "models/tile_classifier.onnx (stage 2) must be shipped"
    assert detector.classifier.names == (*CLASS_NAMES, "none")


needs_real_data = pytest.mark.skipif(_real_data() is None,
                                     reason="Chinese Mahjong Detection v4 not available (see datasets/cmd-v4.yaml)")


@pytest.fixture(scope="module")
def real_valid(tmp_path_factory) -> Path:
    """CMD v4's `valid` split as the importer cleans it."""
    from vision.datasets.convert import import_yolo_dataset

    out = tmp_path_factory.mktemp("cmd")
    import_yolo_dataset(_real_data(), out, splits=("valid",))
    return out / "valid"


@needs_real_data
def test_reads_real_validation_photos_above_floor(detector, real_valid):
    res = evaluate(real_valid, lambda p: detector(p, conf=0.001), limit=REAL_VALID_IMAGES)
    assert res.tiles > 500
    assert res.map50 >= REAL_MAP50_FLOOR
    assert res.box_recall >= REAL_BOX_RECALL_FLOOR
    assert res.tile_accuracy >= REAL_TILE_ACCURACY_FLOOR


@needs_real_data
def test_reads_real_photos_of_shoots_no_training_photo_comes_from_above_floor(detector, real_valid, tmp_path):
    from vision.datasets.yolo import unseen_families, write_split

    groups = unseen_families(_real_data() / "train", real_valid)
    assert sorted(len(v) for v in groups.values()) == [16, 35]  # the screenshots, and IMG_27xx: another set, table, camera
    split = write_split([p for photos in groups.values() for p in photos], tmp_path / "unseen")
    res = evaluate(split, lambda p: detector(p, conf=0.001))
    assert res.tiles > 900
    assert res.map50 >= UNSEEN_SHOOTS_MAP50_FLOOR
    assert res.box_recall >= UNSEEN_SHOOTS_BOX_RECALL_FLOOR
    assert res.tile_accuracy >= UNSEEN_SHOOTS_TILE_ACCURACY_FLOOR


@needs_real_data
def test_reads_most_phone_photos_of_an_unseen_set_whole_heaps_included(detector, real_valid, tmp_path):
    from vision.datasets.yolo import unseen_families, write_split

    phone = next(v for v in unseen_families(_real_data() / "train", real_valid).values() if len(v) == 35)
    res = evaluate(write_split(phone, tmp_path / "phone"), lambda p: detector(p, conf=0.25))
    assert res.hand_exact_match >= HEAPS_WHOLE_PHOTO_FLOOR


@pytest.mark.skipif(
    not (Path("/usr/share/kmahjongglib/tilesets/default.svgz").exists() and shutil.which("rsvg-convert")),
    reason="needs kdegames-mahjongg-data-kf5 and librsvg2-bin",
)
def test_reads_rendered_scenes_above_floor(detector, tmp_path):
    from vision.training.synth import random_scene, write_yolo_sample
    from vision.training.synth.render import KDE_TILESETS

    rng = np.random.default_rng(11)
    for i in range(12):  # the KDE art the shipped model was trained with, unwarped
        scene = random_scene(rng, tileset=KDE_TILESETS[i % len(KDE_TILESETS)], perspective=0.0)
        write_yolo_sample(scene, tmp_path / "s", f"s{i}")
    res = evaluate(tmp_path / "s", lambda p: detector(p, conf=0.001))
    assert res.tiles > 100
    assert res.box_recall >= SYNTH_BOX_RECALL_FLOOR
    assert res.tile_accuracy >= SYNTH_TILE_ACCURACY_FLOOR


@pytest.mark.skipif(
    not (Path("/usr/share/kmahjongglib/tilesets/classic.svgz").exists() and shutil.which("rsvg-convert")),
    reason="needs kdegames-mahjongg-data-kf5 and librsvg2-bin",
)
def test_finds_and_mostly_reads_tiles_of_a_set_it_never_trained_on(detector, tmp_path):
    from vision.training.synth import random_scene, write_yolo_sample
    from vision.training.synth.render import HELD_OUT_TILESETS, TILESETS

    assert not set(HELD_OUT_TILESETS) & set(TILESETS)  # random training scenes never draw it
    rng = np.random.default_rng(31)
    for i in range(12):
        write_yolo_sample(random_scene(rng, tileset=HELD_OUT_TILESETS[0]), tmp_path / "c", f"c{i}")
    res = evaluate(tmp_path / "c", lambda p: detector(p, conf=0.001))
    assert res.tiles > 100
    assert res.box_recall >= HELD_OUT_BOX_RECALL_FLOOR  # the detector finds tiles of any set
    assert res.tile_accuracy >= HELD_OUT_TILE_ACCURACY_FLOOR  # the classifier reads most of an unseen design


def test_large_phone_photo_is_handled_quickly(detector):
    import time

    photo = np.random.default_rng(0).integers(0, 255, size=(3000, 4000, 3), dtype=np.uint8)  # 12 MP
    t0 = time.perf_counter()
    dets = detector(photo)
    assert time.perf_counter() - t0 < 5.0
    assert all(0 <= d.box[0] <= d.box[2] <= 4000 and 0 <= d.box[1] <= d.box[3] <= 3000 for d in dets)
