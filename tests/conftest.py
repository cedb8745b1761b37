"""Fixtures shared by the folders of the suite."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

#: The photo of `hand_photo`: the 精 indicator alone in a row, then the hand with its winning tile set apart.
PHOTO_ROWS = [[["9m"]], [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "5z"], ["3m"]]]


@pytest.fixture(scope="session")
def hand_photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rendered photo of a hand: 翻精 九万 above, 123m 456p 789s 11z 55z and a drawn 三万 (no win as drawn; won
    on 東 it is). Skips where the tile art is not installed."""
    from vision.training.synth import TileArtError, render_layout

    try:
        scene = render_layout(PHOTO_ROWS, tile_height=80, background=(40, 110, 60))
    except TileArtError as exc:
        pytest.skip(f"no tile art: {exc}")
    path = tmp_path_factory.mktemp("photo") / "hand.png"
    cv2.imwrite(str(path), cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR))
    return path


def write_yolo_split(root: Path, names: list[str]) -> Path:
    """A YOLO split at `root` with one small grey photo per name, photo i labelled class i."""
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    for i, name in enumerate(names):
        cv2.imwrite(str(root / "images" / f"{name}.jpg"), np.full((60, 80, 3), 30 * i, np.uint8))
        (root / "labels" / f"{name}.txt").write_text(f"{i} 0.5 0.5 0.2 0.3\n")
    return root


@pytest.fixture
def yolo_split() -> Callable[[Path, list[str]], Path]:
    """`write_yolo_split`, for tests that need a small labelled split."""
    return write_yolo_split


def write_tiny_classifier(path: Path, seed: int) -> Path:
    """A crop classifier as the reader opens it (input `crops`, outputs `logits` and `embedding`, class names in
    its metadata): mean colour per channel → a random linear layer."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    from vision.reader.classifier import CLASSIFIER_NAMES, CROP_H, CROP_W

    rng = np.random.default_rng(seed)
    weight = rng.normal(size=(3, len(CLASSIFIER_NAMES))).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("GlobalAveragePool", ["crops"], ["pooled"], name="pool"),
         helper.make_node("Flatten", ["pooled"], ["embedding"], name="flat"),
         helper.make_node("MatMul", ["embedding", "weight"], ["logits"], name="head")],
        "tiny", [helper.make_tensor_value_info("crops", TensorProto.FLOAT, [None, 3, CROP_H, CROP_W])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [None, len(CLASSIFIER_NAMES)]),
         helper.make_tensor_value_info("embedding", TensorProto.FLOAT, [None, 3])],
        initializer=[numpy_helper.from_array(weight, "weight")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    entry = model.metadata_props.add()
    entry.key, entry.value = "names", ",".join(CLASSIFIER_NAMES)
    onnx.save(model, str(path))
    return path


@pytest.fixture
def tiny_classifier() -> Callable[[Path, int], Path]:
    """`write_tiny_classifier`: a crop classifier small enough to build in a test (needs the `onnx` package)."""
    pytest.importorskip("onnx")
    return write_tiny_classifier
