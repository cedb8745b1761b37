"""Every default of the training commands in one place: `jingsuan train detector|classifier`,
`jingsuan finetune DATASET` and `jingsuan adopt RUN` read their defaults from `DEFAULTS`.

Plain data, no torch: the command line is built from it before anything heavy is imported.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TrainingDefaults:
    """What a training command does when it is not told otherwise (a laptop without a GPU)."""

    # the public YOLO dataset a from-scratch run imports and cleans, and where the cleaned copy goes
    source: str = "../shared/data/chinese-mahjong-detection-v4"
    data_dir: str = "runs/data/cmd-v4"
    # the detector (ultralytics)
    model: str = "yolov8n.yaml"
    imgsz: int = 416
    epochs: int = 8
    batch: int = 16
    close_mosaic: int = 3
    device: str = "cpu"
    workers: int = 2
    patience: int = 50
    seed: int = 0
    name: str = "tiles"
    project: str = "runs/detect"
    # the crop classifier
    classifier_epochs: int = 10
    classifier_lr: float = 3e-3
    # fine-tuning on a team dataset
    base_data: str = "runs/data/cmd-v4"
    holdout: float = 0.2


DEFAULTS = TrainingDefaults()
