"""One module per `jingsuan` subcommand; each has `add_arguments(parser)` and `run(args) -> int`."""

from __future__ import annotations

import argparse


def add_photo_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments every photo-reading command shares: the photo, the model, the threshold, the language."""
    parser.add_argument("photo", help="photo file (JPEG/PNG/...)")
    parser.add_argument("--model", help="detector ONNX or model folder (default: $JINGSUAN_MODEL_DIR, else the shipped models)")
    parser.add_argument("--conf", type=float, default=0.25, help="confidence threshold (default 0.25)")
    parser.add_argument("--lang", choices=["zh", "en"], default="zh")
