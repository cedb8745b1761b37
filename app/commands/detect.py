"""`jingsuan detect PHOTO [--out FILE]`: print the tiles left to right with confidences."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.commands import add_photo_arguments

HELP = "识别照片里的牌 (detect tiles in a photo)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_photo_arguments(parser)
    parser.add_argument("--out", help="write the photo with labelled boxes to this file")


def draw_detections(image, detections):  # type: ignore[no-untyped-def]
    """RGB image with a box and 'tile conf' label per detection (OpenCV drawing)."""
    import cv2

    out = image.copy()
    thick = max(1, round(max(out.shape[:2]) / 600))
    for d in detections:
        x1, y1, x2, y2 = (round(v) for v in d.box)
        color = (0, 200, 0) if d.conf >= 0.5 else (230, 160, 0)
        cv2.rectangle(out, (x1, y1), (x2, y2), color, thick)
        cv2.putText(out, f"{d.tile} {d.conf:.2f}", (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thick, color, thick)
    return out


def run(args: argparse.Namespace) -> int:
    import cv2

    from scoring.errors import JingsuanError
    from vision.reader.detector import detect
    from vision.reader.image import load_image

    if args.out and not cv2.haveImageWriter(args.out):  # refused before the photo is read, not after its tiles print
        suffix = Path(args.out).suffix or args.out
        print(f"不能把照片存成 {suffix}：请用 .jpg 或 .png" if args.lang == "zh"
              else f"cannot write a photo as {suffix}: use .jpg or .png", file=sys.stderr)
        return 2
    try:
        image = load_image(args.photo)
        dets = detect(image, model=args.model, conf=args.conf)
    except JingsuanError as exc:
        print(exc.zh if args.lang == "zh" else exc.en, file=sys.stderr)
        return 2
    for d in dets:
        print(f"{d.tile}\t{d.conf:.2f}\t{d.box[0]:.0f},{d.box[1]:.0f},{d.box[2]:.0f},{d.box[3]:.0f}")
    print(f"# {len(dets)} tiles" if args.lang == "en" else f"# 共 {len(dets)} 张牌")
    if args.out:
        ok = cv2.imwrite(args.out, cv2.cvtColor(draw_detections(image, dets), cv2.COLOR_RGB2BGR))
        if not ok:
            print(f"无法写入 {args.out}" if args.lang == "zh" else f"cannot write {args.out}", file=sys.stderr)
            return 2
    return 0
