"""标注 after a language switch (and back): the box selectors speak the page's language and keep the picked box, its
class and the class of new boxes. Streamlit's browser keeps a choice as the label it showed and sends that label back
on every rerun; once the labels changed language it names no option, so the selectors kept their Chinese labels after
English was chosen, and the next tap reset them (the picked box to #0, new boxes to 一万)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import ButtonGroup, Selectbox, Widget

from tests.app.test_annotate_page import annotate_page, png

CHOICES = (Selectbox, ButtonGroup)


class Browser:
    """Streamlit's browser as far as choices go: each selector shows, and sends back on every rerun, the label of the
    option last chosen in it or last set by the page (in that run's labels), whatever labels the page draws later."""

    def __init__(self, at: AppTest) -> None:
        self.at = at
        self.shown: dict[str, str | tuple[str, ...]] = {}
        self.look()

    def look(self) -> None:
        """Take in what the last run sent: a selector seen first shows its default, one the page set shows that."""
        assert not self.at.exception, self.at.exception
        for node in self.at._tree:
            if isinstance(node, Selectbox) and (node.proto.set_value or node.id not in self.shown):
                self.shown[node.id] = node.proto.raw_value if node.proto.set_value else node.options[node.proto.default]
            elif isinstance(node, ButtonGroup) and (node.proto.set_value or node.id not in self.shown):
                picked = node.proto.raw_values if node.proto.set_value else [node.options[i] for i in node.proto.default]
                self.shown[node.id] = tuple(picked)

    def run(self) -> Browser:
        """A rerun (a tap anywhere): every selector sends the label it shows."""
        states = WidgetStates()
        for node in self.at._tree:
            if not isinstance(node, Widget):
                continue
            if isinstance(node, CHOICES) and node.id in self.shown:
                ws = WidgetState(id=node.id)
                label = self.shown[node.id]
                if isinstance(label, tuple):
                    ws.string_array_value.data[:] = label
                else:
                    ws.string_value = label
                states.widgets.append(ws)
            else:
                states.widgets.append(node._widget_state)
        self.at._run(states)
        self.look()
        return self

    def choose(self, key: str, label: str) -> Browser:
        """The player picks the option shown as `label` in the selector `key`."""
        node = self.at.get("selectbox")
        box = next((b for b in node if b.key == key), None) or self.at.segmented_control(key=key)
        assert label in box.options, f"{label!r} is not offered by {key}: {box.options[:5]}"
        self.shown[box.id] = (label,) if isinstance(box, ButtonGroup) else label
        return self.run()

    def language(self, code: str, via: str = "sidebar") -> Browser:
        """中文 / English in the sidebar, or under the page bar's ⚙ (a phone's)."""
        if via == "sidebar":
            self.at.sidebar.radio(key="lang").set_value(code)
        else:
            self.at.radio(key=f"lang_quick_{self.at.session_state['lang']}").set_value(code)
        return self.run()

    def shows(self, key: str) -> str | tuple[str, ...]:
        """What the selector `key` shows the player."""
        node = next(n for n in self.at._tree if isinstance(n, CHOICES) and n.key == key)
        return self.shown[node.id]


def three_boxes() -> Browser:
    """The 标注 page (中文) with a photo and three boxes added by hand: 五筒, 七条, 中 (new boxes: 中)."""
    at = annotate_page()
    at.file_uploader(key="ann_upload").set_value([("a.png", png(), "image/png")]).run()
    for x1, cls in ((10, "5p"), (60, "7s"), (110, "7z")):
        at.selectbox(key="ann_new_cls").set_value(cls)
        at.number_input(key="ann_x1").set_value(float(x1))
        at.number_input(key="ann_x2").set_value(float(x1 + 40))
        at.button(key="ann_add_btn").click().run()
    assert not at.exception, at.exception
    return Browser(at)


def classes(browser: Browser) -> list[str]:
    return [b.cls for b in browser.at.session_state["ann_boxes"]]


@pytest.mark.parametrize("via", ["sidebar", "gear"])
def test_the_box_selectors_follow_the_language_both_ways_and_keep_their_choices(dirs: Path, via: str) -> None:
    browser = three_boxes().choose("ann_sel", "#1 七条 7s")
    assert browser.shows("ann_sel_cls") == "七条 7s"
    browser.language("en", via)
    assert browser.at.title[0].value == "Annotate"
    assert browser.at.selectbox(key="ann_sel_cls").options[:2] == ["1m", "2m"]
    assert browser.shows("ann_sel") == "#1 7s"  # it said '#1 七条 7s'
    assert browser.shows("ann_sel_cls") == "7s"
    assert browser.shows("ann_new_cls") == "7z"
    browser.run()  # the next tap: the picked box and the classes stay
    assert (browser.shows("ann_sel"), browser.shows("ann_sel_cls"), browser.shows("ann_new_cls")) == ("#1 7s", "7s", "7z")
    browser.language("zh", via)
    assert (browser.shows("ann_sel"), browser.shows("ann_sel_cls"), browser.shows("ann_new_cls")) == (
        "#1 七条 7s", "七条 7s", "中 7z")  # fmt: skip
    browser.run()
    assert (browser.shows("ann_sel"), browser.shows("ann_sel_cls"), browser.shows("ann_new_cls")) == (
        "#1 七条 7s", "七条 7s", "中 7z")  # fmt: skip
    assert classes(browser) == ["5p", "7s", "7z"]  # no box changed on the way


def test_a_class_chosen_after_english_goes_to_the_box_picked_before(dirs: Path) -> None:
    browser = three_boxes().choose("ann_sel", "#2 中 7z")
    browser.language("en").run()
    assert browser.shows("ann_sel") == "#2 7z"  # it jumped back to #0
    browser.choose("ann_sel_cls", "9p")
    assert classes(browser) == ["5p", "7s", "9p"]
    assert browser.shows("ann_sel") == "#2 9p"
    browser.at.button(key="ann_add_btn").click()
    browser.run()  # a box added by hand, in English, is of the class chosen in Chinese
    assert classes(browser) == ["5p", "7s", "9p", "7z"]


def test_the_picked_box_stays_picked_after_its_class_changes(dirs: Path) -> None:
    browser = three_boxes().choose("ann_sel", "#1 七条 7s").choose("ann_sel_cls", "一万 1m")
    assert classes(browser) == ["5p", "1m", "7z"]
    assert browser.shows("ann_sel") == "#1 一万 1m"  # the picker names the box's new class
    browser.run()  # and the next tap leaves the pick where it was
    assert browser.shows("ann_sel") == "#1 一万 1m" and browser.shows("ann_sel_cls") == "一万 1m"
    browser.choose("ann_sel_cls", "二万 2m")
    assert classes(browser) == ["5p", "2m", "7z"]


def test_move_mode_stays_on_after_a_language_switch(dirs: Path) -> None:
    browser = three_boxes().choose("ann_canvas_mode", "移动")
    browser.language("en")
    assert browser.shows("ann_canvas_mode") == ("Move",)
    browser.run()
    assert browser.shows("ann_canvas_mode") == ("Move",)
    browser.language("zh").run()
    assert browser.shows("ann_canvas_mode") == ("移动",)
