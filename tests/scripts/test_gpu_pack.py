"""scripts/pack_gpu_data.py: a YOLO dataset packed small enough to travel to a lent GPU machine."""

from __future__ import annotations

import importlib.util
import io
import tarfile
from pathlib import Path

import cv2
import numpy as np
import yaml

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "pack_gpu_data.py"


def _load():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("pack_gpu_data", SCRIPT)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _photo(path: Path, h: int, w: int) -> None:
    rng = np.random.default_rng(len(path.name))
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), rng.integers(0, 255, (h, w, 3), dtype=np.uint8))


def _dataset(root: Path, outside: Path) -> None:
    root.mkdir(parents=True)
    (root / "data.yaml").write_text(yaml.safe_dump({"path": str(root), "train": "train/images",
                                                    "val": "valid/images", "names": {0: "1m", 1: "2m"}}))
    for split, stems in (("train", ["a", "camera_a", "unlabelled"]), ("valid", ["v1", "v2", "v3"])):
        for stem in stems:
            _photo(root / split / "images" / f"{stem}.jpg", 640, 480)
            if stem != "unlabelled":
                (root / split / "labels").mkdir(parents=True, exist_ok=True)
                (root / split / "labels" / f"{stem}.txt").write_text(f"1 0.5 0.5 0.2 0.{len(stem)}\n")
    _photo(outside / "linked.png", 300, 200)  # a photo imported in place: a link into ../shared
    (root / "train" / "images" / "linked.png").symlink_to(outside / "linked.png")
    (root / "train" / "labels" / "linked.txt").write_text("0 0.4 0.4 0.1 0.1\n")


def test_pack_shrinks_photos_keeps_labels_and_reads_through_links(tmp_path) -> None:
    pack = _load()
    _dataset(tmp_path / "d", tmp_path / "shared")
    out = tmp_path / "gpu" / "data.tar.gz"
    counts = pack.pack(tmp_path / "d", out, long_side=416, quality=70, valid_limit=2, skip_prefixes=("camera_",))
    assert counts == {"train": 2, "valid": 2}  # camera copy skipped, unlabelled photo left out, valid cut to 2
    with tarfile.open(out) as tar:
        names = sorted(m.name for m in tar.getmembers())
        files = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]
    assert names == ["data/data.yaml", "data/train/images/a.jpg", "data/train/images/linked.jpg",
                     "data/train/labels/a.txt", "data/train/labels/linked.txt",
                     "data/valid/images/v1.jpg", "data/valid/images/v2.jpg",
                     "data/valid/labels/v1.txt", "data/valid/labels/v2.txt"]  # fmt: skip
    big = cv2.imdecode(np.frombuffer(files["data/train/images/a.jpg"], np.uint8), cv2.IMREAD_COLOR)
    assert big.shape == (416, 312, 3)  # 640×480 shrunk to a long side of 416, aspect kept
    small = cv2.imdecode(np.frombuffer(files["data/train/images/linked.jpg"], np.uint8), cv2.IMREAD_COLOR)
    assert small.shape == (300, 200, 3)  # never enlarged; read through the link, not packed as a link
    assert files["data/train/labels/a.txt"] == b"1 0.5 0.5 0.2 0.1\n"
    spec = yaml.safe_load(io.BytesIO(files["data/data.yaml"]))
    assert spec == {"train": "train/images", "val": "valid/images", "names": {0: "1m", 1: "2m"}}  # no `path`


def test_pack_cli_reports_counts_and_size(tmp_path, capsys) -> None:
    pack = _load()
    _dataset(tmp_path / "d", tmp_path / "shared")
    assert pack.main([str(tmp_path / "d"), str(tmp_path / "p.tar.gz"), "--valid", "1"]) == 0
    assert "3 train, 1 valid" in capsys.readouterr().out
