"""The pipeline's held engine state (vision/live/record.py) answers move inference as full
replays of the record did, after every event of every record: who moves, the open ends, whether
the deal is over, whether a tile may open, a draw needs a miss, a circle of passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.record import read_record
from engine.replay import replay_events, replay_state
from engine.rules import VARIANTS, ruleset
from engine.simulate import random_game
from engine.tiles import ALL_TILES
from vision.live.record import GameRecord

ROOT = Path(__file__).resolve().parents[2]


# --- the answers as the pipeline computed them before, by replaying the whole record ----------
def replayed(record):
    try:
        return replay_events(record)
    except Exception:
        return None


def ref_deal_over(record):
    state = replayed(record)
    if not state or not state.get("deals"):
        return False
    return state["deals"][-1].get("end") not in (None, "unfinished")


def flags_of(record):
    """The flags of a full replay (with their concepts: one rule ID may hold several)."""
    return replay_state(record)[1]


def ref_may_open(record, tile, player, need_deal):
    try:
        opened = any(e.get("event") == "deal" for e in record) and not need_deal
        rec = record if opened else [*record, {"event": "deal"}]
        found = flags_of([*rec, {"event": "play", "player": player, "tile": tile}])
    except Exception:
        return True
    return not any(f.event == len(rec) and f.concept == "opening" for f in found)


def ref_missed_before(record, event):
    try:
        game = record[0]
        rules = ruleset(game.get("variant", "bykovo"), **(game.get("options") or {}))
        if rules.draw != "one_after_miss":
            return False
        found = flags_of([*record, event])
    except Exception:
        return False
    return any(f.event == len(record) and f.concept == "draw" for f in found)


def ref_circle(record, event, players):
    deal = max((i for i, e in enumerate(record) if e.get("event") == "deal"), default=None)
    if deal is None:
        return []
    last = next((e for e in reversed(record[deal + 1:]) if e.get("event") != "draw"), None)
    if last is None or last.get("event") != "play" or last.get("player") != event["player"]:
        return []
    try:
        seat = players.index(event["player"]) if event["player"] in players else -1
        n = len(players)
        close = {"event": "pass", "player": players[(seat + 1) % n]}
        # a deal this tile ends is closed by the next hand shown, not by a pass (fresh deal h182)
        ended = replay_state([*record, event])[0].deal.end is not None
        shown = {"event": "reveal", "player": close["player"], "tiles": []}
        with_it = flags_of([*record, event, shown if ended else close])
        without = flags_of([*record, close])
    except Exception:
        return []
    if sum(f.concept == "multi" for f in with_it) <= sum(f.concept == "multi" for f in without):
        return []
    return [{"event": "pass", "player": players[(seat + k) % n]} for k in range(1, n)]


def records():
    yield "sample", read_record(ROOT / "dominocam" / "data" / "sample-bykovo.jsonl")
    for i, variant in enumerate(VARIANTS):
        yield f"{variant}-camera", random_game(variant, seed=i, deals=2, camera=True)
        yield variant, random_game(variant, seed=10 + i, deals=2)


def camera_view(record):
    """The record as a camera writes it: hands unknown, tiles drawn unseen."""
    out = []
    for e in record:
        if e["event"] == "deal":
            e = {"event": "deal"}
        elif e["event"] == "draw":
            e = {k: v for k, v in e.items() if k != "tile"}
        out.append(e)
    return out


CASES = [(name, rec) for name, rec in records()] + [("camera-sample", camera_view(next(records())[1]))]


@pytest.mark.parametrize(("name", "record"), CASES, ids=[c[0] for c in CASES])
def test_the_held_state_answers_as_full_replays(name, record):
    players = list(record[0]["players"])
    held = GameRecord(record[:1])
    probes = [str(t) for t in ALL_TILES[::5]]
    for k in range(1, len(record) + 1):
        if k > 1:
            held.append(record[k - 1])
        prefix = record[:k]
        state = replayed(prefix)
        assert held.to_move() == (None if state is None else state["to_move"])
        tiles = held.layout_tiles()
        assert (None if tiles is None else {str(t) for t in tiles}) == (
            None if state is None else {p["tile"] for p in state["layout"]})
        ends = held.open_ends()
        assert (None if ends is None else [[str(t), v] for t, v in ends]) == (
            None if state is None else state["open_ends"])
        assert held.deal_over() == ref_deal_over(prefix)
        if k % 4 and k != len(record):  # the probes replay the record many times: a sample
            continue
        player = held.to_move() or players[0]
        for tile in probes:
            for need_deal in (False, True):
                assert held.may_open(tile, player, need_deal=need_deal) == ref_may_open(prefix, tile, player, need_deal)
        for who in players:
            draw = {"event": "draw", "player": who}
            assert held.missed_before(draw) == ref_missed_before(prefix, draw)
            for tile in probes:
                play = {"event": "play", "player": who, "tile": tile}
                assert held.circle_of_passes(play, players) == ref_circle(prefix, play, players)


def test_resume_replays_and_a_refused_event_leaves_no_engine_view():
    record = read_record(ROOT / "dominocam" / "data" / "sample-bykovo.jsonl")
    held = GameRecord(record[:1])
    held.resume(record[:10])
    assert held.to_move() == replay_events(record[:10])["to_move"]
    held.append({"event": "play", "player": "Zoe", "tile": "0-1"})
    assert held.state is None and held.to_move() is None and held.open_ends() is None
    assert held.may_open("0-0", "Anna", need_deal=False) is True
    assert held.deal_over() is False
    held.resume(record)
    assert held.deal_over() == ref_deal_over(record)


def test_blz3_a_turn_that_goes_out_is_one_turn_not_a_circle_of_passes():
    # BLZ-3: any number of tiles in a row; the last one empties the hand. The pass that would
    # close the turn then raises "passed after the deal ended" under the same rule ID (BLZ-3 is
    # also going out), which is not a second turn: no passes are invented before it.
    players = ["Anna", "Boris", "Vera", "Gleb"]
    record = [{"event": "game", "variant": "blitz", "players": players, "options": {}}, {"event": "deal"}]
    chain = ["0-0", "0-1", "1-1", "1-2", "2-2", "2-3", "3-3"]
    for i, tile in enumerate(chain):
        play = {"event": "play", "player": "Anna", "tile": tile}
        if i:
            play["to"] = chain[i - 1]
        assert GameRecord(record).circle_of_passes(play, players) == [], tile
        record.append(play)
    assert GameRecord(record).deal_over()
    # In Bykovo (BYK-1.6, one tile a turn) the same second tile means everyone passed between.
    byk = [{"event": "game", "variant": "bykovo", "players": players, "options": {}}, {"event": "deal"},
           {"event": "play", "player": "Anna", "tile": "1-1"}]
    circle = GameRecord(byk).circle_of_passes({"event": "play", "player": "Anna", "tile": "1-2", "to": "1-1"}, players)
    assert [e["player"] for e in circle] == ["Boris", "Vera", "Gleb"]


def test_blb3_a_second_tile_that_ends_the_deal_in_a_fish_is_a_turn_of_its_own():
    # Fresh deal h182 (BLB): Boris laid 6-6, Anna passed unseen, Boris laid 2-6 and the deal was a
    # fish. The pass that closes a turn is refused once the deal is over, so the second tile looked
    # like one turn of two, flagged BLB-3 when the hands were shown. The next hand shown closes it.
    players = ["Anna", "Boris"]
    record = [{"event": "game", "variant": "blitz-blind", "players": players, "options": {}}, {"event": "deal"}]
    for player, tile, to in [("Anna", "0-1", None), ("Boris", "1-2", "0-1"), ("Anna", "2-0", "1-2"),
                             ("Boris", "0-3", "0-1"), ("Anna", "3-4", "0-3"), ("Boris", "4-0", "3-4"),
                             ("Anna", "0-5", "2-0"), ("Boris", "5-6", "0-5"), ("Anna", "6-0", "5-6")]:
        record.append({"event": "play", "player": player, "tile": tile, **({"to": to} if to else {})})
    fish = {"event": "play", "player": "Anna", "tile": "0-0", "to": "6-0"}  # every 0 out, both ends 0
    assert GameRecord(record).circle_of_passes(fish, players) == [{"event": "pass", "player": "Boris"}]


def test_spi2_trad_the_first_deal_opens_with_a_double_where_a_double_is_named():
    def opens(variant, players=("Anna", "Boris")):
        game = {"event": "game", "variant": variant, "players": list(players), "options": {}}
        return GameRecord([game, {"event": "deal"}]).opens_with_double()

    assert opens("spider")  # SPI-2: 1-1, else the lowest double dealt
    assert opens("traditional")  # the first deal: the 1-1's holder
    assert opens("sevastopol", ("Anna", "Boris", "Vera", "Gleb"))  # SEV-1: 6-6
    assert not opens("blitz", ("Anna", "Boris", "Vera", "Gleb"))  # BLZ-2: 0-0 or the tile nearest it by pips
    assert not opens("dark")  # DRK-1: the opener by lot turns up any tile


def _mis_seated(seed: int = 35):
    """A rendered Bykovo deal's record with Gleb's second play written as Boris's, as when his arm
    went unseen and turn order gave it to the seat before (fresh deal h139)."""
    from vision.live.schematic import deal_steps

    players = ["Anna", "Boris", "Vera", "Gleb"]
    game = {"event": "game", "variant": "bykovo", "players": players, "options": {}}
    sc = deal_steps(seed, players=players)
    plays = [dict(p) for p in sc.plays]
    assert plays[2]["player"] == "Gleb" and plays[1]["player"] != "Boris" != plays[3]["player"]
    plays[2]["player"] = "Boris"
    return [game, {"event": "deal"}, *plays, *sc.reveals], plays[2]["tile"], [game, {"event": "deal"}, *sc.plays, *sc.reveals]


def test_the_hands_shown_correct_a_move_whose_seat_no_arm_witnessed():
    record, tile, true = _mis_seated()
    rec = GameRecord(record)
    assert rec.seat_swap({tile}) == (4, "Gleb")  # event 4: the deal's third play, Gleb's
    # never a move an arm or a row witnessed: any of Boris's plays would leave the hands as shown
    assert rec.seat_swap(set()) is None
    # and nothing where the hands are as the record says
    assert GameRecord(true).seat_swap({tile}) is None
