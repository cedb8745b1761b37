"""How the shipped reader holds up when the camera, light or distance changes: the same labelled
photos, each changed one way (lower resolution, a warm or cool white balance, under-exposure, sensor
noise, strong JPEG, motion blur), read by the shipped models and scored as `jingsuan eval` does.

The issue's second target is real photos from other cameras and tables, which are kept from us; this
shows which of those differences the reader is sensitive to.  Figures are relative to the unchanged
photos (first row), conf 0.25 for per-tile and exact-match.

    python bench/photo_robustness.py [SPLIT] [--limit 100] [--only half,warm] [--classifier X.onnx]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

Change = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def _scale(f: float) -> Change:
    def change(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        import cv2

        h, w = img.shape[:2]
        return cv2.resize(img, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA)

    return change


def _white_balance(b: float, g: float, r: float) -> Change:
    def change(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return np.clip(img.astype(np.float32) * np.array([b, g, r], np.float32), 0, 255).astype(np.uint8)

    return change


def _under_exposed(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    dark = 255.0 * (img.astype(np.float32) / 255.0) ** 1.6 * 0.6
    return np.clip(dark + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)


def _noise(sigma: float) -> Change:
    def change(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return np.clip(img.astype(np.float32) + rng.normal(0, sigma, img.shape), 0, 255).astype(np.uint8)

    return change


def _jpeg(quality: int) -> Change:
    def change(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        import cv2

        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)

    return change


def _motion_blur(length: int) -> Change:
    def change(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        from vision.training.synth.camera import motion_blur

        return motion_blur(img, length, 0.0)

    return change


#: name → (what it stands for, the change). Photos are BGR arrays as OpenCV reads them.
CHANGES: dict[str, tuple[str, Change | None]] = {
    "none": ("the photos as they are", None),
    "half": ("half the resolution (a farther or older camera)", _scale(0.5)),
    "third": ("a third of the resolution", _scale(1 / 3)),
    "warm": ("warm white balance (tungsten light)", _white_balance(0.7, 0.95, 1.15)),
    "cool": ("cool white balance (shade, daylight LEDs)", _white_balance(1.15, 1.0, 0.78)),
    "dark": ("under-exposed, a little noise", _under_exposed),
    "noise": ("sensor noise, σ 12", _noise(12.0)),
    "jpeg": ("JPEG quality 20", _jpeg(20)),
    "blur": ("motion blur, 9 px", _motion_blur(9)),
}


def refused_by_reader(width: int, height: int) -> bool:
    """The reader refuses a photo of this size (`vision.reader.image.check_dimensions`: too small or thin)."""
    from vision.reader.image import DetectorError, check_dimensions

    try:
        check_dimensions(width, height)
    except DetectorError:
        return True
    return False


def changed_split(src: Path, dst: Path, change: Change | None, limit: int, seed: int = 0) -> tuple[Path, int]:
    """The first `limit` photos of the YOLO split `src` changed by `change`, with their labels, in `dst`,
    and how many were left out because the reader refuses their (changed) size."""
    import cv2
    from PIL import Image

    from vision.datasets.yolo import image_files, label_file

    rng = np.random.default_rng(seed)
    (dst / "images").mkdir(parents=True)
    (dst / "labels").mkdir()
    refused = 0
    for path in image_files(src)[:limit]:
        if change is None:
            with Image.open(path) as photo:
                width, height = photo.size
        else:
            img = change(cv2.imread(str(path), cv2.IMREAD_COLOR), rng)
            height, width = img.shape[:2]
        if refused_by_reader(width, height):
            refused += 1
            continue
        label = label_file(path)
        if label.is_file():
            shutil.copy(label, dst / "labels" / label.name)
        if change is None:
            shutil.copy(path, dst / "images" / path.name)
        else:
            cv2.imwrite(str(dst / "images" / (path.stem + ".png")), img)
    return dst, refused


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("split", nargs="?", default="runs/data/cmd-v4/valid", help="a YOLO split with labels")
    ap.add_argument("--limit", type=int, default=100, help="photos of the split to use")
    ap.add_argument("--only", default="", help="comma-separated changes (default: all of " + ", ".join(CHANGES) + ")")
    ap.add_argument("--model", help="detector ONNX (default models/tiles.onnx)")
    ap.add_argument("--classifier", help="crop classifier ONNX (default: tile_classifier.onnx beside the detector)")
    args = ap.parse_args(argv)
    src = Path(args.split)
    if not (src / "images").is_dir():
        print(f"no images under {src}/images (import the dataset first: jingsuan import-data)", file=sys.stderr)
        return 2
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(CHANGES)
    unknown = [n for n in names if n not in CHANGES]
    if unknown:
        print(f"unknown change(s): {', '.join(unknown)}; known: {', '.join(CHANGES)}", file=sys.stderr)
        return 2

    from vision.reader.detector import DEFAULT_MODEL, TileDetector
    from vision.training.evaluate import evaluate

    det = TileDetector(args.model or DEFAULT_MODEL, classifier=args.classifier)
    base = None
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            what, change = CHANGES[name]
            split, refused = changed_split(src, Path(tmp) / name, change, args.limit)
            skipped = f"; {refused} skipped, too small for the reader" if refused else ""
            if not any((split / "images").iterdir()):
                print(f"{name:6s} no photo left — {what} (0 photos{skipped})", flush=True)
                continue
            r = evaluate(split, lambda p: det(p, conf=0.001), conf=0.25)
            if base is None:
                base = r
            print(f"{name:6s} mAP50 {r.map50:.3f} ({r.map50 - base.map50:+.3f})  per-tile {r.tile_accuracy:.3f} "
                  f"({r.tile_accuracy - base.tile_accuracy:+.3f})  box recall {r.box_recall:.3f}  "
                  f"exact-match {r.hand_exact_match:.3f}  — {what} ({r.images} photos, {r.tiles} tiles{skipped})",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
