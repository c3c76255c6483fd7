"""Random legal games, for tests, benchmarks, the sample record and rendered videos.

`random_game("baltic", seed=1)` returns the events of a whole game played by players who pick
uniformly among their legal plays (`engine.game.legal_plays` is the source of truth).
"""

from __future__ import annotations

import random

from engine.game import apply, legal_plays, may_draw, new_game
from engine.rules import ruleset
from engine.state import GameState
from engine.tiles import ALL_TILES

NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zhenya", "Ilya")


def deal_event(state: GameState, rng: random.Random) -> dict:
    """A shuffled deal with every hand and the boneyard named; redealt while BYK-1.3/BAL-3 say so."""
    from engine.game import _redeal_reason  # the same rule the engine applies

    n = len(state.players)
    size = state.rules.hand_for(n)
    while True:
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        hands = {p: tiles[i * size:(i + 1) * size] for i, p in enumerate(state.players)}
        if not _redeal_reason(state.rules, list(hands.items())):
            break
    rest = tiles[n * size:]
    event = {"event": "deal", "hands": {p: [str(t) for t in h] for p, h in hands.items()},
             "boneyard": [str(t) for t in rest]}
    if state.rules.boneyard and rest and state.rules.removed:
        event["removed"] = [str(t) for t in rest[: state.rules.removed]]
        event["boneyard"] = [str(t) for t in rest[state.rules.removed:]]
    return event


def play_deal(state: GameState, rng: random.Random, events: list[dict], *, max_events: int = 2000,
              greedy: bool = False) -> GameState:
    """Play the current deal to its end with random legal moves (with `greedy`, the heaviest tile
    first, as people shed pips), then reveal every hand."""

    def choose(plays):
        if greedy:
            top = max(p.tile.pips for p in plays)
            plays = [p for p in plays if p.tile.pips == top]
        return rng.choice(plays)

    def step(event: dict) -> None:
        nonlocal state
        state, flags = apply(state, event, strict=True)
        events.append(event)

    rules = state.rules
    for _ in range(max_events):
        d = state.deal
        if d.end is not None:
            break
        seat = d.to_move
        if seat is None:  # anyone may open (DRK-1 lot, ties for the lowest tile)
            seats = [i for i in range(len(state.players)) if legal_plays(state, state.players[i])]
            seat = rng.choice(seats)
        player = state.players[seat]
        plays = legal_plays(state, player)
        if plays:
            step(choose(plays).to_event(player))
            # BLZ-3, BAL-13, DRK-3, BLB-3: sometimes lay more tiles in the same turn
            while rules.multi != "one" and state.deal.end is None and rng.random() < 0.5:
                more = legal_plays(state, player)
                if not more:
                    break
                step(choose(more).to_event(player))
            continue
        if may_draw(state, player) and rules.draw == "until_fits":
            step({"event": "draw", "player": player, "tile": _draw_tile(state, rng)})
            continue
        step({"event": "pass", "player": player})
        if may_draw(state, player):
            step({"event": "draw", "player": player, "tile": _draw_tile(state, rng)})
    for i, player in enumerate(state.players):
        hand = state.deal.hands[i]
        step({"event": "reveal", "player": player, "tiles": [str(t) for t in hand]})
    return state


def _draw_tile(state: GameState, rng: random.Random) -> str:
    return str(rng.choice(sorted(state.deal.boneyard)))


def random_game(variant: str, seed: int = 0, *, players: int | None = None, deals: int | None = None,
                options: dict | None = None, camera: bool = False, greedy: bool = False) -> list[dict]:
    """Events of a random legal game: `deals` deals, or until the game ends (at most 30 deals).
    With `camera`, deal events carry no hands (reveals still do)."""
    rng = random.Random(seed)
    rules = ruleset(variant, **(options or {}))
    n = players or rules.players[0]
    game = {"event": "game", "variant": variant, "players": list(NAMES[:n]), "options": options or {}}
    events = [game]
    state = new_game(game)
    for number in range(deals or 30):
        if number and _over(state, events):
            break
        deal = deal_event(state, rng)
        state, _ = apply(state, deal, strict=True)
        events.append(deal)
        state = play_deal(state, rng, events, greedy=greedy)
    if camera:
        events = [({"event": "deal"} if e["event"] == "deal" else e) for e in events]
    return events


def _over(state: GameState, events) -> bool:
    from engine.replay import summary

    return summary(state, [])["finished"]
