"""A deal played at the table (engine replay) feeds the micro-tournament (BYK-1.12, BYK-2.5)."""

from __future__ import annotations

import pytest

from engine.replay import replay_events
from engine.tournament import TournamentError, bykovo
from engine.tournament.live import bykovo_result

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]
HANDS = {
    "Anna": ["0-0", "0-1", "1-1", "1-2", "2-2", "2-3", "3-3"],
    "Boris": ["0-2", "0-3", "0-4", "0-5", "0-6", "1-3", "1-4"],
    "Vera": ["1-5", "1-6", "2-4", "2-5", "2-6", "3-4", "3-5"],
    "Gleb": ["3-6", "4-4", "4-5", "4-6", "5-5", "5-6", "6-6"],
}
CHAIN = [("0-0", None), ("0-1", "0-0"), ("1-1", "0-1"), ("1-2", "1-1"), ("2-2", "1-2"), ("2-3", "2-2"), ("3-3", "2-3")]


def anna_goes_out(finish: bool = True) -> list[dict]:
    events = [{"event": "game", "variant": "bykovo", "players": PLAYERS, "options": {}},
              {"event": "deal", "hands": HANDS}]
    for i, (tile, to) in enumerate(CHAIN if finish else CHAIN[:3]):
        events.append({"event": "play", "player": "Anna", "tile": tile, **({"to": to} if to else {})})
        if i < len(CHAIN) - 1:
            events += [{"event": "pass", "player": p} for p in PLAYERS[1:]]
    if finish:  # BYK-1.9: the circle is played out up to the seat before the opener
        events += [{"event": "pass", "player": p} for p in PLAYERS[1:]]
    return events


def test_a_finished_deal_becomes_the_next_result():
    deal = replay_events(anna_goes_out())["deals"][0]
    line = bykovo_result(deal)
    # Pips left: Boris 29, Vera 49, Gleb 69; Anna went out with nothing.
    assert line == {"event": "result", "points": {"Anna": 0, "Boris": 29, "Vera": 49, "Gleb": 69},
                    "places": {"Anna": 1, "Boris": 2, "Vera": 3, "Gleb": 4}}
    state = bykovo.play(bykovo.start(PLAYERS + ["Dasha"], seed=1, first=PLAYERS), line["points"], line["places"])
    assert state.totals["Gleb"] == 69 and state.next_seated == ("Boris", "Vera", "Gleb", "Dasha")


def test_a_deal_still_in_play_is_refused():
    deal = replay_events(anna_goes_out(finish=False))["deals"][0]
    with pytest.raises(TournamentError, match="still being played"):
        bykovo_result(deal)
