"""`jingsuan train`: import the data, optionally add synthetic scenes, train YOLO offline, export ONNX."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "训练识别模型（离线，ultralytics）(train the tile detector offline)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", default="../shared/data/chinese-mahjong-detection-v4", help="YOLO dataset to import")
    parser.add_argument("--data-dir", default="runs/data/cmd-v4", help="where the cleaned dataset is written")
    parser.add_argument("--synthetic", type=int, default=0, help="add this many synthetic scenes to train")
    parser.add_argument("--model", default="yolov8n.yaml", help="model YAML (trained from scratch)")
    parser.add_argument("--imgsz", type=int, default=416)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--hours", type=float, help="time budget; ultralytics fits the epochs into it")
    parser.add_argument("--name", default="tiles")
    parser.add_argument("--project", default="runs/detect")
    parser.add_argument("--resume", help="continue from this last.pt")
    parser.add_argument("--classifier", help="also train the crop classifier (stage 2) and write it to this ONNX file")
    parser.add_argument("--classifier-epochs", type=int, default=6)
    parser.add_argument("--classifier-minutes", type=float, help="time budget of the classifier training")
    parser.add_argument("--export", help="after training, export best.pt to this ONNX file")


def run(args: argparse.Namespace) -> int:
    from vision import train as T
    from vision.data import import_yolo_dataset

    if args.resume:
        save_dir = T.resume(args.resume)
    else:
        if args.source and Path(args.source).exists():
            report = import_yolo_dataset(args.source, args.data_dir)
            print(report.summary())
        data_yaml = Path(args.data_dir) / "data.yaml"
        if args.synthetic:
            import numpy as np

            from vision.synth import random_scene, write_yolo_sample

            rng = np.random.default_rng(0)
            for i in range(args.synthetic):
                write_yolo_sample(random_scene(rng), Path(args.data_dir) / "train", f"synth_{i:05d}")
        cfg = T.TrainConfig(
            data=str(data_yaml), model=args.model, imgsz=args.imgsz, epochs=args.epochs, batch=args.batch, time=args.hours,
            project=str(Path(args.project).resolve()), name=args.name,
        )
        save_dir = T.train(cfg)
    print(f"run: {save_dir}")
    if args.classifier:
        from vision.train_classifier import collect_crops, train_classifier

        data = Path(args.data_dir)
        train_set = collect_crops(data / "train", copies=1, jitter=0.06)
        valid_set = collect_crops(data / "valid") if (data / "valid").is_dir() else None
        figures = train_classifier(train_set, valid_set, args.classifier, epochs=args.classifier_epochs,
                                   minutes=args.classifier_minutes)
        print(f"classifier {args.classifier}: {figures}")
    if args.export:
        out = T.export_onnx(save_dir / "weights" / "best.pt", args.export, imgsz=args.imgsz)
        print(f"exported {out}")
    return 0
