"""The demo source: without a rendered video it plays a schematic deal in a loop, and the moves
it infers are the deal's moves, deal after deal."""

from __future__ import annotations

import itertools

from vision.live.demo import DEMO_PLAYERS, DEMO_SEED, demo_pipeline, find_video
from vision.live.pipeline import LiveConfig
from vision.live.schematic import deal_steps


def test_without_a_video_the_demo_loops_a_schematic_deal(tmp_path):
    assert find_video(tmp_path) is None
    pipe = demo_pipeline(LiveConfig(realtime=False, annotate=False), cache=tmp_path, render=False,
                         schematic_scale=0.3)
    assert pipe.game_event()["players"] == DEMO_PLAYERS
    got: list[dict] = []
    pipe.on_events(got.append)
    pipe.resume([pipe.game_event(), {"event": "deal"}])
    sc = deal_steps(DEMO_SEED, DEMO_PLAYERS)
    # One pass and a half: the loop's jump back to the start clears the table, a new deal opens.
    n = len(sc.steps) * 13 // 10
    for _ in itertools.islice(pipe.frames(), n):
        pass
    pipe.close()
    cut = got.index({"event": "deal"})
    first, rest = got[:cut], got[cut + 1:]
    # Passes are invisible: the pipeline writes a circle of them where a player plays again
    # (BYK-1.6, one tile a turn); what the camera saw are the plays and the hands.
    assert [e for e in first if e["event"] != "pass"] == sc.plays + sc.reveals
    assert [e for e in rest if e["event"] == "play"] == sc.plays[: len(
        [e for e in rest if e["event"] == "play"])]
    assert len([e for e in rest if e["event"] == "play"]) > 5
