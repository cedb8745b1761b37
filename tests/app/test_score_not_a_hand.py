"""A photo that is not one winning hand (a heap of 49 tiles, 5 tiles) read on 算分 gives ONE clear message
saying what was found, not a wall of the reader's questions; the tiles read stay editable."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image
from streamlit.testing.v1 import AppTest

from app.score_logic import DRAFT_KEY, not_a_hand
from tests.app.apptest import MAIN
from vision.reader.detection import Detection

QUESTIONS = [
    {"code": "win_tile", "zh": "胡的是哪一张？请点选", "en": "which tile won?"},
    {"code": "low_confidence", "zh": "这几张牌认得不确定，请核对：五筒", "en": "unsure tiles"},
    {"code": "count", "zh": "牌数不对：应为 14 张", "en": "wrong count"},
]


def photo_of(n: int, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The 算分 page after a photo in which the reader found `n` tiles (and asked its questions)."""
    from app.views import score

    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "2z", "3z", "5z", "6z"]
    dets = [Detection((40.0 * i, 10.0 + 60 * (i // 14), 40.0 * i + 36, 60.0 + 60 * (i // 14)), codes[i % 14], 0.9) for i in range(n)]
    hand = [d.tile for d in dets[:14]]
    reading = score.PhotoReading(detections=dets, hand=hand, assignment=SimpleNamespace(questions=QUESTIONS, melds=[]))
    return page_after(reading, monkeypatch)


def page_after(reading: object, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The 算分 page after a photo the reader read as `reading`."""
    from app.views import score

    monkeypatch.setattr(score, "read_photo", lambda data, options=None, **kw: reading)
    buf = io.BytesIO()
    Image.new("RGB", (600, 260), (30, 90, 30)).save(buf, "PNG")
    at = AppTest.from_file(MAIN, default_timeout=30).run()
    at.file_uploader(key=at.session_state[DRAFT_KEY].upload_key).set_value(("photo.png", buf.getvalue(), "image/png")).run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize(("n", "said"), [(49, "照片里有 49 张牌，不像一手胡牌（应为 14 张左右）"), (5, "照片里有 5 张牌，不像一手胡牌")])
def test_a_heap_or_a_few_tiles_is_one_clear_message_and_the_tiles_stay_editable(data_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                                                                n: int, said: str) -> None:
    at = photo_of(n, monkeypatch)
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 1 and said in warnings[0], warnings  # one message, no wall of questions
    assert not [b for b in at.button if b.key and b.key.startswith("question_done")]
    hand = at.session_state[DRAFT_KEY].hand
    assert hand  # what was read is on the page …
    at.button(key="hand_0").click().run()
    at.button(key="pal_9p").click().run()
    assert at.session_state[DRAFT_KEY].hand[0] == "9p"  # … and can be changed by taps


def test_a_photo_of_one_hand_still_asks_the_readers_questions(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = photo_of(14, monkeypatch)
    shown = " ".join(w.value for w in at.warning)
    assert "不像一手胡牌" not in shown and "胡的是哪一张" in shown and "认得不确定" in shown


def test_the_tile_counts_of_one_hand() -> None:
    assert not_a_hand(14) is None and not_a_hand(18) is None and not_a_hand(19) is None  # four kongs and the 精
    assert not_a_hand(12) is None  # a couple the reader missed
    assert not_a_hand(0) is None  # nothing read: the reader says so itself
    assert "40 tiles" in not_a_hand(40, "en") and "照片里有 40 张牌" in not_a_hand(40)


def test_boxes_the_layout_left_out_do_not_make_one_hand_a_heap(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A photo of one hand on a table with a tile wall behind it: the reader looked at 21 boxes, 6 of them weak ones on
    the wall that the round did not take in, and read a whole round of 15 tiles (composed tuning photo
    s55_tuning_one_row_084). It is one hand: its question about the tile changed to make the win is asked, not hidden
    behind '照片里有 21 张牌，不像一手胡牌'."""
    from app.views import score
    from vision.reader.layout import assign

    hand = ["6p", "8p", "2s", "3s", "4s", "5s", "6s", "7s", "7s", "7s", "4z", "4z", "4z"]
    round_dets = [Detection((40.0 * i, 100.0, 40.0 * i + 36, 150.0), c, 0.9, ((c, 0.97),)) for i, c in enumerate(hand)]
    round_dets += [Detection((40.0 * 14, 100.0, 40.0 * 14 + 36, 150.0), "7p", 0.9, (("7p", 0.97),)),
                   Detection((200.0, 20.0, 236.0, 70.0), "3p", 0.9, (("3p", 0.97),))]
    wall = [Detection((40.0 * i, 200.0, 40.0 * i + 36, 250.0), "5z", 0.12, (("5z", 0.5),)) for i in range(6)]
    result = assign(round_dets)
    assert len(result.tiles) == 15 and result.win_tile == "7p"
    asked = {"code": "legal_fix", "zh": "读成了四条，按胡牌应是五条？", "en": "read as 4s; only 5s makes the hand a win: is it 5s?"}
    result.questions.append(asked)
    at = page_after(score.PhotoReading(detections=[*round_dets, *wall], hand=[*hand, "7p"], assignment=result), monkeypatch)
    shown = " ".join(w.value for w in at.warning)
    assert "不像一手胡牌" not in shown and "按胡牌应是五条" in shown, shown
