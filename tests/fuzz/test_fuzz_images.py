"""Malformed photos: refused (DetectorError, one line, exit 2) before decoding when the header says so; never a crash."""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.errors import JingsuanError

FUZZ = settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def png_header(width: int, height: int, body: bytes = b"") -> bytes:
    """A PNG whose IHDR claims width×height (the pixel data is whatever `body` is)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(body)) + chunk(b"IEND", b"")


def encoded(width: int, height: int, ext: str) -> bytes:
    import cv2

    ok, buf = cv2.imencode(ext, np.full((height, width, 3), 80, np.uint8))
    assert ok
    return buf.tobytes()


SIDES = st.integers(1, 3000) | st.sampled_from([1, 2, 15, 16, 17, 40000, 65535, 100000, 2**31 - 1])
PHOTOS = st.one_of(
    st.binary(max_size=300),
    st.builds(png_header, SIDES, SIDES, st.binary(max_size=64)),
    st.builds(encoded, st.integers(1, 64) | st.sampled_from([1, 2, 3000]), st.integers(1, 64) | st.just(2),
              st.sampled_from([".png", ".jpg", ".bmp"])),
    st.builds(lambda data, cut: data[:cut], st.builds(encoded, st.just(48), st.just(40), st.just(".jpg")),
              st.integers(0, 600)),
)  # fmt: skip


@FUZZ
@given(data=PHOTOS)
def test_any_bytes_load_and_letterbox_or_are_refused(data: bytes) -> None:
    from vision.reader.image import MAX_PIXELS, letterbox, load_image

    try:
        image = load_image(data)
    except JingsuanError as exc:
        assert exc.zh and exc.en
        return
    h, w = image.shape[:2]
    assert h * w <= MAX_PIXELS and image.dtype == np.uint8
    canvas, geo = letterbox(image, 640)
    assert canvas.shape == (640, 640, 3) and geo.scale > 0


@FUZZ
@given(shape=st.tuples(st.integers(1, 50), st.integers(1, 50)) | st.sampled_from([(1, 40000), (40000, 1), (2, 3000)]))
def test_any_array_shape_loads_or_is_refused(shape: tuple[int, int]) -> None:
    from vision.reader.image import letterbox, load_image

    try:
        image = load_image(np.zeros((*shape, 3), np.uint8))
    except JingsuanError:
        return
    assert letterbox(image, 320)[0].shape == (320, 320, 3)


@pytest.mark.parametrize(("width", "height"), [(40000, 1), (1, 40000), (3000, 2)])
def test_degenerate_photos_are_refused_by_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], width: int, height: int
) -> None:
    from app.cli import main

    photo = tmp_path / "thin.png"
    photo.write_bytes(encoded(width, height, ".png"))
    for command in ("detect", "read"):
        assert main([command, str(photo)]) == 2
        out, err = capsys.readouterr()
        assert err.count("\n") == 1 and "Traceback" not in err


def test_a_huge_photo_is_refused_from_its_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """9000×9000 claims 81 MP: refused without decoding (the body here is too short to decode at all)."""
    from app.cli import main

    photo = tmp_path / "huge.png"
    photo.write_bytes(png_header(9000, 9000, b"\0" * 100))
    assert main(["detect", str(photo)]) == 2
    assert "9000" in capsys.readouterr().err


def test_a_fifo_or_a_device_is_never_opened(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main

    fifo = tmp_path / "x.jpg"
    os.mkfifo(fifo)  # opening it would hang the test
    for target in (str(fifo), "/dev/zero"):
        assert main(["read", target]) == 2
        assert "Traceback" not in capsys.readouterr().err
