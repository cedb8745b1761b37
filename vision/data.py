"""YOLO-format datasets: read/write label files, remap classes by name, clean up and import.

Small public helpers (`read_yolo_labels`, `write_yolo_labels`, `remap_label`, ...) are meant to be
reused by other tools (the team dataset store).  `import_yolo_dataset` builds a cleaned copy of a
YOLO dataset whose classes are this project's `CLASS_NAMES`; the cleanup it does:

* polygon label lines (``cls x1 y1 x2 y2 ...``) become their bounding box;
* images whose label file is empty or missing are dropped (they would teach "tiles are background");
* "stretched" images (a tight crop of one tile row/column that was resized to a square, so every
  tile is many times too wide or too tall) are restored: the image is resized along one axis so the
  median tile aspect is a normal tile's again.  Normalised YOLO labels stay valid under such a
  resize, so only the image changes.  Images too distorted to restore are dropped;
* images whose boxes (more than four) all carry one tile class are dropped: a set holds four of
  each tile, so such a photo was boxed but never classified (seven `valid` photos of CMD v4 label
  every tile 1筒);
* labels of classes outside the project (flowers, seasons) are dropped; boxes are clipped to the
  image and degenerate ones removed.  In the splits named by `paint_dropped` (``("train",)`` with
  `jingsuan train --paint-unlabelled`; none by default) the tiles those labels boxed are painted grey (`vision.unlabelled.paint_boxes`): a flower is a tile
  like any other, and left in the photo unlabelled it would teach the detector that tiles are
  background.  `valid` is never painted, so its figures stay comparable.

Images that need no change are linked (symlink), not copied, so no outside photo is duplicated.

`unseen_families` sets apart the validation photos of shoots (photos one camera named alike,
`photo_family`) of which the training split has no photo: the nearest thing to photos of another
tile set, table and camera that a single dataset holds (`bench/unseen_sources.py`).
"""

from __future__ import annotations

import os
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from vision.detection import CLASS_NAMES

IMAGE_SUFFIXES: frozenset[str] = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp"})

#: Class names of "Chinese Mahjong Detection v4" (Roboflow, CC BY 4.0) → this project's codes.
CMD_V4_NAME_MAP: dict[str, str] = {
    **{f"sc{n}": f"{n}m" for n in range(1, 10)},
    **{f"sd{n}": f"{n}p" for n in range(1, 10)},
    **{f"sb{n}": f"{n}s" for n in range(1, 10)},
    "hwe": "1z",
    "hws": "2z",
    "hww": "3z",
    "hwn": "4z",
    "hdw": "5z",
    "hdg": "6z",
    "hdr": "7z",
}

#: A standing tile face seen from the front is about 3:4 (width:height).
NORMAL_TILE_ASPECT = 0.75
#: Median box aspect (w/h in pixels) outside this range marks an image as stretched.
STRETCH_LIMITS: tuple[float, float] = (0.3, 2.5)
#: Restored images narrower/shorter than this (pixels) are dropped instead.
MIN_RESTORED_SIDE = 32
#: A set holds this many copies of each tile.
COPIES_PER_TILE = 4


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
    except ValueError:
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


def class_index_map(
    src_names: Sequence[str], name_map: Mapping[str, str], dst_names: Sequence[str] = CLASS_NAMES
) -> dict[int, int]:
    """Source class index → destination index, by name (``name_map`` src name → dst name).

    Source classes that map to nothing are absent (their labels are dropped).  A source name equal
    to a destination name maps to it without an explicit entry.
    """
    dst_index = {n: i for i, n in enumerate(dst_names)}
    out: dict[int, int] = {}
    for i, name in enumerate(src_names):
        target = name_map.get(name, name)
        if target in dst_index:
            out[i] = dst_index[target]
    return out


def remap_label(boxes: Iterable[YoloBox], index_map: Mapping[int, int]) -> list[YoloBox]:
    """Renumber classes; boxes of unmapped classes are dropped."""
    return [YoloBox(index_map[b.cls], b.cx, b.cy, b.w, b.h) for b in boxes if b.cls in index_map]


def median_aspect(boxes: Sequence[YoloBox], width: int, height: int) -> float | None:
    """Median width/height ratio of the boxes in pixels (None without boxes)."""
    ratios = [(b.w * width) / (b.h * height) for b in boxes if b.h > 0 and b.w > 0]
    return statistics.median(ratios) if ratios else None


def stretch_factor(boxes: Sequence[YoloBox], width: int, height: int) -> float | None:
    """Horizontal scale that restores a stretched image, or None if it is not stretched.

    An image is stretched when its median tile aspect lies outside `STRETCH_LIMITS`; scaling the
    image's width by the returned factor brings the median aspect back to `NORMAL_TILE_ASPECT`.
    """
    aspect = median_aspect(boxes, width, height)
    if aspect is None or STRETCH_LIMITS[0] <= aspect <= STRETCH_LIMITS[1]:
        return None
    return NORMAL_TILE_ASPECT / aspect


def labelled_one_class(boxes: Sequence[YoloBox]) -> bool:
    """More than four boxes, all one tile class: a set holds four of a tile, so the classes were never set."""
    classes = {b.cls for b in boxes}
    back = CLASS_NAMES.index("back")
    return len(boxes) > COPIES_PER_TILE and len(classes) == 1 and back not in classes


def restored_size(width: int, height: int, factor: float) -> tuple[int, int]:
    """New (width, height) for a horizontal scale `factor`, keeping the longer side's length."""
    new_w, new_h = width * factor, float(height)
    scale = max(width, height) / max(new_w, new_h)
    return max(1, round(new_w * scale)), max(1, round(new_h * scale))


def load_names(data_yaml: str | Path) -> list[str]:
    """Class names of a YOLO ``data.yaml`` (list or {index: name} form)."""
    import yaml

    doc = yaml.safe_load(Path(data_yaml).read_text(encoding="utf-8"))
    names = doc["names"]
    if isinstance(names, dict):
        return [names[k] for k in sorted(names)]
    return list(names)


@dataclass
class ImportReport:
    """What `import_yolo_dataset` did, per split."""

    images: dict[str, int] = field(default_factory=dict)
    dropped_empty: dict[str, int] = field(default_factory=dict)
    restored_stretched: dict[str, int] = field(default_factory=dict)
    dropped_stretched: dict[str, int] = field(default_factory=dict)
    dropped_one_class: dict[str, int] = field(default_factory=dict)
    polygons_converted: dict[str, int] = field(default_factory=dict)
    labels_dropped_unmapped: dict[str, int] = field(default_factory=dict)
    painted_dropped: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        lines = []
        for split, n in self.images.items():
            lines.append(
                f"{split}: {n} images kept, {self.dropped_empty.get(split, 0)} empty dropped, "
                f"{self.restored_stretched.get(split, 0)} stretched restored, "
                f"{self.dropped_stretched.get(split, 0)} stretched dropped, "
                f"{self.dropped_one_class.get(split, 0)} labelled all one class dropped, "
                f"{self.polygons_converted.get(split, 0)} polygons → boxes, "
                f"{self.labels_dropped_unmapped.get(split, 0)} labels of other classes dropped"
                + (f" (their tiles painted over in {self.painted_dropped[split]} images)" if self.painted_dropped.get(split) else "")
            )
        return "\n".join(lines)


def _count_polygons(path: Path) -> int:
    if not path.exists():
        return 0
    return sum(parse_label_line(line)[1] for line in path.read_text(encoding="utf-8", errors="replace").splitlines())


def _link_or_copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.exists() or dst.is_symlink():
        dst.unlink()
    try:
        os.symlink(src.resolve(), dst)
    except OSError:  # filesystems without symlinks
        import shutil

        shutil.copyfile(src, dst)


def _remove_earlier(out_img: Path) -> None:
    """Remove what an earlier import (or painting) wrote for this photo, whatever its suffix, so a
    re-import never leaves two images with one label file."""
    for suffix in IMAGE_SUFFIXES:
        old = out_img.with_suffix(suffix)
        if old.exists() or old.is_symlink():
            old.unlink()


def import_split(
    src_split: Path,
    dst_split: Path,
    index_map: Mapping[int, int],
    split: str,
    report: ImportReport,
    restore_stretched: bool = True,
    paint_dropped: bool = False,
) -> None:
    """Clean one split (``images/`` + ``labels/``) of a YOLO dataset into `dst_split`."""
    import cv2

    img_dir, lbl_dir = src_split / "images", src_split / "labels"
    kept = empty = restored = dropped_stretch = one_class = polys = unmapped = painted = 0
    for img_path in sorted(p for p in img_dir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
        lbl_path = lbl_dir / (img_path.stem + ".txt")
        raw = read_yolo_labels(lbl_path)
        polys += _count_polygons(lbl_path)
        boxes = remap_label(raw, index_map)
        unmapped += len(raw) - len(boxes)
        boxes = [c for c in (clip_box(b) for b in boxes) if c is not None]
        dropped = [c for c in (clip_box(b) for b in raw if b.cls not in index_map) if c is not None] if paint_dropped else []
        if not raw:
            empty += 1
            continue
        if labelled_one_class(boxes):
            one_class += 1
            continue
        out_img = dst_split / "images" / img_path.name
        _remove_earlier(out_img)
        out_lbl = dst_split / "labels" / (img_path.stem + ".txt")
        image = None
        factor = None
        if boxes or dropped:
            image = cv2.imread(str(img_path))
            if image is None:
                empty += 1
                continue
            h, w = image.shape[:2]
            factor = stretch_factor(boxes, w, h)
        if dropped:
            assert image is not None
            from vision.unlabelled import paint_boxes

            image = paint_boxes(image, [b.pixels(w, h) for b in dropped], keep=[b.pixels(w, h) for b in boxes])
        if factor is not None:
            assert image is not None
            new_w, new_h = restored_size(w, h, factor)
            if not restore_stretched or min(new_w, new_h) < MIN_RESTORED_SIDE:
                dropped_stretch += 1
                continue
            out_img.parent.mkdir(parents=True, exist_ok=True)
            fixed = cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_AREA)
            out_img = out_img.with_suffix(".png")  # lossless, it is a derived image
            cv2.imwrite(str(out_img), fixed)
            restored += 1
        elif dropped:
            assert image is not None
            out_img = out_img.with_suffix(".png")  # a derived image, written lossless
            out_img.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(out_img), image)
        else:
            _link_or_copy(img_path, out_img)
        write_yolo_labels(out_lbl, boxes)
        kept += 1
        painted += bool(dropped)
    report.images[split] = kept
    report.dropped_empty[split] = empty
    report.restored_stretched[split] = restored
    report.dropped_stretched[split] = dropped_stretch
    report.dropped_one_class[split] = one_class
    report.polygons_converted[split] = polys
    report.labels_dropped_unmapped[split] = unmapped
    report.painted_dropped[split] = painted


def import_yolo_dataset(
    src: str | Path,
    dst: str | Path,
    name_map: Mapping[str, str] = CMD_V4_NAME_MAP,
    splits: Sequence[str] = ("train", "valid"),
    restore_stretched: bool = True,
    paint_dropped: Sequence[str] = (),
) -> ImportReport:
    """Import a YOLO dataset (``src/data.yaml`` + ``src/<split>/{images,labels}``) into `dst`.

    Writes ``dst/<split>/{images,labels}`` and ``dst/data.yaml`` with this project's class names;
    the split called ``valid`` stays the validation split.
    """
    import yaml

    src, dst = Path(src), Path(dst)
    index_map = class_index_map(load_names(src / "data.yaml"), name_map)
    report = ImportReport()
    for split in splits:
        if (src / split / "images").is_dir():
            import_split(src / split, dst / split, index_map, split, report, restore_stretched,
                         paint_dropped=split in paint_dropped)
    doc = {
        "path": str(dst.resolve()),
        "train": "train/images",
        "val": "valid/images" if "valid" in report.images else "train/images",
        "names": dict(enumerate(CLASS_NAMES)),
    }
    dst.mkdir(parents=True, exist_ok=True)
    (dst / "data.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return report


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
    from vision.evaluate import image_files

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
    from vision.evaluate import label_file

    dst = Path(dst)
    for photo in photos:
        _link_or_copy(photo, dst / "images" / photo.name)
        if label_file(photo).is_file():
            _link_or_copy(label_file(photo), dst / "labels" / f"{photo.stem}.txt")
    return dst
