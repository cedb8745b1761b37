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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from scoring.errors import JingsuanError
from scoring.melds import MELD_TYPES
from vision.datasets.files import atomic_write, json_bytes
from vision.datasets.places import checkout_root, user_data_dir
from vision.datasets.yolo import IMAGE_SUFFIXES, YoloBox, read_yolo_labels
from vision.reader.detection import CLASS_NAMES

SIDECAR_VERSION = 1
#: Meld kinds a sidecar may name (scoring.melds): 吃 碰 明杠 暗杠 (= concealed kong) 补杠.
MELD_KINDS: tuple[str, ...] = MELD_TYPES
#: Environment variable that moves the datasets folder (default: `default_datasets_root`).
DATASETS_ENV = "JINGSUAN_DATASETS"
DATASET_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
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
    """The datasets folder: $JINGSUAN_DATASETS, else ``<repo>/datasets`` in a checkout, else ``datasets/``
    in the user data folder beside the ledger (an installed package never writes into site-packages)."""
    env = os.environ.get(DATASETS_ENV)
    if env:
        return Path(env).expanduser()
    repo = checkout_root()
    return (repo if repo is not None else user_data_dir()) / "datasets"


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


def _atomic_write_labels(path: Path, boxes: Iterable[YoloBox]) -> None:
    """The YOLO label file of `boxes`, written with `atomic_write`."""
    atomic_write(path, "".join(b.to_line() + "\n" for b in boxes).encode("utf-8"))


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

    from vision.reader.image import MAX_PIXELS

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


def image_size(path: Path) -> tuple[int, int]:
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
            atomic_write(self.data_yaml, text.encode("utf-8"))
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
        atomic_write(self.sidecar_path(stem), json_bytes(dict(sidecar)))

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
        atomic_write(self.images_dir / f"{stem}{suffix}", data)  # last: the example now exists
        return stem

    def load(self, stem: str) -> Example:
        """The example `stem`: image path, size, boxes in pixels, sidecar."""
        path = self.image_path(stem)
        sidecar = self.read_sidecar(stem)
        width, height = image_size(path)
        return Example(stem, path, width, height, self._read_boxes(stem, width, height), sidecar)

    def save_labels(self, stem: str, boxes: Iterable[Sequence[Any] | LabeledBox]) -> None:
        """Replace the boxes of `stem`; sidecar references to boxes that no longer exist are dropped."""
        path = self.image_path(stem)
        sidecar = self.read_sidecar(stem)  # a corrupt sidecar stops here, before anything is written
        width, height = image_size(path)
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
            atomic_write(p, "".join(line + "\n" for line in lines[part]).encode("utf-8"))
            paths.append(p)
        self.write_data_yaml("train.txt", "val.txt")
        return paths[0], paths[1]


# --------------------------------------------------------------------------- import


# --------------------------------------------------------------------------- export


