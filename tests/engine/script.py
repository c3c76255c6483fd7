"""A tiny script language for scripted games: one move per line, e.g.

    Anna 0-0
    Boris 0-2 @0-0          (attach to 0-0)
    Vera 5-5 @0-5 down
    Gleb pass
    Gleb draw 2-3
    Gleb reveal 6-6 2-4
    Anna t=12 pass           (with the event's time in seconds)
"""

from __future__ import annotations

from engine.events import from_dict
from engine.replay import replay_events

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]


def game(variant: str, players=None, options=None, pairs=None) -> dict:
    event = {"event": "game", "variant": variant, "players": list(players or PLAYERS), "options": options or {}}
    if pairs:
        event["pairs"] = pairs
    return event


def deal(hands: dict[str, str] | None = None, boneyard: str | None = None, removed: str | None = None) -> dict:
    event: dict = {"event": "deal"}
    if hands is not None:
        event["hands"] = {p: h.split() for p, h in hands.items()}
    if boneyard is not None:
        event["boneyard"] = boneyard.split()
    if removed is not None:
        event["removed"] = removed.split()
    return event


def moves(text: str) -> list[dict]:
    events = []
    for line in text.strip().splitlines():
        words = line.split()
        if not words:
            continue
        player, rest = words[0], words[1:]
        extra = {}
        if rest and rest[0].startswith("t="):
            extra["time"] = float(rest.pop(0)[2:])
        kind = rest[0]
        if kind == "pass":
            event = {"event": "pass", "player": player}
        elif kind == "draw":
            event = {"event": "draw", "player": player}
            if len(rest) > 1:
                event["tile"] = rest[1]
        elif kind == "reveal":
            event = {"event": "reveal", "player": player, "tiles": rest[1:]}
        else:
            event = {"event": "play", "player": player, "tile": kind}
            for word in rest[1:]:
                if word.startswith("@"):
                    event["to"] = word[1:]
                elif word in ("up", "down"):
                    event["face"] = word
                else:
                    raise ValueError(f"bad script word {word!r} in {line!r}")
        event.update(extra)
        events.append(event)
    return events


def run(*parts) -> dict:
    """Replay a game made of event dicts and lists of events."""
    events = []
    for part in parts:
        events.extend(part if isinstance(part, list) else [part])
    for i, event in enumerate(events):  # every scripted record is also a typed-event round trip
        try:
            back = from_dict(event).to_dict()
        except ValueError:
            continue  # a test of a refused record: replay_events says why
        assert back == event and list(back) == list(event), f"line {i}: {event} came back as {back}"
    return replay_events(events)


def rules_of(result: dict) -> list[str]:
    return [f["rule"] for f in result["flags"]]
