"""规则: the table's preset, every option of the spec, and the value of one 子 (saved per table).

Widgets only: the options, their labels and the label of every value come from the typed options
(`scoring.chongguan.presets.ChongguanOptions`); what is stored is what the player changed from the
chosen preset (`scoring.options.overrides_of`). The option widgets are keyed by the preset, so
choosing another preset shows that preset's values, not the ones left on screen.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from app.views.common import current_table, get_ledger, lang, tr
from scoring.chongguan.presets import OPTIONS, PRESETS, XINGGUO, ChongguanOptions, resolve_options
from scoring.errors import RoundError
from scoring.options import OptionSpec, overrides_of, specs
from scoring.systems import SYSTEM_ZH


def stored_options(rules: str, overrides: dict[str, Any]) -> ChongguanOptions:
    """The table's options: its preset with its stored overrides (a stale override is dropped with a warning)."""
    try:
        return resolve_options(rules, overrides)
    except RoundError as exc:
        st.warning(exc.zh if lang() == "zh" else exc.en)
        return PRESETS[rules]


def differences(preset: str) -> str:
    """What the preset changes from 兴国, in words ("跟庄：只算第一轮；…")."""
    changed = overrides_of(XINGGUO, PRESETS[preset])
    zh = lang() == "zh"
    parts = [f"{OPTIONS[n].zh if zh else OPTIONS[n].en}：{OPTIONS[n].label(getattr(PRESETS[preset], n), lang())}"
             for n in changed]
    if not parts:
        return "与兴国相同" if zh else "the same as 兴国"
    return ("与兴国不同：" if zh else "differs from 兴国: ") + "；".join(parts)


def language_key(key: str, current: Any, choices: list[Any]) -> tuple[str, Any]:
    """A choice shown in the session's language is one widget per language: Streamlit's browser keeps a choice as
    its shown label, which names no option once the labels change language (a choice made, then English, then 保存
    silently stored the preset's value). → (this language's key, the choice made in the other language or `current`)."""
    here = lang()
    made = st.session_state.get(f"{key}_{'en' if here == 'zh' else 'zh'}")
    return f"{key}_{here}", made if made in choices else current


def option_widget(spec: OptionSpec, current: Any, key: str) -> Any:
    """One option's widget (its label and every value in the session's language); returns the chosen value."""
    zh = lang() == "zh"
    label = spec.zh if zh else spec.en
    hint = f"`{spec.name}` · chongguan.md {spec.section}"
    if spec.kind == "bool":
        return st.checkbox(label, bool(current), key=key, help=hint)
    if spec.kind == "choice":
        choices = list(spec.choices)
        key, current = language_key(key, current, choices)
        return st.selectbox(label, choices, index=choices.index(current), key=key, help=hint,
                            format_func=lambda v: spec.label(v, lang()))
    if spec.kind == "int":
        return int(st.number_input(label, min_value=0, value=int(current), step=1, key=key, help=hint))
    if spec.kind == "int_or_none":
        got = st.number_input(label, min_value=0, value=current, step=1, key=key, help=hint,
                              placeholder=spec.label(None, lang()))
        return None if got is None else int(got)
    assert spec.record is not None
    parts = specs(spec.record)
    st.markdown(f"**{label}**", help=hint)
    cols = st.columns(len(parts))
    chosen = {}
    for col, (name, part) in zip(cols, parts.items(), strict=True):
        with col:
            chosen[name] = int(st.number_input(part.zh if zh else part.en, min_value=0, value=getattr(current, name),
                                               step=1, key=f"{key}_{name}"))
    return replace(current, **chosen)


def render() -> None:
    """The 规则 page."""
    ledger = get_ledger()
    if ledger is None:
        return
    table = current_table(ledger)
    st.title(f"{tr('page_rules')} · {table.name}")
    names = list(PRESETS)
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
    st.subheader(tr("options"))
    overrides: dict[str, Any] = {}
    if preset in PRESETS:
        base = PRESETS[preset]
        shown = stored_options(preset, table.options) if preset == table.rules else base
        st.caption(differences(preset))
        chosen = {name: option_widget(spec, getattr(shown, name), f"opt_{table.id}_{preset}_{name}")
                  for name, spec in OPTIONS.items()}
        overrides = overrides_of(base, replace(base, **chosen))
    else:
        st.caption("—")
    if st.button(tr("save"), type="primary", key="rules_save"):
        ledger.set_rules(table.id, preset, overrides, unit)
        st.success(tr("rules_saved"))

