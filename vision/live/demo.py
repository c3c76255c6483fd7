"""The embedded demo: a game of several deals played as if a camera watched the table.

First choice: `DEMO_DEALS` rendered whole-deal videos from the synthetic renderer (vision/synth),
rendered once into `datasets/cache/demo/videos/` and reused, played one after another
(vision/live/playlist.py): each deal's hands stay face up for a few seconds, then the next deal
starts on a cleared table; after the last, the first again, as a new deal. It is read like a camera, by the detector and the pip reader
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

from vision.detect.detector import live_model
from vision.live.pipeline import LiveConfig, LivePipeline
from vision.live.playlist import PlaylistSource, clip, truths
from vision.live.readers import BoxesReader, ModelReader, ReaderUnavailable, TruthReader
from vision.live.schematic import Scenario, deal_steps, draw
from vision.live.sources import FolderSource, SourceEnded

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("DOMINOCAM_DEMO_CACHE", ROOT / "datasets" / "cache" / "demo"))
DEMO_SEED = 7  # a bykovo deal: the 0-0 holder opens every deal (BYK-1.5), so deals follow cleanly
DEMO_PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]
DEMO_DEALS = 3  # rendered deals played in a row
HOLD_S = 3.0  # each deal's last picture (the hands face up) stays this long before the next deal
LEAD_S = 2.0  # and the next deal's first picture (a cleared table) this long before it starts


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


def find_videos(root: Path) -> list[DemoVideo]:
    """Every complete video under `root/videos/`, in name order."""
    folders = sorted((root / "videos").glob("*")) if (root / "videos").is_dir() else []
    return [v for v in (load_video(f) for f in folders) if v is not None]


def render_video(root: Path, seed: int = DEMO_SEED) -> DemoVideo | None:
    """Render the demo's first deal once with the renderer's video writer, if this build has it."""
    videos = render_videos(root, 1, seed)
    return videos[0] if videos else None


def render_videos(root: Path, n: int = DEMO_DEALS, seed: int = DEMO_SEED) -> list[DemoVideo]:
    """Render the demo's deals not yet in `root/videos/` (each whole or not at all): the first as
    `dominocam synth --videos 1 --seed 7` renders it, the others bykovo deals of the same four
    players (`video_rng(seed, i)`, another stream where a deal does not fit the table)."""
    # lazy: the renderer is imported only when the demo renders, never by a camera's pipeline
    from vision.synth.video import render_video as render
    from vision.synth.video import video_rng

    for i in range(n):
        folder = root / "videos" / f"deal_s{seed}_{i:03d}"
        if load_video(folder) is not None:
            continue
        log.info("rendering demo deal %d of %d once into %s (a minute or two)", i + 1, n, folder)
        partial = root / "partial" / folder.name
        for attempt in range(5):
            shutil.rmtree(partial, ignore_errors=True)
            try:
                render(partial, video_rng(seed, i + 1000 * attempt), (960, 720), 10,
                       variant=None if i == 0 else "bykovo", progress=False)
                break
            except RuntimeError as exc:  # the deal did not fit the table: another one
                log.warning("demo deal %d, attempt %d: %s", i + 1, attempt + 1, exc)
        else:
            raise RuntimeError(f"no demo deal {i + 1} fitted the table in 5 attempts")
        folder.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(folder, ignore_errors=True)
        partial.rename(folder)
    shutil.rmtree(root / "partial", ignore_errors=True)
    return find_videos(root)


def truth_reader(video: DemoVideo) -> TruthReader:
    """The renderer's per-frame truth of a video as a reader (raises ReaderUnavailable)."""
    if video.truth is None:
        raise ReaderUnavailable(f"{video.folder} has no per-frame truth")
    if video.truth.is_dir():
        return TruthReader.from_folder(video.truth, video.fps)
    return TruthReader.from_jsonl(video.truth, video.fps)


class SchematicSource:
    """Schematic deals drawn frame by frame, one after another, in a loop (FrameSource)."""

    live = False

    def __init__(self, sc: Scenario | list[Scenario], fps: float = 10.0, loop: bool = True,
                 scale: float = 0.5) -> None:
        self.sc = _joined(sc)
        self.scale = scale
        self.fps = fps
        self.loop = loop
        self.name = "demo (schematic deal)"
        self._n = 0
        self._rng = np.random.default_rng(0)

    def open(self) -> None:
        pass

    def read(self):
        n = len(self.sc.truth)
        if self._n >= n and not self.loop:
            raise SourceEnded(self.name)
        i = self._n % n
        t = self._n / self.fps
        self._n += 1
        return draw(self.sc.truth[i], self.sc.arms[i], self._rng, scale=self.scale), t

    def close(self) -> None:
        pass


def _joined(sc: Scenario | list[Scenario], lead: int = round(LEAD_S * 10)) -> Scenario:
    """Deals one after another as one scenario (the frames and arms; times are the source's),
    each deal's first picture (a cleared table) shown for `lead` frames before it."""
    if isinstance(sc, Scenario):
        return sc
    return Scenario(truth=[o for s in sc for o in [s.truth[0]] * lead + s.truth],
                    arms=[a for s in sc for a in [None] * lead + s.arms])


def schematic_truths(sc: Scenario | list[Scenario], scale: float = 0.5) -> list[dict]:
    """Per-frame truth dicts (the renderer's format) of schematic deals, at the drawn scale."""
    out = []
    for obs in _joined(sc).truth:
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


def demo_kind(model: str | None = None) -> str:
    """The demo's reader by name, as DOMINOCAM_DEMO_READER says; by default the model where its
    file is there (it reads the demo deals exactly), else the renderer's truth."""
    have_model = Path(model).is_file() if model else live_model().is_file()
    kind = os.environ.get("DOMINOCAM_DEMO_READER", "model" if have_model else "truth")
    if kind not in ("model", "truth", "boxes"):
        raise ReaderUnavailable(f"DOMINOCAM_DEMO_READER={kind!r}: use truth, boxes or model")
    return kind


def demo_reader(video: DemoVideo, model: str | None = None):
    """The demo's reader for one video (see `demo_kind`)."""
    return reader_for(video, demo_kind(model), model)


def schematic_deals(n: int = DEMO_DEALS) -> list[Scenario]:
    """The schematic demo's deals: one seed each, so no deal repeats the one before."""
    return [deal_steps(DEMO_SEED + k, DEMO_PLAYERS) for k in range(n)]


def demo_pipeline(
    config: LiveConfig | None = None, model: str | None = None, *, cache: Path | None = None,
    render: bool = True, schematic_scale: float = 0.5,
) -> LivePipeline:
    """The demo: the rendered deals under `cache` (rendered now where `render` and missing)
    one after another, else schematic deals."""
    root = cache or CACHE
    videos = find_videos(root)
    if render and len(videos) < DEMO_DEALS:
        videos = render_videos(root) or videos
    if not videos:
        log.info("no rendered demo video here: playing schematic deals")
        deals = schematic_deals()
        game = {"event": "game", "variant": "bykovo", "players": DEMO_PLAYERS, "options": {}}
        reader = TruthReader(schematic_truths(deals, schematic_scale), 10.0)
        return LivePipeline(lambda: SchematicSource(deals, scale=schematic_scale), reader,
                            DEMO_PLAYERS, game=game, config=config)
    return playlist_pipeline(videos, demo_kind(model), config, model=model)


def playlist_pipeline(videos: list[DemoVideo], kind: str, config: LiveConfig | None = None, *,
                      model: str | Path | None = None, loop: bool = True,
                      hold_s: float = HOLD_S) -> LivePipeline:
    """A pipeline watching rendered deals one after another (vision/live/playlist.py), read by
    `kind` (model, truth or boxes, as `reader_for`)."""
    fps = videos[0].fps
    clips = [clip(v.frames, v.truth, fps, hold_s, LEAD_S if len(videos) > 1 else 0.0)
             for v in videos]
    if kind == "model":
        reader = ModelReader(model)
    else:
        every = truths(clips)
        if every is None:
            raise ReaderUnavailable("a demo video has no per-frame truth folder")
        reader = TruthReader(every, fps) if kind == "truth" else BoxesReader(every, fps)
    game = dict(videos[0].record[0])
    players = list(game.get("players") or DEMO_PLAYERS)
    name = f"demo ({len(videos)} deals)"
    return LivePipeline(lambda: PlaylistSource(clips, fps, loop=loop, name=name), reader, players,
                        variant=game.get("variant", "bykovo"), game=game, config=config)


def video_pipeline(video: DemoVideo, reader, config: LiveConfig | None = None, *,
                   loop: bool = True, **pacing) -> LivePipeline:
    """A pipeline watching a rendered video as a camera would, reading with `reader` (`pacing`:
    LivePipeline's `clock` and `sleep`, a slower machine's)."""
    game = dict(video.record[0])
    players = list(game.get("players") or DEMO_PLAYERS)
    return LivePipeline(lambda: FolderSource(video.frames, fps=video.fps, loop=loop), reader,
                        players, variant=game.get("variant", "bykovo"), game=game, config=config,
                        **pacing)
