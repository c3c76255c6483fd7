"""TileDetector: the ONNX tile detector on the CPU, whole-frame or sliced, in original frame pixels."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.detect.decode import RawBoxes, decode_obb, suppress
from vision.detect.detections import CLASS_NAMES, Detections
from vision.detect.obb import Letterbox, letterbox, rotated_nms, xywhr_to_corners
from vision.detect.rows import RowSettings, complete_rows
from vision.detect.slicing import Window, cut_by_edge, windows

log = logging.getLogger(__name__)

DEFAULT_MODEL = Path(__file__).resolve().parents[2] / "models" / "tiles-obb.onnx"
# The live reader's model: the int8 copy. 35-epoch model, 2026-12-01: about 35 ms less detection
# per 1080p frame; 8 rendered deals through the whole live path 7 exact against 6 for the float
# model, the real photos read the same (210 / 210 tiles exact, at most 1 false tile per image),
# held-out renders 0.9-1.3 % fewer tiles exact (models/README.md). Stills (read, recount, eval)
# keep the float model.
LIVE_MODEL = DEFAULT_MODEL.with_name("tiles-obb.int8.onnx")
# ... but only on a CPU with int8 dot-product instructions. Without them (AVX2 alone) onnxruntime's
# int8 kernels saturate and the copy reads worse (2026-12-03, an AMD EPYC with AVX2 only: real
# photos recall 100 -> 97.6 %, held-out live deals h02 and h03 0 / 18 and 8 / 15 moves, both exact
# with the float model; the same with onnxruntime 1.23-1.32 and OpenCV 4.12 or 5.1).
INT8_FLAGS = ("avx512_vnni", "avx_vnni", "amx_int8", "asimddp")
CPUINFO = Path("/proc/cpuinfo")


def int8_dot_products(cpuinfo: Path = CPUINFO) -> bool:
    """Whether this CPU has int8 dot-product instructions (False where it cannot be told)."""
    try:
        words = set(cpuinfo.read_text(errors="replace").split())
    except OSError:
        return False
    return any(flag in words for flag in INT8_FLAGS)


def live_model() -> Path:
    """The live reader's default model: the int8 copy where it is there and this CPU runs it
    right, else the float model."""
    if LIVE_MODEL.is_file() and int8_dot_products():
        return LIVE_MODEL
    return DEFAULT_MODEL


@dataclass(frozen=True)
class DetectorSettings:
    """Thresholds and the slicing policy (measured choices are in models/README.md)."""

    conf: float = 0.25  # working confidence threshold
    iou: float = 0.7  # NMS inside one network pass (Ultralytics' predict default)
    merge_iou: float = 0.6  # NMS across overlapping slices
    threads: int = 2
    # Idle onnxruntime threads spin-wait for the next operator by default; on this shared 2-core
    # machine that burnt as much CPU again as the network (measured: 250 -> 130 CPU ms a pass)
    # and slowed the reader that runs next.
    spin: bool = False
    slicing: bool = True
    # median tile long side at the network input below which we slice: the committed model's
    # whole-frame recall on held-out 640 renders is 0.69-0.72 for tiles of 30-40 px and 0.82-0.86
    # for 40-64 px (re-measure for a new model: `dominocam eval --min-tile-px`)
    min_tile_px: float = 40.0
    # tile long side the finer pass brings the tiles to, measured with the 18-epoch model and the
    # reader's size-and-confidence check (`dominocam eval --target-tile-px`, 2026-11-30):
    #   real photos, given scale / 70 %: 48 and 64 px recall 100 / 100 %, no false tile on the grid;
    #     40 px 98.6 / 100 %, at most 1 false tile per image
    #   first 100 held-out 640 renders: recall 93.5 (48) / 93.4 (40) / 93.2 % (64), false 238 / 217 / 346
    #   first 60 held-out 1280 renders: 86.4 / 85.0 / 87.7 % (tiles under 30 px: 69 / 63 / 73 %)
    #   1920x1080 bench frames (80 px tiles): detection 135 / 100 / 260 ms
    # With the 25-epoch model at 48 px: real photos 99.5 / 100 % recall, no false tile on the grid;
    # 35 epochs (2026-12-01): 48 px 100 / 100 %, 1 / 0 false tiles on the grid; 40 px 99.5 / 99.5 %,
    # up to 2 / 3 false tiles per image; 64 px 100 / 100 %, none false.
    # The look overestimates tiles under 30 px (boxes about 1.5x too long), so a larger target for
    # them alone cannot be chosen from it.
    target_tile_px: float = 48.0
    # The finer pass measures the tiles better than the look; where they came out under this share
    # of target_tile_px there, the frame is seen once more at the scale that pass calls for and the
    # two passes' boxes are merged (held-out 1280 renders, 35-epoch model: recall 91.9 -> 93.4 %,
    # tiles under 30 px 83.2 -> 90.8 %, exact tiles 93.5 -> 94.3 %, false boxes 267 -> 384; keeping
    # the second pass alone: 92.4 %, and 30-45 px tiles 91.6 -> 89.2 %; shares 0.7 to 0.9 alike; the
    # 640 renders and the real photos are unchanged: their look is right or the upscale is at its
    # bound). 0 turns it off.
    relook_below: float = 0.7
    max_upscale: float = 2.0  # 2.5 with the second look: 640 renders recall 94.7 -> 94.4 %
    # how the finer pass shrinks a frame: "area" averages (OpenCV's INTER_AREA, 14-17 ms for a
    # 1080p frame at 0.44-0.64 here) or "linear" (INTER_LINEAR, 2-3 ms). The same reads, 35-epoch
    # model (2026-12-01): real photos at both scales 210 / 210 tiles exact either way, at most 1
    # false tile per image; 60 held-out 1920x1080 renders (median tile 70 px, seed 21) recall
    # 91.3 (area) / 91.2 % (linear), exact tiles 724 / 725, false boxes 191 / 195.
    downscale: str = "linear"
    # slice overlap at the slice scale; raised to fit the large tiles seen. 96 instead saved 6 % of
    # the passes on the real photos (8.8 vs 9.4) and lost 2 of their 210 tiles
    overlap_px: int = 160
    edge_margin_px: float = 3.0
    max_windows: int = 32  # bounds the cost of a sliced frame (4K at native scale fits)
    # A model exported with dynamic input sizes sees the rescaled frame in one pass up to this many
    # pixels (2048 x 1152): about half the network work of overlapping 640 px windows, no seams.
    max_pass_pixels: int = 2048 * 1152
    stride: int = 32  # the network's largest stride: dynamic inputs are padded to a multiple of it
    size_conf: float = 0.5  # detections trusted for the tile-size estimate, when there are any
    # With fewer sure boxes than this the look's size estimate may come from a false box alone (a
    # pen boxed at 350 px kept a 1280x960 render whole, and its 40 px tiles unseen): the frame is
    # then also seen at native resolution or finer, as when the look finds nothing. 44-epoch model,
    # 2026-12-01: held-out 1280 renders recall 95.1 -> 96.1 %, exact tiles 1277 -> 1293, false boxes
    # 296 -> 348 (text on newspaper seen finer); the 640 renders and the real photos unchanged.
    min_sure: int = 3
    # Boxes scored from this up to `conf` are kept aside as doubtful (`PassInfo.doubtful`), for the
    # reader to take where the layout calls for one (a closed double lying face down at a chain's
    # end, which the network scores low: vision/read/ends.py). Every decision here (sizes, scales,
    # rows) and the returned boxes are those at `conf` or more, exactly as without them. 0: none.
    doubtful_conf: float = 0.05
    # rows of face-down tiles side by side, measured and cut into tiles (vision/detect/rows.py)
    rows: RowSettings = field(default_factory=RowSettings)


@dataclass
class PassInfo:
    """What the last `detect` call did, for logs and benchmarks."""

    passes: int = 0
    scale: float = 1.0
    sliced: bool = False
    windows: list[Window] = field(default_factory=list)
    doubtful: Detections = field(default_factory=Detections.empty)  # scored doubtful_conf..conf


class TileDetector:
    """Create once per process: the onnxruntime session is built in the constructor."""

    def __init__(
        self,
        model_path: str | Path = DEFAULT_MODEL,
        settings: DetectorSettings | None = None,
        *,
        runner: Callable[[np.ndarray], np.ndarray] | None = None,
        imgsz: int = 640,
        dynamic: bool = False,
    ):
        """Load the ONNX model; `runner` (blob -> raw output, of any input size when `dynamic`)
        replaces the session in tests."""
        self.settings = settings or DetectorSettings()
        self.dynamic = dynamic
        self.model_path = Path(model_path)
        self.num_classes = len(CLASS_NAMES)
        self.imgsz = imgsz
        self.last = PassInfo()
        if runner is not None:
            self._runner = runner
            return
        import onnxruntime as ort

        if not self.model_path.is_file():
            raise FileNotFoundError(
                f"detector model {self.model_path} not found: run `dominocam train` "
                "or pass the path of an exported tiles-obb.onnx"
            )
        options = ort.SessionOptions()
        options.intra_op_num_threads = self.settings.threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.add_session_config_entry("session.intra_op.allow_spinning", "1" if self.settings.spin else "0")
        session = ort.InferenceSession(
            str(self.model_path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        inp = session.get_inputs()[0]
        self.dynamic = not isinstance(inp.shape[2], int)
        if not self.dynamic:
            self.imgsz = int(inp.shape[2])
        out_rows = session.get_outputs()[0].shape[1]
        if isinstance(out_rows, int):
            self.num_classes = int(out_rows) - 5
        name = inp.name
        self._runner = lambda blob: session.run(None, {name: blob})[0]

    @property
    def _decode_conf(self) -> float:
        s = self.settings
        return min(s.conf, s.doubtful_conf) if s.doubtful_conf > 0 else s.conf

    def _sure(self, dets: Detections) -> Detections:
        return dets[dets.confidence >= self.settings.conf]

    # -- one network pass -------------------------------------------------------------------
    def _run(self, image: np.ndarray) -> np.ndarray:
        blob = cv2.cvtColor(image, cv2.COLOR_BGR2RGB).transpose(2, 0, 1)[None]
        blob = np.ascontiguousarray(blob, dtype=np.float32) / 255.0
        return self._runner(blob)

    def _pass(self, image: np.ndarray, *, scaleup: bool = True) -> tuple[RawBoxes, Letterbox]:
        """Letterbox, run, decode, NMS: boxes in network-input pixels and the mapping back."""
        size = self.imgsz if scaleup else max(self.imgsz, *image.shape[:2])
        net_input, box = letterbox(image, size, scaleup=scaleup,
                                   stride=self.settings.stride if self.dynamic else None)
        raw = decode_obb(self._run(net_input), self.num_classes, self._decode_conf)
        self.last.passes += 1
        return suppress(raw, self.settings.iou), box

    @staticmethod
    def _to_detections(raw: RawBoxes, box: Letterbox, offset=(0.0, 0.0), scale: float = 1.0) -> Detections:
        corners = box.to_frame(xywhr_to_corners(raw.xywhr))
        corners = (corners + np.asarray(offset, np.float32)) / scale
        return Detections(corners.astype(np.float32), raw.confidence, raw.class_id)

    # -- public ------------------------------------------------------------------------------
    def detect_whole(self, frame: np.ndarray) -> Detections:
        """One pass on the whole frame, letterboxed to the network size (boxes down to
        doubtful_conf: `detect` sets the doubtful ones aside)."""
        raw, box = self._pass(frame)
        return self._to_detections(raw, box)

    def detect_sliced(self, frame: np.ndarray, scale: float, *, largest_tile_px: float = 0.0) -> Detections:
        """Rescale the frame by `scale`, run overlapping windows, merge with NMS (boxes down to
        doubtful_conf, as `detect_whole`)."""
        s = self.settings
        h, w = frame.shape[:2]
        sw, sh = max(round(w * scale), 1), max(round(h * scale), 1)
        interp = cv2.INTER_AREA if scale < 1 and s.downscale == "area" else cv2.INTER_LINEAR
        scaled = frame if (sw, sh) == (w, h) else cv2.resize(frame, (sw, sh), interpolation=interp)
        overlap = self._overlap(scale, largest_tile_px)
        parts = []
        self.last.windows = self._windows(sw, sh, overlap)
        for win in self.last.windows:
            crop = scaled[win.y0 : win.y0 + win.height, win.x0 : win.x0 + win.width]
            raw, box = self._pass(crop, scaleup=False)
            dets = self._to_detections(raw, box)
            dets = dets[~cut_by_edge(dets.corners, win, s.edge_margin_px)]
            parts.append(
                Detections(
                    (dets.corners + np.float32([win.x0, win.y0])) / np.float32(scale),
                    dets.confidence,
                    dets.class_id,
                )
            )
        merged = Detections.concat(parts)
        keep = rotated_nms(merged.xywhr, merged.confidence, s.merge_iou)
        return merged[keep]

    def _windows(self, width: int, height: int, overlap: int) -> list[Window]:
        """The passes over a rescaled frame: one, when the model takes any input size and the
        frame is not too large, else overlapping network-sized windows."""
        if self.dynamic and width * height <= self.settings.max_pass_pixels:
            return [Window(0, 0, width, height, width, height)]
        return windows(width, height, self.imgsz, overlap)

    def _overlap(self, scale: float, largest_tile_px: float) -> int:
        return int(min(max(self.settings.overlap_px, 1.5 * largest_tile_px * scale), self.imgsz // 2))

    def _limit_scale(self, frame_shape: tuple[int, ...], scale: float, largest_tile_px: float) -> float:
        """Lower the slice scale until the frame needs at most max_windows windows."""
        h, w = frame_shape[:2]
        while True:
            n = len(self._windows(max(round(w * scale), 1), max(round(h * scale), 1),
                                  self._overlap(scale, largest_tile_px)))
            if n <= self.settings.max_windows:
                return scale
            scale *= 0.9

    def tile_sizes(self, whole: Detections) -> tuple[float, float]:
        """(typical, largest) tile long side in frame pixels from a whole-frame pass: the median of
        the sure boxes (all boxes when none is sure) and the largest box. (The largest sure box,
        or the 90th percentile, would keep a false box over a poster from widening the overlap, but
        measured 1 and 4 fewer tiles of 1678 on the 1280x960 held-out renders.)"""
        whole = self._sure(whole)
        if not len(whole):
            return 0.0, 0.0
        sure = whole.confidence >= self.settings.size_conf
        sides = whole.long_side[sure] if sure.any() else whole.long_side
        return float(np.median(sides)), float(whole.long_side.max())

    def slice_scale(self, frame_shape: tuple[int, ...], whole: Detections) -> float | None:
        """The scale for sliced inference, or None when the whole-frame pass is good enough."""
        s = self.settings
        h, w = frame_shape[:2]
        gain = self.imgsz / max(h, w)
        whole = self._sure(whole)
        if len(whole):
            median = self.tile_sizes(whole)[0]
            few = int((whole.confidence >= s.size_conf).sum()) < s.min_sure
            if median * gain >= s.min_tile_px and not few:
                return None
            scale = s.target_tile_px / max(median, 1.0)
            if few:  # trusted when it says the tiles are small, not when it says they are large
                scale = max(scale, 1.0)
        else:
            scale = 1.0  # nothing seen: look at native resolution
        scale = min(scale, s.max_upscale)
        return None if scale <= gain * 1.05 else scale

    def detect(self, frame: np.ndarray, *, scale: float | None = None) -> Detections:
        """All tiles in a BGR frame (as OpenCV loads it); corners in that frame's pixels.

        Large frames are first seen whole, downscaled to the network size; where the tiles come
        out too small there, the frame is sliced at a scale that brings them to the training sizes.
        A fixed camera can pass `scale` (e.g. `detector.last.scale` of an earlier frame) to skip
        the whole-frame look. Rows of face-down tiles are then measured in the frame (rows.py).
        """
        frame = _as_bgr(frame)
        dets = self._detect(frame, scale)
        sure = dets.confidence >= self.settings.conf
        self.last.doubtful = dets[~sure]
        return complete_rows(frame, dets[sure], self.settings.rows, self.last.doubtful, self.settings.conf)

    def _detect(self, frame: np.ndarray, scale: float | None) -> Detections:
        self.last = PassInfo()
        gain = self.imgsz / max(frame.shape[:2])
        if scale is None:
            whole = self.detect_whole(frame)
            scale = self.slice_scale(frame.shape, whole) if self.settings.slicing else None
            largest = self.tile_sizes(whole)[1]
        elif scale > gain * 1.05:
            whole, largest = None, self.imgsz / 4 / scale  # room for tiles of a quarter window
        else:
            whole, scale = self.detect_whole(frame), None
        if scale is not None:
            scale = self._limit_scale(frame.shape, scale, largest)
            if scale <= gain * 1.05:
                scale, whole = None, whole if whole is not None else self.detect_whole(frame)
        if scale is None:
            self.last.scale = gain
            return whole
        self.last.sliced, self.last.scale = True, scale
        log.debug("slicing at scale %.3f", scale)
        dets = self.detect_sliced(frame, scale, largest_tile_px=largest)
        return self._relook(frame, dets, scale, largest)

    def _relook(self, frame: np.ndarray, dets: Detections, scale: float, largest: float) -> Detections:
        """A second finer pass where the first one's tiles came out well under the target size."""
        s = self.settings
        if not s.relook_below or not len(self._sure(dets)):
            return dets
        median = self.tile_sizes(dets)[0]
        if median * scale >= s.relook_below * s.target_tile_px:
            return dets
        better = self._limit_scale(frame.shape, min(s.target_tile_px / max(median, 1.0), s.max_upscale), largest)
        if better <= scale * 1.15:
            return dets
        log.debug("tiles %.0f px at scale %.3f: looking again at %.3f", median * scale, scale, better)
        self.last.scale = better  # a fixed camera keeps this one
        both = Detections.concat([self.detect_sliced(frame, better, largest_tile_px=largest), dets])
        return both[rotated_nms(both.xywhr, both.confidence, s.merge_iou)]


def _as_bgr(frame: np.ndarray) -> np.ndarray:
    if frame is None or not isinstance(frame, np.ndarray) or frame.size == 0:
        raise ValueError("detect() needs a non-empty image array (BGR, as cv2.imread returns)")
    if frame.dtype != np.uint8:
        raise ValueError(f"detect() needs a uint8 image, got {frame.dtype}")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame
