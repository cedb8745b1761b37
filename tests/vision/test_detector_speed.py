"""Changes made for speed only (issue 23, part 3) read every photo as before: the pixel-input int8 graph,
the DFL softmax on the last axis, the classifier's blob, and the reader's onnxruntime options."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.reader.classifier import MEAN, STD, to_blob
from vision.reader.detector import DEFAULT_CLASSIFIER, DEFAULT_MODEL, TileDetector
from vision.reader.session import SPIN_MICROSECONDS, session_options

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from vision.training.quantize_detector import PIXEL_SCALE, pixel_input_graph  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
VALID_CANDIDATES = [ROOT / "runs" / "data" / "cmd-v4" / "valid" / "images",
                    ROOT.parent / "shared" / "data" / "chinese-mahjong-detection-v4" / "valid" / "images"]
DFL = "/model.22/dfl/"


def _tiny_exported_detector(path: Path, input_scale: float = PIXEL_SCALE) -> Path:
    """A graph shaped like the front and the DFL tail of an int8 YOLOv8 export: float NCHW input →
    QuantizeLinear → DequantizeLinear → Conv → DFL (Reshape, Transpose, Softmax on axis 1, 1 × 1 Conv, Reshape)."""
    rng = np.random.default_rng(0)
    side, anchors = 8, 64
    inits = [
        numpy_helper.from_array(np.asarray(input_scale, np.float32), "images_scale"),
        numpy_helper.from_array(np.asarray(0, np.uint8), "images_zero_point"),
        numpy_helper.from_array(rng.normal(size=(64, 3, 1, 1)).astype(np.float32), "w"),
        numpy_helper.from_array(np.array([1, 4, 16, anchors], np.int64), "shape_a"),
        numpy_helper.from_array(np.arange(16, dtype=np.float32).reshape(1, 16, 1, 1), "bins_w"),
        numpy_helper.from_array(np.array([1, 4, anchors], np.int64), "shape_b"),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["images", "images_scale", "images_zero_point"], ["q"], name="images_QuantizeLinear"),
        helper.make_node("DequantizeLinear", ["q", "images_scale", "images_zero_point"], ["dq"], name="images_DequantizeLinear"),
        helper.make_node("Conv", ["dq", "w"], ["feat"], name="/model.0/conv/Conv"),
        helper.make_node("Reshape", ["feat", "shape_a"], ["r"], name=f"{DFL}Reshape"),
        helper.make_node("Transpose", ["r"], ["t"], name=f"{DFL}Transpose", perm=[0, 2, 1, 3]),
        helper.make_node("Softmax", ["t"], ["s"], name=f"{DFL}Softmax", axis=1),
        helper.make_node("Conv", ["s", "bins_w"], ["c"], name=f"{DFL}conv/Conv"),
        helper.make_node("Reshape", ["c", "shape_b"], ["output0"], name=f"{DFL}Reshape_1"),
    ]
    graph = helper.make_graph(nodes, "tiny", [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, side, side])],
                              [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 4, anchors])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, str(path))
    return path


def _as_exported(pixel_graph: Path, out: Path) -> Path:
    """The inverse of `pixel_input_graph` on a shipped detector: float NCHW input with its QuantizeLinear,
    and the DFL softmax on axis 1 followed by the 1 × 1 convolution, as ultralytics exports it."""
    m = onnx.load(str(pixel_graph))
    g = m.graph
    to_nchw = next(n for n in g.node if n.name == "pixels_to_nchw")
    dq = next(n for n in g.node if to_nchw.output[0] in n.input)
    size = g.input[0].type.tensor_type.shape.dim[1].dim_value
    quant = helper.make_node("QuantizeLinear", ["images", dq.input[1], dq.input[2]], list(to_nchw.output), name="images_QuantizeLinear")
    g.node.insert(list(g.node).index(to_nchw), quant)
    g.node.remove(to_nchw)
    g.input.remove(g.input[0])
    g.input.insert(0, helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, size, size]))
    nodes = {n.name: n for n in g.node}
    next(a for a in nodes[f"{DFL}Transpose"].attribute if a.name == "perm").ints[:] = [0, 2, 1, 3]
    next(a for a in nodes[f"{DFL}Softmax"].attribute if a.name == "axis").i = 1
    matmul = nodes[f"{DFL}MatMul"]
    g.initializer.append(numpy_helper.from_array(np.arange(16, dtype=np.float32).reshape(1, 16, 1, 1), "dfl_conv_w"))
    g.node.insert(list(g.node).index(matmul), helper.make_node("Conv", [matmul.input[0], "dfl_conv_w"], list(matmul.output), name=f"{DFL}conv/Conv"))
    g.node.remove(matmul)
    for v in [v for v in g.value_info if v.name.startswith(DFL)]:
        g.value_info.remove(v)
    onnx.save(m, str(out))
    return out


def _run(path: Path, feed: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: feed})[0]


def test_the_pixel_graph_reads_a_photos_pixels_exactly_as_the_exported_graph_read_them_over_255(tmp_path):
    exported = _tiny_exported_detector(tmp_path / "exported.onnx")
    fast = pixel_input_graph(exported, tmp_path / "fast.onnx")
    pixels = np.random.default_rng(1).integers(0, 256, (1, 8, 8, 3), dtype=np.uint8)
    before = _run(exported, pixels.transpose(0, 3, 1, 2).astype(np.float32) / 255)
    after = _run(fast, pixels)
    assert after.shape == before.shape and np.allclose(after, before, atol=1e-5)
    session = ort.InferenceSession(str(fast), providers=["CPUExecutionProvider"])
    assert session.get_inputs()[0].type == "tensor(uint8)" and session.get_inputs()[0].shape == [1, 8, 8, 3]
    ops = {n.name: n for n in onnx.load(str(fast)).graph.node}
    assert f"{DFL}conv/Conv" not in ops and next(a.i for a in ops[f"{DFL}Softmax"].attribute) == 3


def test_a_detector_whose_input_is_not_quantised_as_pixels_is_not_rewritten(tmp_path):
    exported = _tiny_exported_detector(tmp_path / "exported.onnx", input_scale=1 / 200)
    with pytest.raises(ValueError, match="pixels"):
        pixel_input_graph(exported, tmp_path / "fast.onnx")


def test_the_shipped_detector_takes_pixels():
    detector = TileDetector(DEFAULT_MODEL)
    assert detector.takes_pixels and detector.imgsz == 416


@pytest.fixture(scope="module")
def exported_folder(tmp_path_factory) -> Path:
    """The shipped detector as it was before the speed-up (float input, DFL as exported), beside the classifier."""
    folder = tmp_path_factory.mktemp("exported")
    _as_exported(DEFAULT_MODEL, folder / "tiles.onnx")
    shutil.copy(DEFAULT_CLASSIFIER, folder / DEFAULT_CLASSIFIER.name)
    return folder


def _photos(hand_photo: Path) -> list[Path]:
    valid = next((p for p in VALID_CANDIDATES if p.is_dir()), None)
    return [hand_photo, *(sorted(valid.iterdir())[:6] if valid else [])]


def test_the_reader_finds_and_names_the_same_tiles_with_the_fast_graph(exported_folder, hand_photo):
    before, after = TileDetector(exported_folder / "tiles.onnx"), TileDetector(DEFAULT_MODEL)
    assert not before.takes_pixels and after.takes_pixels
    found = 0
    for photo in _photos(hand_photo):
        old, new = before(photo), after(photo)
        assert [d.tile for d in new] == [d.tile for d in old], photo.name
        assert np.allclose([d.box for d in new], [d.box for d in old], atol=1e-3)
        assert np.allclose([d.conf for d in new], [d.conf for d in old], atol=1e-5)
        found += len(new)
    assert found >= 14  # the hand photo alone holds 15 tiles


def test_the_classifier_blob_is_the_crops_normalised_as_in_training():
    crops = np.random.default_rng(2).integers(0, 256, (5, 64, 48, 3), dtype=np.uint8)
    reference = ((crops.astype(np.float32) / 255 - MEAN) / STD).transpose(0, 3, 1, 2)
    blob = to_blob(crops)
    assert blob.flags["C_CONTIGUOUS"] and blob.dtype == np.float32 and np.allclose(blob, reference, atol=1e-5)


def test_the_readers_sessions_spin_briefly_and_never_past_a_run_with_one_thread_per_physical_core():
    opts = session_options()
    assert opts.get_session_config_entry("session.intra_op.allow_spinning") == "1"
    assert opts.get_session_config_entry("session.intra_op.spin_duration_us") == str(SPIN_MICROSECONDS)
    assert opts.get_session_config_entry("session.force_spinning_stop") == "1"  # the next step gets the core
    assert opts.intra_op_num_threads == 0  # onnxruntime's default: one per physical core
    assert opts.execution_mode == ort.ExecutionMode.ORT_SEQUENTIAL
    assert opts.graph_optimization_level == ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    assert session_options(threads=1).intra_op_num_threads == 1
    assert session_options(spinning=False).get_session_config_entry("session.intra_op.allow_spinning") == "0"


def test_the_letterbox_shrinks_a_photo_linearly_as_the_training_photos_were():
    import cv2

    from vision.reader.image import PAD_VALUE, letterbox

    photo = np.random.default_rng(3).integers(0, 256, (300, 640, 3), dtype=np.uint8)
    canvas, geo = letterbox(photo, 416)
    expected = cv2.resize(photo, (416, 195), interpolation=cv2.INTER_LINEAR)
    top = int(geo.pad_y)
    assert geo.scale == pytest.approx(0.65) and np.array_equal(canvas[top : top + 195], expected)
    assert (canvas[:top] == PAD_VALUE).all() and (canvas[top + 195 :] == PAD_VALUE).all()


@pytest.mark.parametrize("orientation", range(10))
def test_a_jpeg_decoded_by_opencv_has_pillows_pixels_turned_as_its_exif_says(orientation):
    import io

    from PIL import Image

    from vision.reader.image import _from_pil, _open_pil, load_image

    photo = Image.fromarray(np.random.default_rng(4).integers(0, 256, (60, 90, 3), dtype=np.uint8))
    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    photo.save(buf, "JPEG", exif=exif)
    data = buf.getvalue()
    assert np.array_equal(load_image(data), _from_pil(_open_pil(data)))  # Pillow's reading, EXIF applied


def test_a_jpeg_cut_short_is_still_refused_as_pillow_refuses_it(tmp_path):
    import io

    from PIL import Image

    from vision.reader.image import DetectorError, load_image

    buf = io.BytesIO()
    Image.fromarray(np.full((200, 300, 3), 90, np.uint8)).save(buf, "JPEG")
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(buf.getvalue()[: len(buf.getvalue()) // 2])
    with pytest.raises(DetectorError):
        load_image(cut)
