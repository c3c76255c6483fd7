"""The demo plays deal after deal (issue 24): three different deals in a row, the table cleared
between them, each deal's record its own, never a finished deal replayed onto the next."""

from __future__ import annotations

import itertools

import pytest

from lab.live.evaluate import check
from vision.live.demo import (
    CACHE,
    DEMO_DEALS,
    DEMO_PLAYERS,
    demo_pipeline,
    find_video,
    find_videos,
    playlist_pipeline,
    render_videos,
    schematic_deals,
)
from vision.live.motion import SETTLED
from vision.live.observation import Observation
from vision.live.pipeline import LiveConfig
from vision.live.schematic import SIZE, calibration
from vision.live.tracker import PLAY, REVEALED, Tracker


def by_deal(events: list[dict]) -> list[list[dict]]:
    """The events of each deal (the first deal's `deal` event was given by resume)."""
    out: list[list[dict]] = [[]]
    for e in events:
        if e == {"event": "deal"}:
            out.append([])
        else:
            out[-1].append(e)
    return out


def test_without_a_video_the_demo_plays_three_different_deals_in_a_row(tmp_path):
    assert find_video(tmp_path) is None
    pipe = demo_pipeline(LiveConfig(realtime=False, annotate=False), cache=tmp_path, render=False,
                         schematic_scale=0.3)
    assert pipe.game_event()["players"] == DEMO_PLAYERS
    got: list[dict] = []
    pipe.on_events(got.append)
    pipe.resume([pipe.game_event(), {"event": "deal"}])
    deals = schematic_deals()
    assert len(deals) == DEMO_DEALS == 3
    assert len({tuple(e["tile"] for e in d.plays) for d in deals}) == 3  # three different deals
    n = sum(len(d.steps) + 20 for d in deals) + len(deals[0].steps) // 2  # and into the fourth
    for _ in itertools.islice(pipe.frames(), n):
        pass
    pipe.close()
    records = by_deal(got)
    assert len(records) == 4
    # Passes are invisible: the pipeline writes a circle of them where a player plays again
    # (BYK-1.6, one tile a turn); what the camera saw are the plays and the hands.
    for record, deal in zip(records, deals, strict=False):
        assert [e for e in record if e["event"] != "pass"] == deal.plays + deal.reveals
    # After the last deal the first is played again as a new deal, from a cleared table.
    again = [e for e in records[3] if e["event"] == "play"]
    assert len(again) > 5 and again == deals[0].plays[:len(again)]
    assert pipe.flags() == []


def test_the_referees_next_deal_waits_for_the_table_to_be_cleared():
    """The operator opens the next deal while the last one still lies on the table: its tiles
    are not the new deal's moves (they were replayed onto it, BYK-1.9 flags by the dozen); the
    next deal's tiles are, once the table was cleared, with no second `deal` event."""
    first, second = schematic_deals(2)
    players = list(DEMO_PLAYERS)
    game = {"event": "game", "variant": "bykovo", "players": players, "options": {}}
    tr = Tracker(players, calibration(players))
    tr.resume([game, {"event": "deal"}])  # as the web side does at start
    events: list[dict] = []
    steps = [s for s in first.steps if s[2] is None or all(
        t.face == "down" for t in s[2].tiles if t.owner != "layout")]  # play only, no recount
    for t, m, o in steps:
        events += tr.update(t, m, o).events
    assert [e for e in events if e["event"] == "play"] == first.plays
    tr.resume([game, {"event": "deal"}, *events, {"event": "deal"}])
    t = steps[-1][0]
    later: list[dict] = []
    layout = next(o for _, _, o in reversed(steps) if o is not None)
    for k in range(30):  # the old layout stays a while
        later += tr.update(t + 0.1 * (k + 1), SETTLED, layout).events
    assert later == [] and tr.mode == REVEALED
    for k in range(10):  # cleared
        tr.update(t + 3.1 + 0.1 * k, SETTLED, Observation((), (), SIZE))
    assert tr.mode == PLAY
    t0 = t + 5.0
    for ts, m, o in second.steps:
        later += tr.update(t0 + ts, m, o).events
    assert [e for e in later if e["event"] == "play"] == second.plays
    assert {"event": "deal"} not in later


@pytest.mark.slow
def test_the_demo_plays_three_rendered_deals_each_exact():
    """`make demo`'s three rendered deals (rendered once into datasets/cache/demo), one after
    another as the demo plays them, read by the renderer's truth: each deal exact (every play,
    attachment, seat, hand and the engine's points), each opened on a cleared table."""
    videos = find_videos(CACHE)
    if len(videos) < DEMO_DEALS:
        videos = render_videos(CACHE)
    assert len(videos) == DEMO_DEALS
    pipe = playlist_pipeline(videos, "truth", LiveConfig(realtime=False, annotate=False), loop=False)
    got: list[dict] = []
    pipe.on_events(got.append)
    pipe.resume([videos[0].record[0], {"event": "deal"}])
    for _ in pipe.frames():
        pass
    records = by_deal(got)
    assert len(records) == DEMO_DEALS
    for video, record in zip(videos, records, strict=True):
        result = check(video, record)
        assert result.exact, (video.folder.name, result.differences)
    assert pipe.flags() == []
