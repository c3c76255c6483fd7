"""Who laid a tile no arm was seen to lay: the player whose face-down row holds one fewer
(vision/live/rows.py; held-out live deal h11, an east sleeve the colour of the table)."""

from __future__ import annotations

from collections import Counter

from vision.live.calibration import full_frame
from vision.live.observation import LAYOUT, Observation, TileObs
from vision.live.rows import RowWatch, in_turn_order, seats_of_group

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]  # bottom, left, top, right
CAL = full_frame((800, 600), PLAYERS)


def _back(x: float, y: float, owner: str = "south") -> TileObs:
    return TileObs(None, ((x - 10, y), (x + 10, y)), face="down", owner=owner)


def _table(rows: dict[str, int], *, layout: int = 3) -> Observation:
    """Face-down rows at each seat's edge, and a chain of face-up tiles (and a face-down double in
    it) in the middle that belong to nobody's hand."""
    at = {"Anna": lambda k: (300 + 30 * k, 570), "Vera": lambda k: (300 + 30 * k, 30),
          "Boris": lambda k: (30, 200 + 30 * k), "Gleb": lambda k: (770, 200 + 30 * k)}
    tiles = [_back(*at[p](k)) for p, n in rows.items() for k in range(n)]
    tiles += [TileObs((1, 2), ((380 + 40 * k, 300), (400 + 40 * k, 300))) for k in range(layout)]
    tiles.append(TileObs(None, ((500, 300), (520, 300)), face="down", owner=LAYOUT))
    return Observation(tuple(tiles), size=(800, 600))


def _watch(frames: list[tuple[float, dict[str, int]]]) -> RowWatch:
    watch = RowWatch()
    for t, rows in frames:
        watch.update(t, _table(rows), CAL)
    return watch


FULL = {"Anna": 4, "Boris": 5, "Vera": 6, "Gleb": 3}


def test_the_row_that_holds_one_fewer_laid_the_tile():
    less = dict(FULL, Gleb=2)
    watch = _watch([(10.0 + 0.1 * k, FULL) for k in range(5)] + [(11.0 + 0.1 * k, less) for k in range(5)])
    assert watch.shrank(11.0, 10.0, PLAYERS) == "Gleb"


def test_the_row_shrank_while_the_unseen_arm_carried_the_tile():
    # Frames settled while the sleeve went unseen show the row short before the tile lies: the
    # rows are compared with the frames just after the move before, not just before this tile.
    less = dict(FULL, Gleb=2)
    frames = ([(10.0 + 0.1 * k, FULL) for k in range(5)] + [(10.8 + 0.1 * k, less) for k in range(4)]
              + [(11.4 + 0.1 * k, less) for k in range(5)])
    watch = _watch(frames)
    assert watch.shrank(11.4, 10.0, PLAYERS) == "Gleb"


def test_the_row_shrank_on_half_the_frames_between_the_moves():
    # Fresh live deal h91: a bare arm over a pine table, unseen; the frames it took for settled
    # showed the row 5, 5, then 4, 4 (the tile taken) before the tile lay: the earlier half counts.
    less = dict(FULL, Gleb=2)
    frames = ([(14.4, FULL), (14.5, FULL), (14.7, less), (14.8, less)]
              + [(15.6 + 0.1 * k, less) for k in range(3)])
    assert _watch(frames).shrank(15.6, 14.4, PLAYERS) == "Gleb"


def test_one_back_missed_on_a_frame_decides_nothing():
    flicker = dict(FULL, Anna=3)
    less = dict(FULL, Gleb=2)
    frames = [(10.0, FULL), (10.1, flicker), (10.2, FULL), (11.0, less), (11.1, dict(less, Vera=5)), (11.2, less)]
    assert _watch(frames).shrank(11.0, 10.0, PLAYERS) == "Gleb"


def test_a_back_missed_on_one_reading_reused_on_still_frames_is_no_witness_over_readings():
    # fresh16 h340: a back of Anna's missed on one reading, reused on the two still frames after,
    # outvoted her row's later readings; counted over each reading once, no row lost a tile
    flicker = dict(FULL, Anna=3)
    watch = RowWatch()
    for t, rows, fresh in [(10.0, FULL, True), (10.1, FULL, False), (10.2, FULL, False), (10.3, FULL, True),
                           (11.0, flicker, True), (11.1, flicker, False), (11.2, flicker, False),
                           (11.3, FULL, True), (11.6, FULL, True)]:
        watch.update(t, _table(rows), CAL, fresh)
    assert watch.shrank(11.0, 10.0, PLAYERS) == "Anna"
    assert watch.shrank(11.0, 10.0, PLAYERS, readings=True) is None
    # a row that lost a tile on readings of their own says so either way
    less = dict(FULL, Gleb=2)
    watch = RowWatch()
    for start, rows in ((10.0, FULL), (11.0, less)):
        for k in range(5):
            watch.update(start + 0.1 * k, _table(rows), CAL, k % 3 == 0)
    assert watch.shrank(11.0, 10.0, PLAYERS) == watch.shrank(11.0, 10.0, PLAYERS, readings=True) == "Gleb"


def test_no_row_or_two_rows_shorter_leave_it_to_turn_order():
    same = _watch([(10.0 + 0.1 * k, FULL) for k in range(6)])
    assert same.shrank(10.3, 10.0, PLAYERS) is None
    two = dict(FULL, Gleb=2, Boris=4)
    both = _watch([(10.0 + 0.1 * k, FULL) for k in range(3)] + [(11.0 + 0.1 * k, two) for k in range(3)])
    assert both.shrank(11.0, 10.0, PLAYERS) is None
    # Too few frames on a side to count on.
    short = _watch([(10.0, FULL), (11.0, dict(FULL, Gleb=2)), (11.1, dict(FULL, Gleb=2))])
    assert short.shrank(11.0, 10.0, PLAYERS) is None


def test_a_new_deal_forgets_the_rows():
    watch = _watch([(10.0 + 0.1 * k, FULL) for k in range(3)])
    watch.reset()
    watch.update(11.0, _table(dict(FULL, Gleb=2)), CAL)
    watch.update(11.1, _table(dict(FULL, Gleb=2)), CAL)
    assert watch.shrank(11.0, 0.0, PLAYERS) is None


def test_tiles_seen_together_take_the_rows_that_lost_them_where_the_arms_disagree():
    # One arm told for both tiles of a visit two players made (held-out h19, h28): the rows win.
    assert seats_of_group(Counter(Boris=1, Vera=1), ["Vera", "Vera"]) == Counter(Boris=1, Vera=1)
    # The arms agree with the rows, or the rows do not account for every tile: the arms stand.
    assert seats_of_group(Counter(Boris=1, Vera=1), ["Vera", "Boris"]) is None
    assert seats_of_group(Counter(Boris=2), ["Boris", "Boris"]) is None  # one player, two tiles (BLZ-3)
    assert seats_of_group(Counter(Boris=1), ["Vera", "Vera"]) is None
    assert seats_of_group(None, ["Vera", "Vera"]) is None
    # An arm for each tile, each from another seat: the arms stand against two rows (fresh live
    # deal h86, black backs: Anna's and Vera's rows read one short as Gleb and Anna laid).
    assert seats_of_group(Counter(Anna=1, Vera=1), ["Gleb", "Anna"]) is None
    assert seats_of_group(Counter(Anna=1, Vera=1), ["Gleb", None]) == Counter(Anna=1, Vera=1)


def test_the_first_tile_of_a_group_is_the_next_in_turn():
    seats = Counter(Gleb=1, Anna=2)
    # After Vera, one tile a turn: Gleb's comes before Anna's.
    assert in_turn_order(seats, PLAYERS, "Vera", again=False) == "Gleb"
    # Where a turn may hold several tiles, the last mover may go on.
    assert in_turn_order(Counter(Vera=1, Gleb=1), PLAYERS, "Vera", again=True) == "Vera"
    assert in_turn_order(Counter(Vera=1, Gleb=1), PLAYERS, "Vera", again=False) == "Gleb"


def test_group_losses_need_one_frame_before_and_count_every_row():
    # The table did not settle between the move before and the tiles seen together: one frame.
    less = dict(FULL, Boris=4, Vera=5)
    watch = _watch([(10.0, FULL)] + [(12.0 + 0.1 * k, less) for k in range(3)])
    assert watch.losses(12.0, 10.0, PLAYERS) is None  # two frames needed by default
    assert watch.losses(12.0, 10.0, PLAYERS, least=1) == Counter(Boris=1, Vera=1)
    assert watch.shrank(12.0, 10.0, PLAYERS) is None


def test_a_weak_box_in_the_gap_a_tile_left_is_no_back():
    # Held-out h28: the detector boxed the gap in a clearly seen row (0.65 against 0.9).
    gap = [_back(770, 200 + 30 * k) for k in range(5)]
    conf = [0.95, 0.92, 0.65, 0.91, 0.9]
    tiles = tuple(TileObs(None, b.halves, face="down", owner="east", confidence=c) for b, c in zip(gap, conf, strict=True))
    watch = RowWatch()
    watch.update(1.0, Observation(tiles, size=(800, 600)), CAL)
    assert watch._counts[-1][1]["Gleb"] == 4
    # A set whose backs are all boxed weakly and unevenly (black tiles, h11): every box counts.
    dim = [0.86, 0.71, 0.65, 0.5]
    tiles = tuple(TileObs(None, b.halves, face="down", owner="east", confidence=c) for b, c in zip(gap, dim, strict=False))
    watch.update(1.1, Observation(tiles, size=(800, 600)), CAL)
    assert watch._counts[-1][1]["Gleb"] == 4


def test_group_losses_count_the_rows_just_after_the_move_before_not_frames_later():
    # Held-out h28 paced: reading fell behind, the frame after the move before went unread, and
    # the third frame counted was already after Vera took her next tile: her loss went unseen.
    frames = [(4.7, FULL), (5.0, {**FULL, "Vera": 5}), (5.1, {**FULL, "Vera": 5}),
              (7.3, {**FULL, "Vera": 5, "Gleb": 2}), (7.4, {**FULL, "Vera": 5, "Gleb": 2})]
    from vision.live.rows import GROUP_BEFORE_S

    losses = _watch(frames).losses(7.3, 4.7, PLAYERS, before_s=GROUP_BEFORE_S, least=1)
    assert losses == Counter({"Vera": 1, "Gleb": 1})


def test_a_row_holding_a_tile_more_than_the_record_rose_when_it_came_and_held():
    base = [(0.1 * k, FULL) for k in range(10)]
    more = [(2.0 + 0.1 * k, {**FULL, "Anna": 5}) for k in range(11)]
    assert _watch(base + more).rose("Anna", 4, 0.0, 1.0) == (2.0, 0.9)  # grew after 0.9, seen at 2.0
    assert _watch(base + more[:5]).rose("Anna", 4, 0.0, 1.0) is None  # not held long enough yet
    assert _watch(more).rose("Anna", 4, 0.0, 1.0) is None  # never seen holding the record's count
    assert _watch(base + more).rose("Anna", 5, 0.0, 1.0) is None  # the record has the draw
    # Held-out h29 (JPEG 40): backs boxed twice, the row jumped by two: the detector's, no draw.
    jump = [(2.0 + 0.1 * k, {**FULL, "Anna": 6}) for k in range(11)]
    assert _watch(base + jump).rose("Anna", 4, 0.0, 1.0) is None


def test_one_reading_reused_on_a_still_frame_is_not_the_record_s_count_held():
    # Fresh18 h398: Boris's draw was written before the tile reached his row, and a pile back
    # counted in it; his row read the record's count on one reading (reused on the next frame),
    # then the drawn tile came. One reading is no row that held the record's count: no draw.
    watch = RowWatch()
    frames = [(3.7, FULL, True), (3.8, FULL, False)] + [(4.0 + 0.1 * k, {**FULL, "Anna": 5}, k % 3 == 0)
                                                        for k in range(15)]
    for t, rows, fresh in frames:
        watch.update(t, _table(rows), CAL, fresh)
    assert watch.rose("Anna", 4, 3.6, 1.0) is None
    # Two readings of it are.
    watch = RowWatch()
    for t, rows, fresh in [(3.6, FULL, True)] + frames:
        watch.update(t, _table(rows), CAL, fresh)
    assert watch.rose("Anna", 4, 3.5, 1.0) == (4.0, 3.8)


def test_a_back_lost_on_the_frames_before_a_draw_does_not_hide_the_draw():
    # Fresh deal h175: north's row 7 on nine frames, 6 on the three before the drawn tile came
    # (a back at the picture's edge lost), then 8: the row held the record's 7, and grew.
    base = [(0.1 * k, {**FULL, "Anna": 4}) for k in range(9)]
    lost = [(0.9 + 0.1 * k, {**FULL, "Anna": 3}) for k in range(3)]
    more = [(2.0 + 0.1 * k, {**FULL, "Anna": 5}) for k in range(11)]
    assert _watch(base + lost + more).rose("Anna", 4, 0.0, 1.0) == (2.0, 1.1)
    # ... but a row that held fewer than the record on most frames before tells nothing.
    fewer = [(0.3 + 0.1 * k, {**FULL, "Anna": 3}) for k in range(9)]
    assert _watch(base[:3] + fewer + more).rose("Anna", 4, 0.0, 1.0) is None
    # Fresh deal h254 (JPEG at quality 40): the row read 4 and 3 by turns, three frames each,
    # its end covered by its player's arm drawing out of the picture; 4 on four of the ten frames
    # before is the record's count held, and the draw is told.
    turns = [(0.1 * k, {**FULL, "Anna": 4 if k // 3 % 2 == 0 else 3}) for k in range(1, 11)]
    assert _watch(turns + more).rose("Anna", 4, 0.0, 1.0) == (2.0, 1.0)
    # ... but one that read more than the record as often as it held it did not agree with it.
    doubled = [(0.1 * k, {**FULL, "Anna": 5 if k % 2 else 4}) for k in range(1, 11)]
    assert _watch(doubled + more).rose("Anna", 4, 0.0, 1.0) is None


def test_a_face_up_tile_at_the_end_of_a_face_down_row_is_no_hand_turned_up():
    # DRK-2 / BLB-2: a player turns up the tile at the end of their row to play it; the detector
    # may read a back so (fresh deal h31: 0-0). DRK-3 / BLB-3: three tiles left, all turned up.
    from vision.live.reveal import rows_turned_up

    obs = _table({"Vera": 6, "Gleb": 0})
    up = {"0-0": TileObs((0, 0), ((470, 30), (490, 30))), "1-2": TileObs((1, 2), ((770, 190), (770, 210))),
          "1-3": TileObs((1, 3), ((770, 230), (770, 250))), "2-3": TileObs((2, 3), ((770, 270), (770, 290)))}
    obs = Observation(obs.tiles + tuple(up.values()), size=(800, 600))
    seats = {"0-0": "Vera", "1-2": "Gleb", "1-3": "Gleb", "2-3": "Gleb"}
    assert rows_turned_up(obs, seats, CAL) == {"Gleb"}


def test_group_losses_stop_where_the_next_player_moves():
    # Live-eval s24: Anna's and Boris's tiles were seen together on one settled frame; then Vera's
    # arm came and took her tile from her row. Her loss is not theirs: the count after them ends
    # at the first gap an arm left between settled frames.
    from vision.live.rows import GROUP_BEFORE_S, GROUP_STILL_S

    both = {**FULL, "Anna": 3}  # Boris's row not seen to shrink (a back boxed twice)
    later = {**both, "Vera": 5}
    frames = [(21.7, FULL), (24.3, both), (25.5, later), (25.6, later), (25.8, later)]
    kw = {"before_s": GROUP_BEFORE_S, "least": 1}
    assert _watch(frames).losses(24.3, 21.7, PLAYERS, **kw) == Counter({"Anna": 1, "Vera": 1})
    assert _watch(frames).losses(24.3, 21.7, PLAYERS, still_s=GROUP_STILL_S, **kw) is None


def test_a_row_that_lost_no_tile_for_a_tile_its_player_laid_kept_it():
    # Fresh deal h186: Boris's row held 7 before his 0-2 appeared (at 4.8) and 7 after: the tile
    # came from the pile. A row that lost one on any frame since, or that did not hold the record's
    # count before, tells nothing; two frames over the hold are needed.
    base = [(3.0 + 0.1 * k, {**FULL, "Boris": 7}) for k in range(6)]
    kept = [(4.8, {**FULL, "Boris": 7}), (6.1, {**FULL, "Boris": 7})]
    assert _watch(base + kept).kept("Boris", 7, 0.0, 4.8, 1.0) is True
    assert _watch(base + kept[:1]).kept("Boris", 7, 0.0, 4.8, 1.0) is None  # not yet
    lost = [(4.8, {**FULL, "Boris": 6}), (6.1, {**FULL, "Boris": 7})]
    assert _watch(base + lost).kept("Boris", 7, 0.0, 4.8, 1.0) is False
    assert _watch(base + kept).kept("Boris", 8, 0.0, 4.8, 1.0) is False  # the record gives 8


def test_where_hands_are_not_turned_up_in_play_one_back_more_than_the_face_up_tiles_is_a_hand_held():
    # Fresh15 h314 (JPEG 40, TRAD): one of Anna's plain backs read 0-0 beside her other two.
    from vision.live.reveal import rows_turned_up

    obs = _table({"Anna": 2})
    up = TileObs((0, 0), ((250, 570), (270, 570)))
    obs = Observation(obs.tiles + (up,), size=(800, 600))
    assert rows_turned_up(obs, {"0-0": "Anna"}, CAL) == {"Anna"}  # BLB, DRK: two backs are no row
    assert rows_turned_up(obs, {"0-0": "Anna"}, CAL, least=1) == set()


def test_a_row_short_for_a_tile_its_own_arm_laid_is_no_witness_for_a_tile_no_arm_laid():
    # Fresh35 h813 (faint divider): Boris's 0-4, laid by an arm never seen, was boxed on the frame
    # Vera's 3-5 was, her arm seen laying it. Boris's row lost its tile on the frame after the move
    # before (his hand unseen), so only Vera's row showed a loss, and the 0-4 went to her.
    from vision.live.places import Candidate
    from vision.live.tracker import Tracker

    boris_took = dict(FULL, Boris=4)
    both_took = dict(FULL, Boris=4, Vera=5)
    watch = _watch([(23.6, FULL), (23.8, boris_took), (23.9, boris_took), (24.1, boris_took)]
                   + [(26.2 + 0.1 * k, both_took) for k in range(3)])
    assert watch.shrank(26.2, 23.6, PLAYERS) == "Vera"  # Boris's loss falls among the frames before
    tracker = Tracker(PLAYERS, CAL)
    tracker.rows_seen = watch
    unseen = Candidate(26.2, 9, 26.2, (228.0, 193.0), 18.0)
    assert tracker._shrank_unlaid(unseen, 23.6) == "Vera"
    hers = Candidate(26.2, 9, 26.2, (464.0, 293.0), 18.0, edge="top", arm_t=25.0)
    tracker._candidates = {1: hers, 2: unseen}
    assert tracker._shrank_unlaid(unseen, 23.6) is None  # turn order tells, not Vera's row
    hers.rooted = False  # an arm told only by the way it pointed explains no row
    assert tracker._shrank_unlaid(unseen, 23.6) == "Vera"


def test_a_box_far_from_a_seat_s_row_is_not_one_of_its_backs():
    # Fresh36 h836 (black tiles, a dark cloth): a blue pen at the left border was boxed as a back
    # and given to Boris; once his row's own boxes were weak it counted, so his row "kept" its
    # tiles after he laid 2-5, and a draw nobody made was written before the play.
    weak = [TileObs(None, ((190 + 28 * k, 40), (190 + 28 * k, 60)), face="down", owner="north", confidence=c)
            for k, c in enumerate([0.76, 0.76, 0.81, 0.85, 0.85])]
    pen = TileObs(None, ((10, 184), (30, 184)), face="down", owner="west", confidence=0.71)
    watch = RowWatch()
    cal = full_frame((640, 480), ["Anna", "Boris"])
    watch.update(1.0, Observation((*weak, pen), size=(640, 480)), cal)
    assert watch._counts[-1][1]["Boris"] == 5
    # Down to one back, the pen is still no second: his row was seen, and it lies far from it
    # (h836 again: his row "kept" its tile after he laid 0-4).
    watch.update(2.0, Observation((weak[0], pen), size=(640, 480)), cal)
    assert watch._counts[-1][1]["Boris"] == 1
    # A row never seen: two boxes apart may be a hand's last tiles anywhere in front of it.
    fresh = RowWatch()
    fresh.update(2.0, Observation((weak[0], pen), size=(640, 480)), cal)
    assert fresh._counts[-1][1]["Boris"] == 2
    # A new deal forgets where the rows lay.
    watch.reset()
    watch.update(3.0, Observation((weak[0], pen), size=(640, 480)), cal)
    assert watch._counts[-1][1]["Boris"] == 2


def test_a_back_left_at_the_far_end_of_a_row_seen_before_is_still_one_of_its_backs():
    # Fresh37 h859 (dark): the tiles between Boris's last back and the rest of his row were
    # played; far from the boxes left, that back was left out, his row lost two for the one tile
    # he laid, and Anna's 2-2, seen on the same frame, was given to him.
    row = [TileObs(None, ((190 + 32 * k, 40), (190 + 32 * k, 60)), face="down", owner="north", confidence=0.9)
           for k in range(7)]
    cal = full_frame((640, 480), ["Anna", "Boris"])
    left = (*row[:3], row[6])  # three played from between
    watch = RowWatch()
    watch.update(1.0, Observation(tuple(row), size=(640, 480)), cal)
    watch.update(2.0, Observation(left, size=(640, 480)), cal)
    assert watch._counts[-1][1]["Boris"] == 4
    # never seen whole, the far box is apart from the others, as a pen would be
    fresh = RowWatch()
    fresh.update(2.0, Observation(left, size=(640, 480)), cal)
    assert fresh._counts[-1][1]["Boris"] == 3


def _several_a_turn(frames: list[tuple[float, dict[str, int]]]):
    """A tracker of a variant whose turn may hold several tiles, its rows counted on `frames`."""
    from vision.live.tracker import Tracker

    tracker = Tracker(PLAYERS, CAL)
    tracker.rows_seen, tracker.arms.one_per_arm = _watch(frames), False
    return tracker


def _seats_written(tracker, first, second) -> tuple[str | None, str | None]:
    """The seats two tiles seen together take, written in that order."""
    tracker._candidates = {2: second}
    seat = tracker._seat_in_group(first)
    tracker._candidates = {}
    return seat, tracker._seat_in_group(second)


def test_of_tiles_seen_together_one_whose_own_arm_was_seen_keeps_its_seat_dark_drk_3():
    # Fresh37 h859 (dark, DRK-3: a turn may hold several tiles): Boris's 0-5, his arm unseen, and
    # Anna's 2-2 from her edge, first seen on one settled frame after her 2-6; both rows one
    # fewer. In turn order from the last player (Anna, who may go on), the 0-5 went to her and
    # the 2-2 to Boris.
    from vision.live.places import Candidate, Committed

    took = dict(FULL, Anna=3, Boris=4)
    tracker = _several_a_turn([(55.2 + 0.1 * k, FULL) for k in range(3)] + [(57.8 + 0.1 * k, took) for k in range(3)])
    tracker.committed = {"2-6": Committed("2-6", "Anna", None, "up", 55.2, 55.2, None)}
    tracker.order = ["2-6"]
    unseen = Candidate(57.8, 9, 57.8, (250.0, 190.0), 18.0)
    hers = Candidate(57.8, 9, 57.8, (450.0, 360.0), 18.0, edge="bottom", arm_t=56.9)
    unseen.names["0-5"], hers.names["2-2"] = 1, 1
    assert _seats_written(tracker, unseen, hers) == ("Boris", "Anna")  # the 0-5 first: the chain's order


def test_a_row_moved_far_from_where_it_lay_is_still_the_seat_s_row():
    # A real table: a player pushes the hand towards the middle or squares it up. The renderer
    # never moves a row; without this the moved row counted none for the rest of the deal.
    cal = full_frame((640, 480), ["Anna", "Boris"])
    row = [TileObs(None, ((100 + 32 * k, 40), (100 + 32 * k, 60)), face="down", owner="north", confidence=0.9)
           for k in range(5)]
    moved = [TileObs(None, ((420 + 32 * k, 40), (420 + 32 * k, 60)), face="down", owner="north", confidence=0.9)
             for k in range(4)]
    watch = RowWatch()
    watch.update(1.0, Observation(tuple(row), size=(640, 480)), cal)
    watch.update(2.0, Observation(tuple(moved), size=(640, 480)), cal)
    assert watch._counts[-1][1]["Boris"] == 4
    # from then on the row is where it lies now: one back left at the old place is no longer in it
    watch.update(3.0, Observation((*moved[:3], row[0]), size=(640, 480)), cal)
    assert watch._counts[-1][1]["Boris"] == 3
    # two boxes far from the row are not the row moved
    watch.update(4.0, Observation((row[0], row[1]), size=(640, 480)), cal)
    assert watch._counts[-1][1]["Boris"] == 0


def test_the_deal_s_first_tiles_seen_together_open_with_the_seat_whose_arm_came_first():
    # Fresh39 h902 (no divider, blitz-blind): Boris's blank 0-0 went unboxed until Gleb's hand,
    # laying 0-5 against it, passed over it; the two were first seen together, both rows one
    # fewer, and Gleb's arm, the one seen at the 0-0, was given the opening: "Gleb plays 0-0",
    # a circle of passes, Gleb again. With no move before, the rows were not compared at all.
    from vision.live.motion import SETTLED, MotionInfo
    from vision.live.places import Candidate

    took = dict(FULL, Boris=4, Gleb=2)
    tracker = _several_a_turn([(0.1 + 0.1 * k, FULL) for k in range(3)] + [(3.7 + 0.1 * k, took) for k in range(3)])
    t = -0.2  # Gleb's hand taking his tiles, before either tile: not the one that laid his
    for edge, tips in (("right", [(612, 398), (482, 358), (560, 380), (612, 398)]),
                       ("left", [(42, 188), (142, 182), (218, 242), (148, 182), (212, 232), (58, 172)]),
                       ("right", [(612, 398), (482, 358), (398, 302), (398, 298), (418, 312), (612, 398)])):
        for tip in tips:
            tracker.arms.observe(t, MotionInfo(False, True, edge, 0.05, 0.05, ((edge, tip, True),)))
            t += 0.1
        tracker.arms.observe(t, SETTLED)
        tracker.arms.settled(t)
        t += 0.5
    blank = Candidate(3.7, 9, 3.7, (399.0, 301.0), 18.0, edge="right", arm_t=2.8)
    his = Candidate(3.7, 9, 3.7, (448.0, 313.0), 18.0, edge="right", arm_t=2.8)
    blank.names["0-0"], his.names["0-5"] = 1, 1
    assert _seats_written(tracker, blank, his) == ("Boris", "Gleb")  # the 0-0 first: the chain's order
