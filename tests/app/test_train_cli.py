"""`jingsuan train detector|classifier`, `jingsuan finetune DATASET` and `jingsuan adopt RUN` as a user runs them
(the training itself is faked where it would take minutes; tests/vision holds what it does)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.datasets.store import DatasetStore
from vision.datasets.unlabelled import FILL
from vision.reader.classifier import CLASSIFIER_NAMES
from vision.training.registry import FinetuneResult, Scores
from vision.training.synth import render as synth_render
from vision.training.synth.camera import COPY_PREFIX

needs_noto = pytest.mark.skipif(not any((synth_render.NOTO_DIR / f).exists() for f, _ in synth_render.NOTO_FONTS),
                                reason="needs fonts-noto-cjk (scripts/install_test_system_deps.sh)")


def kept_result(after: Scores | None = None) -> FinetuneResult:
    """A fine-tuning run whose candidate was kept back."""
    return FinetuneResult("2025-01-02 03:04 UTC", "team", 5, 1, 0, "tiles.pt", Scores(0.25, 0.5),
                          after or Scores(0.5, 0.75), False, Path("c.onnx"), Path("w"))


def test_train_asks_which_part_to_train_and_where_the_classifier_goes(capsys) -> None:
    from app.cli import main

    for argv in (["train"], ["train", "classifier"]):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 2
    err = capsys.readouterr().err
    assert "detector|classifier" in err and "out" in err



@pytest.mark.parametrize(("argv", "refused"), [
    (["finetune", "team", "--epochs", "0"], "--epochs: 应是不小于 1 的整数：0"),
    (["finetune", "team", "--batch", "-1"], "--batch: 应是不小于 1 的整数：-1"),
    (["finetune", "team", "--imgsz", "8"], "--imgsz: 应是不小于 32 的整数：8"),
    (["train", "detector", "--epochs", "ten"], "--epochs: 应是不小于 1 的整数：ten"),
    (["train", "detector", "--workers", "-1"], "--workers: 应是不小于 0 的整数：-1"),
    (["train", "classifier", "c.onnx", "--epochs", "0"], "--epochs: 应是不小于 1 的整数：0"),
    (["train", "classifier", "c.onnx", "--widths", "12,24,48"], "--widths: 应是四个以逗号分隔的正整数：12,24,48"),
    (["train", "classifier", "c.onnx", "--widths", "12,0,48,80"], "--widths: 应是四个以逗号分隔的正整数：12,0,48,80"),
])
def test_training_numbers_that_cannot_train_are_refused_before_any_photo_is_loaded(argv, refused, capsys) -> None:
    from app.cli import main

    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2 and refused in capsys.readouterr().err

def glyph_data(root: Path, seed: int, train: int) -> np.random.Generator:
    """`train` + 1 `valid` scenes drawn in the glyph tileset under `root`; returns the generator, to draw on."""
    from vision.training.synth import random_scene, write_yolo_sample

    rng = np.random.default_rng(seed)
    for split, n in (("train", train), ("valid", 1)):
        for i in range(n):
            write_yolo_sample(random_scene(rng, tileset="glyph", tile_height=40), root / split, f"s{i}")
    return rng


@needs_noto
def test_train_classifier_only_trains_from_labelled_photos_and_varied_scenes(tmp_path, capsys) -> None:
    pytest.importorskip("torch")
    from app.cli import main
    from vision.reader.classifier import TileClassifier

    glyph_data(tmp_path / "d", 5, train=3)
    out = tmp_path / "cls.onnx"
    rc = main(["train", "classifier", str(out), "--source", "", "--data-dir", str(tmp_path / "d"),
               "--epochs", "1", "--varied", "2", "--judge", ""])  # fmt: skip
    assert rc == 0
    printed = capsys.readouterr().out
    photo_tiles = sum(len(p.read_text().splitlines()) for p in (tmp_path / "d" / "train" / "labels").iterdir())
    train_crops = int(printed.split("classifier crops: train ")[1].split(",")[0])
    assert train_crops > photo_tiles + 15  # the photos' tiles, the two varied scenes' tiles and mined `none` boxes
    assert TileClassifier(out).names == CLASSIFIER_NAMES and out.with_suffix(".pt").is_file()


@needs_noto
def test_train_classifier_with_the_pretrained_backbone_writes_a_classifier_the_reader_loads(tmp_path, capsys) -> None:
    """`--backbone lite0 --upsample 1.5`: the EfficientNet-Lite0 half of the shipped pair, from the packaged ImageNet
    weights, its crop read 1.5× larger inside the graph; int8, with its weights beside it."""
    pytest.importorskip("torch")
    from app.cli import main
    from vision.reader.classifier import CROP_H, CROP_W, TileClassifier

    rng = glyph_data(tmp_path / "d", 6, train=2)
    out = tmp_path / "lite.onnx"
    rc = main(["train", "classifier", str(out), "--source", "", "--data-dir", str(tmp_path / "d"), "--epochs", "1",
               "--judge", "", "--backbone", "lite0", "--upsample", "1.5"])  # fmt: skip
    assert rc == 0 and "classifier crops: train" in capsys.readouterr().out
    clf = TileClassifier(out)
    assert clf.names == CLASSIFIER_NAMES and out.with_suffix(".pt").is_file()
    crops = rng.integers(0, 255, (3, CROP_H, CROP_W, 3), dtype=np.uint8)
    assert clf(crops).shape == (3, len(CLASSIFIER_NAMES))
    assert clf.session.get_modelmeta().custom_metadata_map.get("backbone", "").startswith("efficientnet-lite0")


def test_train_pair_joins_two_classifiers_into_the_file_the_reader_opens(tmp_path, capsys, tiny_classifier) -> None:
    from app.cli import main
    from vision.reader.classifier import TileClassifier
    from vision.training.ensemble import pair_weight

    first, second = tiny_classifier(tmp_path / "v9.onnx", 1), tiny_classifier(tmp_path / "lite.onnx", 2)
    out = tmp_path / "models" / "tile_classifier.onnx"
    assert main(["train", "pair", str(first), str(second), str(out), "--weight", "0.6"]) == 0
    assert "0.6 × v9.onnx + 0.4 × lite.onnx" in capsys.readouterr().out
    assert pair_weight(out) == 0.6 and TileClassifier(out).names == CLASSIFIER_NAMES


def test_train_pair_says_what_is_wrong_with_its_input(tmp_path, capsys, tiny_classifier) -> None:
    from app.cli import main

    first = tiny_classifier(tmp_path / "v9.onnx", 1)
    assert main(["train", "pair", str(first), str(tmp_path / "nope.onnx"), str(tmp_path / "out.onnx")]) != 0
    err = capsys.readouterr().err
    assert "找不到牌面分类模型" in err and "nope.onnx" in err and "Traceback" not in err
    assert main(["train", "pair", str(first), str(first), str(tmp_path / "out.onnx"), "--weight", "1.5"]) != 0
    assert "--weight" in capsys.readouterr().err and not (tmp_path / "out.onnx").exists()


def test_train_classifier_says_what_is_wrong_with_a_teacher_before_any_photo_is_loaded(tmp_path, capsys,
                                                                                     monkeypatch) -> None:
    from app.cli import main
    from vision.training import classifier

    monkeypatch.setattr(classifier, "crop_sets", lambda *a, **k: pytest.fail("photos loaded before the check"))
    out = tmp_path / "c.onnx"
    base = ["train", "classifier", str(out), "--source", "", "--data-dir", str(tmp_path / "d")]
    assert main([*base, "--teacher", str(tmp_path / "nope.onnx")]) != 0
    err = capsys.readouterr().err
    assert "找不到老师模型" in err and "nope.onnx" in err and "Traceback" not in err
    assert main([*base, "--backbone", "lite0", "--widths", "12,24,48,80"]) != 0
    assert "只用于 v9" in capsys.readouterr().err and not out.exists()


def test_train_cli_adds_camera_copies_and_passes_close_mosaic(tmp_path, monkeypatch, capsys, yolo_split) -> None:
    from app.cli import main
    from vision.training import detector as T

    data = tmp_path / "d"
    yolo_split(data / "train", ["IMG_1", "IMG_2"])
    seen: list[T.TrainConfig] = []

    def fake_train(cfg: T.TrainConfig) -> Path:  # the YOLO run itself is the smoke test's business
        seen.append(cfg)
        return tmp_path / "run"

    monkeypatch.setattr(T, "train", fake_train)
    rc = main(["train", "detector", "--source", "", "--data-dir", str(data), "--single-class", "--camera-copies", "3",
               "--close-mosaic", "2", "--project", str(tmp_path / "runs")])  # fmt: skip
    assert rc == 0 and "camera copies: 3" in capsys.readouterr().out
    assert len(list((data / "train" / "images").glob(COPY_PREFIX + "*"))) == 3
    (cfg,) = seen
    assert cfg.close_mosaic == 2 and cfg.single_cls and cfg.data == str(data / "data.yaml")
    assert cfg.device == "cpu" and cfg.workers == 2 and cfg.patience == 50  # the defaults: a laptop without a GPU
    assert cfg.seed == 0


def test_train_cli_sends_a_run_to_a_gpu(tmp_path, monkeypatch, yolo_split) -> None:
    """`--device 0 --workers 12 --patience 0` reach ultralytics, for the long run on a lent GPU machine."""
    from app.cli import main
    from vision.training import detector as T

    data = tmp_path / "d"
    yolo_split(data / "train", ["IMG_1"])
    seen: list[T.TrainConfig] = []
    monkeypatch.setattr(T, "train", lambda cfg: seen.append(cfg) or tmp_path / "run")
    assert main(["train", "detector", "--source", "", "--data-dir", str(data), "--device", "0", "--workers", "12",
                 "--patience", "0", "--seed", "3"]) == 0
    assert (seen[0].device, seen[0].workers, seen[0].patience, seen[0].seed) == ("0", 12, 0, 3)


def test_train_cli_paints_partly_labelled_photos_before_it_copies_them(tmp_path, monkeypatch, capsys):
    """`jingsuan train detector --paint-unlabelled`: dropped flowers and partly labelled photos are painted, before
    the camera copies are made (so copies of a painted photo are painted too); without it, nothing is."""
    import yaml

    import vision.datasets.unlabelled as U
    from app.cli import main
    from vision.training import detector as T

    src = tmp_path / "src"
    (src / "train" / "images").mkdir(parents=True)
    (src / "train" / "labels").mkdir()
    (src / "data.yaml").write_text(yaml.safe_dump({"names": ["bf1", "sc1"]}))
    cv2.imwrite(str(src / "train/images/a_jpg.rf.1.jpg"), np.full((400, 400, 3), 200, np.uint8))
    (src / "train/labels/a_jpg.rf.1.txt").write_text("1 0.2875 0.3 0.075 0.1\n0 0.7 0.3 0.075 0.1\n")  # 1萬 and a flower
    table_tiles = [(300.0, 300.0, 330.0, 340.0), (20.0, 300.0, 50.0, 340.0)]
    monkeypatch.setattr(U, "detector_finder", lambda: lambda rgb: table_tiles)
    seen = []
    monkeypatch.setattr(T, "train", lambda cfg: seen.append(cfg) or tmp_path / "run")
    data = tmp_path / "d"
    split = data / "train"
    assert main(["train", "detector", "--source", str(src), "--data-dir", str(data), "--paint-unlabelled", "--camera-copies", "1"]) == 0
    out = capsys.readouterr().out
    assert "painted over in 1 images" in out and "1 of 1 photos labelled only in part" in out
    painted = cv2.imread(str(split / "images" / "a_jpg.rf.1.png"))
    assert (painted[320, 315] == FILL).all() and (painted[120, 280] == FILL).all()  # a table tile, the flower
    assert (painted[120, 115] == 200).all()  # the labelled 1萬
    (copy,) = (split / "images").glob("camera_*")
    assert abs(int(cv2.imread(str(copy))[320, 315, 0]) - FILL[0]) < 20
    assert main(["train", "detector", "--source", str(src), "--data-dir", str(data)]) == 0  # the default: nothing painted
    assert (split / "images" / "a_jpg.rf.1.jpg").is_symlink() and not (split / "images" / "a_jpg.rf.1.png").exists()
    assert len(seen) == 2


def test_fine_tuning_on_a_team_dataset_first_warns_of_unboxed_tiles(tmp_path, monkeypatch, capsys):
    """`jingsuan finetune NAME` says how many photos leave tiles unboxed before it trains (and trains anyway)."""
    import vision.training.finetune as F
    from app.cli import main
    from vision.datasets.store import DatasetError, DatasetStore, LabeledBox
    from vision.training.synth import random_scene

    store = DatasetStore(tmp_path / "datasets" / "team")
    scene = random_scene(np.random.default_rng(4), tileset="jade", perspective=0.0)
    png = cv2.imencode(".png", cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR))[1].tobytes()
    store.add_example(png, [LabeledBox(*t.box, t.tile) for t in scene.tiles[::3]])
    trained = []

    def fake_finetune(*args: object, **kw: object) -> None:  # the training itself is test_finetune's business
        trained.append(args)
        raise DatasetError("停在这里", "stop here")

    monkeypatch.setattr(F, "finetune", fake_finetune)
    monkeypatch.setenv("JINGSUAN_DATASETS", str(tmp_path / "datasets"))
    assert main(["finetune", "team", "--model-dir", "models"]) == 2
    assert "注意：1 / 1 张照片有漏标的牌" in capsys.readouterr().err and len(trained) == 1
    store.save_labels(store.stems()[0], [LabeledBox(*t.box, t.tile) for t in scene.tiles])  # every tile boxed
    main(["finetune", "team", "--model-dir", "models"])
    assert "漏标" not in capsys.readouterr().err and len(trained) == 2


def test_finetune_and_adopt_run_with_their_options(tmp_path, monkeypatch, capsys):
    import vision.training.finetune as F
    from app.cli import main

    seen: dict[str, object] = {}

    def fake(store_root: Path, model_dir: str, **kw: object) -> FinetuneResult:
        seen.update(store_root=store_root, model_dir=model_dir, **kw)
        return kept_result()

    monkeypatch.setattr(F, "finetune", fake)
    monkeypatch.setenv("JINGSUAN_DATASETS", str(tmp_path / "datasets"))
    team = DatasetStore(tmp_path / "datasets" / "team")
    for shade in (60, 120):
        team.add_example(cv2.imencode(".png", np.full((64, 96, 3), shade, np.uint8))[1].tobytes(), [(10, 10, 40, 50, "1m")])
    rc = main(["finetune", "team", "--model-dir", str(tmp_path / "m"), "--epochs", "3", "--imgsz", "96",
               "--holdout", "0.5", "--base-data", str(tmp_path / "nope")])  # fmt: skip
    out = capsys.readouterr().out
    assert rc == 0 and "decision: kept" in out and "too few" not in out  # the tile count is not known here
    assert seen["store_root"] == tmp_path / "datasets" / "team" and seen["model_dir"] == tmp_path / "m"
    assert seen["epochs"] == 3 and seen["imgsz"] == 96 and seen["holdout"] == 0.5 and seen["detector"] is True
    assert main(["finetune", "team", "--model-dir", str(tmp_path / "m"), "--classifier-only"]) == 0
    assert seen["detector"] is False  # the quick path: the classifier alone
    monkeypatch.setattr(F, "finetune", lambda *_a, **_k: kept_result(Scores(0.9, 0.95, tiles=41)))
    assert main(["finetune", "team", "--model-dir", str(tmp_path / "m")]) == 0
    out = capsys.readouterr().out
    assert "留出的照片只有 41 张牌" in out and "jingsuan adopt w" in out  # a judge of 41 tiles is said to be weak
    models = tmp_path / "m2"
    models.mkdir()
    for name, data in (("tiles.onnx", b"old-onnx"), ("tile_classifier.onnx", b"old-cls")):
        (models / name).write_bytes(data)
    run = tmp_path / "runs" / "finetune" / "team-1"
    (run / "candidate").mkdir(parents=True)
    (run / "candidate" / "tiles.onnx").write_bytes(b"old-onnx")
    (run / "candidate" / "tile_classifier.onnx").write_bytes(b"new-cls")
    capsys.readouterr()
    assert main(["adopt", str(run), "--model-dir", str(models)]) == 0
    assert "已换上：tile_classifier.onnx" in capsys.readouterr().out
    assert (models / "tile_classifier.onnx").read_bytes() == b"new-cls"
    assert main(["adopt", str(tmp_path / "nothing"), "--model-dir", str(models)]) == 2
    assert "没有微调留下的候选模型" in capsys.readouterr().err
    assert main(["finetune", str(tmp_path / "missing")]) == 2
