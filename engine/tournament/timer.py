"""The sport move timer (SPT-9) as pure functions of timestamps, so any page can show it.

A turn starts at `started_at` (seconds, any epoch); at `now` the player has `remaining` seconds.
When the limit runs out the timer is `expired` and `alert` tells the page to call the referee.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

DEFAULT_MOVE_SECONDS = 15.0  # SPT-9, unless the event sets another limit


@dataclass(frozen=True)
class MoveTimer:
    started_at: float
    now: float
    limit: float
    elapsed: float
    remaining: float
    expired: bool
    alert: bool  # SPT-9: the referee is alerted once the limit runs out

    def to_json(self) -> dict:
        return asdict(self)


def move_timer(started_at: float, now: float, limit: float = DEFAULT_MOVE_SECONDS) -> MoveTimer:
    """Timer state at `now`. A clock that reads earlier than the start counts as no time elapsed."""
    if limit <= 0:
        raise ValueError(f"the move limit must be positive, got {limit}")
    elapsed = max(0.0, float(now) - float(started_at))
    remaining = max(0.0, limit - elapsed)
    expired = elapsed >= limit
    return MoveTimer(
        started_at=float(started_at),
        now=float(now),
        limit=float(limit),
        elapsed=round(elapsed, 3),
        remaining=round(remaining, 3),
        expired=expired,
        alert=expired,
    )


def expires_at(started_at: float, limit: float = DEFAULT_MOVE_SECONDS) -> float:
    """The moment the referee alert fires; a page can count down to it without asking again."""
    return float(started_at) + float(limit)
