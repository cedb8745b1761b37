"""On a 390×844 touch screen every heading keeps its own line: nothing below it is drawn over it (the phone
style sheet once cut the bottom padding Streamlit counts on, and 总分 / 各局 sat under the next element)."""

from __future__ import annotations

import pytest

from tests.e2e.journey import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

OVERLAPS = """() => {
  const out = [];
  for (const h of document.querySelectorAll('[data-testid="stMainBlockContainer"] [data-testid="stHeading"]')) {
    const box = h.closest('[data-testid="stElementContainer"]') || h;
    let next = box.nextElementSibling;
    while (next && next.getBoundingClientRect().height === 0) next = next.nextElementSibling;
    if (!next) continue;
    const bottom = h.getBoundingClientRect().bottom, top = next.getBoundingClientRect().top;
    if (top < bottom - 1) out.push(`${h.textContent.trim()}: next starts ${Math.round(bottom - top)} px above its bottom`);
  }
  return out;
}"""


@pytest.mark.parametrize("page_path, heading", [("ledger", "各局"), ("rules", "规则"), ("", "算分")])
def test_no_heading_is_drawn_over_on_a_phone(server: str, browser: object, page_path: str, heading: str) -> None:
    ctx = browser.new_context(**PHONE)  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.goto(server + page_path)
    page.get_by_role("heading", name=heading).first.wait_for()
    page.wait_for_function("() => { const b = document.querySelector('.st-key-page_bar');"
                           " return !!b && getComputedStyle(b).position === 'fixed'; }")  # the phone style is on
    page.wait_for_timeout(500)
    assert page.evaluate(OVERLAPS) == []
    ctx.close()
