"""Photos handed over as NumPy arrays: uint8, 16-bit, float in 0–1 (skimage, matplotlib, torchvision) or 0–255, and broken floats."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import vision
from scoring.errors import JingsuanError
from vision.reader.image import DetectorError, load_image


def _rgb(photo: Path) -> np.ndarray:
    return cv2.cvtColor(cv2.imread(str(photo)), cv2.COLOR_BGR2RGB)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_float_photo_in_0_to_1_loads_as_its_pixels_not_black(hand_photo: Path, dtype):
    rgb = _rgb(hand_photo)
    loaded = load_image(rgb.astype(dtype) / 255.0)
    assert loaded.dtype == np.uint8
    assert np.array_equal(loaded, rgb)


def test_a_float_photo_in_0_to_255_loads_as_its_pixels(hand_photo: Path):
    rgb = _rgb(hand_photo)
    assert np.array_equal(load_image(rgb.astype(np.float32)), rgb)


def test_a_float_photo_in_0_to_1_reads_the_same_tiles_as_its_file(hand_photo: Path):
    as_float, as_file = vision.read_photo(_rgb(hand_photo).astype(np.float32) / 255.0), vision.read_photo(hand_photo)
    assert len(as_file.detections) >= 14  # the indicator and the hand: the photo was read at all
    assert [d.tile for d in as_float.detections] == [d.tile for d in as_file.detections]
    assert np.allclose([d.box for d in as_float.detections], [d.box for d in as_file.detections])


def test_a_grey_float_array_in_0_to_1_keeps_its_greys():
    grey = np.linspace(0.0, 1.0, 64 * 32).reshape(32, 64)
    arr = load_image(grey)
    assert arr.shape == (32, 64, 3)
    assert arr[0, 0].tolist() == [0, 0, 0] and arr[-1, -1].tolist() == [255, 255, 255]
    assert arr[16, 0, 0] == round(grey[16, 0] * 255)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_a_float_array_with_nan_or_inf_is_refused_in_both_languages(bad):
    arr = np.full((32, 64, 3), 0.5, dtype=np.float32)
    arr[3, 5, 1] = bad
    with pytest.raises(DetectorError) as err:
        load_image(arr)
    assert isinstance(err.value, JingsuanError)
    assert "NaN" in err.value.zh and "NaN" in err.value.en and "image array" in err.value.en



def test_a_16_bit_photo_loads_as_its_pixels_not_white(hand_photo: Path, tmp_path: Path):
    # a 16-bit PNG opened with IMREAD_UNCHANGED holds 0–65535: read as it is, every pixel clipped to white
    rgb = _rgb(hand_photo)
    png = tmp_path / "hand16.png"
    cv2.imwrite(str(png), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR).astype(np.uint16) * 257)
    deep = cv2.cvtColor(cv2.imread(str(png), cv2.IMREAD_UNCHANGED), cv2.COLOR_BGR2RGB)
    assert deep.dtype == np.uint16 and deep.max() > 255
    assert np.array_equal(load_image(deep), rgb)
    assert [d.tile for d in vision.read_photo(deep).detections] == [d.tile for d in vision.read_photo(hand_photo).detections]
