"""Fine-tune the tile detector on a team dataset and adopt the result only if it is better.

`finetune` splits the team dataset (`DatasetStore.write_split`, deterministic), trains on the team's
train part plus the base data's train images, validates on the team's held-back part, exports the
candidate to ONNX, scores the current ``models/tiles.onnx`` and the candidate on the held-back
photos with `vision.evaluate` (mAP50, per-tile accuracy), replaces the current model only when
`should_replace` says so (the old one stays as ``tiles.prev.onnx``) and always appends a row to the
"Fine-tuning log" of ``models/MODEL_CARD.md``.

Training, export and evaluation are injectable (tests run the decision and bookkeeping fast);
torch/ultralytics are only imported by the default implementations, inside functions.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vision.data import IMAGE_SUFFIXES
from vision.dataset_store import DatasetError, DatasetStore
from vision.detection import CLASS_NAMES

CURRENT_ONNX = "tiles.onnx"
CURRENT_PT = "tiles.pt"
PREVIOUS_ONNX = "tiles.prev.onnx"
PREVIOUS_PT = "tiles.prev.pt"
MODEL_CARD = "MODEL_CARD.md"
LOG_HEADING = "## Fine-tuning log"
LOG_TABLE_HEADER = (
    "| date | dataset | images (train / held back) | started from | mAP50 before → after "
    "| per-tile accuracy before → after | decision |\n"
    "|---|---|---|---|---|---|---|\n"
)
#: Model YAML used when there is no trainable checkpoint (the shipped ONNX cannot be trained).
FALLBACK_MODEL = "yolov8n.yaml"


@dataclass(frozen=True)
class Scores:
    """The two figures the decision and the model card use (on the held-back team photos)."""

    map50: float
    tile_accuracy: float


@dataclass
class FinetuneResult:
    """What one fine-tuning run did."""

    date: str
    dataset: str
    n_train: int
    n_heldout: int
    n_base: int
    started_from: str
    before: Scores | None
    after: Scores
    replaced: bool
    candidate_onnx: Path
    work_dir: Path

    @property
    def decision(self) -> str:
        """'adopted' (no current model), 'replaced' or 'kept'."""
        if not self.replaced:
            return "kept"
        return "adopted" if self.before is None else "replaced"


#: (data_yaml, start model: .pt path or model YAML, work_dir, epochs, imgsz) → trained .pt
TrainFn = Callable[[Path, str, Path, int, int], Path]
#: (weights .pt, out .onnx, imgsz) → the ONNX file
ExportFn = Callable[[Path, Path, int], Path]
#: (ONNX model, held-back YOLO folder) → Scores
EvalFn = Callable[[Path, Path], Scores]


# --------------------------------------------------------------------------- small pure parts


def should_replace(before: Scores | None, after: Scores) -> bool:
    """Adopt the candidate when there is no current model or its mAP50 is strictly higher (tie → keep)."""
    if before is None:
        return True
    return after.map50 > before.map50


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def card_row(result: FinetuneResult) -> str:
    """One Markdown table row of the fine-tuning log for `result`."""
    b = result.before
    images = f"{result.n_train} / {result.n_heldout}" + (f" (+{result.n_base} base)" if result.n_base else "")
    decision = {
        "adopted": "adopted (there was no current model)",
        "replaced": f"replaced (old model kept as {PREVIOUS_ONNX})",
        "kept": "kept (candidate not better)",
    }[result.decision]
    cells = [
        result.date,
        result.dataset,
        images,
        result.started_from,
        f"{_fmt(b.map50 if b else None)} → {_fmt(result.after.map50)}",
        f"{_fmt(b.tile_accuracy if b else None)} → {_fmt(result.after.tile_accuracy)}",
        decision,
    ]
    return "| " + " | ".join(c.replace("|", "/") for c in cells) + " |\n"


def add_log_row(card_text: str, row: str) -> str:
    """`card_text` with `row` appended to its "Fine-tuning log" table (the section is created if missing)."""
    lines = card_text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == LOG_HEADING)
    except StopIteration:
        head = "".join(lines) if lines else "# Tile detector — model card\n"
        sep = "" if head.endswith("\n\n") else "\n"
        return f"{head}{sep}{LOG_HEADING}\n\n{LOG_TABLE_HEADER}{row}"
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    last = end
    while last > start + 1 and not lines[last - 1].strip():
        last -= 1
    has_table = any(line.startswith("| date |") for line in lines[start + 1 : last])
    insert = row if has_table else "\n" + LOG_TABLE_HEADER + row
    tail = lines[last:]
    if tail and tail[0].strip():  # the next heading followed directly: keep a blank line before it
        insert += "\n"
    return "".join(lines[:last]) + insert + "".join(tail)


def append_card_entry(card: Path, result: FinetuneResult) -> Path:
    """Append the row of `result` to the model card's fine-tuning log (creating the card if needed)."""
    text = card.read_text(encoding="utf-8") if card.exists() else ""
    _atomic_copy_bytes(add_log_row(text, card_row(result)).encode("utf-8"), card)
    return card


def _atomic_copy_bytes(data: bytes, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _atomic_copy(src: Path, target: Path) -> None:
    """Copy `src` onto `target` via a temporary sibling and `os.replace` (readers never see half a file)."""
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def install_candidate(model_dir: Path, candidate_onnx: Path, candidate_pt: Path | None) -> None:
    """Make the candidate the current model; the current files become ``tiles.prev.*``."""
    model_dir.mkdir(parents=True, exist_ok=True)
    for current, previous, new in (
        (CURRENT_ONNX, PREVIOUS_ONNX, candidate_onnx),
        (CURRENT_PT, PREVIOUS_PT, candidate_pt),
    ):
        if new is None or not Path(new).is_file():
            continue
        if (model_dir / current).is_file():
            _atomic_copy(model_dir / current, model_dir / previous)
        _atomic_copy(Path(new), model_dir / current)


def base_train_images(base_data: str | Path | None) -> Path | None:
    """The train image folder of a YOLO base data set (its data.yaml's ``train``, else ``train/images``)."""
    if base_data is None:
        return None
    root = Path(base_data)
    candidates = []
    if (root / "data.yaml").is_file():
        import yaml

        doc = yaml.safe_load((root / "data.yaml").read_text(encoding="utf-8")) or {}
        train = doc.get("train")
        if isinstance(train, str):
            base = Path(doc.get("path") or root)
            candidates.append(Path(train) if Path(train).is_absolute() else (base if base.is_absolute() else root) / train)
    candidates.append(root / "train" / "images")
    for c in candidates:
        if c.is_dir() and _count_images(c):
            return c.resolve()
    return None


def _count_images(folder: Path) -> int:
    return sum(1 for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES) if folder.is_dir() else 0


def write_heldout(store: DatasetStore, stems: list[str], out: Path) -> Path:
    """Copy the held-back examples to ``out/{images,labels}`` (a YOLO folder for validation and evaluation)."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    for stem in stems:
        img = store.image_path(stem)
        shutil.copyfile(img, out / "images" / img.name)
        label = store.label_path(stem)
        if label.exists():
            shutil.copyfile(label, out / "labels" / label.name)
        else:
            (out / "labels" / label.name).write_text("", encoding="utf-8")
    return out


def write_data_yaml(path: Path, train: list[Path], val: Path) -> Path:
    """An ultralytics data YAML with absolute train sources (lists/folders) and the project's class names."""
    import yaml

    doc = {
        "path": str(path.parent.resolve()),
        "train": [str(p.resolve()) for p in train],
        "val": str(val.resolve()),
        "names": dict(enumerate(CLASS_NAMES)),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- default heavy parts


def default_train(data_yaml: Path, start: str, work_dir: Path, epochs: int, imgsz: int, **config: Any) -> Path:
    """Train with `vision.train` (offline, CPU) from `start`; `config` overrides TrainConfig fields → best checkpoint."""
    from vision.train import TrainConfig, train

    settings: dict[str, Any] = {"close_mosaic": min(3, max(0, epochs - 1)), **config}
    cfg = TrainConfig(
        data=str(data_yaml), model=start, imgsz=imgsz, epochs=epochs, project=str(work_dir.resolve()), name="train",
        **settings,
    )  # fmt: skip
    run_dir = train(cfg)
    best = run_dir / "weights" / "best.pt"
    return best if best.exists() else run_dir / "weights" / "last.pt"


def default_export(weights: Path, out: Path, imgsz: int) -> Path:
    """`vision.train.export_onnx`."""
    from vision.train import export_onnx

    return export_onnx(weights, out, imgsz=imgsz)


def default_eval(model: Path, heldout: Path) -> Scores:
    """mAP50 and per-tile accuracy of an ONNX model on a YOLO folder (`vision.evaluate`)."""
    from vision.detector import TileDetector
    from vision.evaluate import evaluate

    det = TileDetector(model)  # not the cached get_detector: the file at this path may have just changed
    result = evaluate(heldout, lambda p: det(p, conf=0.001))
    return Scores(map50=result.map50, tile_accuracy=result.tile_accuracy)


# --------------------------------------------------------------------------- the run


def finetune(
    store_root: str | Path,
    model_dir: str | Path,
    base_data: str | Path | None = None,
    epochs: int = 8,
    imgsz: int = 416,
    holdout: float = 0.2,
    seed: int = 0,
    work_dir: str | Path | None = None,
    train_fn: TrainFn | None = None,
    export_fn: ExportFn = default_export,
    eval_fn: EvalFn = default_eval,
    batch: int = 16,
    log: Callable[[str], None] = print,
) -> FinetuneResult:
    """Fine-tune on a team dataset, score old vs new on its held-back photos, adopt only a better model."""
    store = DatasetStore(store_root)
    stems = store.stems()
    if len(stems) < 2:
        raise DatasetError(
            f"数据集 {store.name} 里至少要有两张照片才能微调（一张用来检验）",
            f"dataset {store.root} needs at least 2 examples to fine-tune (one is held back to judge the result)",
        )
    held = store.split(holdout, seed)
    train_txt, _ = store.write_split(holdout, seed)
    n_heldout, n_train = len(held), len(stems) - len(held)
    now = datetime.now(UTC).replace(microsecond=0)
    model_dir = Path(model_dir)
    work = Path(work_dir) if work_dir is not None else Path("runs") / "finetune" / f"{store.name}-{now:%Y%m%d-%H%M%S}"
    work.mkdir(parents=True, exist_ok=True)
    heldout_dir = write_heldout(store, held, work / "heldout")
    sources = [train_txt] if n_train else []
    base_images = base_train_images(base_data)
    n_base = _count_images(base_images) if base_images else 0
    if base_images:
        sources.append(base_images)
    elif base_data is not None:
        log(f"base data {base_data} not found: training on the team's photos only")
    if not sources:
        raise DatasetError("没有可用来训练的照片", f"nothing to train on in {store.root}")
    data_yaml = write_data_yaml(work / "data.yaml", sources, heldout_dir / "images")

    current_onnx, current_pt = model_dir / CURRENT_ONNX, model_dir / CURRENT_PT
    if current_pt.is_file():
        start, started_from = str(current_pt.resolve()), CURRENT_PT
    else:
        start = FALLBACK_MODEL
        why = "only the ONNX exists, which cannot be trained" if current_onnx.is_file() else "no current model"
        started_from = f"{FALLBACK_MODEL} ({why})"
        log(f"no {current_pt}: training from {FALLBACK_MODEL} ({why})")
    log(f"fine-tuning on {n_train} team photos" + (f" + {n_base} base images" if n_base else "") + f", {n_heldout} held back")

    train = train_fn or (lambda d, s, w, e, i: default_train(d, s, w, e, i, batch=batch))
    candidate_pt = Path(train(data_yaml, start, work, epochs, imgsz))
    candidate_onnx = Path(export_fn(candidate_pt, work / "candidate.onnx", imgsz))

    before = eval_fn(current_onnx, heldout_dir) if current_onnx.is_file() else None
    after = eval_fn(candidate_onnx, heldout_dir)
    replaced = should_replace(before, after)
    if replaced:
        install_candidate(model_dir, candidate_onnx, candidate_pt if candidate_pt.is_file() else None)
    result = FinetuneResult(
        date=f"{now:%Y-%m-%d %H:%M} UTC", dataset=store.name, n_train=n_train, n_heldout=n_heldout, n_base=n_base,
        started_from=started_from, before=before, after=after, replaced=replaced,
        candidate_onnx=candidate_onnx, work_dir=work,
    )  # fmt: skip
    append_card_entry(model_dir / MODEL_CARD, result)
    return result
