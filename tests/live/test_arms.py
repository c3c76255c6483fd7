"""Which arm laid which tile, and in what order one arm laid several (BLZ-3)."""

from __future__ import annotations

from vision.live.arms import Arms
from vision.live.calibration import full_frame
from vision.live.motion import SETTLED, MotionInfo
from vision.live.places import Candidate
from vision.live.tracker import TrackerConfig

SIZE = (800, 600)


def _arm_at(edge: str, tip: tuple[float, float]) -> MotionInfo:
    return MotionInfo(settled=False, arm=True, edge=edge, moving=0.05, changed=0.05, reaches=((edge, tip, True),))


def _candidate(name: str, centre: tuple[float, float]) -> Candidate:
    c = Candidate(3.0, 1, 3.0, centre, 18.0)
    c.names[name] += 1
    return c


def _visit(arms: Arms, t: float, edge: str, tips: list[tuple[float, float]]) -> float:
    for tip in tips:
        arms.observe(t, _arm_at(edge, tip))
        t += 0.1
    arms.observe(t, SETTLED)
    arms.settled(t)
    return t


def test_one_arm_laying_two_tiles_laid_them_in_the_order_its_hand_came_to_them():
    # fresh live deal h55 (blitz): the hand went to one end of the chain, then to the other
    arms = Arms(TrackerConfig(), full_frame(SIZE, ["Anna", "Boris"]))
    far, near = _candidate("0-3", (600.0, 380.0)), _candidate("2-6", (320.0, 270.0))
    path = [(60.0, 200.0), (200.0, 230.0), (340.0, 250.0), (340.0, 250.0), (340.0, 250.0),
            (470.0, 320.0), (610.0, 400.0), (610.0, 400.0), (610.0, 400.0), (300.0, 260.0), (80.0, 220.0)]
    t = _visit(arms, 1.0, "left", path)
    arms.assign(t, [far, near])
    assert far.edge == near.edge == "left"
    assert near.laid_t < far.laid_t


def test_with_two_arms_about_no_order_is_taken_from_one_arm_s_path():
    # held-out h22: three tiles, two arms seen, three seats: the order is the rows', not a path's
    arms = Arms(TrackerConfig(), full_frame(SIZE, ["Anna", "Boris"]))
    t = _visit(arms, 1.0, "top", [(400.0, 40.0), (400.0, 150.0), (400.0, 250.0), (400.0, 250.0), (400.0, 60.0)])
    t = _visit(arms, t + 0.1, "bottom", [(400.0, 560.0), (420.0, 350.0), (420.0, 350.0), (420.0, 350.0), (400.0, 560.0)])
    a, b = _candidate("1-2", (400.0, 230.0)), _candidate("2-5", (420.0, 370.0))
    arms.assign(t, [a, b])
    assert (a.edge, b.edge) == ("top", "bottom")
    assert a.laid_t == b.laid_t == 0.0


_QUIET = MotionInfo(False, False, None, 0.01, 0.01)  # the table not yet still, no arm seen


def _one_tile_after(players: list[str], motions: list[MotionInfo], name: str,
                    centre: tuple[float, float]) -> Candidate:
    """A tile that appeared on the settled frame after `motions` (none of them an arm seen whole),
    given its arm."""
    arms = Arms(TrackerConfig(), full_frame(SIZE, players))
    arms.settled(1.0)
    t = 1.1
    for motion in motions:
        arms.observe(t, motion)
        t += 0.1
    arms.observe(t, SETTLED)
    arms.settled(t)
    tile = _candidate(name, centre)
    arms.assign(t, [tile])
    return tile


def test_one_tile_and_no_arm_seen_whole_goes_to_the_piece_seen_nearest_it():
    # held-out h28: a sleeve the colour of the cloth, seen on one frame at the far side, and a
    # moment of change by the next seat's row on another; the tile lies near the first
    tile = _one_tile_after(["Anna", "Boris", "Vera", "Gleb"],
                           [_QUIET, _arm_at("left", (60.0, 130.0)), _QUIET, _arm_at("top", (270.0, 70.0))],
                           "6-6", (320.0, 190.0))
    assert tile.edge == "top"


def test_one_tile_and_no_arm_seen_whole_goes_to_the_edge_seen_on_most_frames():
    # live-eval s44: south's arm seen on seven frames short of the chain, north's next arm on one
    # frame before the tile was read: the tile is south's, though north's piece came nearer
    south = _arm_at("bottom", (300.0, 410.0))
    north = _arm_at("top", (380.0, 80.0))
    tile = _one_tile_after(["Anna", "Boris"], [south, south, _QUIET, _QUIET, _QUIET, north], "1-3", (290.0, 200.0))
    assert tile.edge == "bottom"


def test_change_scattered_in_pieces_from_one_edge_on_every_frame_is_no_arm():
    # fresh live deal h73: light the gain did not match lit three blobs by Vera's row on each of
    # four frames; taken for her arm, it was given one of the two tiles Boris laid
    arms = Arms(TrackerConfig(), full_frame(SIZE, ["Anna", "Boris", "Vera", "Gleb"]))
    scattered = MotionInfo(False, True, "top", 0.05, 0.05,
                           reaches=(("top", (230.0, 240.0), True), ("top", (90.0, 240.0), True),
                                    ("top", (320.0, 260.0), True)))
    t = 1.0
    for _ in range(4):
        arms.observe(t, scattered)
        t += 0.1
    arms.observe(t, SETTLED)
    assert [r.deep for r in arms._reaches] == [False]
    for tip in [(400.0, 100.0), (400.0, 240.0), (400.0, 260.0), (400.0, 100.0)]:  # one arm
        t += 0.1
        arms.observe(t, _arm_at("top", tip))
    arms.observe(t + 0.1, SETTLED)
    assert [r.deep for r in arms._reaches] == [False, True]
