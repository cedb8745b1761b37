"""The second stage: crops cut from the full photo, turned upright, named by the crop classifier."""

from __future__ import annotations

import numpy as np

from vision.classifier import CROP_H, CROP_W, crop_tile, softmax, to_blob
from vision.detector import DEFAULT_CLASSIFIER, DEFAULT_MODEL, TileDetector, decode_yolo_output


def test_crop_is_the_box_grown_by_the_margin_and_resized() -> None:
    img = np.zeros((200, 300, 3), np.uint8)
    img[50:130, 100:160] = 255  # a 60 × 80 white tile
    crop = crop_tile(img, (100, 50, 160, 130), margin=0.0)
    assert crop.shape == (CROP_H, CROP_W, 3)
    assert crop.min() == 255  # exactly the tile, nothing around it
    grown = crop_tile(img, (100, 50, 160, 130), margin=0.2)
    assert grown[0, 0].max() == 0 and grown[CROP_H // 2, CROP_W // 2].min() == 255


def test_a_sideways_tile_is_stood_up() -> None:
    img = np.zeros((100, 200, 3), np.uint8)
    img[20:60, 20:100, 0] = 255  # 80 wide, 40 tall: a claimed tile lying down
    img[20:60, 20:40, 1] = 255  # its left end marked green
    crop = crop_tile(img, (20, 20, 100, 60), margin=0.0)
    assert crop.shape == (CROP_H, CROP_W, 3)
    assert crop[:8, :, 1].mean() > 200 and crop[-8:, :, 1].mean() < 50  # left end turned to the top


def test_a_box_outside_the_photo_gives_an_empty_crop() -> None:
    crop = crop_tile(np.full((50, 50, 3), 9, np.uint8), (80, 80, 120, 140))
    assert crop.shape == (CROP_H, CROP_W, 3) and crop.max() == 0


def test_blob_and_softmax() -> None:
    blob = to_blob(np.full((2, CROP_H, CROP_W, 3), 128, np.uint8))
    assert blob.shape == (2, 3, CROP_H, CROP_W) and abs(float(blob.mean())) < 0.02
    p = softmax(np.array([[0.0, 0.0], [10.0, 0.0]]))
    assert np.allclose(p.sum(axis=1), 1) and p[1, 0] > 0.99


def test_agnostic_box_score_sums_split_belief() -> None:
    out = np.zeros((1, 4 + 35, 2), np.float32)
    out[0, :4, 0] = [50, 50, 20, 30]
    out[0, 4 + 3, 0], out[0, 4 + 4, 0] = 0.2, 0.2  # torn between 4萬 and 5萬
    _, single, _ = decode_yolo_output(out, 0.3)
    boxes, agnostic, _ = decode_yolo_output(out, 0.3, agnostic_score=True)
    assert len(single) == 0 and len(agnostic) == 1 and abs(float(agnostic[0]) - 0.4) < 1e-6


def test_shipped_two_stage_detector_names_tiles_with_the_classifier() -> None:
    assert DEFAULT_CLASSIFIER.is_file(), "models/tile_classifier.onnx must be shipped"
    det = TileDetector(DEFAULT_MODEL)
    assert det.classifier is not None
    single = TileDetector(DEFAULT_MODEL, classifier=False)
    assert single.classifier is None
    from vision.synth import render_layout

    scene = render_layout([["1m", "5p", "9s", "7z", "back"]], tile_height=80, background=(40, 110, 60))
    probs = det.classifier(np.stack([crop_tile(scene.image, t.box) for t in scene.tiles]))  # type: ignore[misc]
    assert probs.shape == (5, 35)
    named = [det.classifier.classify(scene.image, [t.box])[0][0] for t in scene.tiles]  # type: ignore[union-attr]
    assert sum(n == t.tile for n, t in zip(named, scene.tiles)) >= 3, named
