"""From a `--source` string to a live pipeline: the demo's rendered deals, or a camera, a video
file, rtsp://, a folder of frames read by the detector. Above both `pipeline` and `demo`, so
neither imports the other's caller."""

from __future__ import annotations

from vision.live.calibration import TableCalibration
from vision.live.demo import demo_pipeline
from vision.live.pipeline import LiveConfig, LivePipeline
from vision.live.readers import ModelReader
from vision.live.sources import open_source


def open_pipeline(
    source: str,
    *,
    variant: str = "bykovo",
    players: list[str] | None = None,
    calibration: TableCalibration | None = None,
    config: LiveConfig | None = None,
    model: str | None = None,
) -> LivePipeline:
    """A pipeline for a `--source` string: `demo`, `0`, `/dev/videoN`, a file, rtsp://, a folder.

    Raises `vision.live.sources.SourceError` or `vision.live.readers.ReaderUnavailable` with what to
    do when the source or the reader cannot be set up.
    """
    players = list(players or ["North", "East", "South", "West"])
    if source == "demo":
        return demo_pipeline(config=config, model=model)
    open_source(source)  # fail now, with a clear message, on a bad spec
    reader = ModelReader(model)
    return LivePipeline(lambda: open_source(source), reader, players, variant=variant,
                        calibration=calibration, config=config)
