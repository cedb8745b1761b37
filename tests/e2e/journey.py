"""A player's journey through the app, measured: how tall the page grows and how often, and which way,
the player has to scroll to reach the next thing to tap (for the 390×844 touch screen and desktop).

Playwright scrolls a target into view by itself before a tap, which would hide exactly what we want to
measure; `Journey.tap` first checks whether the target is on screen and, if not, scrolls the page the
way a thumb would (one scroll, counted, up or down), then taps it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.e2e.helpers import wait_for_rerun

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}
#: Pause after a tap before looking for the end of the app's rerun.
SETTLE_MS = 300

#: The element that scrolls: Streamlit's main area when it overflows, else the document.
SCROLLER_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  return main && main.scrollHeight > main.clientHeight + 1 ? main : document.scrollingElement;
}"""


#: What a finger taps on a Streamlit page: buttons, radio and checkbox options, expander titles, links.
TARGETS = ('[data-testid="stMainBlockContainer"] button, [data-testid="stMainBlockContainer"] [role="radiogroup"] label, '
           '[data-testid="stMainBlockContainer"] [data-testid="stCheckbox"] label, '
           '[data-testid="stMainBlockContainer"] summary, .st-key-page_bar a')

SMALL_TARGETS_JS = """(sel) => [...document.querySelectorAll(sel)]
  .filter(e => !e.closest('details:not([open]) > :not(summary)'))  // folded away in a closed expander
  .filter(e => !e.closest('[data-testid="stSelectbox"]'))  // a select's own arrow and clear icons: the select is the target
  .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .map(e => { const r = e.getBoundingClientRect();
              return [(e.innerText || e.getAttribute('aria-label') || e.tagName).trim().slice(0, 16), Math.round(r.width), Math.round(r.height)]; })
  .filter(([, w, h]) => w < 44 || h < 44)"""


def small_targets(page: Any) -> list[list[Any]]:
    """The visible tap targets smaller than 44 px either way: [text, width, height]."""
    return list(page.evaluate(SMALL_TARGETS_JS, TARGETS))


@dataclass
class Scroll:
    """One scroll the player had to make: pixels (negative = back up) and what it was for."""

    pixels: int
    why: str


@dataclass
class Journey:
    """Drive a page as a player would and keep count of scrolls and page heights."""

    page: Any
    touch: bool = True
    scrolls: list[Scroll] = field(default_factory=list)
    heights: list[int] = field(default_factory=list)

    @property
    def viewport_height(self) -> int:
        return int(self.page.viewport_size["height"])

    def page_height(self) -> int:
        """The full height of the page's content now, in CSS pixels."""
        return int(self.page.evaluate(f"() => ({SCROLLER_JS})().scrollHeight"))

    def scroll_top(self) -> int:
        return int(self.page.evaluate(f"() => ({SCROLLER_JS})().scrollTop"))

    def visible_band(self) -> tuple[float, float]:
        """The part of the viewport not covered by Streamlit's fixed header or the phone's page bar: (top, bottom)."""
        header = self.page.locator('[data-testid="stHeader"]')
        top, bottom = 0.0, float(self.viewport_height)
        if header.count():
            box = header.first.bounding_box()
            top = box["y"] + box["height"] if box else 0.0
        bar = self.page.locator(".st-key-page_bar")
        if bar.count() and bar.first.is_visible():
            box = bar.first.bounding_box()
            bottom = min(bottom, box["y"]) if box else bottom
        return top, bottom

    def on_screen(self, locator: Any) -> bool:
        """True when the whole element is inside the visible band (no scroll needed to see it)."""
        box = locator.bounding_box()
        if box is None:
            return False
        top, bottom = self.visible_band()
        return box["y"] >= top - 1 and box["y"] + box["height"] <= bottom + 1

    def bring_into_view(self, locator: Any, why: str) -> None:
        """Scroll once, as a thumb would, so the element sits mid-screen; counted when it was needed."""
        locator.wait_for(state="visible")
        if self.on_screen(locator):
            return
        box = locator.bounding_box()
        top, bottom = self.visible_band()
        delta = int(box["y"] + box["height"] / 2 - (top + bottom) / 2)
        before = self.scroll_top()
        self.page.evaluate(f"(d) => {{ ({SCROLLER_JS})().scrollTop += d; }}", delta)
        self.page.wait_for_timeout(120)
        moved = self.scroll_top() - before
        if moved:
            self.scrolls.append(Scroll(moved, why))

    def tap(self, locator: Any, why: str = "", rerun: bool = True) -> None:
        """Reach the element (scrolling if needed, counted) and tap it; wait for the app's rerun."""
        self.bring_into_view(locator, why or str(locator))
        if self.touch:
            locator.tap()
        else:
            locator.click()
        if rerun:
            self.settle_down()
        self.heights.append(self.page_height())

    def settle_down(self) -> None:
        """Wait until the app's rerun after a tap has finished (its 'running' sign can show up late)."""
        self.page.wait_for_timeout(SETTLE_MS)
        wait_for_rerun(self.page)

    def tap_at(self, locator: Any, why: str = "") -> None:
        """Tap the screen at the element's centre (for drawn boxes that let taps through to the photo)."""
        self.bring_into_view(locator, why or str(locator))
        box = locator.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if self.touch:
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)
        self.settle_down()
        self.heights.append(self.page_height())

    def look_at(self, locator: Any, why: str = "") -> None:
        """The player reads something: scroll to it only if it is off screen (counted)."""
        self.bring_into_view(locator, why or str(locator))

    @property
    def scroll_count(self) -> int:
        return len(self.scrolls)

    @property
    def scrolls_back_up(self) -> int:
        return sum(s.pixels < 0 for s in self.scrolls)

    def max_screens(self) -> float:
        """The tallest the page got, in screen heights."""
        return max(self.heights or [self.page_height()]) / self.viewport_height

    def summary(self) -> str:
        """One line for logs and assertion messages."""
        moves = ", ".join(f"{s.pixels:+d}px→{s.why}" for s in self.scrolls) or "none"
        return f"page up to {max(self.heights or [0])}px ({self.max_screens():.2f} screens), {self.scroll_count} scrolls: {moves}"


def open_score_page(browser: Any, server: str, size: str, timeout_ms: int = 30000) -> tuple[Any, Journey]:
    """A fresh browser context at `size` ("phone": 390×844 touch, else 1366×900) on the 算分 page, and its journey."""
    ctx = browser.new_context(**(PHONE if size == "phone" else DESKTOP))
    page = ctx.new_page()
    page.set_default_timeout(timeout_ms)
    trip = Journey(page, touch=size == "phone")
    page.goto(server)
    page.get_by_role("heading", name="算分").wait_for()
    return page, trip
