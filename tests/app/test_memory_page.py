"""The table's correction memory on the pages (AppTest, no browser): a tile fixed on 算分 is taught, the next
read of the photo takes it, 确认记账 teaches the confirmed hand, 牌局 forgets it, a damaged file is set aside."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from app.memory_store import current_model, memory_path
from app.score_logic import DRAFT_KEY, RoundDraft
from tests.app.apptest import MAIN, open_page, tap
from vision.reader.memory import TileMemory


def draft(at: AppTest) -> RoundDraft:
    return at.session_state[DRAFT_KEY]


def upload(at: AppTest, photo: Path) -> AppTest:
    """A photo on 算分 (a new round first, so the same photo is read again)."""
    at.session_state[DRAFT_KEY] = draft(at).next_round()
    at.run()
    at.file_uploader(key=draft(at).upload_key).set_value((photo.name, photo.read_bytes(), "image/png")).run()
    assert not at.exception, at.exception
    return at


def captions(at: AppTest) -> str:
    return " ".join(str(c.value) for c in at.caption)


def taught(data_dir: Path) -> int:
    return TileMemory.load(memory_path(data_dir / "ledger.sqlite3"), current_model() or "").count("牌桌 1#1")


def test_a_tile_fixed_on_the_photo_is_taught_and_the_next_read_of_the_photo_takes_it(data_dir: Path, hand_photo: Path) -> None:
    at = upload(AppTest.from_file(MAIN, default_timeout=60).run(), hand_photo)
    hand = draft(at).hand
    assert "4p" in hand and taught(data_dir) == 0
    assert "这桌已教会" not in captions(at)
    tap(at, f"hand_{hand.index('4p')}", "pal_7z")  # the player says this 四筒 is a 中
    assert taught(data_dir) == 1
    assert "这桌已教会 1 张牌" in captions(at)
    upload(at, hand_photo)  # the same photo again: read with the table's memory
    assert "7z" in draft(at).hand and "4p" not in draft(at).hand
    assert "这桌已教会 1 张牌" in captions(at)


def test_a_fix_taken_back_is_forgotten_and_a_recorded_round_teaches_its_whole_hand(data_dir: Path, hand_photo: Path) -> None:
    at = upload(AppTest.from_file(MAIN, default_timeout=60).run(), hand_photo)
    k = draft(at).hand.index("4p")
    tap(at, f"hand_{k}", "pal_7z")
    assert taught(data_dir) == 1
    tap(at, f"hand_{k}", "pal_4p")  # a slip of the finger, put right again
    assert taught(data_dir) == 0
    if not at.selectbox(key="indicator").value:
        at.selectbox(key="indicator").set_value("9m").run()
    # the rendered hand (123m 456p 789s 11z 55z, 三万 drawn) is no win as photographed: the player says it
    # was won on 東 (the photo's 三万 box is then a correction, taught as 東)
    at.selectbox(key="win_tile").set_value("1z").run()
    tap(at, "settle")
    assert at.table, [e.value for e in [*at.error, *at.warning]]
    n = len(draft(at).hand) + 2  # the hand, 胡 and 翻精 as read: every linked tile is confirmed
    tap(at, "confirm")
    assert n - 2 <= taught(data_dir) <= n


def test_forget_on_the_ledger_page_asks_first_then_resets_the_count(data_dir: Path, hand_photo: Path) -> None:
    at = upload(AppTest.from_file(MAIN, default_timeout=60).run(), hand_photo)
    tap(at, f"hand_{draft(at).hand.index('4p')}", "pal_7z")
    open_page(at, "ledger")
    assert "这桌已教会 1 张牌" in captions(at)
    tap(at, "memory_forget")
    assert any("忘记这桌教过的 1 张牌" in w.value for w in at.warning) and taught(data_dir) == 1
    tap(at, "memory_forget_no")
    assert taught(data_dir) == 1
    tap(at, "memory_forget", "memory_forget_yes")
    assert taught(data_dir) == 0
    assert any("已忘记这桌教过的 1 张牌" in s.value for s in at.success)
    assert "这桌还没教过牌" in captions(at)


def test_a_damaged_memory_file_is_said_in_chinese_and_kept_aside(data_dir: Path, hand_photo: Path) -> None:
    bad = memory_path(data_dir / "ledger.sqlite3")
    bad.write_bytes(b"PK\x03\x04 not really a memory")
    at = upload(AppTest.from_file(MAIN, default_timeout=60).run(), hand_photo)
    assert draft(at).hand, "the photo is read as if nothing had been taught"
    shown = " ".join(w.value for w in at.warning)
    assert "纠错记忆" in shown and "tile_memory.npz.bad" in shown
    assert (data_dir / "tile_memory.npz.bad").read_bytes() == b"PK\x03\x04 not really a memory"
    tap(at, f"hand_{draft(at).hand.index('4p')}", "pal_7z")  # and the table starts afresh
    assert taught(data_dir) == 1
    open_page(at, "ledger")
    assert not at.exception and "这桌已教会 1 张牌" in captions(at)


def test_boxes_saved_on_the_annotate_page_teach_the_table_and_go_with_the_dataset(dirs: Path, hand_photo: Path) -> None:
    at = open_page(AppTest.from_file(MAIN, default_timeout=60).run(), "annotate")
    at.file_uploader(key="ann_upload").set_value([("hand.png", hand_photo.read_bytes(), "image/png")]).run()
    at.run()
    boxes = at.session_state["ann_boxes"]
    assert len(boxes) >= 10, "pre-drawn by the model"
    k = next(i for i, b in enumerate(boxes) if b.cls == "4p")
    boxes = [b._replace(cls="7z") if i == k else b for i, b in enumerate(boxes)]  # the annotator says: a 中
    at.session_state["ann_boxes"] = boxes
    tap(at, "ann_save")
    model = current_model() or ""
    tiles = [b.cls for b in boxes if b.cls != "back"]
    assert TileMemory.load(memory_path(dirs / "data" / "ledger.sqlite3"), model).count("牌桌 1#1") == len(tiles)
    exported = list((dirs / "datasets").glob("*/tile_memory.npz"))
    assert len(exported) == 1 and TileMemory.load(exported[0], model).count("牌桌 1#1") == len(tiles)
    tap(at, "ann_save")  # saved again: the photo's crops are replaced, not doubled
    assert TileMemory.load(memory_path(dirs / "data" / "ledger.sqlite3"), model).count("牌桌 1#1") == len(tiles)
    import cv2

    from vision.datasets.store import DatasetStore

    before = {p.stem for p in (dirs / "datasets").glob("*/images/*")}
    image = cv2.imread(str(hand_photo))
    image[0, 0] = (255, 255, 255)  # another shot of the same tiles: the store keeps it as a new photo
    at.file_uploader(key="ann_upload").set_value([("again.png", cv2.imencode(".png", image)[1].tobytes(), "image/png")])
    at.run()
    at.run()  # a new photo is pre-drawn as the table taught its tiles
    (new,) = {p.stem for p in (dirs / "datasets").glob("*/images/*")} - before
    again = [b.cls for b in DatasetStore(exported[0].parent).load(new).boxes]
    assert "7z" in again and "4p" not in again


def test_a_second_table_of_the_same_name_has_its_own_memory(data_dir: Path, hand_photo: Path) -> None:
    from app.ledger import Ledger

    at = upload(AppTest.from_file(MAIN, default_timeout=60).run(), hand_photo)
    tap(at, f"hand_{draft(at).hand.index('4p')}", "pal_7z")  # table 1 is taught: this 四筒 is a 中
    assert "这桌已教会 1 张牌" in captions(at)
    with Ledger(data_dir / "ledger.sqlite3") as lg:  # another group names its new table the same (or imports it)
        other = lg.create_table("牌桌 1", {}, "xingguo")
    at.run()
    at.sidebar.selectbox[0].set_value(other).run()
    assert "这桌已教会" not in captions(at), "the other table taught nothing"
    upload(at, hand_photo)
    assert "4p" in draft(at).hand and "7z" not in draft(at).hand, "read without the first table's lessons"
    open_page(at, "ledger")
    assert "这桌还没教过牌" in captions(at)
