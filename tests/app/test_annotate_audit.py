"""标注's 查错标: the boxes whose label the shipped classifier surely reads as another tile are listed and the first
is picked; no label is changed."""

from __future__ import annotations

from pathlib import Path

from app.annotate_logic import class_label
from tests.app.test_annotate_page import infos, with_a_drawn_scene


def test_a_box_labelled_with_the_wrong_tile_is_listed_and_picked_not_changed(dirs: Path) -> None:
    at, _ = with_a_drawn_scene()
    drawn = list(at.session_state["ann_boxes"])  # pre-drawn and named by the shipped models
    faces = [i for i, b in enumerate(drawn) if b.cls != "back"]
    assert len(faces) >= 6
    at.button(key="ann_audit").click().run()
    assert "模型没有发现可疑的标注" in infos(at)  # the model agrees with its own names

    wrong = {i: ("1m" if drawn[i].cls != "1m" else "9p") for i in faces[1:6]}  # five labels made wrong
    at.session_state["ann_boxes"] = [b._replace(cls=wrong[i]) if i in wrong else b for i, b in enumerate(drawn)]
    at.session_state["ann_pick"] = 0
    at.session_state["ann_version"] = at.session_state["ann_version"] + 1  # as a class chosen in the selector redraws the canvas
    at.button(key="ann_audit").click().run()
    assert not at.exception, at.exception
    text = infos(at)
    listed = [i for i in wrong if f"#{i} 标的是{class_label(wrong[i], 'zh')}，模型有" in text]
    assert len(listed) >= 3 and f"{len(listed)} 个框的牌面可能标错了" in text and "不要照它直接改" in text
    assert at.session_state["ann_pick"] == min(listed)
    assert [b.cls for b in at.session_state["ann_boxes"]] == [wrong.get(i, b.cls) for i, b in enumerate(drawn)]  # unchanged
