"""A 1-epoch offline training run on a few synthetic scenes, ONNX export, and a detection with it."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml

pytest.importorskip("ultralytics")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (Path("/usr/share/kmahjongglib/tilesets/default.svgz").exists() and shutil.which("rsvg-convert")),
        reason="needs kdegames-mahjongg-data-kf5 and librsvg2-bin (scripts/install_test_system_deps.sh)",
    ),
]


def test_one_epoch_train_export_and_detect(tmp_path, monkeypatch):
    from vision.reader.detection import CLASS_NAMES, Detection
    from vision.reader.detector import TileDetector
    from vision.training.detector import TrainConfig, export_onnx, train
    from vision.training.synth import random_scene, write_yolo_sample

    monkeypatch.setenv("YOLO_OFFLINE", "1")
    rng = np.random.default_rng(7)
    for split, n in (("train", 6), ("valid", 2)):
        for i in range(n):
            write_yolo_sample(random_scene(rng, tile_height=40), tmp_path / "data" / split, f"s{i}")
    data = tmp_path / "data" / "data.yaml"
    data.write_text(
        yaml.safe_dump(
            {"path": str(tmp_path / "data"), "train": "train/images", "val": "valid/images", "names": dict(enumerate(CLASS_NAMES))}
        )
    )
    run_dir = train(
        TrainConfig(
            data=str(data), imgsz=64, epochs=1, batch=2, workers=0, project=str(tmp_path / "runs"), name="smoke",
            close_mosaic=0,
        )
    )
    best = run_dir / "weights" / "best.pt"
    assert best.exists()
    beside = best.with_suffix(".onnx")
    beside.write_bytes(b"the model the app ships")  # e.g. models/tiles.onnx next to models/tiles.pt
    onnx_path = export_onnx(best, tmp_path / "smoke.onnx", imgsz=64)
    assert onnx_path.stat().st_size > 100_000
    assert beside.read_bytes() == b"the model the app ships", "export must not overwrite the ONNX beside the weights"
    det = TileDetector(onnx_path)
    assert det.imgsz == 64 and det.names == CLASS_NAMES
    img = tmp_path / "data" / "valid" / "images" / "s0.jpg"
    found = det(img, conf=0.0001)
    assert all(isinstance(d, Detection) and d.tile in CLASS_NAMES for d in found)
    assert all(0 <= d.box[0] < d.box[2] and 0 <= d.box[1] < d.box[3] for d in found)
