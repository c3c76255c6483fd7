"""What one running app owns (`Live`: the journal, the hub, the broadcaster, the pipeline thread)
and `live()`, the blueprints' way to it: apart from the app factory, so no blueprint imports it."""

from __future__ import annotations

import logging
import threading
from typing import Any

from flask import Flask, current_app

from vision.live.calibration import operator_calibration
from vision.live.protocol import SourceStatus
from webui.hub import Hub
from webui.i18n import gettext as _
from webui.journal import JournalError, current_game
from webui.pipeline_runner import PipelineRunner
from webui.store import EventStore
from webui.stream import FrameBroadcaster

log = logging.getLogger(__name__)


class Live:
    """What one running app owns: the journal, the hub, the broadcaster and the pipeline thread."""

    def __init__(self, config: dict[str, Any]):
        self.store = EventStore(config["DB_PATH"])
        self.hub = Hub(self.store)
        self.broadcaster = FrameBroadcaster(
            max_fps=config["STREAM_MAX_FPS"],
            resend_s=config["STREAM_RESEND_S"],
            jpeg_quality=config["STREAM_JPEG_QUALITY"],
            max_viewers=config["STREAM_MAX_VIEWERS"],
            slow_viewer_s=config["STREAM_SLOW_VIEWER_S"],
        )
        self.pipeline = config["PIPELINE"]
        self.sse_slots = threading.BoundedSemaphore(config["SSE_MAX_CLIENTS"])
        self.runner: PipelineRunner | None = None
        self._start_game(config)
        if self.pipeline is not None:
            self._start_pipeline(config)

    def _start_game(self, config: dict[str, Any]) -> None:
        if current_game(self.store.entries()).game_event is not None:
            log.info("resuming the stored game (%d journal entries) from %s", len(self.store.entries()),
                     self.store.path)
            return
        game = None
        if self.pipeline is not None and hasattr(self.pipeline, "game_event"):
            game = self.pipeline.game_event()
        if game is None:
            game = {"event": "game", "variant": config["VARIANT"], "players": list(config["PLAYERS"]),
                    "options": {}}
        self.hub.append(game, "system")

    def _start_pipeline(self, config: dict[str, Any]) -> None:
        pipeline = self.pipeline
        stored = self.store.get_setting("calibration")
        if stored and hasattr(pipeline, "set_calibration"):
            try:
                self.set_calibration(stored, save=False)
                log.info("using the operator's stored table calibration")
            except ValueError as exc:
                log.warning("ignoring the stored calibration: %s", exc)
        if hasattr(pipeline, "resume"):
            pipeline.resume(current_game(self.store.entries()).record)
            self.hub.add_listener(pipeline.resume)

        def sink(event: dict[str, Any]):
            try:
                return self.hub.append(event, "camera")
            except JournalError as exc:
                log.warning("refused a camera event %s: %s", event, exc)
                raise

        pipeline.on_events(sink)
        if hasattr(pipeline, "on_flags"):  # take-backs, misreads: pushed to the pages at once
            pipeline.on_flags(self.hub.set_live_flags)

        def on_status(status: SourceStatus, fps: float) -> None:
            self.hub.set_camera({"state": status.state, "message": status.message,
                                 "retry_in": getattr(status, "retry_in", None), "fps": round(fps, 1)})

        on_frame = self.broadcaster.publish
        if hasattr(pipeline, "to_confirm"):  # tiles the rules doubt: on the operator page at once
            def on_frame(frame) -> None:
                self.broadcaster.publish(frame)
                self.hub.set_to_confirm(pipeline.to_confirm())

        self.runner = PipelineRunner(pipeline, on_frame, on_status, config["STALL_AFTER_S"])
        self.runner.start()

    def calibration(self) -> dict[str, Any] | None:
        cal = getattr(self.pipeline, "calibration", None)
        return cal.to_dict() if cal is not None and hasattr(cal, "to_dict") else None

    def set_calibration(self, body: dict[str, Any], save: bool = True) -> dict[str, Any]:
        """The operator's override (four corners, edge -> player). Raises ValueError saying why."""
        if not hasattr(self.pipeline, "set_calibration"):
            raise ValueError(_("No live camera to calibrate: start dominocam serve with --source 0, a video file or the demo."))
        try:
            corners = [(float(x), float(y)) for x, y in body["corners"]]
            size = tuple(int(v) for v in body["size"]) if body.get("size") else None
            seats = {str(k): str(v) for k, v in dict(body.get("seats") or {}).items() if v}
        except (KeyError, TypeError, ValueError):
            raise ValueError(_("Click the table's four corners on the picture, then choose who sits at each edge.")) from None
        cal = operator_calibration(corners, seats, size)
        self.pipeline.set_calibration(cal)
        if save:
            self.store.set_setting("calibration", cal.to_dict())
        return cal.to_dict()

    def camera_health(self) -> dict[str, Any]:
        return {
            "camera": self.hub.camera,
            "fps": round(self.runner.fps, 2) if self.runner else 0.0,
            "encoded": self.broadcaster.encoded,
            "viewers": self.broadcaster.viewers,
            "dropped_viewers": self.broadcaster.dropped_viewers,
            "last_event_id": self.store.last_id,
        }

    def stop_streams(self) -> None:
        """End every open SSE and MJPEG response (call before stopping the server)."""
        self.hub.shutdown()
        self.broadcaster.close()

    def close(self) -> None:
        self.stop_streams()
        if self.runner:
            self.runner.stop()
        self.store.close()


def live(app: Flask | None = None) -> Live:
    return (app or current_app).extensions["dominocam"]
