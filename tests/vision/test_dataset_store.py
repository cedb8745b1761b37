"""The team dataset store: layout, sidecars, review state, split, and YOLO/COCO/Label Studio round trips."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import yaml
from PIL import Image

from vision.datasets.convert import (
    CMD_V4_IMPORT_MAP,
    export_coco,
    export_yolo,
    import_coco,
    import_label_studio,
    import_yolo,
)
from vision.datasets.store import (
    DatasetError,
    DatasetStore,
    DuplicateExampleError,
    LabeledBox,
    SidecarError,
    UnknownClassError,
    open_dataset,
)
from vision.datasets.yolo import YoloBox, read_yolo_labels, write_yolo_labels
from vision.reader.boxes import box_iou
from vision.reader.detection import CLASS_NAMES


def make_png(width: int = 200, height: int = 120, color: tuple[int, int, int] = (10, 120, 30)) -> bytes:
    """A small PNG of one colour (the colour makes each image's content, and so its stem, different)."""
    buf = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buf, "PNG")
    return buf.getvalue()


def assert_same_boxes(got: list[LabeledBox], want: list[LabeledBox]) -> None:
    """Same count, same order, same class, IoU ≥ 0.99 box by box."""
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.cls == w.cls
        assert box_iou(g[:4], w[:4]) >= 0.99, (g, w)


BOXES = [
    LabeledBox(10, 20, 40, 60, "1m"),
    LabeledBox(45, 20, 75, 60, "9p"),
    LabeledBox(80, 21, 110, 61, "7z"),
    LabeledBox(115, 22, 145, 62, "back"),
]
SIDECAR = {"melds": [{"kind": "peng", "boxes": [0, 1, 2]}, {"kind": "angang", "boxes": [3]}], "winning": 1, "indicator": 3}


def content_of(store: DatasetStore) -> dict[str, tuple[list[LabeledBox], dict]]:
    """Original name → (boxes, sidecar) for comparing two stores."""
    out = {}
    for stem in store.stems():
        ex = store.load(stem)
        out[ex.stem] = (ex.boxes, ex.sidecar)
    return out


# --------------------------------------------------------------------------- the store itself


def test_add_and_load_keeps_boxes_and_sidecar(tmp_path):
    store = DatasetStore(tmp_path / "team")
    stem = store.add_example(make_png(), BOXES, SIDECAR, source="test")
    assert store.stems() == [stem]
    ex = store.load(stem)
    assert ex.image_path == store.images_dir / f"{stem}.png" and ex.image_path.exists()
    assert (ex.width, ex.height) == (200, 120)
    assert_same_boxes(ex.boxes, BOXES)
    assert ex.sidecar["melds"] == SIDECAR["melds"]
    assert ex.sidecar["winning"] == 1 and ex.sidecar["indicator"] == 3
    assert ex.sidecar["source"] == "test" and ex.sidecar["created"]
    assert ex.sidecar["reviewed"] is False
    # the YOLO layout
    assert (store.root / "labels" / f"{stem}.txt").exists()
    assert (store.root / "sidecar" / f"{stem}.json").exists()
    doc = yaml.safe_load((store.root / "data.yaml").read_text(encoding="utf-8"))
    assert doc["names"] == dict(enumerate(CLASS_NAMES)) and len(CLASS_NAMES) == 35
    assert doc["train"] == "images" and Path(doc["path"]) == store.root.resolve()
    assert not list(store.root.rglob("*.tmp"))


def test_add_from_path_and_duplicate_refused(tmp_path):
    img = tmp_path / "photo.png"
    img.write_bytes(make_png())
    store = DatasetStore(tmp_path / "team")
    stem = store.add_example(img, BOXES[:1], None, source="x")
    assert store.load(stem).sidecar["original_name"] == "photo.png"
    with pytest.raises(DuplicateExampleError) as err:
        store.add_example(img.read_bytes(), [], None, source="x")
    assert err.value.stem == stem
    assert store.add_example(img, BOXES, None, source="y", overwrite=True) == stem
    assert len(store.load(stem).boxes) == 4


def test_exif_rotation_is_baked_into_the_stored_image(tmp_path):
    img = Image.new("RGB", (60, 40), (200, 0, 0))
    exif = img.getexif()
    exif[0x0112] = 6  # rotate 90° clockwise when displayed
    buf = io.BytesIO()
    img.save(buf, "JPEG", exif=exif)
    store = DatasetStore(tmp_path / "team")
    ex = store.load(store.add_example(buf.getvalue(), [(1, 1, 30, 50, "5s")], None, source="t"))
    assert (ex.width, ex.height) == (40, 60)


def test_bad_inputs_are_refused(tmp_path):
    store = DatasetStore(tmp_path / "team")
    with pytest.raises(DatasetError):
        store.add_example(b"not an image", [], None, source="t")
    with pytest.raises(DatasetError):
        store.add_example(make_png(), [(50, 50, 50, 80, "1m")], None, source="t")  # zero width
    with pytest.raises(SidecarError):
        store.add_example(make_png(), BOXES[:2], {"winning": 5}, source="t")  # no box 5
    with pytest.raises(SidecarError):
        store.add_example(make_png(), BOXES, {"melds": [{"kind": "pong", "boxes": [0]}]}, source="t")
    with pytest.raises(DatasetError):
        store.load("nope")
    assert store.stems() == []
    with pytest.raises(DatasetError):
        open_dataset("../escape", tmp_path)


def test_unknown_class_refused_with_the_names(tmp_path):
    store = DatasetStore(tmp_path / "team")
    with pytest.raises(UnknownClassError) as err:
        store.add_example(make_png(), [(1, 1, 10, 10, "1m"), (1, 1, 10, 10, "flower"), (2, 2, 9, 9, "sc1")], None, "t")
    assert err.value.names == ["flower", "sc1"]
    assert "flower" in err.value.zh and "sc1" in err.value.en and "不认识" in err.value.zh
    assert store.stems() == []


def test_save_labels_prunes_stale_sidecar_references(tmp_path):
    store = DatasetStore(tmp_path / "team")
    stem = store.add_example(make_png(), BOXES, SIDECAR, source="t")
    store.save_labels(stem, BOXES[:2] + [LabeledBox(150, 20, 180, 60, "3s")])
    ex = store.load(stem)
    assert [b.cls for b in ex.boxes] == ["1m", "9p", "3s"]
    assert ex.sidecar["winning"] == 1 and ex.sidecar["indicator"] is None
    assert ex.sidecar["melds"] == [{"kind": "peng", "boxes": [0, 1, 2]}]
    # boxes off the image are clipped
    store.save_labels(stem, [(-5, -5, 30, 500, "2m")])
    (b,) = store.load(stem).boxes
    assert (b.x1, b.y1, b.y2) == (0, 0, pytest.approx(120, abs=1e-3))


def test_reviewed_flag_and_progress(tmp_path):
    store = DatasetStore(tmp_path / "team")
    stems = [store.add_example(make_png(color=(i, 0, 0)), BOXES[:1], None, source="t") for i in range(3)]
    assert store.progress() == (0, 3)
    store.set_reviewed(stems[1], True)
    store.set_reviewed(stems[2], True)
    assert store.progress() == (2, 3)
    assert store.load(stems[1]).reviewed
    store.set_reviewed(stems[2], False)
    assert store.progress() == (1, 3)
    # editing labels keeps the review state
    store.save_labels(stems[1], BOXES)
    assert store.load(stems[1]).reviewed


def test_class_counts(tmp_path):
    store = DatasetStore(tmp_path / "team")
    store.add_example(make_png(color=(1, 1, 1)), BOXES, None, source="t")
    store.add_example(make_png(color=(2, 2, 2)), [BOXES[0], LabeledBox(100, 10, 130, 50, "1m")], None, source="t")
    counts = store.class_counts()
    assert list(counts) == list(CLASS_NAMES)
    assert counts["1m"] == 3 and counts["9p"] == 1 and counts["7z"] == 1 and counts["back"] == 1
    assert sum(counts.values()) == 6


def test_holdout_split_deterministic_disjoint_and_stable(tmp_path):
    store = DatasetStore(tmp_path / "team")
    for i in range(40):
        store.add_example(make_png(color=(i, 2 * i, 3)), BOXES[:1], None, source="t")
    held = store.split(0.25, seed=7)
    assert held == store.split(0.25, seed=7)
    assert 3 <= len(held) <= 20
    assert set(held) <= set(store.stems())
    train = set(store.stems()) - set(held)
    assert train and not train & set(held)
    assert held != store.split(0.25, seed=8)
    # adding examples never moves an old stem across
    for i in range(40, 50):
        store.add_example(make_png(color=(i, 2 * i, 3)), BOXES[:1], None, source="t")
    assert set(held) <= set(store.split(0.25, seed=7))
    tr, va = store.write_split(0.25, seed=7)
    val_lines = va.read_text().splitlines()
    assert len(val_lines) == len(store.split(0.25, seed=7))
    assert not set(val_lines) & set(tr.read_text().splitlines())
    assert yaml.safe_load(store.data_yaml.read_text())["val"] == "val.txt"
    # tiny datasets still hold one back
    small = DatasetStore(tmp_path / "small")
    for i in range(2):
        small.add_example(make_png(color=(0, i, 9)), [], None, source="t")
    assert len(small.split(0.1)) == 1
    with pytest.raises(DatasetError):
        store.split(1.5)


def test_corrupt_sidecar_gives_clear_error_and_is_not_overwritten(tmp_path):
    store = DatasetStore(tmp_path / "team")
    stem = store.add_example(make_png(), BOXES, SIDECAR, source="t")
    path = store.sidecar_path(stem)
    path.write_text("{ this is not json", encoding="utf-8")
    labels_before = store.label_path(stem).read_text()
    for action in (
        lambda: store.load(stem),
        lambda: store.set_reviewed(stem, True),
        lambda: store.save_labels(stem, BOXES[:1]),
        lambda: store.update_sidecar(stem, {"winning": 0}),
    ):
        with pytest.raises(SidecarError) as err:
            action()
        assert str(path) in err.value.en and "损坏" in err.value.zh
    assert path.read_text(encoding="utf-8") == "{ this is not json"
    assert store.label_path(stem).read_text() == labels_before
    assert store.progress() == (0, 1)
    assert store.corrupt_sidecars() == [stem]


def test_update_sidecar_validates(tmp_path):
    store = DatasetStore(tmp_path / "team")
    stem = store.add_example(make_png(), BOXES, None, source="t")
    store.update_sidecar(stem, {"winning": 2, "melds": [{"kind": "chi", "boxes": [0, 1, 2]}]})
    assert store.load(stem).sidecar["winning"] == 2
    with pytest.raises(SidecarError):
        store.update_sidecar(stem, {"indicator": 9})


# --------------------------------------------------------------------------- round trips


def write_yolo_folder(root: Path, names: list[str], items: list[tuple[str, bytes, list[YoloBox]]], split: str | None = None) -> None:
    """A YOLO folder: data.yaml + [split/]images + labels."""
    base = root / split if split else root
    for name, data, boxes in items:
        (base / "images").mkdir(parents=True, exist_ok=True)
        (base / "images" / f"{name}.png").write_bytes(data)
        write_yolo_labels(base / "labels" / f"{name}.txt", boxes)
    (root / "data.yaml").write_text(yaml.safe_dump({"path": ".", "train": "images", "val": "images", "names": names}))


def test_yolo_round_trip(tmp_path):
    items = [
        ("a", make_png(color=(1, 2, 3)), [YoloBox(0, 0.2, 0.3, 0.1, 0.2), YoloBox(34, 0.6, 0.5, 0.15, 0.3)]),
        ("b", make_png(320, 240, (4, 5, 6)), [YoloBox(27, 0.5, 0.5, 0.2, 0.4)]),
        ("c", make_png(color=(7, 8, 9)), []),
    ]
    src = tmp_path / "src"
    write_yolo_folder(src, list(CLASS_NAMES), items)
    store = DatasetStore(tmp_path / "team")
    result = import_yolo(src, store)
    assert len(result.added) == 3 and not result.duplicates
    out = tmp_path / "out"
    export_yolo(store, out)
    assert yaml.safe_load((out / "data.yaml").read_text())["names"] == dict(enumerate(CLASS_NAMES))
    by_name = {store.load(s).sidecar["original_name"]: s for s in store.stems()}
    for name, _, boxes in items:
        got = read_yolo_labels(out / "labels" / f"{by_name[name + '.png']}.txt")
        assert [g.cls for g in got] == [b.cls for b in boxes]
        for g, b in zip(got, boxes, strict=True):
            assert g.xyxy() == pytest.approx(b.xyxy(), abs=1e-5)
        assert (out / "images" / f"{by_name[name + '.png']}.png").exists()
    # importing again adds nothing
    again = import_yolo(src, store)
    assert not again.added and len(again.duplicates) == 3
    # the split export is a YOLO train/valid tree
    split_out = tmp_path / "split"
    export_yolo(store, split_out, holdout_fraction=0.34, seed=1)
    n_train = len(list((split_out / "train" / "images").iterdir()))
    n_val = len(list((split_out / "valid" / "images").iterdir()))
    assert n_train + n_val == 3 and n_val >= 1


def test_yolo_import_remaps_names_and_refuses_unknown(tmp_path):
    src_names = ["bs1", "sc1", "sd1", "sb1", "hwe", "hdr"]
    items = [("a", make_png(color=(9, 9, 9)), [YoloBox(1, 0.2, 0.3, 0.1, 0.2), YoloBox(0, 0.5, 0.5, 0.1, 0.1), YoloBox(5, 0.7, 0.5, 0.1, 0.2)])]
    src = tmp_path / "cmd"
    write_yolo_folder(src, src_names, items, split="train")
    store = DatasetStore(tmp_path / "team")
    with pytest.raises(UnknownClassError) as err:
        import_yolo(src, store, name_map={f"sc{n}": f"{n}m" for n in range(1, 10)})
    assert "bs1" in err.value.names and "hdr" in err.value.names and "sc1" not in err.value.names
    assert store.stems() == []
    result = import_yolo(src, store, name_map=CMD_V4_IMPORT_MAP)
    assert result.dropped_labels == 1
    (stem,) = result.added
    assert [b.cls for b in store.load(stem).boxes] == ["1m", "7z"]


def test_coco_round_trip_keeps_boxes_and_sidecar(tmp_path):
    store = DatasetStore(tmp_path / "team")
    stem_a = store.add_example(make_png(color=(1, 1, 1)), BOXES, SIDECAR, source="score")
    stem_b = store.add_example(make_png(300, 200, (2, 2, 2)), BOXES[:2], None, source="test")
    store.set_reviewed(stem_a, True)
    coco = tmp_path / "coco.json"
    export_coco(store, coco)
    doc = json.loads(coco.read_text(encoding="utf-8"))
    assert len(doc["images"]) == 2 and len(doc["annotations"]) == 6 and len(doc["categories"]) == 35
    other = DatasetStore(tmp_path / "other")
    result = import_coco(coco, store.images_dir, other)
    assert sorted(result.added) == sorted([stem_a, stem_b])
    for stem in (stem_a, stem_b):
        a, b = store.load(stem), other.load(stem)
        assert_same_boxes(b.boxes, a.boxes)
        for key in ("melds", "winning", "indicator", "reviewed", "source", "created"):
            assert b.sidecar[key] == a.sidecar[key], key
    assert other.progress() == (1, 2)
    # and back out again: same JSON content
    coco2 = tmp_path / "coco2.json"
    export_coco(other, coco2)
    doc2 = json.loads(coco2.read_text(encoding="utf-8"))
    assert [a["bbox"] for a in doc2["annotations"]] == [a["bbox"] for a in doc["annotations"]]
    # reviewed only
    export_coco(store, tmp_path / "rev.json", reviewed_only=True)
    assert len(json.loads((tmp_path / "rev.json").read_text())["images"]) == 1


def test_foreign_coco_by_category_name(tmp_path):
    images = tmp_path / "imgs"
    images.mkdir()
    (images / "p.png").write_bytes(make_png())
    doc = {
        "images": [{"id": 7, "file_name": "sub/p.png", "width": 200, "height": 120}],
        "annotations": [
            {"id": 1, "image_id": 7, "category_id": 3, "bbox": [10, 20, 30, 40]},
            {"id": 2, "image_id": 7, "category_id": 9, "bbox": [50, 20, 30, 40]},
        ],
        "categories": [{"id": 3, "name": "5s"}, {"id": 9, "name": "joker"}],
    }
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    store = DatasetStore(tmp_path / "team")
    with pytest.raises(UnknownClassError) as err:
        import_coco(path, images, store)
    assert err.value.names == ["joker"]
    result = import_coco(path, images, store, name_map={"joker": None})
    (stem,) = result.added
    assert_same_boxes(store.load(stem).boxes, [LabeledBox(10, 20, 40, 60, "5s")])


def label_studio_task(task_id: int, image_ref: str, boxes: list[LabeledBox], width: int, height: int) -> dict:
    """A Label Studio export task with rectanglelabels results in percent."""
    results = [
        {
            "id": f"r{i}",
            "type": "rectanglelabels",
            "from_name": "label",
            "to_name": "image",
            "original_width": width,
            "original_height": height,
            "image_rotation": 0,
            "value": {
                "x": b.x1 / width * 100,
                "y": b.y1 / height * 100,
                "width": (b.x2 - b.x1) / width * 100,
                "height": (b.y2 - b.y1) / height * 100,
                "rotation": 0,
                "rectanglelabels": [b.cls],
            },
        }
        for i, b in enumerate(boxes)
    ]
    return {
        "id": task_id,
        "data": {"image": image_ref},
        "annotations": [{"id": 1, "was_cancelled": True, "result": []}, {"id": 2, "was_cancelled": False, "result": results}],
        "predictions": [],
    }


def test_label_studio_to_store_to_coco_to_store(tmp_path):
    images = tmp_path / "ls"
    images.mkdir()
    (images / "table1.png").write_bytes(make_png(color=(5, 5, 5)))
    (images / "table 2.png").write_bytes(make_png(400, 300, (6, 6, 6)))
    boxes2 = [LabeledBox(100, 50, 160, 130, "3z"), LabeledBox(170, 50, 230, 130, "back")]
    tasks = [
        label_studio_task(1, "/data/upload/3/0a1b2c3d-table1.png", BOXES, 200, 120),
        label_studio_task(2, "/data/local-files/?d=photos/table%202.png", boxes2, 400, 300),
    ]
    ls_json = tmp_path / "ls.json"
    ls_json.write_text(json.dumps(tasks))
    store = DatasetStore(tmp_path / "team")
    result = import_label_studio(ls_json, images, store)
    assert len(result.added) == 2
    by_name = {store.load(s).sidecar["original_name"]: store.load(s) for s in store.stems()}
    assert_same_boxes(by_name["table1.png"].boxes, BOXES)
    assert_same_boxes(by_name["table 2.png"].boxes, boxes2)
    store.update_sidecar(by_name["table1.png"].stem, SIDECAR)
    coco = tmp_path / "coco.json"
    export_coco(store, coco)
    back = DatasetStore(tmp_path / "back")
    import_coco(coco, store.images_dir, back)
    assert content_of(back).keys() == content_of(store).keys()
    for stem, (boxes, sidecar) in content_of(store).items():
        got_boxes, got_sidecar = content_of(back)[stem]
        assert_same_boxes(got_boxes, boxes)
        assert got_sidecar["melds"] == sidecar["melds"] and got_sidecar["winning"] == sidecar["winning"]


def test_label_studio_unknown_label_and_rotation(tmp_path):
    images = tmp_path / "ls"
    images.mkdir()
    (images / "t.png").write_bytes(make_png())
    task = label_studio_task(1, "t.png", [LabeledBox(10, 10, 40, 50, "Dragon-Red")], 200, 120)
    (tmp_path / "bad.json").write_text(json.dumps([task]))
    with pytest.raises(UnknownClassError) as err:
        import_label_studio(tmp_path / "bad.json", images, DatasetStore(tmp_path / "x"))
    assert err.value.names == ["Dragon-Red"]
    task = label_studio_task(1, "t.png", [LabeledBox(100, 20, 130, 60, "7z")], 200, 120)
    task["annotations"][-1]["result"][0]["value"]["rotation"] = 90
    (tmp_path / "rot.json").write_text(json.dumps([task]))
    store = DatasetStore(tmp_path / "rot")
    (stem,) = import_label_studio(tmp_path / "rot.json", images, store).added
    (b,) = store.load(stem).boxes
    # a 30×40 box turned 90° clockwise about its top-left corner (100, 20) spans x 60..100, y 20..50
    assert (b.x1, b.y1, b.x2, b.y2) == pytest.approx((60, 20, 100, 50), abs=0.01)


def test_missing_image_in_export_is_a_clear_error(tmp_path):
    (tmp_path / "imgs").mkdir()
    (tmp_path / "ls.json").write_text(json.dumps([label_studio_task(1, "gone.png", [], 10, 10)]))
    with pytest.raises(DatasetError) as err:
        import_label_studio(tmp_path / "ls.json", tmp_path / "imgs", DatasetStore(tmp_path / "x"))
    assert "gone.png" in err.value.en


def test_store_module_is_light():
    import subprocess
    import sys

    code = "import sys, vision.datasets.store\nbad=[m for m in ('torch','ultralytics','app','streamlit','cv2') if m in sys.modules]\nprint(bad); sys.exit(1 if bad else 0)"
    r = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


