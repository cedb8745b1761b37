"""Letterbox geometry, box mapping back to the photo, image loading (EXIF, bad input)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from scoring.errors import JingsuanError
from vision.reader.image import DetectorError, boxes_to_image, letterbox, letterbox_geometry, load_image


def test_letterbox_keeps_aspect_and_centres_a_wide_photo():
    img = np.zeros((300, 1200, 3), dtype=np.uint8)
    canvas, geo = letterbox(img, 416)
    assert canvas.shape == (416, 416, 3)
    assert geo.scale == pytest.approx(416 / 1200)
    assert geo.pad_x == 0
    assert geo.pad_y == pytest.approx((416 - 104) / 2, abs=1)
    assert (canvas[0, 0] == 114).all() and (canvas[208, 208] == 0).all()


def test_boxes_map_back_to_photo_pixels():
    w, h = 4000, 3000
    geo = letterbox_geometry(w, h, 640)
    photo_box = np.array([[1000.0, 1200.0, 1300.0, 1600.0]])
    model_box = photo_box * geo.scale
    model_box[:, [0, 2]] += geo.pad_x
    model_box[:, [1, 3]] += geo.pad_y
    back = boxes_to_image(model_box, geo)
    np.testing.assert_allclose(back, photo_box, atol=1e-6)


def test_mapped_boxes_are_clipped_to_the_photo():
    geo = letterbox_geometry(100, 50, 100)
    back = boxes_to_image(np.array([[-10.0, -10.0, 120.0, 120.0]]), geo)
    assert back[0].tolist() == [0, 0, 100, 50]


def _jpeg_with_orientation(width: int, height: int, orientation: int) -> bytes:
    img = Image.new("RGB", (width, height), (255, 0, 0))
    img.paste((0, 0, 255), (0, 0, width // 2, height))  # left half blue
    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    img.save(buf, "JPEG", exif=exif)
    return buf.getvalue()


def test_exif_orientation_is_applied():
    data = _jpeg_with_orientation(200, 100, 6)  # 6 = rotate 90° clockwise to display
    arr = load_image(data)
    assert arr.shape[:2] == (200, 100)  # portrait after rotation
    assert arr[5, 50, 2] > 200 and arr[195, 50, 0] > 200  # blue on top, red at the bottom


@pytest.mark.parametrize("kind", ["path", "bytes", "pil", "array"])
def test_every_input_kind_gives_rgb(tmp_path, kind):
    img = Image.new("RGB", (64, 32), (10, 20, 30))
    path = tmp_path / "p.png"
    img.save(path)
    source = {"path": path, "bytes": path.read_bytes(), "pil": img, "array": np.asarray(img)}[kind]
    arr = load_image(source)
    assert arr.shape == (32, 64, 3) and arr.dtype == np.uint8
    assert arr[0, 0].tolist() == [10, 20, 30]


def test_not_an_image_gives_a_clear_bilingual_error(tmp_path):
    bad = tmp_path / "notes.jpg"
    bad.write_text("this is not a photo")
    with pytest.raises(DetectorError) as err:
        load_image(bad)
    assert isinstance(err.value, JingsuanError)
    assert "图片" in err.value.zh and "image" in err.value.en


def test_missing_file_is_reported(tmp_path):
    with pytest.raises(DetectorError, match="找不到"):
        load_image(tmp_path / "nope.jpg")


def test_truncated_jpeg_is_rejected():
    data = _jpeg_with_orientation(64, 64, 1)[:200]
    with pytest.raises(DetectorError):
        load_image(data)


def test_wrong_array_shape_is_rejected():
    with pytest.raises(DetectorError):
        load_image(np.zeros((10, 10, 7), dtype=np.uint8))


def test_a_16_bit_greyscale_png_reads_as_its_greys_not_white():
    grey = (np.arange(64 * 32, dtype=np.uint32).reshape(32, 64) * 32).astype(np.uint16)  # 0 … 65504
    buf = io.BytesIO()
    Image.fromarray(grey).save(buf, "PNG")
    arr = load_image(buf.getvalue())
    assert arr.shape == (32, 64, 3) and arr.dtype == np.uint8
    assert np.abs(arr[:, :, 0].astype(int) - np.rint(grey / 257.0)).max() <= 1
    assert (arr[:, :, 0] == arr[:, :, 2]).all()

