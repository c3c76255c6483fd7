"""The interface between a pipeline and the web side, defined once (webui/ imports it from here).

A pipeline turns a video source into annotated frames and engine events. The web side runs it on
one thread (`webui.pipeline_runner.PipelineRunner`), broadcasts its frames, journals its events
before showing them, and reports the camera's state to every page. `vision.live.pipeline.LivePipeline`
(a camera, a video, the demo) and `webui.record_source.RecordPipeline` (a game record played back)
implement it.

A pipeline is any object with these methods (duck-typed; `Pipeline` below is the Protocol):

- `frames() -> Iterator[FrameUpdate]`: blocking iterator, called once on the runner thread. Yields an
  annotated BGR frame (or `frame=None` while the camera is gone) with a `SourceStatus`. It should
  yield at least every second or two even with no picture (status updates), but the web side copes
  with a pipeline that blocks: after its stall time without an update it reports `stalled`.
  It ends when the source ends for good or after `close()`.
- `on_events(sink)`: called once before `frames()`. The pipeline calls `sink(event)` for each new
  engine event (a dict in the game record format of docs/CONTRACTS.md: `play`, `pass`, `deal`,
  `reveal`...), from any thread. `sink` returns the journal entry (`.id`) only after the event is
  on disk; it raises `ValueError` (with the reason) for an event the journal refuses.
- `close()`: stop soon; `frames()` then returns.

Optional methods, used when present:
- `game_event() -> dict | None`: the `game` event when the source knows the game (a recorded
  video with its record); used when the journal is empty.
- `resume(record: list[dict])`: the current game's effective record (corrections and undos
  applied), called before `frames()` and after every operator change, so move inference starts
  from what the referee says is on the table.
- `on_flags(sink)`: `sink(flags)` each time the pipeline raises flags for the operator.
- `to_confirm() -> list[dict]` and `resolve(item_id, action, tile=None)`: tiles seen laid that the
  rules doubt, held for the operator (read after each frame and shown on the operator page), and
  the operator's answer (`confirm`, `correct` with `tile`, `dismiss`); `resolve` raises ValueError
  for an unknown id or a tile already played.
- `calibration` and `set_calibration(calibration)`: the table's corners and seats, and the
  operator's override.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

# Camera states shown on every page.
STARTING = "starting"
LIVE = "live"
RECONNECTING = "reconnecting"  # the source was lost; the pipeline is retrying with back-off
LOST = "lost"  # gave up (or no retry possible)
STALLED = "stalled"  # set by the web side: no update for its stall time
ENDED = "ended"  # a file or recording reached its end
NO_CAMERA = "none"  # served without a source
MISSING = "missing"  # no device at that address at all (vision.live.sources.SourceMissing); looked for again
MISSING_PREFIX = "no camera at "  # the start of a reconnecting message that means MISSING


@dataclass(frozen=True)
class SourceStatus:
    """The camera's state for the pages."""

    state: str
    message: str = ""
    retry_in: float | None = None  # seconds to the next reconnect attempt

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class FrameUpdate:
    """What `frames()` yields."""

    frame: np.ndarray | None  # annotated BGR image, None when there is no picture
    status: SourceStatus


EventSink = Callable[[dict[str, Any]], Any]


@runtime_checkable
class Pipeline(Protocol):
    def frames(self) -> Iterator[FrameUpdate]: ...

    def on_events(self, sink: EventSink) -> None: ...

    def close(self) -> None: ...
