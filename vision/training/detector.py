"""Offline YOLO training and ONNX export with ultralytics (the `train` extra).

Nothing here downloads anything: training starts from a model YAML or a local ``.pt`` checkpoint,
``YOLO_OFFLINE=1`` is set, a local font is copied to where ultralytics looks for ``Arial.ttf`` and
``Arial.Unicode.ttf``, and ultralytics' thread count is raised to the machine's core count (its
default leaves one core idle, which on 2 cores halves the speed).

Importing this module is cheap; torch/ultralytics are imported inside the functions.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from vision.training.config import DEFAULTS

#: Fonts tried, in order, as the stand-in for ultralytics' Arial.ttf (only used to draw plots).
FONT_CANDIDATES: tuple[str, ...] = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
)
ULTRALYTICS_FONTS: tuple[str, ...] = ("Arial.ttf", "Arial.Unicode.ttf")


class TrainingSetupError(RuntimeError):
    """Training cannot run offline (no font, no ultralytics)."""


def find_local_font(candidates: tuple[str, ...] = FONT_CANDIDATES) -> Path | None:
    """First existing font file among `candidates`, else the DejaVu Sans that matplotlib ships."""
    for c in candidates:
        if Path(c).is_file():
            return Path(c)
    return matplotlib_font()


def matplotlib_font() -> Path | None:
    """matplotlib's bundled DejaVuSans.ttf (ultralytics needs matplotlib anyway): a font on machines with none."""
    try:
        import matplotlib
    except ImportError:
        return None
    font = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    return font if font.is_file() else None


def place_fonts(config_dir: Path, font: Path | None = None) -> list[Path]:
    """Copy a local font to `config_dir` under the names ultralytics looks for; return the paths."""
    font = font or find_local_font()
    if font is None:
        raise TrainingSetupError(
            "No local font for ultralytics' plots; install fonts-dejavu-core or fonts-noto-cjk"
        )
    config_dir.mkdir(parents=True, exist_ok=True)
    placed = []
    for name in ULTRALYTICS_FONTS:
        target = config_dir / name
        if not target.exists():
            shutil.copyfile(font, target)
        placed.append(target)
    return placed


def prepare_offline(threads: int | None = None) -> int:
    """Make ultralytics run offline and use every core; returns the thread count used."""
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ.setdefault("WANDB_MODE", "disabled")
    threads = threads or os.cpu_count() or 1
    import torch
    import ultralytics.utils as uu
    import ultralytics.utils.torch_utils as tu

    place_fonts(Path(uu.USER_CONFIG_DIR))
    uu.NUM_THREADS = threads
    tu.NUM_THREADS = threads
    torch.set_num_threads(threads)
    return threads


@dataclass
class TrainConfig:
    """One training run (ultralytics arguments that matter here); defaults from `config.DEFAULTS`."""

    data: str
    model: str = DEFAULTS.model
    imgsz: int = DEFAULTS.imgsz
    epochs: int = DEFAULTS.epochs
    batch: int = DEFAULTS.batch
    project: str = DEFAULTS.project
    name: str = DEFAULTS.name
    workers: int = DEFAULTS.workers
    close_mosaic: int = DEFAULTS.close_mosaic
    patience: int = DEFAULTS.patience
    cache: bool | str = False
    plots: bool = False
    seed: int = DEFAULTS.seed
    fliplr: float = 0.0  # a mirrored tile is not a tile (7s/9s, characters)
    degrees: float = 5.0
    exist_ok: bool = True
    time: float | None = None  # hours; when set, ultralytics fits the epochs (and LR schedule) into it
    single_cls: bool = False  # find tiles only (class `item`); the crop classifier names them
    device: str = DEFAULTS.device  # "cpu", or a CUDA device index such as "0" for a run on a lent GPU machine


def train(cfg: TrainConfig) -> Path:
    """Train from a model YAML, or fine-tune a local ``.pt`` checkpoint (never downloads); returns the run directory."""
    threads = prepare_offline()
    from ultralytics import YOLO

    model = YOLO(cfg.model)
    args = asdict(cfg)
    args.pop("model")
    if args["time"] is None:
        args.pop("time")
    # ultralytics only seeds the trainer with a loaded checkpoint's weights when `pretrained` is not False
    from_checkpoint = str(cfg.model).endswith(".pt")
    # fp32 also on a GPU: mixed precision would make ultralytics download yolo26n.pt to check it
    model.train(pretrained=from_checkpoint, amp=False, val=True, verbose=True, **args)
    del threads
    return Path(model.trainer.save_dir)


def resume(last_pt: str | Path) -> Path:
    """Continue an interrupted run from its ``weights/last.pt`` (same data and settings)."""
    prepare_offline()
    from ultralytics import YOLO

    model = YOLO(str(last_pt))
    model.train(resume=True)
    return Path(model.trainer.save_dir)


def export_onnx(weights: str | Path, out: str | Path, imgsz: int = 416) -> Path:
    """Export a checkpoint to a static-shape ONNX file (1×3×imgsz×imgsz, raw YOLO head output).

    ultralytics writes ``<weights>.onnx`` beside the checkpoint, so exporting ``models/tiles.pt`` would
    silently replace the shipped ``models/tiles.onnx``; the export runs on a temporary copy instead and
    only `out` is written.
    """
    import tempfile

    prepare_offline()
    from ultralytics import YOLO

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="jingsuan-export-") as tmp:
        copy = Path(tmp) / Path(weights).name
        shutil.copyfile(weights, copy)
        model = YOLO(str(copy))
        produced = Path(model.export(format="onnx", imgsz=imgsz, opset=17, simplify=False, dynamic=False, nms=False))
        shutil.copyfile(produced, out)
    return out
