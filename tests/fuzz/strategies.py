"""Hypothesis strategies for malformed input: any JSON value, and documents with one part replaced by it."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["", "E", "Q", "1m", "9x", "self", "gb", "xingguo", "a.png", "#1", "-1", "1e999"])
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path into a JSON document (the document itself is the empty path)."""
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += paths(v, (*prefix, i))
    return out


def replaced(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A deep copy of `doc` with the part at `path` replaced by `value`."""
    if not path:
        return value
    out = copy.deepcopy(doc)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


@st.composite
def mutated(draw: st.DrawFn, doc: Any, times: int = 3) -> Any:
    """`doc` with one to `times` of its parts (or new keys) replaced by arbitrary JSON."""
    out = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, times))):
        where = draw(st.sampled_from(paths(out)))
        value = draw(JSON)
        if where and draw(st.booleans()) and isinstance(out, dict):
            out = replaced(out, where, value)
        elif isinstance(out, dict) and draw(st.booleans()):
            out = {**out, draw(st.text(max_size=8)): value}
        else:
            out = replaced(out, where, value)
    return out
