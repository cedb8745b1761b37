"""`jingsuan dataset …` as a user runs it."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
import yaml

from app.cli import main

TILE = (100.0, 100.0, 130.0, 140.0)


def test_dataset_check_cli_lists_photos_with_unboxed_tiles_in_chinese_and_exits_1(tmp_path, monkeypatch, capsys):
    import vision.datasets.unlabelled as U
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


def test_dataset_cli_import_stats_export(tmp_path, capsys):
    src = tmp_path / "src"  # a YOLO folder with CMD v4's class names: 1萬 (sc1) and a flower (bf1)
    for part in ("images", "labels"):
        (src / "train" / part).mkdir(parents=True)
    cv2.imwrite(str(src / "train" / "images" / "a.png"), np.full((120, 200, 3), 90, np.uint8))
    (src / "train" / "labels" / "a.txt").write_text("0 0.2 0.3 0.1 0.2\n1 0.5 0.5 0.1 0.1\n")
    (src / "data.yaml").write_text(yaml.safe_dump({"path": ".", "train": "train/images", "names": ["sc1", "bf1", "hdr"]}))
    root = str(tmp_path / "ds")
    assert main(["dataset", "--root", root, "--lang", "en", "import-yolo", "team", str(src)]) == 2
    assert "unknown class names" in capsys.readouterr().err
    assert main(["dataset", "--root", root, "import-yolo", "team", str(src), "--cmd-v4"]) == 0
    assert "1 added" in capsys.readouterr().out
    assert main(["dataset", "--root", root, "stats", "team"]) == 0
    out = capsys.readouterr().out
    assert "1 examples, 0 reviewed" in out and "1m:1" in out
    assert main(["dataset", "--root", root, "export-coco", "team", str(tmp_path / "c.json")]) == 0
    assert len(json.loads((tmp_path / "c.json").read_text())["annotations"]) == 1
    assert main(["dataset", "--root", root, "export-yolo", "team", str(tmp_path / "y")]) == 0
    assert (tmp_path / "y" / "data.yaml").exists()



def test_a_dataset_name_that_is_not_there_is_refused_and_no_folder_is_left_behind(tmp_path, capsys):
    root = tmp_path / "ds"
    (root / "team" / "images").mkdir(parents=True)
    for action in (["stats"], ["split"], ["check"], ["audit"], ["export-yolo", "tem", str(tmp_path / "y")]):
        args = ["dataset", "--root", str(root), action[0], *(action[1:] or ["tem"])]
        assert main(args) == 2
        assert f"没有这个数据集：tem（{root} 里有：team）" in capsys.readouterr().err
    assert main(["dataset", "--root", str(root), "--lang", "en", "stats", "tem"]) == 2
    assert f"no dataset tem in {root} (there: team)" in capsys.readouterr().err
    assert sorted(p.name for p in root.iterdir()) == ["team"] and not (tmp_path / "y").exists()

def test_exports_carry_the_tile_memory_the_players_taught(tmp_path, capsys):
    """What 标注 taught the reader (the dataset's tile_memory.npz) goes with a YOLO or COCO export, byte for byte."""
    from vision.datasets.store import DatasetStore, LabeledBox
    from vision.reader.memory import MEMORY_FILENAME, TileMemory

    store = DatasetStore(tmp_path / "ds" / "team")
    ok, png = cv2.imencode(".png", np.full((200, 200, 3), 90, np.uint8))
    store.add_example(png.tobytes(), [LabeledBox(*TILE, "1m")])
    root = str(tmp_path / "ds")
    assert main(["dataset", "--root", root, "export-yolo", "team", str(tmp_path / "bare")]) == 0
    assert not (tmp_path / "bare" / MEMORY_FILENAME).exists()  # nothing taught: nothing made up
    memory = TileMemory("v9")
    memory.add("家里", np.eye(3, 8, dtype=np.float32), ["1m", "2m", "3m"])
    memory.save(store.root / MEMORY_FILENAME)
    taught = (store.root / MEMORY_FILENAME).read_bytes()
    assert main(["dataset", "--root", root, "export-yolo", "team", str(tmp_path / "y")]) == 0
    assert (tmp_path / "y" / MEMORY_FILENAME).read_bytes() == taught
    assert main(["dataset", "--root", root, "export-coco", "team", str(tmp_path / "c.json")]) == 0
    assert (tmp_path / f"c.{MEMORY_FILENAME}").read_bytes() == taught
    assert TileMemory.load(tmp_path / "y" / MEMORY_FILENAME, "v9").count("家里") == 3
    capsys.readouterr()


def test_an_audit_certainty_outside_0_to_1_is_refused_with_its_value(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["dataset", "--root", str(tmp_path), "audit", "team", "--min-p", "7"])
    assert exit_.value.code == 2 and "置信度阈值应大于 0、不超过 1：7" in capsys.readouterr().err
