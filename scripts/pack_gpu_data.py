"""Pack a YOLO dataset into one small .tar.gz for a training run on a lent GPU machine.

The device tool sends the working tree (64 MiB at most) and symbolic links travel only as links, while
`runs/data/cmd-v4` holds links into ../shared. So every image is read through its link, shrunk so that its
long side is the training size (ultralytics would shrink it to that anyway; labels are normalised, so
they stay right), saved as JPEG, and the split is written with its labels into one gzipped tar (one file
instead of thousands keeps the transfer small). `data.yaml` gets no `path`: ultralytics then takes the
folder of the yaml, so the run passes an absolute `--data-dir` after unpacking. See docs/detector.md,
"A run on a GPU machine".

    python scripts/pack_gpu_data.py runs/data/cmd-v4 gpu/data.tar.gz --quality 68 --valid 60
"""

from __future__ import annotations

import argparse
import io
import tarfile
from pathlib import Path

import cv2
import yaml

from vision.datasets.yolo import image_files, label_file
from vision.reader.image import letterbox_geometry


def shrink(image, long_side: int):  # type: ignore[no-untyped-def]
    """`image` with its long side at most `long_side`, shrunk as inference shrinks it (INTER_AREA)."""
    h, w = image.shape[:2]
    scale = letterbox_geometry(w, h, long_side).scale
    if scale >= 1:
        return image
    return cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)


def pack(src: Path, out: Path, long_side: int = 416, quality: int = 68, valid_limit: int | None = 60,
         skip_prefixes: tuple[str, ...] = ()) -> dict[str, int]:
    """Write `src`'s train and valid splits to the tar.gz `out` under `data/`; returns images per split."""
    names = yaml.safe_load((src / "data.yaml").read_text(encoding="utf-8"))["names"]
    counts = {"train": 0, "valid": 0}
    out.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(out, "w:gz") as tar:

        def add(name: str, data: bytes) -> None:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))

        for split in counts:
            images = [p for p in image_files(src / split) if not p.name.startswith(skip_prefixes)]
            limit = None if split == "train" else valid_limit
            for img in images[:limit]:
                label = label_file(img)
                picture = cv2.imread(str(img))
                if picture is None or not label.is_file():
                    continue
                ok, jpeg = cv2.imencode(".jpg", shrink(picture, long_side), [cv2.IMWRITE_JPEG_QUALITY, quality])
                if not ok:
                    continue
                add(f"data/{split}/images/{img.stem}.jpg", jpeg.tobytes())
                add(f"data/{split}/labels/{img.stem}.txt", label.read_bytes())
                counts[split] += 1
        spec = {"train": "train/images", "val": "valid/images", "names": names}
        add("data/data.yaml", yaml.safe_dump(spec, allow_unicode=True, sort_keys=False).encode("utf-8"))
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src", type=Path, help="YOLO dataset folder with data.yaml, train/ and valid/")
    parser.add_argument("out", type=Path, help="the .tar.gz to write")
    parser.add_argument("--long-side", type=int, default=416, help="the training image size")
    parser.add_argument("--quality", type=int, default=68, help="JPEG quality (lower it to fit 64 MiB)")
    parser.add_argument("--valid", type=int, default=60, help="valid photos packed, for ultralytics' per-epoch check")
    parser.add_argument("--skip", nargs="*", default=[], help="leave out files whose names start so (e.g. camera_)")
    args = parser.parse_args(argv)
    counts = pack(args.src, args.out, args.long_side, args.quality, args.valid, tuple(args.skip))
    print(f"{args.out}: {counts['train']} train, {counts['valid']} valid, {args.out.stat().st_size / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
