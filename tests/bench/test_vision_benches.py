"""The vision benchmarks run on a few rendered scenes and print their figures (values not asserted)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from vision.reader.detector import DEFAULT_CLASSIFIER

BENCH = Path(__file__).resolve().parents[2] / "bench"
needs_kde = pytest.mark.skipif(
    not (Path("/usr/share/kmahjongglib/tilesets/classic.svgz").exists() and shutil.which("rsvg-convert")),
    reason="needs kdegames-mahjongg-data-kf5 and librsvg2-bin (scripts/install_test_system_deps.sh)",
)


def _load(name: str):  # noqa: ANN202 - a bench module
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _two_scenes(folder: Path, seed: int) -> Path:
    """Two unwarped scenes of the trained-on KDE `default` art as a YOLO split (the held-out bench's renderer)."""
    return _load("heldout_tileset").render_split(folder, "default", 2, seed, perspective=0.0)


@needs_kde
def test_heldout_tileset_bench_reads_the_unseen_set_beside_a_trained_one(capsys) -> None:
    pytest.importorskip("ultralytics")  # evaluate's AP code
    assert _load("heldout_tileset").main(["2", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("classic") and "never trained on" in lines[0] and "mAP50" in lines[0]
    assert lines[2].startswith("default") and "trained on" in lines[2]



def test_heldout_tileset_bench_refuses_a_tile_set_whose_art_is_not_there_by_name(tmp_path, capsys) -> None:
    missing = tmp_path / "no-such-tileset"
    assert _load("heldout_tileset").main(["2", "--tileset", str(missing), "--reference", ""]) == 2
    assert f"{missing}.svgz" in capsys.readouterr().err

@needs_kde
def test_classifier_variants_bench_scores_each_classifier_from_cached_boxes(tmp_path, capsys) -> None:
    pytest.importorskip("ultralytics")
    _two_scenes(tmp_path / "split", seed=2)
    cache = tmp_path / "boxes.pkl"
    args = [str(tmp_path / "split"), str(DEFAULT_CLASSIFIER), "--cache", str(cache), "--conf", "0.25", "0.5"]
    assert _load("classifier_variants").main(args) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "per-tile" in line]
    assert len(rows) == 2 and "conf 0.25" in rows[0] and "conf 0.50" in rows[1] and cache.is_file()
    from vision.reader import classifier as C

    before = C.CROP_MARGIN, C.SECOND_LOOK_BELOW
    assert _load("classifier_variants").main([*args, "--no-second-look", "--margin", "0.08"]) == 0  # cache read back
    assert "margin 0.08, second look below 0.0" in capsys.readouterr().out
    assert before == (C.CROP_MARGIN, C.SECOND_LOOK_BELOW)  # the app's reading is left as it was


@needs_kde
def test_photo_robustness_bench_scores_each_changed_copy_against_the_unchanged_photos(tmp_path, capsys) -> None:
    pytest.importorskip("ultralytics")
    from PIL import Image

    _two_scenes(tmp_path / "split", seed=4)
    bench = _load("photo_robustness")
    assert bench.main([str(tmp_path / "split"), "--only", "none,third,blur"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [r.split()[0] for r in rows] == ["none", "third", "blur"]
    assert "(+0.000)" in rows[0] and "2 photos" in rows[0]
    changed, refused = bench.changed_split(tmp_path / "split", tmp_path / "third", bench.CHANGES["third"][1], limit=1)
    assert refused == 0
    src = sorted((tmp_path / "split" / "images").iterdir())[0]
    (out,) = (changed / "images").iterdir()
    assert Image.open(out).width == round(Image.open(src).width / 3)  # smaller photo, the same labels
    assert (changed / "labels" / f"{src.stem}.txt").read_text() == (tmp_path / "split" / "labels" / f"{src.stem}.txt").read_text()
    assert bench.main([str(tmp_path / "split"), "--only", "fog"]) == 2  # an unknown change is refused
    assert "unknown change" in capsys.readouterr().err


def test_photo_robustness_bench_skips_and_counts_photos_the_reader_refuses_as_too_small(tmp_path, capsys) -> None:
    pytest.importorskip("ultralytics")  # evaluate's AP code
    import cv2
    import numpy as np

    split = tmp_path / "split"
    (split / "images").mkdir(parents=True)
    (split / "labels").mkdir()
    for name, (h, w) in {"photo": (300, 400), "screenshot": (40, 600)}.items():  # a third of 40 px is 13 px
        cv2.imwrite(str(split / "images" / f"{name}.jpg"), np.full((h, w, 3), 120, np.uint8))
        (split / "labels" / f"{name}.txt").write_text("0 0.5 0.5 0.1 0.5\n")
    bench = _load("photo_robustness")
    assert bench.main([str(split), "--only", "none,third"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [r.split()[0] for r in rows] == ["none", "third"]
    assert "(2 photos" in rows[0] and "skipped" not in rows[0]
    assert "(1 photos" in rows[1] and "1 skipped, too small for the reader" in rows[1]
    changed, refused = bench.changed_split(split, tmp_path / "third", bench.CHANGES["third"][1], limit=2)
    assert refused == 1 and [p.name for p in (changed / "labels").iterdir()] == ["photo.txt"]


@needs_kde
def test_unseen_sources_bench_sets_apart_the_shoots_train_never_saw(tmp_path, capsys) -> None:
    pytest.importorskip("ultralytics")
    import yaml

    from vision.reader.detection import CLASS_NAMES

    src = tmp_path / "src"
    valid = _two_scenes(src / "valid", seed=5)  # default_0000 and default_0001
    for sub, suffix in (("images", ".jpg"), ("labels", ".txt")):  # one of them as another camera names its photos
        (valid / sub / f"default_0001{suffix}").rename(valid / sub / f"IMG_2742_JPG{suffix}")
    (src / "train" / "images").mkdir(parents=True)
    shutil.copy(valid / "images" / "default_0000.jpg", src / "train" / "images" / "default_0999.jpg")
    (src / "data.yaml").write_text(yaml.safe_dump({"names": list(CLASS_NAMES)}))
    bench = _load("unseen_sources")
    assert bench.main(["--source", str(src)]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [r.split(" (")[0].strip() for r in rows] == ["IMG_####_JPG", "all unseen shoots", "shoots train also has"]
    assert all("(1 photos" in r and "mAP50" in r for r in rows)
    assert bench.main(["--source", str(src), "--write", str(tmp_path / "by-shoot")]) == 0
    assert [p.name for p in (tmp_path / "by-shoot" / "unseen" / "images").iterdir()] == ["IMG_2742_JPG.jpg"]
    assert [p.name for p in (tmp_path / "by-shoot" / "seen" / "labels").iterdir()] == ["default_0000.txt"]
    capsys.readouterr()
    assert bench.main(["--source", str(tmp_path / "elsewhere")]) == 2
    assert "no train/ and valid/" in capsys.readouterr().err
