"""The recount as the camera sees it: face-up tiles in front of the seats (not in the layout)
start it, each seat's hand is read until it holds still for `stable_s`, then one `reveal` per
player."""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from engine.tiles import ALL_TILES
from vision.live.calibration import COMPASS, EDGE_OF_COMPASS, TableCalibration
from vision.live.flags import LiveFlag, Update
from vision.live.naming import BLANK
from vision.live.observation import BONEYARD, LAYOUT, Observation, Point

log = logging.getLogger(__name__)


def hand_tiles(obs: Observation, committed, calibration: TableCalibration) -> dict[str, str]:
    """tile -> player for the face-up tiles lying in front of seats (not in the layout, no move)."""
    out: dict[str, str] = {}
    for tile in obs.tiles:
        if tile.owner in (LAYOUT, BONEYARD) or tile.face != "up" or tile.name is None:
            continue
        if tile.name in committed:
            continue
        player = calibration.seat_of_point(tile.centre)
        if player is None:
            player = calibration.seat_of_edge(EDGE_OF_COMPASS.get(tile.owner))
        if player is not None:
            out[tile.name] = player
    return out


def blank_off_pile(hands: dict[str, str], obs: Observation, on_pile: Callable[[Point], bool]) -> dict[str, str]:
    """`hands` without a 0-0 lying where a tile of the boneyard lay when play ended: the blank
    double and a plain back look alike, and a tile of a hand cannot lie on a tile of the pile
    (fresh28 h629, JPEG 40: a back of the pile read 0-0 at 0.57-0.62 in the recount, Boris's hand
    of three read as four)."""
    blank = next((t for t in obs.tiles if t.name == BLANK and t.face == "up"), None)
    if blank is None or BLANK not in hands or not on_pile(blank.centre):
        return hands
    log.debug("recount: the 0-0 at (%.0f, %.0f) lies on a place of the pile: a back", *blank.centre)
    return {name: p for name, p in hands.items() if name != BLANK}


def to_counts(hands: dict[str, str], centres: dict[str, tuple[float, float]], expected: dict[str, int] | None,
              calibration: TableCalibration) -> dict[str, str]:
    """`hands` with tiles moved from seats showing more than the record leaves them to seats
    showing fewer, the tile nearest such a seat first, where the hands show as many tiles as the
    record leaves in all: the set holds each tile once and the record knows each hand's size, so a
    seat over its count shows a tile that is not its own (fresh live deals h469: Boris's 2-6 laid
    out nearer the edge of a table found only down to a cloth's shade, given to Anna, who was out;
    h464: Boris's 1-2 and a die at Gleb's side read 1-2, given to Gleb, who was out)."""
    if expected is None or len(hands) != sum(expected.values()):
        return hands
    edge_of = {player: edge for edge, player in calibration.seats.items()}
    out = dict(hands)
    while True:
        held = Counter(out.values())
        over = {p for p, k in expected.items() if held[p] > k}
        under = [p for p, k in expected.items() if held[p] < k and p in edge_of]
        moves = [(calibration.edge_distances(centres[tile])[edge_of[p]], tile, p)
                 for tile, owner in out.items() if owner in over and tile in centres for p in under]
        if not moves:
            return out
        _, tile, player = min(moves)
        log.debug("recount: %s lies at %s's seat, who holds fewer than the record: %s's", tile, out[tile], player)
        out[tile] = player


def laid_apart(obs: Observation, committed, calibration: TableCalibration) -> Observation:
    """In the recount: a face-up tile the reader kept as a bit of the chain that no join links to
    the layout and that lies a tile length or more from every move is a hand's, at the seat it
    lies in front of. Hands are laid out apart from the chain, and a tile laid on it touches it;
    the reader's bits of the chain are for play, where an arm cuts the chain (fresh16 h354: Boris's
    3-3, end to end with a false box at the picture's edge, taken for a piece of chain: asked about
    as a tile fitting no end and lost from his hand)."""
    anchors = [t.halves for i, t in enumerate(obs.tiles)
               if t.owner == LAYOUT and (obs.neighbours(i) or t.name in committed)]
    anchors += [c.obs.halves for c in committed.values() if c.obs is not None]
    tiles = list(obs.tiles)
    for i, tile in enumerate(obs.tiles):
        if (tile.owner != LAYOUT or tile.face != "up" or tile.name is None or tile.name in committed
                or obs.neighbours(i)):
            continue
        length = 2 * max(tile.half_span, 1.0)
        if any(math.dist(h, g) < length for halves in anchors for h in tile.halves for g in halves):
            continue
        tiles[i] = replace(tile, owner=COMPASS[calibration.edge_of_point(tile.centre)])
    return obs if tiles == list(obs.tiles) else replace(obs, tiles=tuple(tiles))


def blank_in_hand(obs: Observation, hands: dict[str, str], committed, calibration: TableCalibration,
                  expected: dict[str, int] | None) -> dict[str, str]:
    """`hands` with a lone back among one seat's face-up tiles in the recount named 0-0: with no
    divider, the blank double is a plain tile, boxed as a back (fresh live deal h77: Boris's
    0-0 among black backs, his last tile). Only where 0-0 is nowhere else, one seat alone shows
    such a tile, and that seat's face-up tiles are one short (counts unknown: it shows some)."""
    if "0-0" in committed or "0-0" in hands:
        return hands
    down = Counter(calibration.seat_of_point(t.centre) for t in obs.tiles
                   if t.face == "down" and t.owner not in (LAYOUT, BONEYARD))
    up = Counter(hands.values())
    seats = [p for p, n in down.items() if p is not None and n == 1
             and (up[p] >= 1 if expected is None else up[p] == expected.get(p, 0) - 1)]
    return {**hands, "0-0": seats[0]} if len(seats) == 1 else hands


ROW_LEFT = 3  # a face-down row this long (BLB-3, DRK-3: turned up at 3 tiles left) is still a hand in play


def rows_turned_up(obs: Observation, seats: dict[str, str], calibration: TableCalibration,
                   least: int = ROW_LEFT) -> set[str]:
    """The seats of `seats` (tile -> player, face up) whose hand is turned up: not where a row of
    `least` face-down tiles or more, more than the face-up ones, still lies (a tile turned up to
    be played, DRK-2, or a back read face up: fresh deal h31's 0-0 at the end of a row). Where
    hands are not turned up in play (every variant but BLB and DRK), a hand laid out for the
    recount is turned up whole: one back more than the face-up tiles is enough (`least=1`;
    fresh15 h314, JPEG 40: a plain back read 0-0 beside two backs of Anna's three)."""
    up = Counter(seats.values())
    down = Counter(calibration.seat_of_point(t.centre) for t in obs.tiles
                   if t.face == "down" and t.owner not in (LAYOUT, BONEYARD))
    return {p for p in up if not (down[p] >= least and down[p] > up[p])}


class RevealWatch:
    """The hands read during a recount, frame by frame."""

    def __init__(self) -> None:
        self.face_up_since: float | None = None  # in play: hands face up since
        self.last_held: dict[str, list[str]] | None = None  # the last hands that held still
        self.since: float | None = None  # the recount's start
        self._window: list[tuple[float, dict[str, str]]] = []
        self._hands_since: tuple[float, frozenset] | None = None
        self.seen: set[str] = set()  # every tile named on the recount's last frame, layout too
        self.backs = 0  # face-down tiles out of the layout on that frame (the boneyard's, a hand's)

    def begin(self, t: float | None) -> None:
        self.since = t
        self.last_held = None
        self._window = []
        self._hands_since = None
        self.seen = set()
        self.backs = 0

    def wants_recount(self, t: float, seats: set[str], players: int, expected: dict[str, int] | None,
                      *, rows: bool, recount_seats: int, stable_s: float) -> bool:
        """In play, with moves made: whether the hands face up at `seats` start the recount."""
        if not seats:
            self.face_up_since = None
            return False
        self.face_up_since = t if self.face_up_since is None else self.face_up_since
        someone_out = expected is not None and min(expected.values()) == 0
        if rows:
            # Rows turned face up in play (BLB-3, DRK-3): only every hand but the winner's counts,
            # face up for a while (fresh deal h31: a hand the colour of the table, resting on a
            # row, was read as one face-up tile on a frame seen as still).
            return len(seats) >= players - 1 and t - self.face_up_since >= stable_s
        # Hands face up at enough seats; or at one, once a player has laid the last tile or
        # after a while (the others went out or hold nothing).
        return (len(seats) >= min(recount_seats, players) or someone_out
                or t - self.face_up_since >= 4 * stable_s)

    def hands(self, t: float, hands: dict[str, str], players: list[str],
              expected: dict[str, int] | None, stable_s: float) -> tuple[dict[str, list[str]], bool] | None:
        """One frame of the recount with tiles face up: the hands to reveal and whether they are
        complete, once they held still long enough (None: not yet)."""
        self._window.append((t, hands))
        self._window = [(ts, h) for ts, h in self._window if t - ts <= stable_s]
        n = len(self._window)
        votes: dict[str, Counter] = {}
        for _, h in self._window:
            for tile, player in h.items():
                votes.setdefault(tile, Counter())[player] += 1
        held = frozenset(
            (tile, c.most_common(1)[0][0]) for tile, c in votes.items() if sum(c.values()) * 2 > n
        )
        if self._hands_since is None or self._hands_since[1] != held:
            self._hands_since = (t, held)
            return None
        still = t - self._hands_since[0]
        # Nothing laid out is the recount only where every hand is known to be empty (BYK-1.9:
        # the circle played out, every player emptied their hand; fresh32 h723).
        emptied = expected is not None and not any(expected.values())
        if still < stable_s or t - self.since < stable_s or not (held or emptied):
            return None
        by_player: dict[str, list[str]] = {p: [] for p in players}
        for tile, player in sorted(held):
            by_player[player].append(tile)
        self.last_held = by_player
        if expected is not None and all(len(by_player[p]) == k for p, k in expected.items()):
            return by_player, True  # every hand as expected
        # Counts unknown (a boneyard) or off: wait a little longer for late tiles.
        if still < (2 if expected is None else 4) * stable_s:
            return None
        return by_player, expected is None


def by_elimination(by_player: dict[str, list[str]], counts: dict[str, int] | None, accounted: set[str],
                   undrawn: int) -> tuple[dict[str, list[str]], list[str]]:
    """`by_player` with the tiles no camera saw given to the one hand short of them, as a
    recounter does: the set holds each tile once, so where no tile lies face down out of the
    layout and the record has the boneyard drawn (`undrawn` 0: both), and every other tile is on
    the layout or in a hand (`accounted`), the tiles left are the short hand's (fresh deals h99: a
    2-4 the detector scored 0.14; h119: a tile laid outside the picture). Only when one hand is
    short, by exactly as many tiles as are left. Returns the hands and the tiles so given."""
    if counts is None or undrawn:
        return by_player, []
    short = [p for p, k in counts.items() if len(by_player.get(p, [])) < k]
    if len(short) != 1 or any(len(by_player.get(p, [])) > k for p, k in counts.items()):
        return by_player, []
    (player,) = short
    left = [str(t) for t in ALL_TILES if str(t) not in accounted]
    if len(left) != counts[player] - len(by_player.get(player, [])):
        return by_player, []
    return {**by_player, player: sorted([*by_player.get(player, []), *left])}, left


def reveal(t: float, by_player: dict[str, list[str]], players: list[str],
           expected: dict[str, int] | None, *, inferred: dict[str, list[str]] | None = None) -> Update:
    """One `reveal` per player; a flag where the hands are not the expected size, and one naming
    the tiles given by elimination (`inferred`, player -> tiles) for the operator to check."""
    out = Update()
    if expected is not None:
        short = {p: (len(by_player[p]), k) for p, k in expected.items() if len(by_player[p]) != k}
        if short:
            out.flags.append(LiveFlag(
                "recount", t, "hands read with a different number of tiles than expected "
                f"(seen, expected): {short}; correct the reveal on /operator"))
    for player, tiles in (inferred or {}).items():
        out.flags.append(LiveFlag(
            "unseen", t, f"{', '.join(tiles)} not seen in the recount: given to {player}, "
            "the only tiles of the set not on the table; check the reveal on /operator",
            ", ".join(tiles), player))
    for player in players:
        out.events.append({"event": "reveal", "player": player, "tiles": by_player[player]})
    log.info("recount read: %s", by_player)
    return out
