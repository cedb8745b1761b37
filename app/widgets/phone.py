"""Denser pages on a phone: on narrow screens the page starts higher, headings are smaller and
elements sit closer, so a round fits in about two screen heights (wide screens are untouched)."""

from __future__ import annotations

import streamlit as st

#: Streamlit stacks columns below this width (CSS pixels); the same width is "a phone" here.
PHONE_MAX = 640

COMPACT_CSS = f"""
@media (max-width: {PHONE_MAX}px) {{
  [data-testid="stMainBlockContainer"] {{ padding-top: 3.6rem; padding-left: 0.75rem; padding-right: 0.75rem; }}
  [data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] {{ gap: 0.45rem; }}
  [data-testid="stMainBlockContainer"] h1 {{ font-size: 1.55rem; padding: 0.1rem 0 0.2rem 0; }}
  [data-testid="stMainBlockContainer"] h2, [data-testid="stMainBlockContainer"] h3 {{ font-size: 1.1rem; padding: 0.2rem 0 0 0; }}
  /* Streamlit pulls a heading's next element up by 1rem, counting on the heading's bottom padding cut above */
  [data-testid="stHeading"] [data-testid="stMarkdownContainer"] {{ margin-bottom: 0; }}
  [data-testid="stAlertContainer"] {{ padding: 0.45rem 0.7rem; }}
  [data-testid="stExpander"] summary {{ padding-top: 0.45rem; padding-bottom: 0.45rem; }}
  [data-testid="stFileUploaderDropzone"] {{ padding: 0.5rem 0.75rem; }}
  [data-testid="stWidgetLabel"] {{ min-height: 1.1rem; margin-bottom: 0.1rem; }}
  .stButton button, [data-testid="stBaseButton-secondary"], [data-testid="stBaseButton-primary"] {{ min-height: 44px; }}
  [data-testid="stRadio"] label, [data-testid="stCheckbox"] label {{ min-height: 44px; align-items: center; }}
  [data-testid="stRadio"] [role="radiogroup"] {{ row-gap: 0; }}
  [data-testid="stExpander"] summary {{ min-height: 44px; box-sizing: border-box; }}
  [data-testid="stSelectbox"] [data-baseweb="select"] > div {{ min-height: 44px; }}
  [data-testid="stNumberInput"] input {{ min-height: 44px; }}
  [data-testid="stNumberInput"] button {{ min-width: 44px; min-height: 44px; }}
  [data-testid="stFileUploader"] button {{ min-width: 44px; min-height: 44px; }}
  [data-testid="stButtonGroup"] button, [data-testid="stBaseButton-secondaryFormSubmit"] {{ min-height: 44px; }}
  /* a ? beside an option: a fingertip-sized target, its room on the line unchanged (16 px drawn, 44 px tapped) */
  [data-testid="stTooltipIcon"] button {{ min-width: 44px; min-height: 44px; margin: -14px;
    display: inline-flex; align-items: center; justify-content: center; }}
}}
"""


def compact_on_phone() -> None:
    """Put the phone style sheet on the page (style-only `st.html` takes no room)."""
    st.html(f"<style>{COMPACT_CSS}</style>")
