"""The boneyard among the reader's tiles (vision/live/pile.py), and the boneyard's places when
the reader is a detector: extra boxes, weak boxes, and an arm that stops over the pile."""

from __future__ import annotations

import math
import random
from dataclasses import replace

from vision.live.arms import Arms, Reach
from vision.live.boneyard import Boneyard
from vision.live.calibration import full_frame
from vision.live.motion import MotionInfo
from vision.live.observation import BONEYARD, LAYOUT, Observation, TileObs
from vision.live.pile import PileMemory, find_pile
from vision.live.tracker import TrackerConfig

L = 40.0  # tile length in pixels


def tile(cx: float, cy: float, angle_deg: float, owner: str = "south", face: str = "down",
         confidence: float = 0.9) -> TileObs:
    a = math.radians(angle_deg)
    dx, dy = math.cos(a) * L / 4, math.sin(a) * L / 4
    return TileObs(None if face == "down" else (1, 2), ((cx - dx, cy - dy), (cx + dx, cy + dy)),
                   face=face, owner=owner, confidence=confidence)


def hand_row(x0: float, y: float, n: int, owner: str = "south") -> list[TileObs]:
    """A hand: tiles side by side, long sides vertical, a tile's width apart plus a small gap."""
    return [tile(x0 + k * 0.6 * L, y, 90.0, owner) for k in range(n)]


def heap(cx: float, cy: float, n: int, seed: int = 1) -> list[TileObs]:
    """A boneyard: tiles at random angles, a tile length or so apart, in a corner."""
    rng = random.Random(seed)
    spots = [(cx + (i - 1.5) * 1.1 * L, cy + (j - 1.5) * 1.1 * L) for j in range(4) for i in range(4)]
    rng.shuffle(spots)
    return [tile(x + rng.uniform(-0.1, 0.1) * L, y + rng.uniform(-0.1, 0.1) * L, rng.uniform(0, 180), "east")
            for x, y in spots[:n]]


def test_the_heap_in_a_corner_is_the_boneyard_and_the_hands_are_not():
    """TRAD / BYK-1 deals of two or three leave tiles undealt: the reader gives them to the seat
    of the nearest edge, like the hands; only how they lie tells them apart."""
    hands = hand_row(200, 560, 7) + hand_row(200, 40, 7, "north")
    bones = heap(540, 420, 14)
    obs = Observation(tuple(hands + bones), size=(640, 600))
    assert sorted(find_pile(obs, 14)) == list(range(14, 28))


def test_a_tile_left_apart_in_a_hand_s_row_is_not_the_heap_s():
    """Held-out h24: a tile played from a hand left its last tile apart from the row, within two
    tile lengths of the boneyard; it lies in the row's line, squared to it, so it is the hand's."""
    row = hand_row(200, 40, 5, "north") + [tile(200 + 6 * 0.6 * L, 40, 90.0, "north")]
    bones = heap(200 + 6 * 0.6 * L + 2.5 * L, 70, 8)
    obs = Observation(tuple(row + bones), size=(640, 600))
    assert sorted(find_pile(obs, 14)) == list(range(6, 14))


def test_a_pile_scattered_in_two_clusters_is_one_boneyard_while_it_holds_no_more_than_undealt():
    """Fresh40 h917 (no divider, two players): four of the fourteen pile tiles lay 2.2 tile
    lengths from the other ten; only the ten were the pile, and the three draws taken from the
    four went unseen."""
    hands = hand_row(120, 560, 7) + hand_row(120, 40, 7, "north")
    main = heap(480, 420, 10, seed=3)
    apart = [tile(355, 225, 179.0, "east"), tile(325, 240, 41.0, "north"), tile(317, 270, 35.0, "north"),
             tile(343, 295, 3.0, "east")]  # 2.35 tile lengths from the ten, squared enough to be no heap
    obs = Observation(tuple(hands + main + apart), size=(640, 600))
    assert sorted(find_pile(obs, 14, gather=True)) == list(range(14, 28))
    assert sorted(find_pile(obs, 14)) == list(range(14, 24))  # not gathered: the pile learnt before
    # a boneyard of ten now (four drawn elsewhere): the cluster apart is someone's tiles
    assert sorted(find_pile(obs, 10, gather=True)) == list(range(14, 24))
    # too far from the heap, a cluster is not gathered whatever the boneyard holds
    far = [replace(x, halves=tuple((px - 150, py) for px, py in x.halves)) for x in apart]
    assert sorted(find_pile(Observation(tuple(hands + main + far), size=(640, 600)), 14, gather=True)) == list(range(14, 24))
    # The memory gathers them where the pile is first seen, and only there: a blank laid near the
    # pile later, read as a back, is no tile of it (fresh28 h632, no divider: the opening 0-0).
    memory = PileMemory()
    memory.mark(obs, 14)
    assert len(memory.places) == 14
    blank = tile(385, 260, 20.0, "east")  # by the four, on no place of the pile
    later = memory.mark(Observation(tuple(hands + main + apart + [blank]), size=(640, 600)), 14)
    assert later.tiles[-1].owner != BONEYARD


def test_without_a_heap_nothing_is_taken_from_the_hands():
    hands = hand_row(200, 560, 7) + hand_row(200, 40, 5, "north") + [tile(100, 300, 0.0, "west")]
    assert find_pile(Observation(tuple(hands)), 14) == []


def test_more_tiles_than_a_deal_leaves_undealt_are_the_shuffle_not_the_boneyard():
    obs = Observation(tuple(heap(320, 300, 16)))
    assert find_pile(obs, 10) == []
    assert len(find_pile(obs, None)) == 16


def test_a_heap_with_a_tile_boxed_twice_is_still_the_boneyard():
    # fresh deal h184: 15 boxes for the 14 undealt tiles; no boneyard until the first draw left
    # 14, and that draw, unseen, shifted every move after it
    bones = heap(320, 300, 14)
    twice = replace(bones[3], halves=tuple((x + 2.0, y + 1.0) for x, y in bones[3].halves))
    assert len(find_pile(Observation(tuple([*bones, twice])), 14)) == 15


def test_face_up_and_layout_tiles_never_join_the_heap():
    bones = heap(540, 420, 6)
    chain = [tile(300 + k * L, 300, 0.0, LAYOUT, "up") for k in range(4)]
    shown = [tile(480, 330, 45.0, "east", "up")]  # a hand laid face up next to the pile
    obs = Observation(tuple(chain + shown + bones))
    assert sorted(find_pile(obs, 14)) == list(range(5, 11))


def test_the_last_tiles_of_the_pile_stay_boneyard_tiles():
    memory = PileMemory()
    bones = heap(540, 420, 8)
    hands = hand_row(200, 560, 3)
    first = memory.mark(Observation(tuple(hands + bones)), 14)
    assert [t.owner for t in first.tiles] == ["south"] * 3 + [BONEYARD] * 8
    # two tiles left: too few for a heap, still where the heap was
    later = memory.mark(Observation(tuple(hands + bones[:2])), 14)
    assert [t.owner for t in later.tiles] == ["south"] * 3 + [BONEYARD] * 2
    memory.reset()  # a new deal
    assert [t.owner for t in memory.mark(Observation(tuple(hands + bones[:2])), 14).tiles] == ["south"] * 3 + ["east"] * 2


def test_a_hand_s_row_down_to_a_tile_or_two_by_the_pile_stays_the_hand_s():
    """Fresh16 h339: north's row, played down to scattered tiles beside the pile, was taken into
    the heap and remembered there: his row no longer showed that he laid a tile drawn unseen
    (its pile tile out of the picture). h350: north's drawn tiles put at the end of his row by
    the pile were the heap's, and his row never grew by them. A row keeps its line all deal."""
    memory = PileMemory()
    row = hand_row(300, 60, 7, "north")
    bones = heap(300 + 7 * 0.6 * L + 2.9 * L, 110, 8)
    first = memory.mark(Observation(tuple(row + bones)), 14)
    assert [t.owner for t in first.tiles] == ["north"] * 7 + [BONEYARD] * 8
    # five tiles played: two left, with a gap, the last one beside the pile
    left = [row[0], row[6]]
    later = memory.mark(Observation(tuple(left + bones)), 14)
    assert [t.owner for t in later.tiles] == ["north"] * 2 + [BONEYARD] * 8
    # a tile drawn and put at the row's end, nearer the pile than the row's last tile
    drawn = tile(300 + 8 * 0.6 * L, 60, 92.0, "north")
    grown = memory.mark(Observation(tuple([*left, drawn, *bones])), 14)
    assert [t.owner for t in grown.tiles] == ["north"] * 3 + [BONEYARD] * 8
    # without the row seen before, the two by the pile would be the heap's
    fresh = PileMemory().mark(Observation(tuple([*left, drawn, *bones])), 14)
    assert [t.owner for t in fresh.tiles][:3] == ["north", BONEYARD, BONEYARD]


def test_a_hand_s_tiles_learnt_as_the_pile_s_on_a_frame_that_cut_its_row_are_the_hand_s_once_the_row_is_seen():
    """Fresh36 h836 (black tiles): on the first frame two of Anna's backs were unboxed, and the two
    beyond the gap, beside the pile, were taken into the heap and their places remembered; her
    row, seen whole from the next frames, lost them to the pile, and when she played them their
    places were written as draws nobody made."""
    memory = PileMemory()
    row = hand_row(200, 300, 7)
    bones = heap(460, 300, 8)
    cut = memory.mark(Observation(tuple(row[:3] + row[5:] + bones)), 14)
    assert [t.owner for t in cut.tiles] == ["south"] * 3 + [BONEYARD] * 10
    whole = memory.mark(Observation(tuple(row + bones)), 14)
    assert [t.owner for t in whole.tiles] == ["south"] * 7 + [BONEYARD] * 8
    # and so they stay, the row cut again or played down to them
    again = memory.mark(Observation(tuple(row[5:] + bones)), 14)
    assert [t.owner for t in again.tiles] == ["south"] * 2 + [BONEYARD] * 8


def test_three_pile_tiles_squared_side_by_side_by_chance_are_no_hand_s_row_for_good():
    """Fresh16 h353: three tiles of the pile lay squared side by side by chance; once one was
    drawn, the other two were the heap's again. Only a row as long as a hand is remembered."""
    memory = PileMemory()
    bones = heap(540, 300, 8)
    across = math.radians(60.0)  # across tiles lying at 150 degrees
    chance = [tile(400 + k * 0.6 * L * math.cos(across), 250 + k * 0.6 * L * math.sin(across), 150.0, "east")
              for k in range(3)]
    first = memory.mark(Observation(tuple(chance + bones)), 14)
    assert [t.owner for t in first.tiles] == ["east"] * 3 + [BONEYARD] * 8  # a row on this frame
    later = memory.mark(Observation(tuple(chance[1:] + bones)), 14)
    assert [t.owner for t in later.tiles] == [BONEYARD] * 10


def test_a_reader_that_names_the_boneyard_is_left_alone():
    bones = heap(540, 420, 5)
    named = [TileObs(b.values, b.halves, face="down", owner=BONEYARD) for b in bones[:2]] + bones[2:]
    obs = Observation(tuple(named))
    assert PileMemory().mark(obs, 14) is obs


def _settled(bones: Boneyard, t0: float, frames: list[list[TileObs]], hidden=None, faint=()) -> list:
    drawn = []
    for k, tiles in enumerate(frames):
        drawn += bones.update(t0 + 0.1 * k, Observation(tuple(tiles), size=(640, 480), faint=faint), hidden)
    return drawn


def _bone(x: float, y: float, confidence: float = 0.9) -> TileObs:
    return tile(x, y, 30.0, BONEYARD, confidence=confidence)


def test_two_boxes_on_one_tile_and_a_weak_box_between_tiles_are_no_places():
    pile = [_bone(400, 300), _bone(460, 300), _bone(400, 360)]
    extra = [_bone(402, 303), _bone(430, 300, confidence=0.3)]
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [pile + extra] * 8)
    assert bones.count == 3


def test_a_place_under_a_still_arm_is_not_a_draw():
    """A hand that stops over the pile is no longer seen by the motion gate but hides the tiles
    under it: those places prove nothing until it is gone."""
    pile = [_bone(400, 300), _bone(460, 300), _bone(400, 360)]
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [pile] * 8)
    covered = pile[1:]
    assert _settled(bones, 1.0, [covered] * 15, hidden=lambda p: math.dist(p, pile[0].centre) < 5) == []
    drawn = _settled(bones, 3.0, [covered] * 15)
    assert len(drawn) == 1 and math.dist(drawn[0].place, pile[0].centre) < 1


def test_a_back_the_detector_scores_under_its_threshold_still_holds_its_place():
    """Fresh deal h101: black backs; one scored 0.3, then under the threshold while it lay there,
    and its place became a draw no arm made."""
    pile = [_bone(400, 300), _bone(460, 300)]
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [pile] * 8)
    assert _settled(bones, 1.0, [pile[1:]] * 20, faint=((401.0, 302.0),)) == []
    assert bones.count == 2
    assert _settled(bones, 3.0, [pile[1:]] * 20, faint=((460.0, 300.0),)) != []  # a faint box elsewhere


def test_a_back_still_on_its_place_holds_it_whoever_the_reader_gives_it_to():
    """The test deal s44 framed: a pile tile by the chain's crosswise double was read as a closed
    tile of the layout, and its place written as a draw nobody made. A face-up tile there is
    another tile: the back is gone."""
    pile = [_bone(400, 300), _bone(460, 300)]
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [pile] * 8)
    as_layout = [replace(pile[0], owner=LAYOUT), pile[1]]
    assert _settled(bones, 1.0, [as_layout] * 20) == []
    assert bones.count == 2
    face_up = [replace(pile[0], owner=LAYOUT, face="up", values=(1, 2)), pile[1]]
    assert len(_settled(bones, 3.0, [face_up] * 20)) == 1


def test_a_pile_tile_boxed_face_up_and_read_as_nothing_still_holds_its_place():
    """Fresh33 h744, engraved: a pile tile boxed face up, read as no face, for three seconds was
    written as a draw nobody made. A face-up tile read there is another tile: the back is gone."""
    pile = [_bone(400, 300), _bone(460, 300)]
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [pile] * 8)
    unread = [replace(pile[0], owner=LAYOUT, face="up", values=None), pile[1]]
    assert _settled(bones, 1.0, [unread] * 30) == []
    assert bones.count == 2
    read = [replace(pile[0], owner=LAYOUT, face="up", values=(3, 4)), pile[1]]
    assert len(_settled(bones, 4.0, [read] * 20)) == 1


def test_a_place_must_stay_empty_twice_the_settling_time():
    pile = [_bone(400, 300), _bone(460, 300)]
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [pile] * 8)
    assert _settled(bones, 1.0, [pile[1:]] * 8) == []  # 0.7 s
    assert len(_settled(bones, 1.8, [pile[1:]] * 4)) == 1


def test_an_arm_lies_over_the_band_from_its_tip_back_to_its_edge():
    arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris"]))
    arms._reaches = [Reach(start=1.0, end=1.5, edge="bottom", tip=(550.0, 390.0))]
    assert arms.over((545.0, 440.0), 30.0, t=2.0)  # under the forearm
    assert arms.over((560.0, 395.0), 30.0, t=2.0)  # at the hand
    assert not arms.over((545.0, 330.0), 30.0, t=2.0)  # beyond the fingertips
    assert not arms.over((480.0, 440.0), 30.0, t=2.0)  # beside the arm
    assert not arms.over((545.0, 440.0), 30.0, t=4.0)  # long gone


def test_a_tile_near_the_border_has_a_place_and_one_half_out_has_none():
    """A draw of a pile tile lying near the picture's edge is seen where the arm that took it is
    not; one half out of the picture comes and goes as the camera shakes and is left to the arm."""
    near = _bone(400, 480 - 0.6 * L)  # a corner a few pixels from the bottom border
    half_out = _bone(300, 480 - 0.2 * L)
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [[near, half_out, _bone(400, 300)]] * 8)
    assert bones.count == 2
    drawn = _settled(bones, 1.0, [[half_out, _bone(400, 300)]] * 12)
    assert len(drawn) == 1 and math.dist(drawn[0].place, near.centre) < 1


def test_a_pile_tile_along_the_border_wholly_in_view_has_a_place():
    """Fresh16 h350: a pile tile lying along the picture's edge, wholly in view, its centre nearer
    the border than half a tile length: the draw from it is seen by its place."""
    along = tile(300, 480 - 0.35 * L, 0.0, BONEYARD)  # its long side 0.1 tile lengths from the border
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [[along, _bone(400, 300), _bone(460, 330)]] * 8)
    assert bones.count == 3
    drawn = _settled(bones, 1.0, [[_bone(400, 300), _bone(460, 330)]] * 12)
    assert len(drawn) == 1 and math.dist(drawn[0].place, along.centre) < 1


def test_an_arm_from_the_left_edge_lies_between_that_edge_and_its_tip():
    arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris"]))
    arms._reaches = [Reach(start=1.0, end=1.5, edge="left", tip=(100.0, 240.0))]
    assert arms.over((40.0, 250.0), 30.0, t=2.0)
    assert not arms.over((160.0, 240.0), 30.0, t=2.0)  # beyond the fingertips
    assert not arms.over((40.0, 300.0), 30.0, t=2.0)  # beside the arm


def test_a_hand_reaching_past_the_pile_was_at_the_pile():
    """A hand taking a tile from the far row of the boneyard reaches past it: the point of the
    arm deepest into the table lies beyond the pile, yet the pile was under the hand."""
    from vision.live.draws import DrawWatch

    arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris"]))
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [[_bone(400, 120), _bone(400, 160)]] * 8)
    past = Reach(start=1.0, end=2.0, edge="bottom", tip=(410.0, 120.0 - 1.3 * L))  # beyond the far row
    assert min(math.dist(past.tip, z) for z in bones.zone) > bones.tile_len  # the tip alone: not at it
    assert DrawWatch._at_pile(past, arms, bones)
    beside = Reach(start=1.0, end=2.0, edge="bottom", tip=(400.0 + 1.5 * L, 120.0 - 1.3 * L))
    assert not DrawWatch._at_pile(beside, arms, bones)
    short = Reach(start=1.0, end=2.0, edge="bottom", tip=(400.0, 160.0 + 2.2 * L))  # stopped before it
    assert not DrawWatch._at_pile(short, arms, bones)


def test_two_tiles_after_two_arms_seen_only_in_glimpses_go_one_to_each_arm():
    """BYK-1.6 (one tile a turn): a north player's faint arm lays a tile, the scene does not settle
    before the south player's arm lays the next against it, and neither arm is seen whole (live
    deal s44: both tiles went to the south player, with an invented pass between). The glimpses
    name the edges, the chain the order."""
    from collections import Counter

    from vision.live.places import Candidate

    arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris"]))  # Anna bottom, Boris top
    arms.one_per_arm = True
    arms._reaches = [Reach(start=9.0, end=9.8, edge="top", tip=(278.0, 70.0), deep=False, frames=2),
                     Reach(start=10.1, end=11.1, edge="bottom", tip=(278.0, 406.0), deep=False, frames=6)]
    first = Candidate(11.2, 112, 11.2, (300.0, 240.0), 10.0, edge="bottom", names=Counter({"1-5": 3}),
                      to_votes=Counter({"1-1": 3}))
    second = Candidate(11.2, 112, 11.2, (340.0, 240.0), 10.0, edge="bottom", names=Counter({"0-5": 3}),
                       to_votes=Counter({"1-5": 3}))
    arms.assign(11.2, [second, first])
    assert (first.edge, second.edge) == ("top", "bottom")
    alone = Candidate(11.2, 112, 11.2, (300.0, 240.0), 10.0, edge="bottom", names=Counter({"1-5": 3}))
    arms._used.clear()
    arms.assign(11.2, [alone])  # one tile and no arm seen whole: the stretch's edge stands
    assert alone.edge == "bottom"


def test_one_hand_seen_from_one_edge_then_another_is_one_draw():
    """h17: an arm across the table into the pile's corner is told from the right on one frame and
    from the bottom on the next; two players cannot take turns at one place of the pile that fast."""
    from vision.live.draws import one_per_hand

    right = Reach(start=17.7, end=17.8, edge="right", tip=(538.0, 130.0), frames=2)
    bottom = Reach(start=17.9, end=18.0, edge="bottom", tip=(522.0, 154.0), frames=2)
    assert len(one_per_hand([right, bottom], 1.5 * L)) == 1
    later = Reach(start=18.6, end=18.8, edge="bottom", tip=(522.0, 154.0), frames=3)
    assert len(one_per_hand([right, later], 1.5 * L)) == 2  # the next visit


def test_pieces_at_the_pile_while_one_seat_s_arm_is_over_the_table_are_its_hand():
    """Fresh deal h112: south's arm along the side of the table to a pile in the far corner, seen
    whole up to the shadow across the table; past it, its hand showed as pieces at the east and
    north edges, and north was given the draw."""
    from vision.live.draws import carried_by

    calib = full_frame((640, 480), ["Anna", "Boris"])  # south and north
    south = Reach(start=9.9, end=10.7, edge="bottom", tip=(578.0, 242.0), frames=9)
    north = Reach(start=10.1, end=10.5, edge="top", tip=(610.0, 90.0), frames=2)
    east = Reach(start=10.0, end=10.6, edge="right", tip=(582.0, 122.0), frames=4)
    for piece in (north, east):
        carried = carried_by(piece, [south, north, east], calib)
        assert (carried.edge, carried.start, carried.tip) == ("bottom", 9.9, piece.tip)
    # north's own arm, come before south's and gone after it, is north's
    own = Reach(start=9.5, end=11.0, edge="top", tip=(610.0, 90.0), frames=3)
    assert carried_by(own, [south, own], calib) is own


def test_glimpses_of_one_hand_at_the_pile_are_one_draw_and_two_whole_visits_are_two():
    """Fresh deal h132: Boris's hand at the pile seen on two frames, faded while it picked a tile
    up, seen on two frames again 32 px away; h80: Anna drew twice in a row, her arm seen whole on
    11 frames, then on 30, 0.2 s apart."""
    from vision.live.draws import same_hand

    first = Reach(start=2.6, end=2.7, edge="top", tip=(554.0, 30.0), frames=2)
    again = Reach(start=3.1, end=3.2, edge="top", tip=(582.0, 46.0), frames=2)
    assert same_hand(first, again, L)
    assert not same_hand(first, replace(again, edge="bottom"), L)  # another seat
    assert not same_hand(first, replace(again, start=3.9, end=4.0), L)  # over a second later
    whole = replace(first, frames=11)
    assert not same_hand(whole, replace(again, frames=30), L)
    assert same_hand(whole, replace(again, frames=30, tip=(560.0, 34.0)), L)  # over the same tile


def test_a_box_not_read_yet_calls_in_no_glimpsed_arm():
    """Live-eval s24: the west player's arm, seen whole, lays 2-3; on the same settled frame the
    detector also boxes something it cannot read (no tile, or not yet one), and the south player
    moved a little at the edge (a glimpse). Two new boxes and one arm must not send the tile to
    the glimpse: only named tiles count as evidence of another arm (BYK-1.6)."""
    from collections import Counter

    from vision.live.places import Candidate

    calibration = full_frame((640, 480), ["Anna", "Boris", "Vera", "Gleb"])  # Anna bottom, Boris left
    arms = Arms(TrackerConfig(), calibration)
    arms.one_per_arm = True
    arms._reaches = [Reach(start=27.6, end=27.6, edge="bottom", tip=(306.0, 418.0), deep=False, frames=1),
                     Reach(start=27.5, end=28.3, edge="left", tip=(278.0, 278.0), frames=9)]
    tile_ = Candidate(28.4, 284, 28.4, (248.0, 279.0), 10.0, edge="left", names=Counter({"2-3": 1}),
                      to_votes=Counter({"2-2": 1}))
    unread = Candidate(28.4, 285, 28.4, (291.0, 218.0), 10.0, edge="left")
    arms.assign(28.4, [tile_, unread])
    assert tile_.edge == "left"


def test_a_glimpse_hides_no_place_of_the_pile():
    """h17: an arm seen on one frame only near the pile kept the place it took hidden for two
    seconds, and the draw was written after the drawer's next play. A hand fades into the
    background only after holding still while seen: a glimpse is no such hand."""
    arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris"]))
    arms._reaches = [Reach(start=42.0, end=42.0, edge="top", tip=(526.0, 86.0), deep=False, frames=1)]
    assert not arms.over((537.0, 53.0), 45.0, t=42.1)
    arms._reaches = [Reach(start=41.5, end=42.0, edge="top", tip=(526.0, 86.0), deep=False, frames=5)]
    assert arms.over((537.0, 53.0), 45.0, t=42.1)  # seen a while: it may have stopped there


def test_pieces_of_an_arm_seen_at_no_edge_are_the_hand_of_the_arm_seen_at_one():
    """Live-eval s44: the north player's forearm lost against the cloth, his hand at the pile by
    the south edge was told from the south by the way it pointed; with the north arm seen at its
    edge on the same frames, the piece is his hand (his tip), not a south player's arm."""
    arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris"]))  # Anna bottom, Boris top
    for k in range(6):
        arms.observe(13.0 + 0.1 * k, MotionInfo(False, True, "top", 0.02, 0.03,
                                                (("top", (446.0, 114.0), True), ("bottom", (478.0, 306.0), False))))
    arms.observe(13.6, MotionInfo(True, False, None, 0.0, 0.0))
    assert [(r.edge, r.tip) for r in arms._reaches] == [("top", (478.0, 306.0))]
    # A second arm seen at its own edge stays a second arm.
    arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris"]))
    for k in range(6):
        arms.observe(13.0 + 0.1 * k, MotionInfo(False, True, "top", 0.02, 0.03,
                                                (("top", (446.0, 114.0), True), ("bottom", (478.0, 306.0), True))))
    arms.observe(13.6, MotionInfo(True, False, None, 0.0, 0.0))
    assert sorted(r.edge for r in arms._reaches) == ["bottom", "top"]


class _OneGone:
    """A boneyard whose answer on the next frame is one place gone (`Boneyard.update`'s)."""

    tile_len, zone = L, []

    def __init__(self, drawn) -> None:
        self.gone = [drawn]

    def update(self, t, obs, hidden):
        out, self.gone = self.gone, []
        return out

    def near(self, p):
        return False


def test_a_place_gone_is_the_draw_of_the_arm_that_reached_nearest_it():
    """h17: two arms' draws were seen while a pile place was out of sight; the older arm's own place
    was never seen go (a corner of the pile). The place gone is the nearer arm's draw, and the
    older one is kept for its own place."""
    from vision.live.boneyard import Drawn
    from vision.live.draws import DrawWatch

    arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris"]))
    far = Reach(start=1.0, end=1.5, edge="bottom", tip=(100.0, 110.0))
    near = Reach(start=2.0, end=2.5, edge="bottom", tip=(405.0, 110.0))
    watch = DrawWatch()
    watch._arm_draws = [(1.6, far), (2.6, near)]
    pile = _OneGone(Drawn(0.7, 2.7, (400.0, 100.0)))  # one place gone since 0.7 s
    watch.watch(2.7, Observation((), size=(640, 480)), arms, pile, full_frame((640, 480), ["Anna", "Boris"]), 2)
    assert watch.pending == [] and watch._arm_draws == [(1.6, far)]


def test_places_found_gone_together_each_take_an_arm_s_draw_where_they_can():
    """Fresh16 h355: four places of the pile, one hidden since long before, were found gone on
    one frame. The first, taking the nearest arm's draw it could, left the last none, and that
    one became a draw nobody made. Each place gets a draw of its own where there are enough."""
    from vision.live.boneyard import Drawn
    from vision.live.draws import DrawWatch

    cal = full_frame((640, 480), ["Anna", "Boris"])
    old = Reach(start=1.5, end=1.9, edge="bottom", tip=(100.0, 400.0))  # its place never seen go
    near = Reach(start=3.5, end=3.9, edge="top", tip=(420.0, 100.0))  # a hand by both places
    watch = DrawWatch()
    watch._arm_draws = [(2.0, old), (4.0, near)]
    pile = _OneGone(Drawn(1.0, 5.0, (400.0, 100.0)))  # hidden since 1 s
    pile.gone.append(Drawn(3.0, 5.0, (440.0, 100.0)))  # last seen at 3 s: only `near` took it
    watch.watch(5.0, Observation((), size=(640, 480)), Arms(TrackerConfig(), cal), pile, cal, 2)
    assert watch.pending == [] and watch._arm_draws == [] and watch.unsure_since is None


def test_two_places_on_one_tile_go_as_one_draw():
    """h08: two places of the pile had followed their tiles onto one; when it went, two draws
    were matched (and a later arm's draw went unmatched, written again)."""
    from vision.live.boneyard import _Place

    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [[_bone(400, 120), _bone(400, 200)]] * 8)
    bones.places.append(_Place((401.0, 121.0), L, 0.7))  # a second place on the first tile
    drawn = _settled(bones, 1.0, [[_bone(400, 200)]] * 12)
    assert len(drawn) == 1


def test_a_place_gone_just_after_an_arm_s_draw_at_it_is_that_draw():
    """Fresh deal h31: a hand the colour of the table rested by a tile of the pile; its draw was
    told on a settled frame before the reader last saw the tile (the hand took it just after)."""
    from vision.live.boneyard import Drawn
    from vision.live.draws import DrawWatch

    cal = full_frame((800, 600), ["Anna", "Boris"])
    hand = Reach(start=10.9, end=11.5, edge="right", tip=(642.0, 338.0))
    watch = DrawWatch()
    watch._arm_draws = [(11.6, hand)]
    pile = _OneGone(Drawn(11.8, 12.0, (673.0, 303.0)))
    watch.watch(13.6, Observation((), size=(800, 600)), Arms(TrackerConfig(), cal), pile, cal, 2)
    assert watch.pending == [] and watch._arm_draws == []


def test_a_long_visit_that_took_one_tile_takes_a_second_gone_where_its_hand_was():
    """Fresh deal h159 (SPI): 2.1 s over the pile took 4-4 and then 2-4 without the arm leaving;
    the second place, under the arm laying 2-4 next, was found empty only after that play. It is
    the visit's second draw, told when the visit was (so written before the play), not a draw
    with no arm after it. A short visit, or a place away from where the hand went, is no second draw."""
    from vision.live.boneyard import Drawn
    from vision.live.draws import DrawWatch

    cal = full_frame((800, 600), ["Anna", "Boris"])
    visit = Reach(start=28.8, end=30.9, edge="top", tip=(788.0, 192.0),
                  path=((29.2, 660.0, 70.0), (30.4, 770.0, 170.0)))

    def second(reach: Reach, place: tuple[float, float]) -> list:
        watch = DrawWatch()
        watch._arm_draws = [(31.0, reach)]
        pile = _OneGone(Drawn(28.7, 31.0, (654.0, 60.0)))  # the first tile's place: matched
        watch.watch(31.0, Observation((), size=(800, 600)), Arms(TrackerConfig(), cal), pile, cal, 2)
        assert watch.pending == []
        later = _OneGone(Drawn(28.7, 32.4, place))
        watch.watch(33.7, Observation((), size=(800, 600)), Arms(TrackerConfig(), cal), later, cal, 2)
        # (a place gone with no arm is a draw once it has stayed empty UNSURE_S)
        watch.watch(35.0, Observation((), size=(800, 600)), Arms(TrackerConfig(), cal), later, cal, 2)
        return watch.pending

    (draw,) = second(visit, (760.0, 156.0))
    assert (draw.first_t, draw.arm_t, draw.edge) == (31.0, 28.8, "top")
    short = replace(visit, start=29.9)  # a second's visit takes one tile
    assert [d.arm_t for d in second(short, (760.0, 156.0))] == [math.inf]
    assert [d.arm_t for d in second(visit, (500.0, 400.0))] == [math.inf]  # the hand was not there


def test_a_place_emptied_with_no_arm_near_is_a_draw_only_if_it_stays_empty():
    """Fresh deal h213: the detector lost a back of the pile on three settled frames across a
    move (1.4 s); with no arm near and no row grown, that was written as a draw nobody made.
    It waits UNSURE_S: a back seen there again is no draw (and a place again); one not seen is."""
    from vision.live.boneyard import Drawn
    from vision.live.draws import UNSURE_S, DrawWatch

    cal = full_frame((640, 480), ["Anna", "Boris"])
    arms = Arms(TrackerConfig(), cal)
    place = (121.0, 96.0)
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [[_bone(*place), _bone(200, 96)]] * 8)

    def after(seen_again: bool) -> DrawWatch:
        watch = DrawWatch()
        pile = _OneGone(Drawn(1.1, 2.1, place))
        pile.restore, pile.places = bones.restore, bones.places
        watch.watch(3.5, Observation((), size=(640, 480)), arms, pile, cal, 2)
        assert watch.pending == [] and watch.unsure_since == 2.1
        back = (_bone(122.0, 95.0),) if seen_again else ()
        watch.watch(2.1 + UNSURE_S + 0.1, Observation(back, size=(640, 480)), arms, pile, cal, 2)
        return watch

    again = after(True)
    assert again.pending == [] and again.unsure_since is None
    gone = after(False)
    assert [(d.first_t, d.edge) for d in gone.pending] == [(2.1, None)]


def test_a_place_emptied_unseen_then_a_row_grown_is_one_draw():
    """Fresh deal h434 (JPEG at quality 40): Boris's hand at the pile went unseen; the place it
    emptied was found gone on the settled frame his row was seen to grow, just before the row
    told its draw. The place is that draw, not a second one (Anna's by turn order)."""
    from vision.live.boneyard import Drawn
    from vision.live.draws import UNSURE_S, DrawWatch

    cal = full_frame((640, 480), ["Anna", "Boris"])
    arms = Arms(TrackerConfig(), cal)
    place = (121.0, 96.0)
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [[_bone(*place), _bone(200, 96)]] * 8)

    def drawn(row_grew: bool) -> list:
        watch = DrawWatch()
        pile = _OneGone(Drawn(12.2, 13.1, place))
        pile.restore, pile.places = bones.restore, bones.places
        watch.watch(14.4, Observation((), size=(640, 480)), arms, pile, cal, 2)
        if row_grew:
            watch.add_row_draw(13.4, "Boris", 13.2)
        watch.watch(13.1 + UNSURE_S + 0.1, Observation((), size=(640, 480)), arms, pile, cal, 2)
        return [(d.player, d.edge) for d in watch.pending]

    assert drawn(True) == [("Boris", None)]
    assert drawn(False) == [(None, None)]  # the pile alone: a draw, whose the tracker decides


def test_two_whole_visits_with_the_arm_withdrawn_between_are_two_draws_at_one_place():
    """Fresh deal h188 (TRAD): Boris drew three times in a row, each hand reaching the same place
    of the pile (the tiles lay one over another's place) 0.2 s apart; the second and third were
    taken for one hand that paused there. His arm went back to his edge in between."""
    from vision.live.draws import same_hand

    first = Reach(start=15.3, end=16.4, edge="top", tip=(598.0, 478.0), frames=12,
                  path=((15.3, 470.0, 90.0), (15.8, 598.0, 478.0), (16.4, 530.0, 110.0)))
    second = Reach(start=16.6, end=17.7, edge="top", tip=(618.0, 462.0), frames=12,
                   path=((16.6, 466.0, 86.0), (17.1, 618.0, 462.0), (17.7, 526.0, 86.0)))
    assert not same_hand(first, second, L)
    # A hand seen over the pile until it faded, and seen there again, is one hand.
    paused = replace(first, path=((15.3, 470.0, 90.0), (16.4, 600.0, 470.0)))
    again = replace(second, tip=(604.0, 474.0), path=((16.6, 604.0, 474.0), (17.7, 526.0, 86.0)))
    assert same_hand(paused, again, L)


def test_a_hand_gone_back_where_it_came_in_then_again_at_the_pile_is_two_draws():
    """Fresh28 h629 (TRAD, JPEG 40, a pile a few tile lengths from Boris's edge): his hand came
    in at (462, 70), reached the pile at (486, 166), went back to (462, 70), and came again 0.5 s
    later to (498, 182) for his next draw; 1.6 tile lengths from the pile at most, the two visits
    were taken for one hand, one draw lost and given later to Anna. A hand that went back where it
    came from and a hand that came from afar are two visits, however near the pile the edge lies."""
    from vision.live.draws import same_hand

    tile = 59.0
    first = Reach(start=23.6, end=24.4, edge="top", tip=(486.0, 166.0), frames=8,
                  path=((23.6, 462.0, 70.0), (24.0, 486.0, 166.0), (24.4, 462.0, 70.0)))
    second = Reach(start=24.9, end=25.7, edge="top", tip=(498.0, 182.0), frames=7,
                   path=((24.9, 486.0, 86.0), (25.3, 498.0, 182.0), (25.7, 482.0, 86.0)))
    assert not same_hand(first, second, tile)
    # the hand last seen at the pile (it faded there) and seen there again is one hand
    faded = replace(first, path=((23.6, 462.0, 70.0), (24.4, 484.0, 160.0)))
    assert same_hand(faded, second, tile)


def test_an_arm_given_a_box_of_nothing_at_the_pile_drew():
    """Fresh deal h179 (JPEG 40): a face-up box of nothing between the pile and the layout took
    the arm of Boris's second draw, so the place that arm emptied went to his third. Gone unread,
    the box gives its arm back: at the pile, a draw, dated when the box appeared."""
    from vision.live.draws import DrawWatch

    cal = full_frame((800, 600), ["Anna", "Boris"])
    arms = Arms(TrackerConfig(), cal)
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [[_bone(700, 237), _bone(652, 260), _bone(605, 270)]] * 8)
    at_pile = Reach(start=13.1, end=14.1, edge="top", tip=(698.0, 288.0), frames=11)
    watch = DrawWatch()
    watch.unlaid(14.2, at_pile, arms, bones, cal, 2)
    assert [(d.first_t, d.arm_t, d.edge) for d in watch.pending] == [(14.2, 13.1, "top")]
    elsewhere = replace(at_pile, tip=(300.0, 420.0))
    watch = DrawWatch()
    watch.unlaid(14.2, elsewhere, arms, bones, cal, 2)
    assert watch.pending == []
    # A place found empty meanwhile with no arm to give it (the arm was the box's) is its draw:
    # one draw, not two (later in h179: the place emptied by Anna's second draw).
    from vision.live.boneyard import Drawn

    watch = DrawWatch()
    watch._unsure.append(Drawn(12.9, 15.4, (700.0, 237.0)))
    watch.unlaid(14.2, at_pile, arms, bones, cal, 2)
    assert [(d.first_t, d.arm_t, d.edge) for d in watch.pending] == [(14.2, 13.1, "top")]
    assert watch.unsure_since is None


def test_a_box_not_read_is_given_no_arm_whose_hand_never_came_near_it():
    """Fresh deal h179: the arm of two draws, its hand at the pile six tile lengths away, was
    given to a face-up box of nothing in the layout. A tile read is given its arm as before."""
    from vision.live.places import Candidate

    arms = Arms(TrackerConfig(), full_frame((800, 600), ["Anna", "Boris"]))
    arms._reaches = [Reach(start=30.0, end=32.3, edge="bottom", tip=(738.0, 122.0), frames=22,
                           path=((30.0, 760.0, 590.0), (31.0, 750.0, 300.0), (32.0, 738.0, 122.0)))]
    arms._settled_t = arms._prev_settled_t = 29.9
    unread = Candidate(32.4, 1, 32.4, (455.0, 396.0), 0.6 * 25.0)
    arms.assign(32.4, [unread])
    assert unread.edge is None
    read = Candidate(32.4, 1, 32.4, (455.0, 396.0), 0.6 * 25.0)
    read.names["2-6"] += 1
    arms.assign(32.4, [read])
    assert read.edge == "bottom"


def _pile_at_the_top_right():
    """A two-player table, the pile by Boris's side at the top right: a function that shows the
    draw watch `reaches` seen since the settled frame at `prev_t`, on the settled frame at `t`,
    and returns the draws pending (the watch and the pile kept from call to call)."""
    from vision.live.draws import DrawWatch

    cal = full_frame((640, 480), ["Anna", "Boris"])  # Anna bottom, Boris top
    pile = [_bone(600, 60), _bone(560, 60)]
    arms = Arms(TrackerConfig(), cal)
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [pile] * 8)
    watch = DrawWatch()

    def look(reaches: list[Reach], prev_t: float, t: float, laid: tuple[Reach, ...] = ()) -> list:
        arms._reaches, arms._prev_settled_t = [*laid, *reaches], prev_t
        arms._used.update(laid)
        arms._laid.extend(x for x in laid if x not in arms._laid)
        watch.watch(t, Observation(tuple(pile), size=(640, 480)), arms, bones, cal, 2)
        return list(watch.pending)

    return look


def test_two_glimpses_of_one_hand_at_the_pile_within_a_second_are_a_visit():
    """Fresh deal h209 (JPEG 40): Boris's hand at the pile seen on one frame, lost against the
    table, seen on one frame again 0.8 s later 9 px away; each alone is too short for a draw,
    together they are his draw. A glimpse elsewhere, or over a second later, is not joined."""
    def draws(second: Reach) -> list:
        first = Reach(21.8, 21.8, "top", (598.0, 52.0), deep=False, frames=1)
        look = _pile_at_the_top_right()
        assert look([first], 21.7, 21.9) == []
        return [(d.arm_t, d.edge) for d in look([first, second], 21.9, second.end + 0.2)]

    again = Reach(22.6, 22.6, "top", (594.0, 60.0), deep=False, frames=1)
    assert draws(again) == [(21.8, "top")]
    assert draws(replace(again, start=23.0, end=23.0)) == []  # over a second later
    assert draws(replace(again, edge="bottom")) == []  # another seat's


def test_a_glimpse_of_the_hand_that_just_laid_a_tile_going_out_by_the_pile_is_no_draw():
    """Fresh27 h616 (dark): Boris laid 2-5 and withdrew; his hand showed again on two frames at the
    top border beside the pile, 0.3 s after his arm was lost, and was told a draw he never made
    (Anna's draw was then written as his). Nobody draws right after laying: the turn has passed."""
    laid = Reach(5.2, 6.2, "top", (294.0, 146.0), path=((5.4, 282.0, 142.0), (5.6, 274.0, 278.0),
                                                       (6.2, 294.0, 146.0)))

    def draws(start: float) -> list:
        look = _pile_at_the_top_right()
        glimpse = Reach(start, start + 0.1, "top", (560.0, 10.0), deep=False, frames=2,
                        path=((start, 580.0, 10.0), (start + 0.1, 560.0, 10.0)))
        return [d.arm_t for d in look([glimpse], start - 0.1, start + 1.0, laid=(laid,))]

    assert draws(6.5) == []
    assert draws(7.5) == [7.5]  # over a second after it: a hand come again
    # Seen whole, a hand that came back to the pile is a visit, however soon.
    look = _pile_at_the_top_right()
    whole = Reach(6.5, 6.8, "top", (580.0, 50.0), deep=False, frames=4,
                  path=((6.5, 580.0, 10.0), (6.6, 580.0, 50.0), (6.8, 580.0, 20.0)))
    assert [d.arm_t for d in look([whole], 6.4, 7.0, laid=(laid,))] == [6.5]


def test_change_from_an_edge_where_nobody_sits_while_a_hand_lays_a_tile_is_no_draw():
    """Fresh44 h1010 (pin, two players, the camera turned 14 degrees): as Boris withdrew from
    laying 0-3, a shake lit the outlines of the pile's backs by the left edge, where nobody sits,
    on three frames; told a draw, turn order gave it to him. A seated edge, a hand seen deep, or
    change there before the laying arm came is still a visit."""
    laid = Reach(11.7, 12.7, "top", (358.0, 342.0), path=((11.8, 408.0, 188.0), (12.2, 358.0, 342.0)))

    def draws(other: Reach) -> list:
        look = _pile_at_the_top_right()
        return [d.edge for d in look([other], 11.5, 12.8, laid=(laid,))]

    shake = Reach(12.5, 12.7, "left", (560.0, 60.0), deep=False, frames=3,
                  path=((12.5, 560.0, 60.0), (12.6, 580.0, 60.0), (12.7, 560.0, 60.0)))
    assert draws(shake) == []
    assert draws(replace(shake, edge="bottom")) == ["bottom"]  # Anna's side
    assert draws(replace(shake, deep=True)) == ["left"]
    assert draws(replace(shake, start=11.6)) == ["left"]  # there before Boris's arm came


def test_a_glimpse_after_a_visit_is_not_joined_to_a_glimpse_before_it_BLB_2():
    """Fresh25 h569 (JPEG 40, blitz-blind, a draw ends the turn): Boris's one draw seen on one
    frame at the pile, then on two, then on one as his hand left; the first and the last glimpse,
    joined across the visit between them, were a second draw."""
    look = _pile_at_the_top_right()
    first = Reach(8.8, 8.8, "top", (585.0, 95.0), deep=False, frames=1, path=((8.8, 585.0, 95.0),))
    visit = Reach(9.2, 9.3, "top", (620.0, 90.0), deep=False, frames=2,
                  path=((9.2, 620.0, 90.0), (9.3, 585.0, 95.0)))
    leaving = Reach(9.7, 9.7, "top", (530.0, 80.0), deep=False, frames=1, path=((9.7, 530.0, 80.0),))
    assert look([first], 8.7, 8.9) == []
    assert [d.arm_t for d in look([first, visit], 8.9, 9.4)] == [9.2]
    assert [d.arm_t for d in look([first, visit, leaving], 9.4, 9.8)] == [9.2]


def test_a_hand_at_the_picture_s_border_beside_the_pile_reached_a_tile_out_of_view():
    """Fresh deal h242: the tile drawn lay mostly past the right border and was never boxed; the
    hand that took it, at that border 1.3 tile lengths from the nearest box, was taken for a hand
    elsewhere and the draw was lost."""
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [[_bone(560, 200), _bone(600, 260)]] * 8)
    gap = 1.6 * bones.tile_len
    assert bones.near((639.0, 260.0 + math.sqrt(gap**2 - 39.0**2)))  # at the border, 1.6 lengths away
    assert not bones.near((600.0, 260.0 + gap))  # as far from the pile, inside the picture
    assert not bones.near((639.0, 470.0))  # at the border, far from the pile


def test_a_tile_put_down_over_a_place_of_the_pile_hides_it_and_draws_nothing():
    """Fresh deal h245: a drawn tile put down at the end of its row lay over the corner of a pile
    tile; the detector boxed only the newcomer, and the place was written as a draw nobody made.
    A tile that lay there all along, or one put down beside it, hides nothing."""
    pile = [_bone(400, 300), _bone(460, 300)]
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [pile] * 8)
    over = tile(400 + 0.6 * L, 300 - 0.3 * L, 0.0, "north")  # its corner over the first tile
    assert _settled(bones, 1.0, [[pile[1], over]] * 20) == []
    assert bones.count == 2

    there = tile(400 + 0.6 * L, 300 - 0.3 * L, 0.0, "north")
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [[*pile, there]] * 8)
    assert len(_settled(bones, 1.0, [[pile[1], there]] * 20)) == 1
    # Rendered deal s44: a tile drawn and put in its row beside the pile, touching no pile tile,
    # hides nothing: the next draw from there is one.
    beside = tile(400 - 0.9 * L, 300, 90.0, "south")
    bones = Boneyard(stable_s=0.5)
    _settled(bones, 0.0, [pile] * 8)
    assert len(_settled(bones, 1.0, [[pile[1], beside]] * 20)) == 1


def test_a_tile_gone_from_the_pile_where_the_hand_that_laid_a_tile_passed_is_no_draw():
    """Fresh deal h249: north's row lay beside the pile and was taken for part of it; the tile
    north played from it left a place empty with no arm unused, and it was written as a draw
    nobody made. A place far from that hand's way is still a draw for the pile alone to tell."""
    from vision.live.boneyard import Drawn
    from vision.live.draws import DrawWatch

    cal = full_frame((640, 480), ["Anna", "Boris"])
    arms = Arms(TrackerConfig(), cal)
    laid = Reach(start=1.0, end=1.9, edge="top", tip=(300.0, 240.0),
                 path=((1.1, 300.0, 40.0), (1.3, 300.0, 140.0), (1.5, 300.0, 240.0)))
    arms._reaches, arms._used, arms._laid = [laid], {laid}, [laid]

    def after(place, laid_at_once: bool = False) -> DrawWatch:
        watch = DrawWatch()
        watch.watch(2.0, Observation((), size=(640, 480)), arms, _OneGone(Drawn(0.9, 2.0, place)), cal, 2,
                    laid_at_once)
        return watch

    row = after((300.0 + 1.5 * L, 50.0))
    assert row.pending == [] and row.unsure_since is None
    assert after((600.0, 400.0)).unsure_since == 2.0
    # Where a tile drawn may be laid at once (TRAD, SPI-1), a place the hand came over was its
    # draw (rendered deal s44); one it never came over is still a row's tile.
    assert after((300.0, 140.0), laid_at_once=True).unsure_since == 2.0
    assert after((300.0 + 1.5 * L, 50.0), laid_at_once=True).unsure_since is None
    assert after((300.0, 140.0)).unsure_since is None


def test_a_place_a_glimpse_emptied_is_the_draw_its_hand_was_told_after_it_BLB_2():
    """Fresh25 h569 (JPEG 40): Boris's hand glimpsed on one frame as a place of the pile emptied,
    then seen on two frames and told a draw; the place, found gone later and matched to the
    glimpse, was a second draw. It is that draw's place. Another seat's glimpse, or one far from
    the hand told, still draws."""
    from vision.live.boneyard import Drawn
    from vision.live.draws import Draw, DrawWatch

    cal = full_frame((640, 480), ["Anna", "Boris"])
    visit = Reach(9.2, 9.3, "top", (550.0, 54.0), deep=False, frames=2,
                  path=((9.2, 550.0, 54.0), (9.3, 526.0, 58.0)))

    def pending_after(glimpse: Reach) -> list:
        arms = Arms(TrackerConfig(), cal)
        arms._reaches, arms._used = [glimpse, visit], {visit}
        watch = DrawWatch()
        watch.pending.append(Draw(9.4, 9.2, "top"))
        watch._arm_draws.append((9.4, visit))
        watch.watch(9.9, Observation((), size=(640, 480)), arms, _OneGone(Drawn(8.7, 8.9, (540.0, 26.0))), cal, 2)
        return [(d.arm_t, d.edge) for d in watch.pending]

    glimpse = Reach(8.8, 8.8, "top", (526.0, 58.0), deep=False, frames=1, path=((8.8, 526.0, 58.0),))
    assert pending_after(glimpse) == [(9.2, "top")]
    assert pending_after(replace(glimpse, edge="bottom", tip=(526.0, 80.0))) == [(9.2, "top"), (8.8, "bottom")]
    assert len(pending_after(replace(glimpse, tip=(440.0, 40.0), path=((8.8, 440.0, 40.0),)))) == 2


def test_a_hand_at_a_corner_pile_seen_in_pieces_at_the_edges_beside_it_is_one_draw():
    """Fresh deal h256: south's arm came in by the bottom right corner, along the right edge, to
    a pile in the top right corner; the forearm, as deep into the table as the hand, was seen
    whole, the hand at the pile only as pieces at the right edge (twice, two frames each, 0.6 s
    apart) and the top. Each piece was too short, or a seat's own, and the draw was lost, or
    written twice."""
    from vision.live.draws import DrawWatch

    cal = full_frame((640, 480), ["Anna", "Boris"])  # Anna bottom, Boris top; nobody at the right
    pile = [_bone(600, 120), _bone(560, 80)]
    south = Reach(32.2, 32.9, "bottom", (586.0, 330.0), frames=8,
                  path=((32.2, 586.0, 330.0), (32.4, 598.0, 140.0), (32.5, 590.0, 128.0), (32.9, 586.0, 330.0)))

    def draws(reaches: list[Reach], last: Reach | None = None) -> list:
        arms = Arms(TrackerConfig(), cal)
        bones = Boneyard(stable_s=0.5)
        _settled(bones, 0.0, [pile] * 8)
        arms._reaches, arms._prev_settled_t = reaches, 32.0
        watch = DrawWatch()
        watch._last_visit = last
        watch.watch(33.0, Observation(tuple(pile), size=(640, 480)), arms, bones, cal, 2)
        return [(d.arm_t, d.edge) for d in watch.pending]

    assert draws([south]) == [(32.2, "bottom")]  # its hand kept at the pile on two frames
    # ... and so was one seen there twice among frames of its forearm alone (rendered deal s44)
    pieces = replace(south, path=((32.2, 586.0, 330.0), (32.3, 598.0, 140.0), (32.4, 586.0, 330.0),
                                  (32.5, 596.0, 142.0), (32.9, 586.0, 330.0)))
    assert draws([pieces]) == [(32.2, "bottom")]
    # ... not a hand passing the pile on its way, a tile length a frame, nor one passing the same
    # point in and out with its hand further in between (fresh13 h283)
    passing = replace(south, path=((32.2, 586.0, 330.0), (32.4, 560.0, 140.0), (32.5, 600.0, 100.0),
                                   (32.9, 586.0, 330.0)))
    assert draws([passing]) == []
    beyond = replace(south, path=((32.2, 586.0, 330.0), (32.3, 598.0, 140.0), (32.5, 590.0, 30.0),
                                  (32.7, 598.0, 138.0), (32.9, 586.0, 330.0)))
    assert draws([beyond]) == []
    away = replace(south, path=((32.2, 586.0, 330.0), (32.9, 586.0, 330.0)))
    right = [Reach(32.1, 32.2, "right", (598.0, 146.0), deep=False, frames=2),
             Reach(32.8, 32.9, "right", (602.0, 118.0), deep=False, frames=2)]
    assert draws([away]) == []
    assert draws([away, *right]) == [(32.2, "bottom")]  # the two glimpses, carried by south's arm
    top = Reach(32.5, 32.7, "top", (578.0, 60.0), deep=False, frames=2)
    assert draws([away, *right, top]) == [(32.2, "bottom")]  # one hand, one draw
    # Fresh38 h877 (small pips, dark): the hand seen once, at a seat's edge by the pile, while
    # south's arm, laying nothing, was over the table: south's draw; alone, a glimpse is nothing.
    once = Reach(32.6, 32.6, "top", (578.0, 60.0), deep=False, frames=1)
    assert draws([away, once]) == [(32.2, "bottom")]
    assert draws([once]) == []
    # ... but not south's arm going back from the visit it had just made (fresh28 h632)
    drew = Reach(30.9, 32.0, "bottom", (590.0, 120.0), frames=11)
    assert draws([away, once], last=drew) == []


def test_a_glimpse_at_the_pile_lit_in_scattered_pieces_is_no_draw():
    """Rendered deal s44 as the renderer draws it since session 47: an exposure flicker on two
    frames lit the dark pile's edges by north's side, on one of them in five pieces: taken for
    north's hand at the pile, a draw nobody made. A frame of scattered pieces is light; two
    frames of one hand's pieces are a visit."""
    def draws(scattered: int) -> list:
        glimpse = Reach(28.5, 28.9, "top", (598.0, 52.0), deep=False, frames=2, scattered=scattered)
        return _pile_at_the_top_right()([glimpse], 28.3, 29.5)

    assert draws(scattered=1) == []
    assert len(draws(scattered=0)) == 1


def test_a_place_gone_with_no_witness_after_an_arm_s_draw_whose_place_never_showed_is_that_draw():
    """Fresh22 h481 (DRK): the detector lost a back of the pile a second before Anna's hand took
    it; found gone with the place Boris had emptied, its time before her arm's, it was written
    as a draw of its own (Boris's by turn order). Where a draw ends the turn (DRK-2), an arm's
    draw told after the tile was last seen, for which no place was found, is that place's draw.
    A tile seen after every arm's draw is a draw of its own (the pile alone tells it)."""
    from vision.live.boneyard import Drawn
    from vision.live.draws import UNSURE_S, Draw, DrawWatch

    cal = full_frame((640, 480), ["Anna", "Boris"])
    arms = Arms(TrackerConfig(), cal)
    anna = Reach(start=9.1, end=10.1, edge="bottom", tip=(300.0, 300.0))

    def pending(last_seen: float, until_fits: bool = False) -> list:
        watch = DrawWatch()
        watch._arm_draws = [(10.2, anna)]
        watch.pending.append(Draw(10.2, 9.1, "bottom"))
        pile = _OneGone(Drawn(last_seen, last_seen + 1.0, (595.0, 87.0)))
        for t in (12.0, 12.0 + UNSURE_S + 0.1):
            watch.watch(t, Observation((), size=(640, 480)), arms, pile, cal, 2, laid_at_once=until_fits)
        return [(d.arm_t, d.edge) for d in watch.pending]

    assert pending(7.5) == [(9.1, "bottom")]
    assert pending(10.5) == [(9.1, "bottom"), (math.inf, None)]
    # Drawing until a tile fits (SPI-1, TRAD), one player's draws follow each other: two draws.
    assert pending(7.5, until_fits=True) == [(9.1, "bottom"), (math.inf, None)]


def test_an_arm_told_a_draw_whose_hand_was_over_a_tile_seen_as_it_left_laid_that_tile():
    """Fresh22 h499 (DRK): Anna's hand laid 0-3 by the pile; the tile was boxed only on the
    settled frame after her arm had gone, and her arm was told a draw. It laid the tile: no draw.
    Not an arm whose place of the pile was found gone, nor a tile seen long after."""
    from vision.live.draws import Draw, DrawWatch

    anna = Reach(start=22.1, end=22.9, edge="bottom", tip=(640.0, 540.0))

    def after(first_t: float, over: bool, confirmed: bool = False) -> tuple:
        watch = DrawWatch()
        watch.pending.append(Draw(23.0, 22.1, "bottom"))
        (watch._spent if confirmed else watch._arm_draws).append((23.0, anna))
        reach = watch.laid_instead(first_t, lambda r: over)
        return reach, len(watch.pending)

    assert after(23.3, over=True) == (anna, 0)
    assert after(23.3, over=False) == (None, 1)
    assert after(25.0, over=True) == (None, 1)
    assert after(23.3, over=True, confirmed=True) == (None, 1)


def test_a_hand_never_near_a_place_of_the_pile_did_not_empty_it():
    """Fresh22 h481 (DRK): a blob at the bottom edge on one frame, ten tile lengths from the
    pile, was the only arm gone while a place emptied, and was written as Anna's draw. An arm
    seen whole, its tip as far, is the taker still (fresh22 h485, TRAD)."""
    from vision.live.boneyard import Drawn
    from vision.live.draws import DrawWatch

    cal = full_frame((640, 480), ["Anna", "Boris"])

    def pending(tip: tuple[float, float], frames: int = 1) -> list:
        arms = Arms(TrackerConfig(), cal)
        arms._reaches.append(Reach(start=10.3, end=10.35, edge="bottom", tip=tip, frames=frames))
        watch = DrawWatch()
        watch.watch(12.0, Observation((), size=(640, 480)), arms, _OneGone(Drawn(10.2, 10.4, (538.0, 142.0))), cal, 2)
        return [d.edge for d in watch.pending]

    assert pending((222.0, 414.0)) == []  # not near: the place waits, unsure
    assert pending((520.0, 170.0)) == ["bottom"]
    # An arm seen whole may have been followed only part of the way (fresh22 h485).
    assert pending((222.0, 414.0), frames=7) == ["bottom"]


def test_a_place_hidden_long_takes_an_arm_s_draw_told_meanwhile_before_a_new_arm_DRK_2():
    """Fresh22 h490 (DRK): two places hidden since the deal's first draws, found gone together,
    took the arm of Boris's draw never seen whole at the pile; the place that arm emptied, found
    a second later, became a draw nobody made. A place hidden longer than HIDDEN_S, where a draw
    ends the turn, is first the draw of an arm told meanwhile with no place of its own. One
    hidden briefly goes to the arm the pile's timing gives it, and so does any where a player
    draws until a tile fits."""
    from vision.live.boneyard import Drawn
    from vision.live.draws import DrawWatch

    cal = full_frame((640, 480), ["Anna", "Boris"])
    early = Reach(start=5.0, end=5.5, edge="bottom", tip=(100.0, 340.0))  # told, its place never found
    boris = Reach(start=15.5, end=16.6, edge="top", tip=(105.0, 330.0), frames=2)  # not a visit

    def pending(before_t: float, until_fits: bool = False) -> list:
        arms = Arms(TrackerConfig(), cal)
        arms._reaches.append(boris)
        watch = DrawWatch()
        watch._aged = [(5.6, early)]
        pile = _OneGone(Drawn(before_t, 17.9, (104.0, 342.0)))
        watch.watch(19.5, Observation((), size=(640, 480)), arms, pile, cal, 2, laid_at_once=until_fits)
        return [(d.arm_t, d.edge) for d in watch.pending]

    assert pending(4.2) == []  # the early arm's draw: Boris's arm is left for its own place
    assert pending(15.2) == [(15.5, "top")]
    assert pending(4.2, until_fits=True) == [(15.5, "top")]


def test_a_hand_back_at_its_edge_between_two_trips_to_the_pile_in_one_reach_is_two_draws():
    """Fresh36 h827 (no divider, traditional): Anna drew five times back to back; two of the draws
    were one reach (2.3 s, the arm never out of the picture), her hand at the pile, back to 28 px
    from her edge, out to the pile again: one draw was told. A hand that stays at the pile while it
    moves between its tiles is one visit."""
    def draws(between: tuple[float, float]) -> list:
        look = _pile_at_the_top_right()
        points = [(590.0, 30.0), (600.0, 60.0), (600.0, 62.0), (600.0, 60.0), between,
                  (565.0, 40.0), (560.0, 60.0), (560.0, 62.0), (560.0, 60.0), (560.0, 30.0)]
        path = tuple((5.0 + 0.1 * k, x, y) for k, (x, y) in enumerate(points))
        reach = Reach(5.0, path[-1][0], "top", (600.0, 62.0), frames=len(path), path=path)
        return [d.arm_t for d in look([reach], 4.9, 6.2)]

    assert draws((580.0, 8.0)) == [5.0, 5.4]  # back at the edge between
    assert draws((580.0, 62.0)) == [5.0]  # along the pile from one tile to the next
