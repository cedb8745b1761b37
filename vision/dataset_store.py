"""The team's labelled photos: one folder per dataset in the Ultralytics YOLO layout, plus sidecars.

``datasets/<name>/`` holds ``images/<stem>.<ext>``, ``labels/<stem>.txt`` (YOLO, normalised),
``sidecar/<stem>.json`` (what YOLO cannot hold: melds, winning tile, 精 indicator, review state,
source) and ``data.yaml``.  A stem is the first 16 hex digits of the image's SHA-1, so the same
photo is never stored twice.  Every file is written to a temporary name and moved into place with
`os.replace`; the image is written last, so an example exists (is listed) only once it is complete.

Importers read YOLO folders, COCO detection JSON and Label Studio JSON exports; exporters write
YOLO folders and COCO JSON.  Pure Python + NumPy/Pillow: no torch, ultralytics or app imports.
See docs/annotate.md.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import re
import shutil
import urllib.parse
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from scoring.errors import JingsuanError
from scoring.melds import MELD_TYPES
from vision.data import (
    CMD_V4_NAME_MAP,
    IMAGE_SUFFIXES,
    YoloBox,
    class_index_map,
    load_names,
    read_yolo_labels,
    remap_label,
    write_yolo_labels,
)
from vision.detection import CLASS_NAMES

SIDECAR_VERSION = 1
#: Meld kinds a sidecar may name (scoring.melds): 吃 碰 明杠 暗杠 (= concealed kong) 补杠.
MELD_KINDS: tuple[str, ...] = MELD_TYPES
#: Environment variable that moves the datasets folder (default: ``<repo>/datasets``).
DATASETS_ENV = "JINGSUAN_DATASETS"
DATASET_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
#: Source class names of "Chinese Mahjong Detection v4" for `import_yolo`: tiles mapped, flowers and seasons dropped.
CMD_V4_IMPORT_MAP: dict[str, str | None] = {
    **CMD_V4_NAME_MAP,
    **{f"bs{n}": None for n in range(1, 5)},
    **{f"bf{n}": None for n in range(1, 5)},
}
_FORMAT_SUFFIX = {"JPEG": ".jpg", "PNG": ".png", "BMP": ".bmp", "WEBP": ".webp", "MPO": ".jpg"}
_CLASS_INDEX = {n: i for i, n in enumerate(CLASS_NAMES)}


class DatasetError(JingsuanError):
    """A dataset operation that cannot be done (bad input, missing example, bad folder)."""


class UnknownClassError(DatasetError):
    """Labels name classes that are not tile codes (and no name_map entry maps or drops them)."""

    def __init__(self, names: Iterable[str], where: str = "") -> None:
        self.names = sorted(set(names))
        listed = ", ".join(self.names)
        at = f"（{where}）" if where else ""
        super().__init__(
            f"有不认识的牌类别{at}：{listed}；请用 name_map 把它们对应到牌名（或设为 None 丢弃）",
            f"unknown class names{' in ' + where if where else ''}: {listed}; "
            f"map them to tile codes with name_map (None drops a class). Known: {' '.join(CLASS_NAMES)}",
        )


class DuplicateExampleError(DatasetError):
    """The image (by content) is already in the dataset; `stem` names the stored example."""

    def __init__(self, stem: str, root: Path) -> None:
        self.stem = stem
        super().__init__(f"这张照片已经在数据集 {root.name} 里（{stem}）", f"this image is already in dataset {root} as {stem}")


class SidecarError(DatasetError):
    """A sidecar JSON file that cannot be read or has invalid fields (the file is left untouched)."""


class LabeledBox(NamedTuple):
    """One labelled tile: corners in the image's pixels and the class name (tile code or 'back')."""

    x1: float
    y1: float
    x2: float
    y2: float
    cls: str


@dataclass(frozen=True)
class Example:
    """One stored example: image file, its size, boxes in pixels and the sidecar dict."""

    stem: str
    image_path: Path
    width: int
    height: int
    boxes: list[LabeledBox]
    sidecar: dict[str, Any]

    @property
    def reviewed(self) -> bool:
        """Whether a person has checked these labels."""
        return bool(self.sidecar.get("reviewed", False))


@dataclass
class ImportResult:
    """What an importer did: stems added, duplicates skipped, labels of dropped classes."""

    added: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    dropped_labels: int = 0

    def summary(self) -> str:
        """One line for the CLI."""
        return f"{len(self.added)} added, {len(self.duplicates)} already present, {self.dropped_labels} labels of dropped classes"


# --------------------------------------------------------------------------- small helpers


def default_datasets_root() -> Path:
    """The datasets folder: $JINGSUAN_DATASETS, else ``<repo>/datasets``."""
    env = os.environ.get(DATASETS_ENV)
    return Path(env) if env else Path(__file__).resolve().parents[1] / "datasets"


def check_dataset_name(name: str) -> str:
    """A dataset name must be a plain folder name (letters, digits, ``_ . -``); returns it stripped."""
    name = name.strip()
    if not DATASET_NAME_RE.match(name):
        raise DatasetError(
            f"数据集名称不合法：{name!r}（只用字母、数字、_ . -）",
            f"invalid dataset name {name!r}: use letters, digits, '_', '.', '-' (max 64)",
        )
    return name


def open_dataset(name: str, root: str | Path | None = None) -> DatasetStore:
    """The store ``<root>/<name>`` (root defaults to `default_datasets_root`), created if missing."""
    base = Path(root) if root is not None else default_datasets_root()
    return DatasetStore(base / check_dataset_name(name))


def list_datasets(root: str | Path | None = None) -> list[str]:
    """Names of the datasets (folders with ``images/`` or ``data.yaml``) under the root."""
    base = Path(root) if root is not None else default_datasets_root()
    if not base.is_dir():
        return []
    return sorted(
        p.name for p in base.iterdir() if p.is_dir() and ((p / "images").is_dir() or (p / "data.yaml").exists())
    )


def _atomic_write(path: Path, data: bytes) -> None:
    """Write bytes to a temporary sibling, fsync, then `os.replace` it onto `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _atomic_write_labels(path: Path, boxes: Iterable[YoloBox]) -> None:
    """`write_yolo_labels` to a temporary sibling, then `os.replace` it onto `path`."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write_yolo_labels(tmp, boxes)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _json_bytes(doc: Any) -> bytes:
    return (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def as_labeled_box(box: Sequence[Any] | LabeledBox) -> LabeledBox:
    """Any ``(x1, y1, x2, y2, cls)`` sequence → a LabeledBox with ordered corners."""
    if len(box) != 5:
        raise DatasetError("标注框格式不对", f"a box must be (x1, y1, x2, y2, cls), got {box!r}")
    x1, y1, x2, y2, cls = box
    x1, y1, x2, y2 = float(x1), float(y1), float(x2), float(y2)
    return LabeledBox(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2), str(cls))


def _prepare_image(image: bytes | bytearray | str | Path) -> tuple[bytes, str, int, int]:
    """Image bytes/path → (bytes to store, suffix, width, height); EXIF rotation baked into the pixels."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    from vision.image import MAX_PIXELS

    if isinstance(image, str | Path):
        try:
            data = Path(image).read_bytes()
        except OSError as exc:
            raise DatasetError(f"读不到照片：{image}", f"cannot read image {image}: {exc}") from exc
    else:
        data = bytes(image)
    try:
        with Image.open(io.BytesIO(data)) as img:
            fmt = img.format or ""
            if img.width * img.height > MAX_PIXELS:
                raise DatasetError("照片太大", f"image too large ({img.width}x{img.height})")
            orientation = 1
            with contextlib.suppress(Exception):
                orientation = int(img.getexif().get(0x0112, 1) or 1)
            if orientation != 1 or fmt not in _FORMAT_SUFFIX:
                img.load()
                fixed = ImageOps.exif_transpose(img) if orientation != 1 else img
                out = io.BytesIO()
                if fmt in ("JPEG", "MPO"):
                    fixed.convert("RGB").save(out, "JPEG", quality=95)
                    suffix = ".jpg"
                else:
                    fixed.save(out, "PNG")
                    suffix = ".png"
                return out.getvalue(), suffix, fixed.width, fixed.height
            img.load()  # a truncated file fails here, not at training time
            return data, _FORMAT_SUFFIX[fmt], img.width, img.height
    except DatasetError:
        raise
    # ImportError: ultralytics, once imported, hooks PIL to try pi_heif on files it cannot identify
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, ImportError, Image.DecompressionBombError) as exc:
        raise DatasetError("这个文件不是可读的图片", f"not a readable image: {exc}") from exc


def _image_size(path: Path) -> tuple[int, int]:
    """(width, height) of a stored or imported image; a file that is not a readable image is a DatasetError."""
    from PIL import Image

    try:
        with Image.open(path) as img:
            return img.width, img.height
    except Exception as exc:  # PIL's UnidentifiedImageError/OSError, or a plugin (ultralytics' HEIF hook) failing
        raise DatasetError(f"照片 {path.name} 读不出来（文件坏了或不是图片）",
                           f"cannot read the image {path.name}: {exc}") from exc


def _check_index(value: Any, n_boxes: int, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n_boxes:
        raise SidecarError(f"附加信息里的 {what} 不对：{value!r}", f"sidecar {what} must be a box index 0..{n_boxes - 1} or null, got {value!r}")
    return value


def validate_sidecar(sidecar: Mapping[str, Any], n_boxes: int) -> dict[str, Any]:
    """Check the sidecar's box references against `n_boxes`; returns a normalised copy."""
    out = dict(sidecar)
    out["winning"] = _check_index(out.get("winning"), n_boxes, "winning")
    out["indicator"] = _check_index(out.get("indicator"), n_boxes, "indicator")
    melds = out.get("melds") or []
    if not isinstance(melds, list):
        raise SidecarError("附加信息里的副露格式不对", "sidecar 'melds' must be a list")
    clean = []
    for m in melds:
        if not isinstance(m, Mapping) or m.get("kind") not in MELD_KINDS or not isinstance(m.get("boxes"), list):
            raise SidecarError(
                f"附加信息里的副露不对：{m!r}",
                f"each meld must be {{'kind': one of {', '.join(MELD_KINDS)}, 'boxes': [box indices]}}, got {m!r}",
            )
        idx = [_check_index(i, n_boxes, "meld box") for i in m["boxes"]]
        if len(set(idx)) != len(idx) or not idx:
            raise SidecarError("副露里的牌重复或为空", f"meld boxes must be distinct and non-empty: {m!r}")
        clean.append({**m, "boxes": idx})
    out["melds"] = clean
    out["reviewed"] = bool(out.get("reviewed", False))
    return out


def prune_sidecar(sidecar: Mapping[str, Any], n_boxes: int) -> dict[str, Any]:
    """Drop box references at or past `n_boxes` (after boxes were deleted); melds losing a box go."""
    out = dict(sidecar)
    for key in ("winning", "indicator"):
        v = out.get(key)
        if not (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n_boxes):
            out[key] = None
    out["melds"] = [
        m
        for m in out.get("melds") or []
        if isinstance(m, Mapping) and all(isinstance(i, int) and 0 <= i < n_boxes for i in m.get("boxes", []))
    ]
    return out


# --------------------------------------------------------------------------- the store


class DatasetStore:
    """A team dataset folder: images, YOLO labels, sidecars and data.yaml (created on first use)."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        if self.root.exists() and not self.root.is_dir():
            raise DatasetError(f"不是文件夹：{self.root}", f"not a directory: {self.root}")
        self.images_dir = self.root / "images"
        self.labels_dir = self.root / "labels"
        self.sidecar_dir = self.root / "sidecar"
        self.data_yaml = self.root / "data.yaml"
        self.name = self.root.name

    # ---- layout

    def _ensure_layout(self) -> None:
        for d in (self.images_dir, self.labels_dir, self.sidecar_dir):
            d.mkdir(parents=True, exist_ok=True)
        self.write_data_yaml()

    def write_data_yaml(self, train: str = "images", val: str = "images") -> Path:
        """Write ``data.yaml`` (absolute path, train/val, the 35 class names) unless it already says so."""
        import yaml

        doc = {"path": str(self.root.resolve()), "train": train, "val": val, "names": dict(enumerate(CLASS_NAMES))}
        text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
        current = self.data_yaml.read_text(encoding="utf-8") if self.data_yaml.exists() else None
        if current != text:
            _atomic_write(self.data_yaml, text.encode("utf-8"))
        return self.data_yaml

    def stems(self) -> list[str]:
        """Stems of all stored examples (one per image file), sorted."""
        if not self.images_dir.is_dir():
            return []
        return sorted(p.stem for p in self.images_dir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())

    def __len__(self) -> int:
        return len(self.stems())

    def __contains__(self, stem: object) -> bool:
        return isinstance(stem, str) and self._find_image(stem) is not None

    def _find_image(self, stem: str) -> Path | None:
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", stem):
            return None
        for suffix in sorted(IMAGE_SUFFIXES):
            p = self.images_dir / f"{stem}{suffix}"
            if p.is_file():
                return p
        return None

    def image_path(self, stem: str) -> Path:
        """The image file of `stem` (DatasetError if there is none)."""
        p = self._find_image(stem)
        if p is None:
            raise DatasetError(f"数据集 {self.name} 里没有样本 {stem}", f"no example {stem!r} in dataset {self.root}")
        return p

    def label_path(self, stem: str) -> Path:
        """Where the YOLO label file of `stem` lives."""
        return self.labels_dir / f"{stem}.txt"

    def sidecar_path(self, stem: str) -> Path:
        """Where the sidecar JSON of `stem` lives."""
        return self.sidecar_dir / f"{stem}.json"

    # ---- boxes ↔ YOLO

    @staticmethod
    def _to_yolo(boxes: Iterable[Sequence[Any] | LabeledBox], width: int, height: int) -> list[YoloBox]:
        out: list[YoloBox] = []
        clean = [as_labeled_box(b) for b in boxes]
        unknown = [b.cls for b in clean if b.cls not in _CLASS_INDEX]
        if unknown:
            raise UnknownClassError(unknown)
        for b in clean:
            x1, y1 = min(max(b.x1, 0.0), width), min(max(b.y1, 0.0), height)
            x2, y2 = min(max(b.x2, 0.0), width), min(max(b.y2, 0.0), height)
            if not all(math.isfinite(v) for v in (x1, y1, x2, y2)) or x2 - x1 <= 0 or y2 - y1 <= 0:
                raise DatasetError("有面积为零或在照片外的标注框", f"empty or off-image box {tuple(b)} in a {width}x{height} image")
            out.append(YoloBox.from_xyxy(_CLASS_INDEX[b.cls], x1 / width, y1 / height, x2 / width, y2 / height))
        return out

    def _read_boxes(self, stem: str, width: int, height: int) -> list[LabeledBox]:
        boxes = []
        for b in read_yolo_labels(self.label_path(stem)):
            if not 0 <= b.cls < len(CLASS_NAMES):
                raise DatasetError(
                    f"标注文件 {self.label_path(stem)} 里有不存在的类别编号 {b.cls}",
                    f"label file {self.label_path(stem)} has class index {b.cls} outside 0..{len(CLASS_NAMES) - 1}",
                )
            x1, y1, x2, y2 = b.xyxy()
            boxes.append(LabeledBox(x1 * width, y1 * height, x2 * width, y2 * height, CLASS_NAMES[b.cls]))
        return boxes

    # ---- sidecars

    def read_sidecar(self, stem: str) -> dict[str, Any]:
        """The sidecar of `stem` (defaults if the file is missing; SidecarError if it is corrupt)."""
        p = self.sidecar_path(stem)
        if not p.exists():
            return {"version": SIDECAR_VERSION, "stem": stem, "reviewed": False, "melds": [], "winning": None, "indicator": None}
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SidecarError(
                f"附加信息文件已损坏，未改动：{p}（请手动修复或删除）",
                f"corrupt sidecar JSON {p}: {exc}; it was left untouched — fix or delete it",
            ) from exc
        if not isinstance(doc, dict):
            raise SidecarError(f"附加信息文件格式不对，未改动：{p}", f"sidecar {p} must hold a JSON object; it was left untouched")
        return doc

    def _write_sidecar(self, stem: str, sidecar: Mapping[str, Any]) -> None:
        _atomic_write(self.sidecar_path(stem), _json_bytes(dict(sidecar)))

    def update_sidecar(self, stem: str, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Merge `fields` into the sidecar of `stem` (validated against its boxes); returns the new sidecar."""
        ex = self.load(stem)
        doc = validate_sidecar({**ex.sidecar, **fields}, len(ex.boxes))
        doc["updated"] = _now()
        self._write_sidecar(stem, doc)
        return doc

    # ---- the API

    def add_example(
        self,
        image: bytes | bytearray | str | Path,
        boxes: Iterable[Sequence[Any] | LabeledBox],
        sidecar: Mapping[str, Any] | None = None,
        source: str = "",
        *,
        original_name: str | None = None,
        overwrite: bool = False,
    ) -> str:
        """Store an image with its boxes (pixels) and sidecar → its stem.

        The same image (by content) already stored raises DuplicateExampleError unless `overwrite`.
        """
        data, suffix, width, height = _prepare_image(image)
        stem = hashlib.sha1(data).hexdigest()[:16]
        existing = self._find_image(stem)
        if existing is not None and not overwrite:
            raise DuplicateExampleError(stem, self.root)
        box_list = [as_labeled_box(b) for b in boxes]
        yolo = self._to_yolo(box_list, width, height)
        if original_name is None and isinstance(image, str | Path):
            original_name = Path(image).name
        doc: dict[str, Any] = {
            "version": SIDECAR_VERSION,
            "stem": stem,
            "image": f"{stem}{suffix}",
            "width": width,
            "height": height,
            "source": source,
            "created": _now(),
            "original_name": original_name,
            "reviewed": False,
            "melds": [],
            "winning": None,
            "indicator": None,
        }
        if sidecar:
            reserved = {"version", "stem", "image", "width", "height"}
            doc.update({k: v for k, v in sidecar.items() if k not in reserved})
            doc["source"] = source or str(sidecar.get("source", ""))
        doc = validate_sidecar(doc, len(yolo))
        try:
            json.dumps(doc)
        except (TypeError, ValueError) as exc:
            raise SidecarError("附加信息里有无法保存的值", f"sidecar is not JSON-serialisable: {exc}") from exc
        self._ensure_layout()
        _atomic_write_labels(self.label_path(stem), yolo)
        self._write_sidecar(stem, doc)
        if existing is not None and existing.suffix != suffix:
            existing.unlink()
        _atomic_write(self.images_dir / f"{stem}{suffix}", data)  # last: the example now exists
        return stem

    def load(self, stem: str) -> Example:
        """The example `stem`: image path, size, boxes in pixels, sidecar."""
        path = self.image_path(stem)
        sidecar = self.read_sidecar(stem)
        width, height = _image_size(path)
        return Example(stem, path, width, height, self._read_boxes(stem, width, height), sidecar)

    def save_labels(self, stem: str, boxes: Iterable[Sequence[Any] | LabeledBox]) -> None:
        """Replace the boxes of `stem`; sidecar references to boxes that no longer exist are dropped."""
        path = self.image_path(stem)
        sidecar = self.read_sidecar(stem)  # a corrupt sidecar stops here, before anything is written
        width, height = _image_size(path)
        yolo = self._to_yolo(boxes, width, height)
        pruned = prune_sidecar(sidecar, len(yolo))
        _atomic_write_labels(self.label_path(stem), yolo)
        if pruned != sidecar or self.sidecar_path(stem).exists():
            pruned["updated"] = _now()
            self._write_sidecar(stem, pruned)

    def set_reviewed(self, stem: str, reviewed: bool = True) -> None:
        """Mark the labels of `stem` as checked by a person (or not)."""
        self.image_path(stem)
        doc = self.read_sidecar(stem)
        doc["reviewed"] = bool(reviewed)
        doc["reviewed_at" if reviewed else "unreviewed_at"] = _now()
        self._write_sidecar(stem, doc)

    def delete(self, stem: str) -> None:
        """Remove an example (image first, so it stops being listed, then label and sidecar)."""
        self.image_path(stem).unlink()
        for p in (self.label_path(stem), self.sidecar_path(stem)):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()

    def class_counts(self) -> dict[str, int]:
        """Boxes per class over the whole dataset, every one of the 35 classes listed (zeros too)."""
        counts = dict.fromkeys(CLASS_NAMES, 0)
        for stem in self.stems():
            for b in read_yolo_labels(self.label_path(stem)):
                if 0 <= b.cls < len(CLASS_NAMES):
                    counts[CLASS_NAMES[b.cls]] += 1
        return counts

    def corrupt_sidecars(self) -> list[str]:
        """Stems whose sidecar JSON cannot be read."""
        bad = []
        for stem in self.stems():
            try:
                self.read_sidecar(stem)
            except SidecarError:
                bad.append(stem)
        return bad

    def progress(self) -> tuple[int, int]:
        """(reviewed, total) examples; an unreadable sidecar counts as not reviewed."""
        stems = self.stems()
        reviewed = 0
        for stem in stems:
            with contextlib.suppress(SidecarError):
                reviewed += bool(self.read_sidecar(stem).get("reviewed", False))
        return reviewed, len(stems)

    def split(self, holdout_fraction: float = 0.2, seed: int = 0) -> list[str]:
        """Held-back (validation) stems: deterministic for a seed, and a stem's side never changes as the set grows.

        A stem is held back when the hash of ``seed:stem`` falls below the fraction; with at least
        two examples and a fraction > 0 at least one is held back.
        """
        if not 0.0 <= holdout_fraction < 1.0:
            raise DatasetError("留出比例须在 0 和 1 之间", f"holdout_fraction must be in [0, 1), got {holdout_fraction}")
        stems = self.stems()

        def key(stem: str) -> float:
            return int(hashlib.sha256(f"{seed}:{stem}".encode()).hexdigest()[:15], 16) / 16**15

        held = [s for s in stems if key(s) < holdout_fraction]
        if not held and holdout_fraction > 0 and len(stems) >= 2:
            held = [min(stems, key=key)]
        return sorted(held)

    def write_split(self, holdout_fraction: float = 0.2, seed: int = 0) -> tuple[Path, Path]:
        """Write ``train.txt`` / ``val.txt`` (image lists) and point data.yaml at them → their paths."""
        held = set(self.split(holdout_fraction, seed))
        self._ensure_layout()
        lines = {"train": [], "val": []}  # type: dict[str, list[str]]
        for stem in self.stems():
            lines["val" if stem in held else "train"].append(f"./images/{self.image_path(stem).name}")
        paths = []
        for part in ("train", "val"):
            p = self.root / f"{part}.txt"
            _atomic_write(p, "".join(line + "\n" for line in lines[part]).encode("utf-8"))
            paths.append(p)
        self.write_data_yaml("train.txt", "val.txt")
        return paths[0], paths[1]


# --------------------------------------------------------------------------- import


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
        w, h = _image_size(img)
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


def _load_json(path: str | Path) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DatasetError(f"读不了 JSON 文件：{path}", f"cannot read JSON {path}: {exc}") from exc


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
    cats = {c["id"]: str(c["name"]) for c in doc.get("categories", [])}
    anns_by_image: dict[Any, list[dict[str, Any]]] = {}
    for a in doc.get("annotations", []):
        anns_by_image.setdefault(a["image_id"], []).append(a)
    used = {cats.get(a["category_id"], f"#{a['category_id']}") for a in doc.get("annotations", [])}
    names = _resolve_names(used, name_map, str(json_path))
    images_dir = Path(images_dir)
    work = [(im, _find_in(images_dir, str(im["file_name"]))) for im in doc["images"]]
    result = ImportResult()
    for im, path in work:
        boxes = []
        for a in sorted(anns_by_image.get(im["id"], []), key=lambda a: a.get("id", 0)):
            target = names[cats.get(a["category_id"], f"#{a['category_id']}")]
            if target is None:
                result.dropped_labels += 1
                continue
            x, y, w, h = (float(v) for v in a["bbox"])
            boxes.append(LabeledBox(x, y, x + w, y + h, target))
        width, height = _image_size(path)
        sidecar = im.get("jingsuan") if isinstance(im.get("jingsuan"), dict) else None
        src = source or (sidecar or {}).get("source") or f"coco:{Path(json_path).name}"
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
    for task in tasks:
        image_ref = (task.get("data") or {}).get("image")
        if not image_ref:
            raise DatasetError("Label Studio 任务里没有图片", f"task {task.get('id')} has no data.image")
        path = _find_in(images_dir, str(image_ref))
        anns = [a for a in task.get("annotations") or [] if not a.get("was_cancelled")]
        results = [r for r in (anns[-1].get("result") or []) if r.get("type") == "rectanglelabels"] if anns else []
        for r in results:
            used.update(str(n) for n in r["value"].get("rectanglelabels", []))
        work.append((path, results))
    names = _resolve_names(used, name_map, str(json_path))
    result = ImportResult()
    for path, results in work:
        width, height = _image_size(path)
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
        _add_or_skip(store, result, path, _clip_all(boxes, width, height), None, source or f"label-studio:{Path(json_path).name}")
    return result


# --------------------------------------------------------------------------- export


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
    splits (the layout `vision.data.import_yolo_dataset` and training read).
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
    return out / "data.yaml"


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
        "info": {"description": f"jingsuan dataset {store.name}", "date_created": _now()},
        "images": images,
        "annotations": annotations,
        "categories": [{"id": i + 1, "name": n, "supercategory": "tile"} for i, n in enumerate(CLASS_NAMES)],
    }
    out = Path(out_json)
    _atomic_write(out, _json_bytes(doc))
    return out
