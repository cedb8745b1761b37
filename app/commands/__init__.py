"""One module per `jingsuan` subcommand; each has `add_arguments(parser)` and `run(args) -> int`."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def threshold(text: str) -> float:
    """A `--conf` value: a number above 0 and at most 1 (a box's confidence is one; -1 or 2 would read every box, or
    none, as sure)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0.0 < value <= 1.0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"置信度阈值应大于 0、不超过 1：{text} (a confidence threshold above 0, at most 1)")
    return value


def whole_number(least: int, most: int | None = None, what: tuple[str, str] = ("", "")) -> Callable[[str], int]:
    """An argparse type: a whole number from `least` (to `most`, when given); `what` names it in the message, in Chinese
    and English. A training command told 0 epochs or a batch of -1 is refused before it loads a photo, not left to
    ultralytics or PyTorch to judge; a port outside 1–65535, not left to Streamlit's traceback."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least or (most is not None and value > most):
            zh = f"不小于 {least} 的整数" if most is None else f" {least} 到 {most} 之间的整数"
            en = f"a whole number, at least {least}" if most is None else f"a whole number {least}–{most}"
            raise argparse.ArgumentTypeError(f"{what[0]}应是{zh}：{text} ({what[1]}{en})")
        return value

    return parse


def add_photo_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments every photo-reading command shares: the photo, the model, the threshold, the language."""
    parser.add_argument("photo", help="photo file (JPEG/PNG/...)")
    parser.add_argument("--model", help="detector ONNX or model folder (default: $JINGSUAN_MODEL_DIR, else the shipped models)")
    parser.add_argument("--conf", type=threshold, default=0.25, help="confidence threshold (default 0.25)")
    parser.add_argument("--lang", choices=["zh", "en"], default="zh")
