"""`jingsuan read PHOTO [--indicator TILE]` as a user runs it: the JSON of `vision.read_photo`, one line on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import vision
from app.cli import main


def test_jingsuan_read_prints_what_read_photo_reads(hand_photo: Path, capsys):
    assert main(["read", str(hand_photo), "--indicator", "9m"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(vision.read_photo(hand_photo, indicator="9m").round_part()))



def test_read_cli_on_a_non_image_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "hand.jpg"
    bad.write_text("not a photo")
    assert main(["read", str(bad)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.strip() == "这个文件不是可读的图片"


def test_read_cli_rejects_an_unknown_indicator(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", str(tmp_path / "missing.jpg"), "--indicator", "0x", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "unknown tile" in err and "Traceback" not in err



def test_read_cli_reads_under_the_preset_it_is_given(hand_photo: Path, monkeypatch, capsys) -> None:
    """`--rules nanchang` hands 南昌's options to the legal-round decoding; 兴国 is the default."""
    from scoring.chongguan import PRESETS

    seen = []
    real = vision.read_photo

    def spy(*args, **kwargs):
        seen.append(kwargs.get("options"))
        return real(*args, **kwargs)

    monkeypatch.setattr(vision, "read_photo", spy)
    assert main(["read", str(hand_photo), "--rules", "nanchang"]) == 0
    assert main(["read", str(hand_photo)]) == 0
    assert seen == [PRESETS["nanchang"], PRESETS["xingguo"]]


def test_read_cli_refuses_an_unknown_preset_in_one_line(hand_photo: Path, capsys) -> None:
    assert main(["read", str(hand_photo), "--rules", "beijing"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "未知的冲关规则：beijing"
