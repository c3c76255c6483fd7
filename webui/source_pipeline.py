"""From a `--source` string to a pipeline object (the interface of `vision.live.protocol`).

- `none`: no camera, serve the stored game (the operator can still enter moves).
- `FILE.jsonl`: play a recorded game back (RecordPipeline).
- `demo`, a camera index (`0`), `/dev/videoN`, a video file, `rtsp://…`, a folder of frames: the
  live pipeline of vision/live/ (`vision.live.launch.open_pipeline`). Where the live demo cannot
  start, `demo` plays the bundled sample game record back instead.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from engine.record import read_record
from engine.simulate import random_game
from vision.live.launch import open_pipeline
from vision.live.sources import SourceError
from webui.record_source import RecordPipeline

log = logging.getLogger(__name__)

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "dominocam" / "data"


def sample_record() -> Path | None:
    found = sorted(SAMPLE_DIR.glob("*.jsonl"))
    return found[0] if found else None


def record_pipeline(path: Path, **kwargs) -> RecordPipeline:
    return RecordPipeline(read_record(str(path)), name=path.stem, **kwargs)


def pipeline_for_source(source: str, *, variant: str, players: list[str], pace_s: float = 1.0,
                        moves: int | None = None, model: str | None = None) -> Any:
    """A pipeline for `source`, or None for `none`. Raises SourceError saying what to do."""
    if source == "none":
        return None
    if source.endswith(".jsonl"):
        path = Path(source)
        if not path.is_file():
            raise SourceError(f"{source}: no such game record")
        return record_pipeline(path, pace_s=pace_s, moves=moves)
    try:
        extra = {"model": model} if model else {}
        return open_pipeline(source, variant=variant, players=players, **extra)
    except (RuntimeError, ValueError) as exc:  # SourceError, vision.live's ReaderUnavailable
        if source != "demo":
            raise SourceError(f"{source}: {exc}") from None
        log.warning("the live demo cannot start (%s): replaying a recorded game instead", exc)
    except Exception:  # the demo must always show something; a camera source must not hide bugs
        if source != "demo":
            raise
        log.exception("the live demo failed to start: replaying a recorded game instead")
    return demo_record_pipeline(pace_s=pace_s, moves=moves)


def demo_record_pipeline(pace_s: float = 1.0, moves: int | None = None) -> RecordPipeline:
    """The bundled sample record played back, or a game the engine plays itself (seeded)."""
    sample = sample_record()
    if sample is not None:
        log.info("the demo replays %s", sample)
        return record_pipeline(sample, pace_s=pace_s, moves=moves, loop=True)
    log.info("the demo replays a game played by the engine (seed 7)")
    return RecordPipeline(random_game("bykovo", seed=7, deals=3), pace_s=pace_s, moves=moves,
                          name="demo game", loop=True)
