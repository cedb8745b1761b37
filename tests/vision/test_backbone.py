"""The ImageNet-pretrained backbone of the crop classifier: packaged weights, offline, key for key."""

from __future__ import annotations

import socket

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # the `train` extra


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a network connection fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("the packaged weights must load without network access")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


def test_imagenet_weights_come_from_the_installed_package_without_network(no_network):
    from vision.training.backbone import pretrained_lite0, weights_path

    path = weights_path()
    assert "site-packages" in str(path) and path.name.startswith("efficientnet-lite0") and path.stat().st_size > 10e6
    model = pretrained_lite0()  # strict: every key of the state dict has a parameter of the same shape
    assert sum(p.numel() for p in model.parameters()) == pytest.approx(4.65e6, rel=0.01)


def test_the_model_definition_has_the_layer_shapes_of_the_packaged_weights():
    from vision.training.backbone import EfficientNetLite0, imagenet_state_dict

    state = imagenet_state_dict()
    ours = EfficientNetLite0().state_dict()
    assert set(state) == set(ours)
    assert {k: tuple(v.shape) for k, v in state.items()} == {k: tuple(v.shape) for k, v in ours.items()}
    assert tuple(state["_conv_stem.weight"].shape) == (32, 3, 3, 3)
    assert tuple(state["_blocks.15._project_conv.weight"].shape) == (320, 1152, 1, 1)
    assert tuple(state["_conv_head.weight"].shape) == (1280, 320, 1, 1)
    assert tuple(state["_fc.weight"].shape) == (1000, 1280)
    kernels = [state[f"_blocks.{i}._depthwise_conv.weight"].shape[-1] for i in range(16)]
    assert kernels == [3, 3, 3, 5, 5, 3, 3, 3, 5, 5, 5, 5, 5, 5, 5, 3]


def test_the_pretrained_weights_know_a_bus_when_they_see_one():
    """ultralytics' sample photo of a bus: ImageNet's minibus (654), trolleybus (874) or school bus (779)."""
    cv2 = pytest.importorskip("cv2")
    from pathlib import Path

    ultralytics = pytest.importorskip("ultralytics")
    from vision.training.backbone import pretrained_lite0

    bgr = cv2.imread(str(Path(ultralytics.__file__).parent / "assets" / "bus.jpg"))
    h, w = bgr.shape[:2]
    s = min(h, w)
    square = bgr[(h - s) // 2 : (h - s) // 2 + s, (w - s) // 2 : (w - s) // 2 + s, ::-1]
    x = (cv2.resize(square, (224, 224), interpolation=cv2.INTER_AREA).astype(np.float32) - 127.5) / 127.5
    with torch.no_grad():
        logits = pretrained_lite0().eval()(torch.from_numpy(np.ascontiguousarray(x.transpose(2, 0, 1)))[None])
    assert int(logits.argmax()) in {654, 779, 874}


def test_the_tile_net_gives_36_logits_and_a_1280_d_embedding_and_keeps_frozen_blocks_still():
    from vision.training.tile_net import build_tile_net

    model = build_tile_net()
    frozen = model.backbone._blocks[0]._depthwise_conv.weight.clone()
    stats = model.backbone._bn0.running_mean.clone()
    model.train()
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
    logits, emb = model(torch.randn(4, 3, 64, 48))
    assert tuple(logits.shape) == (4, 36) and tuple(emb.shape) == (4, 1280)
    torch.nn.functional.cross_entropy(logits, torch.tensor([0, 1, 2, 35])).backward()
    opt.step()
    assert torch.equal(model.backbone._blocks[0]._depthwise_conv.weight, frozen)
    assert torch.equal(model.backbone._bn0.running_mean, stats)
    assert model.backbone._blocks[0]._depthwise_conv.weight.grad is None
    assert float(model.backbone._blocks[10]._project_conv.weight.grad.abs().sum()) > 0


def test_the_exported_tile_net_drops_in_for_the_reader_and_exposes_its_embedding(tmp_path):
    pytest.importorskip("onnx")
    from vision.reader.classifier import CROP_H, CROP_W, TileClassifier
    from vision.training.tile_net import build_tile_net, export_tile_net

    model = build_tile_net(pretrained=False)
    path = export_tile_net(model, tmp_path / "cls.onnx")
    reader = TileClassifier(path)
    crops = np.random.default_rng(0).integers(0, 255, (3, CROP_H, CROP_W, 3), dtype=np.uint8)
    probs = reader(crops)
    assert probs.shape == (3, 36) and np.allclose(probs.sum(axis=1), 1, atol=1e-5)
    assert [o.name for o in reader.session.get_outputs()] == ["logits", "embedding"]


def test_an_embedding_output_added_to_a_classifier_leaves_its_logits_exactly_as_they_were(tmp_path):
    pytest.importorskip("onnx")
    from vision.reader.classifier import CLASSIFIER_NAMES, CROP_H, CROP_W, TileClassifier
    from vision.reader.detector import DEFAULT_CLASSIFIER
    from vision.training.classifier import build_model, export_crop_graph
    from vision.training.tile_net import add_embedding_output

    torch.manual_seed(0)  # a v9-shaped network exported with logits only, as classifiers before the memory were
    plain = export_crop_graph(build_model(), tmp_path / "plain.onnx", ["logits"], {"names": ",".join(CLASSIFIER_NAMES)})
    out = add_embedding_output(plain, tmp_path / "emb.onnx")
    crops = np.random.default_rng(1).integers(0, 255, (8, CROP_H, CROP_W, 3), dtype=np.uint8)
    before, emb = TileClassifier(plain), TileClassifier(out)
    assert np.array_equal(before(crops), emb(crops))
    assert [o.name for o in before.session.get_outputs()] == ["logits"]
    assert [o.name for o in emb.session.get_outputs()] == ["logits", "embedding"]
    assert [o.name for o in TileClassifier(DEFAULT_CLASSIFIER).session.get_outputs()] == ["logits", "embedding"]


def test_a_short_tile_net_run_writes_an_int8_classifier_the_reader_loads(tmp_path):
    pytest.importorskip("onnx")
    from vision.reader.classifier import CROP_H, CROP_W, TileClassifier
    from vision.training.classifier import CropSet
    from vision.training.tile_net import train_tile_net

    rng = np.random.default_rng(0)
    crops = CropSet(rng.integers(0, 255, (24, CROP_H, CROP_W, 3), dtype=np.uint8), rng.integers(0, 36, 24))
    said: list[str] = []
    figures = train_tile_net(crops, crops, tmp_path / "cls.onnx", epochs=1, batch=12, log=said.append)
    assert said and said[0].startswith("epoch 1/1") and 0 <= figures["valid_acc_epoch1"] <= 1
    for name in ("cls.onnx", "cls.fp32.onnx", "cls.pt"):
        assert (tmp_path / name).is_file()
    reader = TileClassifier(tmp_path / "cls.onnx")
    assert reader.session.get_modelmeta().custom_metadata_map["quantized"] == "int8"
    assert reader(crops.x[:3]).shape == (3, 36)
    emb = reader.session.run(["embedding"], {reader.input_name: np.zeros((2, 3, CROP_H, CROP_W), np.float32)})[0]
    assert emb.shape == (2, 1280)


def test_a_tile_net_that_enlarges_its_crops_reads_the_readers_crops_as_the_plain_net_reads_them_enlarged(tmp_path):
    """`upsample=1.5`: the reader's 64 × 48 crop is read at 96 × 72 inside the network and its exported graph (a 3 × 2
    grid of the backbone's last features instead of 2 × 2), so the file still drops in for the shipped classifier."""
    pytest.importorskip("onnx")
    from vision.reader.classifier import CROP_H, CROP_W, TileClassifier
    from vision.training.tile_net import build_tile_net, export_tile_net

    big = build_tile_net(upsample=1.5).eval()
    plain = build_tile_net().eval()
    plain.load_state_dict(big.state_dict())
    x = torch.randn(2, 3, CROP_H, CROP_W)
    with torch.no_grad():
        enlarged = torch.nn.functional.interpolate(x, size=(96, 72), mode="bilinear", align_corners=False)
        assert torch.allclose(big(x)[1], plain(enlarged)[1], atol=1e-5)
        assert float((big(x)[1] - plain(x)[1]).abs().mean()) > 0.1 * float(plain(x)[1].abs().mean())
    reader = TileClassifier(export_tile_net(big, tmp_path / "big.onnx"))
    crops = np.random.default_rng(2).integers(0, 255, (3, CROP_H, CROP_W, 3), dtype=np.uint8)
    assert reader(crops).shape == (3, 36)


def test_a_tile_net_run_goes_on_from_an_earlier_runs_weights(tmp_path):
    pytest.importorskip("onnx")
    from vision.reader.classifier import CROP_H, CROP_W
    from vision.training.classifier import CropSet
    from vision.training.tile_net import build_tile_net, train_tile_net

    rng = np.random.default_rng(3)
    crops = CropSet(rng.integers(0, 255, (12, CROP_H, CROP_W, 3), dtype=np.uint8), rng.integers(0, 36, 12))
    earlier = build_tile_net(pretrained=False)
    torch.nn.init.constant_(earlier.head.weight, 0.01)
    torch.save(earlier.state_dict(), tmp_path / "earlier.pt")
    train_tile_net(crops, None, tmp_path / "cls.onnx", epochs=1, batch=12, lr=1e-9, log=lambda s: None,
                   quantize=False, start=tmp_path / "earlier.pt")
    went_on = torch.load(tmp_path / "cls.pt")
    assert torch.allclose(went_on["head.weight"], earlier.state_dict()["head.weight"], atol=1e-5)


def test_two_classifiers_averaged_into_one_graph_read_as_the_mean_of_their_logits(tmp_path):
    """`vision.training.ensemble.average_logits`: the shipped classifier (itself a pair) and a Lite0 tile net in one file that drops in
    for the shipped one, its logits their weighted mean, its embedding the first's (the memory's crops stay valid)."""
    pytest.importorskip("onnx")
    from vision.reader.classifier import CROP_H, CROP_W, TileClassifier, to_blob
    from vision.reader.detector import DEFAULT_CLASSIFIER
    from vision.training.ensemble import average_logits
    from vision.training.tile_net import build_tile_net, export_tile_net

    other = export_tile_net(build_tile_net(pretrained=False, upsample=1.5), tmp_path / "lite.onnx")
    pair = TileClassifier(average_logits(DEFAULT_CLASSIFIER, other, tmp_path / "pair.onnx", weight=0.7))
    shipped, lite = TileClassifier(DEFAULT_CLASSIFIER), TileClassifier(other)
    crops = np.random.default_rng(4).integers(0, 255, (5, CROP_H, CROP_W, 3), dtype=np.uint8)
    blob = {shipped.input_name: to_blob(crops)}
    a_logits, a_emb = shipped.session.run(["logits", "embedding"], blob)
    b_logits = lite.session.run(["logits"], blob)[0]
    logits, emb = pair.session.run(["logits", "embedding"], blob)
    assert np.allclose(logits, 0.7 * a_logits + 0.3 * b_logits, atol=1e-4)
    assert np.array_equal(emb, a_emb) and pair.names == shipped.names
    assert pair(crops).shape == (5, 36)
