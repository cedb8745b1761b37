"""Conversion between labelled-photo formats: public YOLO datasets cleaned for training, and the team
store's importers (YOLO, COCO, Label Studio) and exporters (YOLO, COCO).

`import_yolo_dataset` builds a cleaned copy of a
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
* labels a person found wrong on the photo are corrected (`datasets/cmd-v4-label-fixes.csv`, read by
  `read_label_fixes`; 22 boxes of CMD v4's `valid`, e.g. a 伍萬 labelled 5筒);
* labels of classes outside the project (flowers, seasons) are dropped; boxes are clipped to the
  image and degenerate ones removed.  In the splits named by `paint_dropped` (``("train",)`` with
  `jingsuan train --paint-unlabelled`; none by default) the tiles those labels boxed are painted grey (`vision.datasets.unlabelled.paint_boxes`): a flower is a tile
  like any other, and left in the photo unlabelled it would teach the detector that tiles are
  background.  `valid` is never painted, so its figures stay comparable.

Images that need no change are linked (symlink), not copied, so no outside photo is duplicated.
"""

from __future__ import annotations

import csv
import json
import math
import re
import shutil
import statistics
import urllib.parse
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scoring.errors import JingsuanError
from vision.datasets.files import atomic_write, json_bytes
from vision.datasets.store import (
    DatasetError,
    DatasetStore,
    DuplicateExampleError,
    Example,
    ImportResult,
    LabeledBox,
    UnknownClassError,
    image_size,
)
from vision.datasets.yolo import (
    IMAGE_SUFFIXES,
    YoloBox,
    clip_box,
    link_or_copy,
    load_names,
    parse_label_line,
    read_yolo_labels,
    write_yolo_labels,
)
from vision.reader.boxes import box_iou
from vision.reader.detection import CLASS_NAMES
from vision.reader.memory import MEMORY_FILENAME

_CLASS_INDEX = {n: i for i, n in enumerate(CLASS_NAMES)}

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


#: Labels of CMD v4 a person found wrong on the photo, corrected by `import_yolo_dataset` (a data file of the
#: checkout's `datasets/` folder: training and the benches run from a checkout).
CMD_V4_LABEL_FIXES = Path(__file__).resolve().parents[2] / "datasets" / "cmd-v4-label-fixes.csv"

#: A fix's box is the label line whose centre lies this close (normalised) to the fix's centre.
FIX_TOLERANCE = 0.001


#: The `was` of a fix that adds a box the labels left out (a tile the photo shows whole, unlabelled).
NO_LABEL = "-"


@dataclass(frozen=True)
class LabelFix:
    """One wrong label of an outside dataset: where its box is (split, image name without suffix, normalised
    centre) and the class the label gives (`was`) and the tile the photo shows (`shows`). A fix whose `was` is
    `NO_LABEL` adds a box of normalised size `w` × `h` where the labels have none."""

    split: str
    image: str
    cx: float
    cy: float
    was: str
    shows: str
    w: float | None = None
    h: float | None = None

    @property
    def adds(self) -> bool:
        return self.was == NO_LABEL


def read_label_fixes(path: str | Path) -> list[LabelFix]:
    """The fixes of a label-fixes CSV (``split,image,cx,cy,was,is[,w,h]``; lines starting with # are comments;
    `w`, `h` only for a box added, `was` = `NO_LABEL`)."""
    lines = [ln for ln in Path(path).read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    fixes = []
    for row in csv.DictReader(lines):
        try:
            size = (float(row["w"]), float(row["h"])) if row.get("w") else (None, None)
            fix = LabelFix(row["split"], row["image"], float(row["cx"]), float(row["cy"]), row["was"], row["is"], *size)
            if fix.adds and not (fix.w and fix.h and fix.w > 0 and fix.h > 0):
                raise ValueError("a box added needs its size")
        except (KeyError, TypeError, ValueError) as e:
            raise DatasetError(f"标签更正文件 {path} 有一行读不懂：{row}", f"label fixes {path}: unreadable line {row}") from e
        for code in (fix.shows,) if fix.adds else (fix.was, fix.shows):
            if code not in _CLASS_INDEX:
                raise UnknownClassError(f"标签更正文件 {path} 里有不认识的牌 {code}", f"label fixes {path}: unknown tile {code!r}")
        fixes.append(fix)
    return fixes


def fix_labels(boxes: Sequence[YoloBox], fixes: Sequence[LabelFix]) -> tuple[list[YoloBox], list[LabelFix]]:
    """`boxes` with each fix's box (its class `was`, its centre within `FIX_TOLERANCE`) given the class
    `shows`, and each box a fix adds added; and the fixes that found no such box (or, for a box added, found
    the photo already labels a box there)."""
    out = list(boxes)
    missing = []
    for fix in fixes:
        if fix.adds:
            added = YoloBox(_CLASS_INDEX[fix.shows], fix.cx, fix.cy, fix.w or 0.0, fix.h or 0.0)
            if any(box_iou(b.xyxy(), added.xyxy()) >= 0.5 for b in out):
                missing.append(fix)
            else:
                out.append(added)
            continue
        hit = next((i for i, b in enumerate(out) if b.cls == _CLASS_INDEX[fix.was]
                    and abs(b.cx - fix.cx) <= FIX_TOLERANCE and abs(b.cy - fix.cy) <= FIX_TOLERANCE), None)
        if hit is None:
            missing.append(fix)
            continue
        b = out[hit]
        out[hit] = YoloBox(_CLASS_INDEX[fix.shows], b.cx, b.cy, b.w, b.h)
    return out, missing


#: A standing tile face seen from the front is about 3:4 (width:height).
NORMAL_TILE_ASPECT = 0.75


#: Median box aspect (w/h in pixels) outside this range marks an image as stretched.
STRETCH_LIMITS: tuple[float, float] = (0.3, 2.5)


#: Restored images narrower/shorter than this (pixels) are dropped instead.
MIN_RESTORED_SIDE = 32


#: A set holds this many copies of each tile.
COPIES_PER_TILE = 4


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
    labels_fixed: dict[str, int] = field(default_factory=dict)
    #: Fixes whose image is in the split but whose box is not (the dataset changed: check the fixes file).
    fixes_not_found: list[LabelFix] = field(default_factory=list)

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
                + (f", {self.labels_fixed[split]} wrong labels corrected" if self.labels_fixed.get(split) else "")
            )
        for fix in self.fixes_not_found:
            lines.append(f"label not added, {fix.split}/{fix.image} already labels a box at ({fix.cx}, {fix.cy})" if fix.adds
                         else f"label fix not applied, no {fix.was} box at ({fix.cx}, {fix.cy}) in {fix.split}/{fix.image}")
        return "\n".join(lines)


def _count_polygons(path: Path) -> int:
    if not path.exists():
        return 0
    return sum(parse_label_line(line)[1] for line in path.read_text(encoding="utf-8", errors="replace").splitlines())


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
    fixes: Sequence[LabelFix] = (),
) -> None:
    """Clean one split (``images/`` + ``labels/``) of a YOLO dataset into `dst_split`; `fixes`: the split's
    label fixes (`fix_labels`)."""
    import cv2

    img_dir, lbl_dir = src_split / "images", src_split / "labels"
    kept = empty = restored = dropped_stretch = one_class = polys = unmapped = painted = n_fixed = 0
    fixes_of: dict[str, list[LabelFix]] = {}
    for fix in fixes:
        fixes_of.setdefault(fix.image, []).append(fix)
    for img_path in sorted(p for p in img_dir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
        lbl_path = lbl_dir / (img_path.stem + ".txt")
        raw = read_yolo_labels(lbl_path)
        polys += _count_polygons(lbl_path)
        boxes = remap_label(raw, index_map)
        unmapped += len(raw) - len(boxes)
        if img_path.stem in fixes_of:
            boxes, missing = fix_labels(boxes, fixes_of[img_path.stem])
            n_fixed += len(fixes_of[img_path.stem]) - len(missing)
            report.fixes_not_found += missing
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
            from vision.datasets.unlabelled import paint_boxes

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
            link_or_copy(img_path, out_img)
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
    report.labels_fixed[split] = n_fixed


def import_yolo_dataset(
    src: str | Path,
    dst: str | Path,
    name_map: Mapping[str, str] = CMD_V4_NAME_MAP,
    splits: Sequence[str] = ("train", "valid"),
    restore_stretched: bool = True,
    paint_dropped: Sequence[str] = (),
    label_fixes: str | Path | None = CMD_V4_LABEL_FIXES,
) -> ImportReport:
    """Import a YOLO dataset (``src/data.yaml`` + ``src/<split>/{images,labels}``) into `dst`.

    Writes ``dst/<split>/{images,labels}`` and ``dst/data.yaml`` with this project's class names;
    the split called ``valid`` stays the validation split. `label_fixes`: a label-fixes CSV
    (`read_label_fixes`; default CMD v4's, whose fixes name its own photos only), None for none.
    """
    import yaml

    src, dst = Path(src), Path(dst)
    index_map = class_index_map(load_names(src / "data.yaml"), name_map)
    report = ImportReport()
    fixes = read_label_fixes(label_fixes) if label_fixes is not None and Path(label_fixes).is_file() else []
    for split in splits:
        if (src / split / "images").is_dir():
            import_split(src / split, dst / split, index_map, split, report, restore_stretched,
                         paint_dropped=split in paint_dropped, fixes=[f for f in fixes if f.split == split])
    doc = {
        "path": str(dst.resolve()),
        "train": "train/images",
        "val": "valid/images" if "valid" in report.images else "train/images",
        "names": dict(enumerate(CLASS_NAMES)),
    }
    dst.mkdir(parents=True, exist_ok=True)
    (dst / "data.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return report



# --------------------------------------------------------------------------- the team store: import / export


#: Source class names of "Chinese Mahjong Detection v4" for `import_yolo`: tiles mapped, flowers and seasons dropped.
CMD_V4_IMPORT_MAP: dict[str, str | None] = {
    **CMD_V4_NAME_MAP,
    **{f"bs{n}": None for n in range(1, 5)},
    **{f"bf{n}": None for n in range(1, 5)},
}


def _resolve_names(used: Iterable[str], name_map: Mapping[str, str | None] | None, where: str) -> dict[str, str | None]:
    """Source name → project name (None = dropped) for the names in `used`; UnknownClassError if any is unknown."""
    mapping = dict(name_map or {})
    out: dict[str, str | None] = {}
    unknown = []
    for name in set(used):
        target = mapping.get(name, name)
        if target is None:
            out[name] = None
        elif target in _CLASS_INDEX:
            out[name] = target
        else:
            unknown.append(name)
    if unknown:
        raise UnknownClassError(unknown, where)
    return out


def _add_or_skip(store: DatasetStore, result: ImportResult, *args: Any, **kwargs: Any) -> None:
    try:
        result.added.append(store.add_example(*args, **kwargs))
    except DuplicateExampleError as exc:
        result.duplicates.append(exc.stem)


def _yolo_image_dirs(src: Path) -> list[Path]:
    """``images/`` folders of a YOLO dataset: ``src/images`` and ``src/<split>/images``."""
    dirs = [src / "images"] if (src / "images").is_dir() else []
    dirs += sorted(p / "images" for p in src.iterdir() if p.is_dir() and (p / "images").is_dir())
    return dirs


def import_yolo(
    src_dir: str | Path, store: DatasetStore, name_map: Mapping[str, str | None] | None = None, source: str | None = None
) -> ImportResult:
    """Import a YOLO folder (``images/``+``labels/``, or ``<split>/images`` etc., names from ``data.yaml``).

    Classes are matched by name: ``name_map`` maps a source name to a tile code (or None to drop
    it); names equal to tile codes need no entry.  Without ``data.yaml`` the class indices are taken
    as this project's.  Unknown names in any label raise UnknownClassError before anything is stored.
    """
    src = Path(src_dir)
    if not src.is_dir():
        raise DatasetError(f"找不到文件夹：{src}", f"not a directory: {src}")
    src_names = load_names(src / "data.yaml") if (src / "data.yaml").exists() else list(CLASS_NAMES)
    src_names = [str(n) for n in src_names]
    pairs = []
    used: set[str] = set()
    for img_dir in _yolo_image_dirs(src):
        for img in sorted(p for p in img_dir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
            raw = read_yolo_labels(img_dir.parent / "labels" / f"{img.stem}.txt")
            for b in raw:
                used.add(src_names[b.cls] if 0 <= b.cls < len(src_names) else f"#{b.cls}")
            pairs.append((img, raw))
    names = _resolve_names(used, name_map, str(src))
    index_map = class_index_map(src_names, {k: v for k, v in names.items() if v is not None})
    result = ImportResult()
    for img, raw in pairs:
        boxes = remap_label(raw, index_map)
        result.dropped_labels += len(raw) - len(boxes)
        w, h = image_size(img)
        pixel = [LabeledBox(*(v * s for v, s in zip(b.xyxy(), (w, h, w, h), strict=True)), CLASS_NAMES[b.cls]) for b in boxes]
        _add_or_skip(store, result, img, _clip_all(pixel, w, h), None, source or f"yolo:{src.name}")
    return result


def _clip_all(boxes: Iterable[LabeledBox], width: int, height: int) -> list[LabeledBox]:
    """Clip boxes to the image; boxes left empty are dropped."""
    out = []
    for b in boxes:
        x1, y1, x2, y2 = max(b.x1, 0.0), max(b.y1, 0.0), min(b.x2, float(width)), min(b.y2, float(height))
        if x2 - x1 > 0.5 and y2 - y1 > 0.5:
            out.append(LabeledBox(x1, y1, x2, y2, b.cls))
    return out


def _find_in(images_dir: Path, name: str) -> Path:
    """An image named in an export → a file in `images_dir` (full relative path, then basename)."""
    parsed = urllib.parse.urlparse(name)
    local = urllib.parse.parse_qs(parsed.query).get("d")  # Label Studio local files: /data/local-files/?d=dir/x.jpg
    name = local[0] if local else urllib.parse.unquote(parsed.path if parsed.scheme or parsed.query else name)
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    rel = Path(name.replace("\\", "/"))
    candidates = [images_dir / rel] if not rel.is_absolute() and ".." not in rel.parts else []
    candidates.append(images_dir / base)
    m = re.match(r"^[0-9a-f]{8}-(.+)$", base)  # Label Studio upload prefix
    if m:
        candidates.append(images_dir / m.group(1))
    for c in candidates:
        if c.is_file():
            return c
    raise DatasetError(f"在 {images_dir} 里找不到照片 {base}", f"image {name!r} not found in {images_dir}")


MAX_EXPORT_BYTES = 256 * 1024 * 1024


def _load_json(path: str | Path) -> Any:
    from scoring.inputs import InputError, read_capped_bytes

    try:
        return json.loads(read_capped_bytes(path, MAX_EXPORT_BYTES).decode("utf-8-sig"))
    except InputError as exc:
        raise DatasetError(exc.zh, exc.en) from exc
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise DatasetError(f"读不了 JSON 文件：{path}", f"cannot read JSON {path}: {exc}") from exc


@contextmanager
def malformed_fields(where: str) -> Iterator[None]:
    """A missing or mistyped field of an export becomes a DatasetError naming the file (our own errors pass)."""
    try:
        yield
    except JingsuanError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, RecursionError) as exc:
        raise DatasetError(
            f"{where} 里有缺少或格式不对的字段", f"{where}: a field is missing or malformed ({type(exc).__name__}: {exc})"
        ) from exc


def import_coco(
    json_path: str | Path,
    images_dir: str | Path,
    store: DatasetStore,
    name_map: Mapping[str, str | None] | None = None,
    source: str | None = None,
) -> ImportResult:
    """Import a COCO detection JSON (categories matched by name; a ``jingsuan`` key per image restores the sidecar)."""
    doc = _load_json(json_path)
    if not isinstance(doc, dict) or not isinstance(doc.get("images"), list):
        raise DatasetError("不是 COCO 格式的 JSON", f"{json_path} is not a COCO detection JSON (no 'images' list)")
    images_dir = Path(images_dir)
    result = ImportResult()
    work = []
    with malformed_fields(str(json_path)):  # every field is read before anything is stored
        cats = {c["id"]: str(c["name"]) for c in doc.get("categories", [])}
        anns_by_image: dict[Any, list[dict[str, Any]]] = {}
        for a in doc.get("annotations", []):
            anns_by_image.setdefault(a["image_id"], []).append(a)
        used = {cats.get(a["category_id"], f"#{a['category_id']}") for a in doc.get("annotations", [])}
        names = _resolve_names(used, name_map, str(json_path))
        for im in doc["images"]:
            path = _find_in(images_dir, str(im["file_name"]))
            boxes = []
            for a in sorted(anns_by_image.get(im["id"], []), key=lambda a: a.get("id", 0)):
                target = names[cats.get(a["category_id"], f"#{a['category_id']}")]
                if target is None:
                    result.dropped_labels += 1
                    continue
                x, y, w, h = (float(v) for v in a["bbox"])
                boxes.append(LabeledBox(x, y, x + w, y + h, target))
            sidecar = im.get("jingsuan") if isinstance(im.get("jingsuan"), dict) else None
            src = source or str((sidecar or {}).get("source") or "") or f"coco:{Path(json_path).name}"
            work.append((path, boxes, sidecar, src))
    for path, boxes, sidecar, src in work:
        width, height = image_size(path)
        _add_or_skip(store, result, path, _clip_all(boxes, width, height), sidecar, src, original_name=Path(path).name)
    return result


def _ls_rect_to_xyxy(value: Mapping[str, Any], width: int, height: int) -> tuple[float, float, float, float]:
    """A Label Studio rectangle (percent, rotation in degrees about its top-left corner) → pixel xyxy."""
    x, y = float(value["x"]) * width / 100, float(value["y"]) * height / 100
    w, h = float(value["width"]) * width / 100, float(value["height"]) * height / 100
    rot = math.radians(float(value.get("rotation", 0) or 0))
    if abs(rot) < 1e-9:
        return x, y, x + w, y + h
    c, s = math.cos(rot), math.sin(rot)
    pts = [(x + dx * c - dy * s, y + dx * s + dy * c) for dx, dy in ((0, 0), (w, 0), (w, h), (0, h))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def import_label_studio(
    json_path: str | Path,
    images_dir: str | Path,
    store: DatasetStore,
    name_map: Mapping[str, str | None] | None = None,
    source: str | None = None,
) -> ImportResult:
    """Import a Label Studio JSON export (rectanglelabels; the last non-cancelled annotation of each task).

    The image named in ``data.image`` is looked up by basename in `images_dir` (Label Studio's
    8-hex upload prefix is tried without too).  Tasks without annotations come in with no boxes.
    """
    tasks = _load_json(json_path)
    if isinstance(tasks, dict):
        tasks = [tasks]
    if not isinstance(tasks, list):
        raise DatasetError("不是 Label Studio 导出的 JSON", f"{json_path} is not a Label Studio JSON export (a list of tasks)")
    images_dir = Path(images_dir)
    work = []
    used: set[str] = set()
    result = ImportResult()
    with malformed_fields(str(json_path)):  # every field is read before anything is stored
        for task in tasks:
            image_ref = (task.get("data") or {}).get("image")
            if not image_ref:
                raise DatasetError("Label Studio 任务里没有图片", f"task {str(task.get('id'))[:40]} has no data.image")
            path = _find_in(images_dir, str(image_ref))
            anns = [a for a in task.get("annotations") or [] if not a.get("was_cancelled")]
            results = [r for r in (anns[-1].get("result") or []) if r.get("type") == "rectanglelabels"] if anns else []
            for r in results:
                used.update(str(n) for n in r["value"].get("rectanglelabels", []))
            work.append((path, results))
        names = _resolve_names(used, name_map, str(json_path))
        sized = []
        for path, results in work:
            width, height = image_size(path)
            boxes = []
            for r in results:
                labels = r["value"].get("rectanglelabels") or []
                if not labels:
                    continue
                target = names[str(labels[0])]
                if target is None:
                    result.dropped_labels += 1
                    continue
                boxes.append(LabeledBox(*_ls_rect_to_xyxy(r["value"], width, height), target))
            sized.append((path, _clip_all(boxes, width, height)))
    for path, boxes in sized:
        _add_or_skip(store, result, path, boxes, None, source or f"label-studio:{Path(json_path).name}")
    return result


def _selected(store: DatasetStore, reviewed_only: bool) -> list[Example]:
    out = []
    for stem in store.stems():
        ex = store.load(stem)
        if ex.reviewed or not reviewed_only:
            out.append(ex)
    return out


def export_yolo(
    store: DatasetStore,
    out_dir: str | Path,
    holdout_fraction: float | None = None,
    seed: int = 0,
    reviewed_only: bool = False,
) -> Path:
    """Copy the dataset as a YOLO folder → its data.yaml.

    Flat ``images/`` + ``labels/`` by default; with `holdout_fraction`, ``train/`` and ``valid/``
    splits (the layout `import_yolo_dataset` and training read).
    """
    import yaml

    out = Path(out_dir)
    held = set(store.split(holdout_fraction, seed)) if holdout_fraction else set()
    for ex in _selected(store, reviewed_only):
        part = out if holdout_fraction is None else out / ("valid" if ex.stem in held else "train")
        (part / "images").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ex.image_path, part / "images" / ex.image_path.name)
        write_yolo_labels(part / "labels" / f"{ex.stem}.txt", read_yolo_labels(store.label_path(ex.stem)))
    out.mkdir(parents=True, exist_ok=True)
    train, val = ("images", "images") if holdout_fraction is None else ("train/images", "valid/images")
    doc = {"path": str(out.resolve()), "train": train, "val": val, "names": dict(enumerate(CLASS_NAMES))}
    (out / "data.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    copy_tile_memory(store, out / MEMORY_FILENAME)
    return out / "data.yaml"


def copy_tile_memory(store: DatasetStore, to: Path) -> Path | None:
    """The table memory 标注 saved with the dataset (what its players taught the reader) goes with an export."""
    source = store.root / MEMORY_FILENAME
    if not source.is_file():
        return None
    atomic_write(to, source.read_bytes())
    return to


def export_coco(store: DatasetStore, out_json: str | Path, reviewed_only: bool = False) -> Path:
    """Write a COCO detection JSON; ``file_name`` is the image's name in the store's ``images/``, sidecars ride along."""
    images, annotations = [], []
    ann_id = 1
    for image_id, ex in enumerate(_selected(store, reviewed_only), 1):
        images.append(
            {"id": image_id, "file_name": ex.image_path.name, "width": ex.width, "height": ex.height, "jingsuan": ex.sidecar}
        )
        for b in ex.boxes:
            w, h = b.x2 - b.x1, b.y2 - b.y1
            annotations.append(
                {
                    "id": ann_id,
                    "image_id": image_id,
                    "category_id": _CLASS_INDEX[b.cls] + 1,
                    "bbox": [round(b.x1, 3), round(b.y1, 3), round(w, 3), round(h, 3)],
                    "area": round(w * h, 3),
                    "iscrowd": 0,
                }
            )
            ann_id += 1
    doc = {
        "info": {"description": f"jingsuan dataset {store.name}", "date_created": datetime.now(UTC).replace(microsecond=0).isoformat()},
        "images": images,
        "annotations": annotations,
        "categories": [{"id": i + 1, "name": n, "supercategory": "tile"} for i, n in enumerate(CLASS_NAMES)],
    }
    out = Path(out_json)
    atomic_write(out, json_bytes(doc))
    copy_tile_memory(store, out.with_name(f"{out.stem}.{MEMORY_FILENAME}"))
    return out

