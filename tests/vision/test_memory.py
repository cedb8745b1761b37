"""The per-table correction memory: what a table taught is recalled for near crops only."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reader.memory import (
    DEFAULT_MAX_DISTANCE,
    TileMemory,
    TileMemoryError,
    calibrate_max_distance,
    nearest_prototype,
    prototypes,
)

D = 32


def cluster(centre: np.ndarray, n: int, spread: float, seed: int) -> np.ndarray:
    """`n` embeddings scattered round `centre`."""
    return centre + np.random.default_rng(seed).normal(0, spread, (n, centre.size)).astype(np.float32)


@pytest.fixture
def centres() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {t: rng.normal(0, 1, D).astype(np.float32) for t in ("8p", "1s", "1p")}


def test_a_corrected_8p_is_recalled_for_the_next_crop_of_that_8p(centres):
    memory = TileMemory("cls.onnx")
    assert memory.add("张家", cluster(centres["8p"], 3, 0.05, 1), ["8p"] * 3) == 3
    memory.add("张家", cluster(centres["1s"], 2, 0.05, 2), ["1s"] * 2)
    recalled = memory.recall("张家", cluster(centres["8p"], 4, 0.05, 3))
    assert [r.tile for r in recalled] == ["8p"] * 4
    assert all(r.distance < 0.05 for r in recalled)
    assert memory.count("张家") == 5 and memory.tables() == ["张家"]


def test_a_far_crop_is_not_captured(centres):
    memory = TileMemory("cls.onnx", max_distance=0.15)
    memory.add("张家", cluster(centres["8p"], 3, 0.05, 1), ["8p"] * 3)
    far = memory.recall("张家", cluster(centres["1p"], 2, 0.05, 4))
    assert [r.tile for r in far] == [None, None]
    assert all(r.distance > 0.15 for r in far)


def test_a_crop_as_near_two_taught_tiles_is_left_to_the_classifier():
    """Near two taught tiles alike (within `MAX_RATIO`), the memory has no say; much nearer one, it takes it."""
    codes, protos = ["1p", "3p"], np.array([[1, 0, 0], [0, 1, 0]], np.float32)
    between = np.array([[1, 0.8, 0.3]], np.float32)  # about 0.25 from 1p, 0.4 from 3p
    assert nearest_prototype(between, codes, protos, max_distance=0.5)[0].tile is None
    assert nearest_prototype(between, codes, protos, max_distance=0.5, max_ratio=0.7)[0].tile == "1p"
    near_one = np.array([[1, 0.3, 0.2]], np.float32)  # about 0.08 from 1p, 0.7 from 3p
    assert nearest_prototype(near_one, codes, protos, max_distance=0.5)[0].tile == "1p"


def test_with_one_tile_taught_a_near_crop_takes_it(centres):
    memory = TileMemory("cls.onnx")
    memory.add("张家", cluster(centres["8p"], 3, 0.05, 1), ["8p"] * 3)
    assert [r.tile for r in memory.recall("张家", cluster(centres["8p"], 2, 0.05, 3))] == ["8p", "8p"]


def test_a_deleted_box_like_a_tile_deletes_only_the_same_box_again(centres):
    """A box a player deleted over a real 東 (a tile boxed twice) must not delete the next photo's 東s."""
    memory = TileMemory("cls.onnx")
    double = cluster(centres["8p"], 1, 0.2, 7)
    memory.add("张家", double, ["none"])
    assert [r.tile for r in memory.recall("张家", double)] == ["none"]  # the same box, read again
    others = memory.recall("张家", cluster(centres["8p"], 3, 0.2, 3))
    assert [r.tile for r in others] == [None] * 3
    assert all(0.02 < r.distance < DEFAULT_MAX_DISTANCE for r in others)  # near enough for a tile to be taken
    memory.add("张家", cluster(centres["8p"], 3, 0.2, 1), ["8p"] * 3)
    as_near_both = memory.recall("张家", cluster(centres["8p"], 3, 0.2, 4))
    assert [r.tile for r in as_near_both] == [None] * 3  # the classifier keeps its reading


def test_another_table_is_not_taught_by_this_one(centres):
    memory = TileMemory("cls.onnx")
    memory.add("张家", cluster(centres["8p"], 3, 0.05, 1), ["8p"] * 3)
    assert [r.tile for r in memory.recall("李家", cluster(centres["8p"], 1, 0.05, 3))] == [None]
    assert memory.count("李家") == 0


def test_forgetting_a_table_forgets_it_alone(centres):
    memory = TileMemory("cls.onnx")
    memory.add("张家", cluster(centres["8p"], 3, 0.05, 1), ["8p"] * 3)
    memory.add("李家", cluster(centres["1s"], 2, 0.05, 2), ["1s"] * 2)
    assert memory.forget("张家") == 3
    assert memory.count("张家") == 0 and memory.tables() == ["李家"]
    assert [r.tile for r in memory.recall("张家", cluster(centres["8p"], 1, 0.05, 3))] == [None]
    assert [r.tile for r in memory.recall("李家", cluster(centres["1s"], 1, 0.05, 3))] == ["1s"]
    assert memory.forget("张家") == 0


def test_save_load_and_export_import_keep_what_was_taught(tmp_path, centres):
    memory = TileMemory("cls.onnx")
    memory.add("张家", cluster(centres["8p"], 3, 0.05, 1), ["8p"] * 3)
    memory.add("李家", cluster(centres["1s"], 2, 0.05, 2), ["1s"] * 2)
    again = TileMemory.load(memory.save(tmp_path / "tile_memory.npz"), model="cls.onnx")
    assert again.tables() == sorted(["张家", "李家"])
    assert again.count("张家") == 3 and again.count("李家") == 2
    exported = memory.export_table("张家", tmp_path / "dataset" / "tile_memory.npz")
    other = TileMemory("cls.onnx")
    assert other.import_file(exported, table="王家") == 3
    assert [r.tile for r in other.recall("王家", cluster(centres["8p"], 1, 0.05, 3))] == ["8p"]


def test_a_memory_made_with_another_classifier_is_not_used(tmp_path, centres):
    memory = TileMemory("old.onnx")
    memory.add("张家", cluster(centres["8p"], 3, 0.05, 1), ["8p"] * 3)
    path = memory.save(tmp_path / "tile_memory.npz")
    assert TileMemory.load(path, model="new.onnx").count("张家") == 0
    assert TileMemory.load(tmp_path / "missing.npz", model="new.onnx").tables() == []


def test_embeddings_of_another_size_are_refused_with_a_chinese_message(centres):
    memory = TileMemory("cls.onnx")
    memory.add("张家", cluster(centres["8p"], 3, 0.05, 1), ["8p"] * 3)
    with pytest.raises(TileMemoryError) as e:
        memory.add("张家", np.ones((1, D + 1), np.float32), ["8p"])
    assert "分类模型" in e.value.zh
    with pytest.raises(TileMemoryError):
        memory.add("张家", np.ones((2, D), np.float32), ["8p"])


def test_a_broken_memory_file_says_so(tmp_path):
    bad = tmp_path / "tile_memory.npz"
    bad.write_bytes(b"not a memory")
    with pytest.raises(TileMemoryError) as e:
        TileMemory.load(bad)
    assert "纠错记忆" in e.value.zh


def test_prototypes_are_the_mean_direction_of_a_tiles_crops():
    codes, protos = prototypes(np.array([[1, 0], [0, 1], [5, 0]], np.float32), ["1m", "1m", "2m"])
    assert codes == ["1m", "2m"]
    assert np.allclose(protos[0], [2**-0.5, 2**-0.5], atol=1e-6) and np.allclose(protos[1], [1, 0])
    r = nearest_prototype(np.array([[1, 0.01]], np.float32), codes, protos, max_distance=0.01)
    assert r[0].tile == "2m"


def test_the_calibrated_distance_captures_own_crops_and_stops_before_other_tiles(centres):
    emb = np.concatenate([cluster(centres[t], 20, 0.1, i) for i, t in enumerate(centres)])
    tiles = [t for t in centres for _ in range(20)]
    d = calibrate_max_distance(emb, tiles, precision=0.99)
    assert d > 0
    own = 1 - np.dot(*(v / np.linalg.norm(v) for v in (emb[0], centres["8p"])))
    others = [1 - np.dot(centres["8p"] / np.linalg.norm(centres["8p"]), c / np.linalg.norm(c))
              for t, c in centres.items() if t != "8p"]
    assert own <= d < min(others)


def test_the_shipped_classifier_lets_a_table_teach_a_tile_and_a_deleted_box(tmp_path):
    """算分 flow: a box read wrongly is renamed once taught; a box a player deleted stays deleted."""
    from vision.reader.classifier import TileClassifier
    from vision.reader.detection import Detection
    from vision.reader.detector import DEFAULT_CLASSIFIER
    from vision.reader.memory import apply_memory, crop_embeddings

    classifier = TileClassifier(DEFAULT_CLASSIFIER)
    rng = np.random.default_rng(0)
    rgb = np.full((200, 300, 3), 200, np.uint8)
    rgb[20:100, 20:80] = rng.integers(0, 255, (80, 60, 3))  # a busy tile face
    rgb[20:100, 200:260] = (30, 120, 40)  # a flat green block
    tile, flat = (20.0, 20.0, 80.0, 100.0), (200.0, 20.0, 260.0, 100.0)
    emb = crop_embeddings(classifier, rgb, [tile, flat])
    assert emb.shape[0] == 2 and emb.shape[1] >= 64
    memory = TileMemory(DEFAULT_CLASSIFIER.name, max_distance=0.01)
    memory.add("张家", emb[:1], ["8p"])
    read = [Detection(tile, "1s", 0.9), Detection(flat, "5z", 0.9)]
    assert [d.tile for d in apply_memory(read, rgb, classifier, memory, "张家")] == ["8p", "5z"]
    memory.add("张家", emb[1:], ["none"])
    assert [d.tile for d in apply_memory(read, rgb, classifier, memory, "张家")] == ["8p"]
    assert [d.tile for d in apply_memory(read, rgb, classifier, memory, "李家")] == ["1s", "5z"]


def test_a_classifier_without_an_embedding_output_says_it_cannot_remember(tmp_path):
    onnx = pytest.importorskip("onnx")
    from vision.reader.classifier import TileClassifier
    from vision.reader.detector import DEFAULT_CLASSIFIER
    from vision.reader.memory import crop_embeddings

    m = onnx.load(str(DEFAULT_CLASSIFIER))
    keep = [o for o in m.graph.output if o.name != "embedding"]
    del m.graph.output[:]
    m.graph.output.extend(keep)
    onnx.save(m, str(tmp_path / "plain.onnx"))
    with pytest.raises(TileMemoryError) as e:
        crop_embeddings(TileClassifier(tmp_path / "plain.onnx"), np.zeros((50, 50, 3), np.uint8), [(0, 0, 20, 30)])
    assert "不能记住" in e.value.zh


def test_a_box_taught_again_replaces_what_it_taught_and_a_photo_can_be_taken_back(centres):
    memory = TileMemory("cls.onnx")
    memory.add("张家", cluster(centres["8p"], 2, 0.05, 1), ["1s", "8p"], sources=["a.jpg#0", "a.jpg#1"])
    memory.add("张家", cluster(centres["8p"], 1, 0.05, 2), ["8p"], sources=["a.jpg#0"])  # the player fixed it again
    assert memory.count("张家") == 2 and sorted(memory.taught("张家").tiles) == ["8p", "8p"]
    memory.add("张家", cluster(centres["1s"], 1, 0.05, 3), ["1s"], sources=["b.jpg#0"])
    assert memory.drop("张家", lambda s: s.startswith("a.jpg#")) == 2
    assert memory.taught("张家").tiles == ["1s"] and memory.taught("张家").sources == ["b.jpg#0"]


def test_sources_survive_save_and_a_file_without_them_still_loads(tmp_path, centres):
    memory = TileMemory("cls.onnx")
    memory.add("张家", cluster(centres["8p"], 1, 0.05, 1), ["8p"], sources=["a.jpg#3"])
    assert TileMemory.load(memory.save(tmp_path / "m.npz"), "cls.onnx").taught("张家").sources == ["a.jpg#3"]
    np.savez(tmp_path / "old.npz", tables=np.array(["张家"]), tiles=np.array(["8p"]),
             embeddings=cluster(centres["8p"], 1, 0.05, 1), model=np.array("cls.onnx"))
    assert TileMemory.load(tmp_path / "old.npz", "cls.onnx").count("张家") == 1


def test_a_memory_file_whose_rows_disagree_is_refused_in_chinese(tmp_path, centres):
    np.savez(tmp_path / "bad.npz", tables=np.array(["张家", "张家"]), tiles=np.array(["8p"]),
             embeddings=cluster(centres["8p"], 1, 0.05, 1), model=np.array("cls.onnx"))
    with pytest.raises(TileMemoryError) as e:
        TileMemory.load(tmp_path / "bad.npz", "cls.onnx")
    assert "纠错记忆" in e.value.zh


def test_the_tables_head_settles_a_close_call_between_taught_look_alikes(centres):
    """2萬 read as 3萬 by a hair: the table taught both, and the crop looks like its 2萬."""
    from vision.reader.memory import fit_head, rerank

    two, three = centres["8p"], centres["1s"]  # two directions standing for 2m and 3m
    emb = np.concatenate([cluster(two, 8, 0.3, 1), cluster(three, 8, 0.3, 2)])
    head = fit_head(emb, ["2m"] * 8 + ["3m"] * 8)
    crop = head.probabilities(cluster(two, 1, 0.3, 9))[0]
    assert rerank((("3m", 0.40), ("2m", 0.38), ("4m", 0.10)), head, crop) == "2m"
    assert rerank((("3m", 0.97), ("2m", 0.01), ("4m", 0.01)), head, crop) == "3m"  # a sure classifier stands
    assert rerank((("4m", 0.40), ("2m", 0.38), ("3m", 0.10)), head, crop) is None  # its first choice untaught
    assert fit_head(emb[:8], ["2m"] * 8) is None  # one tile taught: nothing to tell apart


def test_read_photo_reads_a_tile_as_the_table_taught_it(hand_photo, tmp_path):
    """The next read of the photo: a crop taught as another tile comes back as that tile, at that table only."""
    import vision
    from vision.reader.detector import get_detector
    from vision.reader.image import load_image
    from vision.reader.memory import crop_embeddings
    from vision.reader.photo import detector_path

    first = vision.read_photo(hand_photo)
    box = next(d for d in first.detections if d.tile == "4p")
    classifier = get_detector(detector_path()).classifier
    memory = TileMemory(classifier.path.name)
    memory.add("张家", crop_embeddings(classifier, load_image(hand_photo), [box.box]), ["7z"])
    again = vision.read_photo(hand_photo, memory=memory, table="张家")
    assert [d.tile for d in again.detections if d.box == box.box] == ["7z"]
    assert [d.tile for d in vision.read_photo(hand_photo, memory=memory, table="李家").detections if d.box == box.box] == ["4p"]


def test_a_table_taught_with_another_classifiers_embeddings_leaves_the_reading_alone(centres):
    """A memory whose crops are of another size (another classifier, same name): no tile renamed, no crash."""
    from vision.reader.classifier import TileClassifier
    from vision.reader.detection import Detection
    from vision.reader.detector import DEFAULT_CLASSIFIER
    from vision.reader.memory import apply_memory

    classifier = TileClassifier(DEFAULT_CLASSIFIER)
    memory = TileMemory(DEFAULT_CLASSIFIER.name)
    memory.add("张家", np.concatenate([cluster(centres["8p"], 3, 0.05, 1), cluster(centres["1s"], 3, 0.05, 2)]),
               ["8p"] * 3 + ["1s"] * 3)  # D = 32 numbers a crop, not the shipped classifier's
    rgb = np.full((120, 100, 3), 200, np.uint8)
    read = [Detection((20.0, 20.0, 80.0, 100.0), "1s", 0.9, (("1s", 0.5), ("8p", 0.4)))]
    assert apply_memory(read, rgb, classifier, memory, "张家") == read


def test_a_photo_read_again_deeper_down_asks_the_memory_about_each_box_once(monkeypatch, tmp_path):
    """A hand a tile short is detected again down to the floor: the boxes of the first look are not embedded twice."""
    import vision
    from vision.reader import memory as memory_module
    from vision.reader.detector import get_detector
    from vision.reader.photo import detector_path
    from vision.training.synth import TileArtError, render_layout

    try:  # 翻精 九万 above; the hand lacks its 三万, the winning 東 set apart
        rgb = render_layout([[["9m"]], [["1m", "2m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "5z"], ["1z"]]],
                            tile_height=80, background=(40, 110, 60)).image
    except TileArtError as exc:
        pytest.skip(f"no tile art: {exc}")
    classifier = get_detector(detector_path()).classifier
    memory = TileMemory(classifier.path.name)
    memory.add("张家", memory_module.crop_embeddings(classifier, rgb, [(2.0, 2.0, 22.0, 22.0)]), ["none"])  # a patch of table
    embedded: list[tuple[float, ...]] = []
    crops = memory_module.crop_embeddings

    def counting(classifier, rgb, boxes):  # noqa: ANN001, ANN202 - crop_embeddings, counted
        embedded.extend(tuple(b) for b in boxes)
        return crops(classifier, rgb, boxes)

    monkeypatch.setattr(memory_module, "crop_embeddings", counting)
    reading = vision.read_photo(rgb, memory=memory, table="张家")
    assert len(reading.detections) > 13  # read again down to the floor
    assert len(embedded) == len(set(embedded))


def test_a_remembered_tile_is_taken_only_among_the_classifiers_choices(centres, monkeypatch):
    """A table that taught only 8筒: a 1條 crop lying near it stays 1條 unless the classifier thought of 8筒 too."""
    from vision.reader import memory as memory_module
    from vision.reader.detection import Detection

    crops = {(0.0, 0.0, 10.0, 10.0): cluster(centres["8p"], 1, 0.2, 5)[0],
             (20.0, 0.0, 30.0, 10.0): cluster(centres["8p"], 1, 0.2, 6)[0]}
    monkeypatch.setattr(memory_module, "crop_embeddings", lambda classifier, rgb, boxes: np.stack([crops[b] for b in boxes]))
    memory = TileMemory("cls.onnx")
    memory.add("张家", cluster(centres["8p"], 3, 0.2, 1), ["8p"] * 3)
    sure = Detection((0.0, 0.0, 10.0, 10.0), "1s", 0.9, (("1s", 0.95), ("7s", 0.03), ("9s", 0.01)))
    torn = Detection((20.0, 0.0, 30.0, 10.0), "1s", 0.6, (("1s", 0.55), ("8p", 0.4), ("9s", 0.02)))
    assert all(0.02 < r.distance < DEFAULT_MAX_DISTANCE for r in memory.recall("张家", np.stack(list(crops.values()))))
    read = memory_module.apply_memory([sure, torn], np.zeros((10, 30, 3), np.uint8), None, memory, "张家")
    assert [d.tile for d in read] == ["1s", "8p"]


def test_the_very_box_a_player_corrected_takes_the_correction_again(centres, monkeypatch):
    """Read once more (the same photo), a corrected box is what the player said, though the classifier never thought
    of it and the tile's prototype, the mean of many crops, lies farther off."""
    from vision.reader import memory as memory_module
    from vision.reader.detection import Detection

    taught = cluster(centres["8p"], 6, 0.3, 8)
    box = (0.0, 0.0, 10.0, 10.0)
    monkeypatch.setattr(memory_module, "crop_embeddings", lambda classifier, rgb, boxes: taught[:1])
    memory = TileMemory("cls.onnx")
    memory.add("张家", taught, ["8p"] * 6)
    recalled = memory.recall("张家", taught[:1])[0]
    assert recalled.same and recalled.tile == "8p"
    _, protos = prototypes(taught, ["8p"] * 6)
    assert 1 - float((memory_module.unit(taught[:1]) @ protos[0])[0]) > memory_module.SAME_CROP
    read = Detection(box, "1s", 0.9, (("1s", 0.95), ("7s", 0.03), ("9s", 0.01)))
    assert [d.tile for d in memory_module.apply_memory([read], np.zeros((10, 10, 3), np.uint8), None, memory, "张家")] == ["8p"]


def test_a_tile_the_classifier_all_but_rules_out_is_not_taken_by_likeness(centres, monkeypatch):
    """One 八万 corrected to 九万: the next 八万 (九万 its third choice at 0.3 %) lies near the lesson, yet stays 八万."""
    from vision.reader import memory as memory_module
    from vision.reader.detection import Detection

    near = cluster(centres["8p"], 2, 0.2, 9)
    monkeypatch.setattr(memory_module, "crop_embeddings", lambda classifier, rgb, boxes: near[: len(boxes)])
    memory = TileMemory("cls.onnx")
    memory.add("张家", cluster(centres["8p"], 1, 0.2, 1), ["9m"])
    assert [r.tile for r in memory.recall("张家", near)] == ["9m", "9m"]
    faint = Detection((0.0, 0.0, 10.0, 10.0), "8m", 0.9, (("8m", 0.95), ("8s", 0.004), ("9m", 0.003)))
    likely = Detection((20.0, 0.0, 30.0, 10.0), "8m", 0.6, (("8m", 0.7), ("9m", 0.25), ("7m", 0.02)))
    read = memory_module.apply_memory([faint, likely], np.zeros((10, 30, 3), np.uint8), None, memory, "张家")
    assert [d.tile for d in read] == ["8m", "9m"]


def test_a_box_read_face_down_keeps_its_back_though_it_looks_like_a_taught_blank_white_dragon(centres, monkeypatch):
    """A table taught a winning 白板 the classifier had read as a back: a 暗杠's backs of the next reading lie near it
    (白 their second choice at 3 %) yet stay backs, else the 暗杠 is lost; the taught crop itself is 白板 again."""
    from vision.reader import memory as memory_module
    from vision.reader.detection import Detection

    blank = cluster(centres["1p"], 3, 0.2, 11)
    monkeypatch.setattr(memory_module, "crop_embeddings", lambda classifier, rgb, boxes: blank[: len(boxes)])
    memory = TileMemory("cls.onnx")
    memory.add("张家", blank[:1], ["5z"])
    assert [r.tile for r in memory.recall("张家", blank)] == ["5z", "5z", "5z"]
    taught = Detection((0.0, 0.0, 10.0, 10.0), "back", 0.7, (("back", 0.63), ("5z", 0.19), ("2s", 0.01)))
    backs = [Detection((x, 0.0, x + 10.0, 10.0), "back", 0.7, (("back", 0.89), ("5z", 0.03), ("2s", 0.01)))
             for x in (20.0, 40.0)]
    read = memory_module.apply_memory([taught, *backs], np.zeros((10, 50, 3), np.uint8), None, memory, "张家")
    assert [d.tile for d in read] == ["5z", "back", "back"]
