"""`jingsuan detect PHOTO [--out FILE]` as a user runs it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from app.cli import main
from vision.reader.detector import DEFAULT_MODEL


@pytest.fixture(autouse=True)
def _shipped_model() -> None:
    assert DEFAULT_MODEL.is_file(), "models/tiles.onnx must be shipped"


def test_detect_prints_tiles_and_writes_annotated_photo(tmp_path, capsys):
    photo = tmp_path / "hand.jpg"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 120, np.uint8))
    out = tmp_path / "boxes.png"
    assert main(["detect", str(photo), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "张牌" in text
    img = cv2.imread(str(out))
    assert img is not None and img.shape == (480, 640, 3)


def test_detect_on_a_non_image_says_so(tmp_path, capsys):
    bad = tmp_path / "x.jpg"
    bad.write_text("hello")
    assert main(["detect", str(bad)]) == 2
    assert "不是可读的图片" in capsys.readouterr().err


def test_detect_english_messages(tmp_path, capsys):
    assert main(["detect", str(tmp_path / "missing.jpg"), "--lang", "en"]) == 2
    assert "not found" in capsys.readouterr().err


def test_an_out_file_no_photo_format_fits_is_refused_before_the_photo_is_read(tmp_path, capsys):
    photo = tmp_path / "hand.jpg"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 120, np.uint8))
    out = tmp_path / "boxes.txt"
    assert main(["detect", str(photo), "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert "不能把照片存成 .txt：请用 .jpg 或 .png" in captured.err and "张牌" not in captured.out and not out.exists()


@pytest.mark.parametrize("command", ["detect", "read"])
@pytest.mark.parametrize("conf", ["-1", "2", "0", "nan", "half"])
def test_a_confidence_threshold_outside_0_to_1_is_refused_with_its_value(tmp_path, capsys, command, conf):
    photo = tmp_path / "hand.jpg"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 120, np.uint8))
    with pytest.raises(SystemExit) as exit_:
        main([command, str(photo), "--conf", conf])
    assert exit_.value.code == 2
    assert f"置信度阈值应大于 0、不超过 1：{conf}" in capsys.readouterr().err
