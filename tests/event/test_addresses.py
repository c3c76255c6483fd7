"""The event's address, topics, wire format and credentials (webui/event/topics.py, credentials.py)."""

from __future__ import annotations

import json

import pytest

from webui.event.credentials import PASSWORD_ENV, CredentialsError, load_credentials
from webui.event.topics import (
    Broker,
    EntryMessage,
    EventAddress,
    EventAddressError,
    all_tables,
    parse_topic,
    table_topic,
)


def test_an_event_address_names_broker_port_and_event():
    a = EventAddress.parse("mqtt://192.168.1.10:1884/club-cup")
    assert (a.broker.host, a.broker.port, a.event) == ("192.168.1.10", 1884, "club-cup")
    assert EventAddress.parse("mqtt://hub.local/cup").broker.port == 1883
    assert str(a) == "mqtt://192.168.1.10:1884/club-cup"


@pytest.mark.parametrize("text, says", [
    ("http://host/cup", "mqtt://HOST[:PORT]"),
    ("mqtt://host", "name the event"),
    ("mqtt://user:pw@host/cup", "--event-user"),
    ("mqtt://host:99999/cup", "port"),
    ("mqtt://host/two/levels", "event name"),
])
def test_a_bad_address_says_how_to_write_it(text, says):
    with pytest.raises(EventAddressError, match=says.replace("[", r"\[").replace("]", r"\]")):
        EventAddress.parse(text)


def test_a_broker_address_alone_is_accepted_for_the_hub():
    assert Broker.parse("mqtt://127.0.0.1:1999") == Broker("127.0.0.1", 1999)


def test_topics_round_trip_and_foreign_topics_are_ignored():
    assert table_topic("cup", 3, "events") == "dominocam/cup/table/3/events"
    assert parse_topic("cup", "dominocam/cup/table/3/ack") == (3, "ack")
    assert all_tables("cup", "state") == "dominocam/cup/table/+/state"
    for foreign in ("dominocam/other/table/3/ack", "dominocam/cup/table/x/ack", "dominocam/cup/table/0/ack",
                    "dominocam/cup/table/3/nope", "home/kitchen"):
        assert parse_topic("cup", foreign) is None


def test_an_entry_message_carries_the_stored_text_byte_for_byte():
    body = json.dumps({"event": "play", "player": "Анна", "tile": "1-1"}, ensure_ascii=False, separators=(",", ":"))
    msg = EntryMessage(2, 17, 1764500000.123456789, "camera", body)
    back = EntryMessage.decode(msg.encode())
    assert back == msg and back.body == body and back.ts == msg.ts
    for bad in (b"", b"[]", b'{"table": 1}', b'{"table":1,"id":0,"ts":1,"source":"x","body":"{}"}',
                b'{"table":1,"id":1,"ts":1,"source":"x","body":"not json"}'):
        with pytest.raises(ValueError):
            EntryMessage.decode(bad)


def test_the_password_comes_from_a_file_or_the_environment_never_from_argv(tmp_path):
    f = tmp_path / "pw"
    f.write_text("from-file\nignored\n")
    assert load_credentials("club", str(f), {}).password == "from-file"
    assert load_credentials("club", None, {PASSWORD_ENV: "from-env"}).password == "from-env"
    assert load_credentials(None, None, {}).user is None
    assert "from-file" not in repr(load_credentials("club", str(f), {}))
    with pytest.raises(CredentialsError, match="--event-user"):
        load_credentials(None, str(f), {})
    with pytest.raises(CredentialsError, match="first line"):
        (tmp_path / "empty").write_text("")
        load_credentials("club", str(tmp_path / "empty"), {})
    with pytest.raises(CredentialsError, match="cannot read"):
        load_credentials("club", str(tmp_path / "missing"), {})
