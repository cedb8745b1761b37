"""Each seat's 精 from its photo: 正精 and 副精 counted against the indicator, with questions to check."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.seat_jing import count_jing, jing_marks, seat_jing


@dataclass(frozen=True)
class Det:
    tile: str
    conf: float = 0.9


def dets(codes: str, conf: float = 0.9) -> list[Det]:
    return [Det(c, conf) for c in codes.split()]


def test_flip_one_wan_two_one_wan_are_zhengjing_and_the_two_wan_is_fujing() -> None:
    assert count_jing(["1m", "1m", "2m", "3m", "9m"], "1m") == {"zheng": 2, "fu": 1}


def test_nine_wraps_to_one_in_its_suit() -> None:
    assert count_jing(["9p", "1p", "1m", "1s"], "9p") == {"zheng": 1, "fu": 1}


def test_north_wraps_to_east() -> None:
    assert count_jing(["4z", "1z", "1z", "2z"], "4z") == {"zheng": 1, "fu": 2}


@pytest.mark.parametrize(
    ("indicator", "fu"),
    [("7z", "6z"), ("6z", "5z"), ("5z", "7z")],  # dragons go 中→发→白→中, not in code order
)
def test_dragons_cycle_zhong_fa_bai(indicator: str, fu: str) -> None:
    codes = ["5z", "6z", "7z", "7z", "6z", "5z", fu]
    assert count_jing(codes, indicator) == {"zheng": 2, "fu": 3}


def test_each_tile_is_marked_for_the_photo() -> None:
    assert jing_marks(["5p", "6p", "back", "7p"], "5p") == ["zheng", "fu", None, None]


def test_a_seats_photo_counts_its_jing_with_nothing_to_ask() -> None:
    reading = seat_jing(dets("3s 3s 4s 4s 4s 1z 1z 1z 7m 8m 9m 5z 5z"), "3s")
    assert reading.counts() == {"zheng": 2, "fu": 3}
    assert reading.questions == []


def test_no_tiles_found_asks_to_retake_or_type() -> None:
    reading = seat_jing([], "1m")
    assert reading.counts() == {"zheng": 0, "fu": 0}
    assert [q["code"] for q in reading.questions] == ["no_tiles"]
    assert "填写" in reading.questions[0]["zh"]


def test_unsure_tiles_are_named_and_the_jing_to_check_said() -> None:
    reading = seat_jing([*dets("2m 2m 3m"), Det("2m", 0.3)], "2m")
    assert reading.counts() == {"zheng": 3, "fu": 1}
    (q,) = reading.questions
    assert q["code"] == "unsure" and "二万" in q["zh"] and "正精 二万" in q["zh"] and "副精 三万" in q["zh"]


def test_face_down_tiles_are_asked_about() -> None:
    reading = seat_jing(dets("back back back back 5m"), "5m")
    assert reading.counts() == {"zheng": 1, "fu": 0}
    assert [q["code"] for q in reading.questions] == ["backs"] and "4 张" in reading.questions[0]["zh"]


def test_a_fifth_copy_means_other_tiles_in_the_photo() -> None:
    reading = seat_jing(dets("6s 6s 6s 6s 6s"), "6s")
    assert [q["code"] for q in reading.questions] == ["fifth_copy"] and "六条" in reading.questions[0]["zh"]


def test_a_photo_that_cannot_be_read_says_why_and_leaves_typing() -> None:
    from app.seat_jing import read_seat_photo
    from scoring.errors import JingsuanError

    def broken(data: bytes) -> list[Det]:
        raise JingsuanError("照片打不开", "cannot open the photo")

    reading, detections = read_seat_photo(b"x", "1m", detect=broken)
    assert detections == [] and reading.counts() == {"zheng": 0, "fu": 0}
    assert reading.questions[0]["code"] == "detect_failed" and "照片打不开" in reading.questions[0]["zh"]


def test_a_seat_photo_is_read_with_the_given_detector() -> None:
    from app.seat_jing import read_seat_photo

    reading, detections = read_seat_photo(b"x", "8p", detect=lambda data: dets("8p 9p 9p 1p"))
    assert reading.counts() == {"zheng": 1, "fu": 2} and len(detections) == 4


def test_a_seat_photo_is_read_with_the_model_folder_the_app_was_given(tmp_path, monkeypatch, hand_photo) -> None:
    from app.seat_jing import read_seat_photo

    monkeypatch.setenv("JINGSUAN_MODEL_DIR", str(tmp_path / "no-models"))  # jingsuan app --models DIR
    reading, boxes = read_seat_photo(hand_photo.read_bytes(), "9m")
    assert boxes == [] and [q["code"] for q in reading.questions] == ["detect_failed"]
    assert "no-models" in reading.questions[0]["en"]  # the folder named, not the shipped models
