"""`vision.training.finetune`: the replace/keep decision, the model-card log, and fine-tune runs (fake and one real)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml

from vision.datasets.store import DatasetError, DatasetStore
from vision.training.ensemble import pair_weight
from vision.training.finetune import (
    FALLBACK_MODEL,
    default_classifier_train,
    finetune,
    rejoin_pair,
)
from vision.training.registry import (
    LOG_HEADING,
    FinetuneResult,
    Scores,
    add_log_row,
    adopt_candidate,
    card_row,
    previous_name,
    should_replace,
)

HAVE_SYNTH = Path("/usr/share/kmahjongglib/tilesets/default.svgz").exists() and shutil.which("rsvg-convert")


def _png(seed: int, size: tuple[int, int] = (96, 64)) -> bytes:
    """A small distinct PNG (content differs per seed, so every photo gets its own stem)."""
    from PIL import Image

    rng = np.random.default_rng(seed)
    img = Image.fromarray(rng.integers(0, 255, size=(size[1], size[0], 3), dtype=np.uint8))
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def plain_store(root: Path, n: int = 6) -> DatasetStore:
    """A team dataset of `n` random photos with one box each."""
    store = DatasetStore(root)
    for i in range(n):
        store.add_example(_png(i), [(10, 10, 40, 50, "1m")], source="test")
    return store


def model_dir_with(root: Path, onnx: bytes | None, pt: bytes | None) -> Path:
    """A model folder holding the given tiles.onnx / tiles.pt contents."""
    root.mkdir(parents=True, exist_ok=True)
    if onnx is not None:
        (root / "tiles.onnx").write_bytes(onnx)
    if pt is not None:
        (root / "tiles.pt").write_bytes(pt)
    return root


class Fakes:
    """Training, export and evaluation stand-ins: scores are looked up by the model file's bytes."""

    def __init__(self, scores: dict[bytes, Scores]) -> None:
        self.scores = scores
        self.trained: list[tuple[Path, str, int, int]] = []
        self.evaluated: list[bytes] = []

    def train(self, data_yaml: Path, start: str, work: Path, epochs: int, imgsz: int) -> Path:
        self.trained.append((data_yaml, start, epochs, imgsz))
        out = work / "fake-best.pt"
        out.write_bytes(b"new-pt")
        return out

    def export(self, weights: Path, out: Path, imgsz: int) -> Path:
        out.write_bytes(b"new-onnx")
        return out

    def evaluate(self, model: Path, heldout: Path) -> Scores:
        data = model.read_bytes()
        self.evaluated.append(data)
        return self.scores[data]


def run_fake(tmp_path: Path, fakes: Fakes, model_dir: Path, **kw: object) -> FinetuneResult:
    store = plain_store(tmp_path / "datasets" / "team")
    return finetune(
        store.root, model_dir, epochs=2, imgsz=64, work_dir=tmp_path / "work",
        train_fn=fakes.train, export_fn=fakes.export, eval_fn=fakes.evaluate, log=lambda _m: None, **kw,
    )  # fmt: skip


# --------------------------------------------------------------------------- decision and card


def test_should_replace_only_on_strictly_higher_map50():
    assert should_replace(None, Scores(0.0, 0.0))
    assert should_replace(Scores(0.5, 0.9), Scores(0.51, 0.1))
    assert not should_replace(Scores(0.5, 0.1), Scores(0.5, 0.9))  # tie keeps the old model
    assert not should_replace(Scores(0.6, 0.5), Scores(0.5, 0.9))
    assert not should_replace(Scores(0.6, 0.5), Scores(float("nan"), 0.9))


def _result(**kw: object) -> FinetuneResult:
    base = {
        "date": "2025-01-02 03:04 UTC", "dataset": "team", "n_train": 5, "n_heldout": 1, "n_base": 0,
        "started_from": "tiles.pt", "before": Scores(0.25, 0.5), "after": Scores(0.5, 0.75), "replaced": True,
        "candidate_onnx": Path("c.onnx"), "work_dir": Path("w"),
    }  # fmt: skip
    base.update(kw)
    return FinetuneResult(**base)  # type: ignore[arg-type]


def test_card_row_has_figures_and_decision():
    row = card_row(_result(n_base=100))
    assert row.startswith("| 2025-01-02 03:04 UTC | team | 5 / 1 (+100 base) | tiles.pt |")
    assert "0.250 → 0.500" in row and "0.500 → 0.750" in row and "replaced" in row
    assert "— → 0.500" in card_row(_result(before=None)) and "adopted" in card_row(_result(before=None))
    assert "kept" in card_row(_result(replaced=False))


def test_add_log_row_creates_then_appends_inside_the_section():
    text = add_log_row("", "| r1 |\n")
    assert text.count(LOG_HEADING) == 1 and text.count("| date |") == 1 and text.endswith("| r1 |\n")
    card = "# Card\n\nintro\n\n## Training\n\nstuff\n"
    once = add_log_row(card, "| r1 |\n")
    assert once.startswith(card) and once.endswith(f"{LOG_HEADING}\n\n" + once.split(f"{LOG_HEADING}\n\n")[1])
    # the section in the middle of the card: the new row goes at the end of its table, before the next heading
    middle = once + "\n## Licence\n\nCC BY 4.0\n"
    twice = add_log_row(middle, "| r2 |\n")
    assert twice.count(LOG_HEADING) == 1 and twice.count("| date |") == 1
    assert twice.index("| r1 |") < twice.index("| r2 |") < twice.index("## Licence")
    assert "| r2 |\n\n## Licence" in twice
    # a hand-written heading without a table gets the table header first
    bare = add_log_row(f"# C\n\n{LOG_HEADING}\n", "| r |\n")
    assert bare.endswith(f"{LOG_HEADING}\n\n| date |" + bare.split("| date |", 1)[1]) and bare.endswith("| r |\n")


# --------------------------------------------------------------------------- runs with fakes


def test_keeps_a_better_current_model(tmp_path):
    models = model_dir_with(tmp_path / "models", b"old-onnx", b"old-pt")
    fakes = Fakes({b"old-onnx": Scores(0.8, 0.9), b"new-onnx": Scores(0.4, 0.95)})
    r = run_fake(tmp_path, fakes, models)
    assert not r.replaced and r.decision == "kept"
    assert (models / "tiles.onnx").read_bytes() == b"old-onnx" and (models / "tiles.pt").read_bytes() == b"old-pt"
    assert not (models / "tiles.prev.onnx").exists()
    card = (models / "MODEL_CARD.md").read_text(encoding="utf-8")
    assert LOG_HEADING in card and "kept" in card and "0.800 → 0.400" in card and "0.900 → 0.950" in card
    assert fakes.trained[0][1] == str((models / "tiles.pt").resolve())  # fine-tuned from the shipped weights
    assert r.n_train + r.n_heldout == 6 and r.n_heldout >= 1


def test_adopts_a_better_candidate_and_keeps_the_old_one(tmp_path):
    models = model_dir_with(tmp_path / "models", b"old-onnx", b"old-pt")
    fakes = Fakes({b"old-onnx": Scores(0.3, 0.5), b"new-onnx": Scores(0.6, 0.4)})
    r = run_fake(tmp_path, fakes, models)
    assert r.replaced and r.decision == "replaced"
    assert (models / "tiles.onnx").read_bytes() == b"new-onnx" and (models / "tiles.pt").read_bytes() == b"new-pt"
    assert (models / "tiles.prev.onnx").read_bytes() == b"old-onnx"
    assert (models / "tiles.prev.pt").read_bytes() == b"old-pt"
    assert "replaced" in (models / "MODEL_CARD.md").read_text(encoding="utf-8")


def test_no_current_model_adopts_and_only_onnx_trains_from_yaml(tmp_path):
    models = tmp_path / "empty-models"
    fakes = Fakes({b"new-onnx": Scores(0.0, 0.0)})
    r = run_fake(tmp_path, fakes, models)
    assert r.decision == "adopted" and r.before is None and (models / "tiles.onnx").read_bytes() == b"new-onnx"
    assert fakes.trained[0][1] == FALLBACK_MODEL and fakes.evaluated == [b"new-onnx"]

    only_onnx = model_dir_with(tmp_path / "onnx-only", b"old-onnx", None)
    fakes2 = Fakes({b"old-onnx": Scores(0.5, 0.5), b"new-onnx": Scores(0.5, 0.5)})
    r2 = finetune(
        tmp_path / "datasets" / "team", only_onnx, work_dir=tmp_path / "work2",
        train_fn=fakes2.train, export_fn=fakes2.export, eval_fn=fakes2.evaluate, log=lambda _m: None,
    )  # fmt: skip
    assert fakes2.trained[0][1] == FALLBACK_MODEL and "cannot be trained" in r2.started_from
    assert r2.decision == "kept"  # tie keeps the old one
    assert "cannot be trained" in (only_onnx / "MODEL_CARD.md").read_text(encoding="utf-8")


def test_data_yaml_mixes_team_train_and_base_train_and_validates_on_heldout(tmp_path):
    base = tmp_path / "base"
    (base / "train" / "images").mkdir(parents=True)
    (base / "train" / "images" / "b0.jpg").write_bytes(_png(99))
    (base / "data.yaml").write_text(yaml.safe_dump({"path": str(base), "train": "train/images", "val": "valid/images"}))
    fakes = Fakes({b"new-onnx": Scores(0.1, 0.1)})
    r = run_fake(tmp_path, fakes, tmp_path / "m", base_data=base)
    doc = yaml.safe_load(fakes.trained[0][0].read_text(encoding="utf-8"))
    store_root = (tmp_path / "datasets" / "team").resolve()
    assert doc["train"] == [str(store_root / "train.txt"), str((base / "train" / "images").resolve())]
    held = sorted(p.name for p in (Path(doc["val"])).iterdir())
    assert len(held) == r.n_heldout and r.n_base == 1
    assert len(doc["names"]) == 35
    listed = (store_root / "train.txt").read_text(encoding="utf-8").split()
    assert len(listed) == r.n_train and not set(Path(p).name for p in listed) & set(held)


def test_refuses_a_dataset_too_small_to_hold_back(tmp_path):
    store = plain_store(tmp_path / "tiny", n=1)
    with pytest.raises(DatasetError):
        finetune(store.root, tmp_path / "m", train_fn=Fakes({}).train, log=lambda _m: None)


def test_previous_files_keep_their_whole_suffix():
    assert previous_name("tiles.onnx") == "tiles.prev.onnx"
    assert previous_name("tile_classifier.fp32.onnx") == "tile_classifier.prev.fp32.onnx"
    assert previous_name("tile_classifier.pt") == "tile_classifier.prev.pt"


class PairFakes(Fakes):
    """Fakes for a two-stage reader: a candidate is scored by its detector's bytes and the classifier's beside it."""

    def __init__(self, scores: dict[bytes, Scores]) -> None:
        super().__init__(scores)
        self.classifier_runs: list[tuple[Path, Path | None, Path | None, Path | None]] = []

    def evaluate(self, model: Path, heldout: Path) -> Scores:
        data = model.read_bytes() + b"+" + (model.parent / "tile_classifier.onnx").read_bytes()
        self.evaluated.append(data)
        return self.scores[data]

    def train_classifier(self, team: Path, base: Path | None, start: Path | None, out: Path, detector: Path | None) -> Path:
        self.classifier_runs.append((team, base, start, detector))
        for suffix, data in ((".onnx", b"new-cls"), (".fp32.onnx", b"new-cls-fp32"), (".pt", b"new-cls-pt")):
            out.with_name("tile_classifier" + suffix).write_bytes(data)
        return out


def test_a_classifier_trained_for_a_pair_is_put_back_in_it_before_it_is_judged(tmp_path, tiny_classifier):
    """The current classifier is a pair and the model folder has no `tile_classifier.pt` (an installed wheel): the
    half trained from scratch goes back beside the pair's second half, and that pair is judged and installed."""
    pytest.importorskip("onnx")
    from vision.reader.classifier import CROP_H, CROP_W, TileClassifier, to_blob
    from vision.training.ensemble import average_logits

    models = model_dir_with(tmp_path / "models", b"old-onnx", b"old-pt")
    first, second = tiny_classifier(tmp_path / "v9.onnx", 1), tiny_classifier(tmp_path / "lite.onnx", 2)
    average_logits(first, second, models / "tile_classifier.onnx")
    judged: list[float | None] = []

    def train_classifier(team: Path, base: Path | None, start: Path | None, out: Path, detector: Path | None) -> Path:
        assert start is None  # nothing to start from: trained from scratch
        return tiny_classifier(out, 3)

    def evaluate(model: Path, heldout: Path) -> Scores:
        judged.append(pair_weight(model.parent / "tile_classifier.onnx"))
        return Scores(0.9, 0.9) if "candidate" in str(model) else Scores(0.5, 0.5)

    said: list[str] = []
    r = finetune(plain_store(tmp_path / "datasets" / "team").root, models, work_dir=tmp_path / "work", detector=False,
                 classifier_fn=train_classifier, eval_fn=evaluate, log=said.append)
    assert r.replaced and judged == [0.5, 0.5] and any("rejoins" in m for m in said)
    crops = np.random.default_rng(0).integers(0, 255, (3, CROP_H, CROP_W, 3), dtype=np.uint8)
    blob = to_blob(crops)
    logits = [TileClassifier(m).session.run(["logits"], {"crops": blob})[0]
              for m in (models / "tile_classifier.onnx", tmp_path / "work" / "candidate" / "tile_classifier.onnx", second)]
    assert np.allclose(logits[0], logits[1]) and pair_weight(models / "tile_classifier.onnx") == 0.5
    fresh = TileClassifier(tiny_classifier(tmp_path / "fresh.onnx", 3)).session.run(["logits"], {"crops": blob})[0]
    assert np.allclose(logits[0], 0.5 * fresh + 0.5 * logits[2], atol=1e-5)


def two_stage_models(root: Path) -> Path:
    """A model folder with a detector and a crop classifier (fake bytes)."""
    models = model_dir_with(root, b"old-onnx", b"old-pt")
    for suffix, data in ((".onnx", b"old-cls"), (".fp32.onnx", b"old-cls-fp32"), (".pt", b"old-cls-pt")):
        (models / f"tile_classifier{suffix}").write_bytes(data)
    return models


def test_classifier_alone_learns_the_team_photos_and_replaces_only_itself(tmp_path):
    models = two_stage_models(tmp_path / "models")
    fakes = PairFakes({b"old-onnx+old-cls": Scores(0.6, 0.7), b"old-onnx+new-cls": Scores(0.8, 0.9)})
    r = run_fake(tmp_path, fakes, models, detector=False, classifier_fn=fakes.train_classifier)
    assert fakes.trained == []  # the detector was not trained
    (team, base, start, detector), = fakes.classifier_runs
    assert start == models / "tile_classifier.pt" and base is None and detector == models / "tiles.onnx"
    assert len(list((team / "images").iterdir())) == r.n_train == len(list((team / "labels").iterdir()))
    assert r.replaced and r.started_from == "tiles.onnx (kept) + tile_classifier.pt"
    assert (models / "tile_classifier.onnx").read_bytes() == b"new-cls"
    assert (models / "tile_classifier.pt").read_bytes() == b"new-cls-pt"
    assert (models / "tile_classifier.fp32.onnx").read_bytes() == b"new-cls-fp32"
    assert (models / "tile_classifier.prev.onnx").read_bytes() == b"old-cls"
    assert (models / "tile_classifier.prev.pt").read_bytes() == b"old-cls-pt"
    assert (models / "tiles.onnx").read_bytes() == b"old-onnx" and not (models / "tiles.prev.onnx").exists()
    assert "tiles.onnx (kept) + tile_classifier.pt" in (models / "MODEL_CARD.md").read_text(encoding="utf-8")


def test_both_parts_are_judged_together_and_a_worse_pair_changes_nothing(tmp_path):
    models = two_stage_models(tmp_path / "models")
    fakes = PairFakes({b"old-onnx+old-cls": Scores(0.6, 0.7), b"new-onnx+new-cls": Scores(0.5, 0.9)})
    r = run_fake(tmp_path, fakes, models, classifier_fn=fakes.train_classifier)
    assert len(fakes.trained) == 1 and len(fakes.classifier_runs) == 1
    assert fakes.evaluated == [b"old-onnx+old-cls", b"new-onnx+new-cls"]
    assert r.decision == "kept" and r.started_from == "tiles.pt + tile_classifier.pt"
    for name, data in (("tiles.onnx", b"old-onnx"), ("tile_classifier.onnx", b"old-cls"), ("tile_classifier.pt", b"old-cls-pt")):
        assert (models / name).read_bytes() == data
    assert not list(models.glob("*.prev.*"))


def test_a_detector_alone_is_judged_with_the_current_classifier(tmp_path):
    models = two_stage_models(tmp_path / "models")
    fakes = PairFakes({b"old-onnx+old-cls": Scores(0.6, 0.7), b"new-onnx+old-cls": Scores(0.7, 0.7)})
    r = run_fake(tmp_path, fakes, models, classifier=False, classifier_fn=fakes.train_classifier)
    assert fakes.classifier_runs == [] and r.replaced
    assert (models / "tiles.onnx").read_bytes() == b"new-onnx" and (models / "tile_classifier.onnx").read_bytes() == b"old-cls"
    assert not (models / "tile_classifier.prev.onnx").exists()


def test_a_kept_candidate_can_be_adopted_by_hand_and_undone(tmp_path):
    models = two_stage_models(tmp_path / "models")
    fakes = PairFakes({b"old-onnx+old-cls": Scores(0.8, 0.9), b"old-onnx+new-cls": Scores(0.7, 0.9)})
    r = run_fake(tmp_path, fakes, models, detector=False, classifier_fn=fakes.train_classifier)
    assert r.decision == "kept" and (models / "tile_classifier.onnx").read_bytes() == b"old-cls"
    replaced = adopt_candidate(r.work_dir, models)
    assert replaced == ["tile_classifier.onnx", "tile_classifier.fp32.onnx", "tile_classifier.pt"]  # the detector was a copy
    assert (models / "tile_classifier.onnx").read_bytes() == b"new-cls" and (models / "tiles.onnx").read_bytes() == b"old-onnx"
    assert (models / "tile_classifier.prev.onnx").read_bytes() == b"old-cls" and not (models / "tiles.prev.onnx").exists()
    assert "adopted by hand: tile_classifier.onnx" in (models / "MODEL_CARD.md").read_text(encoding="utf-8")
    assert adopt_candidate(r.work_dir, models) == []  # a second time: nothing differs
    with pytest.raises(DatasetError, match="candidate"):
        adopt_candidate(tmp_path / "no-run", models)


def test_a_trained_detector_candidate_carries_its_weights_for_adoption(tmp_path):
    models = two_stage_models(tmp_path / "models")
    fakes = PairFakes({b"old-onnx+old-cls": Scores(0.8, 0.9), b"new-onnx+new-cls": Scores(0.7, 0.9)})
    r = run_fake(tmp_path, fakes, models, classifier_fn=fakes.train_classifier)
    assert r.decision == "kept" and (r.work_dir / "candidate" / "tiles.pt").read_bytes() == b"new-pt"
    assert adopt_candidate(r.work_dir, models)[:2] == ["tiles.onnx", "tiles.pt"]
    assert (models / "tiles.pt").read_bytes() == b"new-pt" and (models / "tiles.prev.pt").read_bytes() == b"old-pt"


def test_training_the_classifier_alone_needs_one(tmp_path):
    models = model_dir_with(tmp_path / "models", b"old-onnx", b"old-pt")  # a one-stage reader: no classifier
    with pytest.raises(DatasetError, match="tile_classifier.onnx"):
        run_fake(tmp_path, Fakes({}), models, detector=False)


@pytest.mark.skipif(not HAVE_SYNTH, reason="needs kdegames-mahjongg-data-kf5 and librsvg2-bin (scripts/install_test_system_deps.sh)")
def test_classifier_fine_tuned_on_a_few_scenes_of_a_new_set_reads_that_set_better(tmp_path, monkeypatch):
    """The shipped classifier misreads much of KDE `classic`, art it never trained on; ten scenes of it,
    with scenes of a set it knows as base data, teach it that set without forgetting the other."""
    pytest.importorskip("torch")
    import vision.training.finetune as F
    from vision.reader.classifier import TileClassifier, tile_columns
    from vision.reader.detector import DEFAULT_CLASSIFIER, DEFAULT_MODEL
    from vision.training.classifier import collect_crops
    from vision.training.synth import random_scene, write_yolo_sample

    monkeypatch.setattr(F, "SYNTHETIC_SCENES", 40)  # 600 in use; fewer keep the test short
    rng = np.random.default_rng(0)
    for folder, tileset, n in (("team", "classic", 10), ("base/train", "default", 6), ("new", "classic", 8), ("known", "default", 4)):
        for i in range(n):
            write_yolo_sample(random_scene(rng, tileset=tileset), tmp_path / folder, f"{tileset}{i}")
    out = default_classifier_train(tmp_path / "team", tmp_path / "base" / "train" / "images",
                                   DEFAULT_CLASSIFIER.with_suffix(".pt"), tmp_path / "cand" / "tile_classifier.onnx",
                                   DEFAULT_MODEL)
    assert out.is_file() and out.with_suffix(".pt").is_file() and out.with_name("tile_classifier.fp32.onnx").is_file()

    def accuracy(model: Path, folder: str) -> float:
        crops = collect_crops(tmp_path / folder)
        clf = TileClassifier(model)
        cols = np.array(tile_columns(clf.names))
        return float((cols[clf(crops.x)[:, cols].argmax(axis=1)] == crops.y).mean())

    before, after = accuracy(DEFAULT_CLASSIFIER, "new"), accuracy(out, "new")
    assert after >= before + 0.1 and after >= 0.85, (before, after)
    assert accuracy(out, "known") >= 0.9


def fine_tune_on_two_scenes(tmp_path: Path, seed: int) -> tuple[Path, list[str]]:
    """`default_classifier_train` from the shipped weights on two scenes of a known set: (the candidate, what it said)."""
    from vision.reader.detector import DEFAULT_CLASSIFIER
    from vision.training.synth import random_scene, write_yolo_sample

    rng = np.random.default_rng(seed)
    for i in range(2):
        write_yolo_sample(random_scene(rng, tileset="default"), tmp_path / "team", f"t{i}")
    said: list[str] = []
    out = default_classifier_train(tmp_path / "team", None, DEFAULT_CLASSIFIER.with_suffix(".pt"),
                                   tmp_path / "cand" / "tile_classifier.onnx", log=said.append)
    return out, said


@pytest.mark.skipif(not HAVE_SYNTH, reason="needs kdegames-mahjongg-data-kf5 and librsvg2-bin (scripts/install_test_system_deps.sh)")
def test_classifier_fine_tuning_without_drawn_designs_learns_from_the_photos_and_says_so(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    import vision.training.classifier as T
    from vision.training.synth.render import TileArtError

    def no_fonts(*_a: object, **_k: object) -> None:
        raise TileArtError("找不到 Noto CJK 字体", "Noto CJK fonts missing")

    monkeypatch.setattr(T, "collect_synthetic_crops", no_fonts)
    out, said = fine_tune_on_two_scenes(tmp_path, 1)
    assert out.is_file() and any("no drawn tile designs" in m and "Noto CJK" in m for m in said)


@pytest.mark.skipif(not HAVE_SYNTH, reason="needs kdegames-mahjongg-data-kf5 and librsvg2-bin (scripts/install_test_system_deps.sh)")
def test_a_fine_tuned_first_half_goes_back_into_the_shipped_pair_and_says_so(tmp_path, monkeypatch):
    """The shipped classifier is a pair whose `.pt` holds its first half: a fine-tune trains that half and puts it
    back beside the unchanged second half, rather than shipping the first half alone."""
    pytest.importorskip("torch")
    import vision.training.finetune as F
    from vision.reader.classifier import CROP_H, CROP_W, TileClassifier
    from vision.reader.detector import DEFAULT_CLASSIFIER

    monkeypatch.setattr(F, "SYNTHETIC_SCENES", 10)  # 600 in use; fewer keep the test short
    assert pair_weight(DEFAULT_CLASSIFIER) is not None, "the shipped classifier is the v9 + Lite0 pair"
    out, said = fine_tune_on_two_scenes(tmp_path, 2)
    assert pair_weight(out) is None  # v9's weights train v9 alone ...
    assert rejoin_pair(DEFAULT_CLASSIFIER, out, said.append) == out  # ... which `finetune` puts back in the pair
    assert pair_weight(out) == pair_weight(DEFAULT_CLASSIFIER)
    assert any("rejoins" in m and DEFAULT_CLASSIFIER.name in m for m in said)
    crops = np.random.default_rng(2).integers(0, 255, (4, CROP_H, CROP_W, 3), dtype=np.uint8)
    shipped, tuned = TileClassifier(DEFAULT_CLASSIFIER), TileClassifier(out)
    assert tuned(crops).shape == shipped(crops).shape and not np.allclose(tuned(crops), shipped(crops), atol=1e-4)


# --------------------------------------------------------------------------- one real run


def _weights(pt: Path) -> dict:
    """Float state dict of an ultralytics checkpoint."""
    import torch

    ckpt = torch.load(str(pt), map_location="cpu", weights_only=False)
    model = ckpt.get("ema") or ckpt["model"]
    return {k: v.float() for k, v in model.state_dict().items()}


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_SYNTH, reason="needs kdegames-mahjongg-data-kf5 and librsvg2-bin (scripts/install_test_system_deps.sh)")
def test_real_tiny_finetune_on_cpu(tmp_path, monkeypatch):
    pytest.importorskip("ultralytics")
    from vision.reader.detection import CLASS_NAMES
    from vision.training.detector import TrainConfig, export_onnx, train
    from vision.training.finetune import default_train
    from vision.training.synth import random_scene, write_yolo_sample

    monkeypatch.setenv("YOLO_OFFLINE", "1")
    rng = np.random.default_rng(3)
    # the current model: 1 epoch at 64 px on a few synthetic scenes
    for split, n in (("train", 4), ("valid", 1)):
        for i in range(n):
            write_yolo_sample(random_scene(rng, tile_height=40), tmp_path / "base" / split, f"b{i}")
    (tmp_path / "base" / "data.yaml").write_text(
        yaml.safe_dump({"path": str(tmp_path / "base"), "train": "train/images", "val": "valid/images",
                        "names": dict(enumerate(CLASS_NAMES))})
    )  # fmt: skip
    run_dir = train(
        TrainConfig(data=str(tmp_path / "base" / "data.yaml"), imgsz=64, epochs=1, batch=2, workers=0,
                    project=str(tmp_path / "runs"), name="base", close_mosaic=0)
    )  # fmt: skip
    models = tmp_path / "models"
    models.mkdir()
    shutil.copyfile(run_dir / "weights" / "best.pt", models / "tiles.pt")
    export_onnx(models / "tiles.pt", models / "tiles.onnx", imgsz=64)
    old_onnx = (models / "tiles.onnx").read_bytes()

    # the team dataset: synthetic scenes stored through the dataset store
    store = DatasetStore(tmp_path / "datasets" / "team")
    for _ in range(6):
        scene = random_scene(rng, tile_height=40)
        buf = io.BytesIO()
        from PIL import Image

        Image.fromarray(scene.image).save(buf, "PNG")
        store.add_example(buf.getvalue(), [(*t.box, t.tile) for t in scene.tiles], source="synth")

    trained: list[Path] = []

    def train_fn(d, s, w, e, i):  # noqa: ANN001, ANN202 - the finetune train_fn signature
        trained.append(default_train(d, s, w, e, i, batch=2, workers=0))
        return trained[-1]

    r = finetune(store.root, models, base_data=None, epochs=1, imgsz=64, work_dir=tmp_path / "ft",
                 train_fn=train_fn, log=lambda _m: None)
    # ultralytics seeded the run with tiles.pt's weights: the candidate is near them, unlike a fresh net
    start, cand = _weights(models / "tiles.prev.pt" if (models / "tiles.prev.pt").exists() else models / "tiles.pt"), _weights(trained[0])
    from ultralytics import YOLO

    fresh = {k: v.float() for k, v in YOLO("yolov8n.yaml").model.state_dict().items()}
    keys = [k for k in start if k.endswith("conv.weight") and k in fresh and fresh[k].shape == start[k].shape]
    assert len(keys) > 20
    moved = sum(float((cand[k] - start[k]).abs().mean()) for k in keys)
    random_gap = sum(float((fresh[k] - start[k]).abs().mean()) for k in keys)
    assert moved < 0.5 * random_gap, (moved, random_gap)
    assert r.before is not None and r.started_from == "tiles.pt"
    assert 0.0 <= r.after.map50 <= 1.0 and 0.0 <= r.after.tile_accuracy <= 1.0
    assert r.candidate_onnx.stat().st_size > 100_000
    card = (models / "MODEL_CARD.md").read_text(encoding="utf-8")
    assert LOG_HEADING in card and "| team | " in card
    assert f"{r.before.map50:.3f} → {r.after.map50:.3f}" in card
    assert f"{r.before.tile_accuracy:.3f} → {r.after.tile_accuracy:.3f}" in card
    if r.replaced:
        assert (models / "tiles.prev.onnx").read_bytes() == old_onnx
    else:
        assert (models / "tiles.onnx").read_bytes() == old_onnx


# --------------------------------------------------------------------------- the command


