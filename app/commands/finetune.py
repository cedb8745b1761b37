"""`jingsuan finetune DATASET`: fine-tune the current reader on a team dataset (`vision.training.finetune`).

The candidate replaces the current models only if it scores better on the team's held-back photos
(the replaced files stay as *.prev.*), and the model card's fine-tuning log gets a row either way.
`jingsuan adopt RUN` installs a candidate that was kept back. Defaults: `vision.training.config.DEFAULTS`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.commands import whole_number
from vision.training.config import DEFAULTS

HELP = "用团队标注的照片微调识别模型，更好才换上 (fine-tune the reader on a team dataset; adopted only if better)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dataset", help="team dataset folder (datasets/<name>, or just <name>)")
    parser.add_argument("--classifier-only", action="store_true",
                        help="fine-tune only the crop classifier, which is what learns a new tile set (minutes)")
    parser.add_argument("--model-dir", help="where tiles.onnx / tiles.pt / MODEL_CARD.md live "
                                            "(default: $JINGSUAN_MODEL_DIR, else the shipped models)")
    parser.add_argument("--base-data", default=DEFAULTS.base_data,
                        help="YOLO data whose train images are mixed in (skipped if missing)")
    parser.add_argument("--holdout", type=float, default=DEFAULTS.holdout,
                        help="fraction of the team's photos held back to judge the candidate")
    parser.add_argument("--epochs", type=whole_number(1), default=DEFAULTS.epochs)
    parser.add_argument("--imgsz", type=whole_number(32), default=DEFAULTS.imgsz)
    parser.add_argument("--batch", type=whole_number(1), default=DEFAULTS.batch)


def warn_unboxed(data: Path, detector: Path) -> int:
    """Before fine-tuning: say how many team photos leave tiles the current model sees without a box
    (training would learn them as background). Returns that count; says nothing without a model."""
    import sys

    from scoring.errors import JingsuanError
    from vision.datasets.store import DatasetStore
    from vision.datasets.unlabelled import detector_finder, unlabelled_in_store

    if not detector.is_file():
        return 0
    try:
        store = DatasetStore(data)
        found = unlabelled_in_store(store, detector_finder(detector))
    except JingsuanError:
        return 0
    if found:
        print(f"注意：{len(found)} / {len(store)} 张照片有漏标的牌，训练会把它们学成背景；"
              f"`jingsuan dataset check {data.name}` 列出它们，标注页的“查漏标”能补上。 "
              f"(note: {len(found)} of {len(store)} photos leave tiles unboxed, which training learns as background)",
              file=sys.stderr)
    return len(found)


def run(args: argparse.Namespace) -> int:
    """Fine-tune, compare, adopt only a better model, log it in the model card."""
    import sys

    from scoring.errors import JingsuanError
    from vision.datasets.store import default_datasets_root
    from vision.reader.session import DETECTOR_FILE, models_dir
    from vision.training.finetune import FEW_HELDOUT_TILES, finetune

    model_dir = models_dir(args.model_dir)
    data = Path(args.dataset)
    if not data.is_dir() and len(data.parts) == 1 and (default_datasets_root() / data).is_dir():
        data = default_datasets_root() / data
    if not data.is_dir():
        print(f"没有这个数据集：{data} (no dataset folder {data})", file=sys.stderr)
        return 2
    warn_unboxed(data, model_dir / DETECTOR_FILE)
    try:
        r = finetune(
            data, model_dir, base_data=args.base_data, epochs=args.epochs, imgsz=args.imgsz,
            holdout=args.holdout, batch=args.batch, detector=not args.classifier_only,
        )  # fmt: skip
    except JingsuanError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    before = f"mAP50 {r.before.map50:.3f}, per-tile accuracy {r.before.tile_accuracy:.3f}" if r.before else "no current model"
    print(f"held-back photos: {r.n_heldout}  current: {before}")
    print(f"candidate: mAP50 {r.after.map50:.3f}, per-tile accuracy {r.after.tile_accuracy:.3f}  ({r.candidate_onnx})")
    print(f"decision: {r.decision}; logged in {model_dir / 'MODEL_CARD.md'}")
    if 0 < r.after.tiles < FEW_HELDOUT_TILES:
        print(f"注意：留出的照片只有 {r.after.tiles} 张牌，这个判断靠不住；多标些照片，或试过后用 "
              f"`jingsuan adopt {r.work_dir}` 换上候选模型。 (note: the held-back photos hold only "
              f"{r.after.tiles} tiles, too few to judge by; label more photos, or try the candidate and adopt it "
              f"with `jingsuan adopt {r.work_dir}`)")
    return 0
