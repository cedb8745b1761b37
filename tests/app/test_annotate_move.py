"""标注 移动: a box dragged or resized on the canvas keeps its class, its number and its saved box (sidecar
references follow it), and is the one picked; the page offers 画框 / 移动 as two big buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import annotate_logic as logic
from app.annotate_view import apply_drawing, window
from vision.datasets.store import LabeledBox

BOXES = [LabeledBox(10, 20, 50, 80, "1m"), LabeledBox(60, 20, 100, 80, "5p"), LabeledBox(110, 22, 150, 82, "back")]
WHOLE = window((400, 300))


def moved_drawing(scale: float, index: int, **changes: float) -> dict:
    """The canvas' drawing after fabric moved (left/top) or scaled (scaleX/scaleY) object `index`."""
    drawing = logic.boxes_to_drawing(BOXES, scale, handles=logic.HANDLE_SIZE)
    drawing["objects"][index].update(changes)
    return drawing


def test_a_transformed_object_reads_back_as_the_moved_and_resized_box() -> None:
    scale = 0.5
    drawing = moved_drawing(scale, 1, left=100.0, top=60.0, scaleX=1.5, scaleY=0.5)  # dragged, then a corner pulled
    got = logic.drawing_to_boxes(drawing, scale, "9s", 400, 300)
    assert got[1].cls == "5p"
    assert (got[1].x1, got[1].y1, got[1].x2, got[1].y2) == pytest.approx((200, 120, 260, 150))
    assert got[0] == BOXES[0] and got[2] == BOXES[2]


def test_a_moved_box_keeps_its_class_and_place_and_is_picked() -> None:
    scale = 0.5
    local = logic.drawing_to_boxes(moved_drawing(scale, 1, left=150.0, top=100.0), scale, "9s", 400, 300)
    edit = apply_drawing(BOXES, [0, 1, 2], BOXES, [0, 1, 2], local, WHOLE)
    assert edit is not None
    assert [b.cls for b in edit.boxes] == ["1m", "5p", "back"]
    assert (edit.boxes[1].x1, edit.boxes[1].y1) == pytest.approx((300, 200))
    assert edit.pick == 1
    assert edit.origin == [0, 1, 2]  # moved far from where it was saved, it is still saved box 1 (its sidecar refs follow)


def test_a_canvas_without_labels_keeps_the_moved_boxes_class() -> None:
    scale = 0.5
    drawing = logic.boxes_to_drawing(BOXES, scale, labeled=False)
    drawing["objects"][0].update(left=40.0)
    local = logic.drawing_to_boxes(drawing, scale, "9s", 400, 300)
    edit = apply_drawing(BOXES, [0, 1, 2], BOXES, [0, 1, 2], local, WHOLE, labeled=False)
    assert edit is not None and [b.cls for b in edit.boxes] == ["1m", "5p", "back"] and edit.pick == 0


def test_a_box_moved_in_the_zoomed_window_moves_in_photo_pixels_and_others_stay() -> None:
    boxes = [LabeledBox(10, 20, 50, 80, "1m"), LabeledBox(260, 170, 300, 230, "7z")]
    win = window((400, 300), zoom=2, fx=0.75, fy=0.75)  # the bottom-right quarter: (200, 150)–(400, 300)
    shown = [1]
    scale = 2.0
    drawing = logic.boxes_to_drawing([LabeledBox(60, 20, 100, 80, "7z")], scale)
    drawing["objects"][0].update(left=200.0, top=100.0)  # 20 photo px right, 30 down
    local = logic.drawing_to_boxes(drawing, scale, "1m", round(win.w), round(win.h))
    edit = apply_drawing(boxes, [0, 1], boxes, shown, local, win)
    assert edit is not None and edit.boxes[0] == boxes[0] and edit.pick == 1
    assert (edit.boxes[1].x1, edit.boxes[1].y1, edit.boxes[1].x2, edit.boxes[1].y2) == pytest.approx((300, 200, 340, 260))
    assert edit.boxes[1].cls == "7z"


def test_an_unchanged_canvas_changes_nothing_and_a_drawn_box_is_added_last() -> None:
    scale = 0.5
    same = logic.drawing_to_boxes(logic.boxes_to_drawing(BOXES, scale), scale, "9s", 400, 300)
    assert apply_drawing(BOXES, [0, 1, 2], BOXES, [0, 1, 2], same, WHOLE) is None
    new = LabeledBox(200, 100, 240, 160, "3z")
    edit = apply_drawing(BOXES, [0, 1, 2], BOXES, [0, 1, 2], [*same, new], WHOLE)
    assert edit is not None and edit.pick == 3 and edit.origin == [0, 1, 2, None] and edit.boxes[3].cls == "3z"


def test_a_lost_box_matches_the_rest_to_their_saved_boxes() -> None:
    edit = apply_drawing(BOXES, [0, 1, 2], BOXES, [0, 1, 2], [BOXES[0], BOXES[2]], WHOLE)
    assert edit is not None and edit.origin == [0, 2] and edit.pick is None


def test_move_handles_are_fingertip_sized_only_when_moving() -> None:
    moving = logic.boxes_to_drawing(BOXES, 1.0, handles=logic.HANDLE_SIZE)["objects"][0]
    drawing = logic.boxes_to_drawing(BOXES, 1.0)["objects"][0]
    assert moving["cornerSize"] >= 16 and moving["touchCornerSize"] >= 16 and "cornerSize" not in drawing


def test_the_annotate_page_offers_draw_and_move_and_keeps_the_pick_after_a_class_change(dirs: Path) -> None:
    from tests.app.test_annotate_page import annotate_page, png

    at = annotate_page()
    at.file_uploader(key="ann_upload").set_value([("a.png", png(), "image/png")]).run()
    mode = at.segmented_control(key="ann_canvas_mode")
    assert mode.value == "draw" and [o.content for o in mode.proto.options] == ["画框", "移动"]
    mode.set_value("move").run()
    assert not at.exception, at.exception
    assert at.segmented_control(key="ann_canvas_mode").value == "move"
    for x1, cls in ((10, "1m"), (60, "5p"), (110, "back")):  # boxes added by hand (the canvas needs a browser)
        at.selectbox(key="ann_new_cls").set_value(cls)
        at.number_input(key="ann_x1").set_value(float(x1))
        at.number_input(key="ann_x2").set_value(float(x1 + 40))
        at.button(key="ann_add_btn").click().run()
    at.selectbox(key="ann_sel").set_value(1).run()
    at.selectbox(key="ann_sel_cls").set_value("7z").run()
    assert [b.cls for b in at.session_state["ann_boxes"]] == ["1m", "7z", "back"]
    assert at.selectbox(key="ann_sel").value == 1  # the box stays the picked one
    assert at.segmented_control(key="ann_canvas_mode").value == "move"  # and the canvas stays in 移动

