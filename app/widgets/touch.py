"""Drawing and moving boxes on the 标注 canvas with a finger: the canvas component draws a box only for a
mouse's left button (a touch has none), so touches on the canvas are handed to it as mouse events (one
finger; pinching and scrolling elsewhere on the page are left alone). The same events serve 移动, the
canvas' transform mode: fabric picks the box under the finger, follows the finger on the document and
lets go on mouseup, exactly as for a mouse (the boxes' corner handles are made fingertip-sized instead
of relying on fabric's touch-only sizes). Plain JS in an `st.components.v2` component, no network."""

from __future__ import annotations

from typing import Any

import streamlit as st

TOUCH_JS = """
export default function () {
  if (window.__jingsuanTouchToMouse) { return; }
  window.__jingsuanTouchToMouse = true;
  let target = null;
  const canvasOf = (e) => {
    const el = e.composedPath ? e.composedPath()[0] : e.target;
    return el instanceof HTMLCanvasElement && el.classList.contains("upper-canvas") ? el : null;
  };
  const send = (type, t, el) => el.dispatchEvent(new MouseEvent(type, {
    bubbles: true, cancelable: true, composed: true, view: window, clientX: t.clientX, clientY: t.clientY,
    screenX: t.screenX, screenY: t.screenY, button: 0, buttons: type === "mouseup" ? 0 : 1,
  }));
  const start = (e) => {
    const el = canvasOf(e);
    if (!el || e.touches.length !== 1) { return; }
    target = el;
    e.preventDefault();
    e.stopImmediatePropagation();
    send("mousedown", e.touches[0], el);
  };
  const move = (e) => {
    if (!target) { return; }
    e.preventDefault();
    e.stopImmediatePropagation();
    send("mousemove", e.touches[0], target);
  };
  const end = (e) => {
    if (!target) { return; }
    e.preventDefault();
    e.stopImmediatePropagation();
    send("mouseup", e.changedTouches[0], target);
    target = null;
  };
  const opts = { capture: true, passive: false };
  window.addEventListener("touchstart", start, opts);
  window.addEventListener("touchmove", move, opts);
  window.addEventListener("touchend", end, opts);
  window.addEventListener("touchcancel", end, opts);
}
"""

_component: Any = None


def touch_draws_on_canvas() -> None:
    """Let a finger draw and move boxes on the page's drawing canvas (takes no room)."""
    global _component
    if _component is None:
        _component = st.components.v2.component("jingsuan_touch_to_mouse", js=TOUCH_JS)
    _component(key="touch_to_mouse", height=0)
