"""Typed events: every record dict comes back exactly (keys, order, spelling, nulls) from its
typed event; bad dicts are refused with the record's messages."""

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RecordError
from engine.events import (
    DealEvent,
    DrawEvent,
    GameEvent,
    PassEvent,
    PlayEvent,
    RevealEvent,
    from_dict,
)
from engine.record import dumps_event, read_events, read_record
from engine.rules import VARIANTS, ruleset
from engine.simulate import random_game
from engine.tiles import ALL_TILES, Tile

ROOT = Path(__file__).resolve().parents[2]
NAMES = st.sampled_from(["Anna", "Boris", "Vera", "Gleb", "Ёж"])
# A tile as a record may write it: either way round ("3-5" or "5-3").
SPELLED = st.sampled_from(ALL_TILES).flatmap(
    lambda t: st.sampled_from([f"{t.a}-{t.b}", f"{t.b}-{t.a}"]))
TILE_LISTS = st.lists(SPELLED, max_size=7)
EXTRAS = st.fixed_dictionaries({}, optional={
    "time": st.one_of(st.integers(0, 10**6), st.floats(0, 1e6, allow_nan=False)),
    "frame": st.integers(0, 10**5), "note": st.text(max_size=10), "source": st.sampled_from(["camera", "operator"]),
    "confidence": st.floats(0, 1, allow_nan=False),
})


def _event(kind, required, optional):
    return st.tuples(st.fixed_dictionaries(required, optional=optional), EXTRAS).map(
        lambda parts: {"event": kind, **parts[0], **parts[1]})


GAMES = _event("game", {"variant": st.sampled_from(VARIANTS), "players": st.lists(NAMES, min_size=2, max_size=4, unique=True)},
               {"options": st.just({}) | st.just({"target": 101}), "pairs": st.none() | st.just([["Anna", "Vera"], ["Boris", "Gleb"]])})
DEALS = _event("deal", {}, {"hands": st.none() | st.dictionaries(NAMES, TILE_LISTS, max_size=4),
                            "boneyard": st.none() | TILE_LISTS, "removed": st.none() | TILE_LISTS})
PLAYS = _event("play", {"player": NAMES, "tile": SPELLED},
               {"to": st.none() | SPELLED, "face": st.sampled_from(["up", "down"])})
PASSES = _event("pass", {"player": NAMES}, {})
DRAWS = _event("draw", {"player": NAMES}, {"tile": st.none() | SPELLED})
REVEALS = _event("reveal", {"player": NAMES, "tiles": TILE_LISTS}, {})
EVENTS = st.one_of(GAMES, DEALS, PLAYS, PASSES, DRAWS, REVEALS)


@st.composite
def shuffled(draw, events=EVENTS):
    """An event with its keys in any order (a record written by another program)."""
    event = draw(events)
    keys = draw(st.permutations(list(event)))
    return {k: event[k] for k in keys}


def assert_round_trip(d):
    event = from_dict(d)
    back = event.to_dict()
    assert back == d
    assert list(back) == list(d)
    assert dumps_event(back) == dumps_event(d)
    return event


@settings(max_examples=300, deadline=None)
@given(shuffled())
def test_every_kind_round_trips_exactly(d):
    event = assert_round_trip(d)
    assert event.kind == d["event"]


@settings(max_examples=100, deadline=None)
@given(EVENTS)
def test_a_typed_event_equals_the_one_built_from_its_canonical_dict(d):
    event = from_dict(d)
    built = from_dict(event.to_dict())
    assert built == event
    fresh = type(event)(**{f.name: getattr(event, f.name) for f in dataclasses.fields(event) if f.name != "written"})
    assert fresh == event  # built by hand: no `written`, same value
    assert from_dict(fresh.to_dict()) == event


def test_tiles_are_tiles_and_spelling_is_kept():
    event = from_dict({"event": "play", "player": "Anna", "tile": "5-3", "to": "0-0"})
    assert event == PlayEvent(player="Anna", tile=Tile(3, 5), to=Tile(0, 0))
    assert event.tile_text == "5-3" and str(event.tile) == "3-5"
    assert PlayEvent(player="Anna", tile=Tile(3, 5)).to_dict() == {"event": "play", "player": "Anna", "tile": "3-5"}
    deal = from_dict({"event": "deal", "hands": {"Anna": ["6-1", "0-0"]}, "boneyard": None})
    assert deal.hands == (("Anna", (Tile(1, 6), Tile(0, 0))),)
    assert deal.to_dict() == {"event": "deal", "hands": {"Anna": ["6-1", "0-0"]}, "boneyard": None}


def test_a_changed_field_is_written_canonically_and_a_removed_one_is_gone():
    event = from_dict({"to": "0-5", "tile": "5-3", "player": "Anna", "event": "play"})
    moved = dataclasses.replace(event, tile=Tile(2, 5), to=None)
    assert moved.to_dict() == {"tile": "2-5", "player": "Anna", "event": "play"}
    assert list(moved.to_dict()) == ["tile", "player", "event"]
    turned = dataclasses.replace(event, face="down")
    assert list(turned.to_dict()) == ["to", "tile", "player", "event", "face"]


def test_kinds_and_hand_built_events():
    assert GameEvent(variant="bykovo", players=("A", "B")).to_dict() == {"event": "game", "variant": "bykovo", "players": ["A", "B"]}
    assert DealEvent().to_dict() == {"event": "deal"}
    assert PassEvent(player="A", time=3).to_dict() == {"event": "pass", "player": "A", "time": 3}
    assert DrawEvent(player="A").to_dict() == {"event": "draw", "player": "A"}
    assert RevealEvent(player="A", tiles=()).to_dict() == {"event": "reveal", "player": "A", "tiles": []}
    assert hash(PlayEvent(player="A", tile=Tile(0, 0))) == hash(from_dict({"event": "play", "player": "A", "tile": "0-0"}))


@pytest.mark.parametrize(("d", "message"), [
    ([], "an event is a JSON object, got list"),
    ({"event": "undo"}, "unknown event 'undo'"),
    ({"event": "play", "player": "A"}, "play event lacks tile"),
    ({"event": "pass", "player": "A", "tile": "0-0"}, "pass event has unknown key(s) tile"),
    ({"event": "play", "player": "A", "tile": "7-2"}, "unknown tile '7-2'"),
    ({"event": "play", "player": "A", "tile": 5}, "unknown tile 5"),
    ({"event": "play", "player": "", "tile": "0-0"}, "player must be a name"),
    ({"event": "play", "player": "A", "tile": "0-0", "face": "left"}, "face must be 'up' or 'down'"),
    ({"event": "pass", "player": "A", "time": True}, "time must be seconds"),
    ({"event": "deal", "hands": ["0-0"]}, "hands must map each player"),
    ({"event": "deal", "boneyard": "0-0"}, "boneyard must be a list of tiles"),
    ({"event": "reveal", "player": "A", "tiles": ["0-0", "9-9"]}, "unknown tile '9-9'"),
    ({"event": "game", "variant": "bykovo", "players": ["A", "A"]}, "players must be distinct"),
    ({"event": "game", "variant": "bykovo", "players": ["A", "B"], "options": None}, "options must be an object"),
    ({"event": "game", "variant": "bykovo", "players": ["A", "B"], "pairs": [["A"]]}, "pairs must be two lists"),
])
def test_bad_dicts_are_refused_with_the_records_message(d, message):
    with pytest.raises(RecordError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
        from_dict(d, 4)
    assert err.value.lineno == 4


def _records():
    yield "sample", read_record(ROOT / "dominocam" / "data" / "sample-bykovo.jsonl")
    for variant in VARIANTS:
        lo, hi = ruleset(variant).players
        for n in range(lo, hi + 1):
            for camera in (False, True):
                yield f"{variant}-{n}-{camera}", random_game(variant, seed=n, players=n, deals=2, camera=camera)


@pytest.mark.parametrize(("name", "record"), list(_records()), ids=lambda x: x if isinstance(x, str) else "")
def test_every_record_round_trips(name, record):
    for d in record:
        assert_round_trip(d)


def test_read_events_types_the_file_read_record_reads(tmp_path):
    path = ROOT / "dominocam" / "data" / "sample-bykovo.jsonl"
    events = read_events(path)
    assert [e.to_dict() for e in events] == read_record(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [dumps_event(e.to_dict()) for e in events] == lines  # byte for byte
