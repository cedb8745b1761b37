"""Two crop classifiers read as one: a single ONNX graph whose ``logits`` are their weighted mean (issue 23).

Both graphs read the reader's ``crops`` input; the pair's ``embedding`` (what the correction memory keeps) is the
first one's, so a table's taught crops stay valid. The merged file drops in for `models/tile_classifier.onnx` and
carries the first graph's metadata (class names, quantisation). Graphs are joined with `onnx.compose.add_prefix`;
nothing is retrained.
"""

from __future__ import annotations

from pathlib import Path


def average_logits(first: str | Path, second: str | Path, out: str | Path, weight: float = 0.5) -> Path:
    """Write to `out` one graph giving `weight` × first's logits + (1 − `weight`) × second's, and first's embedding."""
    import onnx
    from onnx import compose, helper

    a, b = onnx.load(str(first)), onnx.load(str(second))
    input_name = a.graph.input[0].name
    pa, pb = compose.add_prefix(a, "a_"), compose.add_prefix(b, "b_")
    nodes = [*pa.graph.node, *pb.graph.node]
    for node in nodes:  # both read the one input
        for i, name in enumerate(node.input):
            if name in (f"a_{input_name}", f"b_{b.graph.input[0].name}"):
                node.input[i] = input_name
    weights = [helper.make_tensor("w_a", onnx.TensorProto.FLOAT, [], [weight]),
               helper.make_tensor("w_b", onnx.TensorProto.FLOAT, [], [1.0 - weight])]
    nodes += [helper.make_node("Mul", ["a_logits", "w_a"], ["a_weighted"]),
              helper.make_node("Mul", ["b_logits", "w_b"], ["b_weighted"]),
              helper.make_node("Add", ["a_weighted", "b_weighted"], ["logits"]),
              helper.make_node("Identity", ["a_embedding"], ["embedding"])]
    outputs = [helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None) for name in ("logits", "embedding")]
    graph = helper.make_graph(nodes, "pair", list(a.graph.input), outputs,
                              initializer=[*pa.graph.initializer, *pb.graph.initializer, *weights],
                              value_info=[*pa.graph.value_info, *pb.graph.value_info])
    model = helper.make_model(graph, opset_imports=a.opset_import)
    model.ir_version = a.ir_version
    model.metadata_props.extend(a.metadata_props)
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path
