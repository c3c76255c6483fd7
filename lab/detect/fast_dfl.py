"""Rewrite the exported head's distribution-focal-loss (DFL) decoding so it runs fast on the CPU.

Ultralytics exports the DFL as Reshape (b, 4, 16, a) -> Transpose (b, 16, 4, a) -> Softmax over
axis 1 -> 1x1 Conv with the weights 0..15. onnxruntime's Softmax over a non-last axis is slow: on
a 1152x640 input (15,120 anchors) it took 28-35 of 190-230 ms, the largest single operator after
the convolutions (measured with onnxruntime's profiler, 2026-12-01). The same numbers come from
Transpose (b, 4, a, 16) -> Softmax over the last axis -> MatMul with the column 0..15: 2.5 ms.

Imported by `dominocam train` only (it needs the `onnx` package of the training and test extras).
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

DFL = "/model.23/dfl/"  # Ultralytics' DFL block in the exported graph


def rewrite_dfl(src: Path, dst: Path) -> bool:
    """Write `src` to `dst` with the DFL softmax over the last axis; False (and `dst` a plain copy)
    when `src` has no slow DFL (already rewritten, or another head)."""
    import onnx  # lazy: onnx comes with the train and test extras only
    from onnx import helper, numpy_helper

    model = onnx.load(str(src))
    graph = model.graph
    nodes = {n.name: n for n in graph.node}
    transpose, softmax, conv = (nodes.get(DFL + k) for k in ("Transpose", "Softmax", "conv/Conv"))
    attrs = {a.name: a for a in softmax.attribute} if softmax is not None else {}
    if transpose is None or conv is None or "axis" not in attrs or attrs["axis"].i != 1:
        onnx.save(model, str(dst))
        return False
    for a in transpose.attribute:
        if a.name == "perm":
            a.ints[:] = [0, 1, 3, 2]  # (b, 4, 16, a) -> (b, 4, a, 16)
    attrs["axis"].i = -1
    weight = next(i for i in graph.initializer if i.name == conv.input[1])
    bins = numpy_helper.to_array(weight).reshape(-1, 1).astype(np.float32)  # (16, 1): 0..15
    graph.initializer.remove(weight)
    graph.initializer.append(numpy_helper.from_array(bins, DFL + "bins"))
    # (b, 4, a, 16) @ (16, 1) = (b, 4, a, 1): the Reshape after the Conv makes it (b, 4, a) as before
    matmul = helper.make_node("MatMul", [softmax.output[0], DFL + "bins"], list(conv.output), name=DFL + "MatMul")
    at = list(graph.node).index(conv)
    graph.node.remove(conv)
    graph.node.insert(at, matmul)
    del graph.value_info[:]  # shapes recorded for the old layout; onnxruntime infers them again
    onnx.checker.check_model(model)
    onnx.save(model, str(dst))
    log.info("DFL decoding rewritten (softmax over the last axis) in %s", dst)
    return True
