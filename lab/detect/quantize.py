"""Static int8 quantization of the exported detector (onnxruntime's QDQ format), for the CPU.

Imported by `dominocam train` only (it needs the `onnx` package of the training extra). Weights are
quantized per channel, activations per tensor with ranges calibrated on rendered training images:
the 99.999th percentile of each activation rather than its extremes, which let rare outliers coarsen
every step (35-epoch model, 64 images: real photos at most 1 false tile per image against 2, 640
renders 875 false boxes against 1004, recall 94.8 against 95.3 %, exact tiles 94.0 against 94.2 %).
Since 2026-12-02 the 99.9999th (candidate c of docs/lab-notes/2026-12-02-detector-any-set.md, 64
plain 640x640 renders, real photos at scale 1.0 / 0.7: 99.9999 reads 210/210 at both with 0 false
tiles; 99.999 210/210 with 1 false tile at 1.0; 99.99 208/210 and 1 false tile).
The head's decoding (box distances, the class sigmoid, the angle, one concatenated output in
pixels and probabilities) stays in float: one int8 scale for pixels and probabilities at once
rounds every class score to zero.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.detect.obb import letterbox

log = logging.getLogger(__name__)

HEAD = "/model.23/"  # Ultralytics' OBB head in the exported graph
HEAD_CONVS = "/model.23/cv"  # its convolution branches, quantized like the rest
CALIB_PERCENTILE = 99.9999  # 99.999 before 2026-12-02 (the detector of 44 epochs)


def float_nodes(model_path: Path, also_float: Sequence[str] = ()) -> list[str]:
    """The head's decoding nodes, left in float, plus every node whose name starts with one of
    `also_float` (e.g. "/model.23/cv3" for the class branch, "/model.0/" for the first conv)."""
    import onnx

    nodes = onnx.load(str(model_path)).graph.node
    return [n.name for n in nodes
            if (n.name.startswith(HEAD) and not n.name.startswith(HEAD_CONVS))
            or any(n.name.startswith(prefix) for prefix in also_float)]


def quantize(src: Path, dst: Path, images: Sequence[Path], imgsz: int = 640, *,
             percentile: float = CALIB_PERCENTILE, method: str = "percentile", per_channel: bool = True,
             also_float: Sequence[str] = ()) -> Path:
    """Write an int8 copy of the ONNX model `src` to `dst`, calibrated on `images`.

    `method`: "percentile" (at `percentile`), "entropy" or "minmax"; `per_channel`: weights per
    output channel (else per tensor); `also_float`: node-name prefixes left in float besides the
    head's decoding (see `float_nodes`). Calibration holds every image's activations in memory:
    128 images of 640x640 ran a 23 GB machine out of memory (64 fit)."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    if not images:
        raise ValueError("int8 calibration needs rendered images: none given")
    prepared = dst.with_suffix(".pre.onnx")
    quant_pre_process(str(src), str(prepared), skip_symbolic_shape=True)
    input_name = __import__("onnx").load(str(prepared)).graph.input[0].name

    class Renders(CalibrationDataReader):
        def __init__(self) -> None:
            self.files = iter(images)

        def get_next(self) -> dict | None:
            for f in self.files:
                frame = cv2.imread(str(f), cv2.IMREAD_COLOR)
                if frame is None:
                    log.warning("calibration: cannot read %s, skipped", f)
                    continue
                net, _ = letterbox(frame, imgsz, stride=32)
                blob = cv2.cvtColor(net, cv2.COLOR_BGR2RGB).transpose(2, 0, 1)[None]
                return {input_name: np.ascontiguousarray(blob, dtype=np.float32) / 255.0}
            return None

    methods = {"percentile": CalibrationMethod.Percentile, "entropy": CalibrationMethod.Entropy,
               "minmax": CalibrationMethod.MinMax}
    if method not in methods:
        raise ValueError(f"calibration method {method!r}: one of {', '.join(methods)}")
    extra = {"CalibPercentile": percentile} if method == "percentile" else {}
    try:
        quantize_static(
            str(prepared), str(dst), Renders(), quant_format=QuantFormat.QDQ, per_channel=per_channel,
            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
            calibrate_method=methods[method], extra_options=extra,
            nodes_to_exclude=float_nodes(prepared, also_float),
        )
    finally:
        prepared.unlink(missing_ok=True)
    log.info("int8 model written to %s (%.1f MB, calibrated on %d images)", dst, dst.stat().st_size / 1e6, len(images))
    return dst
