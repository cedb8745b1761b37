"""The one photo pipeline: image → detections → layout (hand, melds, win, 精) + questions.

`jingsuan read`, the 算分 page and the 标注 page all read a photo through `read_photo`, so a photo
reads the same everywhere and the model folder is looked up in one place (`session.models_dir`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.tiles import tile
from vision.reader.detection import Detection
from vision.reader.detector import CONF_THRESHOLD, get_detector
from vision.reader.image import load_image
from vision.reader.layout import WEAK_FLOOR, Assignment, read_layout
from vision.reader.levels import DetectionLevels
from vision.reader.session import DETECTOR_FILE, models_dir


@dataclass(frozen=True)
class PhotoReading:
    """What one photo says: the tiles found, their layout (the winner's part of a round) and the questions."""

    detections: list[Detection]
    assignment: Assignment
    image_size: tuple[int, int]  # (width, height) in pixels, EXIF rotation applied

    @property
    def questions(self) -> list[dict[str, str]]:
        """What the photo could not decide, each `{code, zh, en}`."""
        return self.assignment.questions

    def round_part(self) -> dict[str, Any]:
        """The winner's part of a round document (round-format.md) with 精 marks and questions."""
        return self.assignment.to_round_part()


def detector_path(models: str | Path | None = None) -> Path:
    """The detector a reading uses: `models` may name an ONNX file or a model folder (`models_dir`)."""
    if models is not None and Path(models).suffix == ".onnx":
        return Path(models)
    return models_dir(models) / DETECTOR_FILE


def read_photo(image: Any, models: str | Path | None = None, indicator: str | None = None,
               conf: float = CONF_THRESHOLD, options: Any = None, memory: Any = None, table: str = "") -> PhotoReading:
    """Read a photo (path, bytes, PIL image or RGB array); `indicator` (a tile code or name, e.g. 5p or
    五筒) overrides the photo's; `options` (the table's 冲关 rule options, default 兴国) decide which hands
    are wins when the most probable legal round is chosen; `memory` (a `memory.TileMemory`) reads the tiles
    as `table` taught them. Bad input raises a JingsuanError (DetectorError, TileError)."""
    code = tile(str(indicator).strip()).code if indicator else None  # a bad name fails before any reading
    rgb = load_image(image)
    size = (int(rgb.shape[1]), int(rgb.shape[0]))
    # a photo lacking a tile or its indicator is looked at again for boxes under `conf` (`read_layout`),
    # from the same detector pass (`DetectionLevels`)
    detector = get_detector(detector_path(models))
    levels = DetectionLevels(detector, rgb, WEAK_FLOOR)
    at = levels.at
    if memory is not None and memory.count(table) and detector.classifier is not None:
        at = remembered(levels.at, rgb, detector.classifier, memory, table)
    detections, assignment = read_layout(at, conf, size, code, options)
    return PhotoReading(detections, assignment, size)


def remembered(at: Callable[[float], list[Detection]], rgb: Any, classifier: Any, memory: Any,
               table: str) -> Callable[[float], list[Detection]]:  # fmt: skip
    """`at` (the detections at a threshold) read as `table` taught its tiles (`memory.memory_readings`), each box
    once however many thresholds give it (the second look gives the first one's boxes again)."""
    from vision.reader.memory import memory_readings

    read: dict[int, tuple[Detection, Detection | None]] = {}  # id of a detection: (it, as the memory reads it)

    def at_remembered(conf: float) -> list[Detection]:
        dets = at(conf)
        new = [d for d in dets if id(d) not in read]
        for d, r in zip(new, memory_readings(new, rgb, classifier, memory, table)):
            read[id(d)] = (d, r)
        return [r for d in dets if (r := read[id(d)][1]) is not None]

    return at_remembered
