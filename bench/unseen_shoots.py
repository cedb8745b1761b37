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
