"""Whole rendered deals (vision/synth videos): the pipeline watches the frames (the motion gate
sees the pixels, the reader is the renderer's per-frame truth) and the game record it infers is
the true one: every move, what it was laid against, who laid it, the hands at the recount, and
the engine's scores.

The videos are rendered once into datasets/cache/live-tests/ (about half a minute each here) and
reused by later runs.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from engine.replay import replay_events
from vision.live.demo import demo_pipeline, find_video
from vision.live.pipeline import LiveConfig

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "datasets" / "cache" / "live-tests"
# (seed, variant the renderer draws for it): chosen to cover a cross-free two-arm game with
# passes allowed (bykovo) and a pairs game with forced passes (sport).
VIDEOS = [(7, "bykovo"), (8, "sport")]


def rendered(seed: int) -> Path:
    root = CACHE / f"s{seed}"
    if find_video(root) is None:
        from vision.synth.video import write_videos

        write_videos(root, 1, seed, (480, 360), 10)
    return root


def watch(root: Path):
    video = find_video(root)
    assert video is not None
    pipe = demo_pipeline(LiveConfig(realtime=False, annotate=False), cache=root, render=False)
    got: list[dict] = []
    pipe.on_events(got.append)
    pipe.resume([video.record[0], {"event": "deal"}])
    frames = len(list(video.frames.glob("*.jpg")))
    for _ in itertools.islice(pipe.frames(), frames):
        pass
    pipe.close()
    return video, got, pipe


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "variant"), VIDEOS)
def test_a_rendered_deal_is_inferred_move_for_move(seed, variant):
    video, got, pipe = watch(rendered(seed))
    assert video.record[0]["variant"] == variant
    truth = [e for e in video.record if e["event"] == "play"]
    assert [e for e in got if e["event"] == "play"] == truth
    hands = {e["player"]: sorted(e["tiles"]) for e in video.record if e["event"] == "reveal"}
    assert {e["player"]: sorted(e["tiles"]) for e in got if e["event"] == "reveal"} == hands
    inferred = replay_events([video.record[0], {"event": "deal"}, *got])
    true = replay_events(video.record)
    for key in ("winner", "end", "pips", "points", "places"):
        assert inferred["deals"][0][key] == true["deals"][0][key], key
    assert inferred["totals"] == true["totals"]
    assert inferred["flags"] == true["flags"] == []
    assert pipe.flags() == []
