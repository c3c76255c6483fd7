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
