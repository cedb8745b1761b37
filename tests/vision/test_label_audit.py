"""Labels the classifier doubts (`vision.datasets.audit`) and `jingsuan dataset audit` as a user runs it."""

from __future__ import annotations

import cv2
import numpy as np

from app.cli import main
from vision.datasets.audit import LabelDoubt, doubts_in_store, label_doubts
from vision.datasets.store import DatasetStore, LabeledBox

A, B, C = (10.0, 10.0, 40.0, 50.0), (50.0, 10.0, 80.0, 50.0), (90.0, 10.0, 120.0, 50.0)


def test_a_label_the_classifier_surely_reads_as_another_tile_is_doubted() -> None:
    labels = [(A, "5p"), (B, "2s"), (C, "3m")]
    readings = [("5m", 0.98), ("2p", 0.6), ("3m", 0.99)]
    assert label_doubts("hand", labels, readings) == [LabelDoubt("hand", A, "5p", "5m", 0.98)]
    assert [d.label for d in label_doubts("hand", labels, readings, min_p=0.5)] == ["5p", "2s"]


def test_backs_and_none_readings_are_never_doubts() -> None:
    """The classifier names no face on a face-down tile, and `none` says nothing about which tile it is."""
    assert label_doubts("hand", [(A, "back"), (B, "7z")], [("5z", 0.99), ("none", 0.99)]) == []


def _store(tmp_path) -> tuple[DatasetStore, list[str]]:
    store = DatasetStore(tmp_path / "team")
    ok, png = cv2.imencode(".png", np.full((200, 200, 3), 180, np.uint8))
    first = store.add_example(png.tobytes(), [LabeledBox(*A, "5p"), LabeledBox(*B, "1m")])
    ok, png = cv2.imencode(".png", np.full((200, 200, 3), 120, np.uint8))
    second = store.add_example(png.tobytes(), [LabeledBox(*C, "9s")])
    return store, [first, second]


def fake_namer(rgb: np.ndarray, boxes: list) -> list[tuple[str, float]]:
    """Reads the box at A as 5m (the 伍萬 labelled 5筒), every other box as labelled (boxes come back from the
    store's YOLO labels a hair off: matched rounded)."""
    def read(box: tuple[float, ...]) -> tuple[str, float]:
        at = tuple(round(v) for v in box)
        return ("5m", 0.97) if at == A else ("1m" if at == B else "9s", 0.99)

    return [read(box) for box in boxes]


def test_every_photo_of_a_dataset_is_read_and_an_unreadable_one_passed_over(tmp_path) -> None:
    store, (first, second) = _store(tmp_path)
    (store.image_path(second)).write_bytes(b"not an image")
    doubts = doubts_in_store(store, fake_namer)
    assert [(d.stem, d.label, d.reading, d.p) for d in doubts] == [(first, "5p", "5m", 0.97)]


def test_dataset_audit_cli_lists_the_doubted_labels_in_chinese_and_exits_1(tmp_path, monkeypatch, capsys) -> None:
    import vision.datasets.audit as audit

    store, (first, _) = _store(tmp_path)
    monkeypatch.setattr(audit, "classifier_namer", lambda: fake_namer)
    assert main(["dataset", "--root", str(tmp_path), "audit", "team"]) == 1
    out, err = capsys.readouterr()
    assert f"{first} (10,10)-(40,50)：标的是五筒，认牌模型有 97% 把握是五万" in out
    assert "1 个标注可疑" in err and "不要照它直接改" in err
    monkeypatch.setattr(audit, "classifier_namer", lambda: lambda rgb, boxes: [("1m", 0.99)] * len(boxes))
    assert main(["dataset", "--root", str(tmp_path), "--lang", "en", "audit", "team", "--min-p", "1.0"]) == 0
    assert "no label in doubt in 2 photos" in capsys.readouterr().out
