"""YOLO-format folders: label files (read/write, polygons → boxes), image and label paths of a split,
ground truth as Detections, and the photo families of a split.

`unseen_families` sets apart the validation photos of shoots (photos one camera named alike,
`photo_family`) of which the training split has no photo: the nearest thing to photos of another
tile set, table and camera that a single dataset holds (`bench/unseen_sources.py`).
No torch: the dataset store, the app and training all read labels through here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from vision.reader.detection import CLASS_NAMES, Detection

IMAGE_SUFFIXES: frozenset[str] = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp"})


@dataclass(frozen=True, slots=True)
class YoloBox:
    """One label line: class index and the box centre/size, normalised to 0..1."""

    cls: int
    cx: float
    cy: float
    w: float
    h: float

    def to_line(self) -> str:
        return f"{self.cls} {self.cx:.6f} {self.cy:.6f} {self.w:.6f} {self.h:.6f}"

    def xyxy(self) -> tuple[float, float, float, float]:
        return (self.cx - self.w / 2, self.cy - self.h / 2, self.cx + self.w / 2, self.cy + self.h / 2)

    def pixels(self, width: int, height: int) -> tuple[float, float, float, float]:
        """The box's corners (x1, y1, x2, y2) in the pixels of a `width` × `height` image."""
        x1, y1, x2, y2 = self.xyxy()
        return (x1 * width, y1 * height, x2 * width, y2 * height)

    @classmethod
    def from_xyxy(cls, klass: int, x1: float, y1: float, x2: float, y2: float) -> YoloBox:
        return cls(klass, (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1)


def parse_label_line(line: str) -> tuple[YoloBox | None, bool]:
    """Parse one YOLO label line → (box or None, was_polygon).

    Five numbers are a box; an odd count ≥ 7 (class + ≥ 3 points) is a polygon, turned into its
    bounding box.  Blank or malformed lines give None.
    """
    parts = line.split()
    if not parts:
        return None, False
    try:
        klass = int(float(parts[0]))
        values = [float(v) for v in parts[1:]]
    except (ValueError, OverflowError):
        return None, False
    if len(values) == 4:
        return YoloBox(klass, *values), False
    if len(values) >= 6 and len(values) % 2 == 0:
        xs, ys = values[0::2], values[1::2]
        return YoloBox.from_xyxy(klass, min(xs), min(ys), max(xs), max(ys)), True
    return None, False


def read_yolo_labels(path: str | Path) -> list[YoloBox]:
    """Read a YOLO label file (boxes and polygons; polygons become boxes). Missing file → []."""
    p = Path(path)
    if not p.exists():
        return []
    boxes = []
    for line in p.read_text(encoding="utf-8", errors="replace").splitlines():
        box, _ = parse_label_line(line)
        if box is not None:
            boxes.append(box)
    return boxes


def write_yolo_labels(path: str | Path, boxes: Iterable[YoloBox]) -> None:
    """Write boxes as a YOLO label file (one ``cls cx cy w h`` line each)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("".join(b.to_line() + "\n" for b in boxes), encoding="utf-8")


def clip_box(box: YoloBox, min_size: float = 1e-3) -> YoloBox | None:
    """Clip a box to the unit square; None if nothing (or a sliver) is left."""
    x1, y1, x2, y2 = box.xyxy()
    x1, y1, x2, y2 = max(0.0, x1), max(0.0, y1), min(1.0, x2), min(1.0, y2)
    if x2 - x1 < min_size or y2 - y1 < min_size:
        return None
    return YoloBox.from_xyxy(box.cls, x1, y1, x2, y2)


def load_names(data_yaml: str | Path) -> list[str]:
    """Class names of a YOLO ``data.yaml`` (list or {index: name} form); a malformed one is an InputError."""
    from scoring.inputs import InputError, load_yaml_file

    doc = load_yaml_file(data_yaml)  # the one safe reader: no aliases, capped size and depth
    names = doc.get("names") if isinstance(doc, dict) else None
    if isinstance(names, dict) and all(isinstance(k, int) and not isinstance(k, bool) for k in names):
        return [str(names[k]) for k in sorted(names)]
    if isinstance(names, list) and all(isinstance(n, str | int) and not isinstance(n, bool) for n in names):
        return [str(n) for n in names]
    raise InputError(
        f"{data_yaml} 里的 names 必须是类名列表或 {{编号: 类名}}",
        f"{data_yaml}: names must be a list of class names or {{index: name}}",
    )


def link_or_copy(src: Path, dst: Path) -> None:
    """Link `dst` to `src` (a symlink), or copy it where the filesystem has no links."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.exists() or dst.is_symlink():
        dst.unlink()
    try:
        os.symlink(src.resolve(), dst)
    except OSError:  # filesystems without symlinks
        import shutil

        shutil.copyfile(src, dst)


def source_photo(stem: str) -> str:
    """The photo an exported copy was made from: Roboflow names its augmented copies
    ``<name>_jpg.rf.<hash>``, and copies of one photo are labelled alike."""
    return stem.split(".rf.")[0]


def photo_family(stem: str) -> str:
    """The naming scheme of a photo's source: its name with every digit written ``#``
    (``IMG_2742_JPG`` → ``IMG_####_JPG``). Photos one camera or app named alike come from one
    shoot: one tile set, one table, one camera."""
    return re.sub(r"[0-9]", "#", source_photo(stem))


def unseen_families(train: str | Path, valid: str | Path) -> dict[str, list[Path]]:
    """The photos of the `valid` YOLO split grouped by `photo_family`, for the families of which no
    photo is in `train` (a YOLO split or a folder of images): shoots no training run has seen."""
    seen = {photo_family(p.stem) for p in image_files(train)}
    groups: dict[str, list[Path]] = {}
    for p in image_files(valid):
        family = photo_family(p.stem)
        if family not in seen:
            groups.setdefault(family, []).append(p)
    return dict(sorted(groups.items()))


def write_split(photos: Iterable[Path], dst: str | Path) -> Path:
    """A YOLO split at `dst` (``images/`` + ``labels/``) of `photos` and their label files,
    linked rather than copied."""
    dst = Path(dst)
    for photo in photos:
        link_or_copy(photo, dst / "images" / photo.name)
        if label_file(photo).is_file():
            link_or_copy(label_file(photo), dst / "labels" / f"{photo.stem}.txt")
    return dst


def label_file(image_path: Path) -> Path:
    """The YOLO label file of an image in a split: ``../labels/<stem>.txt``."""
    return image_path.parent.parent / "labels" / (image_path.stem + ".txt")


def ground_truth(image_path: Path, width: int, height: int) -> list[Detection]:
    """Labels next to an image (`label_file`) as Detections in pixels."""
    lbl = label_file(image_path)
    out = []
    for b in read_yolo_labels(lbl):
        if 0 <= b.cls < len(CLASS_NAMES):
            x1, y1, x2, y2 = b.xyxy()
            out.append(Detection((x1 * width, y1 * height, x2 * width, y2 * height), CLASS_NAMES[b.cls], 1.0))
    return out


def image_files(folder: str | Path) -> list[Path]:
    """Images of a YOLO split folder (``DIR/images`` if present, else DIR itself)."""
    root = Path(folder)
    img_dir = root / "images" if (root / "images").is_dir() else root
    return sorted(p for p in img_dir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

