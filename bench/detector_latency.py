"""Latency, photo file → tile list, of our detector vs the PyPI `mahjong-detector` package.

Both run on the same photos in the same process, one after the other per photo (so load and
thermal state affect both alike); prints each median and the ratio ours / theirs.  Bench-only:
`mahjong-detector` (MIT, ships its own ONNX model, so it runs offline) is in the `bench` extra.

    python bench/detector_latency.py runs/data/cmd-v4/valid/images --limit 50
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photos", help="folder of photos")
    ap.add_argument("--limit", type=int, default=50)
    ap.add_argument("--model", help="our ONNX model (default models/tiles.onnx)")
    args = ap.parse_args()

    from vision.datasets.yolo import IMAGE_SUFFIXES
    from vision.reader.detector import get_detector

    files = sorted(p for p in Path(args.photos).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)[: args.limit]
    if not files:
        print("no photos found", file=sys.stderr)
        return 2
    ours = get_detector(args.model)
    try:
        from mahjong_detector import detect_tiles
    except ImportError:
        detect_tiles = None
        print("mahjong-detector is not installed (pip install mahjong-detector); timing ours only")
    ours(files[0])  # warm-up both (session creation is not part of per-photo latency)
    if detect_tiles:
        detect_tiles(str(files[0]))
    t_ours, t_theirs = [], []
    for f in files:
        t0 = time.perf_counter()
        [d.tile for d in ours(f)]
        t_ours.append(time.perf_counter() - t0)
        if detect_tiles:
            t0 = time.perf_counter()
            detect_tiles(str(f))
            t_theirs.append(time.perf_counter() - t0)
    m_ours = statistics.median(t_ours)
    print(f"photos: {len(files)}")
    print(f"jingsuan (models/{Path(ours.path).name}, {ours.imgsz}px): median {m_ours * 1000:.1f} ms")
    if t_theirs:
        m_theirs = statistics.median(t_theirs)
        print(f"mahjong-detector detect_tiles: median {m_theirs * 1000:.1f} ms")
        print(f"ratio ours/theirs: {m_ours / m_theirs:.2f} (≤ 1 meets the target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
