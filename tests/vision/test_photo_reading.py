"""`vision.read_photo` (the one photo pipeline) and `models_dir` (the one model-folder lookup)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import vision
from scoring.errors import JingsuanError
from vision.reader.session import CHECKOUT_MODELS, MODEL_DIR_ENV, models_dir, shipped_models_dir


def test_the_model_folder_is_the_argument_then_the_environment_then_the_shipped_one(monkeypatch, tmp_path):
    monkeypatch.delenv(MODEL_DIR_ENV, raising=False)
    assert models_dir() == shipped_models_dir() == CHECKOUT_MODELS  # a checkout: models/ beside vision/
    assert (models_dir() / "tiles.onnx").is_file()
    monkeypatch.setenv(MODEL_DIR_ENV, str(tmp_path / "env"))
    assert models_dir() == tmp_path / "env"
    assert models_dir(tmp_path / "arg") == tmp_path / "arg"


def test_a_photo_reads_into_tiles_layout_and_questions(hand_photo: Path):
    reading = vision.read_photo(hand_photo, indicator="九万")
    assert reading.image_size == (cv2.imread(str(hand_photo)).shape[1], cv2.imread(str(hand_photo)).shape[0])
    assert len(reading.detections) >= 12
    part = reading.round_part()
    assert part["indicator"] == "9m" and part["questions"] == reading.questions
    assert len(reading.assignment.winner_tiles()) >= 12


def test_another_model_folder_from_the_environment_is_used_and_named_when_missing(monkeypatch, tmp_path, hand_photo):
    monkeypatch.setenv(MODEL_DIR_ENV, str(tmp_path))
    with pytest.raises(JingsuanError) as err:
        vision.read_photo(hand_photo)
    assert str(tmp_path / "tiles.onnx") in err.value.en


def test_a_bad_indicator_fails_before_the_photo_is_read(tmp_path):
    with pytest.raises(JingsuanError) as err:
        vision.read_photo(tmp_path / "missing.jpg", indicator="0x")
    assert "unknown tile" in err.value.en


def test_an_array_reads_like_its_file(hand_photo: Path):
    rgb = cv2.cvtColor(cv2.imread(str(hand_photo)), cv2.COLOR_BGR2RGB)
    a, b = vision.read_photo(rgb), vision.read_photo(hand_photo)
    assert [d.tile for d in a.detections] == [d.tile for d in b.detections]
    assert np.allclose([d.box for d in a.detections], [d.box for d in b.detections])
