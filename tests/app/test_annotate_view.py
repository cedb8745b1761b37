"""标注 on a phone: the canvas fits the screen, zoom shows part of the photo, and a canvas edit in the
zoomed window changes only the boxes there."""

from __future__ import annotations

from app.annotate_view import Window, canvas_width, from_window, to_window, view_scale, window
from vision.datasets.store import LabeledBox


def box(x: float, y: float, cls: str = "1m") -> LabeledBox:
    return LabeledBox(x, y, x + 40, y + 60, cls)


def test_the_canvas_fits_a_phone_and_a_desktop() -> None:
    assert canvas_width(390) == 358
    assert canvas_width(1366) == 700
    assert canvas_width(None) == 700  # before the browser said its width


def test_a_photo_on_a_phone_is_scaled_to_the_screen_width() -> None:
    win = window((4000, 3000))
    assert win == Window(0, 0, 4000, 3000)
    assert round(view_scale(win, 390) * 4000) == 358


def test_zoom_shows_a_quarter_of_the_photo_where_the_player_panned() -> None:
    win = window((4000, 3000), zoom=2, fx=0.75, fy=0.25)
    assert win == Window(2000, 0, 2000, 1500)  # centred at (3000, 750) px
    assert window((4000, 3000), zoom=2, fx=0.1, fy=0.5) == Window(0, 750, 2000, 1500)  # kept inside the photo
    assert window((4000, 3000), zoom=2, fx=1.0, fy=1.0) == Window(2000, 1500, 2000, 1500)
    assert view_scale(win, 390) * 40 > 7  # a 40 px tile is drawn 7 px wide instead of 3.6


def test_only_boxes_in_the_window_go_on_the_canvas_moved_to_its_origin() -> None:
    boxes = [box(100, 100), box(2500, 200), box(3900, 2900)]
    shown, index = to_window(boxes, Window(2000, 0, 2000, 1500))
    assert index == [1] and shown == [box(500, 200)]


def test_a_box_moved_on_the_zoomed_canvas_stays_in_its_place_and_others_are_untouched() -> None:
    boxes = [box(100, 100, "1m"), box(2500, 200, "2m"), box(3900, 2900, "3m")]
    win = Window(2000, 0, 2000, 1500)
    _, index = to_window(boxes, win)
    after = from_window(boxes, index, [box(510, 205, "2m"), box(800, 300, "9p")], win)
    assert after == [box(100, 100, "1m"), box(2510, 205, "2m"), box(3900, 2900, "3m"), box(2800, 300, "9p")]


def test_a_box_removed_on_the_canvas_goes() -> None:
    boxes = [box(100, 100, "1m"), box(2500, 200, "2m"), box(2600, 200, "3m")]
    win = Window(2000, 0, 2000, 1500)
    _, index = to_window(boxes, win)
    assert from_window(boxes, index, [box(600, 200, "3m")], win) == [box(100, 100, "1m"), box(2600, 200, "3m")]


def test_a_box_cut_by_the_windows_edge_stays_off_the_canvas_and_is_kept_whole() -> None:
    boxes = [box(1980, 200, "1m"), box(2500, 200, "2m")]  # the first straddles the window's left edge
    win = Window(2000, 0, 2000, 1500)
    shown, index = to_window(boxes, win)
    assert index == [1]
    assert from_window(boxes, index, shown, win) == boxes
