"""From a `--source` string to a pipeline object (webui/pipeline.py).

- `none`: no camera, serve the stored game (the operator can still enter moves).
- `FILE.jsonl`: play a recorded game back (RecordPipeline).
- `demo`, a camera index (`0`), `/dev/videoN`, a video file, `rtsp://…`, a folder of frames: the
  live pipeline of vision/live/ (`vision.live.pipeline.open_pipeline`). Until that exists, `demo`
  plays the bundled sample game record back instead.
"""

from __future__ import annotations

import importlib
import logging
from pathlib import Path
from typing import Any

from webui.record_source import RecordPipeline

log = logging.getLogger(__name__)

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "dominocam" / "data"


class SourceError(ValueError):
    pass


def _live_factory():
    try:
        module = importlib.import_module("vision.live.pipeline")
    except ModuleNotFoundError as exc:
        if exc.name not in ("vision.live.pipeline", "vision.live"):
            raise
        return None
    return getattr(module, "open_pipeline", None)


def sample_record() -> Path | None:
    found = sorted(SAMPLE_DIR.glob("*.jsonl"))
    return found[0] if found else None


def record_pipeline(path: Path, **kwargs) -> RecordPipeline:
    from engine.record import read_record

    return RecordPipeline(read_record(str(path)), name=path.stem, **kwargs)


def open_source(source: str, *, variant: str, players: list[str], pace_s: float = 1.0,
                moves: int | None = None) -> Any:
    """A pipeline for `source`, or None for `none`. Raises SourceError saying what to do."""
    if source == "none":
        return None
    if source.endswith(".jsonl"):
        path = Path(source)
        if not path.is_file():
            raise SourceError(f"{source}: no such game record")
        return record_pipeline(path, pace_s=pace_s, moves=moves)
    factory = _live_factory()
    if factory is not None:
        return factory(source, variant=variant, players=players)
    if source == "demo":
        sample = sample_record()
        if sample is None:
            raise SourceError("no demo in this build: pass --source FILE.jsonl or --source none")
        log.info("the live camera pipeline is not in this build: the demo replays %s", sample)
        return record_pipeline(sample, pace_s=pace_s, moves=moves, loop=True)
    raise SourceError(
        f"{source}: watching a camera or video needs the live pipeline (vision/live/), not in this "
        "build; pass a game record (.jsonl) or --source none"
    )
