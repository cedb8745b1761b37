"""`jingsuan train`: import the data, optionally add synthetic scenes, train YOLO offline, export ONNX.

With ``--data datasets/<name>`` it fine-tunes the current model on a team dataset instead
(`vision.training.finetune`): the candidate replaces models/tiles.onnx only if it scores better on the
team's held-back photos, and the model card's fine-tuning log gets a row either way.
"""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "训练识别模型（离线，ultralytics）(train the tile detector offline)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", default="../shared/data/chinese-mahjong-detection-v4", help="YOLO dataset to import")
    parser.add_argument("--data-dir", default="runs/data/cmd-v4", help="where the cleaned dataset is written")
    parser.add_argument("--synthetic", type=int, default=0, help="add this many synthetic scenes to train")
    parser.add_argument("--camera-copies", type=int, default=0,
                        help="add this many copies of train photos as a shakier or farther camera would take them "
                             "(motion blur, lost resolution; vision/training/synth/camera.py)")
    parser.add_argument("--paint-unlabelled", action=argparse.BooleanOptionalAction, default=False,
                        help="paint over the tiles train photos show but their labels leave out: dropped flowers "
                             "and seasons, and, away from their labels, photos in which the shipped models see "
                             "unlabelled tiles (vision/datasets/unlabelled.py)")
    parser.add_argument("--model", default="yolov8n.yaml", help="model YAML (trained from scratch)")
    parser.add_argument("--imgsz", type=int, default=416)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--close-mosaic", type=int, default=3, help="last epochs trained without mosaic")
    parser.add_argument("--device", default="cpu", help='"cpu", or a CUDA device such as "0" on a GPU machine')
    parser.add_argument("--workers", type=int, default=2, help="data-loading processes (the core count, less one or two)")
    parser.add_argument("--hours", type=float, help="time budget; ultralytics fits the epochs into it")
    parser.add_argument("--patience", type=int, default=50,
                        help="stop after this many epochs without a better validation score (0: never)")
    parser.add_argument("--seed", type=int, default=0, help="ultralytics' random seed (a rerun with another seed shows the noise)")
    parser.add_argument("--name", default="tiles")
    parser.add_argument("--project", default="runs/detect")
    parser.add_argument("--resume", help="continue from this last.pt")
    parser.add_argument("--single-class", action="store_true",
                        help="train the detector to find tiles only (one class); the crop classifier names them")
    parser.add_argument("--classifier", help="also train the crop classifier (stage 2) and write it to this ONNX file")
    parser.add_argument("--classifier-only", action="store_true",
                        help="train only the crop classifier (no YOLO run): `none` boxes are mined with --model's ONNX or the "
                             "shipped detector; with --data, fine-tune only the classifier on the team's photos (minutes)")
    parser.add_argument("--classifier-epochs", type=int, default=10)
    parser.add_argument("--classifier-lr", type=float, default=3e-3, help="peak learning rate of the classifier's one-cycle schedule")
    parser.add_argument("--classifier-synthetic", type=int, default=0,
                        help="add the tiles of this many synthetic scenes in the fixed tilesets to the classifier's training crops")
    parser.add_argument("--classifier-varied", type=int, default=0,
                        help="add the tiles of this many scenes, each in its own randomly styled drawn tileset")
    parser.add_argument("--classifier-minutes", type=float, help="time budget of the classifier training")
    parser.add_argument("--classifier-from", help="go on from these classifier weights (the .pt written beside its ONNX)")
    parser.add_argument("--classifier-judge", default="models/tile_classifier.onnx",
                        help="classifier that tells unlabelled tiles among the mined `none` boxes ('' = keep them all)")
    parser.add_argument("--export", help="after training, export best.pt to this ONNX file")
    ft = parser.add_argument_group("fine-tuning on a team dataset (--data)")
    ft.add_argument("--data", help="team dataset folder (datasets/<name>, or just <name>): fine-tune the current detector "
                                   "and crop classifier on it (the classifier is what learns a new tile set)")
    ft.add_argument("--base-data", default="runs/data/cmd-v4", help="YOLO data whose train images are mixed in (skipped if missing)")
    ft.add_argument("--model-dir", default="models", help="where tiles.onnx / tiles.pt / MODEL_CARD.md live")
    ft.add_argument("--adopt", metavar="RUN_DIR",
                    help="install the candidate a fine-tuning run left in RUN_DIR (runs/finetune/<run>) even though "
                         "its judge kept the current reader; the current files stay as *.prev.*")
    ft.add_argument("--holdout", type=float, default=0.2, help="fraction of the team's photos held back to judge the candidate")


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


def run_finetune(args: argparse.Namespace) -> int:
    """`jingsuan train --data ...`: fine-tune, compare, adopt only a better model, log it in the model card."""
    import sys

    from scoring.errors import JingsuanError
    from vision.datasets.store import default_datasets_root
    from vision.training.finetune import FEW_HELDOUT_TILES, finetune

    data = Path(args.data)
    if not data.is_dir() and len(data.parts) == 1 and (default_datasets_root() / data).is_dir():
        data = default_datasets_root() / data
    if not data.is_dir():
        print(f"没有这个数据集：{data} (no dataset folder {data})", file=sys.stderr)
        return 2
    warn_unboxed(data, Path(args.model_dir) / "tiles.onnx")
    try:
        r = finetune(
            data, args.model_dir, base_data=args.base_data, epochs=args.epochs, imgsz=args.imgsz,
            holdout=args.holdout, batch=args.batch, detector=not args.classifier_only,
        )  # fmt: skip
    except JingsuanError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    before = f"mAP50 {r.before.map50:.3f}, per-tile accuracy {r.before.tile_accuracy:.3f}" if r.before else "no current model"
    print(f"held-back photos: {r.n_heldout}  current: {before}")
    print(f"candidate: mAP50 {r.after.map50:.3f}, per-tile accuracy {r.after.tile_accuracy:.3f}  ({r.candidate_onnx})")
    print(f"decision: {r.decision}; logged in {Path(args.model_dir) / 'MODEL_CARD.md'}")
    if 0 < r.after.tiles < FEW_HELDOUT_TILES:
        print(f"注意：留出的照片只有 {r.after.tiles} 张牌，这个判断靠不住；多标些照片，或试过后用 "
              f"`jingsuan train --adopt {r.work_dir}` 换上候选模型。 (note: the held-back photos hold only "
              f"{r.after.tiles} tiles, too few to judge by; label more photos, or try the candidate and adopt it "
              f"with `jingsuan train --adopt {r.work_dir}`)")
    return 0


def run_adopt(args: argparse.Namespace) -> int:
    """`jingsuan train --adopt RUN_DIR`: install a fine-tuning candidate by hand."""
    import sys

    from scoring.errors import JingsuanError
    from vision.training.registry import adopt_candidate

    try:
        replaced = adopt_candidate(args.adopt, args.model_dir)
    except JingsuanError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if replaced:
        print(f"已换上：{', '.join(replaced)}（旧文件存为 *.prev.*；重启应用生效） "
              f"(installed {', '.join(replaced)}; the old files are kept as *.prev.*; restart the app)")
    else:
        print("候选模型与现用的相同，没有更换 (the candidate is the current reader already: nothing changed)")
    return 0


def run(args: argparse.Namespace) -> int:
    import sys

    if getattr(args, "adopt", None):
        return run_adopt(args)
    if getattr(args, "data", None):
        return run_finetune(args)
    from vision.datasets.convert import import_yolo_dataset
    from vision.training import detector as T

    if args.classifier_only:
        if not args.classifier:
            print("--classifier-only needs --classifier OUT.onnx", file=sys.stderr)
            return 2
        if args.source and Path(args.source).exists():
            print(import_yolo_dataset(args.source, args.data_dir).summary())
        model = Path(args.model)
        return _train_classifier(args, model if model.suffix == ".onnx" else None)
    if args.resume:
        save_dir = T.resume(args.resume)
    else:
        if args.source and Path(args.source).exists():
            report = import_yolo_dataset(args.source, args.data_dir,
                                         paint_dropped=("train",) if args.paint_unlabelled else ())
            print(report.summary())
        data_yaml = Path(args.data_dir) / "data.yaml"
        if args.paint_unlabelled:
            from vision.datasets.unlabelled import detector_finder, paint_unlabelled_split

            print(paint_unlabelled_split(Path(args.data_dir) / "train", detector_finder()).summary(), flush=True)
        if args.synthetic:
            import numpy as np

            from vision.training.synth import random_scene, write_yolo_sample

            rng = np.random.default_rng(0)
            for i in range(args.synthetic):
                write_yolo_sample(random_scene(rng), Path(args.data_dir) / "train", f"synth_{i:05d}")
        if args.camera_copies:
            from vision.training.synth.camera import write_camera_copies

            print(f"camera copies: {write_camera_copies(Path(args.data_dir) / 'train', args.camera_copies)}")
        cfg = T.TrainConfig(
            data=str(data_yaml), model=args.model, imgsz=args.imgsz, epochs=args.epochs, batch=args.batch, time=args.hours,
            project=str(Path(args.project).resolve()), name=args.name, single_cls=args.single_class,
            close_mosaic=args.close_mosaic, device=args.device, workers=args.workers,
            patience=args.patience, seed=args.seed,
        )
        save_dir = T.train(cfg)
    print(f"run: {save_dir}")
    from vision.reader.detector import DEFAULT_MODEL

    detector_onnx = DEFAULT_MODEL
    if args.export:
        detector_onnx = T.export_onnx(save_dir / "weights" / "best.pt", args.export, imgsz=args.imgsz)
        print(f"exported {detector_onnx}")
    if args.classifier:
        return _train_classifier(args, detector_onnx)
    return 0


def _train_classifier(args: argparse.Namespace, detector_onnx: Path | None) -> int:
    """Stage 2: the crop classifier, its `none` crops mined with `detector_onnx` (else the shipped
    detector), without the boxes the judge takes for tiles the photo's labels left out."""
    from vision.reader.detector import DEFAULT_MODEL
    from vision.training.classifier import crop_sets, train_classifier

    detector = detector_onnx if detector_onnx is not None and detector_onnx.is_file() else DEFAULT_MODEL
    judge = Path(args.classifier_judge) if args.classifier_judge else None
    train_set, valid_set = crop_sets(args.data_dir, detector if detector.is_file() else None,
                                     judge_onnx=judge if judge and judge.is_file() else None,
                                     synthetic=args.classifier_synthetic, varied=args.classifier_varied)
    print(f"classifier crops: train {len(train_set.y)}, valid {len(valid_set.y) if valid_set else 0}", flush=True)
    figures = train_classifier(train_set, valid_set, args.classifier, epochs=args.classifier_epochs,
                               lr=args.classifier_lr, minutes=args.classifier_minutes, start_from=args.classifier_from)
    print(f"classifier {args.classifier}: {figures}")
    return 0
