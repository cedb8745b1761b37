"""Composed real-pixel photos (`vision.training.synth.composed`): a split whose photos are all crowded still composes."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np

from vision.reader.detection import CLASS_NAMES
from vision.training.synth.composed import build_banks, compose


def crowded_photo(folder: Path, name: str) -> Path:
    """A 'photo' crowded with labelled tiles: only a thin strip of table shows, no rectangle of bare table."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    img = np.full((360, 520, 3), (40, 120, 60), np.uint8)  # BGR: a green cloth, a strip of it bare
    lines = []
    cols, rows = 12, 4
    for k in range(cols * rows):
        r, c = divmod(k, cols)
        x1, y1 = c * 40, r * 80
        img[y1 + 4 : y1 + 76, x1 + 3 : x1 + 37] = rng.integers(150, 255, 3)
        cls = k % (len(CLASS_NAMES) - 2)  # faces only
        lines.append(f"{cls} {(x1 + 20) / 520:.5f} {(y1 + 40) / 360:.5f} {40 / 520:.5f} {80 / 360:.5f}")
    path = folder / "images" / f"{name}.jpg"
    cv2.imwrite(str(path), img)
    (folder / "labels" / f"{name}.txt").write_text("\n".join(lines) + "\n")
    return path


def test_a_shoot_without_free_table_is_laid_on_its_own_table_colour(tmp_path: Path) -> None:
    photos = [crowded_photo(tmp_path, f"IMG_90{i}") for i in range(3)]
    banks = build_banks(photos, seed=1)
    bank = next(iter(banks.values()))
    assert bank.cloth, "no cloth: composing would fail on an empty choice"
    r, g, b = np.median(bank.cloth[0].reshape(-1, 3), axis=0)
    assert abs(r - 60) < 15 and abs(g - 120) < 15 and abs(b - 40) < 15  # the table's colour, not a tile's
    shot = compose(bank, random.Random(3))
    assert shot.image.ndim == 3 and len(shot.boxes) >= 14
