"""The photo side of 算分: detections become a proposed hand."""

from __future__ import annotations

import importlib.util

from app.ledger import TableInfo
from app.score_logic import WINNER, RoundDraft, apply_reading, build_round
from app.views.score import (
    PhotoReading,
    proposed_hand,
    read_photo,
)
from vision.reader.detection import Detection

DETS = [
    Detection(box=(200, 10, 240, 60), tile="3m", conf=0.95),
    Detection(box=(10, 10, 50, 60), tile="1m", conf=0.90),
    Detection(box=(100, 10, 140, 60), tile="2m", conf=0.30),
    Detection(box=(300, 10, 340, 60), tile="back", conf=0.99),
]


def test_face_up_tiles_left_to_right_make_the_proposed_hand() -> None:
    if importlib.util.find_spec("vision.reader.layout") is None:
        assert proposed_hand(DETS) == ["1m", "2m", "3m"]  # backs are left out
    else:
        assert set(proposed_hand(DETS)) <= {"1m", "2m", "3m"}


def test_an_unreadable_photo_is_a_message_not_a_crash() -> None:
    reading = read_photo(b"this is not an image")
    assert reading.message and not reading.hand


def _reading_with_melds() -> PhotoReading:
    from vision.reader.layout import Assignment

    result = Assignment(
        hand=["5s"], win_tile="5s", indicator="4z",
        melds=[{"type": "peng", "tiles": "777p", "claimed": "7p"},
               {"type": "chi", "tiles": "345m", "claimed": "4m"},
               {"type": "angang", "tiles": "9999s"},
               {"type": "angang", "tiles": None}],  # a concealed kong whose kind did not show
    )
    return PhotoReading(hand=result.winner_tiles(), assignment=result)


def test_the_photo_melds_go_to_the_meld_list_as_the_winners_and_replace_an_earlier_photos() -> None:
    d = RoundDraft(melds=[{"seat": "S", "type": "peng", "tiles": "111z", "from": "E"}])
    apply_reading(d, _reading_with_melds())
    entries = apply_reading(d, _reading_with_melds())  # the same photo read twice: its melds are not doubled
    assert d.hand == ["5s"] and entries == {"win_tile": "5s", "indicator": "4z"}
    assert d.melds == [
        {"seat": "S", "type": "peng", "tiles": "111z", "from": "E"},  # typed in by hand: kept
        {"seat": WINNER, "photo": True, "type": "peng", "tiles": "777p", "from": None},
        {"seat": WINNER, "photo": True, "type": "chi", "tiles": "345m", "claimed": "4m", "from": None},
        {"seat": WINNER, "photo": True, "type": "angang", "tiles": "9999s"},
    ]


def test_photo_melds_become_the_winners_in_the_round_and_a_chi_is_from_the_previous_seat() -> None:
    d = RoundDraft()
    entries = {"win_seat": "S", "win_from": "self", **apply_reading(d, _reading_with_melds())}
    d.melds[0]["from"] = "W"  # the player says who gave the 碰
    table = TableInfo(1, "t", {s: s for s in "ESWN"}, "xingguo", {}, 1, "")
    doc = build_round(d, entries, table)
    assert doc["players"]["S"]["melds"] == [
        {"type": "peng", "tiles": "777p", "from": "W"},
        {"type": "chi", "tiles": "345m", "claimed": "4m", "from": "E"},  # 上家 of 南 is 东
        {"type": "angang", "tiles": "9999s"},
    ]
    assert all("melds" not in doc["players"][s] for s in "EWN")
    entries["win_seat"] = "none"  # a draw: the photo's melds are nobody's
    assert all("melds" not in p for p in build_round(d, entries, table)["players"].values())
