"""标注: upload photos into a team dataset, fix the boxes (canvas or table), save, mark reviewed.

The conversions live in `app.annotate_logic` (tested without a browser); this file is widgets and
session state.  Boxes being edited are kept in ``st.session_state["ann_boxes"]`` (photo pixels); the box picked
for editing in ``ann_pick`` (its index) and the class of new boxes in ``ann_new_class`` (a code): the page's own
record, which the selectors ``ann_sel`` / ``ann_sel_cls`` / ``ann_new_cls`` are told again on every run (`show_choice`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import streamlit as st

from app import annotate_logic as logic
from app import annotate_view as view
from app.views.common import lang, tr
from scoring.errors import JingsuanError
from vision.datasets.store import (
    DatasetStore,
    DuplicateExampleError,
    LabeledBox,
    default_datasets_root,
    list_datasets,
    open_dataset,
)
from vision.reader.detection import CLASS_NAMES

DEFAULT_DATASET = "table"


def err_text(exc: JingsuanError) -> str:
    """The error in this session's language."""
    return exc.zh if lang() == "zh" else exc.en


def cls_label(code: str) -> str:
    """A class as shown in selectors."""
    return logic.class_label(code, lang())


def cls_labels() -> Callable[[str], str]:
    """Classes as this run's selectors show them: the language is read now, so every label a widget is given, and
    any Streamlit works out for it later, is in the language the page was drawn in."""
    return partial(logic.class_label, lang=lang())


def show_choice(key: str, value: object) -> None:
    """Tell the browser a selector's choice again, in this run's labels (call before drawing it). Streamlit's browser
    keeps a choice as the label it showed and sends that label back on every rerun; once the labels change (another
    language, the box picker's entry after a class change) it names no option: the selectors kept their Chinese labels
    after English was chosen, and the next tap reset them (the picked box to #0, new boxes to 一万)."""
    st.session_state[key] = value


def picked_box(ss: Any) -> int:
    """The box picked for editing (its index; 0 when none is, or the one picked is gone)."""
    i = ss.get("ann_pick")
    n = len(ss.get("ann_boxes", []))
    return i if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < n else 0


# ----------------------------------------------------------------------------- state


def current_store() -> DatasetStore | None:
    """The chosen dataset (created on first use), or None after showing why it cannot be opened."""
    try:
        return open_dataset(st.session_state.get("ann_dataset", DEFAULT_DATASET))
    except JingsuanError as exc:
        st.error(err_text(exc))
        return None


def load_stem(store: DatasetStore, stem: str) -> None:
    """Put an example's boxes into the editor (forgetting unsaved edits of another photo)."""
    ss = st.session_state
    ex = store.load(stem)
    ss["ann_loaded"] = stem
    ss["ann_boxes"] = list(ex.boxes)
    ss["ann_origin"] = list(range(len(ex.boxes)))
    ss["ann_saved_boxes"] = list(ex.boxes)
    ss["ann_size"] = (ex.width, ex.height)
    ss["ann_reviewed"] = ex.reviewed
    ss["ann_pick"] = 0
    bump_canvas()


def sticky_notice(key: str, about: object, new: list[tuple[str, str]] | None = None) -> None:
    """Show the notices kept under `key` for as long as what they are `about` is unchanged, instead of
    for one run: the canvas component reruns the page on its own (when a photo loads, after a save),
    and a one-run message was gone before the labeller could read it.  `new` ((kind, text) pairs,
    kind = success/info/warning/error) replaces them."""
    ss = st.session_state
    if new is not None:
        ss[key] = (about, new)
    kept = ss.get(key)
    if kept is None or kept[0] != about:
        ss.pop(key, None)
        return
    for kind, text in kept[1]:
        getattr(st, kind)(text)


def bump_canvas() -> None:
    """Redraw the canvas from the boxes (after a table edit or a load)."""
    st.session_state["ann_version"] = int(st.session_state.get("ann_version", 0)) + 1


def set_boxes(boxes: list[LabeledBox], origin: list[int | None]) -> None:
    """Replace the boxes being edited; `origin` maps each to the saved box it came from."""
    st.session_state["ann_boxes"] = boxes
    st.session_state["ann_origin"] = origin


def on_pick_box() -> None:
    """A box chosen in the box picker is the picked one (a label the browser kept from before names none: ignored)."""
    ss = st.session_state
    i = ss.get("ann_sel")
    if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(ss.get("ann_boxes", [])):
        ss["ann_pick"] = i


def on_change_class() -> None:
    """Give the picked box the class chosen in the selector."""
    ss = st.session_state
    boxes = list(ss.get("ann_boxes", []))
    i = picked_box(ss)
    if boxes and ss.get("ann_sel_cls") in CLASS_NAMES:
        boxes[i] = boxes[i]._replace(cls=ss["ann_sel_cls"])
        set_boxes(boxes, list(ss.get("ann_origin", [])))
        bump_canvas()


def on_new_class() -> None:
    """The class chosen for new boxes is kept by the page (the browser's label of it may not survive a language switch)."""
    if st.session_state.get("ann_new_cls") in CLASS_NAMES:
        st.session_state["ann_new_class"] = st.session_state["ann_new_cls"]


def new_box_class() -> str:
    """The class new boxes get (drawn on the canvas or added by hand)."""
    code = st.session_state.get("ann_new_class")
    return code if code in CLASS_NAMES else CLASS_NAMES[0]


def delete_box() -> None:
    """Remove the picked box."""
    ss = st.session_state
    boxes, origin = list(ss.get("ann_boxes", [])), list(ss.get("ann_origin", []))
    if boxes:
        i = picked_box(ss)
        boxes.pop(i)
        origin.pop(i)
        set_boxes(boxes, origin)
        ss["ann_pick"] = max(0, min(i, len(boxes) - 1))
        bump_canvas()


def add_box(x1: float, y1: float, x2: float, y2: float, cls: str) -> None:
    """Append a box typed in by hand (photo pixels)."""
    ss = st.session_state
    box = LabeledBox(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2), cls)
    if box.x2 - box.x1 < logic.MIN_BOX_SIDE or box.y2 - box.y1 < logic.MIN_BOX_SIDE:
        return
    set_boxes([*ss.get("ann_boxes", []), box], [*ss.get("ann_origin", []), None])
    bump_canvas()


def save_current(store: DatasetStore) -> None:
    """Write the edited boxes (and the review flag) of the loaded photo."""
    ss = st.session_state
    stem = ss.get("ann_loaded")
    if not stem:
        return
    try:
        logic.save_edited(store, stem, ss.get("ann_boxes", []), ss.get("ann_origin"))
        store.set_reviewed(stem, bool(ss.get("ann_reviewed", False)))
    except JingsuanError as exc:
        ss["ann_flash"] = ((stem, True), [("error", tr("ann_error", msg=err_text(exc)))])  # the edits stay unsaved
        return
    n = len(ss.get("ann_boxes", []))
    from app.widgets.taught import teach_annotation  # the table's correction memory learns the saved boxes

    teach_annotation(store, stem, ss.get("ann_boxes", []), lang())
    load_stem(store, stem)
    ss["ann_flash"] = ((stem, False), [("success", tr("ann_saved", n=n))])


def toggle_reviewed(store: DatasetStore) -> None:
    """标为已核对 / 取消已核对 (or V): flip the loaded photo's review mark and save its labels with it."""
    st.session_state["ann_reviewed"] = not st.session_state.get("ann_reviewed", False)
    save_current(store)


@st.cache_resource(show_spinner=False)
def _named_finder() -> Any:
    from vision.datasets.unlabelled import named_finder

    return named_finder()


def find_unboxed(store: DatasetStore) -> None:
    """查漏标: add, as unsaved boxes named by the model, the tiles the shipped models see that no box covers."""
    ss = st.session_state
    stem = ss.get("ann_loaded")
    if not stem:
        return
    from vision.reader.image import load_image

    try:
        found = _named_finder()(load_image(store.image_path(stem)))
    except JingsuanError as exc:
        ss["ann_check_flash"] = ((stem, list(ss.get("ann_boxes", []))), [("error", tr("ann_check_failed", msg=err_text(exc)))])
        return
    boxes = list(ss.get("ann_boxes", []))
    new = logic.unboxed_tiles(boxes, found)
    if new:
        set_boxes(boxes + new, [*ss.get("ann_origin", [None] * len(boxes)), *[None] * len(new)])
        bump_canvas()
    notice = ("warning", tr("ann_check_added", n=len(new))) if new else ("success", tr("ann_check_none"))
    ss["ann_check_flash"] = ((stem, list(ss.get("ann_boxes", []))), [notice])


@st.cache_resource(show_spinner=False)
def _label_namer() -> Any:
    from vision.datasets.audit import classifier_namer

    return classifier_namer()


def find_doubted_labels(store: DatasetStore) -> None:
    """查错标: say which boxes the shipped classifier surely reads as another tile (`vision.datasets.audit`), and pick
    the first to check; no label is changed (the classifier errs too)."""
    from vision.datasets.audit import label_doubts
    from vision.reader.image import load_image

    ss = st.session_state
    stem = ss.get("ann_loaded")
    if not stem:
        return
    boxes = list(ss.get("ann_boxes", []))
    labels = [((b.x1, b.y1, b.x2, b.y2), b.cls) for b in boxes]
    try:
        readings = _label_namer()(load_image(store.image_path(stem)), [box for box, _ in labels]) if labels else []
    except JingsuanError as exc:
        ss["ann_audit_flash"] = ((stem, boxes), [("error", tr("ann_audit_failed", msg=err_text(exc)))])
        return
    where = {box: i for i, (box, _) in enumerate(labels)}
    doubts = [(where[d.box], d) for d in label_doubts(stem, labels, readings)]
    if doubts:
        ss["ann_pick"] = doubts[0][0]  # the first doubted box, ready for its class to be checked
        items = "；".join(tr("ann_audit_item", i=i, label=cls_label(d.label), reading=cls_label(d.reading), p=round(100 * d.p))
                         for i, d in doubts)
        notice = ("warning", tr("ann_audit_found", n=len(doubts), items=items))
    else:
        notice = ("success", tr("ann_audit_none"))
    ss["ann_audit_flash"] = ((stem, boxes), [notice])


#: Laptop keyboard shortcuts of the 标注 page (Streamlit button shortcuts; shown on the buttons).
SHORTCUTS = {"ann_save": "S", "ann_delete": "Delete", "ann_toggle_reviewed": "V"}


# ----------------------------------------------------------------------------- page parts


def use_dataset(name: str) -> None:
    """Work in dataset `name` from now on (uploads go there)."""
    ss = st.session_state
    ss["ann_dataset"] = name
    ss.pop("ann_stem", None)
    ss.pop("ann_loaded", None)


def create_dataset(root: Any) -> None:
    """创建: make the dataset and switch to it."""
    name = str(st.session_state.get("ann_new_name", "")).strip()
    if not name:
        return
    try:
        open_dataset(name, root)._ensure_layout()
    except JingsuanError as exc:
        st.session_state["ann_create_error"] = err_text(exc)
        return
    use_dataset(name)


def dataset_part() -> DatasetStore | None:
    ss = st.session_state
    ss.setdefault("ann_dataset", DEFAULT_DATASET)
    root = default_datasets_root()
    names = sorted(set(list_datasets(root)) | {ss["ann_dataset"]})
    c1, c2 = st.columns([2, 3])
    ss["ann_pick_dataset"] = ss["ann_dataset"]  # the picker shows the dataset in use, whoever changed it
    c1.selectbox(tr("ann_dataset"), names, key="ann_pick_dataset", on_change=lambda: use_dataset(ss["ann_pick_dataset"]))
    with c2.form("ann_new_dataset_form", clear_on_submit=True):
        st.text_input(tr("ann_new_dataset"), key="ann_new_name")
        st.form_submit_button(tr("create"), on_click=create_dataset, args=(root,))
    if ss.get("ann_create_error"):
        st.error(ss.pop("ann_create_error"))
    st.caption(f"{tr('data_dir')}: {root / ss['ann_dataset']}")
    return current_store()


def stats_part(store: DatasetStore) -> None:
    reviewed, total = store.progress()
    st.progress(reviewed / total if total else 0.0, text=tr("ann_progress", r=reviewed, n=total))
    if total:
        st.caption(tr("ann_finetune_hint", name=store.name))
    with st.expander(tr("ann_counts")):
        import pandas as pd

        counts = store.class_counts()
        frame = pd.DataFrame({tr("ann_class"): [cls_label(c) for c in counts], tr("ann_count"): list(counts.values())})
        st.dataframe(frame, hide_index=True, height=300)


def prelabel(data: bytes) -> tuple[list[LabeledBox], bool]:
    """Boxes the shipped model draws on a photo, read as the current table taught its tiles → (boxes, model_present)."""
    from app.views.score import read_photo
    from app.widgets.taught import table_memory

    reading = read_photo(data, memory=table_memory(lang()))
    if reading.message:
        return [], False
    return logic.detections_to_boxes(reading.detections), True


def upload_part(store: DatasetStore) -> None:
    ss = st.session_state
    files = st.file_uploader(
        tr("ann_upload"), type=["jpg", "jpeg", "png", "webp"], accept_multiple_files=True, key="ann_upload"
    )
    seen: set[str] = ss.setdefault("ann_seen", set())
    added: list[str] = []
    notes: list[str] = []
    keys = []
    for f in files or []:
        data = f.getvalue()
        key = f"{store.root}:{f.name}:{len(data)}"
        keys.append(key)
        if key in seen:
            continue
        seen.add(key)
        boxes, has_model = prelabel(data)
        try:
            stem = store.add_example(data, boxes, None, source="upload", original_name=f.name)
        except DuplicateExampleError as dup:
            notes.append(tr("ann_duplicate", name=f.name))
            ss["ann_stem"] = dup.stem
            continue
        except JingsuanError as exc:
            notes.append(f"{f.name}: {err_text(exc)}")
            continue
        added.append(stem)
        notes.append(tr("ann_prelabelled", name=f.name, n=len(boxes)) if has_model else tr("ann_no_model"))
    if added:
        ss["ann_stem"] = added[0]
        ss.pop("ann_loaded", None)
    report = [("success", tr("ann_added", n=len(added)))] if added else []
    report += [("info", note) for note in dict.fromkeys(notes)]
    # the report of an upload stays while the uploader holds those files
    sticky_notice("ann_upload_report", tuple(keys), report or None)


def on_switch_photo(store: DatasetStore) -> None:
    """Another photo chosen: the last one's unsaved boxes are saved first (its review mark untouched), and said."""
    ss = st.session_state
    ss["ann_stem"] = ss.get("ann_stem_pick")
    stem = ss.get("ann_loaded")
    if not stem or logic.same_boxes(ss.get("ann_boxes", []), ss.get("ann_saved_boxes", []), tol=0.01):
        return
    try:
        logic.save_edited(store, stem, ss.get("ann_boxes", []), ss.get("ann_origin"))
    except JingsuanError as exc:
        ss["ann_stem"] = stem  # stay on the photo whose edits could not be saved
        ss["ann_flash"] = ((stem, True), [("error", tr("ann_error", msg=err_text(exc)))])
        return
    ss["ann_switch_note"] = (ss["ann_stem"], tr("ann_saved_on_switch", n=len(ss.get("ann_boxes", []))))


def pick_part(store: DatasetStore) -> str | None:
    ss = st.session_state
    stems = store.stems()
    if not stems:
        st.info(tr("ann_empty"))
        return None
    if ss.get("ann_stem") not in stems:
        ss["ann_stem"] = stems[0]
    sidecars: dict[str, dict[str, Any]] = {}
    for s in stems:
        try:
            sidecars[s] = store.read_sidecar(s)
        except JingsuanError:
            sidecars[s] = {}

    def label(s: str) -> str:
        """A photo as the picker shows it: never its review mark, since Streamlit keeps a selectbox's choice as
        the label shown, and a ✓ that came with a review left the browser's choice naming no photo (it jumped)."""
        return f"{sidecars.get(s, {}).get('original_name') or s} ({s[:8]})"

    ss["ann_stem_pick"] = ss["ann_stem"]  # the picker shows the photo in use, whoever changed it
    st.selectbox(tr("ann_photo"), stems, format_func=label, key="ann_stem_pick", on_change=on_switch_photo, args=(store,))
    stem = ss["ann_stem"]
    if ss.get("ann_loaded") != stem:
        try:
            load_stem(store, stem)
        except JingsuanError as exc:
            st.error(err_text(exc))
            return None
    note = ss.get("ann_switch_note")
    if note and note[0] == stem:
        st.info(note[1])
    elif note:
        ss.pop("ann_switch_note", None)
    return stem


#: What a drag on the canvas does: draw a new box, or move and resize the boxes there.
CANVAS_MODES = ("draw", "move")


def mode_part() -> str:
    """画框 / 移动: the canvas' mode, as two big buttons a thumb can hit."""
    mode = st.segmented_control(tr("ann_mode"), CANVAS_MODES, key="ann_canvas_mode", default="draw", required=True,
                                format_func=lambda m: tr("ann_mode_rect" if m == "draw" else "ann_mode_move"))
    return mode if mode in CANVAS_MODES else "draw"


def png_data_url(image: Any) -> str:
    """A PIL image as a data: URL (the canvas' background)."""
    import base64
    import io

    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def moving_canvas(sdc: Any, background: Any, width: int, height: int, drawing: dict[str, Any], key: str) -> Any:
    """The canvas in fabric's transform mode: a drag moves a box, its corners resize it, nothing new is drawn.

    Releases before 0.12 name the mode (transform, then edit); later ones keep it only behind their
    toolbar's edit toggle, which shows on hover (never on a phone) and is off again after each redraw, so
    the canvas is asked for the mode by its name in the component's own data."""
    modes = getattr(sdc, "_VALID_DRAWING_MODES", frozenset({"transform"}))
    for name in ("transform", "edit"):
        if name in modes:
            return sdc.st_canvas(fill_color="rgba(0, 0, 0, 0)", stroke_width=2, background_image=background, height=height,
                                 width=width, drawing_mode=name, initial_drawing=drawing, key=key)
    base = {**drawing, "background": ""}
    data = {
        "fillColor": "rgba(0, 0, 0, 0)", "strokeWidth": 2, "strokeColor": "#000000", "backgroundColor": "",
        "backgroundImageURL": png_data_url(background), "realtimeUpdateStreamlit": True, "canvasWidth": width,
        "canvasHeight": height, "drawingMode": "edit", "initialDrawing": base, "displayRadius": 3, "returnImageData": False,
        "disabled": False, "backgroundImageFit": "stretch", "maxDisplayHeight": None, "fontSize": 12, "label": "",
    }
    got = sdc.out(data=data, key=key, default={"drawing": {"raw": base, "data": None}, "backgroundFit": None},
                  on_drawing_change=lambda: None, on_backgroundFit_change=lambda: None, width="content", height="content")
    return sdc.CanvasResult((got.get("drawing") or {}).get("raw", base), None, False)


def canvas_part(store: DatasetStore, stem: str) -> None:
    """The canvas over the photo (画框: a drag draws a box; 移动: a drag moves or resizes one); falls back to
    the table when the component cannot load."""
    ss = st.session_state
    width, height = ss["ann_size"]
    show_choice("ann_new_cls", new_box_class())
    st.selectbox(tr("ann_new_cls"), CLASS_NAMES, format_func=cls_labels(), key="ann_new_cls", on_change=on_new_class)
    moving = mode_part() == "move"
    try:
        import streamlit_drawable_canvas as sdc
    except Exception as exc:  # the component needs a running Streamlit server (not AppTest) and a matching version
        st.caption(tr("ann_no_canvas", msg=type(exc).__name__))
        return
    from PIL import Image

    from app.widgets.screen import screen_width
    from app.widgets.touch import touch_draws_on_canvas

    touch_draws_on_canvas()
    win = zoom_part(width, height)
    scale = view.view_scale(win, screen_width())  # fits the phone's width; zoomed in, small tiles grow
    cw, ch = logic.canvas_size(round(win.w), round(win.h), scale)
    with Image.open(store.image_path(stem)) as img:
        background = img.convert("RGB").crop(win.crop).resize((cw, ch))
    shown, shown_index = view.to_window(ss["ann_boxes"], win)
    labeled = "labeled_rect" in getattr(sdc, "_VALID_DRAWING_MODES", frozenset())
    new_cls = new_box_class()
    st.caption(tr("ann_canvas_hint_move" if moving else "ann_canvas_hint_draw"))
    drawing = logic.boxes_to_drawing(shown, scale, labeled, handles=logic.HANDLE_SIZE if moving else None)
    key = f"ann_canvas_{stem}_{ss.get('ann_version', 0)}_{cw}_{win.crop}"
    if moving:
        result = moving_canvas(sdc, background, cw, ch, drawing, key)
    else:
        result = sdc.st_canvas(
            fill_color="rgba(0, 0, 0, 0)",
            stroke_width=2,
            stroke_color=logic.box_colour(new_cls),
            background_image=background,
            height=ch,
            width=cw,
            drawing_mode="labeled_rect" if labeled else "rect",
            initial_drawing=drawing,
            key=key,
            font_size=12,
            **({"label": new_cls} if labeled else {}),
        )
    if result.json_data is None:
        return
    local = logic.drawing_to_boxes(result.json_data, scale, new_cls, win.w, win.h)
    edit = view.apply_drawing(ss["ann_boxes"], ss.get("ann_origin"), ss.get("ann_saved_boxes", []), shown_index, local, win,
                              labeled)
    if edit is None:
        return
    set_boxes(edit.boxes, edit.origin)
    if edit.pick is not None:  # the box just drawn or moved is the one the class selector below applies to
        ss["ann_pick"] = edit.pick


def zoom_part(width: int, height: int) -> view.Window:
    """放大 1–4× and, zoomed in, where to look (the canvas shows that part of the photo)."""
    zoom = st.segmented_control(view.say("zoom", lang()), list(view.ZOOMS), format_func=lambda z: f"{z}×",
                                key="ann_zoom", default=1) or 1
    fx = fy = 50
    if zoom > 1:
        with st.container(key="ann_pan", horizontal=True, gap="medium"):
            fx = st.slider(view.say("pan_x", lang()), 0, 100, 50, step=5, key="ann_pan_x")
            fy = st.slider(view.say("pan_y", lang()), 0, 100, 50, step=5, key="ann_pan_y")
    return view.window((width, height), int(zoom), fx / 100, fy / 100)


def boxes_part(store: DatasetStore) -> None:
    ss = st.session_state
    boxes: list[LabeledBox] = ss.get("ann_boxes", [])
    st.subheader(tr("ann_boxes", n=len(boxes)))
    if boxes:
        import pandas as pd

        frame = pd.DataFrame(
            [
                {"#": i, tr("ann_class"): cls_label(b.cls), "x1": round(b.x1), "y1": round(b.y1), "x2": round(b.x2), "y2": round(b.y2)}
                for i, b in enumerate(boxes)
            ]
        )
        st.dataframe(frame, hide_index=True)
        pick = ss["ann_pick"] = picked_box(ss)
        show_choice("ann_sel", pick)  # the picker and the class selector show the picked box, in this run's labels
        show_choice("ann_sel_cls", boxes[pick].cls)
        label = cls_labels()
        c1, c2, c3 = st.columns([2, 2, 1])
        c1.selectbox(
            tr("ann_pick_box"),
            list(range(len(boxes))),
            format_func=lambda i: f"#{i} {label(boxes[i].cls)}",
            key="ann_sel",
            on_change=on_pick_box,
        )
        c2.selectbox(tr("ann_box_cls"), CLASS_NAMES, format_func=label, key="ann_sel_cls", on_change=on_change_class)
        c3.button(tr("ann_delete_box"), key="ann_delete", on_click=delete_box, shortcut=SHORTCUTS["ann_delete"])
    with st.expander(tr("ann_add_box")):
        w, h = ss.get("ann_size", (1, 1))
        c = st.columns(4)
        x1 = c[0].number_input("x1", 0.0, float(w), 0.0, key="ann_x1")
        y1 = c[1].number_input("y1", 0.0, float(h), 0.0, key="ann_y1")
        x2 = c[2].number_input("x2", 0.0, float(w), min(float(w), 40.0), key="ann_x2")
        y2 = c[3].number_input("y2", 0.0, float(h), min(float(h), 60.0), key="ann_y2")
        if st.button(tr("ann_add"), key="ann_add_btn"):
            add_box(x1, y1, x2, y2, new_box_class())
            st.rerun()


def save_part(store: DatasetStore) -> None:
    ss = st.session_state
    unsaved = not logic.same_boxes(ss.get("ann_boxes", []), ss.get("ann_saved_boxes", []), tol=0.01)
    if unsaved:
        st.warning(tr("ann_unsaved"))
    c1, c2, c3 = st.columns(3)
    c1.button(tr("ann_save"), type="primary", key="ann_save", on_click=save_current, args=(store,),
              shortcut=SHORTCUTS["ann_save"])
    # the review mark is a button, not a checkbox: a browser re-sent a tick it still showed for the last photo
    # as this photo's (issue 21), and a button's tap counts once
    reviewed = bool(ss.get("ann_reviewed"))
    c2.markdown(tr("ann_is_reviewed" if reviewed else "ann_not_reviewed"))
    c3.button(tr("ann_unmark_reviewed" if reviewed else "ann_mark_reviewed"), key="ann_toggle_reviewed",
              on_click=toggle_reviewed, args=(store,), shortcut=SHORTCUTS["ann_toggle_reviewed"])
    # "saved" stays while that photo has nothing unsaved; a failed save's error while its edits are unsaved
    sticky_notice("ann_flash", (ss.get("ann_loaded"), unsaved))
    k1, k2 = st.columns(2)
    k1.button(tr("ann_check"), key="ann_check", on_click=find_unboxed, args=(store,), help=tr("ann_check_help"))
    k2.button(tr("ann_audit"), key="ann_audit", on_click=find_doubted_labels, args=(store,), help=tr("ann_audit_help"))
    # each check's result stays while the boxes are as it left them
    sticky_notice("ann_check_flash", (ss.get("ann_loaded"), list(ss.get("ann_boxes", []))))
    sticky_notice("ann_audit_flash", (ss.get("ann_loaded"), list(ss.get("ann_boxes", []))))


def render() -> None:
    """The 标注 page."""
    st.title(tr("page_annotate"))
    store = dataset_part()
    if store is None:
        return
    upload_part(store)
    stats_part(store)
    stem = pick_part(store)
    if stem is None:
        return
    canvas_part(store, stem)
    boxes_part(store)
    save_part(store)
