"""AppTest flows of each page: 算分 (manual tiles, a refused hand, a settled hand), 牌局 (edit/undo), 规则, access."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app.ledger import Ledger
from app.score_logic import DRAFT_KEY, RoundDraft
from scoring.settlement import SEATS, Settlement
from tests.app.apptest import MAIN, open_page


def app() -> AppTest:
    return AppTest.from_file(MAIN, default_timeout=30).run()


def draft(at: AppTest) -> RoundDraft:
    """The 算分 page's round being entered."""
    return at.session_state[DRAFT_KEY]


def tap(at: AppTest, codes: str) -> AppTest:
    """Tap palette tiles, e.g. '1m 1m 2p'."""
    for code in codes.split():
        at.button(key=f"pal_{code}").click().run()
    return at


def texts(at: AppTest) -> str:
    parts = [e.value for e in at.error] + [e.value for e in at.warning] + [e.value for e in at.success]
    parts += [e.value for e in at.markdown] + [e.value for e in at.caption]
    return "\n".join(str(p) for p in parts)


def test_score_page_starts_in_chinese_with_the_34_tile_palette(data_dir: Path) -> None:
    at = app()
    assert not at.exception
    assert at.title[0].value == "算分"
    labels = {b.label for b in at.button if b.key and b.key.startswith("pal_")}
    assert len(labels) == 34 and {"一万", "九条", "东", "白", "中"} <= labels


def test_one_tap_fixes_a_tile_and_tiles_can_be_added_and_removed(data_dir: Path) -> None:
    at = tap(app(), "1m 2m 3m")
    assert draft(at).hand == ["1m", "2m", "3m"]
    at.button(key="hand_1").click().run()  # select 二万
    at.button(key="pal_5p").click().run()  # one tap replaces it by 五筒
    assert draft(at).hand == ["1m", "5p", "3m"]
    at.button(key="hand_0").click().run()
    at.button(key="remove_sel").click().run()
    assert draft(at).hand == ["5p", "3m"]
    assert "手牌 2 张" in texts(at)


def add_meld(at: AppTest, kind: str, tiles: str, taken_from: str | None = None, from_hand: bool = False) -> AppTest:
    """Fill the meld form (kind, tiles, whom it was taken from, whether its tiles leave the hand) and tap 加上这组."""
    at.selectbox(key="m_type").set_value(kind)
    at.text_input(key="m_tiles").input(tiles)
    if taken_from is not None:
        at.selectbox(key="m_from").set_value(taken_from)
    if from_hand:
        at.checkbox(key="m_from_hand").check()
    return at.button[[b.label for b in at.button].index("加上这组")].click().run()


def test_a_meld_taken_from_the_hand_leaves_the_concealed_tiles(data_dir: Path) -> None:
    at = add_meld(tap(app(), "7p 7p 7p 1m"), "peng", "777p", taken_from="W", from_hand=True)
    assert draft(at).hand == ["1m"]
    assert draft(at).melds == [{"seat": "E", "type": "peng", "tiles": "777p", "from": "W"}]


def test_the_photo_adapter_without_a_model_says_so_in_chinese(data_dir: Path) -> None:
    from app.views.score import read_photo

    photo = next(iter(sorted(Path("/work/shared/data/chinese-mahjong-detection-v4").rglob("*.jpg"))), None)
    data = photo.read_bytes() if photo else b"\xff\xd8\xff"
    reading = read_photo(data)
    if importlib.util.find_spec("vision.reader.detector") is None:
        assert "手动输入" in reading.message and reading.hand == []
    else:
        assert reading.message or reading.detections


def enter_hand(at: AppTest, hand: str, win_tile: str, indicator: str) -> AppTest:
    tap(at, hand)
    at.selectbox(key="win_tile").set_value(win_tile)
    at.selectbox(key="indicator").set_value(indicator)
    at.radio(key="win_seat").set_value("E")
    at.radio(key="win_from").set_value("self")
    return at.run()


def test_a_hand_that_cannot_win_is_refused_in_chinese_and_offers_false_win(data_dir: Path) -> None:
    at = enter_hand(app(), "1m 1m 1m 2m 2m 2m 4m 4m 4m 5p 6p 8s 9s", "1z", "9p")
    at.button(key="settle").click().run()
    assert not at.exception
    assert any("这手牌不能胡" in e.value for e in at.error)
    assert any(b.key == "false_win" for b in at.button)
    assert not any(b.key == "confirm" for b in at.button)
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        assert lg.rounds(lg.tables()[0].id) == []


def test_a_settled_hand_is_shown_and_confirmed_into_the_ledger(data_dir: Path) -> None:
    at = enter_hand(app(), "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s", "5s", "4z")
    at.button(key="settle").click().run()
    assert not at.exception, at.exception
    assert at.table, [e.value for e in at.error]
    frame = at.table[0].value
    assert frame.loc["合计"].sum() == 0
    at.button(key="confirm").click().run()
    assert "已记入第 1 局" in texts(at)
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        rounds = lg.rounds(lg.tables()[0].id)
        assert len(rounds) == 1 and rounds[0].winner == "E" and sum(rounds[0].running.values()) == 0


def seed(data_dir: Path) -> tuple[int, list[int]]:
    """A table with two rounds: E wins 2 from each, then S wins 1 from each."""
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        tid = lg.create_table("周五局", {"E": "老王", "S": "小李", "W": "阿珍", "N": "大刘"})
        ids = []
        for seat, amount in (("E", 2), ("S", 1)):
            s = Settlement(rules="xingguo")
            for other in SEATS:
                s.pay(other, seat, amount, "hu")
            s.win = {"seat": seat, "names": ["平胡"]}
            ids.append(lg.add_round(tid, {"rules": "xingguo", "dealer": "E"}, s.to_dict()))
    return tid, ids


def ledger_page(data_dir: Path) -> AppTest:
    at = app()
    open_page(at, "ledger")
    assert not at.exception, at.exception
    return at


def test_ledger_page_lists_rounds_and_zero_sum_totals(data_dir: Path) -> None:
    seed(data_dir)
    at = ledger_page(data_dir)
    assert at.title[0].value == "牌局 · 周五局"
    frame = at.dataframe[0].value
    assert list(frame["局"]) == [1, 2]
    assert list(frame["Σ 老王"]) == [6, 5]
    values = {m.label: int(m.value) for m in at.metric}
    assert values == {"东·老王": 5, "南·小李": 1, "西·阿珍": -3, "北·大刘": -3}
    assert sum(values.values()) == 0


def test_undo_the_last_round_recomputes_totals(data_dir: Path) -> None:
    seed(data_dir)
    at = ledger_page(data_dir)
    at.button(key="undo_last").click().run()
    at.button(key="confirm_yes_undo").click().run()  # it asks first (test_ledger_page.py)
    values = {m.label: int(m.value) for m in at.metric}
    assert values == {"东·老王": 6, "南·小李": -2, "西·阿珍": -2, "北·大刘": -2}


def test_deleting_a_past_round_recomputes_later_totals(data_dir: Path) -> None:
    _, ids = seed(data_dir)
    at = ledger_page(data_dir)
    at.selectbox(key="edit_pick").set_value(ids[0]).run()
    at.button(key="edit_delete").click().run()
    at.button(key="confirm_yes_delete").click().run()
    assert list(at.dataframe[0].value["Σ 小李"]) == [3]


def test_editing_a_round_with_broken_json_is_refused_and_changes_nothing(data_dir: Path) -> None:
    _, ids = seed(data_dir)
    at = ledger_page(data_dir)
    at.text_area(key=f"edit_json_{ids[0]}").input("{not json").run()
    at.button(key="edit_save").click().run()
    assert any("JSON" in e.value for e in at.error)
    assert list(at.dataframe[0].value["Σ 老王"]) == [6, 5]


def test_editing_a_past_round_resettles_it_and_recomputes_later_totals(data_dir: Path) -> None:
    import json

    _, ids = seed(data_dir)
    doc = {
        "rules": "xingguo",
        "dealer": "E",
        "indicator": "4z",
        "players": {
            "E": {"jing": {"zheng": 0, "fu": 0}},
            "S": {"jing": {"zheng": 0, "fu": 0}},
            "W": {"hand": "123m456m789m123p5s"},
            "N": {"jing": {"zheng": 0, "fu": 0}},
        },
        "win": {"seat": "W", "tile": "5s", "from": "self"},
    }
    at = ledger_page(data_dir)
    at.text_area(key=f"edit_json_{ids[0]}").input(json.dumps(doc)).run()
    at.button(key="edit_save").click().run()
    assert not at.error, [e.value for e in at.error]
    frame = at.dataframe[0].value
    assert frame["阿珍"].iloc[0] > 0
    assert all(sum(frame[f"Σ {n}"].iloc[i] for n in ("老王", "小李", "阿珍", "大刘")) == 0 for i in range(2))


def test_rules_page_saves_unit_per_table(data_dir: Path) -> None:
    tid, _ = seed(data_dir)
    at = app()
    open_page(at, "rules")
    assert not at.exception
    at.number_input(key=f"unit_{tid}").set_value(5).run()
    at.button(key="rules_save").click().run()
    assert "本桌规则已保存" in texts(at)
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        assert lg.table(tid).unit == 5


def test_a_foreign_ledger_file_gets_a_clear_message_and_is_untouched(data_dir: Path) -> None:
    path = data_dir / "ledger.sqlite3"
    path.write_bytes(b"not a database at all" * 50)
    at = app()
    assert not at.exception
    assert any("不是精算账本" in e.value for e in at.error)
    assert path.read_bytes() == b"not a database at all" * 50


def test_english_switch(data_dir: Path) -> None:
    at = app()
    at.sidebar.radio[0].set_value("en").run()
    assert at.title[0].value == "Score"


def test_a_past_round_goes_back_to_the_score_page_for_fixing(data_dir: Path) -> None:
    doc = {
        "rules": "xingguo",
        "dealer": "S",
        "indicator": "4z",
        "players": {
            "E": {"jing": {"zheng": 1, "fu": 0}},
            "S": {"jing": {"zheng": 0, "fu": 2}},
            "W": {"hand": "123m456m789m123p5s", "melds": []},
            "N": {"jing": {"zheng": 0, "fu": 0}, "melds": [{"type": "angang", "tiles": "9999s"}]},
        },
        "win": {"seat": "W", "tile": "5s", "from": "N"},
        "follow_dealer": 1,
    }
    s = Settlement(rules="xingguo")
    for other in SEATS:
        s.pay(other, "W", 1, "hu")
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        tid = lg.create_table("t", {})
        rid = lg.add_round(tid, doc, s.to_dict())
    at = ledger_page(data_dir)
    at.button(key="edit_in_score").click().run()
    assert not at.exception, at.exception
    assert at.title[0].value == "算分"
    ss = at.session_state
    assert draft(at).editing_round == rid
    assert "".join(draft(at).hand) == "1m2m3m4m5m6m7m8m9m1p2p3p5s"
    assert (ss["win_seat"], ss["win_from"], ss["win_tile"], ss["indicator"], ss["dealer"]) == ("W", "N", "5s", "4z", "S")
    assert (ss["jz_E"], ss["jf_S"], ss["follow"]) == (1, 2, 1)
    assert draft(at).melds == [{"seat": "N", "type": "angang", "tiles": "9999s"}]
    assert any("正在修改第 1 局" in i.value for i in at.info)


def test_a_photo_peng_without_its_source_is_a_question_not_a_refusal(data_dir: Path) -> None:
    at = AppTest.from_file(MAIN, default_timeout=30)
    at.session_state[DRAFT_KEY] = RoundDraft(melds=[{"seat": "winner", "photo": True, "type": "peng", "tiles": "777p", "from": None}])
    at.run()
    at = enter_hand(at, "1m 2m 3m 4m 5m 6m 7m 8m 9m 5s", "5s", "4z")
    assert "手牌 10 张 + 副露 1 组" in texts(at)
    at.button(key="settle").click().run()
    assert not at.error, [e.value for e in at.error]  # not "不能胡 … 缺少 from"
    assert any("碰 七筒七筒七筒 是谁打出的牌" in w.value for w in at.warning)
    assert not any(b.key == "false_win" for b in at.button)  # no offer to penalise a real winner
    at.selectbox(key="meld_from_0").set_value("W").run()
    assert draft(at).melds[0]["from"] == "W"
    at.button(key="settle").click().run()
    assert not at.exception, at.exception
    assert at.table, [e.value for e in at.error]
    assert at.table[0].value.loc["合计"].sum() == 0


def test_winning_tile_and_indicator_start_empty_and_are_asked_for(data_dir: Path) -> None:
    at = tap(app(), "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s")
    assert at.selectbox(key="win_tile").value is None and at.selectbox(key="indicator").value is None
    at.radio(key="win_seat").set_value("E").run()
    at.button(key="settle").click().run()
    assert not at.error and not at.table
    assert any("请先选翻精" in w.value for w in at.warning)
    at.selectbox(key="indicator").set_value("4z").run()
    at.button(key="settle").click().run()
    assert any("请先选胡的那张牌" in w.value for w in at.warning) and not at.table


def test_answered_photo_questions_leave_the_screen(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    from types import SimpleNamespace

    from PIL import Image

    from app.views import score

    questions = [
        {"code": "win_tile", "zh": "胡的是哪一张？请点选", "en": "which tile won?"},
        {"code": "low_confidence", "zh": "这几张牌认得不确定，请核对：五筒", "en": "unsure tiles"},
    ]
    reading = score.PhotoReading(detections=[], hand=["1m"], assignment=SimpleNamespace(questions=questions, melds=[]))
    monkeypatch.setattr(score, "read_photo", lambda data, options=None: reading)
    buf = io.BytesIO()
    Image.new("RGB", (200, 100), (30, 90, 30)).save(buf, "PNG")
    at = app()
    at.file_uploader(key=draft(at).upload_key).set_value(("hand.png", buf.getvalue(), "image/png")).run()
    shown = lambda: " ".join(w.value for w in at.warning)  # noqa: E731
    assert "胡的是哪一张" in shown() and "认得不确定" in shown()
    at.selectbox(key="win_tile").set_value("5s").run()
    assert "胡的是哪一张" not in shown() and "认得不确定" in shown()
    at.button(key="question_done_1").click().run()
    assert "认得不确定" not in shown()


def test_a_second_meld_needs_no_extra_tap_and_shows_at_once(data_dir: Path) -> None:
    at = add_meld(tap(app(), "7p 7p 7p 1m"), "peng", "777p", taken_from="W", from_hand=True)
    assert any("碰 七筒七筒七筒" in m.value for m in at.markdown), "the new meld is listed in the same run"
    assert "手牌 1 张" in texts(at)
    add_meld(at, "chi", "345m")
    assert not at.error, [e.value for e in at.error]
    assert [m["tiles"] for m in draft(at).melds] == ["777p", "345m"]


def test_confirming_starts_a_clean_round_and_says_so(data_dir: Path) -> None:
    at = enter_hand(app(), "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s", "5s", "4z")
    at.number_input(key="jz_S").set_value(2)
    at.number_input(key="follow").set_value(1).run()
    at.button(key="settle").click().run()
    at.button(key="confirm").click().run()
    assert not at.exception, at.exception
    assert any("已记账" in t.value for t in at.toast)
    assert any("已记入第 1 局" in s.value for s in at.success)
    assert draft(at).hand == [] and draft(at).melds == [] and not at.table
    assert at.selectbox(key="win_tile").value is None and at.selectbox(key="indicator").value is None
    assert at.radio(key="win_seat").value == "E"  # the first option again, not the last winner carried over
    assert "win_from" not in at.session_state or at.session_state["win_from"] == "self"
    assert at.number_input(key="jz_S").value == 0 and at.number_input(key="follow").value == 0
    with Ledger(data_dir / "ledger.sqlite3") as lg:
        assert at.selectbox(key="dealer").value == lg.current_dealer(lg.tables()[0].id)


def test_a_confirmed_photo_is_not_read_again_into_the_next_round(data_dir: Path) -> None:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (200, 100), (30, 90, 30)).save(buf, "PNG")
    at = app()
    at.file_uploader(key=draft(at).upload_key).set_value(("hand.png", buf.getvalue(), "image/png")).run()
    assert draft(at).photo_bytes
    d = draft(at)
    at.session_state[DRAFT_KEY] = d.next_round()
    at.run()
    assert draft(at).photo_bytes is None and draft(at).reading is None
    assert not any(f.value for f in at.file_uploader)


def test_a_refusal_says_cannot_win_once(data_dir: Path) -> None:
    at = enter_hand(app(), "1m 1m 1m 2m 2m 2m 4m 4m 4m 5p 6p 8s 9s", "1z", "9p")
    at.button(key="settle").click().run()
    (err,) = [e.value for e in at.error]
    assert err.count("不能胡") == 1, err


def test_the_uploaders_own_english_is_put_in_chinese_and_left_alone_in_english(data_dir: Path) -> None:
    at = app()
    styles = " ".join(str(h.proto.body) for h in at.get("html"))
    assert '"选择文件"' in styles and "每个文件最多 40 MB" in styles  # 40: .streamlit/config.toml maxUploadSize
    at.radio(key="lang").set_value("en").run()
    assert not at.exception, at.exception
    assert not any("选择文件" in str(h.proto.body) for h in at.get("html"))
