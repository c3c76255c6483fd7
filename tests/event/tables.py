"""In-process tables and hub for the event tests: the real app, publisher, broker and hub."""

from __future__ import annotations

from pathlib import Path

from webui.app import create_app
from webui.event.hubstore import HubStore
from webui.event.publisher import PublisherConfig
from webui.event.service import EventHub, HubConfig
from webui.event.table import attach_publisher
from webui.event.topics import Broker, EventAddress
from webui.record_source import RecordPipeline

FAST = PublisherConfig(resend_s=1.0, ack_grace_s=0.2, state_min_s=0.1, state_every_s=0.5)


class Table:
    def __init__(self, folder: Path, number: int, url: str, credentials, record: list[dict] | None,
                 event: str = "cup", pace_s: float = 0.02):
        self.db = folder / f"table{number}.db"
        pipeline = RecordPipeline(record, pace_s=pace_s, fps=10, size=(320, 180)) if record else None
        config = {"DB_PATH": str(self.db), "OPERATOR_TOKEN": "t", "PIPELINE": pipeline}
        if record:
            config["PLAYERS"] = record[0]["players"]
        self.app = create_app(config)
        self.live = self.app.extensions["dominocam"]
        self.publisher = attach_publisher(self.app, EventAddress.parse(f"{url}/{event}"), number, credentials,
                                          f"http://127.0.0.1:9/table{number}", FAST)

    def close(self) -> None:
        self.publisher.stop()
        self.live.close()


def start_hub(folder: Path, url: str, credentials, event: str = "cup") -> EventHub:
    hub = EventHub(HubStore(folder / "hub.db"), Broker.parse(url), event, credentials, HubConfig(rebuild_s=0.05))
    hub.start()
    return hub
