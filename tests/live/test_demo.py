"""The demo source: without a rendered video it plays a schematic deal in a loop, and the moves
it infers are the deal's moves, deal after deal."""

from __future__ import annotations

import itertools

from vision.live.demo import DEMO_PLAYERS, DEMO_SEED, demo_pipeline, find_video
from vision.live.pipeline import LiveConfig
from vision.live.schematic import deal_steps


def test_without_a_video_the_demo_loops_a_schematic_deal(tmp_path):
    assert find_video(tmp_path) is None
    pipe = demo_pipeline(LiveConfig(realtime=False, annotate=False), cache=tmp_path, render=False)
    assert pipe.game_event()["players"] == DEMO_PLAYERS
    got: list[dict] = []
    pipe.on_events(got.append)
    pipe.resume([pipe.game_event(), {"event": "deal"}])
    sc = deal_steps(DEMO_SEED, DEMO_PLAYERS)
    # One pass and a half: the loop's jump back to the start clears the table, a new deal opens.
    n = len(sc.steps) * 3 // 2
    for _ in itertools.islice(pipe.frames(), n):
        pass
    pipe.close()
    first = got[: len(sc.plays) + len(sc.reveals)]
    assert first == sc.plays + sc.reveals
    rest = got[len(first):]
    assert rest[0] == {"event": "deal"}
    assert rest[1:] == sc.plays[: len(rest) - 1]
