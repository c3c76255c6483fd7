"""The tracker's parts on their own: naming a frame's tiles, the recount's hands, misread flags."""

from __future__ import annotations

from dataclasses import replace

from engine.tiles import ALL_TILES
from vision.live.boneyard import Boneyard
from vision.live.calibration import full_frame
from vision.live.flags import MisreadWatch
from vision.live.naming import (
    blank_backs,
    blank_on_end,
    blank_opener,
    closed_by,
    middle_opener,
    name_tiles,
    reown,
)
from vision.live.observation import LAYOUT, Observation, TileObs
from vision.live.places import Committed
from vision.live.reveal import (
    RevealWatch,
    blank_in_hand,
    blank_off_pile,
    by_elimination,
    laid_apart,
    to_counts,
)


def _tile(values, halves, face="up", owner=LAYOUT, confidence=1.0) -> TileObs:
    return TileObs(values, halves, face=face, owner=owner, confidence=confidence)


def test_a_face_down_tile_closing_an_end_is_named_the_double_of_that_end():
    played = _tile((2, 5), ((0.0, 0.0), (20.0, 0.0)))
    closed = _tile(None, ((40.0, 0.0), (60.0, 0.0)), face="down")
    obs = Observation((played, closed), ((0, 1),))
    assert name_tiles(obs, {}, face_down=True, join_factor=1.8) == ["2-5", "5-5"]
    assert name_tiles(obs, {}, face_down=False, join_factor=1.8) == ["2-5", None]


def test_a_face_down_tile_joined_to_a_tile_whose_double_lies_elsewhere_closes_the_open_end_beside_it():
    # Fresh31 h699 (spider): a closed 5-5 at the 1-5's open end, joined by the reader to the 2-2
    # beside it (its side towards the back shows 2) while the 2-2 lies elsewhere. Fresh26 h576: a
    # back boxed in a gap of the chain, by an end already closed, closes nothing.
    two = _tile((2, 2), ((0.0, 30.0), (20.0, 30.0)))
    one_five = _tile((1, 5), ((0.0, 0.0), (20.0, 0.0)))
    back = _tile(None, ((40.0, 5.0), (40.0, 25.0)), face="down")
    elsewhere = _tile((2, 2), ((300.0, 0.0), (320.0, 0.0)))
    obs = Observation((two, one_five, back), ((0, 2),))
    played = {"2-2": Committed("2-2", "Anna", None, "up", 0.0, 0.0, elsewhere),
              "1-5": Committed("1-5", "Boris", None, "up", 0.0, 0.0, one_five)}
    names = name_tiles(obs, played, face_down=True, join_factor=1.8, open_ends=lambda: [("1-5", 5)])
    assert names[2] == "5-5"
    assert name_tiles(obs, played, face_down=True, join_factor=1.8, open_ends=lambda: [("1-5", 1)])[2] is None


def test_a_closed_double_closes_the_open_end_not_a_closed_one_nearer_it_bal_12():
    # Fresh37 h846 (Baltic, BAL-12): Gleb's closed 0-0 at the 0 of 0-3 lay corner to corner with
    # 0-6, whose 0 was joined to 0-2 long before; held as laid against the 0-6 (a misfit), it was
    # written after Anna's 4-5, laid after it.
    zero_three = _tile((3, 0), ((0.0, 0.0), (20.0, 0.0)))
    back = _tile(None, ((40.0, -10.0), (40.0, 10.0)), face="down")
    zero_six = _tile((0, 6), ((40.0, 25.0), (60.0, 25.0)))
    obs = Observation((zero_three, back, zero_six))
    names = ["0-3", "0-0", "0-6"]
    assert closed_by(obs, 1, names, lambda n: True, 1.8) == 2  # the nearest 0
    assert closed_by(obs, 1, names, lambda n: True, 1.8, {("0-3", 0), ("0-6", 6)}) == 0
    # no open 0 near: the nearest 0 still, as where the open ends are not known
    assert closed_by(obs, 1, names, lambda n: True, 1.8, {("0-6", 6)}) == 2


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


def test_a_tile_laid_on_a_move_not_boxed_on_this_frame_is_in_the_layout():
    # Fresh27 h602 (no divider): the 2-2 opener boxed at 0.36, then not at all for 4 s; Boris's
    # 2-5 laid on it was a piece of nobody's chain, written after Anna's next play.
    seen_before = _tile((2, 2), ((400.0, 290.0), (400.0, 310.0)))
    move = Committed("2-2", "Boris", None, "up", 3.5, 4.8, seen_before)
    next_to = _tile((2, 3), ((420.0, 300.0), (440.0, 300.0)))
    laid = _tile((5, 2), ((360.0, 300.0), (380.0, 300.0)), owner="west")
    far = _tile((0, 1), ((100.0, 40.0), (120.0, 40.0)), owner="north")
    obs = Observation((next_to, laid, far))
    assert [t.owner for t in reown(obs).tiles] == [LAYOUT, "west", "north"]
    assert [t.owner for t in reown(obs, {"2-2": move}).tiles] == [LAYOUT, LAYOUT, "north"]


def _row(y: float, owner: str) -> list[TileObs]:
    """A hand of five face-down tiles side by side, 40 px long, at the frame's edge."""
    return [_tile(None, ((100.0 + 22 * k, y - 10), (100.0 + 22 * k, y + 10)), face="down", owner=owner)
            for k in range(5)]


def test_a_back_on_an_end_showing_0_is_the_blank_where_nothing_is_laid_face_down():
    # Fresh23 h527 (no divider, Sevastopol): Vera's last tile, the 0-0, laid across the 0 of the
    # 0-6, a back to the reader on every frame; the deal was written blocked, not Vera out.
    played = _tile((6, 0), ((0.0, 0.0), (20.0, 0.0)))
    move = {"0-6": Committed("0-6", "Vera", None, "up", 0.0, 0.0, played)}
    blank = _tile(None, ((40.0, -10.0), (40.0, 10.0)), face="down")
    out = blank_on_end(Observation((played, blank), ((0, 1),)), move, 1.8).tiles[1]
    assert (out.values, out.face, out.owner) == ((0, 0), "up", LAYOUT)
    on_six = Observation((_tile((0, 6), ((0.0, 0.0), (20.0, 0.0))), blank), ((0, 1),))
    assert blank_on_end(on_six, {"0-6": Committed("0-6", "Vera", None, "up", 0.0, 0.0, on_six.tiles[0])},
                        1.8) is on_six  # a back by a 6 is no 0-0
    played_blank = {**move, "0-0": Committed("0-0", "Anna", None, "up", 0.0, 0.0, played)}
    obs = Observation((played, blank), ((0, 1),))
    assert blank_on_end(obs, played_blank, 1.8) is obs  # the 0-0 is a move already
    apart = Observation((played, blank))  # not joined to the layout
    assert blank_on_end(apart, move, 1.8) is apart


def test_a_lone_back_in_the_middle_before_any_move_is_the_blank_opener_BYK_1_5():
    # fresh live deal h47: a 0-0 with no divider, of a set whose backs are its faces' colour
    opener = _tile(None, ((390.0, 300.0), (410.0, 300.0)), face="down", owner="south")
    obs = Observation((*_row(560.0, "south"), *_row(40.0, "north"), opener), size=(800, 600))
    out = blank_opener(obs, {}, blank_may_open=True).tiles[-1]
    assert (out.values, out.face, out.owner) == ((0, 0), "up", LAYOUT)
    # not where the 0-0 may not open (SPI-2 opens with 1-1), not once a move is made
    assert blank_opener(obs, {}, blank_may_open=False) is obs
    first = Committed("1-1", "Anna", None, "up", 0.0, 0.0, _tile((1, 1), ((390.0, 200.0), (410.0, 200.0))))
    assert blank_opener(obs, {"1-1": first}, blank_may_open=True) is obs


def test_a_back_among_face_up_tiles_showing_0_before_any_move_is_the_blank_opener_BLB():
    # fresh live deal h154 (blitz, groove set): the 0-0 and the 0-2 laid on it in one visit; the
    # 0-0 read as a back on the first settled frame
    opener = _tile(None, ((390.0, 300.0), (410.0, 300.0)), face="down")
    laid = _tile((0, 2), ((430.0, 300.0), (450.0, 300.0)))
    obs = Observation((*_row(560.0, "south"), opener, laid), size=(800, 600))
    out = blank_opener(obs, {}, blank_may_open=True).tiles[-2]
    assert (out.values, out.face, out.owner) == ((0, 0), "up", LAYOUT)
    # not where a double may be laid face down (SPI-4, BAL-12: that back may close an end)
    assert blank_opener(obs, {}, blank_may_open=True, closed_doubles=True) is obs
    # not beside a tile that shows no 0, nor beside a hand's tile
    other = Observation((opener, _tile((3, 2), ((430.0, 300.0), (450.0, 300.0)))), size=(800, 600))
    assert blank_opener(other, {}, blank_may_open=True) is other
    hand = Observation((opener, replace(laid, owner="south")), size=(800, 600))
    assert blank_opener(hand, {}, blank_may_open=True) is hand


def test_backs_in_rows_and_a_heap_are_no_opener():
    rows = _row(560.0, "south")
    heap = [_tile(None, ((380.0 + 15 * k, 290.0 + 9 * k), (395.0 + 15 * k, 305.0 + 9 * k)), face="down", owner="east")
            for k in range(4)]
    obs = Observation((*rows, *heap), size=(800, 600))
    assert blank_opener(obs, {}, blank_may_open=True) is obs  # the heap's tiles lie near each other
    edge = Observation((*rows, _tile(None, ((30.0, 300.0), (50.0, 300.0)), face="down", owner="west")), size=(800, 600))
    assert blank_opener(edge, {}, blank_may_open=True) is edge  # alone, but by the table's edge


def test_once_the_blank_opener_is_a_move_a_back_on_its_place_is_it():
    laid = _tile((0, 0), ((390.0, 300.0), (410.0, 300.0)))
    move = Committed("0-0", "Anna", None, "up", 0.0, 0.0, laid)
    seen = _tile(None, ((391.0, 301.0), (411.0, 301.0)), face="down", owner="south")
    beside = _tile((0, 3), ((430.0, 300.0), (450.0, 300.0)))
    out = blank_opener(Observation((seen, beside), size=(800, 600)), {"0-0": move}, blank_may_open=True)
    assert out.tiles[0].values == (0, 0) and out.tiles[0].owner == LAYOUT
    closed = Committed("0-0", "Anna", "0-3", "down", 0.0, 0.0, laid)  # laid face down on purpose (SPI-4)
    obs = Observation((seen, beside), size=(800, 600))
    assert blank_opener(obs, {"0-0": closed}, blank_may_open=True) is obs


def test_spi4_a_blank_face_away_from_the_blank_double_is_a_closed_double_s_back():
    # fresh live deal h105: a light back with no mark of its own, a 2-2 laid face down at a 2
    # end, read 0-0 face up where the 0-0 already lay elsewhere
    opener = Committed("0-0", "Boris", None, "up", 0.0, 0.0, _tile((0, 0), ((390.0, 300.0), (390.0, 320.0))))
    end = _tile((0, 2), ((420.0, 310.0), (460.0, 310.0)))
    back = _tile((0, 0), ((490.0, 300.0), (490.0, 320.0)), confidence=0.57)
    obs = Observation((opener.obs, end, back), ((0, 1), (1, 2)), size=(800, 600))
    out = blank_backs(obs, {"0-0": opener}, 2.0)
    assert (out.tiles[2].face, out.tiles[2].values) == ("down", None)
    assert out.tiles[:2] == obs.tiles[:2]  # the 0-0 itself, on its place, stays a face
    assert blank_backs(obs, {}, 2.0) is obs  # nothing laid yet: this one may be the 0-0
    assert name_tiles(out, {"0-0": opener}, face_down=True, join_factor=2.0)[2] == "2-2"


def test_spi4_with_the_blank_double_not_laid_a_blank_face_on_an_end_with_no_0_is_that_end_s_double():
    # fresh deal h258: a faint-divider set's 5-5 laid face down on a 5 end, its back read 0-0
    # face up, with no reader's join; the 0-0 itself was in a hand: held as a misfit to confirm
    end = _tile((1, 5), ((420.0, 310.0), (460.0, 310.0)))
    laid = Committed("1-5", "Gleb", "1-1", "up", 0.0, 0.0, end)
    back = _tile((0, 0), ((480.0, 300.0), (480.0, 320.0)))
    obs = Observation((end, back), size=(800, 600))
    out = blank_backs(obs, {"1-5": laid}, 2.0)
    assert (out.tiles[1].face, out.tiles[1].values) == ("down", (5, 5))
    assert name_tiles(out, {"1-5": laid}, face_down=True, join_factor=2.0)[1] == "5-5"
    # on an end showing 0 it is the 0-0, face up
    zero = _tile((1, 0), ((420.0, 310.0), (460.0, 310.0)))
    obs = Observation((zero, back), size=(800, 600))
    assert blank_backs(obs, {"0-1": replace(laid, tile="0-1", obs=zero)}, 2.0) is obs


def test_the_recount_reveals_hands_once_they_held_still():
    watch = RevealWatch()
    watch.begin(0.0)
    hands = {"1-2": "Anna", "3-3": "Boris"}
    expected = {"Anna": 1, "Boris": 1}
    found = [watch.hands(t, hands, ["Anna", "Boris"], expected, stable_s=0.5) for t in (0.1, 0.3, 0.5, 0.7)]
    assert found[:3] == [None, None, None]  # still for 0.4 s, under stable_s
    assert found[3] == ({"Anna": ["1-2"], "Boris": ["3-3"]}, True)


def test_byk_1_9_where_every_hand_was_emptied_the_recount_reveals_empty_hands_with_nothing_laid_out():
    # Fresh32 h723: the circle played out after Boris went out, and everyone emptied their hand;
    # nothing to lay out, and the recount waited for hands forever.
    players = ["Anna", "Boris"]
    watch = RevealWatch()
    watch.begin(0.0)
    found = [watch.hands(t, {}, players, {"Anna": 0, "Boris": 0}, stable_s=0.5) for t in (0.1, 0.3, 0.5, 0.7)]
    assert found[:3] == [None, None, None]
    assert found[3] == ({"Anna": [], "Boris": []}, True)
    # A hand still held is not revealed empty: it must be laid out.
    watch = RevealWatch()
    watch.begin(0.0)
    assert [watch.hands(t, {}, players, {"Anna": 0, "Boris": 2}, stable_s=0.5) for t in (0.1, 0.3, 0.5, 0.7, 2.9)] == [None] * 5


def test_set_the_tiles_left_go_to_the_short_hand_only_when_none_can_lie_elsewhere():
    hands = {"Anna": ["1-2", "3-3"], "Boris": ["0-6"]}
    left = {"4-5"}
    accounted = {str(t) for t in ALL_TILES} - left
    counts = {"Anna": 3, "Boris": 1}
    assert by_elimination(hands, counts, accounted, 0) == ({"Anna": ["1-2", "3-3", "4-5"], "Boris": ["0-6"]},
                                                           ["4-5"])
    assert by_elimination(hands, counts, accounted, 1) == (hands, [])  # a tile may lie in the boneyard
    assert by_elimination(hands, None, accounted, 0) == (hands, [])  # the counts are not known
    assert by_elimination(hands, counts, accounted - {"2-2"}, 0) == (hands, [])  # two left, one short
    assert by_elimination(hands, {**counts, "Boris": 0}, accounted, 0) == (hands, [])  # a hand over


def test_a_recount_tile_at_the_seat_of_a_player_who_is_out_goes_to_the_hand_short_of_it():
    # Fresh live deals h469 (Boris's 2-6 nearer the edge of a table found down to a cloth's shade
    # only, given to Anna, who was out) and h464 (a die at Gleb's side read 1-2)
    calib = full_frame((800, 600), ["Anna", "Boris", "Vera", "Gleb"])  # bottom, left, top, right
    hands = {"2-6": "Anna", "0-5": "Vera", "2-5": "Vera", "0-6": "Gleb"}
    centres = {"2-6": (60.0, 520.0), "0-5": (380.0, 60.0), "2-5": (420.0, 60.0), "0-6": (760.0, 300.0)}
    expected = {"Anna": 0, "Boris": 1, "Vera": 2, "Gleb": 1}
    assert to_counts(hands, centres, expected, calib) == {**hands, "2-6": "Boris"}
    # The hands as the record has them, counts unknown, or a tile not seen: left as read.
    assert to_counts({**hands, "2-6": "Boris"}, centres, expected, calib) == {**hands, "2-6": "Boris"}
    assert to_counts(hands, centres, None, calib) == hands
    assert to_counts(hands, centres, {**expected, "Boris": 2}, calib) == hands
    # Of the tiles at a seat over its count, the one nearest the seat short of one moves.
    two = {"2-6": "Anna", "3-4": "Anna"}
    near = {"2-6": (60.0, 520.0), "3-4": (500.0, 580.0)}
    assert to_counts(two, near, {"Anna": 1, "Boris": 1, "Vera": 0, "Gleb": 0}, calib) == {"2-6": "Boris", "3-4": "Anna"}


def test_a_lone_back_at_a_seat_in_the_recount_is_the_blank_double():
    # fresh live deal h77: no divider, black backs; Boris's last tile, the 0-0, a plain light tile,
    # was boxed as a back and his hand revealed empty
    calib = full_frame((800, 600), ["Anna", "Boris", "Vera", "Gleb"])  # Boris on the left edge
    blank = _tile(None, ((40.0, 290.0), (40.0, 310.0)), face="down", owner="west")
    vera = _tile((4, 4), ((390.0, 40.0), (410.0, 40.0)), owner="north")
    obs = Observation((blank, vera), size=(800, 600))
    hands = {"4-4": "Vera"}
    expected = {"Anna": 0, "Boris": 1, "Vera": 1, "Gleb": 0}
    assert blank_in_hand(obs, hands, {}, calib, expected) == {"4-4": "Vera", "0-0": "Boris"}
    assert blank_in_hand(obs, hands, {}, calib, {**expected, "Boris": 2}) == hands  # a back short
    played = Committed("0-0", "Anna", None, "up", 0.0, 0.0, vera)
    assert blank_in_hand(obs, hands, {"0-0": played}, calib, expected) == hands  # 0-0 is played
    row = Observation((blank, _tile(None, ((40.0, 330.0), (40.0, 350.0)), face="down", owner="west"), vera),
                      size=(800, 600))
    assert blank_in_hand(row, hands, {}, calib, {**expected, "Boris": 3}) == hands  # a row of backs


def test_in_the_recount_a_face_up_tile_kept_as_a_bit_of_chain_apart_from_every_move_is_a_hand_s():
    # fresh16 h354: Boris's 3-3, end to end with a false box at the picture's edge, was a piece of
    # chain to the reader: asked about as a tile fitting no end, and lost from his hand
    calib = full_frame((800, 600), ["Anna", "Boris", "Vera", "Gleb"])  # Boris on the left edge
    chain = _tile((6, 6), ((380.0, 300.0), (420.0, 300.0)))
    laid = _tile((6, 2), ((440.0, 300.0), (480.0, 300.0)))  # the last move, against the chain
    apart = _tile((3, 3), ((60.0, 360.0), (100.0, 360.0)))
    misread = _tile((1, 4), ((500.0, 300.0), (540.0, 300.0)))  # a chain tile read as no move
    obs = Observation((chain, laid, apart, misread), ((0, 1),), size=(800, 600))
    move = Committed("6-6", "Gleb", None, "up", 0.0, 0.0, chain)
    assert [t.owner for t in laid_apart(obs, {"6-6": move}, calib).tiles] == [LAYOUT, LAYOUT, "west", LAYOUT]
    # a tile by a move's place, even one the reader did not see this frame, stays the layout's
    gone = Observation((apart,), size=(800, 600))
    near = Committed("1-3", "Anna", None, "up", 0.0, 0.0, _tile((1, 3), ((60.0, 400.0), (100.0, 400.0))))
    assert laid_apart(gone, {"1-3": near}, calib) is gone


def test_a_misread_where_a_move_lies_is_flagged_once_when_it_lasts():
    move = Committed("2-3", "Vera", None, "up", 0.0, 0.0, None)
    watch = MisreadWatch()
    flags = [watch.seen(t, move, "2-4", lasting_s=1.0) for t in (1.0, 1.5, 2.0, 2.5)]
    assert [f is not None for f in flags] == [False, False, True, False]
    assert flags[2].kind == "misread" and flags[2].player == "Vera"


def test_a_face_up_tile_alone_in_the_middle_before_any_move_is_the_layout_s():
    # fresh live deal h62: a heap of white backs read as faces was the reader's layout, and the
    # 1-1 opener in the middle went to a hand, so the deal never opened
    opener = _tile((1, 1), ((390.0, 300.0), (410.0, 300.0)), owner="east")
    obs = Observation((*_row(560.0, "south"), *_row(40.0, "north"), opener), size=(800, 600))
    assert middle_opener(obs, {}).tiles[-1].owner == LAYOUT
    first = Committed("1-1", "Anna", None, "up", 0.0, 0.0, opener)
    assert middle_opener(obs, {"1-1": first}) is obs  # once the deal is open, the reader's owners stand
    in_row = Observation((*_row(560.0, "south"), _tile((1, 1), ((390.0, 520.0), (410.0, 520.0)), owner="south")),
                         size=(800, 600))
    assert middle_opener(in_row, {}) is in_row  # by the table's edge, where the hands lie


def test_a_0_0_on_a_place_of_the_pile_in_the_recount_is_its_back_TRAD():
    """Fresh28 h629 (TRAD, JPEG 40, plain backs): at the recount a back of the boneyard read 0-0
    face up at 0.57-0.62, and Boris's hand of three was read as four. A hand's tile cannot lie on a
    tile of the pile, and the blank double and a plain back look alike."""
    pile = Boneyard()
    pile.tile_len = 60.0
    backs = [_tile(None, ((500.0 + 40 * k, 180.0), (500.0 + 40 * k, 210.0)), face="down", owner="boneyard")
             for k in range(3)]
    pile.update(0.0, Observation(tuple(backs), size=(640, 480)))
    pile.update(1.0, Observation(tuple(backs), size=(640, 480)))
    assert pile.count == 3
    hand = [_tile((2, 2), ((280.0, 30.0), (300.0, 30.0)), owner="north"),
            _tile((4, 6), ((320.0, 30.0), (340.0, 30.0)), owner="north")]
    read_up = _tile((0, 0), ((540.0, 181.0), (540.0, 209.0)), owner="north", confidence=0.6)
    obs = Observation((*hand, read_up, backs[0], backs[2]), size=(640, 480))
    hands = {"2-2": "Boris", "4-6": "Boris", "0-0": "Boris"}
    assert blank_off_pile(hands, obs, pile.holds) == {"2-2": "Boris", "4-6": "Boris"}
    # a 0-0 laid out at the seat, away from the pile, is the hand's
    laid_out = replace(read_up, halves=((360.0, 30.0), (380.0, 30.0)))
    obs = Observation((*hand, laid_out, *backs), size=(640, 480))
    assert blank_off_pile(hands, obs, pile.holds) == hands
