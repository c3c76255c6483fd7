"""Sequences of moves to lay out: who played which tile onto which, from random legal play.

`random_deal` is a small value-matching dealer used for still images; it yields the same shape
of data (`Move`) that the engine-driven deals produce, so layouts do not care where moves came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.game import apply, new_game
from engine.rules import VARIANTS, ruleset
from engine.simulate import random_game

SEATS = ("south", "west", "north", "east")  # clockwise as seen from above with south at the bottom
ALL_TILES = [(a, b) for a in range(7) for b in range(a, 7)]


@dataclass
class Move:
    tile: tuple[int, int]
    parent: int | None  # index of the move whose tile this one joins
    joint: int | None  # the value on the touching halves
    seat: str
    face: str = "up"  # "down" for a closed double (nothing attaches to it)


@dataclass
class Deal:
    moves: list[Move]
    hands: dict[str, list[tuple[int, int]]]
    boneyard: list[tuple[int, int]] = field(default_factory=list)
    spinner: bool = False


def random_deal(rng: np.random.Generator, n_players: int = 4, spinner: bool = False,
                closed_doubles: bool = False, max_moves: int | None = None) -> Deal:
    """Deal and play random legal moves (matching values) until a hand is empty or all pass."""
    tiles = [ALL_TILES[i] for i in rng.permutation(28)]
    per_hand = 7 if n_players >= 3 else int(rng.choice([5, 7]))
    seats = list(SEATS[:n_players]) if n_players == 4 else [SEATS[i] for i in ([0, 2] if n_players == 2 else [0, 1, 2])]
    hands = {s: tiles[i * per_hand:(i + 1) * per_hand] for i, s in enumerate(seats)}
    boneyard = tiles[len(seats) * per_hand:]
    # opener: the holder of the highest double, else of the highest tile
    def rank(t):
        return (t[0] == t[1], t[0] + t[1])
    opener = max(seats, key=lambda s: max(rank(t) for t in hands[s]))
    first = max(hands[opener], key=rank)
    hands[opener].remove(first)
    moves = [Move(first, None, None, opener)]
    # open ends: (move index, value, slots left)
    ends: list[list] = []
    if first[0] == first[1]:
        ends = [[0, first[0], 4 if spinner else 2]]
    else:
        ends = [[0, first[0], 1], [0, first[1], 1]]
    turn = seats.index(opener)
    passes = 0
    limit = max_moves if max_moves is not None else 10**9
    while len(moves) < limit and passes < len(seats):
        turn = (turn + 1) % len(seats)
        seat = seats[turn]
        options = [(t, e) for t in hands[seat] for e in ends if e[2] > 0 and e[1] in t]
        if not options:
            if boneyard and rng.random() < 0.8:
                hands[seat].append(boneyard.pop())
                turn -= 1
                continue
            passes += 1
            continue
        passes = 0
        tile, end = options[int(rng.integers(len(options)))]
        hands[seat].remove(tile)
        end[2] -= 1
        idx = len(moves)
        double = tile[0] == tile[1]
        face = "down" if double and closed_doubles and rng.random() < 0.3 else "up"
        moves.append(Move(tile, end[0], end[1], seat, face))
        if face == "up":
            other = tile[1] if tile[0] == end[1] else tile[0]
            ends.append([idx, other, 1])
        if not hands[seat]:
            break
    return Deal(moves, hands, boneyard, spinner)


def seat_names(n_players: int) -> list[str]:
    """Table sides for players in clockwise order (two players face each other)."""
    return {2: ["south", "north"], 3: ["south", "west", "north"]}.get(n_players, list(SEATS[:n_players]))


def engine_deal(rng: np.random.Generator, variant: str | None = None, stop_early: bool = True) -> Deal:
    """A deal played by the rules engine (`engine.simulate.random_game`), cut at a random move when
    `stop_early`."""
    variant = variant or str(rng.choice(list(VARIANTS)))
    allowed = list(ruleset(variant).players)
    players = int(rng.choice([p for p in allowed if p <= 4] or allowed[:1]))
    events = random_game(variant, seed=int(rng.integers(2**31)), players=players, deals=1)
    return deal_from_events(events, apply, new_game, rng, stop_early)


def deal_from_events(events: list[dict], apply, new_game, rng: np.random.Generator | None = None,
                     stop_early: bool = False, upto: int | None = None) -> Deal:
    """Replay a record's first deal and read off the layout, hands and boneyard (at play `upto`)."""
    state = new_game(events[0])
    n_plays = sum(1 for e in events if e["event"] == "play")
    if upto is None and stop_early and rng is not None and rng.random() < 0.5:
        upto = int(rng.integers(1, max(2, n_plays + 1)))
    plays = 0
    for e in events[1:]:
        if e["event"] == "reveal" or (upto is not None and e["event"] == "play" and plays >= upto):
            break
        if e["event"] == "play":
            plays += 1
        state, _ = apply(state, e)
    names = seat_names(len(state.players))
    seat_of = {p: names[i] for i, p in enumerate(state.players)}
    placed = state.deal.layout.placed
    index = {p.tile: i for i, p in enumerate(placed)}
    moves = [Move((p.tile.a, p.tile.b), index.get(p.parent) if p.parent is not None else None, p.joint,
                  seat_of.get(p.seat, "south"), p.face) for p in placed]
    hands = {names[i]: [(t.a, t.b) for t in (h or ())] for i, h in enumerate(state.deal.hands)}
    boneyard = [(t.a, t.b) for t in sorted(state.deal.boneyard or (), key=lambda t: (t.a, t.b))]
    return Deal(moves, hands, boneyard, spinner=True)
