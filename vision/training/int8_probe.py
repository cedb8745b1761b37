"""The 465-byte ONNX graph the reader opens once to learn whether this machine's int8 products saturate.

onnxruntime's int8 convolution on x86 CPUs without VNNI (AVX2, and AVX-512 before Cascade Lake) multiplies the
uint8 activations by the int8 weights with ``PMADDUBSW``, which adds each two neighbouring products in *saturating*
16 bits: 255 × 127 × 2 = 64 770 is clipped to 32 767. Both shipped models are such int8 graphs with weights over the
whole ±127, so on those CPUs they read wrong (`vision.reader.session.int8_products_saturate`). The probe is one
quantised 1 × 1 convolution of 64 channels, all inputs 255 and all weights 127, output scale 10 000: it reads
``PROBE_EXACT`` (64 × 255 × 127 / 10 000 rounded) where the products are summed exactly and 105 where each pair is
clipped. Written by `write_probe`; the file ships with the reader (`vision/reader/int8_probe.onnx`), since `onnx`
itself is a training-time dependency.

    python -m vision.training.int8_probe        # rewrites vision/reader/int8_probe.onnx
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vision.reader.session import INT8_PROBE, PROBE_CHANNELS, PROBE_EXACT, PROBE_INPUT, PROBE_OUTPUT

#: The probe's weight, input pixel and output scale.
WEIGHT, PIXEL, OUTPUT_SCALE = 127, 255, 10_000.0


def probe_model() -> Any:
    """The probe as an `onnx.ModelProto`: DequantizeLinear ×2 → Conv → QuantizeLinear, which onnxruntime fuses into the
    same int8 convolution kernel the shipped models run."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    assert round(PROBE_CHANNELS * PIXEL * WEIGHT / OUTPUT_SCALE) == PROBE_EXACT
    nodes = [helper.make_node("DequantizeLinear", [PROBE_INPUT, "scale", "zero_u8"], ["x"]),
             helper.make_node("DequantizeLinear", ["weight", "weight_scale", "zero_s8"], ["w"], axis=0),
             helper.make_node("Conv", ["x", "w"], ["y"]),
             helper.make_node("QuantizeLinear", ["y", "output_scale", "zero_u8"], [PROBE_OUTPUT])]
    constants = [numpy_helper.from_array(np.array(1.0, np.float32), "scale"),
                 numpy_helper.from_array(np.array(0, np.uint8), "zero_u8"),
                 numpy_helper.from_array(np.full((1, PROBE_CHANNELS, 1, 1), WEIGHT, np.int8), "weight"),
                 numpy_helper.from_array(np.array([1.0], np.float32), "weight_scale"),
                 numpy_helper.from_array(np.array([0], np.int8), "zero_s8"),
                 numpy_helper.from_array(np.array(OUTPUT_SCALE, np.float32), "output_scale")]
    shape = [1, PROBE_CHANNELS, 1, 1]
    graph = helper.make_graph(nodes, "int8_probe", [helper.make_tensor_value_info(PROBE_INPUT, TensorProto.UINT8, shape)],
                              [helper.make_tensor_value_info(PROBE_OUTPUT, TensorProto.UINT8, [1, 1, 1, 1])], constants)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="jingsuan")
    model.ir_version = 7
    onnx.checker.check_model(model)
    return model


def write_probe(path: str | Path = INT8_PROBE) -> Path:
    """Write the probe to `path` (the reader's copy by default)."""
    path = Path(path)
    path.write_bytes(probe_model().SerializeToString())
    return path


if __name__ == "__main__":
    print(write_probe())
