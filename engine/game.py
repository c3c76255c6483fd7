"""The rules in one place: `apply(state, event) -> (state, flags)` and `legal_plays(state, player)`.

`apply` is pure. An event that breaks a rule is kept (camera mode: the tile *is* on the table) and
flagged with the rule ID; `strict=True` raises `IllegalEventError` instead. Hands may be unknown
(camera mode): then only what the table shows is checked, and passes are audited at reveal.
"""

from __future__ import annotations

from engine.errors import IllegalEventError, RecordError
from engine.events import (
    DealEvent,
    DrawEvent,
    Event,
    GameEvent,
    PassEvent,
    PlayEvent,
    RevealEvent,
    from_dict,
)
from engine.layout import DOWN, UP, Layout, PlacedTile
from engine.legal import legal_plays, may_draw, may_pass  # legality, re-exported as game API
from engine.record import check_events
from engine.rules import ruleset
from engine.scoring import commit_deal
from engine.state import Deal, Flag, GameState, PassRecord, Play, Termination
from engine.tiles import ALL_TILES, Tile

__all__ = ["GameState", "Play", "Flag", "Termination", "new_game", "apply", "legal_plays", "may_pass",
           "may_draw"]

_parse = Tile.parse


def new_game(game_event: GameEvent | dict) -> GameState:
    """The state after the game event. Raises `RecordError` for an unknown variant, option or a
    player count the variant does not allow."""
    check_events([game_event])
    if isinstance(game_event, dict):
        game_event = from_dict(game_event)
    rules = ruleset(game_event.variant, **(game_event.options or {}))
    players = game_event.players
    pairs = None
    if rules.pairs:
        given = game_event.pairs
        if given:
            pairs = (tuple(given[0]), tuple(given[1]))
        else:
            pairs = ((players[0], players[2]), (players[1], players[3]))
    return GameState(rules, players, pairs)


def apply(state: GameState, event: Event, *, strict: bool = False) -> tuple[GameState, list[Flag]]:
    """The state after `event` and the flags it raised. Raises `RecordError` for an event that
    names an unknown player or has no deal to belong to; `IllegalEventError` in strict mode.

    A dict is converted with `engine.events.from_dict` (raising `RecordError` for bad syntax):
    the renderer (vision/synth) still hands dicts over."""
    if isinstance(event, dict):
        if event.get("event") not in _HANDLERS:
            raise RecordError(f"unknown event {event.get('event')!r}", lineno=state.index)
        event = from_dict(event, state.index)
    kind = event.kind
    handler = _HANDLERS.get(kind, _HANDLERS)
    if handler is _HANDLERS:
        raise RecordError(f"unknown event {kind!r}", lineno=state.index)
    if kind == "game":
        raise RecordError("a second game event; start a new record per game", lineno=state.index)
    name = getattr(event, "player", None)
    if name is not None and name not in state.seat:
        raise RecordError(f"unknown player {name!r}; the game's players are {', '.join(state.players)}",
                          lineno=state.index)
    s = state.copy()
    s.index = state.index + 1
    flags: list[Flag] = []
    if kind != "deal":
        if s.deal is None:
            raise RecordError(f"{kind} before any deal event; add {{\"event\": \"deal\"}} first",
                              lineno=state.index)
        s.deal = s.deal.copy()
    ctx = _Ctx(s, state.index, flags)
    handler(ctx, event)
    if strict and flags:
        raise IllegalEventError(flags[0])
    return s, flags


class _Ctx:
    """What one application of one event works on."""

    __slots__ = ("s", "d", "rules", "idx", "flags", "n")

    def __init__(self, s: GameState, idx: int, flags: list[Flag]):
        self.s = s
        self.d: Deal = s.deal
        self.rules = s.rules
        self.idx = idx
        self.flags = flags
        self.n = len(s.players)

    def flag(self, concept: str, seat: int | None, message: str, event: int | None = None) -> None:
        rule = concept if concept in ("SET-DUP", "SET-MISSING", "TURN", "MOVE-TO") else self.rules.rule(concept)
        player = None if seat is None else self.s.players[seat]
        self.flags.append(Flag(self.idx if event is None else event, rule, player, message, concept))

    def name(self, seat: int) -> str:
        return self.s.players[seat]


# ---------------------------------------------------------------- deal


def _on_deal(c: _Ctx, event: DealEvent) -> None:
    s, rules, n = c.s, c.rules, c.n
    prev = s.deal
    redeals = 0
    if prev is not None and not prev.layout.placed and prev.end is None:
        # Nothing was played: this deal replaces it (BYK-1.3, BAL-3 redeal, or a camera restart).
        redeals = prev.redeals + 1
    elif prev is not None:
        commit_deal(s, prev)
    if _game_over(s):
        c.flag("target", None, f"the game is over (a total reached {rules.target}); start a new game")
    number = len(s.results) + 1
    d = Deal(number, n, Layout(rules.arms))
    d.redeals = redeals
    size = rules.hand_for(n)
    d.counts = [size] * n
    undealt = 28 - size * n
    d.removed = rules.removed if rules.boneyard and undealt > 0 else 0
    d.bone_count = max(0, undealt - d.removed) if rules.boneyard else 0
    d.drawable_at_start = d.bone_count
    if rules.new_arm_first_circle:
        d.new_arm_pending = frozenset(range(n))
    c.d = d
    s.deal = d

    hands = event.hands
    seen: dict[Tile, str] = {}
    if hands:
        for name, tiles in hands:
            seat = s.seat[name]
            d.hands[seat] = tiles
            if len(tiles) != size:
                c.flag("hand", seat, f"{name} was dealt {len(tiles)} tiles; {rules.name} deals {size} to {n} players")
                d.counts[seat] = len(tiles)
            for t in tiles:
                if t in seen:
                    c.flag("SET-DUP", seat, f"{t} dealt to {name} and to {seen[t]}")
                seen[t] = name
        d.dealt = all(h is not None for h in d.hands)
    for key, listed in (("boneyard", event.boneyard), ("removed", event.removed)):
        for t in listed or ():
            if t in seen:
                c.flag("SET-DUP", None, f"{t} listed in the {key} and held by {seen[t]}")
            seen[t] = key
    if event.boneyard is not None:
        d.boneyard = frozenset(event.boneyard)
    elif d.dealt:
        d.boneyard = frozenset(ALL_TILES) - frozenset(seen)
    if event.removed and d.boneyard is not None:
        d.boneyard = d.boneyard - set(event.removed)
    if d.dealt:
        d.redeal_due = _redeal_reason(rules, [(s.players[i], h) for i, h in enumerate(d.hands)])
    _choose_opener(c, d)


def _redeal_reason(rules, hands) -> str | None:
    """BYK-1.3: 5 or more doubles in a hand; BAL-3: more than five tiles showing one value."""
    for name, hand in hands:
        if hand is None:
            continue
        if rules.redeal == "doubles5":
            doubles = sum(t.is_double for t in hand)
            if doubles >= 5:
                return f"{name} holds {doubles} doubles: declare it and redeal"
        elif rules.redeal == "value6":
            for v in range(7):
                k = sum(t.has(v) for t in hand)
                if k > 5:
                    return f"{name} holds {k} tiles showing {v}: reshuffle and redeal"
    return None


def _choose_opener(c: _Ctx, d: Deal) -> None:
    """Who leads and with what (BYK-1.5, SPT, BLZ-2, BLB-1, DRK-1, SEV-1, SPI-2, BAL-4)."""
    s, rules = c.s, c.rules
    last = s.results[-1] if s.results else None
    if last is not None and rules.later_opening != "same":
        if rules.later_opening == "winner":
            winner = last.get("_winner_seat")
            d.to_move = winner
        else:  # left_of_opener: the lead passes clockwise, alternating between pairs
            prev = last.get("_opener_seat")
            d.to_move = None if prev is None else (prev + 1) % c.n
        d.open_tiles = None
        return
    opening = rules.opening
    if opening == "any":
        d.open_tiles = None
    elif opening in ("lowest", "highest"):
        if not d.dealt and rules.hand_for(c.n) * c.n == 28:
            d.open_tiles = frozenset({_parse("0-0" if opening == "lowest" else "6-6")})
        elif d.dealt:
            dealt = [t for h in d.hands for t in h]
            best = (min if opening == "lowest" else max)(t.pips for t in dealt)
            d.open_tiles = frozenset(t for t in dealt if t.pips == best)
        else:
            d.open_tiles = None
            # judged against the tiles seen later, which were all dealt when nothing can be drawn
            d.audit_opening = d.drawable_at_start == 0
    else:
        tile = _parse(opening)
        if d.dealt and not any(tile in h for h in d.hands):
            # The opening double was not dealt: the lowest dealt double opens, else the lowest tile.
            dealt = [t for h in d.hands for t in h]
            doubles = [t for t in dealt if t.is_double]
            tile = min(doubles) if doubles else min(dealt, key=lambda t: (t.pips, t))
        d.open_tiles = frozenset({tile})
        if not d.dealt and sum(rules.hand_for(c.n) for _ in range(c.n)) < 28:
            # Camera mode with undealt tiles: the opening double may not have been dealt, and then
            # the lowest dealt double opens, else (no double dealt) the lowest tile: the table
            # cannot tell which, so any tile may open (a random legal game: 0-2, no double dealt).
            d.open_tiles = None
    if d.dealt and d.open_tiles is not None:
        holders = {i for i, h in enumerate(d.hands) if any(t in d.open_tiles for t in h)}
        d.to_move = holders.pop() if len(holders) == 1 else None
    else:
        d.to_move = None


def _game_over(s: GameState) -> bool:
    rules = s.rules
    if rules.deals is not None and len(s.results) >= rules.deals:
        return True
    if rules.target is not None and s.totals:
        return max(s.totals.values()) >= rules.target if not rules.higher_is_better else False
    return False


# ---------------------------------------------------------------- turns


def _next(c: _Ctx, seat: int) -> int:
    return (seat + 1) % c.n


def _passes_allowed(c: _Ctx) -> bool:
    """A pass may be inferred unless the player had to draw instead (boneyard not empty)."""
    r = c.rules
    return not (r.boneyard and r.draw == "until_fits" and c.d.bone_count > 0)


def _close_turn(c: _Ctx, seat: int | None) -> None:
    """End the current turn when someone else acts. BLB-3: several tiles at once only to go out."""
    d = c.d
    if d.turn_seat is None or d.turn_seat == seat:
        return
    if (c.rules.multi == "all_or_one" and d.turn_tiles > 1 and d.counts[d.turn_seat] > 0
            and d.turn_start > c.rules.reveal_at):
        c.flag("multi", d.turn_seat, f"{c.name(d.turn_seat)} laid {d.turn_tiles} tiles in one turn "
               "without going out", event=d.turn_event)
    d.turn_seat = None
    d.turn_tiles = 0


def _end(c: _Ctx, how: Termination) -> None:
    d = c.d
    if d.out:
        how = Termination.OUT
    d.end = how
    if how is not Termination.OUT and c.rules.blocked_winner == "last_tile":
        d.winner = d.last_layer  # BYK-1.11, BAL-14: whoever laid the last tile
    d.to_move = None


def _fits_any(tiles, ends: set[int]) -> Tile | None:
    for t in tiles:
        if t.a in ends or t.b in ends:
            return t
    return None


def _record_pass(c: _Ctx, seat: int, inferred: bool) -> None:
    """A pass, entered or inferred from a later seat's play (BYK-1.8, SPT-11, BAL-5, BLB-2, DRK-2)."""
    d, rules = c.d, c.rules
    ends = d.layout.end_values()
    hand = d.hands[seat]
    checked = False
    if rules.passing == "forced" and hand is not None and d.layout.placed:
        checked = True
        if rules.rows and d.counts[seat] > rules.reveal_at:
            fitting = hand[-1] if hand and (hand[-1].a in ends or hand[-1].b in ends) else None
        else:
            fitting = _fits_any(hand, ends)
        if fitting is not None:
            what = "turned up" if rules.rows and d.counts[seat] > rules.reveal_at else "holding"
            c.flag("pass", seat, f"{c.name(seat)} passed {what} {fitting}, which fits "
                   f"{', '.join(str(v) for v in sorted(ends & set(fitting.values)))}")
            d.wrongful = d.wrongful + (seat,)
    if rules.rows and hand and d.counts[seat] > rules.reveal_at:
        d.hands[seat] = (hand[-1],) + hand[:-1]  # BLB-2/DRK-2: the missed tile goes to the left end
    d.passes = d.passes + (PassRecord(seat, c.idx, frozenset(ends), inferred, checked),)
    d.pass_run += 1
    d.missed = seat
    d.new_arm_pending = d.new_arm_pending - {seat}
    d.to_move = _next(c, seat)
    if d.final_seat is not None and seat == d.final_seat:
        _end(c, Termination.OUT)  # BYK-1.9: the circle is played out
        return
    circles = rules.pass_circles if rules.passing == "voluntary" else 1
    if rules.rows and max(d.counts) > rules.reveal_at:
        # BLB-2, DRK-2: a miss only says the right-end tile did not fit; the deal is blocked once
        # every row has been turned through without a play.
        circles = max(d.counts)
    if d.pass_run >= circles * c.n:
        if d.layout.is_fished():
            _end(c, Termination.FISH)
        else:
            _end(c, Termination.SORTIR if rules.passing == "voluntary" else Termination.BLOCKED)


def _catch_up(c: _Ctx, seat: int, what: str) -> bool:
    """`seat` acts while another is to move: infer passes for the skipped seats where passes are
    allowed, else flag TURN. Returns False when the inferred passes ended the deal."""
    d = c.d
    if d.to_move is None or d.to_move == seat:
        return True
    if not _passes_allowed(c):
        c.flag("TURN", seat, f"{c.name(seat)} {what} but {c.name(d.to_move)} was to move")
        d.to_move = seat
        return True
    while d.to_move != seat and d.end is None:
        _record_pass(c, d.to_move, inferred=True)
    return d.end is None


def _after_end(c: _Ctx, seat: int, what: str) -> None:
    d = c.d
    concept = {"out": "out", "fish": "fish"}.get(d.end.value, "pass_end")
    c.flag(concept, seat, f"{c.name(seat)} {what} after the deal ended ({d.end.value})")


# ---------------------------------------------------------------- events


def _check_time(c: _Ctx, seat: int, event: Event) -> None:
    """SPT-9: seconds per move, when the record carries times."""
    t = event.time
    if t is None:
        return
    d, limit = c.d, c.rules.move_seconds
    if limit is not None and d.last_time is not None and t - d.last_time > limit:
        c.flag("time", seat, f"{c.name(seat)} took {t - d.last_time:.0f} s (limit {limit} s)")
    d.last_time = t


def _on_play(c: _Ctx, event: PlayEvent) -> None:
    d, rules, layout = c.d, c.rules, c.d.layout
    seat = c.s.seat[event.player]
    tile = event.tile
    to = event.to
    face = event.face or UP
    name = c.name(seat)
    if d.end is not None:
        _after_end(c, seat, f"played {tile}")
        return
    if tile in layout._kids:
        c.flag("SET-DUP", seat, f"{tile} is already on the table")
        return
    if event.time is not None:
        _check_time(c, seat, event)
    if d.redeal_due:
        c.flag("redeal", None, d.redeal_due)
        d.redeal_due = None
    if d.turn_seat is not None and d.turn_seat != seat:
        _close_turn(c, seat)
    continuing = d.turn_seat == seat and d.turn_tiles > 0
    opening = not layout.placed

    if opening:
        if d.to_move is not None and d.to_move != seat:
            c.flag("opening", seat, f"{c.name(d.to_move)} leads this deal, not {name}")
        if d.open_tiles is not None and tile not in d.open_tiles:
            need = d.open_text or " or ".join(str(t) for t in sorted(d.open_tiles))
            c.flag("opening", seat, f"the deal opens with {need}, not {tile}")
        if face == DOWN:
            c.flag("closed", seat, f"the opening tile {tile} cannot be laid face down")
        d.opener = seat
    elif continuing:
        _check_multi(c, seat, tile)
    elif not _catch_up(c, seat, f"played {tile}"):
        _after_end(c, seat, f"played {tile}")
        return

    if d.audit_opening and not opening:
        _check_lowest_opening(c, seat, (tile,))
    _check_hand(c, seat, tile, continuing)
    placed = _place(c, seat, tile, to, face, event) if not opening else PlacedTile(tile, None, None, None, face, name, d.moves + 1)
    if placed is not None:
        d.layout = layout = layout.add(placed)
    # bookkeeping
    before = d.counts[seat]
    d.counts[seat] = before - 1
    d.played[seat] = d.played[seat] + (tile,)
    d.last_layer = seat
    d.pass_run = 0
    d.moves += 1
    d.missed = None
    if d.new_arm_pending and not opening:  # SEV-2: the opener starts an arm on the next turn
        d.new_arm_pending = d.new_arm_pending - {seat}
    if continuing:
        d.turn_tiles += 1
        d.turn_doubles = d.turn_doubles and tile.is_double
    else:
        d.turn_seat, d.turn_tiles, d.turn_start, d.turn_doubles = seat, 1, before, tile.is_double
    d.turn_event = c.idx
    d.to_move = _next(c, seat)

    # deal end
    if d.counts[seat] <= 0:
        d.out = d.out + (seat,)
        if d.winner is None:
            d.winner = seat
        if rules.play_out_circle and d.opener is not None:
            final = (d.opener - 1) % c.n
            if seat == final or d.final_seat == seat:
                _end(c, Termination.OUT)
            elif d.final_seat is None:
                d.final_seat = final  # BYK-1.9: play out the circle up to the seat before the opener
        else:
            _end(c, Termination.OUT)
    elif d.final_seat is not None and seat == d.final_seat:
        _end(c, Termination.OUT)
    if d.end is None and layout.is_fished():
        _end(c, Termination.FISH)


def _check_lowest_opening(c: _Ctx, seat: int, tiles) -> None:
    """BLZ-2, BLB-1 in camera mode: a dealt tile nearer to 0-0 (or 6-6) than the opening tile,
    seen later on the table or at reveal, shows the wrong tile opened. Flagged once per deal."""
    d = c.d
    if not d.layout.placed:
        return
    first = d.layout.placed[0].tile
    lowest = c.rules.opening == "lowest"
    for t in tiles:
        if (t.pips < first.pips) if lowest else (t.pips > first.pips):
            c.flag("opening", seat, f"{t} was dealt, nearer to {'0-0' if lowest else '6-6'} than the opening tile {first}")
            d.audit_opening = False
            return


def _check_multi(c: _Ctx, seat: int, tile: Tile) -> None:
    """A second tile in one turn (BYK-1.6 one tile, BLZ-3 any, BAL-13 doubles, DRK-3/BLB-3)."""
    d, r = c.d, c.rules
    name = c.name(seat)
    if r.multi == "one":
        c.flag("multi", seat, f"{name} laid a second tile ({tile}) in one turn")
    elif r.multi == "doubles" and not (d.turn_doubles and tile.is_double):
        c.flag("multi", seat, f"{name} laid {tile} in a turn of several tiles; only doubles may go together")
    elif r.multi == "revealed" and d.turn_start > r.reveal_at:
        c.flag("multi", seat, f"{name} laid a second tile ({tile}) before the last {r.reveal_at} were turned up")


def _check_hand(c: _Ctx, seat: int, tile: Tile, continuing: bool) -> None:
    """Account for the tile: it must come from the player's hand (SET-DUP), from the right end of a
    face-down row (BLB-2, DRK-2)."""
    d, r = c.d, c.rules
    name = c.name(seat)
    hand = d.hands[seat]
    if d.counts[seat] <= 0:
        c.flag("SET-MISSING", seat, f"{name} has no tiles left but played {tile}")
    if hand is not None and tile in hand:
        if (r.rows and not continuing and d.counts[seat] > r.reveal_at and hand[-1] != tile
                and (d.layout.placed or d.open_tiles is None)):
            c.flag("rows", seat, f"{name} must play the right-end tile {hand[-1]}, not {tile}")
        rest = list(hand)
        rest.remove(tile)
        d.hands[seat] = tuple(rest)
        return
    for other, h in enumerate(d.hands):
        if other != seat and h is not None and tile in h:
            c.flag("SET-DUP", seat, f"{name} played {tile}, which {c.name(other)} holds")
            d.hands[other] = tuple(t for t in h if t != tile)
            return
    if d.boneyard is not None and tile in d.boneyard:
        c.flag("SET-DUP", seat, f"{name} played {tile}, which is in the boneyard")
        d.boneyard = d.boneyard - {tile}
        return
    if hand is not None:
        c.flag("SET-DUP", seat, f"{name} played {tile}, which is not in their hand")


def _place(c: _Ctx, seat: int, tile: Tile, to: Tile | None, face: str, event: PlayEvent) -> PlacedTile | None:
    """Attach `tile` to the layout, flagging what does not fit (BYK-1.6, BAL-9, SPI-4, BAL-12,
    SEV-2). A tile that does not fit is still placed where the record says."""
    d, r, layout = c.d, c.rules, c.d.layout
    name = c.name(seat)
    parent = None
    joint = None
    if to is not None:
        parent = layout.get(to)
        if parent is None:
            c.flag("match", seat, f"{name} attached {tile} to {to}, which is not on the table")
        else:
            sides = layout.sides(parent)
            fit = [v for v in sides if tile.has(v)]
            if fit:
                joint = fit[0]
            elif not sides:
                if parent.face == DOWN:
                    c.flag("closed", seat, f"{to} lies face down: its arm is closed")
                elif parent.tile.is_double:
                    c.flag("arms", seat, f"{to} takes no more tiles on this layout")
                else:
                    c.flag("match", seat, f"{to} has no free end for {tile}")
                joint = tile.a
            else:
                # the tile as the record wrote it: "5-3 does not fit 0"
                c.flag("match", seat, f"{event.tile_text} does not fit {'/'.join(str(v) for v in sorted(set(sides)))}")
                joint = sides[0]
    if parent is None:
        ends = layout.open_ends()
        cands = []
        for t, v in ends:
            if tile.has(v) and t not in cands:
                cands.append(t)
        if cands:
            if len(cands) > 1 and to is None:
                c.flag("MOVE-TO", seat, f"{tile} fits {' and '.join(str(t) for t in cands)}; name one with \"to\"")
            parent = layout.get(cands[0])
            joint = next(v for t, v in ends if t == cands[0] and tile.has(v))
        elif to is None:
            ends_text = ", ".join(str(v) for v in sorted({v for _, v in ends})) or "none"
            c.flag("match", seat, f"{tile} fits no open end (ends: {ends_text})")
            if not ends:
                return PlacedTile(tile, None, None, None, face, name, d.moves + 1)
            parent = layout.get(ends[0][0])
            joint = ends[0][1]
    if parent is None:
        return PlacedTile(tile, None, None, None, face, name, d.moves + 1)
    if face == DOWN:
        if not r.face_down:
            c.flag("closed", seat, f"{r.name} does not allow face-down tiles")
        elif not tile.is_double:
            c.flag("closed", seat, f"only a double may be laid face down, not {tile}")
    if r.new_arm_first_circle and seat in d.new_arm_pending:
        _check_new_arm(c, seat, tile, parent.tile)
    outward = tile.other(joint) if tile.has(joint) else tile.b
    return PlacedTile(tile, parent.tile, joint, outward, face, name, d.moves + 1)


def _check_new_arm(c: _Ctx, seat: int, tile: Tile, parent: Tile) -> None:
    """SEV-2: on the first circle each player starts a new arm of the opening double."""
    d = c.d
    root = d.layout.placed[0]
    if parent == root.tile or not d.layout.sides(root):
        return
    v = root.tile.a
    hand = d.hands[seat]
    could = tile.has(v) or (hand is not None and any(t.has(v) for t in hand))
    if could:
        c.flag("new_arm", seat, f"{c.name(seat)} must start a new arm from {root.tile} on the first circle")


def _on_pass(c: _Ctx, event: PassEvent) -> None:
    d, r = c.d, c.rules
    seat = c.s.seat[event.player]
    name = c.name(seat)
    if d.end is not None:
        _after_end(c, seat, "passed")
        return
    _check_time(c, seat, event)
    if d.turn_seat == seat and d.turn_tiles > 0 and r.multi != "one" and d.to_move != seat:
        _close_turn(c, None)  # "pass" after a multi-tile turn just ends it
        return
    _close_turn(c, seat)
    if not d.layout.placed:
        c.flag("opening", seat, f"{name} passed before the deal was opened")
    if r.boneyard and r.draw == "until_fits" and d.bone_count > 0:
        c.flag("draw", seat, f"{name} must draw from the boneyard ({d.bone_count} left) instead of passing")
    if not _catch_up(c, seat, "passed"):
        _after_end(c, seat, "passed")
        return
    _record_pass(c, seat, inferred=False)


def _on_draw(c: _Ctx, event: DrawEvent) -> None:
    d, r = c.d, c.rules
    seat = c.s.seat[event.player]
    name = c.name(seat)
    if d.end is not None:
        _after_end(c, seat, "drew")
        return
    _close_turn(c, seat)
    tile = event.tile
    if not r.boneyard:
        c.flag("draw", seat, f"{r.name} has no boneyard: the undealt tiles are out of play")
    elif d.bone_count <= 0:
        c.flag("removed" if d.removed else "draw", seat, f"{name} drew from an empty boneyard")
    elif r.draw == "one_after_miss":
        if d.missed != seat:
            c.flag("draw", seat, f"{name} may draw one tile only right after a miss")
        d.missed = None
    else:
        if d.to_move is not None and d.to_move != seat:
            c.flag("TURN", seat, f"{name} drew but {c.name(d.to_move)} was to move")
            d.to_move = seat
        hand = d.hands[seat]
        ends = d.layout.end_values()
        fitting = _fits_any(hand, ends) if hand is not None and d.layout.placed else None
        if fitting is not None:
            c.flag("draw", seat, f"{name} drew holding {fitting}, which fits")
    if tile is not None:
        if tile in d.layout:
            c.flag("SET-DUP", seat, f"{name} drew {tile}, which is on the table")
        elif any(h is not None and tile in h for h in d.hands):
            c.flag("SET-DUP", seat, f"{name} drew {tile}, which is already in a hand")
        elif d.boneyard is not None and tile not in d.boneyard:
            c.flag("SET-DUP", seat, f"{name} drew {tile}, which is not in the boneyard")
    if d.boneyard is not None and tile is not None:
        d.boneyard = d.boneyard - {tile}
    hand = d.hands[seat]
    if hand is not None:
        d.hands[seat] = hand + (tile,) if tile is not None else None  # drawn to the right end
    d.counts[seat] += 1
    d.bone_count = max(0, d.bone_count - 1)
    d.pass_run = 0


def _on_reveal(c: _Ctx, event: RevealEvent) -> None:
    """Hands shown at the end of a deal: a reveal ends play; passes are audited (SPT-11, BAL-5)."""
    d, r = c.d, c.rules
    seat = c.s.seat[event.player]
    name = c.name(seat)
    tiles = event.tiles
    _close_turn(c, None)
    if d.end is None:
        if d.layout.is_fished():
            _end(c, Termination.FISH)
        else:
            _end(c, Termination.SORTIR if r.passing == "voluntary" else Termination.BLOCKED)
    for t in tiles:
        if t in d.layout:
            c.flag("SET-DUP", seat, f"{name} revealed {t}, which is on the table")
        for other, shown in enumerate(d.revealed):
            if other != seat and shown is not None and t in shown:
                c.flag("SET-DUP", seat, f"{name} revealed {t}, which {c.name(other)} revealed too")
    if len(set(tiles)) != len(tiles):
        c.flag("SET-DUP", seat, f"{name} revealed the same tile twice")
    hand = d.hands[seat]
    if hand is not None and set(hand) != set(tiles):
        c.flag("SET-MISSING", seat, f"{name} revealed {' '.join(map(str, tiles)) or 'nothing'} "
               f"but holds {' '.join(map(str, hand)) or 'nothing'}")
    elif len(tiles) != d.counts[seat]:
        c.flag("SET-MISSING", seat, f"{name} revealed {len(tiles)} tiles but should hold {d.counts[seat]}")
    d.revealed[seat] = tiles
    if d.audit_opening:
        _check_lowest_opening(c, seat, tiles)
    # Audit: a tile held now was held at every earlier pass when nothing could be drawn.
    # Not for face-down rows (BLB-2, DRK-2): there a pass only says the right-end tile missed.
    if r.passing == "forced" and d.drawable_at_start == 0 and not r.rows:
        for p in d.passes:
            if p.seat != seat or p.checked:
                continue
            fitting = _fits_any(tiles, set(p.ends))
            if fitting is not None:
                how = "a pass inferred here" if p.inferred else "passed"
                c.flag("pass", seat, f"{name} {how} holding {fitting}, which fit "
                       f"{', '.join(str(v) for v in sorted(p.ends & set(fitting.values)))} (found at reveal)",
                       event=p.event)
                if seat not in d.wrongful:
                    d.wrongful = d.wrongful + (seat,)
    # Camera mode: the hand as dealt is now known; check the redeal rule (BYK-1.3, BAL-3).
    if r.redeal and not d.dealt:
        reason = _redeal_reason(r, [(name, d.played[seat] + tiles)])
        if reason:
            c.flag("redeal", seat, reason)


_HANDLERS = {"deal": _on_deal, "play": _on_play, "pass": _on_pass, "draw": _on_draw, "reveal": _on_reveal}

_HANDLERS["game"] = None  # handled in apply: one game per record

