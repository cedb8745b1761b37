"""The model folder as a registry: which files make the current reader, the adopt-only-if-better
decision, installing a candidate (the replaced files kept as ``*.prev.*``), adopting one by hand,
and the "Fine-tuning log" of the model card. Every file is written with `atomic_write`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from vision.datasets.files import atomic_write
from vision.datasets.store import DatasetError

CURRENT_ONNX = "tiles.onnx"


CURRENT_PT = "tiles.pt"


CURRENT_CLASSIFIER = "tile_classifier.onnx"


#: The classifier's files, moved together: the int8 graph, the float graph and the weights.
CLASSIFIER_FILES = ("tile_classifier.onnx", "tile_classifier.fp32.onnx", "tile_classifier.pt")


MODEL_CARD = "MODEL_CARD.md"


LOG_HEADING = "## Fine-tuning log"


LOG_TABLE_HEADER = (
    "| date | dataset | images (train / held back) | started from | mAP50 before → after "
    "| per-tile accuracy before → after | decision |\n"
    "|---|---|---|---|---|---|---|\n"
)


@dataclass(frozen=True)
class Scores:
    """The two figures the decision and the model card use (on the held-back team photos), and how
    many tiles they were measured on (0: not known)."""

    map50: float
    tile_accuracy: float
    tiles: int = 0


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
        "replaced": "replaced (old files kept as *.prev.*)",
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
    atomic_write(card, add_log_row(text, card_row(result)).encode("utf-8"))
    return card


def previous_name(name: str) -> str:
    """Where the current file `name` is kept when a candidate replaces it: ``tiles.onnx`` →
    ``tiles.prev.onnx``, ``tile_classifier.fp32.onnx`` → ``tile_classifier.prev.fp32.onnx``."""
    stem, _, suffixes = name.partition(".")
    return f"{stem}.prev.{suffixes}"


def install_candidate(model_dir: Path, candidate_onnx: Path | None, candidate_pt: Path | None,
                      candidate_classifier: Path | None = None) -> None:
    """Make the candidate's files current (a part given as None stays as it is); each current
    file replaced is kept as ``*.prev.*`` (`previous_name`)."""
    model_dir.mkdir(parents=True, exist_ok=True)
    pairs = [(CURRENT_ONNX, candidate_onnx), (CURRENT_PT, candidate_pt)]
    if candidate_classifier is not None:  # its float graph and weights lie beside it
        pairs += [(name, candidate_classifier.parent / name) for name in CLASSIFIER_FILES]
    for name, new in pairs:
        if new is not None and Path(new).is_file():
            replace_current(model_dir, name, Path(new))


def replace_current(model_dir: Path, name: str, new: Path) -> None:
    """`new` becomes ``model_dir/name``; the file it replaces is kept as ``*.prev.*`` (`previous_name`)."""
    current = model_dir / name
    if current.is_file():
        atomic_write(model_dir / previous_name(name), current.read_bytes())
    atomic_write(current, new.read_bytes())


def adopt_candidate(run_dir: str | Path, model_dir: str | Path, now: datetime | None = None) -> list[str]:
    """Install by hand the candidate a fine-tuning run left in ``RUN_DIR/candidate`` (its judge, a few
    held-back photos, may have kept the current reader): each of its files that differs from the
    current one replaces it, the current kept as ``*.prev.*``; the model card's log says so.
    Returns the names of the files replaced."""
    candidate, model_dir = Path(run_dir) / "candidate", Path(model_dir)
    if not (candidate / CURRENT_ONNX).is_file():
        raise DatasetError(f"{run_dir} 里没有微调留下的候选模型（candidate/{CURRENT_ONNX}）",
                           f"no fine-tuning candidate in {run_dir} (candidate/{CURRENT_ONNX})")
    replaced = []
    for name in (CURRENT_ONNX, CURRENT_PT, *CLASSIFIER_FILES):
        new, current = candidate / name, model_dir / name
        if not new.is_file() or (current.is_file() and current.read_bytes() == new.read_bytes()):
            continue
        replace_current(model_dir, name, new)
        replaced.append(name)
    if replaced:
        when = (now or datetime.now(UTC)).replace(microsecond=0)
        cells = [f"{when:%Y-%m-%d %H:%M} UTC", Path(run_dir).name, "—", f"candidate of {Path(run_dir).name}", "—", "—",
                 f"adopted by hand: {', '.join(replaced)} (old files kept as *.prev.*)"]
        card = model_dir / MODEL_CARD
        text = card.read_text(encoding="utf-8") if card.exists() else ""
        atomic_write(card, add_log_row(text, "| " + " | ".join(cells) + " |\n").encode("utf-8"))
    return replaced

