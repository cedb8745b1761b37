"""标注 page: canvas ↔ boxes logic (no browser), saving and reviewing through AppTest, and 算分's save button."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from streamlit.testing.v1 import AppTest

from app import annotate_logic as logic
from tests.app.apptest import MAIN, open_page
from vision.datasets.store import DatasetStore, LabeledBox
from vision.reader.detection import CLASS_NAMES, Detection


def png(width: int = 400, height: int = 300, color: tuple[int, int, int] = (30, 90, 30)) -> bytes:
    """A small photo."""
    buf = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buf, "PNG")
    return buf.getvalue()


BOXES = [LabeledBox(10, 20, 50, 80, "1m"), LabeledBox(60, 20, 100, 80, "5p"), LabeledBox(110, 22, 150, 82, "back")]


# ----------------------------------------------------------------------------- pure logic


def test_fit_scale_shrinks_to_the_canvas_and_never_enlarges() -> None:
    assert logic.fit_scale(1400, 700) == pytest.approx(0.5)
    assert logic.fit_scale(300, 200) == 1.0
    assert logic.fit_scale(1000, 4000) == pytest.approx(logic.CANVAS_MAX_HEIGHT / 4000)
    assert logic.canvas_size(1400, 700, 0.5) == (700, 350)


@pytest.mark.parametrize("labeled", [True, False])
def test_boxes_to_drawing_and_back_round_trip(labeled: bool) -> None:
    scale = 0.37
    drawing = logic.boxes_to_drawing(BOXES, scale, labeled)
    assert len(drawing["objects"]) == 3
    got = logic.drawing_to_boxes(drawing, scale, "9s", 400, 300)
    want = BOXES if labeled else [b._replace(cls="9s") for b in BOXES]
    assert logic.same_boxes(got, want, tol=1e-6)


def test_canvas_edits_resize_origin_new_and_stray_boxes() -> None:
    scale = 0.5
    drawing = logic.boxes_to_drawing(BOXES, scale)
    drawing["objects"][0]["scaleX"] = 2.0  # dragged the resize handle: twice as wide
    drawing["objects"][1].update(originX="center", originY="center", left=40.0, top=25.0)  # centre-origin object
    drawing["objects"].append({"type": "rect", "left": 100, "top": 10, "width": 20, "height": 30})  # new, no label
    drawing["objects"].append({"type": "rect", "left": 5, "top": 5, "width": 0.4, "height": 0.4})  # a stray click
    drawing["objects"].append({"type": "path", "path": []})  # not a box
    drawing["objects"].append({"type": "LabeledRect", "label": "七条", "left": 150, "top": 140, "width": 40, "height": 40})
    got = logic.drawing_to_boxes(drawing, scale, "3z", 400, 300)
    assert [b.cls for b in got] == ["1m", "5p", "back", "3z", "7s"]
    assert got[0] == LabeledBox(10, 20, pytest.approx(90), 80, "1m")
    assert (got[1].x1, got[1].y1, got[1].x2, got[1].y2) == pytest.approx((60, 20, 100, 80))  # centre (40, 25) on the canvas
    assert (got[3].x1, got[3].y1, got[3].x2, got[3].y2) == pytest.approx((200, 20, 240, 80))
    assert got[4].x2 == 380 and got[4].y2 == 300  # clipped to the photo
    assert logic.drawing_to_boxes(None, scale, "1m", 400, 300) == []


def test_the_box_just_drawn_is_selected() -> None:
    new = LabeledBox(200, 20, 240, 80, "3z")
    assert logic.box_to_select(BOXES, [*BOXES, new]) == 3
    assert logic.box_to_select(BOXES, BOXES[:2]) is None  # a deletion
    assert logic.box_to_select(BOXES, [BOXES[0]._replace(x2=90), *BOXES[1:]]) is None  # a resize
    assert logic.box_to_select([], [new]) == 0


def test_class_labels_are_chinese_and_map_back() -> None:
    assert logic.class_label("5p") == "五筒 5p"
    assert logic.class_label("back") == "背面 back"
    assert logic.class_label("7z", "en") == "7z"
    for code in CLASS_NAMES:
        assert logic.label_to_code(logic.class_label(code)) == code
        assert logic.label_to_code(code) == code
    assert logic.label_to_code("中") == "7z" and logic.label_to_code("背") == "back"
    assert logic.label_to_code("flower") is None and logic.label_to_code("") is None


def test_origins_follow_boxes_and_sidecar_indices_are_renumbered() -> None:
    new = [BOXES[2]._replace(x1=111), LabeledBox(200, 20, 240, 80, "2s"), BOXES[0]]  # 5p deleted, one drawn, reordered
    origin = logic.match_origins(BOXES, new)
    assert origin == [2, None, 0]
    sidecar = {"winning": 0, "indicator": 1, "melds": [{"kind": "angang", "boxes": [2]}, {"kind": "chi", "boxes": [0, 1]}]}
    out = logic.remap_sidecar(sidecar, origin)
    assert out["winning"] == 2 and out["indicator"] is None
    assert out["melds"] == [{"kind": "angang", "boxes": [0]}]


def test_save_edited_keeps_sidecar_references_on_their_boxes(tmp_path: Path) -> None:
    store = DatasetStore(tmp_path / "team")
    stem = store.add_example(png(), BOXES, {"winning": 2, "melds": [{"kind": "peng", "boxes": [0, 1]}]}, source="t")
    logic.save_edited(store, stem, [BOXES[2]], [2])
    ex = store.load(stem)
    assert [b.cls for b in ex.boxes] == ["back"] and ex.sidecar["winning"] == 0 and ex.sidecar["melds"] == []


def test_detections_corrected_by_the_confirmed_hand() -> None:
    dets = [
        Detection((100, 0, 140, 50), "3m", 0.9),
        Detection((0, 0, 40, 50), "1m", 0.9),
        Detection((50, 0, 90, 50), "2m", 0.3),
        Detection((150, 0, 190, 50), "back", 0.9),
    ]
    boxes, corrected = logic.corrected_boxes(dets, ["1m", "2p", "3m"])  # the player fixed 二万 → 二筒
    assert corrected and [b.cls for b in boxes] == ["3m", "1m", "2p", "back"]
    boxes, corrected = logic.corrected_boxes(dets, ["1m", "2p"])  # a tile removed: positions unknown
    assert not corrected and [b.cls for b in boxes] == ["3m", "1m", "2m", "back"]


def test_save_score_example_added_updated_kept(tmp_path: Path) -> None:
    store = DatasetStore(tmp_path / "table")
    dets = [Detection((10, 10, 50, 70), "1m", 0.9), Detection((60, 10, 100, 70), "9m", 0.4)]
    melds = [{"seat": "E", "type": "peng", "tiles": "777p", "from": "W"}]
    stem, what = logic.save_score_example(store, png(), dets, ["1m", "9p"], "9p", "4z", melds)
    assert what == "added"
    ex = store.load(stem)
    assert [b.cls for b in ex.boxes] == ["1m", "9p"]
    assert ex.sidecar["source"] == "score" and ex.sidecar["winning_tile"] == "9p" and ex.sidecar["indicator_tile"] == "4z"
    assert ex.sidecar["declared_melds"] == melds and ex.sidecar["hand"] == ["1m", "9p"] and not ex.reviewed
    assert logic.save_score_example(store, png(), dets, ["1m", "9s"], "9s", "4z")[1] == "updated"
    assert store.load(stem).boxes[1].cls == "9s"
    store.set_reviewed(stem, True)
    assert logic.save_score_example(store, png(), dets, ["1m", "1m"], "1m", "4z")[1] == "kept"
    assert store.load(stem).boxes[1].cls == "9s"


# ----------------------------------------------------------------------------- AppTest


def annotate_page() -> AppTest:
    return open_page(AppTest.from_file(MAIN, default_timeout=30).run(), "annotate")


def tap_review(at: AppTest, label: str) -> None:
    """Tap the review button, which must say `label` (标为已核对 / 取消已核对)."""
    button = at.button(key="ann_toggle_reviewed")
    assert button.label == label
    button.click().run()


def shows_reviewed(at: AppTest) -> bool:
    """Whether the page says the photo shown is reviewed."""
    return any("✓ 这张已核对" in m.value for m in at.markdown)


def infos(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in [*at.info, *at.success, *at.error, *at.warning, *at.caption])


def test_annotate_page_upload_edit_save_and_review(dirs: Path) -> None:
    at = annotate_page()
    assert at.title[0].value == "标注"
    assert "还没有照片" in infos(at)
    at.file_uploader(key="ann_upload").set_value([("a.png", png(), "image/png"), ("b.png", png(color=(1, 2, 3)), "image/png")])
    at.run()
    assert not at.exception, at.exception
    store = DatasetStore(dirs / "datasets" / "table")
    assert len(store.stems()) == 2
    assert "已加入 2 张照片" in infos(at)
    assert "jingsuan finetune table --classifier-only" in infos(at)  # how to teach the reader this set
    at.run()  # the canvas reruns the page when the photo loads: the upload's report stays while those files do
    assert "已加入 2 张照片" in infos(at)
    assert "没有识别模型" in infos(at) or "模型预先画了" in infos(at)
    stem = at.session_state["ann_loaded"]
    assert store.load(stem).sidecar["original_name"] == "a.png"
    # add two boxes by hand, change the second one's class, delete the first
    for x1, cls in ((10, "1m"), (60, "5p")):
        at.selectbox(key="ann_new_cls").set_value(cls)
        at.number_input(key="ann_x1").set_value(float(x1))
        at.number_input(key="ann_y1").set_value(20.0)
        at.number_input(key="ann_x2").set_value(float(x1 + 40))
        at.number_input(key="ann_y2").set_value(80.0)
        at.button(key="ann_add_btn").click().run()
    boxes = at.session_state["ann_boxes"]
    assert [b.cls for b in boxes] == ["1m", "5p"]
    assert "有未保存的修改" in infos(at)
    at.selectbox(key="ann_sel").set_value(1).run()
    assert at.session_state["ann_sel_cls"] == "5p"
    at.selectbox(key="ann_sel_cls").set_value("7z").run()
    assert [b.cls for b in at.session_state["ann_boxes"]] == ["1m", "7z"]
    at.selectbox(key="ann_sel").set_value(0).run()
    at.button(key="ann_delete").click().run()
    at.button(key="ann_save").click().run()
    assert not at.exception, at.exception
    assert "已保存 1 个框" in infos(at)
    at.run()  # another rerun (the canvas component sends its state again): the labeller still sees it
    assert "已保存 1 个框" in infos(at) and "有未保存的修改" not in infos(at)
    (box,) = store.load(stem).boxes
    assert box.cls == "7z" and (box.x1, box.y1, box.x2, box.y2) == pytest.approx((60, 20, 100, 80), abs=0.01)
    assert store.progress() == (0, 2)
    tap_review(at, "标为已核对")
    assert store.progress() == (1, 2) and store.load(stem).reviewed and shows_reviewed(at)
    assert "已核对 1 / 2 张" in str(at.get("progress")[0].proto.text)
    tap_review(at, "取消已核对")
    assert store.progress() == (0, 2) and not shows_reviewed(at)
    # the laptop shortcuts: S saves, Delete removes the box, V flips the review mark
    shortcuts = {b.key: b.proto.shortcut for b in at.button if b.key in ("ann_save", "ann_delete", "ann_toggle_reviewed")}
    assert shortcuts == {"ann_save": "s", "ann_delete": "delete", "ann_toggle_reviewed": "v"}  # Streamlit lower-cases them
    at.button(key="ann_toggle_reviewed").click().run()
    assert store.progress() == (1, 2) and at.session_state["ann_reviewed"] is True
    # an edit after saving: the "saved" note gives way to the unsaved warning
    at.number_input(key="ann_x1").set_value(200.0)
    at.number_input(key="ann_x2").set_value(240.0)
    at.button(key="ann_add_btn").click().run()
    assert "有未保存的修改" in infos(at) and "已保存" not in infos(at)


def test_annotate_page_new_dataset_and_bad_name(dirs: Path) -> None:
    at = annotate_page()
    at.text_input(key="ann_new_name").input("../evil")
    at.button[[b.label for b in at.button].index("创建")].click().run()
    assert any("数据集名称不合法" in e.value for e in at.error)
    at.text_input(key="ann_new_name").input("club-2")
    at.button[[b.label for b in at.button].index("创建")].click().run()
    assert not at.exception, at.exception
    assert at.session_state["ann_dataset"] == "club-2"
    assert (dirs / "datasets" / "club-2" / "data.yaml").exists()


def test_switching_photos_keeps_each_review_mark_and_saves_the_edits_first(dirs: Path) -> None:
    at = annotate_page()
    at.file_uploader(key="ann_upload").set_value([("a.png", png(), "image/png"), ("b.png", png(color=(1, 2, 3)), "image/png")])
    at.run()
    store = DatasetStore(dirs / "datasets" / "table")
    a = at.session_state["ann_loaded"]
    (b,) = [s for s in store.stems() if s != a]
    tap_review(at, "标为已核对")
    assert store.load(a).reviewed
    at.number_input(key="ann_x1").set_value(10.0)
    at.number_input(key="ann_x2").set_value(50.0)
    at.button(key="ann_add_btn").click().run()  # an unsaved box on the reviewed photo
    at.selectbox(key="ann_stem_pick").set_value(b).run()
    assert not at.exception, at.exception
    assert at.session_state["ann_loaded"] == b and at.selectbox(key="ann_stem_pick").value == b
    assert "上一张照片的 1 个框已保存" in infos(at)  # the edits were not dropped silently
    assert len(store.load(a).boxes) == 1 and store.load(a).reviewed
    assert not store.load(b).reviewed and not shows_reviewed(at)
    tap_review(at, "标为已核对")  # reviewing the second leaves the first as it was
    assert store.load(b).reviewed and store.load(a).reviewed
    at.selectbox(key="ann_stem_pick").set_value(a).run()
    assert shows_reviewed(at) and at.session_state["ann_loaded"] == a
    assert at.selectbox(key="ann_stem_pick").value == a  # the picker stayed on the photo chosen


def test_a_created_dataset_is_the_one_uploads_go_into(dirs: Path) -> None:
    at = annotate_page()
    at.text_input(key="ann_new_name").input("club-3")
    at.button[[b.label for b in at.button].index("创建")].click().run()
    assert at.selectbox(key="ann_pick_dataset").value == "club-3"
    at.file_uploader(key="ann_upload").set_value([("a.png", png(), "image/png")]).run()
    at.run()
    assert len(DatasetStore(dirs / "datasets" / "club-3").stems()) == 1
    assert not (dirs / "datasets" / "table" / "images").exists() or not DatasetStore(dirs / "datasets" / "table").stems()


def test_score_page_saves_the_photo_as_a_labelled_example(dirs: Path) -> None:
    at = AppTest.from_file(MAIN, default_timeout=30).run()
    assert not any(b.key == "save_example" for b in at.button)  # no photo, no button
    at.file_uploader(key=at.session_state["score"].upload_key).set_value(("hand.png", png(), "image/png")).run()
    assert not at.exception, at.exception
    for code in ("1m", "2m", "3m"):
        at.button(key=f"pal_{code}").click().run()
    at.selectbox(key="indicator").set_value("4z").run()
    at.button(key="save_example").click().run()
    assert not at.exception, at.exception
    store = DatasetStore(dirs / "datasets" / "table")
    (stem,) = store.stems()
    ex = store.load(stem)
    assert ex.sidecar["source"] == "score" and ex.sidecar["indicator_tile"] == "4z"
    assert ex.sidecar["hand"][-3:] == ["1m", "2m", "3m"]
    assert any("已存为标注样本" in s.value for s in at.success)


def test_unboxed_tiles_are_the_found_ones_no_box_covers() -> None:
    found = [((11.0, 21.0, 49.0, 79.0), "1m"), ((200.0, 20.0, 240.0, 80.0), "3s"), ((250.0, 20.0, 290.0, 80.0), "back")]
    assert logic.unboxed_tiles(BOXES, found) == [LabeledBox(200.0, 20.0, 240.0, 80.0, "3s"), LabeledBox(250.0, 20.0, 290.0, 80.0, "back")]
    assert logic.unboxed_tiles(BOXES, []) == []


def with_a_drawn_scene() -> tuple[AppTest, int]:
    """标注 with a drawn photo of a row of tiles uploaded (KDE default art, one scene always): its boxes pre-drawn
    and named by the shipped models → (the page, the scene's tile count)."""
    import cv2
    import numpy as np

    from vision.training.synth import random_scene

    scene = random_scene(np.random.default_rng(3), tileset="default", perspective=0.0)
    photo = cv2.imencode(".png", cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR))[1].tobytes()
    at = annotate_page()
    at.file_uploader(key="ann_upload").set_value([("scene.png", photo, "image/png")])
    at.run()
    assert not at.exception, at.exception
    return at, len(scene.tiles)


def test_annotate_page_finds_the_tiles_left_unboxed(dirs: Path) -> None:
    """查漏标 with the shipped models: tiles whose boxes were removed come back as unsaved boxes."""
    at, tiles = with_a_drawn_scene()
    drawn = at.session_state["ann_boxes"]
    assert len(drawn) >= 0.9 * tiles  # pre-drawn by the model
    kept = drawn[::2]
    at.session_state["ann_boxes"] = kept
    at.session_state["ann_origin"] = list(range(0, len(drawn), 2))
    at.button(key="ann_check").click().run()
    assert not at.exception, at.exception
    boxes = at.session_state["ann_boxes"]
    added = len(boxes) - len(kept)
    assert boxes[: len(kept)] == kept and 0.8 * (len(drawn) - len(kept)) <= added <= len(drawn) - len(kept) + 2
    assert f"加了 {added} 个模型看到但没有框的牌" in infos(at) and "有未保存的修改" in infos(at)
    at.button(key="ann_check").click().run()  # all boxed now
    assert "模型没有发现漏标的牌" in infos(at) and len(at.session_state["ann_boxes"]) == len(boxes)
