"""Whole rendered deals (vision/synth videos): the pipeline watches the frames and the game record
it infers is the true one: every move, what it was laid against, who laid it, the hands at the
recount, and the engine's scores. The motion gate always sees the pixels; the reader is either
the renderer's per-frame truth, or the real pip reader and layout on the pixels fed the
renderer's tile boxes with detector-like errors (everything but the detector).

The videos are rendered once into datasets/cache/live-tests/ (under a minute each here) and
reused by later runs.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from engine.replay import replay_events
from vision.live.demo import demo_pipeline, find_video, reader_for
from vision.live.pipeline import LiveConfig

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "datasets" / "cache" / "live-tests"
# (seed, video index, size, the variant the renderer draws for it): a four-player game where any
# pass is allowed (bykovo), large enough to count pips on; a pairs game with forced passes
# (sport) at 320x240, small to render quickly.
VIDEOS = [(7, 0, (640, 480), "bykovo"), (11, 2, (320, 240), "sport")]


def rendered(seed: int, index: int, size: tuple[int, int], variant: str | None = None,
             framed: bool = False) -> Path:
    root = CACHE / f"s{seed}_{index}_{size[0]}{'_' + variant if variant else ''}{'_framed' if framed else ''}"
    if find_video(root) is None:
        from vision.synth.video import render_video, video_rng

        render_video(root / "videos" / f"deal_s{seed}_{index:03d}", video_rng(seed, index),
                     size, 10, variant=variant, progress=False, framed=framed)
    return root


def watch(root: Path, pixels: bool = False, reader: str = "truth"):
    video = find_video(root)
    assert video is not None
    pipe = demo_pipeline(LiveConfig(realtime=False, annotate=False), cache=root, render=False)
    pipe.reader = reader_for(video, "boxes" if pixels else reader)
    got: list[dict] = []
    pipe.on_events(got.append)
    pipe.resume([video.record[0], {"event": "deal"}])
    frames = len(list(video.frames.glob("*.jpg")))
    for _ in itertools.islice(pipe.frames(), frames):
        pass
    pipe.close()
    return video, got, pipe


def check_record(video, got, pipe) -> None:
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


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "index", "size", "variant"), VIDEOS)
def test_a_rendered_deal_is_inferred_move_for_move(seed, index, size, variant):
    video, got, pipe = watch(rendered(seed, index, size))
    assert video.record[0]["variant"] == variant
    check_record(video, got, pipe)


@pytest.mark.slow
def test_read_from_the_pixels_a_rendered_deal_is_inferred_move_for_move():
    seed, index, size, _ = VIDEOS[0]
    video, got, pipe = watch(rendered(seed, index, size), pixels=True)
    check_record(video, got, pipe)


@pytest.mark.slow
def test_the_demo_deal_read_by_the_detector_is_inferred_move_for_move():
    """`make demo`'s own deal (seed 7, 960x720, as vision.live.demo renders it) through the real
    reading path: detector, pip reader and layout on the pixels, no truth at all."""
    video, got, pipe = watch(rendered(7, 0, (960, 720)), reader="model")
    assert video.record[0]["variant"] == "bykovo"
    check_record(video, got, pipe)


@pytest.mark.slow
def test_draws_from_the_boneyard_are_seen_and_the_record_is_the_true_one():
    """A two-player traditional deal with a boneyard (TRAD: draw until a tile fits): 7 tiles are
    drawn, four of them one after another by the same player. Each draw is written for the player
    who drew, in its place among the plays, and the scores are the engine's from the true record."""
    from lab.live.evaluate import check, moves_of, watch

    video = find_video(rendered(44, 0, (640, 480), "traditional"))
    assert video is not None
    true_draws = [e for e in video.record if e["event"] == "draw"]
    assert len(true_draws) == 7 and video.record[0]["variant"] == "traditional"
    got, pipe = watch(video)
    assert [m for m in moves_of(got) if m["event"] == "draw"] == moves_of(true_draws)
    result = check(video, got, pipe.flags())
    assert result.moves_equal, result.differences
    assert result.hands_equal and result.scores_equal and result.flags == [], result.differences
    assert result.exact


@pytest.mark.slow
@pytest.mark.parametrize("framed", [False, True])
def test_draws_are_seen_when_the_detector_reads_the_frames(framed):
    """The same deal through the detector, the pip reader and the layout: the reader gives the
    boneyard's tiles to the seats like the hands (it knows no boneyard), the tracker finds the heap
    among them (vision/live/pile.py) and sees the seven draws, each in its place. Framed (rows and
    pile fitted into the picture), the pile lies by the chain's crosswise double, one of its
    backs is read as the layout's, and an exposure flicker lights the cloth along the left edge,
    where nobody sits: still no draw nobody made."""
    from lab.live.evaluate import check, moves_of, watch

    video = find_video(rendered(44, 0, (640, 480), "traditional", framed))
    assert video is not None
    got, pipe = watch(video, "model")
    true_draws = [e for e in video.record if e["event"] == "draw"]
    assert [m for m in moves_of(got) if m["event"] == "draw"] == moves_of(true_draws)
    result = check(video, got, pipe.flags())
    assert result.exact, result.differences


@pytest.mark.slow
def test_a_slow_machine_reads_fewer_frames_and_the_same_ones_every_time():
    """lab/live/slow.py: paced on a simulated machine whose reading takes 200 ms (a frame every
    100 ms), reading falls behind and frames go unread, and the run repeats: the same seed reads
    the same frames and writes the same record; the boneyard deal's draws still come out right."""
    from lab.live.evaluate import check, watch
    from lab.live.slow import SlowMachine

    video = find_video(rendered(44, 0, (640, 480), "traditional"))
    assert video is not None
    runs = []
    for _ in range(2):
        got, pipe = watch(video, slow=SlowMachine(200, seed=3))
        runs.append((got, pipe.stats.read, pipe.stats.skipped))
    idle_got, idle = watch(video)
    assert runs[0] == runs[1]
    assert runs[0][2] > 0 and idle.stats.skipped == 0
    result = check(video, runs[0][0], pipe.flags())
    assert result.exact, result.differences
