"""The live evaluation's pass check (lab/live/evaluate.py, issue 24: inferred passes equal the true
ones where the table shows them), on a hand-made blind-domino deal (BLB-2: passes leave no trace)."""

from __future__ import annotations

from lab.live.evaluate import passes_right

HANDS = {"Anna": ["0-6", "4-6", "5-5", "1-1", "1-2", "0-2", "2-3"],
         "Boris": ["1-5", "0-0", "3-4", "2-6", "1-3", "2-4", "2-2"],
         "Vera": ["4-4", "6-6", "1-6", "0-3", "3-6", "4-5", "5-6"],
         "Gleb": ["2-5", "3-5", "3-3", "1-4", "0-4", "0-5", "0-1"]}
TRUE = [
    {"event": "game", "variant": "blitz-blind", "players": ["Anna", "Boris", "Vera", "Gleb"], "options": {}},
    {"event": "deal", "hands": HANDS, "boneyard": []},
    {"event": "play", "player": "Boris", "tile": "0-0"},
    {"event": "pass", "player": "Vera"},
    {"event": "play", "player": "Gleb", "tile": "0-1", "to": "0-0"},
    {"event": "play", "player": "Anna", "tile": "1-1", "to": "0-1"},
    {"event": "pass", "player": "Boris"},
    {"event": "play", "player": "Vera", "tile": "0-3", "to": "0-0"},
]
PLAYS = [e for e in TRUE[2:] if e["event"] == "play"]


def test_the_plays_alone_show_the_passes_of_the_skipped_players():
    ok, why = passes_right(TRUE, PLAYS)
    assert ok, why


def test_an_invented_pass_or_a_play_given_to_the_wrong_seat_is_wrong():
    invented = [PLAYS[0], {"event": "pass", "player": "Vera"}, {"event": "pass", "player": "Gleb"}, *PLAYS[1:]]
    assert not passes_right(TRUE, invented)[0]
    wrong_seat = [PLAYS[0], dict(PLAYS[1], player="Vera"), *PLAYS[2:]]
    ok, why = passes_right(TRUE, wrong_seat)
    assert not ok and "at least" in why
