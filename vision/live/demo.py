"""The embedded demo: a whole deal played in a loop as if a camera watched the table.

First choice: a rendered whole-deal video from the synthetic renderer (vision/synth), rendered once
into `datasets/cache/demo/` and reused. It is read like a camera, by the detector and the pip reader
(models/tiles-obb.onnx), unless DOMINOCAM_DEMO_READER says `truth` (the renderer's per-frame truth)
or `boxes` (the pip reader on the renderer's boxes). Where neither a cached video nor the renderer's video
writer is available, a schematic deal (vision/live/schematic.py) is drawn instead, so `make demo`
always shows the whole assistant working.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.live.pipeline import LiveConfig, LivePipeline
from vision.live.readers import BoxesReader, ModelReader, ReaderUnavailable, TruthReader
from vision.live.schematic import Scenario, deal_steps, draw
from vision.live.sources import FolderSource

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("DOMINOCAM_DEMO_CACHE", ROOT / "datasets" / "cache" / "demo"))
DEMO_SEED = 7  # a bykovo deal: the 0-0 holder opens every deal, so the loop plays on cleanly
DEMO_PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]


@dataclass(frozen=True)
class DemoVideo:
    """One rendered deal: frames, fps, its true record and (if written) per-frame truth."""

    folder: Path
    frames: Path
    fps: float
    record: list[dict]
    truth: Path | None


def find_video(root: Path) -> DemoVideo | None:
    """The first complete video under `root/videos/` (the renderer's layout)."""
    for folder in sorted((root / "videos").glob("*")) if (root / "videos").is_dir() else []:
        video = load_video(folder)
        if video is not None:
            return video
    return None


def load_video(folder: Path) -> DemoVideo | None:
    """One rendered video folder (frames/, record.jsonl, moves.json), None if incomplete."""
    frames = folder / "frames"
    record = folder / "record.jsonl"
    meta = folder / "moves.json"
    # moves.json is written last: without it the render was cut short.
    if not (frames.is_dir() and record.is_file() and meta.is_file()):
        return None
    events = [json.loads(line) for line in record.read_text().splitlines() if line.strip()]
    fps = 10.0
    with contextlib.suppress(ValueError, AttributeError):
        fps = float(json.loads(meta.read_text()).get("fps", fps))
    truth = next((p for p in (folder / "truth", folder / "truth.jsonl") if p.exists()), None)
    return DemoVideo(folder, frames, fps, events, truth)


def render_video(root: Path, seed: int = DEMO_SEED) -> DemoVideo | None:
    """Render the demo deal once with the renderer's video writer, if this build has it."""
    try:
        from vision.synth.video import write_videos
    except ImportError:
        return None
    log.info("rendering the demo deal once into %s (a minute or two)", root)
    root.mkdir(parents=True, exist_ok=True)
    partial = root.with_name(root.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    write_videos(partial, 1, seed, (960, 720), 10)
    shutil.rmtree(root / "videos", ignore_errors=True)
    (partial / "videos").rename(root / "videos")  # whole or not at all
    shutil.rmtree(partial, ignore_errors=True)
    return find_video(root)


def truth_reader(video: DemoVideo) -> TruthReader:
    """The renderer's per-frame truth of a video as a reader (raises ReaderUnavailable)."""
    if video.truth is None:
        raise ReaderUnavailable(f"{video.folder} has no per-frame truth")
    if video.truth.is_dir():
        return TruthReader.from_folder(video.truth, video.fps)
    return TruthReader.from_jsonl(video.truth, video.fps)


class SchematicSource:
    """A schematic deal drawn frame by frame, in a loop (FrameSource)."""

    live = False

    def __init__(self, sc: Scenario, fps: float = 10.0, loop: bool = True,
                 scale: float = 0.5) -> None:
        self.sc = sc
        self.scale = scale
        self.fps = fps
        self.loop = loop
        self.name = "demo (schematic deal)"
        self._n = 0
        self._rng = np.random.default_rng(0)

    def open(self) -> None:
        pass

    def read(self):
        from vision.live.sources import SourceEnded

        n = len(self.sc.truth)
        if self._n >= n and not self.loop:
            raise SourceEnded(self.name)
        i = self._n % n
        t = self._n / self.fps
        self._n += 1
        return draw(self.sc.truth[i], self.sc.arms[i], self._rng, scale=self.scale), t

    def close(self) -> None:
        pass


def schematic_truths(sc: Scenario, scale: float = 0.5) -> list[dict]:
    """Per-frame truth dicts (the renderer's format) of a schematic deal, at the drawn scale."""
    out = []
    for obs in sc.truth:
        parents = {j: i for i, j in obs.edges}
        tiles = []
        for i, t in enumerate(obs.tiles):
            tiles.append({
                "values": None if t.values is None else list(t.values),
                "halves": [[x * scale, y * scale] for x, y in t.halves],
                "corners": [[x * scale, y * scale] for x, y in t.corners],
                "face": t.face,
                "parent": parents.get(i),
                "owner": t.owner,
            })
        out.append({"tiles": tiles})
    return out


def reader_for(video: DemoVideo, kind: str, model: str | Path | None = None):
    """A reader for a rendered video by name: `model` (the detector and the pip reader, the real
    thing), `truth` (the renderer's per-frame truth) or `boxes` (the pip reader on the pixels, fed
    the renderer's boxes)."""
    if kind == "model":
        log.info("reading %s with the detector", video.folder.name)
        return ModelReader(model)
    if kind == "boxes":
        if video.truth is None or not video.truth.is_dir():
            raise ReaderUnavailable(f"{video.folder} has no per-frame truth folder")
        return BoxesReader.from_folder(video.truth, video.fps)
    if kind != "truth":
        raise ReaderUnavailable(f"no reader called {kind!r}: use truth, boxes or model")
    return truth_reader(video)


def demo_reader(video: DemoVideo, model: str | None = None):
    """The demo's reader, chosen by DOMINOCAM_DEMO_READER; by default the model where its file is
    there (it reads the demo deal exactly), else the renderer's truth."""
    from vision.detect.detector import live_model

    have_model = Path(model).is_file() if model else live_model().is_file()
    kind = os.environ.get("DOMINOCAM_DEMO_READER", "model" if have_model else "truth")
    if kind not in ("model", "truth", "boxes"):
        raise ReaderUnavailable(f"DOMINOCAM_DEMO_READER={kind!r}: use truth, boxes or model")
    return reader_for(video, kind, model)


def demo_pipeline(
    config: LiveConfig | None = None, model: str | None = None, *, cache: Path | None = None,
    render: bool = True, schematic_scale: float = 0.5,
) -> LivePipeline:
    root = cache or CACHE
    video = find_video(root) or (render_video(root) if render else None)
    if video is None:
        log.info("no rendered demo video here: playing a schematic deal")
        sc = deal_steps(DEMO_SEED, DEMO_PLAYERS)
        game = {"event": "game", "variant": "bykovo", "players": DEMO_PLAYERS, "options": {}}
        reader = TruthReader(schematic_truths(sc, schematic_scale), 10.0)
        return LivePipeline(lambda: SchematicSource(sc, scale=schematic_scale), reader,
                            DEMO_PLAYERS, game=game, config=config)
    return video_pipeline(video, demo_reader(video, model), config)


def video_pipeline(video: DemoVideo, reader, config: LiveConfig | None = None, *,
                   loop: bool = True) -> LivePipeline:
    """A pipeline watching a rendered video as a camera would, reading with `reader`."""
    game = dict(video.record[0])
    players = list(game.get("players") or DEMO_PLAYERS)
    return LivePipeline(lambda: FolderSource(video.frames, fps=video.fps, loop=loop), reader,
                        players, variant=game.get("variant", "bykovo"), game=game, config=config)
