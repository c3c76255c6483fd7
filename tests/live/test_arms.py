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


def _a_spectator_then_a_tile() -> tuple[Arms, float]:
    """A spectator's hand from the right hovers over the chain and leaves; the left player lays
    1-6, given to their arm on the next settled frame."""
    arms = Arms(TrackerConfig(), full_frame(SIZE, ["Anna", "Boris", "Vera", "Gleb"]))
    t = _visit(arms, 5.1, "right", [(780.0, 240.0), (500.0, 236.0), (286.0, 234.0), (286.0, 234.0), (780.0, 240.0)])
    t = _visit(arms, t + 0.2, "left", [(20.0, 250.0), (300.0, 255.0), (514.0, 258.0), (514.0, 258.0), (20.0, 250.0)])
    first = _candidate("1-6", (460.0, 252.0))
    arms.assign(t, [first])
    assert first.edge == "left"
    return arms, t


def test_an_arm_since_the_last_settled_frame_that_passed_over_a_tile_laid_it_not_an_older_one():
    # Fresh deal h253: a spectator's hand from the east hovered over the chain and left; west laid
    # a tile, read on the next settled frame; west reached past the chain's far end to lay another,
    # and that tile went to the older spectator's hand: 6 px from it and the late cost, against 57 px.
    arms, t = _a_spectator_then_a_tile()
    t = _visit(arms, t + 0.2, "left", [(20.0, 240.0), (150.0, 235.0), (281.0, 236.0), (350.0, 228.0),
                                       (350.0, 228.0), (20.0, 240.0)])
    second = _candidate("0-3", (281.0, 238.0))
    arms.assign(t, [second])
    assert second.edge == "left"
    # ... but where the newer hand never came over the tile, the older arm may still have laid it,
    # unread on the settled frame between (the late cost stands)
    arms, t = _a_spectator_then_a_tile()
    t = _visit(arms, t + 0.2, "left", [(20.0, 400.0), (120.0, 420.0), (120.0, 420.0), (20.0, 400.0)])
    second = _candidate("0-3", (281.0, 238.0))
    arms.assign(t, [second])
    assert second.edge == "right"


def test_where_one_arm_may_lay_several_a_tile_it_never_came_near_is_not_its():
    # Fresh deal h262 (blitz): south's sleeve was the colour of the cloth. Its first tile came
    # with two glimpses of its hand beside it, the second with none; west's arm, crossing the
    # table to lay its own at the chain's far end, was given both tiles both times.
    players = ["Anna", "Boris", "Vera", "Gleb"]
    west = [(92.0, 272.0), (102.0, 212.0), (382.0, 292.0), (572.0, 318.0), (648.0, 298.0),
            (648.0, 298.0), (572.0, 328.0), (382.0, 288.0), (98.0, 178.0)]
    arms = Arms(TrackerConfig(), full_frame(SIZE, players))
    arms.observe(10.9, MotionInfo(False, True, "bottom", 0.05, 0.05, (("bottom", (282.0, 262.0), False),)))
    arms.observe(11.0, MotionInfo(False, False, None, 0.01, 0.01))
    arms.observe(11.1, MotionInfo(False, True, "bottom", 0.05, 0.05, (("bottom", (302.0, 348.0), False),)))
    for k in range(3):
        arms.observe(11.2 + 0.1 * k, MotionInfo(False, False, None, 0.01, 0.01))
    t = _visit(arms, 11.5, "left", west)
    own, glimpsed = _candidate("3-5", (612.0, 289.0)), _candidate("1-3", (303.0, 281.0))
    arms.assign(t, [own, glimpsed])
    assert (own.edge, glimpsed.edge) == ("left", "bottom")

    arms = Arms(TrackerConfig(), full_frame(SIZE, players))
    t = _visit(arms, 17.9, "left", west)
    own, unseen = _candidate("5-6", (612.0, 289.0)), _candidate("0-6", (203.0, 500.0))
    arms.assign(t, [own, unseen])
    assert own.edge == "left" and unseen.edge is None  # the rows, else turn order, tell
    assert unseen.arm_t < own.arm_t  # written first: its player moved before the arm's
    # ... but a tile its hand came to on its way is the one arm's (BLZ-3: several a turn)
    arms = Arms(TrackerConfig(), full_frame(SIZE, players))
    t = _visit(arms, 17.9, "left", west)
    own, passed = _candidate("5-6", (612.0, 289.0)), _candidate("0-6", (390.0, 300.0))
    arms.assign(t, [own, passed])
    assert own.edge == passed.edge == "left"


def test_one_tile_an_arm_never_came_near_with_another_seat_glimpsed_nearer_is_not_that_arm_s():
    # Fresh25 h573 (spider): Boris's arm seen only at his edge (three glimpses), his 1-4 seen
    # first after Anna's arm had gone to the pile at the far end, eight tile lengths from it.
    # Her arm, the one seen whole, was given it. No arm then: the rows, else turn order, tell.
    def with_boris(arms: Arms) -> float:
        for t, tip in ((13.0, (202.0, 74.0)), (13.2, (238.0, 70.0)), (14.0, (234.0, 66.0))):
            arms.observe(t, MotionInfo(False, True, "top", 0.01, 0.01, (("top", tip, True),)))
            arms.observe(t + 0.1, _QUIET)
        return 14.4

    to_pile = [(450.0, 442.0), (482.0, 330.0), (498.0, 174.0), (530.0, 114.0), (530.0, 118.0), (530.0, 118.0),
               (498.0, 174.0), (470.0, 334.0), (450.0, 442.0)]
    arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris"]))
    t = _visit(arms, with_boris(arms), "bottom", to_pile)
    laid = _candidate("1-4", (156.0, 175.0))
    arms.assign(t, [laid])
    assert laid.edge is None and not laid.rooted
    # with no other seat's arm glimpsed, the one arm seen keeps it (the schematic demo's arms
    # reach a fixed point of the table, not their tiles)
    arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris"]))
    t = _visit(arms, 14.4, "bottom", to_pile)
    laid = _candidate("1-4", (156.0, 175.0))
    arms.assign(t, [laid])
    assert laid.edge == "bottom"


def test_a_hand_laying_its_tile_beside_another_new_one_voids_no_older_claim_to_that_one():
    # Fresh deal h86 (one tile a turn): east's arm was seen on one frame; its 0-3 was not read on
    # the settled frame after, and south laid 0-0 beside it, its hand passing over 0-3. Both came
    # on one frame: each arm keeps its own (h253's rule is for one tile alone).
    arms = Arms(TrackerConfig(), full_frame(SIZE, ["Anna", "Boris", "Vera", "Gleb"]))
    arms.one_per_arm = True
    arms.observe(15.3, MotionInfo(False, True, "right", 0.05, 0.05, (("right", (688.0, 352.0), True),)))
    arms.observe(15.4, SETTLED)
    arms.settled(15.4)
    t = _visit(arms, 16.6, "bottom", [(492.0, 590.0), (452.0, 438.0), (518.0, 318.0), (508.0, 268.0), (512.0, 272.0),
                                      (538.0, 262.0), (538.0, 262.0), (448.0, 438.0)])
    laid, beside = _candidate("0-0", (529.0, 283.0)), _candidate("0-3", (485.0, 271.0))
    laid.to_votes["0-3"] += 3  # laid against it: after it
    arms.assign(t, [laid, beside])
    assert (laid.edge, beside.edge) == ("bottom", "right")


def test_an_edge_seen_only_in_glimpses_came_at_its_first_glimpse_since_the_table_was_still():
    # Fresh15 h313 (one tile a turn): Gleb's sleeve (right) seen in pieces from 25.3 s (the table
    # still once at 25.4 s), Anna's (bottom) once at 26.6 s, then one more piece at the right at
    # 27.0 s. 1-2 (Gleb's) and 2-6 laid on it (Anna's): the right came first.
    def glimpse(t, edge, tip):
        return t, MotionInfo(False, True, edge, 0.05, 0.05, ((edge, tip, True),))

    arms = Arms(TrackerConfig(), full_frame(SIZE, ["Anna", "Boris", "Vera", "Gleb"]))
    arms.one_per_arm = True
    arms.observe(24.0, SETTLED)
    arms.settled(24.0)
    seen = dict([glimpse(25.3, "right", (554.0, 254.0)), glimpse(25.5, "right", (562.0, 238.0)),
                 glimpse(25.6, "right", (562.0, 238.0)), glimpse(26.3, "right", (558.0, 226.0)),
                 glimpse(26.6, "bottom", (398.0, 414.0)), glimpse(27.0, "right", (554.0, 234.0)),
                 glimpse(27.4, "right", (554.0, 234.0))])
    for k in range(253, 276):  # a frame every 0.1 s, the table still once (at 25.4 s)
        arms.observe(k / 10, seen.get(k / 10, SETTLED if k == 254 else _QUIET))
        if k == 254:
            arms.settled(k / 10)
    arms.observe(27.6, SETTLED)
    arms.settled(27.6)
    first, second = _candidate("1-2", (463.0, 207.0)), _candidate("2-6", (502.0, 199.0))
    second.to_votes["1-2"] += 3  # laid against it: after it
    arms.assign(27.6, [first, second])
    assert (first.edge, second.edge) == ("right", "bottom")


def test_an_older_arm_another_arm_outlived_yields_to_pieces_of_an_arm_since():
    # Fresh17 h361: a spectator's hand from the right laid nothing; Boris's arm from the left laid
    # 1-6, given on the next settled frame; Vera's sleeve, seen only in pieces by her row, laid
    # 0-2 where the spectator's hand had hovered: the older arm's tile would have been seen by now.
    arms, t = _a_spectator_then_a_tile()
    t = _visit(arms, t + 0.2, "top", [(326.0, 40.0), (326.0, 86.0), (326.0, 90.0), (326.0, 86.0), (326.0, 40.0)])
    assert not arms._reaches[-1].deep  # pieces only
    second = _candidate("0-2", (282.0, 235.0))
    arms.assign(t, [second])
    assert second.edge == "top"


def test_a_tile_gone_from_the_pile_was_taken_by_a_hand_from_a_seat_not_by_light_or_an_empty_side():
    """The test deal s44 framed (two players, south and north): an exposure flicker lit the
    cloth's stripes along the left edge, where nobody sits, and along the bottom in pieces; a
    place of the pile found gone later was written as a draw by those 'arms'."""
    from vision.live.arms import Reach

    arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris"]))
    side = Reach(5.1, 5.2, "left", (122.0, 178.0), deep=False, frames=1)
    light = Reach(5.1, 5.2, "bottom", (58.0, 398.0), deep=False, frames=2, scattered=2)
    arms._reaches = [side, light]
    assert arms.took_from([(398.0, 188.0)], 3.5, 8.7) == [None]
    hand = Reach(6.0, 6.5, "top", (380.0, 200.0))
    arms._reaches.append(hand)
    assert arms.took_from([(398.0, 188.0)], 3.5, 8.7) == [hand]


def test_of_more_tiles_than_arms_each_goes_to_the_hand_that_came_nearest_it_not_the_nearest_tip():
    # Fresh30 h676 (blitz), the hands as the motion gate followed them: Vera's laid 0-2, then 5-6,
    # reaching deepest by the 5-6; Gleb's laid 2-3 beyond the 0-2, two blobs by Anna's row taken
    # for his tip. By tips, the 2-3 went to Vera; by where each hand came, each tile is right.
    arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris", "Vera", "Gleb"]))
    arms.settled(3.5)
    vera = [(330, 86), (270, 26), (258, 146), (270, 242), (222, 278), (270, 282), (162, 414), (254, 278),
            (266, 282), (294, 290), (262, 146), (278, 30), (274, 146), (370, 30), (346, 170), (398, 250),
            (386, 286), (390, 286), (390, 282), (378, 278), (390, 286), (398, 266), (370, 154), (306, 94)]
    gleb = [(570, 258), (390, 242), (250, 246), (174, 382), (190, 242), (186, 246), (186, 250), (170, 390),
            (194, 242), (390, 246), (570, 250)]
    t = 3.6
    motions = [*(_arm_at("top", (float(x), float(y))) for x, y in vera), _QUIET,  # no still frame
               *(_arm_at("right", (float(x), float(y))) for x, y in gleb)]
    for motion in motions:
        arms.observe(t, motion)
        t += 0.1
    arms.observe(t, SETTLED)
    arms.settled(t)
    tiles = {"0-2": _candidate("0-2", (280.0, 241.0)), "5-6": _candidate("5-6", (410.0, 242.0)),
             "2-3": _candidate("2-3", (227.0, 241.0))}
    tiles["2-3"].to_votes["0-2"] += 1
    arms.assign(t, list(tiles.values()))
    assert {n: c.edge for n, c in tiles.items()} == {"0-2": "top", "5-6": "top", "2-3": "right"}


def test_an_older_arm_two_readings_saw_lay_nothing_yields_to_pieces_of_an_arm_since():
    # Fresh32 h733: a spectator's hand from the right hovered over the chain and left; two
    # readings in the 0.4 s after it saw no new tile; then Boris's sleeve, seen only in pieces,
    # laid 1-5 where the hand had hovered, and it went to the spectator's side.
    arms = Arms(TrackerConfig(), full_frame(SIZE, ["Anna", "Boris", "Vera", "Gleb"]))
    t = _visit(arms, 5.3, "right", [(626.0, 278.0), (482.0, 242.0), (386.0, 230.0), (386.0, 230.0), (626.0, 278.0)])
    arms.note_read(t, False)
    arms.note_read(t + 0.3, False)  # 0.3 s: short of stable_s, so not `silent`
    t = _visit(arms, t + 0.5, "left", [(30.0, 142.0), (34.0, 146.0)])
    assert not arms._reaches[-1].deep  # pieces only
    tile = _candidate("1-5", (450.0, 259.0))
    arms.assign(t, [tile])
    assert tile.edge == "left"


def test_a_glimpse_whose_arm_went_on_to_lay_a_tile_elsewhere_did_not_lay_the_tile_given_it():
    # Fresh35 h812 (no divider): Vera's 0-4, laid by an arm never seen, was boxed first on the
    # frame after Gleb's hand showed at his edge; it took that glimpse, and Gleb's hand went on to
    # lay 3-3 at the far end of the chain: the 0-4 was written as Gleb's.
    arms = Arms(TrackerConfig(), full_frame(SIZE, ["Anna", "Boris", "Vera", "Gleb"]))
    t = _visit(arms, 14.1, "right", [(780.0, 226.0)])  # a glimpse of Gleb's hand at his edge
    lost = _candidate("0-4", (160.0, 300.0))
    arms.assign(t, [lost])
    assert lost.edge == "right" and arms.went_elsewhere(lost) is None  # nothing tells yet
    t = _visit(arms, t + 0.1, "right", [(700.0, 300.0), (600.0, 320.0), (600.0, 320.0), (600.0, 320.0),
                                       (700.0, 300.0), (780.0, 300.0)])
    laid = _candidate("3-3", (600.0, 320.0))
    arms.assign(t, [laid])
    assert laid.edge == "right"
    assert arms.went_elsewhere(lost) is not None and arms.went_elsewhere(laid) is None
    # Where the hand came near the tile on its way, it may have laid both.
    near = _candidate("0-4", (640.0, 310.0))
    near.edge, near.arm_t = lost.edge, lost.arm_t
    assert arms.went_elsewhere(near) is None


def test_an_older_arm_two_readings_saw_lay_nothing_yields_to_an_arm_since_that_fell_short():
    # Fresh39 h903 (faint divider, a pine table): a spectator's hand from the right hovered near
    # where Boris's 0-3 came; two fresh readings after it saw no new tile; Boris's hand, lost
    # against the wood, was seen 100 px short of the tile, and the tile went to the spectator's side.
    def spectator_then_boris(second_reading: bool) -> Candidate:
        arms = Arms(TrackerConfig(), full_frame(SIZE, ["Anna", "Boris", "Vera", "Gleb"]))
        t = _visit(arms, 5.3, "right", [(718.0, 422.0), (518.0, 352.0), (382.0, 302.0), (318.0, 268.0),
                                        (318.0, 268.0), (382.0, 312.0), (722.0, 428.0)])
        arms.note_read(t, False)
        if second_reading:
            arms.note_read(t + 0.3, False)  # 0.3 s: short of stable_s, so not `silent`
        t = _visit(arms, t + 0.4, "left", [(58.0, 168.0), (208.0, 202.0), (242.0, 252.0), (262.0, 258.0),
                                          (262.0, 258.0), (238.0, 252.0), (58.0, 172.0)])
        tile = _candidate("0-3", (362.0, 288.0))
        arms.assign(t, [tile])
        return tile

    assert spectator_then_boris(second_reading=True).edge == "left"
    # one reading after the spectator's hand: the tile may have been unread on it (the late cost
    # weighs the two arms as before)
    assert spectator_then_boris(second_reading=False).edge == "right"


def test_of_more_tiles_than_arms_one_goes_to_an_arm_two_readings_saw_lay_nothing_whose_hand_came_to_it():
    # Fresh42 h979 (groove, Sport: one tile a visit): Gleb's arm from the right laid 3-6 in a tight
    # spiral of grooved tiles; the two readings after it could not box it; Anna's 6-6 came beside
    # it and both were boxed together: both went to Anna, Gleb's arm "silent".
    arms = Arms(TrackerConfig(), full_frame(SIZE, ["Anna", "Boris", "Vera", "Gleb"]))
    arms.one_per_arm = True
    t = _visit(arms, 26.0, "right", [(708.0, 252.0), (418.0, 458.0), (218.0, 408.0), (150.0, 370.0),
                                     (150.0, 370.0), (418.0, 452.0), (708.0, 508.0)])
    arms.note_read(t, False)
    arms.note_read(t + 1.3, False)  # two quiet readings over stable_s: `silent`
    t = _visit(arms, t + 1.4, "bottom", [(438.0, 518.0), (202.0, 378.0), (218.0, 342.0), (218.0, 342.0),
                                         (198.0, 462.0), (148.0, 568.0)])
    six_six, three_six = _candidate("6-6", (217.0, 372.0)), _candidate("3-6", (168.0, 358.0))
    arms.assign(t, [six_six, three_six])
    assert (three_six.edge, six_six.edge) == ("right", "bottom")


def test_an_unread_box_seen_with_two_tiles_does_not_make_one_arm_lay_them_all():
    # Fresh26 h579 (engraved, Bykovo): Gleb's 2-2 and Anna's 1-2, laid against it, were first seen
    # together with an unread box beside them, the table not still between the two arms; three
    # boxes for two arms, so "one arm laid several": all three went to Gleb's, whose hand had
    # passed over the 1-2's place. The arms go to the tiles read; the box to the nearest hand.
    arms = Arms(TrackerConfig(), full_frame(SIZE, ["Anna", "Boris", "Vera", "Gleb"]))
    arms.one_per_arm = True
    arms.settled(3.0)
    right = [(780.0, 300.0), (560.0, 320.0), (340.0, 335.0), (390.0, 330.0), (390.0, 330.0), (600.0, 320.0)]
    bottom = [(400.0, 590.0), (360.0, 450.0), (345.0, 360.0), (345.0, 360.0), (380.0, 520.0)]
    t = 3.1
    for motion in [*(_arm_at("right", tip) for tip in right), _QUIET, *(_arm_at("bottom", tip) for tip in bottom)]:
        arms.observe(t, motion)
        t += 0.1
    arms.observe(t, SETTLED)
    arms.settled(t)
    double, against = _candidate("2-2", (390.0, 330.0)), _candidate("1-2", (345.0, 340.0))
    against.to_votes["2-2"] += 1
    box = Candidate(3.0, 1, 3.0, (360.0, 310.0), 18.0)  # boxed, never read
    arms.assign(t, [double, against, box])
    assert (double.edge, against.edge) == ("right", "bottom")


def test_an_arm_whose_draw_the_drawn_out_boneyard_refused_laid_the_tile_read_after_it():
    # Fresh45 h1037 (no divider, blitz-blind): Boris's arm laid the deal's last tile, 1-4, by the
    # pile; unboxed until 1.3 s after his arm left, it was told a draw, refused (the boneyard was
    # drawn out), and the tile, with no arm, went to Anna by her row, which she was laying out for
    # the recount.
    def last_tile(refused: bool) -> Candidate:
        arms = Arms(TrackerConfig(), full_frame((640, 480), ["Anna", "Boris"]))
        t = _visit(arms, 52.7, "top", [(414.0, 86.0), (426.0, 154.0), (422.0, 182.0), (426.0, 190.0),
                                       (414.0, 182.0), (430.0, 186.0), (422.0, 170.0), (422.0, 86.0)])
        arms.spend(arms.unused_since(arms.previous_settled, t)[0])  # the draw watch took it
        if refused:
            arms.undrawn("top", 52.7)
        arms.note_read(t, False)
        arms.note_read(t + 0.6, False)  # two quiet readings over stable_s: `silent`
        c = _candidate("1-4", (419.0, 157.0))
        arms.assign(t + 1.3, [c])
        return c

    assert last_tile(refused=True).edge == "top"
    assert last_tile(refused=False).edge is None  # a draw it stays: no arm for the tile
