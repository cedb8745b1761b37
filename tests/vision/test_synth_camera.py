"""Camera changes (vision.training.synth.camera): motion blur, lost resolution, and camera copies of labelled photos."""

from __future__ import annotations

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


def test_camera_copies_carry_their_photos_labels_and_replace_earlier_copies(tmp_path, yolo_split) -> None:
    import cv2

    split = yolo_split(tmp_path / "train", ["IMG_1", "IMG_2", "synth_00001"])
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


