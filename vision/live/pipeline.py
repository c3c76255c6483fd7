"""The live pipeline: source -> motion gate -> reader -> tracker -> events, and the annotated frame.

`LivePipeline` implements the interface of `vision.live.protocol` (`frames()`, `on_events(sink)`,
`close()`, and the optional `game_event()`, `resume(record)` and `on_flags(sink)`), plus `flags()`
(take-backs and other things the operator should look at) and `set_calibration()` (the
operator's override).
`vision.live.launch.open_pipeline(source, variant=..., players=...)` builds one from a `--source` string.

Recorded sources (the demo, a video file, a folder) are played at their frame rate as if a camera
watched them. The motion gate sees every frame, whatever the CPU: who played comes from the arms,
so when reading falls behind only the reading is skipped (the frame's motion still counts), and
each reading is applied at the time of the frame it was taken from.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vision.live.calibration import TableCalibration, auto_calibrate
from vision.live.motion import MotionConfig, MotionGate
from vision.live.overlay import draw_overlay
from vision.live.protocol import ENDED, LIVE, LOST, RECONNECTING, FrameUpdate, SourceStatus
from vision.live.readers import Reader
from vision.live.record import GameRecord
from vision.live.sources import FrameSource, ReconnectingSource, SourceEvent
from vision.live.tracker import LiveFlag, Tracker, TrackerConfig

log = logging.getLogger(__name__)


@dataclass
class LiveConfig:
    tracker: TrackerConfig = field(default_factory=TrackerConfig)
    motion: MotionConfig = field(default_factory=MotionConfig)
    realtime: bool = True  # pace recorded sources at their fps (False: as fast as possible)
    annotate: bool = True
    reread_s: float = 0.25  # while settled, reuse the last reading for this long (0: read each)


@dataclass
class Stats:
    frames: int = 0
    read: int = 0
    skipped: int = 0
    read_ms: float = 0.0  # of the last reading
    started: float = field(default_factory=time.monotonic)

    def fps(self) -> float:
        return self.frames / max(time.monotonic() - self.started, 1e-6)


class LivePipeline:
    def __init__(
        self,
        source: Callable[[], FrameSource],
        reader: Reader,
        players: list[str],
        *,
        variant: str = "bykovo",
        calibration: TableCalibration | None = None,
        config: LiveConfig | None = None,
        game: dict | None = None,
        reconnect: ReconnectingSource | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Any] | None = None,
    ) -> None:
        self.config = config or LiveConfig()
        self.reader = reader
        self.players = list(players)
        self.variant = variant
        self._game = game
        self._clock = clock  # wall clock for pacing recorded sources (tests give a slow machine)
        self._sleep = sleep
        self._source = reconnect or ReconnectingSource(source)
        self._calibration = calibration
        self._gate: MotionGate | None = None
        self.tracker = Tracker(
            self.players,
            calibration or TableCalibration(((0, 0), (1, 0), (1, 1), (0, 1))),
            self.config.tracker,
            to_move=self._to_move,
            open_ends=self._open_ends,
            may_open=self._may_open,
            opens_with_double=self._opens_with_double,
        )
        self._tell_rules(self.game_event())
        self._sink: Callable[[dict], Any] | None = None
        self._lock = threading.RLock()
        self._record = GameRecord([self.game_event()])  # the one engine state, kept by apply
        self._flags: list[LiveFlag] = []
        self._flag_sink: Callable[[list[dict]], Any] | None = None
        self._stop = threading.Event()
        self._last_obs = None
        self._last_read_t = -1e9
        self._last_settled = False
        self.stats = Stats()
        self.events: list[dict] = []  # everything emitted, in order (tests, benchmarks)
        # what the sink answered for each event of the record it was handed (the journal's entry,
        # whose id a correction names), by index in the record
        self._written: dict[int, Any] = {}

    def _tell_rules(self, game: dict) -> None:
        """What the tracker needs to know of the variant the game event names."""
        self.tracker.hand_size = _hand_size(game)
        self.tracker.boneyard_size = _boneyard_size(game)
        self.tracker.rows = _rows(game)
        self.tracker.draw_in_turn = _draw_in_turn(game)
        rules = _rules(game)
        self.tracker.arms.one_per_arm = bool(rules is not None and rules.multi == "one")
        self.tracker.multi = rules.multi if rules is not None else "any"
        self.tracker.face_down = bool(rules is None or rules.face_down)
        self.tracker.removed = rules.removed if rules is not None and self.tracker.boneyard_size else 0

    # --- the webui interface -----------------------------------------------------------------
    def game_event(self) -> dict:
        if self._game is not None:
            return dict(self._game)
        return {"event": "game", "variant": self.variant, "players": list(self.players),
                "options": {}}

    def on_events(self, sink: Callable[[dict], Any]) -> None:
        self._sink = sink

    def close(self) -> None:
        self._stop.set()
        self._source.stop()

    def resume(self, record: list[dict]) -> None:
        """Start move inference from the referee's record (corrections and undos applied)."""
        with self._lock:
            if not record or record[0].get("event") != "game":
                return
            self._record.resume(record)  # the one full replay
            self._written.clear()  # the referee's record: its entries are not this pipeline's to name
            players = list(record[0].get("players") or self.players)
            if players != self.players:
                self.players = players
                self.tracker.players = players
                if self._calibration is not None:
                    self.set_calibration(self._calibration.with_seats(
                        dict(zip(self._calibration.seats, players, strict=False))))
            self._tell_rules(record[0])
            self.tracker.resume(record)

    def flags(self) -> list[dict]:
        """Things for the operator to check (take-backs, misreads, refused events), oldest first;
        `n` numbers them from 1 in the order they were raised."""
        with self._lock:
            first = max(0, len(self._flags) - 50)
            return [{**f.to_dict(), "n": first + k + 1} for k, f in enumerate(self._flags[first:])]

    def to_confirm(self) -> list[dict]:
        """Tiles seen laid that the rules doubt (a tile that fits no open end, one already on the
        table): not in the record until the operator resolves them with `resolve`."""
        with self._lock:
            return [item.to_dict() for item in self.tracker.to_confirm()]

    def resolve(self, item_id: int, action: str, tile: str | None = None,
                player: str | None = None) -> list[dict]:
        """The operator's answer on a tile to confirm: `confirm` (the tile as read), `correct`
        (it is `tile`) or `dismiss` (not a tile: its place is ignored this deal). Returns the
        events written. Raises ValueError for an unknown id or action, or a tile already played."""
        with self._lock:
            try:
                if action == "dismiss":
                    self.tracker.dismiss(int(item_id))
                    events: list[dict] = []
                elif action in ("confirm", "correct"):
                    if action == "correct" and not tile:
                        raise ValueError("correct needs the tile, e.g. 3-5")
                    events = self.tracker.confirm(int(item_id), tile if action == "correct" else None,
                                                  player)
                else:
                    raise ValueError(f"no action {action!r}: use confirm, correct or dismiss")
            except KeyError:
                raise ValueError(f"no tile to confirm numbered {item_id}") from None
            t = self.tracker.last_t
            for event in events:
                self._emit(event, t)
            if self._flag_sink is not None:
                self._add_flags([])
            return events

    def on_flags(self, sink: Callable[[list[dict]], Any]) -> None:
        """`sink(flags())` each time flags are raised (the web pushes them to the pages)."""
        self._flag_sink = sink

    def _add_flags(self, flags: list[LiveFlag]) -> None:
        if not flags:
            return
        self._flags.extend(flags)
        for flag in flags:
            log.warning("%s: %s", flag.kind, flag.message)
        if self._flag_sink is not None:
            try:
                self._flag_sink(self.flags())
            except Exception:  # the pages not hearing of a flag must not stop the camera
                log.exception("the flag listener failed")

    @property
    def calibration(self) -> TableCalibration | None:
        return self._calibration

    def set_calibration(self, calibration: TableCalibration) -> None:
        """The operator's override (or a new automatic one); used from the next frame on."""
        with self._lock:
            self._calibration = calibration
            self.tracker.set_calibration(calibration)
            if self._gate is not None:
                self._gate.set_calibration(calibration)

    # --- the loop ----------------------------------------------------------------------------
    def frames(self) -> Iterator[FrameUpdate]:
        wall0: float | None = None
        t0 = 0.0
        for ev in self._source.events():
            if self._stop.is_set():
                break
            if ev.frame is None:
                yield FrameUpdate(None, self._source_status(ev))
                if ev.state in (ENDED, LOST):
                    return
                continue
            read = True
            if self.config.realtime and not self._is_live():
                now = self._clock()
                if wall0 is None:
                    wall0, t0 = now, ev.t
                due = wall0 + (ev.t - t0)
                if now > due + 0.15:
                    # Behind: this frame is not read, but its motion counts (the arms say who
                    # played; the gate costs a few milliseconds).
                    self.stats.skipped += 1
                    read = False
                elif due > now:
                    (self._sleep or self._stop.wait)(due - now)
            shown = self.process(ev.frame, ev.t, read=read)
            yield FrameUpdate(shown, SourceStatus(LIVE, f"{self._source.name}: {self.stats.fps():.1f} fps"))

    def _is_live(self) -> bool:
        return bool(getattr(self._source, "live", False))

    @staticmethod
    def _source_status(ev: SourceEvent) -> SourceStatus:
        state = {"reconnecting": RECONNECTING, "lost": LOST, "ended": ENDED}.get(ev.state, LIVE)
        return SourceStatus(state, ev.message, ev.retry_in)

    def process(self, frame: np.ndarray, t: float, *, read: bool = True) -> np.ndarray | None:
        """One frame through gate, reader and tracker; returns the annotated frame. `read=False`
        (reading is behind): the gate and the arms see the frame, the reader does not."""
        with self._lock:
            if self._calibration is None:
                self.set_calibration(auto_calibrate(frame, self.players))
                log.info("table calibrated automatically: %s", self._calibration.to_dict())
            h, w = frame.shape[:2]
            size = self._calibration.size
            if size is not None and tuple(size) != (w, h):
                # Corners given on a picture of another size (a scaled preview): to this frame.
                self.set_calibration(self._calibration.scaled(w / size[0], h / size[1]))
            if self._gate is None:
                self._gate = MotionGate(self._calibration, self.config.motion)
            motion = self._gate.update(frame, t)
            obs = None
            reuse = False
            if motion.settled and read:
                reuse = (self._last_settled and self._last_obs is not None
                         and t - self._last_read_t < self.config.reread_s)
                if reuse:
                    obs = self._last_obs
                else:
                    obs = self.reader(frame, t)
                    self._last_obs, self._last_read_t = obs, t
                    self.stats.read += 1
                    self.stats.read_ms = getattr(self.reader, "last_ms", 0.0)
            self._last_settled = motion.settled and read
            update = self.tracker.update(t, motion, obs, fresh=not reuse)
            self._add_flags(update.flags)
            for event in update.events:
                self._emit(event, t)
            self.stats.frames += 1
            if not self.config.annotate:
                return None
            committed = {n for n, c in self.tracker.committed.items() if not c.missing}
            missing = {n for n, c in self.tracker.committed.items() if c.missing}
            last = self.tracker.last_observation
            return draw_overlay(
                frame, last, self.tracker.last_names if last is not None else None,
                committed=committed, missing=missing, calibration=self._calibration,
                motion=motion, mode=self.tracker.mode,
            )

    def _emit(self, event: dict, t: float) -> None:
        if event.get("event") == "draw" and self._deal_over():
            # The engine ends a deal on the last tile out or on a fish, and then nobody draws: a
            # draw written with that play is a hand going down for the recount by the pile
            # (fresh deal h150: north's arm laying its hand out, read as a draw after south was out).
            log.info("%s reached the boneyard after the deal ended: not a draw", event.get("player"))
            self.tracker.unwrite_draw(event.get("player"))
            return
        if event.get("event") == "play":
            for skipped in self._circle_of_passes(event):
                log.info("%s plays again: a circle of passes in between (%s)", event["player"],
                         skipped["player"])
                self._emit_one(skipped, t)
        elif event.get("event") == "draw" and self._missed_before(event):
            # BLB-2, DRK-2: a tile is drawn only right after a miss (the turned-up tile did not
            # fit and went back face down): the camera saw the draw, so the miss happened.
            log.info("%s draws: the turned-up tile missed first (a pass)", event["player"])
            self._emit_one({"event": "pass", "player": event["player"]}, t)
        self._emit_one(event, t)

    def _missed_before(self, event: dict) -> bool:
        """Whether the engine takes this draw only after a miss by the drawer (one_after_miss)."""
        return self._record.missed_before(event)

    def _circle_of_passes(self, event: dict) -> list[dict]:
        """Passes to record before a second tile by the same player that cannot belong to the
        same turn (vision.live.record.GameRecord.circle_of_passes)."""
        return self._record.circle_of_passes(event, self.players)

    def _emit_one(self, event: dict, t: float) -> None:
        written = None
        if self._sink is not None:
            try:
                written = self._sink(dict(event))
            except ValueError as exc:
                self._add_flags([LiveFlag("refused", t, f"the journal refused {event}: {exc}",
                                          event.get("tile"), event.get("player"))])
                return
        self._record.append(event)
        self._written[len(self._record.events) - 1] = written
        self.events.append(dict(event))
        # A deal just opened has no tile yet: the engine's last deal is still the one before.
        if event.get("event") != "deal" and self._deal_over():
            self.tracker.start_recount(t)
        if event.get("event") == "reveal":
            self._check_seats(t)

    def _check_seats(self, t: float) -> None:
        """Once every hand of the deal is shown: a move the hands say was another player's is
        corrected in the journal (`GameRecord.seat_swap`), with a flag for the referee to check."""
        swap = self._record.seat_swap(self.tracker.unsure_seats())
        if swap is None:
            return
        i, player = swap
        move = self._record.events[i]
        written = self._written.get(i)
        target = getattr(written, "id", written)
        said = f"the hands shown say {move['tile']} was {player}'s, not {move['player']}'s"
        if target is None or self._sink is None:
            self._add_flags([LiveFlag("seat", t, f"{said}: correct the move on /operator", move["tile"], player)])
            return
        correction = {"event": "correct", "target": target, "player": player}
        try:
            self._sink(dict(correction))
        except ValueError as exc:
            self._add_flags([LiveFlag("refused", t, f"the journal refused {correction}: {exc}", move["tile"], player)])
            return
        log.info("%s: corrected", said)
        self.events.append(correction)
        fixed = [dict(e) for e in self._record.events]
        fixed[i]["player"] = player
        self._record.resume(fixed)
        self.tracker.reassign(move["tile"], player)
        self._add_flags([LiveFlag("seat", t, f"{said}: corrected; check it on /operator", move["tile"], player)])

    # --- the engine's view (vision/live/record.py) -------------------------------------------
    def _to_move(self) -> str | None:
        return self._record.to_move()

    def _may_open(self, tile: str) -> bool:
        """Whether the engine lets `tile` open the current deal (BYK-1.5: with 0-0; BLB-1 ...),
        played by whoever is to move; True where it cannot tell."""
        player = self._to_move() or self.players[0]
        return self._record.may_open(tile, player, need_deal=self.tracker.need_deal)

    def _opens_with_double(self) -> bool:
        return self._record.opens_with_double()

    def _open_ends(self) -> list[tuple[str, int]] | None:
        """The engine's open ends of the current layout (None: the engine refuses the record)."""
        tiles = self._record.layout_tiles()
        if tiles is None or {str(t) for t in tiles} != set(self.tracker.committed):
            return None  # the record and the table differ (a correction pending): no engine view
        return [(str(tile), int(v)) for tile, v in self._record.open_ends()]

    def _deal_over(self) -> bool:
        return self._record.deal_over()


def _rules(game: dict):
    """The game event's rule set, or None where the engine knows no such variant or options."""
    try:
        from engine.rules import ruleset

        return ruleset(game.get("variant", "bykovo"), **(game.get("options") or {}))
    except (ValueError, KeyError, TypeError):
        return None


def _hand_for(rules, game: dict) -> int | None:
    try:
        return rules.hand_for(len(game.get("players") or []))
    except KeyError:  # a player count the variant is not played with
        return None


def _hand_size(game: dict) -> int | None:
    """Tiles in each hand at the recount's start, where no boneyard can change the count."""
    rules = _rules(game)
    return None if rules is None or rules.boneyard else _hand_for(rules, game)


def _boneyard_size(game: dict) -> int | None:
    """Tiles a deal leaves undealt, where they can be drawn (None: no boneyard in this variant)."""
    rules = _rules(game)
    if rules is None or not rules.boneyard:
        return None
    try:
        return rules.undealt(len(game.get("players") or []))
    except KeyError:  # a player count the variant is not played with
        return None


def _rows(game: dict) -> bool:
    """Hands kept as face-down rows and turned up in play (BLB-2, DRK-2)."""
    rules = _rules(game)
    return bool(rules is not None and rules.rows)


def _draw_in_turn(game: dict) -> bool:
    """Only the player to move draws, until a tile fits (TRAD, SPI-1's default)."""
    rules = _rules(game)
    return bool(rules is not None and rules.boneyard and rules.draw == "until_fits")
