"""YOLO label helpers and the importer's cleanup (polygons, empty labels, stretched crops, remap)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml

from vision.datasets.convert import (
    CMD_V4_LABEL_FIXES,
    CMD_V4_NAME_MAP,
    class_index_map,
    fix_labels,
    import_yolo_dataset,
    labelled_one_class,
    read_label_fixes,
    remap_label,
    stretch_factor,
)
from vision.datasets.store import DatasetError, UnknownClassError
from vision.datasets.yolo import (
    YoloBox,
    load_names,
    parse_label_line,
    photo_family,
    read_yolo_labels,
    source_photo,
    unseen_families,
    write_split,
    write_yolo_labels,
)
from vision.reader.detection import CLASS_NAMES


def test_polygon_line_becomes_its_bounding_box():
    box, was_poly = parse_label_line("3 0.1 0.2 0.4 0.2 0.4 0.6 0.1 0.6")
    assert was_poly
    assert box == YoloBox(3, pytest.approx(0.25), pytest.approx(0.4), pytest.approx(0.3), pytest.approx(0.4))


def test_box_line_and_garbage():
    assert parse_label_line("1 0.5 0.5 0.2 0.3") == (YoloBox(1, 0.5, 0.5, 0.2, 0.3), False)
    assert parse_label_line("x y z")[0] is None
    assert parse_label_line("")[0] is None


def test_labels_round_trip(tmp_path):
    boxes = [YoloBox(0, 0.5, 0.5, 0.1, 0.2), YoloBox(34, 0.25, 0.75, 0.05, 0.1)]
    write_yolo_labels(tmp_path / "a.txt", boxes)
    assert read_yolo_labels(tmp_path / "a.txt") == [YoloBox(b.cls, b.cx, b.cy, b.w, b.h) for b in boxes]


def test_remap_by_name_drops_flowers():
    m = class_index_map(["bs1", "sc1", "sd9", "hdr"], {"sc1": "1m", "sd9": "9p", "hdr": "7z"})
    assert m == {1: CLASS_NAMES.index("1m"), 2: CLASS_NAMES.index("9p"), 3: CLASS_NAMES.index("7z")}


def test_stretched_row_is_detected_and_normal_row_is_not():
    normal = [YoloBox(0, 0.1 * i, 0.5, 0.06, 0.08) for i in range(1, 9)]
    assert stretch_factor(normal, 640, 640) is None
    column = [YoloBox(0, 0.5, 0.08 * i, 0.95, 0.08) for i in range(1, 12)]  # tiles 12× too wide
    f = stretch_factor(column, 640, 640)
    assert f is not None and f == pytest.approx(0.75 / (0.95 / 0.08))


def test_one_class_photo_is_unlabelled_but_four_of_a_tile_or_backs_are_fine():
    five = [YoloBox(3, 0.1 * i, 0.5, 0.05, 0.07) for i in range(1, 6)]
    assert labelled_one_class(five)
    assert not labelled_one_class(five[:4])  # a kong: four of a tile is a real hand
    assert not labelled_one_class([YoloBox(CLASS_NAMES.index("back"), b.cx, b.cy, b.w, b.h) for b in five])
    assert not labelled_one_class(five + [YoloBox(4, 0.7, 0.5, 0.05, 0.07)])


def _make_dataset(root: Path) -> None:
    root.mkdir(parents=True)
    (root / "data.yaml").write_text(yaml.safe_dump({"names": ["bf1", "sc1", "sd2"]}))
    for split in ("train", "valid"):
        (root / split / "images").mkdir(parents=True)
        (root / split / "labels").mkdir(parents=True)
    img = np.full((640, 640, 3), 90, np.uint8)
    cv2.imwrite(str(root / "train/images/ok.jpg"), img)
    (root / "train/labels/ok.txt").write_text("1 0.5 0.5 0.06 0.08\n0 0.2 0.2 0.05 0.07\n2 0.1 0.1 0.2 0.1 0.2 0.2 0.1 0.2\n")
    cv2.imwrite(str(root / "train/images/empty.jpg"), img)
    (root / "train/labels/empty.txt").write_text("")
    cv2.imwrite(str(root / "valid/images/stretched.jpg"), img)
    (root / "valid/labels/stretched.txt").write_text("".join(f"{1 + i % 2} 0.5 {0.08 * i:.3f} 0.95 0.08\n" for i in range(1, 12)))
    cv2.imwrite(str(root / "valid/images/unclassified.jpg"), img)
    (root / "valid/labels/unclassified.txt").write_text("".join(f"2 {0.06 * i:.3f} 0.5 0.05 0.07\n" for i in range(1, 8)))


def test_importer_cleans_and_keeps_valid_as_validation(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    _make_dataset(src)
    report = import_yolo_dataset(src, dst, {"sc1": "1m", "sd2": "2p"})
    assert report.images == {"train": 1, "valid": 1}
    assert report.dropped_empty["train"] == 1
    assert report.polygons_converted["train"] == 1
    assert report.labels_dropped_unmapped["train"] == 1
    assert report.restored_stretched["valid"] == 1
    assert report.dropped_one_class["valid"] == 1  # seven 2筒 in one photo: classes never set
    assert not (dst / "valid/labels/unclassified.txt").exists()
    labels = read_yolo_labels(dst / "train/labels/ok.txt")
    assert [CLASS_NAMES[b.cls] for b in labels] == ["1m", "2p"]
    assert not (dst / "train/labels/empty.txt").exists()
    restored = cv2.imread(str(dst / "valid/images/stretched.png"))
    h, w = restored.shape[:2]
    boxes = read_yolo_labels(dst / "valid/labels/stretched.txt")
    aspect = (boxes[0].w * w) / (boxes[0].h * h)
    assert aspect == pytest.approx(0.75, rel=0.05)
    doc = yaml.safe_load((dst / "data.yaml").read_text())
    assert doc["val"] == "valid/images" and doc["names"][34] == "back"


def test_importer_paints_the_flowers_it_drops_in_train_but_not_in_valid(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    src.mkdir()
    (src / "data.yaml").write_text(yaml.safe_dump({"names": ["bf1", "sc1"]}))
    img = np.full((400, 400, 3), 200, np.uint8)
    lines = "1 0.3 0.5 0.075 0.1\n0 0.7 0.5 0.075 0.1\n"  # 1萬 at x 0.3, a flower at x 0.7
    for split in ("train", "valid"):
        (src / split / "images").mkdir(parents=True)
        (src / split / "labels").mkdir()
        cv2.imwrite(str(src / split / "images/f.jpg"), img)
        (src / split / "labels/f.txt").write_text(lines)
    report = import_yolo_dataset(src, dst, {"sc1": "1m"}, paint_dropped=("train",))
    assert report.painted_dropped == {"train": 1, "valid": 0}
    assert "painted over in 1 images" in report.summary()
    train = cv2.imread(str(dst / "train/images/f.png"))
    assert (train[200, 280] == 114).all()  # the flower: painted grey
    assert (train[200, 120] == 200).all()  # the labelled 1萬: untouched
    assert (dst / "valid/images/f.jpg").is_symlink()  # valid is never painted
    assert [CLASS_NAMES[b.cls] for b in read_yolo_labels(dst / "train/labels/f.txt")] == ["1m"]
    import_yolo_dataset(src, dst, {"sc1": "1m"})  # a re-import without painting, the default
    assert sorted(p.name for p in (dst / "train/images").iterdir()) == ["f.jpg"]  # no stale painted copy left
    assert (dst / "train/images/f.jpg").is_symlink()


def test_copies_of_one_roboflow_photo_share_their_source():
    assert source_photo("hand_013_jpg.rf.0469d4dcf7f2") == source_photo("hand_013_jpg.rf.2910bc844fb1") == "hand_013_jpg"
    assert source_photo("synth_00001") == "synth_00001"


def test_photos_one_camera_named_alike_are_one_family():
    assert photo_family("IMG_2742_JPG.rf.983dc56143a4") == photo_family("IMG_2777_JPG.rf.02d1") == "IMG_####_JPG"
    assert photo_family("IMG_20231224_161923_jpg.rf.ab") == "IMG_########_######_jpg"  # another phone's naming
    assert photo_family("hand_013_jpg") != photo_family("IMG_2742_JPG")


def _photo(split: Path, stem: str, label: str = "0 0.5 0.5 0.2 0.3\n") -> None:
    (split / "images").mkdir(parents=True, exist_ok=True)
    (split / "labels").mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(split / "images" / f"{stem}.jpg"), np.full((20, 20, 3), 128, np.uint8))
    (split / "labels" / f"{stem}.txt").write_text(label)


def test_valid_photos_of_a_shoot_no_training_photo_comes_from_are_set_apart(tmp_path):
    for stem in ("hand_001_jpg.rf.aa", "hand_002_jpg.rf.bb", "IMG_20231224_161923_jpg.rf.cc"):
        _photo(tmp_path / "train", stem)
    for stem in ("hand_020_jpg.rf.dd", "IMG_2742_JPG.rf.ee", "IMG_2743_JPG.rf.ff", "Screenshot-2023-10-24_png.rf.gg"):
        _photo(tmp_path / "valid", stem, label=f"{len(stem) % 34} 0.5 0.5 0.2 0.3\n")
    groups = unseen_families(tmp_path / "train", tmp_path / "valid")
    assert {k: [p.stem for p in v] for k, v in groups.items()} == {
        "IMG_####_JPG": ["IMG_2742_JPG.rf.ee", "IMG_2743_JPG.rf.ff"],
        "Screenshot-####-##-##_png": ["Screenshot-2023-10-24_png.rf.gg"],
    }  # hand_020 is of a family train has, so it is not set apart
    out = write_split(groups["IMG_####_JPG"], tmp_path / "unseen")
    assert sorted(p.name for p in (out / "images").iterdir()) == ["IMG_2742_JPG.rf.ee.jpg", "IMG_2743_JPG.rf.ff.jpg"]
    assert (out / "labels" / "IMG_2743_JPG.rf.ff.txt").read_text() == (tmp_path / "valid" / "labels" / "IMG_2743_JPG.rf.ff.txt").read_text()


def _fixes(path: Path, *rows: str) -> Path:
    path.write_text("# a comment line\nsplit,image,cx,cy,was,is\n" + "".join(r + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_label_a_person_found_wrong_is_corrected_on_import(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    _make_dataset(src)
    fixes = _fixes(tmp_path / "fixes.csv", "train,ok,0.5,0.5,1m,9m")
    report = import_yolo_dataset(src, dst, {"sc1": "1m", "sd2": "2p"}, label_fixes=fixes)
    assert [CLASS_NAMES[b.cls] for b in read_yolo_labels(dst / "train/labels/ok.txt")] == ["9m", "2p"]
    assert report.labels_fixed == {"train": 1, "valid": 0}
    assert "1 wrong labels corrected" in report.summary()
    untouched = import_yolo_dataset(src, tmp_path / "plain", {"sc1": "1m", "sd2": "2p"}, label_fixes=None)
    assert [CLASS_NAMES[b.cls] for b in read_yolo_labels(tmp_path / "plain/train/labels/ok.txt")] == ["1m", "2p"]
    assert untouched.labels_fixed == {"train": 0, "valid": 0}


def test_a_fix_whose_box_is_not_in_its_photo_is_reported_not_applied_elsewhere(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    _make_dataset(src)
    fixes = _fixes(tmp_path / "fixes.csv",
                   "train,ok,0.7,0.5,1m,9m",         # no box there
                   "train,ok,0.5,0.5,2p,9m",         # a box there, but of another class
                   "train,not_in_this_dataset,0.5,0.5,1m,9m")  # another dataset's photo: nothing to say
    report = import_yolo_dataset(src, dst, {"sc1": "1m", "sd2": "2p"}, label_fixes=fixes)
    assert [CLASS_NAMES[b.cls] for b in read_yolo_labels(dst / "train/labels/ok.txt")] == ["1m", "2p"]
    assert [(f.cx, f.was) for f in report.fixes_not_found] == [(0.7, "1m"), (0.5, "2p")]
    assert "label fix not applied, no 1m box at (0.7, 0.5) in train/ok" in report.summary()


def test_a_tile_the_labels_left_out_is_added_on_import_once(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    _make_dataset(src)
    (tmp_path / "fixes.csv").write_text("split,image,cx,cy,was,is,w,h\n"
                                        "train,ok,0.2,0.2,-,7z,0.1,0.1\n"     # nothing labelled there: added
                                        "train,ok,0.5,0.5,-,9m,0.06,0.07\n",  # the 1m box is there already
                                        encoding="utf-8")
    report = import_yolo_dataset(src, dst, {"sc1": "1m", "sd2": "2p"}, label_fixes=tmp_path / "fixes.csv")
    labels = read_yolo_labels(dst / "train/labels/ok.txt")
    assert [CLASS_NAMES[b.cls] for b in labels] == ["1m", "2p", "7z"]
    assert (labels[-1].cx, labels[-1].cy, labels[-1].w, labels[-1].h) == pytest.approx((0.2, 0.2, 0.1, 0.1))
    assert "label not added, train/ok already labels a box at (0.5, 0.5)" in report.summary()


def test_an_unreadable_label_fixes_file_says_which_line(tmp_path):
    with pytest.raises(DatasetError, match="unreadable line"):
        read_label_fixes(_fixes(tmp_path / "a.csv", "train,ok,half,0.5,1m,9m"))
    with pytest.raises(UnknownClassError, match="unknown tile '10m'"):
        read_label_fixes(_fixes(tmp_path / "b.csv", "train,ok,0.5,0.5,1m,10m"))
    (tmp_path / "c.csv").write_text("split,image,cx,cy,was,is,w,h\ntrain,ok,0.5,0.5,-,1m,,\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="unreadable line"):  # a box added needs its size
        read_label_fixes(tmp_path / "c.csv")


def test_the_shipped_cmd_v4_fixes_each_find_their_box():
    """Every fix of `datasets/cmd-v4-label-fixes.csv` names a box of the photo with the wrong class (checked on
    the dataset's own label files, so a changed download is caught)."""
    fixes = read_label_fixes(CMD_V4_LABEL_FIXES)
    assert [sum(f.split == s for f in fixes) for s in ("valid", "train")] == [27, 3] and all(f.was != f.shows for f in fixes)
    assert sum(f.adds for f in fixes) == 5
    source = Path(__file__).resolve().parents[2].parent / "shared/data/chinese-mahjong-detection-v4"
    if not (source / "valid/labels").is_dir():
        pytest.skip(f"CMD v4 is not at {source}")
    index_map = class_index_map(load_names(source / "data.yaml"), CMD_V4_NAME_MAP)
    for fix in fixes:
        boxes = remap_label(read_yolo_labels(source / fix.split / "labels" / f"{fix.image}.txt"), index_map)
        fixed, missing = fix_labels(boxes, [fix])
        assert not missing, fix
        if fix.adds:
            assert fixed[:-1] == boxes and CLASS_NAMES[fixed[-1].cls] == fix.shows
        else:
            assert sum(a != b for a, b in zip(boxes, fixed)) == 1
