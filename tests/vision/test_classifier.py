"""The second stage: crops cut from the full photo, turned upright, named by the crop classifier."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reader.classifier import CLASSIFIER_NAMES, CROP_H, CROP_W, NO_TILE, crop_tile, softmax, to_blob
from vision.reader.detector import DEFAULT_CLASSIFIER, DEFAULT_MODEL, TileDetector, decode_yolo_output
from vision.reader.image import DetectorError
from vision.training.synth import render as synth_render


def test_crop_is_the_box_grown_by_the_margin_and_resized() -> None:
    img = np.zeros((200, 300, 3), np.uint8)
    img[50:130, 100:160] = 255  # a 60 × 80 white tile
    crop = crop_tile(img, (100, 50, 160, 130), margin=0.0)
    assert crop.shape == (CROP_H, CROP_W, 3)
    assert crop.min() == 255  # exactly the tile, nothing around it
    grown = crop_tile(img, (100, 50, 160, 130), margin=0.2)
    assert grown[0, 0].max() == 0 and grown[CROP_H // 2, CROP_W // 2].min() == 255


def test_a_sideways_tile_is_stood_up() -> None:
    img = np.zeros((100, 200, 3), np.uint8)
    img[20:60, 20:100, 0] = 255  # 80 wide, 40 tall: a claimed tile lying down
    img[20:60, 20:40, 1] = 255  # its left end marked green
    crop = crop_tile(img, (20, 20, 100, 60), margin=0.0)
    assert crop.shape == (CROP_H, CROP_W, 3)
    assert crop[:8, :, 1].mean() > 200 and crop[-8:, :, 1].mean() < 50  # left end turned to the top


def test_a_box_outside_the_photo_gives_an_empty_crop() -> None:
    crop = crop_tile(np.full((50, 50, 3), 9, np.uint8), (80, 80, 120, 140))
    assert crop.shape == (CROP_H, CROP_W, 3) and crop.max() == 0


def test_blob_and_softmax() -> None:
    blob = to_blob(np.full((2, CROP_H, CROP_W, 3), 128, np.uint8))
    assert blob.shape == (2, 3, CROP_H, CROP_W) and abs(float(blob.mean())) < 0.02
    p = softmax(np.array([[0.0, 0.0], [10.0, 0.0]]))
    assert np.allclose(p.sum(axis=1), 1) and p[1, 0] > 0.99


def test_agnostic_box_score_sums_split_belief() -> None:
    out = np.zeros((1, 4 + 35, 2), np.float32)
    out[0, :4, 0] = [50, 50, 20, 30]
    out[0, 4 + 3, 0], out[0, 4 + 4, 0] = 0.2, 0.2  # torn between 4萬 and 5萬
    _, single, _ = decode_yolo_output(out, 0.3)
    boxes, agnostic, _ = decode_yolo_output(out, 0.3, agnostic_score=True)
    assert len(single) == 0 and len(agnostic) == 1 and abs(float(agnostic[0]) - 0.4) < 1e-6


def test_shipped_two_stage_detector_names_tiles_with_the_classifier() -> None:
    assert DEFAULT_CLASSIFIER.is_file(), "models/tile_classifier.onnx must be shipped"
    det = TileDetector(DEFAULT_MODEL)
    assert det.classifier is not None
    assert det.names == ("item",)  # the shipped detector only finds tiles: it cannot run alone
    with pytest.raises(DetectorError):
        TileDetector(DEFAULT_MODEL, classifier=False)
    from vision.training.synth import render_layout

    scene = render_layout([["1m", "5p", "9s", "7z", "back"]], tile_height=80, background=(40, 110, 60))
    probs = det.classifier(np.stack([crop_tile(scene.image, t.box) for t in scene.tiles]))  # type: ignore[misc]
    assert probs.shape == (5, len(det.classifier.names))  # type: ignore[union-attr]
    named = [det.classifier.classify(scene.image, [t.box])[0][0] for t in scene.tiles]  # type: ignore[union-attr]
    assert sum(n == t.tile for n, t in zip(named, scene.tiles)) >= 3, named


def test_none_crops_are_what_the_detector_boxes_off_every_label(tmp_path) -> None:
    import cv2

    from vision.training.classifier import collect_negative_crops

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    img = np.full((200, 400, 3), 60, np.uint8)
    img[50:130, 100:160] = 255  # one labelled tile
    cv2.imwrite(str(tmp_path / "images/a.png"), img)
    (tmp_path / "labels/a.txt").write_text("0 0.325 0.45 0.15 0.4\n")
    on_the_tile, far_off = (102, 52, 158, 128), (300, 20, 360, 100)
    neg = collect_negative_crops(tmp_path, lambda rgb: np.array([on_the_tile, far_off]), shifted_per_image=1, seed=3)
    assert set(neg.y.tolist()) == {CLASSIFIER_NAMES.index(NO_TILE)}
    # the box on the tile is not a negative; the far one is, and so is the label shifted half a tile
    assert len(neg.y) == 2
    assert any(float(c.mean()) < 70 for c in neg.x)  # the far box shows only table


class _Judge:
    """Names a crop a tile surely when it is mostly bright (a tile face), else doubts it."""

    names = CLASSIFIER_NAMES

    def __call__(self, crops: np.ndarray) -> np.ndarray:
        probs = np.full((len(crops), len(self.names)), 0.01)
        probs[:, 4] = [0.9 if float(c.mean()) > 150 else 0.02 for c in crops]  # 5m
        return probs / probs.sum(axis=1, keepdims=True)


def test_a_mined_box_on_a_tile_the_labels_left_out_is_not_learnt_as_none(tmp_path) -> None:
    import cv2

    from vision.training.classifier import collect_negative_crops

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    img = np.full((200, 400, 3), 60, np.uint8)
    img[50:130, 100:160] = 255  # the labelled tile
    img[50:130, 300:360] = 250  # a tile nobody labelled
    cv2.imwrite(str(tmp_path / "images/a.png"), img)
    (tmp_path / "labels/a.txt").write_text("0 0.325 0.45 0.15 0.4\n")
    unlabelled, table = (300, 50, 360, 130), (200, 140, 260, 199)
    boxes = lambda rgb: np.array([unlabelled, table])  # noqa: E731
    plain = collect_negative_crops(tmp_path, boxes, shifted_per_image=0)
    judged = collect_negative_crops(tmp_path, boxes, shifted_per_image=0, judge=_Judge())
    assert len(plain.y) == 2  # without a judge the unlabelled tile would be taught as `none`
    assert len(judged.y) == 1 and float(judged.x[0].mean()) < 70  # with one only the table is


def test_grey_copies_are_made_of_tile_faces_but_never_of_backs() -> None:
    from vision.training.classifier import augment

    green = np.zeros((400, 64, 48, 3), np.uint8)
    green[..., 1] = 200
    back = CLASSIFIER_NAMES.index("back")

    def grey(labels: np.ndarray) -> int:
        out = augment(green, np.random.default_rng(0), labels)
        return int(sum(np.ptp(o.reshape(-1, 3).mean(axis=0)) < 1 for o in out))

    assert grey(np.full(400, back)) == 0
    assert grey(np.full(400, 4)) > 10


class _StubClassifier:
    names = CLASSIFIER_NAMES

    def classify(self, rgb, boxes):  # noqa: ANN001, ANN201
        return [("5p", 0.9), ("1m", 0.3), ("2s", 0.01)][: len(boxes)]


def test_the_two_stage_confidence_joins_box_and_class_belief_and_is_held_to_conf() -> None:
    det = TileDetector(DEFAULT_MODEL)
    det.classifier = _StubClassifier()  # type: ignore[assignment]
    boxes = np.array([[0, 0, 10, 14], [20, 0, 30, 14], [40, 0, 50, 14]], float)
    out = det._classify(np.zeros((20, 60, 3), np.uint8), boxes, np.array([0.8, 0.8, 0.9]))
    assert [d.tile for d in out] == ["5p", "1m", "2s"]

    def mix(box: float, p: float) -> float:
        return round(box ** (2 / 3) * p ** (1 / 3), 3)

    assert [round(d.conf, 3) for d in out] == [mix(0.8, 0.9), mix(0.8, 0.3), mix(0.9, 0.01)]
    assert out[0].conf > out[1].conf > out[2].conf  # a sure box is held back by a doubtful name


def test_boxes_too_weak_to_reach_conf_are_not_classified(monkeypatch) -> None:  # noqa: ANN001
    det = TileDetector(DEFAULT_MODEL)
    boxes = np.array([[0, 0, 10, 14], [20, 0, 30, 14], [40, 0, 50, 14]], float)
    scores = np.array([0.9, 0.2, 0.15])  # 0.15^(2/3) = 0.28: under 0.3 even if the classifier is sure

    def find(rgb, conf, *a, **k):  # noqa: ANN001, ANN002, ANN003, ANN202
        keep = scores >= conf
        return boxes[keep], scores[keep], np.zeros(int(keep.sum()), int)

    seen: list[int] = []

    class Sure:
        names = CLASSIFIER_NAMES

        def classify(self, rgb, bxs):  # noqa: ANN001, ANN201
            seen.append(len(bxs))
            return [("5p", 1.0)] * len(bxs)

    monkeypatch.setattr(det, "find_boxes", find)
    det.classifier = Sure()  # type: ignore[assignment]
    out = det(np.zeros((20, 60, 3), np.uint8), conf=0.3)
    assert seen == [2] and len(out) == 2 and all(d.conf >= 0.3 for d in out)


def test_the_none_class_only_lowers_the_named_tiles_probability(monkeypatch) -> None:  # noqa: ANN001
    from vision.reader.classifier import TileClassifier

    logits = np.full((1, len(CLASSIFIER_NAMES)), -5.0)
    logits[0, CLASSIFIER_NAMES.index(NO_TILE)] = 3.0  # "no tile here" is the strongest belief
    logits[0, CLASSIFIER_NAMES.index("7z")] = 2.0
    monkeypatch.setattr(TileClassifier, "__call__", lambda self, crops: softmax(np.repeat(logits, len(crops), 0)))
    clf = TileClassifier.__new__(TileClassifier)
    clf.names = CLASSIFIER_NAMES
    [(tile, p)] = clf.classify(np.zeros((20, 20, 3), np.uint8), [(0, 0, 10, 14)])
    assert tile == "7z" and p < 0.3  # named as the likeliest tile, with the doubt in its probability


def test_an_unsure_crop_gets_a_second_look_from_four_views(monkeypatch) -> None:  # noqa: ANN001
    from vision.reader import classifier as C

    img = np.zeros((100, 200, 3), np.uint8)
    img[20:76, 20:60] = 200  # tile A: the first look is torn between 5筒 and 6筒
    img[20:76, 120:160] = 90  # tile B: the first look is sure it is 1萬
    img[20:30, 20:60, 0] = 255  # A's top edge marked red, to see the 180° turn
    calls: list[np.ndarray] = []

    def reading(crops: np.ndarray) -> np.ndarray:
        calls.append(crops)
        p = np.full((len(crops), len(CLASSIFIER_NAMES)), 1e-4)
        for k, c in enumerate(crops):
            if c.mean() < 60:  # B, dark
                p[k, CLASSIFIER_NAMES.index("1m")] = 0.99
            elif len(calls) == 1:
                p[k, CLASSIFIER_NAMES.index("5p")], p[k, CLASSIFIER_NAMES.index("6p")] = 0.5, 0.45
            else:
                p[k, CLASSIFIER_NAMES.index("6p")] = 0.9
        return p

    monkeypatch.setattr(C.TileClassifier, "__call__", lambda self, crops: reading(crops))
    clf = C.TileClassifier.__new__(C.TileClassifier)
    clf.names = CLASSIFIER_NAMES
    (a, pa), (b, pb) = clf.classify(img, [(20, 20, 60, 76), (120, 20, 160, 76)])
    assert (b, round(pb, 2)) == ("1m", 0.99)  # a sure crop is read once
    assert a == "6p" and abs(pa - (0.45 + 3 * 0.9) / 4) < 1e-3  # the mean of four views decides
    first, again = calls
    assert len(first) == 2 and len(again) == 3  # three more views of A alone
    turned, wide, wide_turned = again
    red = turned[..., 0].astype(int) - turned[..., 1]
    assert red[: CROP_H // 2].sum() == 0 and red[CROP_H // 2 :].sum() > 0  # the red top edge is at the bottom
    assert wide[0, 0].max() < wide[CROP_H // 2, CROP_W // 2].max()  # the wider crop shows the table round A
    assert np.array_equal(wide_turned, wide[::-1, ::-1])


def test_the_first_look_alone_reads_each_crop_once_however_unsure(monkeypatch) -> None:  # noqa: ANN001
    from vision.reader import classifier as C

    calls: list[int] = []

    def reading(crops: np.ndarray) -> np.ndarray:
        calls.append(len(crops))
        p = np.full((len(crops), len(CLASSIFIER_NAMES)), 1e-4)
        p[:, CLASSIFIER_NAMES.index("5p")], p[:, CLASSIFIER_NAMES.index("6p")] = 0.5, 0.45
        return p

    monkeypatch.setattr(C.TileClassifier, "__call__", lambda self, crops: reading(crops))
    clf = C.TileClassifier.__new__(C.TileClassifier)
    clf.names = CLASSIFIER_NAMES
    tops = clf.first_look_top(np.zeros((100, 200, 3), np.uint8), [(20, 20, 60, 76), (120, 20, 160, 76)])
    assert calls == [2]  # no second look at the unsure crops
    assert [t[:2] for t in tops] == [(("5p", 0.5), ("6p", 0.45))] * 2
    assert clf.first_look_top(np.zeros((10, 10, 3), np.uint8), []) == []


def test_detect_reads_a_tile_boxed_by_a_part_of_it_by_the_weaker_box_round_it(monkeypatch) -> None:  # noqa: ANN001
    """A 四筒 boxed surely round two of its circles (named 二筒), the detector's own box round the whole tile scored
    0.1 (under the threshold's floor, never named on its own): `vision.detect` gives the 四筒."""
    det = TileDetector(DEFAULT_MODEL)
    boxes = np.array([[0, 0, 40, 54], [60, 0, 100, 28], [56, -2, 104, 54]], float)
    scores = np.array([0.9, 0.8, 0.1])

    def find(rgb, conf, *a, **k):  # noqa: ANN001, ANN002, ANN003, ANN202
        keep = scores >= conf
        return boxes[keep], scores[keep], np.zeros(int(keep.sum()), int)

    class Reader:
        names = CLASSIFIER_NAMES
        asked: list[tuple[float, ...]] = []

        def classify_top(self, rgb, bxs, needed=None):  # noqa: ANN001, ANN201
            return [(("1m", 0.95),) if b[0] == 0 else (("2p", 0.9), ("4p", 0.02)) for b in bxs]

        def first_look_top(self, rgb, bxs):  # noqa: ANN001, ANN201
            self.asked.extend(bxs)
            return [(("4p", 0.88), ("2p", 0.05)) for _ in bxs]

    monkeypatch.setattr(det, "find_boxes", find)
    det.classifier = Reader()  # type: ignore[assignment]
    out = det(np.zeros((60, 120, 3), np.uint8))
    assert [d.tile for d in out] == ["1m", "4p"]
    assert out[1].box == (56.0, -2.0, 104.0, 54.0) and out[1].conf >= 0.25
    assert Reader.asked == [(56.0, -2.0, 104.0, 54.0)]  # only the box round the 二筒 is looked at again


def _find_only_model(path) -> None:  # noqa: ANN001
    """A stand-in single-class ('item') detector ONNX that always finds one box at (8..24, 6..26)."""
    import onnx
    from onnx import TensorProto, helper

    box = np.array([16, 16, 16, 20, 0.9], np.float32).reshape(1, 5, 1)
    const = helper.make_node("Constant", [], ["output0"], value=helper.make_tensor("v", TensorProto.FLOAT, box.shape, box.ravel()))
    graph = helper.make_graph([const], "find", [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 32, 32])],
                              [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 5, 1])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    entry = model.metadata_props.add()
    entry.key, entry.value = "names", "{0: 'item'}"
    onnx.save(model, str(path))


def test_a_find_only_detector_needs_the_classifier_beside_it(tmp_path) -> None:
    import shutil

    _find_only_model(tmp_path / "tiles.onnx")
    with pytest.raises(DetectorError) as err:
        TileDetector(tmp_path / "tiles.onnx", classifier=False)
    assert "牌面分类模型" in err.value.zh
    shutil.copyfile(DEFAULT_CLASSIFIER, tmp_path / "tile_classifier.onnx")
    det = TileDetector(tmp_path / "tiles.onnx")
    assert det.names == ("item",) and det.classifier is not None
    found = det(np.full((32, 32, 3), 200, np.uint8), conf=0.0)
    assert all(d.tile in CLASSIFIER_NAMES and d.tile != NO_TILE for d in found) and len(found) <= 1


def test_classifier_training_exports_onnx_and_weights_a_later_run_goes_on_from(tmp_path) -> None:
    from vision.reader.classifier import TileClassifier
    from vision.training.classifier import CropSet, train_classifier

    rng = np.random.default_rng(0)
    x = rng.integers(0, 255, (24, CROP_H, CROP_W, 3), dtype=np.uint8)
    x[:12] //= 4  # class 0 dark, class "none" light
    y = np.array([0] * 12 + [CLASSIFIER_NAMES.index(NO_TILE)] * 12)
    data = CropSet(x, y)
    out = tmp_path / "cls.onnx"
    figures = train_classifier(data, data, out, epochs=1, batch=8, log=lambda s: None)
    assert out.is_file() and out.with_suffix(".pt").is_file() and figures["train_crops"] == 24
    int8, fp32 = TileClassifier(out), TileClassifier(out.with_suffix(".fp32.onnx"))
    assert int8.names == fp32.names == CLASSIFIER_NAMES
    assert int8.session.get_modelmeta().custom_metadata_map["quantized"] == "int8"
    assert any("QuantizeLinear" in n.op_type for n in __import__("onnx").load(str(out)).graph.node)
    assert (int8(x).argmax(1) == fp32(x).argmax(1)).mean() >= 0.9  # the int8 graph reads as the float one
    again = train_classifier(data, data, tmp_path / "cls2.onnx", epochs=1, batch=8, log=lambda s: None,
                             start_from=out.with_suffix(".pt"))
    assert (tmp_path / "cls2.onnx").is_file() and again["valid_accuracy"] >= 0.0


def test_a_trained_classifier_gives_the_embedding_the_correction_memory_remembers_by(tmp_path) -> None:
    from vision.reader.classifier import TileClassifier
    from vision.reader.memory import crop_embeddings
    from vision.training.classifier import CropSet, train_classifier

    rng = np.random.default_rng(2)
    data = CropSet(rng.integers(0, 255, (16, CROP_H, CROP_W, 3), dtype=np.uint8), rng.integers(0, 36, 16))
    out = tmp_path / "cls.onnx"
    train_classifier(data, None, out, epochs=1, batch=8, log=lambda s: None)
    photo = rng.integers(0, 255, (200, 300, 3), dtype=np.uint8)
    boxes = [(10.0, 10.0, 58.0, 74.0), (100.0, 50.0, 148.0, 114.0)]
    for path in (out, out.with_suffix(".fp32.onnx")):  # the int8 file the reader loads, and its float graph
        reader = TileClassifier(path)
        assert [o.name for o in reader.session.get_outputs()] == ["logits", "embedding"]
        assert crop_embeddings(reader, photo, boxes).shape == (2, 160)  # the pooled feature before the last layer


def test_the_distillation_loss_is_the_label_loss_where_the_student_already_gives_the_teachers_logits() -> None:
    torch = pytest.importorskip("torch")
    from vision.training.classifier import distillation_loss

    gen = torch.Generator().manual_seed(0)
    teacher, labels = torch.randn(6, 36, generator=gen) * 3, torch.arange(6)
    label_loss = torch.nn.functional.cross_entropy(teacher, labels, label_smoothing=0.05)
    assert torch.isclose(distillation_loss(teacher.clone(), teacher, labels, weight=0.7), 0.3 * label_loss, atol=1e-5)
    other = torch.randn(6, 36, generator=gen)
    assert distillation_loss(other, teacher, labels, weight=0.7) > 0.3 * torch.nn.functional.cross_entropy(
        other, labels, label_smoothing=0.05) + 0.1  # logits unlike the teacher's cost more
    assert torch.isclose(distillation_loss(other, teacher, labels, weight=0.0),
                         torch.nn.functional.cross_entropy(other, labels, label_smoothing=0.05))


def sure_teacher(path, seed: int):  # noqa: ANN001, ANN201 - a Path
    """A tiny classifier (`write_tiny_classifier`) made sure of itself: its weights ×30."""
    import onnx
    from onnx import numpy_helper

    from tests.conftest import write_tiny_classifier

    write_tiny_classifier(path, seed)
    model = onnx.load(str(path))
    weight = model.graph.initializer[0]
    weight.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(weight) * 30, weight.name))
    onnx.save(model, str(path))
    return path


def test_a_classifier_distilled_from_a_teacher_reads_as_the_teacher_does(tmp_path) -> None:
    """`train_classifier(teacher=…, widths=…)`: a narrower network learns the teacher's answers (here unlike the crops'
    labels, so that only the teacher can have taught them), and its embedding is as wide as its last block."""
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision.reader.classifier import TileClassifier
    from vision.training.classifier import CropSet, train_classifier

    rng = np.random.default_rng(3)
    x = rng.integers(0, 255, (32, CROP_H, CROP_W, 3), dtype=np.uint8)
    x[:16] //= 5  # dark crops and light ones, which the teacher names differently
    x[16:] = 160 + x[16:] // 3
    teacher = TileClassifier(sure_teacher(tmp_path / "teacher.onnx", 4))
    taught = teacher(x).argmax(1)
    assert taught[0] != taught[-1] and not (taught == 0).any()
    data = CropSet(x, np.zeros(32, np.int64))  # every label says 1m, which the teacher never does
    kwargs = {"epochs": 6, "batch": 8, "lr": 1e-2, "log": lambda s: None, "quantize": False, "widths": (8, 8, 16, 24)}
    train_classifier(data, None, tmp_path / "s.onnx", teacher=teacher.path, **kwargs)
    train_classifier(data, None, tmp_path / "p.onnx", **kwargs)
    student, plain = TileClassifier(tmp_path / "s.onnx"), TileClassifier(tmp_path / "p.onnx")
    assert (student(x).argmax(1) == taught).mean() >= 0.9
    assert (plain(x).argmax(1) == 0).mean() >= 0.9  # without the teacher, the labels are learnt
    assert student.session.run(["embedding"], {student.input_name: np.zeros((1, 3, CROP_H, CROP_W), np.float32)})[
        0].shape == (1, 24)


def test_weights_of_another_width_or_a_teacher_of_other_classes_are_refused_with_a_message(tmp_path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import onnx

    from scoring.errors import JingsuanError
    from vision.training.classifier import CropSet, build_model, train_classifier

    narrow = tmp_path / "narrow.pt"
    torch.save(build_model(widths=(8, 8, 16, 24)).state_dict(), str(narrow))
    data = CropSet(np.zeros((4, CROP_H, CROP_W, 3), np.uint8), np.zeros(4, np.int64))
    with pytest.raises(JingsuanError) as refused:
        train_classifier(data, None, tmp_path / "c.onnx", epochs=1, log=lambda s: None, start_from=narrow)
    assert "--widths" in refused.value.zh and "(8, 8, 16, 24)" not in refused.value.zh  # it names the widths asked
    assert "(24, 48, 96, 160)" in refused.value.zh
    teacher = sure_teacher(tmp_path / "t.onnx", 1)
    model = onnx.load(str(teacher))
    model.metadata_props[0].value = "1m,2m"
    onnx.save(model, str(teacher))
    with pytest.raises(JingsuanError) as refused:
        train_classifier(data, None, tmp_path / "c.onnx", epochs=1, log=lambda s: None, teacher=teacher)
    assert "老师模型" in refused.value.zh and not (tmp_path / "c.onnx").exists()


def test_a_box_mostly_inside_a_surer_one_is_the_same_tile_again() -> None:
    from vision.reader.detection import Detection
    from vision.reader.detector import drop_covered

    whole = Detection((0, 0, 40, 56), "5p", 0.9)
    half = Detection((20, 0, 44, 56), "6p", 0.4)  # 20 of its 24 px width lie inside the whole tile
    neighbour = Detection((42, 0, 82, 56), "7p", 0.8)  # touches, overlaps 2 px: a tile of its own
    kept = drop_covered([half, neighbour, whole])
    assert {d.tile for d in kept} == {"5p", "7p"}


def test_a_box_on_the_corner_of_four_tiles_in_a_wall_is_none_of_them() -> None:
    from vision.reader.detection import Detection
    from vision.reader.detector import drop_covered

    wall = [Detection((x, y, x + 40, y + 56), t, 0.9)
            for (x, y), t in zip([(0, 0), (40, 0), (0, 56), (40, 56)], ["1m", "2m", "3m", "4m"])]
    corner = Detection((20, 28, 60, 84), "5m", 0.5)  # a quarter inside each: no one tile covers 40 %
    below = Detection((0, 112, 40, 168), "6m", 0.5)  # the next row: touches, overlaps nothing
    kept = drop_covered([corner, below, *wall])
    assert sorted(d.tile for d in kept) == ["1m", "2m", "3m", "4m", "6m"]
    assert drop_covered([corner]) == [corner]


def test_a_tile_partly_under_two_others_in_a_heap_is_kept() -> None:
    from vision.reader.detection import Detection
    from vision.reader.detector import drop_covered

    left = Detection((0, 0, 40, 56), "1m", 0.9)
    right = Detection((46, 24, 86, 80), "9p", 0.8)
    under = Detection((26, 8, 66, 64), "5s", 0.5)  # a third under each: together 0.66 of it, a tile of its own
    assert sorted(d.tile for d in drop_covered([under, left, right])) == ["1m", "5s", "9p"]
    # the same box named as one of the tiles over it is that tile boxed again
    again = Detection(under.box, "9p", 0.5)
    assert sorted(d.tile for d in drop_covered([again, left, right])) == ["1m", "9p"]
    # a box round two tiles side by side (each wholly inside it) is no tile under them
    wide = Detection((0, 0, 100, 56), "5s", 0.5)
    assert "5s" not in {d.tile for d in drop_covered([wide, left, Detection((42, 0, 82, 56), "9p", 0.8)])}


def test_a_tile_almost_half_under_one_other_in_a_heap_is_kept() -> None:
    from vision.reader.detection import Detection
    from vision.reader.detector import drop_covered

    over = Detection((0, 0, 40, 56), "4p", 0.6)
    sideways = Detection((14, 28, 70, 56), "8p", 0.55)  # 46 % of it under the 4p, which lies 33 % inside it
    assert sorted(d.tile for d in drop_covered([sideways, over])) == ["4p", "8p"]
    # named as the tile over it, it is that tile boxed again
    assert [d.tile for d in drop_covered([Detection(sideways.box, "4p", 0.55), over])] == ["4p"]
    # more than half under it, it is a part of it or the tile again
    deeper = Detection((8, 28, 64, 56), "8p", 0.55)  # 57 %
    assert [d.tile for d in drop_covered([deeper, over])] == ["4p"]
    # over it alike (the 4p lying as much inside it): two boxes of one tile, not a heap
    alike = Detection((21, 0, 61, 56), "8p", 0.55)  # 47.5 % each way
    assert [d.tile for d in drop_covered([alike, over])] == ["4p"]


def test_a_tile_named_surely_under_a_loose_box_of_its_neighbour_is_kept() -> None:
    """A 四條 whose neighbour 五條 was boxed loosely, shifted onto it: 56 % of the 四條's box lies under the surer 五條
    box, but the classifier names it 四條 surely, the boxes are each a tile's size and neither lies more than 60 % inside
    the other (composed tuning photo s55_tuning_one_row_062, 2026-12-06). Named unsurely, or as the tile over it, or
    lying more than 60 % under it, it is still dropped."""
    from vision.reader.detection import Detection
    from vision.reader.detector import drop_covered

    five = Detection((444, 92, 535, 198), "5s", 0.54, (("5s", 0.92),))
    four = Detection((411, 87, 491, 188), "4s", 0.46, (("4s", 0.86), ("2s", 0.01)))
    assert sorted(d.tile for d in drop_covered([four, five])) == ["4s", "5s"]
    unsure = Detection(four.box, "4s", 0.46, (("4s", 0.5), ("2s", 0.2)))
    assert [d.tile for d in drop_covered([unsure, five])] == ["5s"]
    again = Detection(four.box, "5s", 0.46, (("5s", 0.86),))
    assert [d.tile for d in drop_covered([again, five])] == ["5s"]
    deeper = Detection((430, 87, 510, 188), "4s", 0.46, (("4s", 0.86),))  # 80 % under it
    assert [d.tile for d in drop_covered([deeper, five])] == ["5s"]
    half = Detection((444, 92, 500, 150), "4s", 0.46, (("4s", 0.86),))  # a part of a tile's size, wholly inside
    assert [d.tile for d in drop_covered([half, five])] == ["5s"]


def test_none_crops_can_be_mined_with_a_find_only_detector(tmp_path) -> None:
    import cv2

    from vision.training.classifier import crop_sets

    _find_only_model(tmp_path / "tiles.onnx")  # always boxes the middle of the photo
    for split in ("train", "valid"):
        (tmp_path / "d" / split / "images").mkdir(parents=True)
        (tmp_path / "d" / split / "labels").mkdir(parents=True)
        cv2.imwrite(str(tmp_path / "d" / split / "images" / "a.png"), np.full((64, 64, 3), 90, np.uint8))
        (tmp_path / "d" / split / "labels" / "a.txt").write_text("3 0.08 0.1 0.12 0.16\n")  # a tile in the corner
    train, valid = crop_sets(tmp_path / "d", tmp_path / "tiles.onnx")
    none = CLASSIFIER_NAMES.index(NO_TILE)
    assert train.y.tolist().count(3) == 1 and none in train.y.tolist()  # the box off the label is a `none` crop
    assert valid is not None and none in valid.y.tolist()


needs_noto = pytest.mark.skipif(
    not any((synth_render.NOTO_DIR / f).exists() for f, _ in synth_render.NOTO_FONTS),
    reason="needs fonts-noto-cjk (scripts/install_test_system_deps.sh)",
)


@needs_noto
def test_synthetic_crops_are_every_tile_of_scenes_in_varied_drawn_sets(monkeypatch) -> None:
    from vision.training.classifier import collect_synthetic_crops
    from vision.training.synth import render as R

    seen: list[tuple[str, list[str]]] = []
    real = R.render_layout

    def spy(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - a pass-through spy
        scene = real(*args, **kwargs)
        seen.append((kwargs["tileset"], [t.tile for t in scene.tiles]))
        return scene

    monkeypatch.setattr(R, "render_layout", spy)
    crops = collect_synthetic_crops(4, seed=3, varied=True)
    assert len({ts for ts, _ in seen}) == 4 and all(ts.startswith("glyph-") for ts, _ in seen)  # a set per scene
    tiles = [t for _, ts in seen for t in ts]
    assert [CLASSIFIER_NAMES[i] for i in crops.y] == tiles
    assert crops.x.shape == (len(tiles), CROP_H, CROP_W, 3) and crops.x.std(axis=(1, 2, 3)).min() > 5  # not blank
    seen.clear()
    collect_synthetic_crops(6, seed=3, varied=False)
    assert {ts for ts, _ in seen} <= set(R.TILESETS)


def test_augment_shuffles_colour_channels_of_some_crops(monkeypatch) -> None:
    from vision.training import classifier as T

    red = np.zeros((200, CROP_H, CROP_W, 3), np.uint8)
    red[..., 0] = 200
    monkeypatch.setattr(T, "CHANNEL_SWAP_P", 0.5)
    out = T.augment(red, np.random.default_rng(0)).astype(int)
    dominant = out.mean(axis=(1, 2)).argmax(axis=1)
    assert 0.2 < (dominant != 0).mean() < 0.6  # about a third of a half moved red to another channel
    monkeypatch.setattr(T, "CHANNEL_SWAP_P", 0.0)
    assert (T.augment(red, np.random.default_rng(0)).astype(int).mean(axis=(1, 2)).argmax(axis=1) == 0).all()


def test_augment_blurs_or_shrinks_only_the_share_it_is_told(monkeypatch) -> None:
    from vision.training import classifier as T

    fine = np.indices((CROP_H, CROP_W)).sum(axis=0) % 2 * 200 + 20
    batch = np.repeat(np.repeat(fine[None, ..., None], 3, axis=3), 300, axis=0).astype(np.uint8)
    monkeypatch.setattr(T, "CHANNEL_SWAP_P", 0.0)

    def sharp_share(blur_p: float, low_p: float) -> float:
        monkeypatch.setattr(T, "MOTION_BLUR_P", blur_p)
        monkeypatch.setattr(T, "LOW_RES_P", low_p)
        out = T.augment(batch, np.random.default_rng(0)).astype(float)
        detail = np.abs(np.diff(out.mean(axis=3), axis=2)).mean(axis=(1, 2)) / out.mean(axis=(1, 2, 3))
        return float((detail > 0.5).mean())

    base = sharp_share(0.0, 0.0)
    assert base > 0.6  # without them, most crops keep the checkerboard (a quarter get a light blur)
    assert base - sharp_share(0.5, 0.0) > 0.25
    assert base - sharp_share(0.0, 0.5) > 0.25
