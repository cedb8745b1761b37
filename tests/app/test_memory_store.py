"""app.memory_store without a browser: what a 算分 photo teaches, a damaged file set aside, the model's key."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np

from app import memory_store as ms
from vision.reader.detection import Detection
from vision.reader.layout.roles import TileRole
from vision.reader.memory import TileMemory


def reading() -> SimpleNamespace:
    """Three hand tiles read; the layout took the middle one (read 3m) as 2m; the boxes are the same."""
    dets = [Detection((0, 0, 10, 14), "1m", 0.9), Detection((12, 0, 22, 14), "3m", 0.6), Detection((24, 0, 34, 14), "4p", 0.9)]
    shown = [dets[0], Detection(dets[1].box, "2m", 0.6), Detection(dets[2].box, "4p", 0.9)]  # copies, as the layout gives
    return SimpleNamespace(detections=dets, assignment=SimpleNamespace(tiles=[TileRole(d, "hand") for d in shown]))


def test_a_tile_the_player_changed_is_a_lesson_and_the_layouts_own_fix_is_not():
    r = reading()
    assert ms.score_lessons(r, ["1m", "2m", "4p"], {}, [], confirmed=False) == {}
    assert ms.score_lessons(r, ["1m", "2m", "7z"], {}, [], confirmed=False) == {2: "7z"}
    assert ms.score_lessons(r, ["1m", "2m", "7z"], {}, [], confirmed=True) == {0: "1m", 1: "2m", 2: "7z"}


def test_the_backs_of_a_concealed_kong_teach_nothing_though_linked_to_the_kongs_tile():
    """A 暗杠 read back 七筒 七筒 back: its four boxes are linked to 7777p, but the backs' crops show no face. Taught as
    七筒 without any change by the player, the table then read those backs as 七筒 and the 暗杠 as a 明杠."""
    boxes = [(0, 0, 10, 14), (12, 0, 22, 14), (24, 0, 34, 14), (36, 0, 46, 14)]
    dets = [Detection(b, t, 0.8) for b, t in zip(boxes, ["back", "7p", "6p", "back"])]
    shown = [dets[0], dets[1], Detection(boxes[2], "7p", 0.8), dets[3]]  # the layout's own fix of the 六筒
    r = SimpleNamespace(detections=dets, assignment=SimpleNamespace(tiles=[TileRole(d, "meld", 0) for d in shown]))
    melds = [{"type": "angang", "tiles": "7777p", "photo": True}]
    assert ms.score_lessons(r, [], {}, melds, confirmed=False) == {}
    assert ms.score_lessons(r, [], {}, melds, confirmed=True) == {1: "7p", 2: "7p"}
    # the player makes it a kong of 八筒: the faces are taught so, the backs still not
    assert ms.score_lessons(r, [], {}, [{**melds[0], "tiles": "8888p"}], confirmed=False) == {1: "8p", 2: "8p"}


def test_a_damaged_file_is_kept_aside_under_a_free_name_and_said_in_chinese(tmp_path: Path):
    path = tmp_path / "tile_memory.npz"
    (tmp_path / "tile_memory.npz.bad").write_bytes(b"an older one")
    path.write_bytes(b"garbage")
    opened = ms.open_memory(path, "cls")
    assert opened.memory.count("张家") == 0 and not path.exists()
    assert (tmp_path / "tile_memory.npz.bad2").read_bytes() == b"garbage"
    assert "纠错记忆" in opened.problem and "tile_memory.npz.bad2" in opened.problem
    assert (tmp_path / "tile_memory.npz.bad").read_bytes() == b"an older one"


def test_a_missing_file_or_model_reads_without_memory(tmp_path: Path):
    assert ms.read_args(tmp_path / "tile_memory.npz", "cls", "张家") == ({}, "")
    assert ms.taught_count(tmp_path / "tile_memory.npz", None, "张家") == (0, "")


def test_forget_leaves_other_tables_in_the_file(tmp_path: Path):
    path = tmp_path / "tile_memory.npz"
    memory = TileMemory("cls")
    memory.add("张家", np.eye(3, dtype=np.float32)[:2], ["1m", "2m"])
    memory.add("李家", np.eye(3, dtype=np.float32)[2:], ["3m"])
    memory.save(path)
    assert ms.forget_table(path, "cls", "张家") == (2, "")
    assert ms.taught_count(path, "cls", "张家") == (0, "") and ms.taught_count(path, "cls", "李家") == (1, "")


def test_the_models_key_changes_with_its_bytes(tmp_path: Path):
    a, b = tmp_path / "a" / "tile_classifier.onnx", tmp_path / "b" / "tile_classifier.onnx"
    for p, data in ((a, b"one"), (b, b"two")):
        p.parent.mkdir()
        p.write_bytes(data)
    assert ms.model_key(a) != ms.model_key(b) and ms.model_key(a).startswith("tile_classifier.onnx:")


def test_a_memory_taught_with_another_classifier_is_kept_aside_and_said_not_overwritten(tmp_path: Path):
    """A new release (or an adopted fine-tune) changes the classifier: the old crops mean nothing to it, but the first
    lesson after the change must not silently overwrite what every table taught."""
    path = tmp_path / "tile_memory.npz"
    old = TileMemory("tile_classifier.onnx:v9")
    old.add("张家", np.eye(3, dtype=np.float32)[:2], ["1m", "2m"])
    old.save(path)
    opened = ms.open_memory(path, "tile_classifier.onnx:pair")
    assert opened.memory.count("张家") == 0 and not path.exists()
    assert "换牌面分类模型之前" in opened.problem and "tile_memory.npz.old" in opened.problem
    assert TileMemory.load(tmp_path / "tile_memory.npz.old", "tile_classifier.onnx:v9").count("张家") == 2
    opened.memory.add("张家", np.eye(3, dtype=np.float32)[2:], ["3m"])
    opened.memory.save(path)  # the new lessons go to a new file; the old one stays where it was put
    assert ms.taught_count(path, "tile_classifier.onnx:pair", "张家") == (1, "")
    assert (tmp_path / "tile_memory.npz.old").is_file()
    assert ms.open_memory(path, "tile_classifier.onnx:pair").problem == ""  # said once, not on every read
