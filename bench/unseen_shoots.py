"""What the benches on CMD v4's unseen shoots share: where the dataset is, the reader's options, its check."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DEFAULT_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "data" / "chinese-mahjong-detection-v4"


def reader_arguments(description: str, classifier_help: str) -> argparse.ArgumentParser:
    """A parser with --source (the YOLO dataset), --model (the detector) and --classifier."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--source", default=str(DEFAULT_SOURCE), help="the YOLO dataset (train/ and valid/)")
    ap.add_argument("--model", help="detector ONNX (default models/tiles.onnx)")
    ap.add_argument("--classifier", help=classifier_help)
    return ap


def source_with_splits(source: str | Path) -> Path | None:
    """`source` when it holds train/ and valid/; otherwise None, with one line on stderr."""
    path = Path(source)
    if not (path / "train").is_dir() or not (path / "valid").is_dir():
        print(f"no train/ and valid/ under {path}", file=sys.stderr)
        return None
    return path


def named_detector(args: argparse.Namespace):  # noqa: ANN201 - vision.reader.detector.TileDetector
    """The detector and classifier `--model` and `--classifier` name (the shipped ones by default)."""
    from vision.reader.detector import DEFAULT_MODEL, TileDetector

    return TileDetector(args.model or DEFAULT_MODEL, classifier=args.classifier)


def unseen_shoots(source: Path, cleaned: Path) -> dict[str, list[Path]]:
    """`source`'s valid split cleaned into `cleaned`/valid as `jingsuan eval` sees it, and its photos of
    shoots `train` has none of, by shoot (`vision.datasets.yolo.unseen_families`)."""
    from vision.datasets.convert import import_yolo_dataset
    from vision.datasets.yolo import unseen_families

    import_yolo_dataset(source, cleaned, splits=("valid",))
    return unseen_families(source / "train", cleaned / "valid")
