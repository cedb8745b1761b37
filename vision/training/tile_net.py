"""Fine-tune the ImageNet-pretrained crop classifier (`vision.training.backbone.TileNet`) on tile crops.

The crop sets, augmentation and int8 quantisation are those of `vision.training.classifier`; what
differs is the network (EfficientNet-Lite0, its first blocks kept at their ImageNet weights) and the
exported graph: two outputs, ``logits`` (what `vision.reader.classifier.TileClassifier` reads, so the
file drops in for the shipped one) and ``embedding`` (the pooled penultimate feature that the
per-table correction memory keeps).  The last epoch is kept, not the best on `valid`: `valid` holds
the unseen shoots the candidate is judged on (`bench/unseen_sources.py`).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from vision.reader.classifier import CLASSIFIER_NAMES, STD
from vision.training.classifier import (  # noqa: F401 - add_embedding_output: its old home
    CropSet,
    accuracy,
    add_embedding_output,
    export_crop_graph,
    export_crop_model,
    train_epoch,
)

#: Stem and MBConv blocks kept at their ImageNet weights: the high-resolution blocks cost most of
#: the backward pass on a CPU and learn generic edges that need no tile-specific tuning.
FROZEN_BLOCKS = 3
#: The reader's blob is (x − 0.5) / 0.25; the TensorFlow Lite0 weights expect (x − 0.5) / 0.5.
INPUT_SCALE = float(STD[0] / 0.5)


def build_tile_net(pretrained: bool = True, frozen_blocks: int = FROZEN_BLOCKS, upsample: float = 1.0):  # -> TileNet
    """A 36-way TileNet on the packaged ImageNet weights, with its first `frozen_blocks` blocks frozen; `upsample`:
    the crop is enlarged inside the network (and its exported graph, which still reads the reader's crops)."""
    from vision.training.backbone import tile_net

    model = tile_net(len(CLASSIFIER_NAMES), pretrained=pretrained, input_scale=INPUT_SCALE, upsample=upsample)
    if frozen_blocks:
        model.freeze_early(frozen_blocks)
    return model


def train_tile_net(train: CropSet, valid: CropSet | None, out_onnx: str | Path, epochs: int = 5,
                   batch: int = 128, lr: float = 1e-3, minutes: float | None = None, seed: int = 0,
                   frozen_blocks: int = FROZEN_BLOCKS, log=print,  # noqa: ANN001 - print-like
                   quantize: bool = True, upsample: float = 1.0, start: str | Path | None = None) -> dict[str, float]:
    """AdamW + one-cycle LR from the ImageNet weights (or from an earlier run's ``.pt``, `start`); the last epoch
    exported as int8 ONNX (the float graph beside it as ``.fp32.onnx``) and its weights as ``.pt``; returns
    figures.  `minutes` stops early (the LR schedule is sized for `epochs`, so a stopped run ends at a higher LR);
    `upsample`: see `build_tile_net`."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = build_tile_net(pretrained=start is None, frozen_blocks=frozen_blocks, upsample=upsample)
    if start is not None:  # every weight comes from the earlier run: the ImageNet ones are not read first
        model.load_state_dict(torch.load(str(start), map_location="cpu"))
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=1e-4)
    steps = epochs * int(np.ceil(len(train.y) / batch))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1), pct_start=0.15)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    began = time.time()
    figures: dict[str, float] = {}
    for epoch in range(epochs):
        loss = train_epoch(model, train, rng, batch, opt, sched, loss_fn)
        acc = accuracy(model, valid, batch=256) if valid is not None else 0.0
        figures[f"valid_acc_epoch{epoch + 1}"] = acc
        log(f"epoch {epoch + 1}/{epochs} loss {loss:.3f} valid acc {acc:.4f} ({time.time() - began:.0f} s)")
        out = Path(out_onnx)
        out.parent.mkdir(parents=True, exist_ok=True)
        torch.save(model.state_dict(), str(out.with_suffix(".pt")))  # each epoch: a stopped run keeps its weights
        if minutes and time.time() - began > minutes * 60:
            log("time budget reached")
            break
    export_crop_model(model, Path(out_onnx), export_tile_net, train, seed, quantize)
    figures.update(train_crops=float(len(train.y)), seconds=time.time() - began)
    return figures


def export_tile_net(model, out_onnx: str | Path) -> Path:  # noqa: ANN001 - torch module
    """ONNX graph (N × 3 × CROP_H × CROP_W → ``logits``, ``embedding``), class names in the metadata."""
    metadata = {"names": ",".join(CLASSIFIER_NAMES), "backbone": "efficientnet-lite0 (ImageNet)"}
    return export_crop_graph(model, out_onnx, ["logits", "embedding"], metadata)
