"""Fine-tune the tile reader on a team dataset and adopt the result only if it is better.

`finetune` splits the team dataset (`DatasetStore.write_split`, deterministic) and builds a candidate
reader from the team's train part:

* the detector, trained on those photos plus the base data's train images and validated on the
  team's held-back part (single-class, as the shipped one, when the current detector only finds
  tiles), and exported to ONNX;
* the crop classifier (when the model folder has one), which is what names the tiles and so what
  must learn a tile set it has never seen: fine-tuned on the team's boxes plus a sample of the base
  data's (`default_classifier_train`).

Either part can be left as it is (`detector=False`, `classifier=False`). The current reader and the
candidate are scored on the held-back photos with `vision.training.evaluate` (mAP50, per-tile accuracy); the
candidate replaces the current files only when `should_replace` says so (the old ones stay as
``*.prev.*``), and a row is always appended to the "Fine-tuning log" of ``models/MODEL_CARD.md``.

Training, export and evaluation are injectable (tests run the decision and bookkeeping fast);
torch/ultralytics are only imported by the default implementations, inside functions.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vision.datasets.store import DatasetError, DatasetStore
from vision.datasets.yolo import IMAGE_SUFFIXES
from vision.reader.detection import CLASS_NAMES
from vision.training.ensemble import pair_weight, with_first
from vision.training.registry import (
    CURRENT_CLASSIFIER,
    CURRENT_ONNX,
    CURRENT_PT,
    MODEL_CARD,
    FinetuneResult,
    Scores,
    append_card_entry,
    install_candidate,
    should_replace,
)

#: Each box of a team photo gives this many jittered crops: a few photos of a new tile set must
#: weigh against the base data's crops.
TEAM_CROP_COPIES = 8
#: The classifier also learns the boxes of this many random base photos, so it keeps the sets it
#: knew, and the run stays minutes long on a laptop.
BASE_PHOTOS = 600
#: And the tiles of this many scenes, each drawn in a tile design of its own
#: (`collect_synthetic_crops`): shapes, not the colours of the team's one set.
SYNTHETIC_SCENES = 600
CLASSIFIER_EPOCHS = 3
CLASSIFIER_LR = 5e-4
#: Fewer held-back tiles than this judge a candidate by chance (one tile moves per-tile accuracy by
#: more than a point, and mAP50 averages 34 classes of one or two tiles): the command says so.
FEW_HELDOUT_TILES = 200
#: Model YAML used when there is no trainable checkpoint (the shipped ONNX cannot be trained).
FALLBACK_MODEL = "yolov8n.yaml"


#: (data_yaml, start model: .pt path or model YAML, work_dir, epochs, imgsz) → trained .pt
TrainFn = Callable[[Path, str, Path, int, int], Path]
#: (weights .pt, out .onnx, imgsz) → the ONNX file
ExportFn = Callable[[Path, Path, int], Path]
#: (ONNX model, held-back YOLO folder) → Scores
EvalFn = Callable[[Path, Path], Scores]
#: (team train split, base train images or None, classifier weights to start from or None, out .onnx,
#: the current detector to mine `none` boxes with) → the fine-tuned classifier ONNX (.fp32.onnx, .pt beside)
ClassifierFn = Callable[[Path, Path | None, Path | None, Path, Path | None], Path]


# --------------------------------------------------------------------------- small pure parts


def base_train_images(base_data: str | Path | None) -> Path | None:
    """The train image folder of a YOLO base data set (its data.yaml's ``train``, else ``train/images``)."""
    if base_data is None:
        return None
    root = Path(base_data)
    candidates = []
    if (root / "data.yaml").is_file():
        from scoring.inputs import load_yaml_file

        doc = load_yaml_file(root / "data.yaml") or {}  # the one safe reader (no aliases, capped)
        train = doc.get("train") if isinstance(doc, dict) else None
        if isinstance(train, str):
            base = Path(doc.get("path") or root)
            candidates.append(Path(train) if Path(train).is_absolute() else (base if base.is_absolute() else root) / train)
    candidates.append(root / "train" / "images")
    for c in candidates:
        if c.is_dir() and _count_images(c):
            return c.resolve()
    return None


def _count_images(folder: Path) -> int:
    return sum(1 for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES) if folder.is_dir() else 0


def write_heldout(store: DatasetStore, stems: list[str], out: Path) -> Path:
    """Copy the held-back examples to ``out/{images,labels}`` (a YOLO folder for validation and evaluation)."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    for stem in stems:
        img = store.image_path(stem)
        shutil.copyfile(img, out / "images" / img.name)
        label = store.label_path(stem)
        if label.exists():
            shutil.copyfile(label, out / "labels" / label.name)
        else:
            (out / "labels" / label.name).write_text("", encoding="utf-8")
    return out


def write_data_yaml(path: Path, train: list[Path], val: Path) -> Path:
    """An ultralytics data YAML with absolute train sources (lists/folders) and the project's class names."""
    import yaml

    doc = {
        "path": str(path.parent.resolve()),
        "train": [str(p.resolve()) for p in train],
        "val": str(val.resolve()),
        "names": dict(enumerate(CLASS_NAMES)),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- default heavy parts


def default_train(data_yaml: Path, start: str, work_dir: Path, epochs: int, imgsz: int, **config: Any) -> Path:
    """Train with `vision.training.detector` (offline, CPU) from `start`; `config` overrides TrainConfig fields → best checkpoint."""
    from vision.training.detector import TrainConfig, train

    settings: dict[str, Any] = {"close_mosaic": min(3, max(0, epochs - 1)), **config}
    cfg = TrainConfig(
        data=str(data_yaml), model=start, imgsz=imgsz, epochs=epochs, project=str(work_dir.resolve()), name="train",
        **settings,
    )  # fmt: skip
    run_dir = train(cfg)
    best = run_dir / "weights" / "best.pt"
    return best if best.exists() else run_dir / "weights" / "last.pt"


def default_export(weights: Path, out: Path, imgsz: int) -> Path:
    """`vision.training.detector.export_onnx`."""
    from vision.training.detector import export_onnx

    return export_onnx(weights, out, imgsz=imgsz)


def default_classifier_train(team_train: Path, base_images: Path | None, start: Path | None, out: Path,
                             detector: Path | None = None, log: Callable[[str], None] = print) -> Path:
    """Fine-tune the crop classifier from `start` on the team's boxes (`TEAM_CROP_COPIES` jittered
    crops each), the boxes of `BASE_PHOTOS` random base photos (so it keeps the sets it knew) and the
    tiles of `SYNTHETIC_SCENES` scenes in varied drawn designs, with `none` crops: boxes of `detector`
    that no label covers (tiles the start classifier is sure of left out, as unlabelled ones) and
    labels shifted half a tile. `CLASSIFIER_EPOCHS` at `CLASSIFIER_LR`, the last epoch kept (the
    held-back photos judge it afterwards). When the current classifier is a pair (`vision.training.ensemble`),
    `start` holds its first half's weights: `finetune` puts the trained half back in the pair (`rejoin_pair`);
    ``.pt`` and ``.fp32.onnx`` stay the first half's."""
    import numpy as np

    from vision.datasets.yolo import image_files, write_split
    from vision.reader.classifier import TileClassifier
    from vision.training.classifier import (
        collect_crops,
        collect_negative_crops,
        collect_synthetic_crops,
        concat,
        train_classifier,
    )
    from vision.training.synth.render import TileArtError

    splits = [(team_train, TEAM_CROP_COPIES)]
    if base_images is not None and (base_images.parent / "labels").is_dir():
        photos = image_files(base_images.parent)
        pick = np.random.default_rng(0).permutation(len(photos))[:BASE_PHOTOS]
        splits.append((write_split([photos[i] for i in sorted(pick)], team_train.parent / "base_sample"), 1))
    boxes_fn, judge = None, None
    if detector is not None and detector.is_file():
        from vision.reader.detector import TileDetector

        finder = TileDetector(detector, classifier=False, boxes_only=True)

        def boxes_fn(rgb: np.ndarray) -> np.ndarray:
            return finder.find_boxes(rgb, conf=0.05)[0]

        judge_onnx = start.with_suffix(".onnx") if start is not None else None
        judge = TileClassifier(judge_onnx) if judge_onnx is not None and judge_onnx.is_file() else None
    sets = []
    for split, copies in splits:
        sets.append(collect_crops(split, copies=copies, jitter=0.06))
        sets.append(collect_negative_crops(split, boxes_fn or (lambda _rgb: np.zeros((0, 4))), judge=judge))
    try:
        sets.append(collect_synthetic_crops(SYNTHETIC_SCENES, seed=5, varied=True))
    except TileArtError as exc:  # no CJK fonts on this machine: the photos alone
        log(f"no drawn tile designs ({exc}): the classifier learns from the photos only")
    crops = concat(*sets)
    if not len(crops.y):
        raise DatasetError("团队照片里没有标好的牌，无法训练牌面分类", f"no labelled tiles to train the classifier on in {team_train}")
    train_classifier(crops, None, out, epochs=CLASSIFIER_EPOCHS, lr=CLASSIFIER_LR, start_from=start, log=lambda _m: None)
    return out


def rejoin_pair(current: Path, candidate: Path, log: Callable[[str], None] = print) -> Path:
    """When the current classifier is a pair (`vision.training.ensemble`) and the fine-tuned `candidate` one network
    (the pair's first half, trained from ``tile_classifier.pt`` or from scratch), `candidate` rewritten in place as the
    pair with that first half beside the current second half, said in the log; else `candidate` as it is."""
    weight = pair_weight(current)
    if weight is None or pair_weight(candidate) is not None:
        return candidate
    with_first(current, candidate, candidate)
    log(f"the fine-tuned classifier rejoins the second half of {current.name} (weight {weight})")
    return candidate


def finds_tiles_only(detector_onnx: Path) -> bool:
    """Whether the detector only finds tiles (one class, `item`), the crop classifier naming them."""
    from vision.reader.detector import TileDetector
    from vision.reader.image import DetectorError

    try:
        return TileDetector(detector_onnx, classifier=False, boxes_only=True).names == ("item",)
    except DetectorError:
        return False


def default_eval(model: Path, heldout: Path) -> Scores:
    """mAP50 and per-tile accuracy of an ONNX model on a YOLO folder (`vision.training.evaluate`)."""
    from vision.reader.detector import TileDetector
    from vision.training.evaluate import evaluate

    det = TileDetector(model)  # not the cached get_detector: the file at this path may have just changed
    result = evaluate(heldout, lambda p: det(p, conf=0.001))
    return Scores(map50=result.map50, tile_accuracy=result.tile_accuracy, tiles=result.tiles)


# --------------------------------------------------------------------------- the run


def finetune(
    store_root: str | Path,
    model_dir: str | Path,
    base_data: str | Path | None = None,
    epochs: int = 8,
    imgsz: int = 416,
    holdout: float = 0.2,
    seed: int = 0,
    work_dir: str | Path | None = None,
    train_fn: TrainFn | None = None,
    export_fn: ExportFn = default_export,
    eval_fn: EvalFn = default_eval,
    batch: int = 16,
    log: Callable[[str], None] = print,
    detector: bool = True,
    classifier: bool = True,
    classifier_fn: ClassifierFn = default_classifier_train,
) -> FinetuneResult:
    """Fine-tune on a team dataset, score old vs new on its held-back photos, adopt only a better reader.
    `detector` / `classifier`: which parts to train (the classifier only if `model_dir` has one)."""
    from vision.datasets.yolo import write_split

    store = DatasetStore(store_root)
    stems = store.stems()
    if len(stems) < 2:
        raise DatasetError(
            f"数据集 {store.name} 里至少要有两张照片才能微调（一张用来检验）",
            f"dataset {store.root} needs at least 2 examples to fine-tune (one is held back to judge the result)",
        )
    model_dir = Path(model_dir)
    current_onnx, current_pt = model_dir / CURRENT_ONNX, model_dir / CURRENT_PT
    current_classifier = model_dir / CURRENT_CLASSIFIER
    tune_classifier = classifier and current_classifier.is_file()
    if not detector and not tune_classifier:
        raise DatasetError("没有要训练的部分：只训练牌面分类时，模型目录里须有 tile_classifier.onnx",
                           f"nothing to fine-tune: training the classifier alone needs {current_classifier}")
    if not detector and not current_onnx.is_file():
        raise DatasetError(f"没有可保留的识别模型 {current_onnx}", f"no detector {current_onnx} to keep")
    held = store.split(holdout, seed)
    train_txt, _ = store.write_split(holdout, seed)
    n_heldout, n_train = len(held), len(stems) - len(held)
    now = datetime.now(UTC).replace(microsecond=0)
    work = Path(work_dir) if work_dir is not None else Path("runs") / "finetune" / f"{store.name}-{now:%Y%m%d-%H%M%S}"
    work.mkdir(parents=True, exist_ok=True)
    heldout_dir = write_heldout(store, held, work / "heldout")
    base_images = base_train_images(base_data)
    n_base = _count_images(base_images) if base_images else 0
    if base_data is not None and base_images is None:
        log(f"base data {base_data} not found: training on the team's photos only")
    candidate_dir = work / "candidate"  # the candidate detector with its classifier beside it, as in models/
    candidate_dir.mkdir(parents=True, exist_ok=True)
    candidate_pt: Path | None = None
    started = []

    if detector:
        sources = ([train_txt] if n_train else []) + ([base_images] if base_images else [])
        if not sources:
            raise DatasetError("没有可用来训练的照片", f"nothing to train on in {store.root}")
        data_yaml = write_data_yaml(work / "data.yaml", sources, heldout_dir / "images")
        if current_pt.is_file():
            start = str(current_pt.resolve())
            started.append(CURRENT_PT)
        else:
            start = FALLBACK_MODEL
            why = "only the ONNX exists, which cannot be trained" if current_onnx.is_file() else "no current model"
            started.append(f"{FALLBACK_MODEL} ({why})")
            log(f"no {current_pt}: training from {FALLBACK_MODEL} ({why})")
        single = current_onnx.is_file() and finds_tiles_only(current_onnx)
        log(f"fine-tuning the detector on {n_train} team photos" + (f" + {n_base} base images" if n_base else "")
            + f", {n_heldout} held back")
        train = train_fn or (lambda d, s, w, e, i: default_train(d, s, w, e, i, batch=batch, single_cls=single))
        candidate_pt = Path(train(data_yaml, start, work, epochs, imgsz))
        candidate_onnx = Path(export_fn(candidate_pt, candidate_dir / CURRENT_ONNX, imgsz))
        if candidate_pt.is_file():  # the whole candidate in one folder, for `adopt_candidate`
            shutil.copyfile(candidate_pt, candidate_dir / CURRENT_PT)
    else:
        candidate_onnx = candidate_dir / CURRENT_ONNX
        shutil.copyfile(current_onnx, candidate_onnx)
        started.append(f"{CURRENT_ONNX} (kept)")

    candidate_classifier: Path | None = None
    if tune_classifier:
        if not n_train:
            raise DatasetError("没有留作训练的照片，无法训练牌面分类", f"no team photos left to train the classifier on in {store.root}")
        held_back = set(held)
        team_train = write_split([store.image_path(s) for s in stems if s not in held_back], work / "team_train")
        weights = current_classifier.with_suffix(".pt")
        log(f"fine-tuning the tile classifier on {n_train} team photos" + (" + base crops" if base_images else ""))
        candidate_classifier = rejoin_pair(current_classifier, Path(classifier_fn(
            team_train, base_images, weights if weights.is_file() else None, candidate_dir / CURRENT_CLASSIFIER,
            current_onnx if current_onnx.is_file() else None)), log)
        started.append(weights.name if weights.is_file() else "classifier from scratch")
    elif current_classifier.is_file():  # the candidate detector is read with the current classifier
        shutil.copyfile(current_classifier, candidate_dir / CURRENT_CLASSIFIER)

    before = eval_fn(current_onnx, heldout_dir) if current_onnx.is_file() else None
    after = eval_fn(candidate_onnx, heldout_dir)
    replaced = should_replace(before, after)
    if replaced:
        install_candidate(model_dir, candidate_onnx if detector else None, candidate_pt, candidate_classifier)
    result = FinetuneResult(
        date=f"{now:%Y-%m-%d %H:%M} UTC", dataset=store.name, n_train=n_train, n_heldout=n_heldout, n_base=n_base,
        started_from=" + ".join(started), before=before, after=after, replaced=replaced,
        candidate_onnx=candidate_onnx, work_dir=work,
    )  # fmt: skip
    append_card_entry(model_dir / MODEL_CARD, result)
    return result


