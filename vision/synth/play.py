"""Sequences of moves to lay out: who played which tile onto which, from random legal play.

`random_deal` is a small value-matching dealer used for still images; it yields the same shape
of data (`Move`) that the engine-driven deals produce, so layouts do not care where moves came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

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
