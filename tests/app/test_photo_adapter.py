"""The photo side of 算分: detections become a proposed hand, boxes are drawn, uncertain tiles flagged."""

from __future__ import annotations

import importlib.util
import io

from PIL import Image

from app.views.score import LOW_CONFIDENCE, draw_boxes, low_confidence_tiles, proposed_hand, read_photo
from vision.detection import Detection

DETS = [
    Detection(box=(200, 10, 240, 60), tile="3m", conf=0.95),
    Detection(box=(10, 10, 50, 60), tile="1m", conf=0.90),
    Detection(box=(100, 10, 140, 60), tile="2m", conf=0.30),
    Detection(box=(300, 10, 340, 60), tile="back", conf=0.99),
]


def test_face_up_tiles_left_to_right_make_the_proposed_hand() -> None:
    if importlib.util.find_spec("vision.assign") is None:
        assert proposed_hand(DETS) == ["1m", "2m", "3m"]  # backs are left out
    else:
        assert set(proposed_hand(DETS)) <= {"1m", "2m", "3m"}


def test_uncertain_tiles_are_listed_for_checking() -> None:
    assert low_confidence_tiles(DETS) == ["二万?0.30"]
    assert all(d.conf >= LOW_CONFIDENCE for d in DETS if d.tile != "2m")


def test_boxes_are_drawn_on_the_photo_and_low_confidence_in_red() -> None:
    buf = io.BytesIO()
    Image.new("RGB", (400, 100), "white").save(buf, "PNG")
    img = draw_boxes(buf.getvalue(), DETS)
    assert img.size == (400, 100)
    assert img.getpixel((100, 35)) == (255, 0, 0)  # left edge of the uncertain 二万 box
    assert img.getpixel((10, 35)) == (0, 255, 0)


def test_an_unreadable_photo_is_a_message_not_a_crash() -> None:
    reading = read_photo(b"this is not an image")
    assert reading.message and not reading.hand
