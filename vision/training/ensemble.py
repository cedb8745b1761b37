"""Two crop classifiers read as one: a single ONNX graph whose ``logits`` are their weighted mean (issue 23).

Both graphs read the reader's ``crops`` input; the pair's ``embedding`` (what the correction memory keeps) is the
first one's, so a table's taught crops stay valid. The merged file drops in for `models/tile_classifier.onnx` and
carries the first graph's metadata (class names, quantisation) plus `PAIR_WEIGHT`. Graphs are joined with
`onnx.compose.add_prefix`; nothing is retrained. The shipped classifier is such a pair (v9 first, the Lite0
backbone second); a fine-tune trains the first half and puts it back in the pair (`with_first`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: Metadata key of a pair: the first half's weight (the second's is 1 − it).
PAIR_WEIGHT = "pair_weight"
#: Prefixes of the two halves' names inside a pair.
FIRST, SECOND = "a_", "b_"


def _prefixed(model: Any, prefix: str, input_name: str) -> Any:
    """`model` with every name prefixed, its nodes reading the pair's input `input_name` instead of their own."""
    from onnx import compose

    own_input = prefix + model.graph.input[0].name
    out = compose.add_prefix(model, prefix)
    for node in out.graph.node:
        for i, name in enumerate(node.input):
            if name == own_input:
                node.input[i] = input_name
    return out


def _glue(weight: float) -> tuple[list[Any], list[Any]]:
    """The nodes and constants that join the halves' outputs: weighted logits summed, the first's embedding."""
    import onnx
    from onnx import helper

    weights = [helper.make_tensor("pair_w_first", onnx.TensorProto.FLOAT, [], [weight]),
               helper.make_tensor("pair_w_second", onnx.TensorProto.FLOAT, [], [1.0 - weight])]
    nodes = [helper.make_node("Mul", [f"{FIRST}logits", "pair_w_first"], ["pair_first"], name="pair_mul_first"),
             helper.make_node("Mul", [f"{SECOND}logits", "pair_w_second"], ["pair_second"], name="pair_mul_second"),
             helper.make_node("Add", ["pair_first", "pair_second"], ["logits"], name="pair_add"),
             helper.make_node("Identity", [f"{FIRST}embedding"], ["embedding"], name="pair_embedding")]
    return nodes, weights


def _pair(first: Any, second: Any, weight: float, input_name: str, like: Any, outputs: list[Any]) -> Any:
    """One graph of two prefixed halves and the glue, with `like`'s input, opset and IR version and `outputs` (the
    first half's ``logits`` and ``embedding``, shapes and all)."""
    from onnx import helper

    glue, weights = _glue(weight)
    graph = helper.make_graph([*first.graph.node, *second.graph.node, *glue], "pair", list(like.graph.input), outputs,
                              initializer=[*first.graph.initializer, *second.graph.initializer, *weights],
                              value_info=[*first.graph.value_info, *second.graph.value_info])
    model = helper.make_model(graph, opset_imports=like.opset_import)
    model.ir_version = like.ir_version
    return model


def _outputs(model: Any) -> list[Any]:
    """`model`'s ``logits`` and ``embedding`` outputs (name, type and shape), which its pair gives too."""
    found = {o.name: o for o in model.graph.output}
    missing = [n for n in ("logits", "embedding") if n not in found]
    if missing:
        raise ValueError(f"a classifier in a pair needs outputs logits and embedding; {missing} missing")
    return [found["logits"], found["embedding"]]


def _save(model: Any, metadata: Any, weight: float, out: str | Path) -> Path:
    """Write `model` to `out` with `metadata` (the first half's) and the pair's weight."""
    import onnx

    model.metadata_props.extend(p for p in metadata if p.key != PAIR_WEIGHT)
    entry = model.metadata_props.add()
    entry.key, entry.value = PAIR_WEIGHT, repr(float(weight))
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path


def average_logits(first: str | Path, second: str | Path, out: str | Path, weight: float = 0.5) -> Path:
    """Write to `out` one graph giving `weight` × first's logits + (1 − `weight`) × second's, and first's embedding."""
    import onnx

    a, b = onnx.load(str(first)), onnx.load(str(second))
    name = a.graph.input[0].name
    model = _pair(_prefixed(a, FIRST, name), _prefixed(b, SECOND, name), weight, name, a, _outputs(a))
    return _save(model, a.metadata_props, weight, out)


def pair_weight(path: str | Path) -> float | None:
    """The first half's weight when the classifier at `path` is a pair made by `average_logits`, else None (also when
    `path` holds no ONNX model at all)."""
    import onnx
    from google.protobuf.message import DecodeError

    try:
        model = onnx.load(str(path), load_external_data=False)
    except (DecodeError, OSError):
        return None
    meta = {p.key: p.value for p in model.metadata_props}
    return float(meta[PAIR_WEIGHT]) if PAIR_WEIGHT in meta else None


def with_first(pair: str | Path, first: str | Path, out: str | Path) -> Path:
    """Write to `out` the pair at `pair` with its first half replaced by the classifier at `first`, at the same weight:
    a fine-tuned first half goes back beside the shipped second one."""
    import onnx
    from onnx import helper

    weight = pair_weight(pair)
    if weight is None:
        raise ValueError(f"{pair} is not a pair of classifiers (no {PAIR_WEIGHT} in its metadata)")
    old, new = onnx.load(str(pair)), onnx.load(str(first))
    name = old.graph.input[0].name

    def second_only(names: Any) -> bool:
        return all(n.startswith(SECOND) for n in names if n)

    second = helper.make_model(helper.make_graph(
        [n for n in old.graph.node if second_only(n.output)], "second", [], [],
        initializer=[t for t in old.graph.initializer if t.name.startswith(SECOND)],
        value_info=[v for v in old.graph.value_info if v.name.startswith(SECOND)]))
    model = _pair(_prefixed(new, FIRST, name), second, weight, name, old, _outputs(new))
    return _save(model, new.metadata_props, weight, out)
