"""Legal plays: what `engine.game.apply` accepts without a flag (the source of truth that random
games, the renderer and the tests play from)."""

from __future__ import annotations

from engine.layout import DOWN
from engine.state import GameState, Play
from engine.tiles import ALL_TILES, Tile


def _candidates(state: GameState, seat: int) -> tuple[Tile, ...]:
    d = state.deal
    hand = d.hands[seat]
    if hand is not None:
        return hand
    known = set(d.layout.tiles)
    for h in d.hands:
        if h is not None:
            known.update(h)
    if d.boneyard is not None:
        known.update(d.boneyard)
    return tuple(t for t in ALL_TILES if t not in known)


def legal_plays(state: GameState, player: str) -> list[Play]:
    """Every play `player` may make now that `apply` accepts without a flag. With the hand unknown
    (camera mode) every tile not known elsewhere is a candidate."""
    d, r = state.deal, state.rules
    if d is None or d.end is not None:
        return []
    seat = state.seat[player]
    continuing = d.turn_seat == seat and d.turn_tiles > 0
    if continuing:
        if r.multi == "one" or (r.multi in ("revealed", "all_or_one") and d.turn_start > r.reveal_at):
            return []
    elif d.to_move is not None and d.to_move != seat:
        return []
    if d.counts[seat] <= 0:
        return []
    tiles = _candidates(state, seat)
    if (r.rows and not continuing and d.hands[seat] is not None and d.counts[seat] > r.reveal_at
            and (d.layout.placed or d.open_tiles is None)):
        tiles = tiles[-1:]  # BLB-2, DRK-2: the right end of the row (BLB-1: the agreed opener's tile)
    if continuing and r.multi == "doubles":
        tiles = tuple(t for t in tiles if t.is_double) if d.turn_doubles else ()
    layout = d.layout
    if not layout.placed:
        return [Play(t) for t in tiles if d.open_tiles is None or t in d.open_tiles]
    plays: list[Play] = []
    seen: set[tuple[Tile, Tile]] = set()
    for end_tile, v in layout.open_ends():
        for t in tiles:
            if (t.a == v or t.b == v) and (t, end_tile) not in seen:
                seen.add((t, end_tile))
                plays.append(Play(t, end_tile))
                if r.face_down and t.is_double:
                    plays.append(Play(t, end_tile, DOWN))
    if r.new_arm_first_circle and seat in d.new_arm_pending and plays:
        root = layout.placed[0]
        if layout.sides(root):
            v = root.tile.a
            hand = d.hands[seat]
            if any(p.tile.has(v) for p in plays) or (hand is not None and any(t.has(v) for t in hand)):
                plays = [p for p in plays if p.to == root.tile]
    return plays


def may_pass(state: GameState, player: str) -> bool:
    """Whether `player` may pass now without a flag (BYK-1.8 always; forced play only with no
    fitting tile and, where one draws until a tile fits, an empty boneyard)."""
    d, r = state.deal, state.rules
    if d is None or d.end is not None or not d.layout.placed:
        return False
    seat = state.seat[player]
    if d.to_move is not None and d.to_move != seat:
        return False
    if r.passing == "voluntary":
        return True
    if r.boneyard and r.draw == "until_fits" and d.bone_count > 0:
        return False
    return not legal_plays(state, player)


def may_draw(state: GameState, player: str) -> bool:
    """Whether `player` may draw now without a flag (SPI default: until a tile fits; BLB-2/DRK-2:
    one tile right after a miss)."""
    d, r = state.deal, state.rules
    if d is None or d.end is not None or not r.boneyard or d.bone_count <= 0:
        return False
    seat = state.seat[player]
    if r.draw == "one_after_miss":
        return d.missed == seat
    if d.to_move is not None and d.to_move != seat:
        return False
    return not legal_plays(state, player)
