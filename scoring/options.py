"""Typed rule options: a frozen dataclass per rule family whose fields carry their own labels.

Each field is declared with `option(...)`: a Chinese and an English label, the spec section, and a
label for each value it may take (a `Literal` field lists its values in its type, a bool reads
是/否, a number reads as itself, a small record such as `KongPay` is labelled by its own fields).
Presets are instances; the rules page, `OPTION_INFO` and the reading of a round's `options:`
mapping (round-format.md: names and values as in the spec) are all derived from the fields.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from dataclasses import dataclass, field
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from scoring.errors import RoundError

YES_NO: dict[Any, tuple[str, str]] = {True: ("是", "yes"), False: ("否", "no")}


@dataclass(frozen=True, slots=True)
class OptionMeta:
    """What a field's metadata holds: its labels, the spec section and a label per value."""

    zh: str
    en: str
    section: str
    values: dict[Any, tuple[str, str]] = field(default_factory=dict)


def option(default: Any, zh: str, en: str, section: str, values: dict[Any, tuple[str, str]] | None = None) -> Any:
    """A dataclass field that is a rule option (labels in Chinese and English, spec section, value labels)."""
    return field(default=default, metadata={"option": OptionMeta(zh, en, section, dict(values or {}))})


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option as the rules page and the round reader see it."""

    name: str
    zh: str
    en: str
    section: str
    kind: str  # "bool" | "choice" | "int" | "int_or_none" | "record"
    choices: tuple[Any, ...]
    labels: dict[Any, tuple[str, str]]
    record: type | None = None

    def label(self, value: Any, lang: str = "zh") -> str:
        """The value in words: its label, a number as itself, a record by its parts."""
        i = 0 if lang == "zh" else 1
        if self.record is not None and dataclasses.is_dataclass(value):
            parts = specs(self.record)
            return " / ".join(f"{spec.zh if i == 0 else spec.en} {getattr(value, n)}" for n, spec in parts.items())
        if isinstance(value, bool) == (self.kind == "bool") and value in self.labels:
            return self.labels[value][i]
        return str(value)

    def plain(self, value: Any) -> Any:
        """The value as a round file writes it (a record as a mapping)."""
        return dataclasses.asdict(value) if dataclasses.is_dataclass(value) else value

    def parse(self, value: Any, current: Any) -> Any:
        """A round file's value checked against the option's type; a record's mapping may give some parts."""
        name = self.name
        if self.kind == "choice":
            if isinstance(value, bool) or value not in self.choices:
                raise RoundError(f"选项 {name} 的值 {value!r} 无效（可用：{'、'.join(map(str, self.choices))}）",
                                 f"option {name}: {value!r} is not one of {list(self.choices)}")
            return value
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RoundError(f"选项 {name} 必须是 true 或 false", f"option {name} must be true or false")
            return value
        if self.kind in ("int", "int_or_none"):
            if value is None and self.kind == "int_or_none":
                return None
            if not _non_negative_int(value):
                raise RoundError(f"选项 {name} 必须是非负整数", f"option {name} must be a non-negative integer")
            return value
        assert self.record is not None
        if isinstance(value, self.record):
            return value
        parts = list(specs(self.record))
        if not isinstance(value, dict) or set(value) - set(parts):
            raise RoundError(f"选项 {name} 必须是 {{{', '.join(parts)}}} 的整数表",
                             f"option {name} must map {'/'.join(parts)} to integers")
        if not all(_non_negative_int(v) for v in value.values()):
            raise RoundError(f"选项 {name} 的值必须是非负整数", f"{name} values must be non-negative integers")
        return dataclasses.replace(current, **value)


def _non_negative_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _spec(name: str, hint: Any, meta: OptionMeta) -> OptionSpec:
    args = get_args(hint)
    if hint is bool:
        return OptionSpec(name, meta.zh, meta.en, meta.section, "bool", (True, False), YES_NO | meta.values)
    if get_origin(hint) is Literal:
        return OptionSpec(name, meta.zh, meta.en, meta.section, "choice", args, meta.values)
    if hint is int:
        return OptionSpec(name, meta.zh, meta.en, meta.section, "int", (), meta.values)
    if get_origin(hint) in (Union, types.UnionType) and set(args) == {int, type(None)}:
        return OptionSpec(name, meta.zh, meta.en, meta.section, "int_or_none", (), meta.values)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return OptionSpec(name, meta.zh, meta.en, meta.section, "record", (), meta.values, hint)
    raise TypeError(f"option {name}: unsupported type {hint!r}")


@functools.cache
def specs(cls: type) -> dict[str, OptionSpec]:
    """Every option field of an options dataclass, in declaration order."""
    hints = get_type_hints(cls)
    return {f.name: _spec(f.name, hints[f.name], f.metadata["option"]) for f in dataclasses.fields(cls)}


def resolve(base: Any, overrides: Any) -> Any:
    """`base` (a preset) with a round's `options:` mapping applied; unknown names and values are refused."""
    if overrides is None:
        return base
    if not isinstance(overrides, dict):
        raise RoundError("options 必须是一个对象", "options must be a mapping")
    known = specs(type(base))
    changes = {}
    for name, value in overrides.items():
        if name not in known:
            raise RoundError(f"未知的选项：{name}", f"unknown option {name!r}")
        changes[name] = known[name].parse(value, getattr(base, name))
    return dataclasses.replace(base, **changes)


def as_plain(opts: Any) -> dict[str, Any]:
    """Every option as a round file writes it."""
    return {name: spec.plain(getattr(opts, name)) for name, spec in specs(type(opts)).items()}


def overrides_of(base: Any, chosen: Any) -> dict[str, Any]:
    """What `chosen` changes from the preset `base`, as a round file's `options:` mapping."""
    return {n: spec.plain(getattr(chosen, n)) for n, spec in specs(type(base)).items()
            if getattr(chosen, n) != getattr(base, n)}


def option_info(cls: type) -> dict[str, dict[str, Any]]:
    """Labels, section and allowed values of each option, for pages and documentation."""
    out: dict[str, dict[str, Any]] = {}
    for name, spec in specs(cls).items():
        entry: dict[str, Any] = {"zh": spec.zh, "en": spec.en, "section": spec.section, "type": spec.kind}
        if spec.choices:
            entry["choices"] = list(spec.choices)
        entry["labels"] = {v: zh for v, (zh, _) in spec.labels.items()}
        out[name] = entry
    return out
