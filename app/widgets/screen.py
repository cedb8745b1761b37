"""The browser's width, told to Python: a tiny `st.components.v2` component (plain JS, no network) that
reports `window.innerWidth` on load and after the screen turns, so a canvas can be sized to fit."""

from __future__ import annotations

from typing import Any

import streamlit as st

WIDTH_JS = """
export default function (component) {
  const { setStateValue } = component;
  let last = 0;
  const report = () => {
    const w = Math.round(window.innerWidth);
    if (Math.abs(w - last) > 8) { last = w; setStateValue("width", w); }
  };
  report();
  let timer = null;
  const later = () => { clearTimeout(timer); timer = setTimeout(report, 250); };
  window.addEventListener("resize", later);
  return () => window.removeEventListener("resize", later);
}
"""

_component: Any = None


def screen_width(key: str = "screen_width") -> int | None:
    """The browser window's width in CSS pixels (None until the browser has said it, and in AppTest)."""
    global _component
    if _component is None:
        _component = st.components.v2.component("jingsuan_screen_width", js=WIDTH_JS)
    result = _component(key=key, default={"width": None}, on_width_change=lambda: None, height=0)
    value = getattr(result, "width", None)
    return int(value) if isinstance(value, (int, float)) and value > 0 else None
