"""Each deal played live at the table feeds the active Bykovo micro-tournament (BYK-1.12, BYK-2.5).

Called by the hub after every accepted journal event (camera or operator). The newest event in
the tournament folder is the active one when it is an unfinished `bykovo-micro`. A finished deal
is appended once: its result line carries a `live` tag (deal number + a digest of the game and
deal events), and a tag already in the record is never written again, also after a restart.
Seated players that are not the four the tournament calls next are left to the operator.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from engine.replay import replay_events
from engine.tournament import TournamentError, store
from engine.tournament.live import bykovo_result
from engine.tournament.records import read_lines

log = logging.getLogger(__name__)


def _active_event(folder: Path) -> Path | None:
    files = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.is_dir() else []
    return files[0] if files else None


def _tag(record: list[dict[str, Any]], number: int) -> dict[str, Any]:
    """Names one deal of one game: the game event and the deal's own `deal` event, hashed."""
    deal_events = [e for e in record if e.get("event") == "deal"]
    game = next((e for e in record if e.get("event") == "game"), {})
    seen = deal_events[number - 1] if 0 < number <= len(deal_events) else {}
    text = json.dumps([game, seen], sort_keys=True, ensure_ascii=False)
    return {"deal": number, "game": hashlib.sha1(text.encode()).hexdigest()[:12]}


def feed(folder: Path, record: list[dict[str, Any]], warned: set[str] | None = None) -> dict | None:
    """Append the last finished deal of `record` to the active event; return the line written."""
    path = _active_event(folder)
    if path is None or not record:
        return None
    try:
        lines = read_lines(path)
        if lines[0][1].get("format") != "bykovo-micro":
            return None
        state = store.load(path).to_json()
    except TournamentError as exc:
        log.warning("live deal not fed to %s: %s", path.name, exc)
        return None
    if state.get("finished"):
        return None
    try:
        deals = [d for d in replay_events(record).get("deals", []) if d.get("end") not in (None, "unfinished")]
    except ValueError:
        return None
    if not deals:
        return None
    deal = deals[-1]
    tag = _tag(record, deal.get("number", len(deals)))
    if any(rec.get("live") == tag for _, rec in lines[1:]):
        return None  # already fed (this run or before a restart)
    key = f"{path.name}:{tag['game']}:{tag['deal']}"
    try:
        line = bykovo_result(deal)
    except TournamentError as exc:
        if warned is None or key not in warned:
            log.warning("live deal not fed to %s yet: %s", path.name, exc)
        if warned is not None:
            warned.add(key)
        return None
    if set(line["places"]) != set(state.get("next_seated") or []):
        if warned is None or key not in warned:
            log.warning("live deal %s seated %s but %s plays %s next; enter its result on /operator/tournament",
                        tag["deal"], sorted(line["places"]), path.stem, state.get("next_seated"))
        if warned is not None:
            warned.add(key)
        return None
    line["live"] = tag
    try:
        store.append(path, line)
    except TournamentError as exc:
        log.warning("live deal %s refused by %s: %s", tag["deal"], path.name, exc)
        return None
    log.info("live deal %s fed to tournament %s", tag["deal"], path.stem)
    return line


def listener(folder: Path):
    """A hub listener (callback(record)) that feeds `folder`'s active event; never raises."""
    warned: set[str] = set()

    def on_change(record: list[dict[str, Any]]) -> None:
        try:
            feed(folder, record, warned)
        except Exception:
            log.exception("feeding the live deal to the tournament failed")

    return on_change
