"""Camera changes (vision.training.synth.camera): motion blur, lost resolution, and camera copies of labelled photos."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.training.synth.camera import COPY_PREFIX, camera_change, low_resolution, motion_blur, write_camera_copies

H, W = 64, 48


def test_motion_blur_smears_along_its_line_only() -> None:
    img = np.zeros((H, W, 3), np.uint8)
    img[:, W // 2] = 240  # one bright vertical line
    across = motion_blur(img, 7, 0.0)[:, :, 0].astype(int)  # blurred sideways: the line widens to 7 px
    assert (across[H // 2] > 0).sum() == 7 and across[H // 2].max() < 60
    along = motion_blur(img, 7, 90.0)[:, :, 0].astype(int)  # blurred along the line: it stays one pixel wide
    assert (along[H // 2] > 200).sum() == 1 and (along[H // 2] > 0).sum() <= 2


def test_low_resolution_loses_fine_detail_but_keeps_the_picture() -> None:
    fine = np.indices((H, W)).sum(axis=0) % 2 * 255  # a 1-pixel checkerboard
    img = np.repeat(fine[..., None], 3, axis=2).astype(np.uint8)
    img[:, : W // 2] = 0  # and a coarse dark half
    out = low_resolution(img, 0.4).astype(int)
    assert out.shape == img.shape
    assert np.ptp(out[8:-8, W * 3 // 4]) < 80  # the checkerboard is now a grey
    assert out[:, : W // 2 - 3].mean() < 10 and out[:, W // 2 + 3 :].mean() > 90  # the halves stay


def test_camera_change_keeps_the_size_and_softens_the_photo() -> None:
    rng = np.random.default_rng(0)
    fine = (np.indices((200, 300)).sum(axis=0) % 2 * 200 + 20).astype(np.uint8)
    img = np.repeat(fine[..., None], 3, axis=2)
    for _ in range(6):
        out = camera_change(img, rng)
        assert out.shape == img.shape and out.dtype == np.uint8
        assert np.abs(np.diff(out.astype(int), axis=1)).mean() < 0.5 * np.abs(np.diff(img.astype(int), axis=1)).mean()


def _split(root: Path, names: list[str]) -> Path:
    import cv2

    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    for i, name in enumerate(names):
        img = np.full((60, 80, 3), 30 * i, np.uint8)
        cv2.imwrite(str(root / "images" / f"{name}.jpg"), img)
        (root / "labels" / f"{name}.txt").write_text(f"{i} 0.5 0.5 0.2 0.3\n")
    return root


def test_camera_copies_carry_their_photos_labels_and_replace_earlier_copies(tmp_path) -> None:
    import cv2

    split = _split(tmp_path / "train", ["IMG_1", "IMG_2", "synth_00001"])
    assert write_camera_copies(split, 5, seed=1) == 5
    copies = sorted((split / "images").glob(COPY_PREFIX + "*"))
    assert len(copies) == 5
    for c in copies:
        label = (split / "labels" / f"{c.stem}.txt").read_text()
        assert label in {"0 0.5 0.5 0.2 0.3\n", "1 0.5 0.5 0.2 0.3\n"}  # from a photo, never from a synthetic scene
        assert cv2.imread(str(c)).shape == (60, 80, 3)  # same size, so the labels still fit
    assert write_camera_copies(split, 2, seed=1) == 2  # a rerun replaces the copies instead of adding to them
    assert len(list((split / "images").glob(COPY_PREFIX + "*"))) == 2
    assert len(list((split / "labels").glob(COPY_PREFIX + "*"))) == 2
    assert write_camera_copies(split, 0) == 0 and not list((split / "images").glob(COPY_PREFIX + "*"))


def test_train_cli_adds_camera_copies_and_passes_close_mosaic(tmp_path, monkeypatch, capsys) -> None:
    from app.cli import main
    from vision.training import detector as T

    data = tmp_path / "d"
    _split(data / "train", ["IMG_1", "IMG_2"])
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


def test_train_cli_sends_a_run_to_a_gpu(tmp_path, monkeypatch) -> None:
    """`--device 0 --workers 12 --patience 0` reach ultralytics, for the long run on a lent GPU machine."""
    from app.cli import main
    from vision.training import detector as T

    data = tmp_path / "d"
    _split(data / "train", ["IMG_1"])
    seen: list[T.TrainConfig] = []
    monkeypatch.setattr(T, "train", lambda cfg: seen.append(cfg) or tmp_path / "run")
    assert main(["train", "detector", "--source", "", "--data-dir", str(data), "--device", "0", "--workers", "12",
                 "--patience", "0", "--seed", "3"]) == 0
    assert (seen[0].device, seen[0].workers, seen[0].patience, seen[0].seed) == ("0", 12, 0, 3)
