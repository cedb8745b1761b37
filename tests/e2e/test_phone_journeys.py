"""Journeys of issue 21 in Debian's chromium, on a 390×844 touch screen and a 1366×900 desktop, with the
page's height and the scrolls a player needs counted (tests/e2e/journey.py).

Photo journey: a rendered photo of a winning hand (14 tiles in one row, no indicator) with glare over
one tile, so the reader misreads or doubts it; the player corrects it by tapping its box on the photo
and the right tile in the palette, says which tile won (tap it, 设为胡牌) and the flipped 精 (tap the
empty 精 place, then the tile), settles and records. Screenshots of each step go to $JINGSUAN_SHOTS
(docs/app/ when making the docs).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scoring.tiles import tile
from tests.e2e.journey import SCROLLER_JS, Journey, open_score_page, small_targets

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

#: The physical hand in the photo: 1m2m3m 4p5p6p 7s8s9s 東東東 白白 — 白 (the last) is the winning tile.
HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "5z", "5z"]
GLARE = 4  # the 5p gets a glare over its upper half
INDICATOR = "9m"
SHOTS = os.environ.get("JINGSUAN_SHOTS")


def glare_photo(path: Path) -> Path:
    """The hand rendered from tile art on green cloth, with a glare over one tile's face."""
    import cv2

    from vision.training.synth import TileArtError, render_layout

    try:
        scene = render_layout([[HAND]], tile_height=80, background=(40, 110, 60))
    except TileArtError as exc:
        pytest.fail(f"no tile art to render the test photo: run scripts/install_test_system_deps.sh ({exc})")
    img = scene.image.copy()
    x1, y1, x2, y2 = (int(v) for v in scene.tiles[GLARE].box)
    img[y1 + 4 : y1 + 4 + (y2 - y1) // 2, x1 + 3 : x2 - 3] = (235, 232, 225)
    cv2.imwrite(str(path), cv2.cvtColor(img, cv2.COLOR_RGB2BGR))
    return path


def shot(page: object, name: str) -> None:
    """A screenshot of the whole page for docs/app.md when $JINGSUAN_SHOTS names a folder (Streamlit scrolls
    its main area, not the document, so the window is made as tall as the page for the picture)."""
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    size = page.viewport_size  # type: ignore[attr-defined]
    trip = Journey(page)
    tall, top = trip.page_height(), trip.scroll_top()
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], tall)})  # type: ignore[attr-defined]
    page.wait_for_timeout(300)  # type: ignore[attr-defined]
    page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))  # type: ignore[attr-defined]
    page.set_viewport_size(size)  # type: ignore[attr-defined]
    page.wait_for_timeout(200)  # type: ignore[attr-defined]
    page.evaluate(f"(y) => {{ ({SCROLLER_JS})().scrollTop = y; }}", top)  # type: ignore[attr-defined]


def row_codes(page: object, n: int) -> list[str]:
    """The hand row as the page shows it (each tile's name), as tile codes."""
    names = [page.locator(f".st-key-hand_{i} button").inner_text().strip() for i in range(n)]  # type: ignore[attr-defined]
    return [tile(x).code for x in names]


def box_on_photo(page: object, number: int) -> object:
    """The box numbered `number` on the photo."""
    return page.locator(".jt-box", has=page.locator(f'.jt-num:text-is("{number}")'))  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_photo_correct_on_the_photo_tap_win_and_jing_settle_record(server: str, browser: object, size: str,
                                                                     tmp_path: Path) -> None:
    page, trip = open_score_page(browser, server, size)
    page.locator('[data-testid="stFileUploader"] input[type="file"]').first.set_input_files(str(glare_photo(tmp_path / "hand.png")))
    page.locator(".jt-photo img").wait_for()
    page.locator(".st-key-hand_13 button").wait_for()
    shot(page, f"{size}-1-photo-read")

    read = row_codes(page, 14)
    wrong = [i for i, (got, want) in enumerate(zip(read, HAND)) if got != want] or [GLARE]
    for i in wrong:  # tap the tile on the photo, then the right tile in the palette
        trip.tap_at(box_on_photo(page, i + 1), f"photo box {i + 1}")
        page.locator(f".st-key-hand_{i} button").wait_for()
        if i == wrong[0]:
            shot(page, f"{size}-2-tile-picked")
        trip.tap(page.locator(f".st-key-pal_{HAND[i]} button"), f"palette {HAND[i]}")
    assert row_codes(page, 14) == HAND

    trip.tap(page.locator(".st-key-hand_13 button"), "the winning 白")
    trip.tap(page.locator(".st-key-tile_set_win button"), "设为胡牌")
    page.locator(".st-key-tile_win button", has_text="白").wait_for()
    trip.tap(page.locator(".st-key-tile_ind button"), "the empty 精 place")
    trip.tap(page.locator(f".st-key-pal_{INDICATOR} button"), "palette 九万")
    page.locator(".st-key-tile_ind button", has_text="九万").wait_for()
    assert page.locator(".st-key-tile_ind button").inner_text().strip() == "九万"
    shot(page, f"{size}-3-win-and-jing-set")

    before = len(trip.scrolls)
    trip.tap(page.locator(".st-key-settle button"), "结算")
    table = settled(page)
    trip.look_at(table, "the settlement")
    trip.look_at(page.locator(".st-key-confirm button"), "确认记账")
    assert all(s.pixels > 0 for s in trip.scrolls[before:]), "the result made the player scroll back up: " + trip.summary()
    assert trip.on_screen(table) or trip.on_screen(page.locator(".st-key-confirm button"))
    settled_height = trip.page_height()
    small = small_targets(page)
    shot(page, f"{size}-4-settled")
    trip.tap(page.locator(".st-key-confirm button"), "确认记账")
    page.get_by_text("已记入第").first.wait_for()
    shot(page, f"{size}-5-recorded")
    if size == "phone":  # to the ledger by the bar at the bottom (the sidebar is folded away on a phone)
        trip.tap(page.locator(".st-key-page_bar a", has_text="牌局"), "牌局 in the page bar")
        page.get_by_role("heading", name="牌局").first.wait_for()
        frame = page.locator('[data-testid="stDataFrame"]').first
        frame.wait_for()
        box = frame.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, f"the ledger table is wider than the phone: {box}"
        shot(page, f"{size}-6-ledger")

    print(f"{size}: settled page {settled_height}px; {trip.summary()}")
    if size == "phone":  # photo, read hand, questions, winner/how, result and 确认记账 on one page of ≤ 2 screens
        assert settled_height <= 2 * trip.viewport_height, trip.summary()
        assert trip.max_screens() <= 2.75, trip.summary()  # taller only while the palette is open
        assert trip.scroll_count <= 4 and trip.scrolls_back_up == 0, trip.summary()
        assert not small, f"tap targets under 44 px: {small}"
    page.context.close()


def enter_by_hand(trip: Journey, page: object, hand: list[str], win: str, indicator: str) -> None:
    """Tap the hand into the palette, then the empty 胡 and 精 places and their tiles."""
    for code in hand:
        before = page.locator('[class*="st-key-hand_"] button').count()  # type: ignore[attr-defined]
        trip.tap(page.locator(f".st-key-pal_{code} button"), f"palette {code}")  # type: ignore[attr-defined]
        page.locator(f".st-key-hand_{before} button").wait_for()  # type: ignore[attr-defined]
    trip.tap(page.locator(".st-key-tile_win button"), "the empty 胡 place")  # type: ignore[attr-defined]
    trip.tap(page.locator(f".st-key-pal_{win} button"), f"palette {win}")  # type: ignore[attr-defined]
    page.locator(".st-key-tile_win button", has_text=tile(win).zh).wait_for()  # type: ignore[attr-defined]
    trip.tap(page.locator(".st-key-tile_ind button"), "the empty 精 place")  # type: ignore[attr-defined]
    trip.tap(page.locator(f".st-key-pal_{indicator} button"), f"palette {indicator}")  # type: ignore[attr-defined]
    page.locator(".st-key-tile_ind button", has_text=tile(indicator).zh).wait_for()  # type: ignore[attr-defined]


def settled(page: object) -> object:
    """The settlement table after 结算; a question or refusal shown instead fails the test with its words.
    On a machine busy with other work a tap can land while the app is still redrawing and be lost:
    after 20 s with nothing shown, 结算 is tapped once more (and said in the output)."""
    table = page.locator('[data-testid="stTable"]')  # type: ignore[attr-defined]
    said = page.locator('[data-testid="stAlert"]')  # type: ignore[attr-defined]
    answer = table.or_(said.filter(has_text="不能胡")).or_(said.filter(has_text="请先")).first
    try:
        answer.wait_for(timeout=20000)
    except Exception:
        print("结算 showed nothing in 20 s: tapped again")
        page.locator(".st-key-settle button").click()  # type: ignore[attr-defined]
        answer.wait_for(timeout=40000)
    assert table.count(), " / ".join(said.all_inner_texts())
    return table


def settle_and_record(trip: Journey, page: object) -> int:
    """结算, read the result without scrolling back, 确认记账; returns the page height with the result."""
    before = len(trip.scrolls)
    trip.tap(page.locator(".st-key-settle button"), "结算")  # type: ignore[attr-defined]
    table = settled(page)
    trip.look_at(table, "the settlement")
    trip.look_at(page.locator(".st-key-confirm button"), "确认记账")  # type: ignore[attr-defined]
    assert all(s.pixels > 0 for s in trip.scrolls[before:]), "the result made the player scroll back up: " + trip.summary()
    height = trip.page_height()
    trip.tap(page.locator(".st-key-confirm button"), "确认记账")  # type: ignore[attr-defined]
    page.get_by_text("已记入第").first.wait_for()  # type: ignore[attr-defined]
    return height


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_round_entered_by_hand_settles_and_is_recorded(server: str, browser: object, size: str) -> None:
    page, trip = open_score_page(browser, server, size)
    enter_by_hand(trip, page, HAND[:13], HAND[13], INDICATOR)
    shot(page, f"{size}-hand-1-entered")
    height = settle_and_record(trip, page)
    shot(page, f"{size}-hand-2-recorded")
    trip.tap(page.locator(".st-key-undo_recorded button"), "撤销这一局")  # taken back: on the page again
    page.locator(".st-key-hand_12 button").wait_for()
    page.locator(".st-key-tile_win button", has_text=tile(HAND[13]).zh).wait_for()
    page.locator(".st-key-tile_ind button", has_text=tile(INDICATOR).zh).wait_for()
    assert row_codes(page, 13) == HAND[:13]
    settle_and_record(trip, page)
    print(f"{size} by hand: settled page {height}px; {trip.summary()}")
    if size == "phone":
        assert height <= 2 * trip.viewport_height, trip.summary()
        assert trip.scroll_count <= 4, trip.summary()
    page.context.close()


def seat_photo(path: Path, codes: list[str]) -> Path:
    """Another player's tiles, rendered from tile art in one row."""
    import cv2

    from vision.training.synth import TileArtError, render_layout

    try:
        scene = render_layout([[codes]], tile_height=80, background=(40, 110, 60))
    except TileArtError as exc:
        pytest.fail(f"no tile art to render the test photo: run scripts/install_test_system_deps.sh ({exc})")
    cv2.imwrite(str(path), cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR))
    return path


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_another_seats_jing_from_a_photo_counts_in_the_settlement(server: str, browser: object, size: str,
                                                                   tmp_path: Path) -> None:
    page, trip = open_score_page(browser, server, size)
    enter_by_hand(trip, page, HAND[:13], HAND[13], INDICATOR)
    trip.tap(page.locator('.st-key-others_jing summary'), "其他人的精", rerun=False)
    # 南 lays out its tiles: 九万 ×2 are 正精 and 一万 is 副精 for the flipped 九万
    south = seat_photo(tmp_path / "south.png", ["9m", "9m", "1m", "4p", "5p", "6p"])
    page.locator('.st-key-seat_photo_S_0 input[type="file"]').set_input_files(str(south))
    page.get_by_text("南·南家：正精 2 张，副精 1 张").wait_for()
    shot(page, f"{size}-seat-1-read")
    trip.tap(page.locator(".st-key-seat_use_S button"), "记入南家")
    assert page.locator('.st-key-jz_S input').input_value() == "2"
    assert page.locator('.st-key-jf_S input').input_value() == "1"
    trip.tap(page.locator(".st-key-settle button"), "结算")
    table = settled(page)
    jing = table.locator("tr", has_text="精").first.inner_text().split()
    shot(page, f"{size}-seat-2-settled")
    assert jing[0] == "精" and int(jing[2]) > 0, jing  # 南 (2nd seat column) is paid for its 精
    page.context.close()
