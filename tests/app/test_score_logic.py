"""The 算分 page's round building without a browser: the draft, questions before refusals, a clean next round."""

from __future__ import annotations

import pytest

from app import score_logic as logic
from app.ledger import TableInfo
from app.score_logic import MissingAnswer, RoundDraft
from scoring.errors import RoundError

TABLE = TableInfo(1, "t", {s: s for s in "ESWN"}, "xingguo", {}, 1, "")
WIN = {"win_seat": "E", "win_tile": "5s", "indicator": "4z", "win_from": "self"}


def test_one_tap_replaces_the_selected_tile_and_clears_an_old_result() -> None:
    d = RoundDraft(hand=["1m", "2m"], result={"total": {}})
    d.tap_hand(1)
    d.tap_palette("5p")
    assert d.hand == ["1m", "5p"] and d.sel is None and d.result is None
    d.tap_palette("9s")
    assert d.hand == ["1m", "5p", "9s"]


def test_no_winning_tile_or_indicator_is_a_question_not_a_default() -> None:
    d = RoundDraft(hand=["1m", "2m", "3m"])
    with pytest.raises(MissingAnswer, match="翻精"):
        logic.build_round(d, {**WIN, "indicator": None}, TABLE)
    with pytest.raises(MissingAnswer, match="胡的那张牌"):
        logic.build_round(d, {**WIN, "win_tile": None}, TABLE)
    assert logic.build_round(d, {"win_seat": "none", "indicator": "4z"}, TABLE)["win"] is None


def test_a_peng_without_its_discarder_asks_whose_it_was() -> None:
    d = RoundDraft(melds=[{"seat": "winner", "photo": True, "type": "peng", "tiles": "777p", "from": None}])
    with pytest.raises(MissingAnswer, match="碰 七筒七筒七筒 是谁打出的牌"):
        logic.build_round(d, WIN, TABLE)
    d.set_meld_source(0, "W")
    assert logic.build_round(d, WIN, TABLE)["players"]["E"]["melds"] == [{"type": "peng", "tiles": "777p", "from": "W"}]


def test_a_typed_meld_of_the_wrong_size_is_refused_in_chinese_and_english() -> None:
    d = RoundDraft(hand=["3m", "4m", "5m"])
    with pytest.raises(RoundError) as err:
        logic.add_meld(d, "E", "chi", "34m", "N", False)
    assert err.value.zh == "牌写得不对：吃要 3 张牌" and "chow needs 3" in err.value.en
    logic.add_meld(d, "E", "chi", "345m", "N", True)
    assert d.hand == [] and d.melds == [{"seat": "E", "type": "chi", "tiles": "345m", "from": "N", "claimed": "4m"}]


def test_the_next_round_is_clean_and_renews_the_uploader() -> None:
    d = RoundDraft(hand=["1m"], melds=[{"seat": "E", "type": "angang", "tiles": "9999s"}], photo_key="a:1", upload_gen=2)
    new = d.next_round()
    assert new.hand == [] and new.melds == [] and new.photo_key is None
    assert new.upload_key != d.upload_key
    entries = {"win_tile": "5s", "jz_S": 2, "follow": 1, "dealer": "S", "other": 1}
    logic.clear_entries(entries)
    assert entries["win_tile"] is None and entries["jz_S"] == 0 and entries["follow"] == 0  # shown empty, not kept
    assert "dealer" not in entries and entries["other"] == 1  # the next dealer is proposed again


def test_a_stored_round_comes_back_as_draft_and_widget_values() -> None:
    doc = {"dealer": "S", "indicator": "4z", "follow_dealer": 1,
           "players": {"W": {"hand": "123m5s"}, "E": {"jing": {"zheng": 1, "fu": 0}}},
           "win": {"seat": "W", "tile": "5s", "from": "N"}}
    d, entries = logic.load_round(doc, 7)
    assert d.editing_round == 7 and d.hand == ["1m", "2m", "3m", "5s"]
    assert (entries["win_seat"], entries["win_tile"], entries["win_from"], entries["jz_E"], entries["follow"]) == ("W", "5s", "N", 1, 1)


def test_false_win_counts_the_would_be_winners_jing() -> None:
    doc = logic.build_round(RoundDraft(hand=["1z", "1z", "1m"]), {**WIN, "indicator": "4z"}, TABLE)
    out = logic.false_win_round(doc)
    assert out["win"] is None and out["false_win"] == ["E"] and sum(out["players"]["E"]["jing"].values()) == 2


@pytest.mark.parametrize("msg", ["这手牌不能胡：组不成平胡", "不能胡：组不成平胡", "组不成平胡"])
def test_cannot_win_is_said_once(msg: str) -> None:
    assert logic.refusal_text(msg) == "这手牌不能胡：组不成平胡"


def test_a_photo_is_read_under_the_tables_preset_and_its_overrides() -> None:
    """The legal-round reading of a photo judges wins by the table's rules, not always by 兴国."""
    from scoring.chongguan import PRESETS

    nanchang = TableInfo(1, "t", {}, "nanchang", {"jing_claim": "chow_only"}, 1, "")
    options = logic.table_options(nanchang)
    assert options.jing_claim == "chow_only"
    assert options.allow_ron_pinghu_with_jing == PRESETS["nanchang"].allow_ron_pinghu_with_jing
    assert logic.table_options(TableInfo(1, "t", {}, "gb", {}, 1, "")) is None  # 国标: no 冲关 options
    assert logic.table_options(TableInfo(1, "t", {}, "xingguo", {"no_such_option": 1}, 1, "")) is None


def test_the_score_page_reads_the_photo_with_the_tables_options(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision
    from app.views import score
    from scoring.chongguan import PRESETS

    seen = []

    def fake_read(data, options=None):  # noqa: ANN001, ANN202
        seen.append(options)
        raise vision.reader.image.DetectorError("这个文件不是可读的图片", "not an image")

    monkeypatch.setattr(vision, "read_photo", fake_read)
    reading = score.read_photo(b"x", PRESETS["yongfeng"])
    assert seen == [PRESETS["yongfeng"]] and "不是可读的图片" in reading.message
