"""What another camera does to a photo: a hand-held shot's motion blur, a farther or lower-resolution
camera's lost detail.  Geometry is unchanged, so a photo's YOLO labels stay exact.

Used three ways: the crop classifier's augmentation (`vision.training.classifier.augment`), camera-changed
copies of labelled photos for the detector's training data (`write_camera_copies`, `jingsuan train
--camera-copies N`), and `bench/photo_robustness.py`, which measures how much each change costs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

#: Motion blur of a camera copy, as a share of the photo's longer side (640 px → 3 to 13 px).
COPY_BLUR_SHARE = (0.005, 0.02)
#: Resolution a camera copy keeps (shrunk to this share and grown back).
COPY_SCALE = (0.3, 0.6)
#: Prefix of camera-copy files in a training split, so that a rerun replaces them instead of copying copies.
COPY_PREFIX = "camera_"


def motion_blur(img: np.ndarray, length: int, angle: float) -> np.ndarray:
    """`img` smeared along a straight line of `length` pixels at `angle` degrees."""
    import cv2

    length = max(1, int(length))
    k = np.zeros((length, length), np.float32)
    k[length // 2, :] = 1.0
    centre = ((length - 1) / 2, (length - 1) / 2)
    k = cv2.warpAffine(k, cv2.getRotationMatrix2D(centre, angle, 1.0), (length, length))
    return cv2.filter2D(img, -1, k / max(float(k.sum()), 1e-6), borderType=cv2.BORDER_REPLICATE)


def low_resolution(img: np.ndarray, scale: float) -> np.ndarray:
    """`img` shrunk to `scale` of its size and grown back: the detail a farther camera loses."""
    import cv2

    h, w = img.shape[:2]
    small = cv2.resize(img, (max(2, round(w * scale)), max(2, round(h * scale))), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def camera_change(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """`img` as a shakier or lower-resolution camera would have taken it: motion blur, lost detail, or both."""
    kind = rng.integers(3)  # 0 blur, 1 low resolution, 2 both
    out = img
    if kind != 1:
        length = round(max(img.shape[:2]) * rng.uniform(*COPY_BLUR_SHARE))
        out = motion_blur(out, max(3, length), float(rng.uniform(0, 180)))
    if kind != 0:
        out = low_resolution(out, float(rng.uniform(*COPY_SCALE)))
    return out


def write_camera_copies(split: str | Path, n: int, seed: int = 0) -> int:
    """Write `n` camera-changed copies of random labelled photos of the YOLO split `split` into it
    (`camera_00000.jpg` … with the photo's labels); earlier copies are removed first. Returns how many."""
    import cv2

    from vision.datasets.yolo import image_files, label_file

    split = Path(split)
    labels = split / "labels"
    for old in [*(split / "images").glob(COPY_PREFIX + "*"), *labels.glob(COPY_PREFIX + "*")]:
        old.unlink()
    photos = [p for p in image_files(split) if label_file(p).is_file() and not p.stem.startswith("synth_")]
    if not photos or n <= 0:
        return 0
    rng = np.random.default_rng(seed)
    written = 0
    for i, k in enumerate(rng.choice(len(photos), size=n, replace=n > len(photos))):
        src = photos[int(k)]
        img = cv2.imread(str(src), cv2.IMREAD_COLOR)
        if img is None:
            continue
        stem = f"{COPY_PREFIX}{i:05d}"
        cv2.imwrite(str(split / "images" / f"{stem}.jpg"), camera_change(img, rng), [cv2.IMWRITE_JPEG_QUALITY, 90])
        shutil.copy(label_file(src), labels / f"{stem}.txt")
        written += 1
    return written
