"""The DFL rewrite `dominocam train` applies to the exported model: the same numbers, the fast layout."""

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from lab.detect.fast_dfl import DFL, rewrite_dfl

MODELS = Path(__file__).resolve().parents[2] / "models"


def _ultralytics_dfl(path: Path, anchors: int = 50) -> Path:
    """The DFL block as Ultralytics exports it: (1, 64, a) -> (1, 4, a) box distances."""
    shape = lambda name, v: numpy_helper.from_array(np.array(v, np.int64), name)  # noqa: E731
    nodes = [
        helper.make_node("Reshape", ["x", "s1"], ["r"], name=DFL + "Reshape"),
        helper.make_node("Transpose", ["r"], ["t"], name=DFL + "Transpose", perm=[0, 2, 1, 3]),
        helper.make_node("Softmax", ["t"], ["p"], name=DFL + "Softmax", axis=1),
        helper.make_node("Conv", ["p", "w"], ["c"], name=DFL + "conv/Conv"),
        helper.make_node("Reshape", ["c", "s2"], ["y"], name=DFL + "Reshape_1"),
    ]
    weight = numpy_helper.from_array(np.arange(16, dtype=np.float32).reshape(1, 16, 1, 1), "w")
    graph = helper.make_graph(
        nodes, "dfl",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64, anchors])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, anchors])],
        [shape("s1", [1, 4, 16, anchors]), shape("s2", [1, 4, anchors]), weight],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


def _run(path: Path, x: np.ndarray) -> np.ndarray:
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def _softmax_axes(path: Path) -> list[int]:
    return [a.i for n in onnx.load(str(path)).graph.node if n.op_type == "Softmax" and n.name.startswith(DFL)
            for a in n.attribute if a.name == "axis"]


def test_the_rewritten_dfl_gives_the_same_distances(tmp_path):
    slow = _ultralytics_dfl(tmp_path / "slow.onnx")
    assert rewrite_dfl(slow, tmp_path / "fast.onnx")
    x = np.random.default_rng(0).normal(0, 3, (1, 64, 50)).astype(np.float32)
    a, b = _run(slow, x), _run(tmp_path / "fast.onnx", x)
    assert a.shape == b.shape == (1, 4, 50)
    assert np.allclose(a, b, atol=1e-4)
    assert a.min() > 0 and a.max() < 15  # expectations over the bins 0..15
    assert _softmax_axes(tmp_path / "fast.onnx") == [-1]
    assert not any(n.op_type == "Conv" for n in onnx.load(str(tmp_path / "fast.onnx")).graph.node)


def test_a_model_without_the_slow_dfl_is_copied_unchanged(tmp_path):
    fast = tmp_path / "fast.onnx"
    rewrite_dfl(_ultralytics_dfl(tmp_path / "slow.onnx"), fast)
    assert not rewrite_dfl(fast, tmp_path / "again.onnx")
    x = np.ones((1, 64, 50), np.float32)
    assert np.array_equal(_run(fast, x), _run(tmp_path / "again.onnx", x))


def test_the_committed_models_have_the_fast_dfl():
    for name in ("tiles-obb.onnx", "tiles-obb.int8.onnx"):
        assert _softmax_axes(MODELS / name) == [-1], name
