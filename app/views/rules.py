"""规则: the table's preset, every option of the spec, and the value of one 子 (saved per table)."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from app.views.common import current_table, get_ledger, lang, tr
from scoring.systems import CHONGGUAN_PRESETS, SYSTEM_ZH


def presets() -> dict[str, dict[str, Any]]:
    """`scoring.chongguan.presets.PRESETS` ({preset: {option: value}}), or the names alone until it lands."""
    try:
        from scoring.chongguan.presets import PRESETS

        return {k: dict(v) for k, v in PRESETS.items()}
    except ImportError:
        return {name: {} for name in CHONGGUAN_PRESETS}


def option_info() -> dict[str, Any]:
    try:
        from scoring.chongguan.presets import OPTION_INFO

        return dict(OPTION_INFO)
    except ImportError:
        return {}


def option_label(name: str, info: Any) -> str:
    """The option's Chinese label (English or its name in English mode)."""
    if isinstance(info, str):
        return info
    if isinstance(info, dict):
        keys = ("zh", "label", "label_zh", "name") if lang() == "zh" else ("en", "label_en", "zh", "label")
        for k in keys:
            if info.get(k):
                return f"{info[k]}"
    for attr in ("zh", "label"):
        if getattr(info, attr, None):
            return str(getattr(info, attr))
    return name


def option_choices(info: Any) -> list[Any]:
    """The allowed values an OPTION_INFO entry lists (choices/values/options), or []."""
    for k in ("choices", "values", "options", "allowed"):
        found = info.get(k) if isinstance(info, dict) else getattr(info, k, None)
        if isinstance(found, (list, tuple)) and found:
            return list(found)
        if isinstance(found, dict) and found:
            return list(found)
    return []


def option_widget(name: str, default: Any, current: Any, label: str, choices: list[Any] | None = None) -> Any:
    """A widget fitting the option's value type (a choice list → selectbox); returns the chosen value."""
    key = f"opt_{name}"
    if choices:
        options = choices if current in choices else [current, *choices]
        return st.selectbox(label, options, index=options.index(current), key=key, help=name)
    if isinstance(default, bool):
        return st.checkbox(label, bool(current), key=key, help=name)
    if isinstance(default, int):
        return int(st.number_input(label, value=int(current), step=1, key=key, help=name))
    if isinstance(default, float):
        return float(st.number_input(label, value=float(current), key=key, help=name))
    if isinstance(default, str):
        return st.text_input(label, str(current), key=key, help=name)
    text = st.text_input(label, json.dumps(current, ensure_ascii=False), key=key, help=name)
    try:
        return json.loads(text)
    except ValueError:
        st.error(tr("bad_json", msg=name))
        return current


def render() -> None:
    """The 规则 page."""
    ledger = get_ledger()
    if ledger is None:
        return
    table = current_table(ledger)
    st.title(f"{tr('page_rules')} · {table.name}")
    all_presets = presets()
    names = list(all_presets)
    if table.rules not in names:
        names.append(table.rules)
    preset = st.selectbox(
        tr("preset"),
        names,
        index=names.index(table.rules),
        format_func=lambda n: f"{SYSTEM_ZH.get(n, n)} ({n})",
        key=f"preset_{table.id}",
    )
    unit = int(st.number_input(tr("unit"), min_value=1, value=int(table.unit), step=1, key=f"unit_{table.id}"))
    base = all_presets.get(preset, {})
    info = option_info()
    st.subheader(tr("options"))
    chosen: dict[str, Any] = {}
    for name, default in base.items():
        current = table.options.get(name, default) if preset == table.rules else default
        entry = info.get(name)
        chosen[name] = option_widget(name, default, current, option_label(name, entry), option_choices(entry))
    if not base:
        st.caption("—")
    if st.button(tr("save"), type="primary", key="rules_save"):
        overrides = {k: v for k, v in chosen.items() if v != base.get(k)}
        ledger.set_rules(table.id, preset, overrides, unit)
        st.success(tr("rules_saved"))


if __name__ == "__main__":
    render()
