"""One paho-mqtt client per process side (a table or the hub), with the house rules built in:

- it never blocks its owner: connecting and reconnecting run on paho's network thread
  (`connect_async` + `loop_start`), with back-off from 1 s to `max_delay_s`;
- each kind of failure (unreachable broker, wrong password) is logged as one clear line, once,
  until the connection comes back;
- `on_connected` runs after every (re)connect, for subscriptions and re-publishing what is owed.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

import paho.mqtt.client as mqtt

from webui.event.credentials import Credentials
from webui.event.topics import Broker

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Will:
    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = True


def _refusal(reason: object) -> str:
    text = str(reason)
    low = text.lower()
    if "not authorized" in low or "bad user name or password" in low or "password" in low:
        return ("the broker refused the user name or password; check --event-user and the password "
                "file (or DOMINOCAM_EVENT_PASSWORD)")
    return f"the broker refused the connection ({text})"


class Connection:
    def __init__(self, broker: Broker, credentials: Credentials, client_id: str, *, who: str,
                 will: Will | None = None, clean: bool = True, keepalive: int = 10,
                 max_delay_s: int = 5):
        self.broker = broker
        self.who = who
        self._client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                                   clean_session=clean, protocol=mqtt.MQTTv311)
        if credentials.user:
            self._client.username_pw_set(credentials.user, credentials.password)
        if will is not None:
            self._client.will_set(will.topic, will.payload, qos=will.qos, retain=will.retain)
        self._client.reconnect_delay_set(min_delay=1, max_delay=max_delay_s)
        self._client.max_inflight_messages_set(100)
        self._client.max_queued_messages_set(0)
        self._client.on_connect = self._on_connect
        self._client.on_connect_fail = self._on_connect_fail
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._keepalive = keepalive
        self._connected = threading.Event()
        self._problem: str | None = None
        self._stopping = False
        self.on_connected: Callable[[], None] | None = None
        self.on_message: Callable[[str, bytes], None] | None = None
        self.connects = 0  # successful connections, for tests and the health page

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    @property
    def problem(self) -> str | None:
        """The last failure, in words, while not connected (None when connected)."""
        return None if self.connected else self._problem

    def start(self) -> None:
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=self._keepalive)
        self._client.loop_start()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def subscribe(self, topic: str, qos: int = 1) -> None:
        self._client.subscribe(topic, qos=qos)

    def publish(self, topic: str, payload: bytes, *, qos: int = 1, retain: bool = False):
        """Hand a message to paho (queued while disconnected, up to its in-flight window).
        Returns paho's MQTTMessageInfo."""
        return self._client.publish(topic, payload, qos=qos, retain=retain)

    def stop(self, last: tuple[str, bytes] | None = None) -> None:
        """Publish `last` (topic, payload, retained) if connected, then disconnect cleanly."""
        if last is not None and self.connected:
            info = self._client.publish(last[0], last[1], qos=1, retain=True)
            with contextlib.suppress(RuntimeError, ValueError):  # not sent in time: the will says it
                info.wait_for_publish(2.0)
        self._stopping = True
        self._client.disconnect()
        self._client.loop_stop()

    # -- paho callbacks (on paho's network thread)
    def _say_once(self, problem: str) -> None:
        if problem != self._problem:
            self._problem = problem
            log.error("%s: %s", self.who, problem)

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self._say_once(_refusal(reason_code))
            return
        self.connects += 1
        if self._problem:
            log.info("%s: connected to %s again", self.who, self.broker)
        else:
            log.info("%s: connected to %s", self.who, self.broker)
        self._problem = None
        self._connected.set()
        if self.on_connected:
            try:
                self.on_connected()
            except Exception:
                log.exception("%s: the on-connect step failed", self.who)

    def _on_connect_fail(self, client, userdata) -> None:
        self._say_once(f"cannot reach the broker at {self.broker} (retrying in the background; "
                       "check the address and that the broker runs)")

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        was = self._connected.is_set()
        self._connected.clear()
        if was and not self._stopping:
            log.warning("%s: lost the broker at %s (%s); reconnecting", self.who, self.broker, reason_code)
        elif reason_code.is_failure and "authoriz" in str(reason_code).lower():
            self._say_once(_refusal(reason_code))

    def _on_message(self, client, userdata, message) -> None:
        if self.on_message:
            try:
                self.on_message(message.topic, message.payload)
            except Exception:
                log.exception("%s: handling a message on %s failed", self.who, message.topic)
