"""Where an event lives on the broker: the `mqtt://HOST[:PORT]/EVENT` address and the topic names.

Per table N of event EVENT (all under `dominocam/EVENT/table/N/`):

  events   every journal entry, QoS 1, not retained (payload: `EntryMessage`)
  state    retained: players, scores, last moves, open ends, a small JPEG thumbnail
  status   retained: {"online": true|false}; the table's last will sets it offline
  ack      retained, written by the hub: the last journal id it has stored for that table
  seat     retained, written by the hub: the players the event seats at that table next
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

DEFAULT_PORT = 1883
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
KINDS = ("events", "state", "status", "ack", "seat")


class EventAddressError(ValueError):
    """A broker or event address that cannot be used; the message says how to write it."""


@dataclass(frozen=True)
class Broker:
    host: str
    port: int = DEFAULT_PORT

    @classmethod
    def parse(cls, text: str) -> Broker:
        """`mqtt://HOST[:PORT]` (a path, if any, is ignored here). Raises EventAddressError."""
        parts = urlsplit(text)
        if parts.scheme != "mqtt" or not parts.hostname:
            raise EventAddressError(f"{text!r}: write the broker as mqtt://HOST[:PORT], e.g. mqtt://192.168.1.10")
        if parts.username or parts.password:
            raise EventAddressError(
                f"{text!r}: keep credentials out of the address; use --event-user and a password file")
        try:
            port = parts.port or DEFAULT_PORT
        except ValueError:
            raise EventAddressError(f"{text!r}: the port must be a number from 1 to 65535") from None
        return cls(parts.hostname, port)

    def __str__(self) -> str:
        return f"mqtt://{self.host}:{self.port}"


def check_event_name(name: str) -> str:
    if not NAME.match(name or ""):
        raise EventAddressError(
            f"event name {name!r}: use letters, digits, '.', '_' or '-' (at most 64), e.g. baltic-2026")
    return name


@dataclass(frozen=True)
class EventAddress:
    """`mqtt://HOST[:PORT]/EVENT`: the broker and the event's name."""

    broker: Broker
    event: str

    @classmethod
    def parse(cls, text: str) -> EventAddress:
        broker = Broker.parse(text)
        event = urlsplit(text).path.strip("/")
        if not event:
            raise EventAddressError(f"{text!r}: name the event after the broker, e.g. mqtt://HOST/club-cup")
        return cls(broker, check_event_name(event))

    def __str__(self) -> str:
        return f"{self.broker}/{self.event}"


def table_topic(event: str, table: int, kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown topic kind {kind!r}; one of {', '.join(KINDS)}")
    return f"dominocam/{event}/table/{table}/{kind}"


def all_tables(event: str, kind: str) -> str:
    """The subscription for one kind of topic of every table (`+` is MQTT's one-level wildcard)."""
    return f"dominocam/{event}/table/+/{kind}"


def parse_topic(event: str, topic: str) -> tuple[int, str] | None:
    """(table, kind) of one of this event's table topics, else None."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[:3] != ["dominocam", event, "table"] or parts[4] not in KINDS:
        return None
    try:
        table = int(parts[3])
    except ValueError:
        return None
    return (table, parts[4]) if table >= 1 else None


@dataclass(frozen=True)
class EntryMessage:
    """One journal entry on the wire. `body` is the table's stored JSON text, byte for byte."""

    table: int
    id: int
    ts: float
    source: str
    body: str

    def encode(self) -> bytes:
        return json.dumps({"table": self.table, "id": self.id, "ts": self.ts, "source": self.source,
                           "body": self.body}, ensure_ascii=False, separators=(",", ":")).encode()

    @classmethod
    def decode(cls, payload: bytes) -> EntryMessage:
        """Raises ValueError for a payload that is not an entry message."""
        obj = _json_object(payload)
        try:
            msg = cls(int(obj["table"]), int(obj["id"]), float(obj["ts"]), str(obj["source"]), obj["body"])
        except (KeyError, TypeError, ValueError):
            raise ValueError("an entry message has table, id, ts, source and body") from None
        if not isinstance(msg.body, str) or msg.id < 1:
            raise ValueError("an entry message's body is the journal's JSON text and its id >= 1")
        json.loads(msg.body)  # a body that is not JSON raises here
        return msg


def _json_object(payload: bytes) -> dict[str, Any]:
    try:
        obj = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError("not a JSON payload") from None
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    return obj


def encode_json(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


def decode_json(payload: bytes) -> dict[str, Any]:
    """The JSON object of a state / status / ack / seat payload; an empty payload is {}.
    Raises ValueError otherwise."""
    return {} if not payload else _json_object(payload)
