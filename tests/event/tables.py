"""In-process tables and hub for the event tests: the real app, publisher, broker and hub."""

from __future__ import annotations

import threading
from pathlib import Path

from webui.app import create_app
from webui.event.app import create_hub_app
from webui.event.hubstore import HubStore
from webui.event.publisher import PublisherConfig
from webui.event.service import EventHub, HubConfig
from webui.event.table import attach_publisher
from webui.event.topics import Broker, EventAddress
from webui.record_source import RecordPipeline
from webui.server import make_server

FAST = PublisherConfig(resend_s=1.0, ack_grace_s=0.2, state_min_s=0.1, state_every_s=0.5)
HUB_TOKEN = "hub-token"


class Served:
    """A waitress server for an app on a free port, in a thread."""

    def __init__(self, app, on_stop=None):
        self.server = make_server(app, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.server.effective_port}/"
        self._on_stop = on_stop
        self._thread = threading.Thread(target=self.server.run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._on_stop:
            self._on_stop()
        self.server.close()
        self._thread.join(5)


class Table:
    def __init__(self, folder: Path, number: int, url: str, credentials, record: list[dict] | None,
                 event: str = "cup", pace_s: float = 0.02, serve: bool = False):
        self.db = folder / f"table{number}.db"
        fps = min(200.0, max(10.0, 1.0 / pace_s))
        pipeline = RecordPipeline(record, pace_s=pace_s, fps=fps, size=(320, 180)) if record else None
        config = {"DB_PATH": str(self.db), "OPERATOR_TOKEN": "t", "PIPELINE": pipeline}
        if record:
            config["PLAYERS"] = record[0]["players"]
        self.app = create_app(config)
        self.live = self.app.extensions["dominocam"]
        self.served = Served(self.app, self.live.stop_streams) if serve else None
        page = self.served.url if self.served else f"http://127.0.0.1:9/table{number}"
        self.publisher = attach_publisher(self.app, EventAddress.parse(f"{url}/{event}"), number, credentials,
                                          page, FAST)

    def close(self) -> None:
        self.publisher.stop()
        if self.served:
            self.served.stop()
        self.live.close()


def start_hub(folder: Path, url: str, credentials, event: str = "cup") -> EventHub:
    hub = EventHub(HubStore(folder / "hub.db"), Broker.parse(url), event, credentials, HubConfig(rebuild_s=0.05))
    hub.start()
    return hub


def serve_hub(hub: EventHub) -> Served:
    app = create_hub_app({"HUB": hub, "OPERATOR_TOKEN": HUB_TOKEN, "SSE_KEEPALIVE_S": 0.5})
    return Served(app, hub.shutdown)
