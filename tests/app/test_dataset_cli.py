"""`jingsuan dataset …` as a user runs it."""

from __future__ import annotations

import cv2
import numpy as np

TILE = (100.0, 100.0, 130.0, 140.0)


def test_dataset_check_cli_lists_photos_with_unboxed_tiles_in_chinese_and_exits_1(tmp_path, monkeypatch, capsys):
    import vision.datasets.unlabelled as U
    from app.cli import main
    from vision.datasets.store import DatasetStore, LabeledBox

    store = DatasetStore(tmp_path / "team")
    ok, png = cv2.imencode(".png", np.full((400, 400, 3), 200, np.uint8))
    stem = store.add_example(png.tobytes(), [LabeledBox(*TILE, "1m")])
    monkeypatch.setattr(U, "detector_finder", lambda: lambda rgb: [TILE, (300.0, 300.0, 330.0, 340.0)])
    assert main(["dataset", "--root", str(tmp_path), "check", "team"]) == 1
    out, err = capsys.readouterr()
    assert f"{stem}: 1 张牌没有标注，位置 (300,300)-(330,340)" in out
    assert "1 / 1 张照片有漏标的牌" in err
    monkeypatch.setattr(U, "detector_finder", lambda: lambda rgb: [TILE])
    assert main(["dataset", "--root", str(tmp_path), "--lang", "en", "check", "team"]) == 0
    assert "no tile without a label found in 1 photos" in capsys.readouterr().out

