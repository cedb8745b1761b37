"""The classifier pair (`vision.training.ensemble`): two crop classifiers in one ONNX graph, and a fine-tuned first
half put back beside the unchanged second one (what `jingsuan finetune` does to the shipped pair)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from vision.reader.classifier import CLASSIFIER_NAMES, CROP_H, CROP_W, TileClassifier, to_blob  # noqa: E402
from vision.training.ensemble import average_logits, pair_weight, with_first  # noqa: E402


def outputs(model: Path, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    clf = TileClassifier(model)
    logits, embedding = clf.session.run(["logits", "embedding"], {clf.input_name: to_blob(crops)})
    return logits, embedding


@pytest.fixture
def crops() -> np.ndarray:
    return np.random.default_rng(4).integers(0, 255, (5, CROP_H, CROP_W, 3), dtype=np.uint8)


def test_a_pair_reads_the_weighted_mean_of_its_halves_logits_and_the_first_halfs_embedding(tmp_path, crops, tiny_classifier):
    first, second = tiny_classifier(tmp_path / "a.onnx", 1), tiny_classifier(tmp_path / "b.onnx", 2)
    pair = average_logits(first, second, tmp_path / "pair.onnx", weight=0.7)
    (a_logits, a_emb), (b_logits, _) = outputs(first, crops), outputs(second, crops)
    logits, emb = outputs(pair, crops)
    assert np.allclose(logits, 0.7 * a_logits + 0.3 * b_logits, atol=1e-5)
    assert np.array_equal(emb, a_emb) and TileClassifier(pair).names == CLASSIFIER_NAMES
    assert pair_weight(pair) == 0.7 and pair_weight(first) is None
    onnx.checker.check_model(onnx.load(str(pair)))  # a valid graph, its outputs typed as the first half's


def test_a_fine_tuned_first_half_goes_back_into_the_pair_beside_the_unchanged_second(tmp_path, crops, tiny_classifier):
    first, second = tiny_classifier(tmp_path / "a.onnx", 1), tiny_classifier(tmp_path / "b.onnx", 2)
    tuned = tiny_classifier(tmp_path / "tuned.onnx", 3)
    pair = average_logits(first, second, tmp_path / "pair.onnx", weight=0.6)
    again = with_first(pair, tuned, tmp_path / "again.onnx")
    (t_logits, t_emb), (b_logits, _) = outputs(tuned, crops), outputs(second, crops)
    logits, emb = outputs(again, crops)
    assert np.allclose(logits, 0.6 * t_logits + 0.4 * b_logits, atol=1e-5)
    assert np.array_equal(emb, t_emb) and pair_weight(again) == 0.6
    onnx.checker.check_model(onnx.load(str(again)))
    assert not np.allclose(logits, outputs(pair, crops)[0], atol=1e-3)  # the old first half is gone
    # the pair file may be its own output (the fine-tune writes the candidate in place)
    assert np.allclose(outputs(with_first(again, first, again), crops)[0], outputs(pair, crops)[0], atol=1e-6)


def test_only_a_pair_takes_a_new_first_half(tmp_path, tiny_classifier):
    single = tiny_classifier(tmp_path / "a.onnx", 1)
    with pytest.raises(ValueError, match="not a pair"):
        with_first(single, single, tmp_path / "out.onnx")


def test_a_classifier_without_an_embedding_cannot_join_a_pair(tmp_path, tiny_classifier):

    single = tiny_classifier(tmp_path / "a.onnx", 1)
    m = onnx.load(str(single))
    m.graph.output.remove(next(o for o in m.graph.output if o.name == "embedding"))
    onnx.save(m, str(tmp_path / "plain.onnx"))
    with pytest.raises(ValueError, match="embedding"):
        average_logits(tmp_path / "plain.onnx", single, tmp_path / "pair.onnx")
