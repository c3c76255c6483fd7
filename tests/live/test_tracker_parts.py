"""The tracker's parts on their own: naming a frame's tiles, the recount's hands, misread flags."""

from __future__ import annotations

from vision.live.flags import MisreadWatch
from vision.live.naming import name_tiles, reown
from vision.live.observation import LAYOUT, Observation, TileObs
from vision.live.places import Committed
from vision.live.reveal import RevealWatch


def _tile(values, halves, face="up", owner=LAYOUT, confidence=1.0) -> TileObs:
    return TileObs(values, halves, face=face, owner=owner, confidence=confidence)


def test_a_face_down_tile_closing_an_end_is_named_the_double_of_that_end():
    played = _tile((2, 5), ((0.0, 0.0), (20.0, 0.0)))
    closed = _tile(None, ((40.0, 0.0), (60.0, 0.0)), face="down")
    obs = Observation((played, closed), ((0, 1),))
    assert name_tiles(obs, {}, face_down=True, join_factor=1.8) == ["2-5", "5-5"]
    assert name_tiles(obs, {}, face_down=False, join_factor=1.8) == ["2-5", None]


def test_of_two_tiles_read_the_same_the_one_where_the_move_lies_keeps_the_name():
    a = _tile((1, 3), ((0.0, 0.0), (20.0, 0.0)), confidence=0.99)
    b = _tile((3, 1), ((200.0, 0.0), (220.0, 0.0)), confidence=0.5)
    obs = Observation((a, b))
    assert name_tiles(obs, {}, face_down=True, join_factor=1.8) == ["1-3", None]  # the surer
    move = Committed("1-3", "Anna", None, "up", 0.0, 0.0, b)
    assert name_tiles(obs, {"1-3": move}, face_down=True, join_factor=1.8) == [None, "1-3"]


def test_a_hand_tile_touching_the_layout_is_taken_back_into_it():
    chain = _tile((4, 4), ((0.0, 0.0), (20.0, 0.0)))
    cut_off = _tile((4, 6), ((40.0, 0.0), (60.0, 0.0)), owner="south")
    far = _tile((0, 1), ((400.0, 0.0), (420.0, 0.0)), owner="south")
    owners = [t.owner for t in reown(Observation((chain, cut_off, far))).tiles]
    assert owners == [LAYOUT, LAYOUT, "south"]


def test_the_recount_reveals_hands_once_they_held_still():
    watch = RevealWatch()
    watch.begin(0.0)
    hands = {"1-2": "Anna", "3-3": "Boris"}
    expected = {"Anna": 1, "Boris": 1}
    found = [watch.hands(t, hands, ["Anna", "Boris"], expected, stable_s=0.5) for t in (0.1, 0.3, 0.5, 0.7)]
    assert found[:3] == [None, None, None]  # still for 0.4 s, under stable_s
    assert found[3] == ({"Anna": ["1-2"], "Boris": ["3-3"]}, True)


def test_a_misread_where_a_move_lies_is_flagged_once_when_it_lasts():
    move = Committed("2-3", "Vera", None, "up", 0.0, 0.0, None)
    watch = MisreadWatch()
    flags = [watch.seen(t, move, "2-4", lasting_s=1.0) for t in (1.0, 1.5, 2.0, 2.5)]
    assert [f is not None for f in flags] == [False, False, True, False]
    assert flags[2].kind == "misread" and flags[2].player == "Vera"
