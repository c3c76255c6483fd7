"""How well the live pipeline infers whole rendered deals (vision/synth videos).

    python -m lab.live.evaluate FOLDER... [--reader truth|boxes|model] [--realtime] [--json]

Each FOLDER is a rendered video (frames/, record.jsonl, moves.json, truth/) or a folder holding
such videos (`videos/*` or sub-folders). The pipeline watches the frames as a camera would (the
motion gate on the pixels, no pacing), reading with the renderer's per-frame truth (`truth`, the
demo's default) or with the pip reader on the pixels fed the renderer's boxes (`boxes`), and its
game record is compared with the true one:

- moves: every play (tile, `to`, face, player) and every draw (player; a drawn tile lies face
  down, so the camera cannot name it), in order;
- hands: what each player revealed at the recount;
- scores: the deal's end, winner, pips, points and places, and the totals, as the engine gives
  them from either record; and the engine's flags (a random legal deal has none).

A deal is exact when all of these agree. Also counted: plays invented (a tile the deal never
saw played), passes written against the true ones, tiles left to the operator to confirm.
`--realtime` paces the frames as a camera would (reading skipped while behind, the motion kept), so
the CPU's load can change what is read: run it once idle and once with a core kept busy.
`--slow MS` paces on a simulated machine instead (lab/live/slow.py: a reading costs MS ms), so a
paced run repeats, with any reader, and `--seed` varies the moments reading falls behind. Prints a
line per deal and a tally (or JSON).
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from lab.live.slow import SlowMachine
from vision.live.demo import DemoVideo, load_video, reader_for, video_pipeline
from vision.live.pipeline import LiveConfig, LivePipeline
from vision.live.readers import ReaderUnavailable

log = logging.getLogger(__name__)

SCORES = ("end", "winner", "pips", "points", "places")


@dataclass
class DealCheck:
    name: str
    variant: str
    moves: int  # plays and draws in the true record
    draws: int
    moves_right: int  # same move at the same position
    moves_equal: bool
    hands_equal: bool
    scores_equal: bool
    flags: list[str] = field(default_factory=list)  # engine flags of the inferred record
    live_flags: list[str] = field(default_factory=list)  # pipeline flags (take-backs ...)
    differences: list[str] = field(default_factory=list)
    invented: int = 0  # plays of tiles the true deal never played (or played twice)
    passes: int = 0  # passes written
    true_passes: int = 0
    to_confirm: int = 0  # tiles left to the operator
    # The passes the engine holds (entered, or inferred from a later play out of turn) up to the
    # deal's last play, seat and open ends, equal the true deal's: the passes the table shows.
    passes_equal: bool = True

    @property
    def exact(self) -> bool:
        return self.moves_equal and self.hands_equal and self.scores_equal and not self.flags

    def line(self) -> str:
        return (f"{self.name:28s} {self.variant:12s} moves {self.moves_right}/{self.moves} "
                f"(draws {self.draws}) hands {'ok' if self.hands_equal else 'WRONG'} "
                f"scores {'ok' if self.scores_equal else 'WRONG'} engine flags {len(self.flags)} "
                f"live flags {len(self.live_flags)} invented {self.invented} passes "
                f"{self.passes}/{self.true_passes} ({'ok' if self.passes_equal else 'WRONG'}) to confirm {self.to_confirm} -> "
                f"{'exact' if self.exact else 'NOT exact'}")


def videos_under(paths: list[Path]) -> list[DemoVideo]:
    """Every complete rendered video at or under the given folders, in name order."""
    out = []
    for path in paths:
        video = load_video(path)
        if video is not None:
            out.append(video)
            continue
        subs = sorted((path / "videos").glob("*")) if (path / "videos").is_dir() else sorted(path.glob("*"))
        found = [v for v in (load_video(p) for p in subs if p.is_dir()) if v is not None]
        if not found:
            raise FileNotFoundError(f"no rendered video (frames/, record.jsonl, moves.json) at or under {path}: "
                                    "render some with `dominocam synth --videos N`")
        out.extend(found)
    return out


def moves_of(events: list[dict]) -> list[dict]:
    """The plays and draws of a record as the camera can know them (a draw's tile is unseen)."""
    out = []
    for e in events:
        if e.get("event") == "play":
            move = {"event": "play", "player": e["player"], "tile": e["tile"]}
            if e.get("to"):
                move["to"] = e["to"]
            if e.get("face", "up") != "up":
                move["face"] = e["face"]
            out.append(move)
        elif e.get("event") == "draw":
            out.append({"event": "draw", "player": e["player"]})
    return out


def _hands(events: list[dict]) -> dict[str, list[str]]:
    return {e["player"]: sorted(e["tiles"]) for e in events if e.get("event") == "reveal"}


def invented(got: list[dict], true: list[dict]) -> int:
    """Plays of tiles the true record does not play, or plays a tile more often than it does."""
    left = [e["tile"] for e in true if e.get("event") == "play"]
    extra = 0
    for e in got:
        if e.get("event") == "play":
            if e["tile"] in left:
                left.remove(e["tile"])
            else:
                extra += 1
    return extra


def shown_passes(events: list[dict]) -> list[tuple[int, tuple[int, ...]]]:
    """The passes of a one-deal record as the engine holds them (entered, or inferred from a later
    play out of turn), as (seat, open ends), up to the deal's last play (a pass after it, the
    table blocked, the deal over, no play shows)."""
    from engine.replay import replay_state

    deal = replay_state(events)[0].deal
    last = max((i for i, e in enumerate(events) if e.get("event") == "play"), default=-1)
    return [] if deal is None else [(p.seat, tuple(sorted(p.ends))) for p in deal.passes if p.event <= last]


def _within(part: list, whole: list) -> bool:
    """Whether `part` is `whole` with some items left out, the rest in the same order."""
    rest = iter(whole)
    return all(any(x == y for y in rest) for x in part)


def passes_right(record: list[dict], got: list[dict]) -> tuple[bool, str]:
    """Whether the passes the engine holds after the events `got` (the pipeline's, after the
    record's game event) are those the table shows: at least the ones it infers from the true
    plays and draws alone (a player skipped between two movers), at most the true ones (a circle
    written where one tile a turn is the rule is one; a pass no later play reveals, or a second
    circle, no camera can see). With the reason when not."""
    mine = shown_passes([record[0], {"event": "deal"}, *got])
    least = shown_passes([e for e in record if e.get("event") != "pass"])
    most = shown_passes(record)
    if _within(least, mine) and _within(mine, most):
        return True, ""
    return False, f"passes shown by the table: got {mine}, at least {least}, at most {most}"


def check(video: DemoVideo, got: list[dict], live_flags: list[dict] | None = None,
          to_confirm: int = 0) -> DealCheck:
    """Compare the events the pipeline wrote for a one-deal video with the true record."""
    from engine.replay import replay_events

    true_moves, my_moves = moves_of(video.record), moves_of(got)
    diffs = [f"move {k}: got {a}, true {b}" for k, (a, b) in
             enumerate(itertools.zip_longest(my_moves, true_moves)) if a != b]
    inferred = replay_events([video.record[0], {"event": "deal"}, *got])
    true = replay_events(video.record)
    scores_equal = bool(inferred["deals"]) and inferred["totals"] == true["totals"] and all(
        inferred["deals"][0].get(k) == true["deals"][0].get(k) for k in SCORES)
    if not scores_equal:
        diffs.append(f"scores: got {[inferred['deals'][0].get(k) for k in SCORES] if inferred['deals'] else None}, "
                     f"true {[true['deals'][0].get(k) for k in SCORES]}")
    passes_equal, passes_diff = passes_right(video.record, got)
    if not passes_equal:
        diffs.append(passes_diff)
    hands_equal = _hands(got) == _hands(video.record)
    if not hands_equal:
        diffs.append(f"hands: got {_hands(got)}, true {_hands(video.record)}")
    true_flags = [f"{f['rule']}: {f['message']}" for f in true["flags"]]
    flags = [f"{f['rule']}: {f['message']}" for f in inferred["flags"] if f"{f['rule']}: {f['message']}" not in true_flags]
    return DealCheck(
        name=video.folder.name, variant=video.record[0].get("variant", "?"),
        moves=len(true_moves), draws=sum(m["event"] == "draw" for m in true_moves),
        moves_right=sum(a == b for a, b in zip(my_moves, true_moves, strict=False)),
        moves_equal=my_moves == true_moves, hands_equal=hands_equal, scores_equal=scores_equal,
        flags=flags, live_flags=[f"{f['kind']}: {f['message']}" for f in live_flags or []],
        differences=diffs[:12], invented=invented(got, video.record),
        passes=sum(e.get("event") == "pass" for e in got),
        true_passes=sum(e.get("event") == "pass" for e in video.record), to_confirm=to_confirm,
        passes_equal=passes_equal,
    )


def watch(video: DemoVideo, reader: str = "truth", config: LiveConfig | None = None,
          hold_s: float = 3.0, model: Path | None = None,
          realtime: bool = False, slow: SlowMachine | None = None) -> tuple[list[dict], LivePipeline]:
    """Play a video once through the pipeline (no pacing; `realtime`: paced on this machine's
    clock; `slow`: paced on that machine's), then its last picture for `hold_s`; the events it
    wrote and the pipeline."""
    read = reader_for(video, reader, model)
    pacing = {}
    if slow is not None:
        read, realtime = slow.reading(read), True
        pacing = {"clock": slow.clock, "sleep": slow.sleep}
    pipe = video_pipeline(video, read, config or LiveConfig(realtime=realtime, annotate=False),
                          loop=False, **pacing)
    got: list[dict] = []

    def journal(event: dict) -> int:  # as the web's journal: each entry gets an id to correct it by
        got.append(event)
        return len(got) - 1

    pipe.on_events(journal)
    pipe.resume([video.record[0], {"event": "deal"}])
    for _ in pipe.frames():
        pass
    # The table stays in view after the render ends: a camera keeps seeing the last picture
    # (the recount may still be reading the hands laid out just before).
    files = sorted(video.frames.glob("*.jpg"))
    if files and hold_s > 0:
        import cv2

        last = cv2.imread(str(files[-1]))
        end_t = (len(files) - 1) / video.fps
        read = pipe.reader
        pipe.reader = lambda frame, t: read(frame, end_t)  # the last picture's reading, too
        for k in range(1, round(hold_s * video.fps) + 1):
            pipe.process(last, end_t + k / video.fps)
    pipe.close()
    return corrected(got), pipe


def corrected(events: list[dict]) -> list[dict]:
    """The events with each `correct` (target: an index into `events`) applied, as the journal
    applies them, and dropped."""
    out = [dict(e) for e in events]
    for e in events:
        if e.get("event") == "correct":
            out[e["target"]].update({k: v for k, v in e.items() if k not in ("event", "target")})
    return [e for e in out if e.get("event") != "correct"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.live.evaluate", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="rendered videos or folders of them")
    parser.add_argument("--reader", choices=("truth", "boxes", "model"), default="truth",
                        help="truth: the renderer's; boxes: pip reader on truth boxes; model: the detector too")
    parser.add_argument("--model", type=Path, default=None, help="with --reader model: detector ONNX file")
    parser.add_argument("--realtime", action="store_true",
                        help="pace the frames as a camera (10 fps): reading skipped while behind")
    parser.add_argument("--slow", type=float, default=None, metavar="MS",
                        help="pace on a simulated machine whose reading takes MS ms (± 30 %%): "
                             "repeatable, unlike --realtime")
    parser.add_argument("--seed", type=int, default=0, help="with --slow: the jitter's seed")
    parser.add_argument("--json", action="store_true", help="one JSON object per deal, then the tally")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the differences")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        videos = videos_under(args.folders)
    except FileNotFoundError as exc:
        log.error("%s", exc)
        return 2
    checks = []
    for video in videos:
        try:
            slow = None if args.slow is None else SlowMachine(args.slow, seed=args.seed)
            got, pipe = watch(video, args.reader, model=args.model, realtime=args.realtime, slow=slow)
        except ReaderUnavailable as exc:  # no model file, or no per-frame truth for --reader boxes
            log.error("%s", exc)
            return 2
        c = check(video, got, pipe.flags(), len(pipe.to_confirm()))
        checks.append(c)
        if args.json:
            print(json.dumps({**asdict(c), "exact": c.exact}))
        else:
            print(c.line())
            if args.verbose:
                for d in c.differences + c.flags + c.live_flags:
                    print(f"    {d}")
        sys.stdout.flush()
    exact = sum(c.exact for c in checks)
    with_draws = [c for c in checks if c.draws]
    tally = {"reader": args.reader, "realtime": args.realtime, "slow": args.slow, "seed": args.seed,
             "deals": len(checks), "exact": exact,
             "deals_with_draws": len(with_draws), "exact_with_draws": sum(c.exact for c in with_draws),
             "moves": sum(c.moves for c in checks), "moves_right": sum(c.moves_right for c in checks),
             "invented": sum(c.invented for c in checks), "passes": sum(c.passes for c in checks),
             "true_passes": sum(c.true_passes for c in checks),
             "passes_equal": sum(c.passes_equal for c in checks),
             "to_confirm": sum(c.to_confirm for c in checks)}
    print(json.dumps(tally) if args.json else
          f"{exact}/{len(checks)} deals exact ({tally['exact_with_draws']}/{len(with_draws)} of those "
          f"with draws); moves {tally['moves_right']}/{tally['moves']}, invented plays "
          f"{tally['invented']}, passes {tally['passes']} written / {tally['true_passes']} true "
          f"(the passes the table shows right in {tally['passes_equal']}/{len(checks)} deals), "
          f"to confirm {tally['to_confirm']}")
    return 0 if exact == len(checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
