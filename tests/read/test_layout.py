"""The layout from one image: joins, the tree, open ends, closed doubles and hands."""

from __future__ import annotations

import numpy as np

from tests.read.conftest import truths
from vision.read.box import box_from_corners
from vision.read.layout import (
    LayoutTile,
    build_layout,
    candidate_joins,
    nearest_joins,
    select_joins,
)

W = 50.0


def tile(h0, h1, values, face="up") -> LayoutTile:
    h = np.array([h0, h1], float)
    d = h[1] - h[0]
    return LayoutTile(h, d / np.hypot(*d), W, values, face)


def line_with_double_and_bend() -> list[LayoutTile]:
    return [
        tile((75, 100), (125, 100), (1, 2)),  # 0
        tile((175, 100), (225, 100), (2, 3)),  # 1
        tile((275, 75), (275, 125), (3, 3)),  # 2: double crosswise (BYK-1.7)
        tile((325, 100), (375, 100), (3, 4)),  # 3
        tile((375, 150), (375, 200), (4, 5)),  # 4: the chain bends down at a right angle
    ]


def test_line_joins_lengthwise_crosswise_double_and_bend_BYK_1_6():
    lay = build_layout(line_with_double_and_bend(), (1000, 1000))
    assert set(lay.edges) == {(0, 1), (1, 2), (2, 3), (3, 4)}
    assert sorted(j.joint for j in lay.joins) == [2, 3, 3, 4]
    assert sorted(lay.ends) == [(0, 1), (4, 5)]
    assert lay.tiles == [0, 1, 2, 3, 4]
    # a tree: every tile but the root has one parent
    assert sum(p is None for p in lay.parent.values()) == 1 and len(lay.parent) == 5


def test_a_box_the_detector_is_unsure_of_joins_in_line_but_not_at_a_side():
    tiles = line_with_double_and_bend()
    unsure = [LayoutTile(t.halves, t.u, t.width, t.values, score=0.3) for t in tiles]
    # tile 4 meets tile 3's side at the bend: with either box unsure that joint is not taken
    assert set(build_layout(tiles[:3] + unsure[3:], (1000, 1000)).edges) == {(0, 1), (1, 2), (2, 3)}
    # in line (and square against the crosswise double) the same unsure boxes still join
    assert set(build_layout(unsure[:4], (1000, 1000)).edges) == {(0, 1), (1, 2), (2, 3)}


def test_halves_with_different_values_at_a_bend_do_not_join_BYK_1_6():
    tiles = [tile((75, 100), (125, 100), (1, 2)), tile((175, 75), (175, 125), (5, 3))]
    lay = build_layout(tiles, (1000, 1000))
    assert lay.edges == []


def test_a_misread_tile_in_line_keeps_the_chain_whole():
    # the middle tile's left half read 0 (a blurred 2): end to end in one line it is still the
    # chain's next tile; the joint is marked, no value settled, the true ends stay open
    tiles = [tile((75, 100), (125, 100), (1, 2)), tile((175, 100), (225, 100), (0, 3)),
             tile((275, 100), (325, 100), (3, 4))]
    lay = build_layout(tiles, (1000, 1000))
    assert sorted(lay.edges) == [(0, 1), (1, 2)]
    odd = [j for j in lay.joins if j.mismatch]
    assert len(odd) == 1 and {odd[0].a, odd[0].b} == {0, 1} and odd[0].joint is None
    assert lay.fixed == {}
    assert sorted(lay.ends) == [(0, 1), (2, 4)]


def test_a_misread_tile_square_against_a_double_joins_it():
    tiles = [tile((75, 100), (125, 100), (1, 0)),  # its 2 read as 0
             tile((175, 75), (175, 125), (2, 2)),  # the double crosswise (BYK-1.7)
             tile((225, 100), (275, 100), (2, 4))]
    lay = build_layout(tiles, (1000, 1000))
    assert sorted(lay.edges) == [(0, 1), (1, 2)]
    assert [(j.a, j.b) for j in lay.joins if j.mismatch] == [(0, 1)]


def test_an_unsure_double_against_a_misread_end_still_joins():
    # held-out render s8_000093: a 6-4 read 6-0 against the double 4-4 read at 0.89; a double's
    # middle cannot be settled, and the joint was dropped, the chain falling in two
    tiles = [tile((75, 100), (125, 100), (6, 0)),
             LayoutTile(np.array([[175.0, 75.0], [175.0, 125.0]]), np.array([0.0, 1.0]), W, (4, 4), "up", (0.89, 0.99)),
             tile((225, 100), (275, 100), (4, 5))]
    lay = build_layout(tiles, (1000, 1000))
    assert sorted(lay.edges) == [(0, 1), (1, 2)] and lay.fixed == {}


def test_a_matching_joint_wins_over_a_nearer_mismatched_one():
    # two boxes on the tile after 1-3's end (a duplicate, read 3-5 and 5-5): the one whose half
    # matches is taken though the other lies nearer
    tiles = [tile((75, 100), (125, 100), (1, 3)), tile((175, 100), (225, 100), (5, 5)),
             tile((178, 100), (228, 100), (3, 5))]
    lay = build_layout(tiles, (1000, 1000))
    assert (0, 2) in lay.edges and (0, 1) not in lay.edges


def test_face_down_tile_at_an_end_is_the_closed_double_SPI_4_BAL_12():
    tiles = line_with_double_and_bend() + [tile((25, 75), (25, 125), None, "down")]
    lay = build_layout(tiles, (1000, 1000))
    assert (0, 5) in lay.edges
    assert lay.inferred == {5: (1, 1)}
    # closed for good: the 1 end is no longer open
    assert sorted(lay.ends) == [(4, 5)]


def test_cross_double_takes_four_arms_BAL_9():
    tiles = [
        tile((500, 475), (500, 525), (6, 6)),  # 0: the double, crosswise to the line
        tile((450, 500), (400, 500), (6, 1)),  # 1: on its west long side
        tile((550, 500), (600, 500), (6, 2)),  # 2: on its east long side
        tile((500, 425), (500, 375), (6, 3)),  # 3: on its north end
        tile((500, 575), (500, 625), (6, 4)),  # 4: on its south end
    ]
    lay = build_layout(tiles, (1000, 1000))
    assert set(lay.edges) == {(0, 1), (0, 2), (0, 3), (0, 4)}
    assert sorted(v for _, v in lay.ends) == [1, 2, 3, 4]


def test_tiles_outside_the_layout_go_to_the_nearest_edge_seat():
    tiles = line_with_double_and_bend() + [
        tile((500, 950), (550, 950), (0, 0)),  # bottom edge: south
        tile((30, 500), (30, 550), (1, 1)),  # left edge: west
        tile((600, 40), (650, 40), (2, 2)),  # top: north
        tile((960, 600), (960, 650), (5, 6)),  # right: east
    ]
    lay = build_layout(tiles, (1000, 1000))
    assert lay.hands == {"north": [7], "east": [8], "south": [5], "west": [6]}


def test_a_bit_of_chain_cut_off_by_an_arm_is_no_hand():
    # the chain runs on past an arm across the table (tiles under it unseen): the two tiles beyond
    # join end to end, a piece of the chain; only the row at the bottom is a hand
    tiles = line_with_double_and_bend() + [
        tile((375, 400), (375, 450), (6, 1)),  # 5
        tile((375, 500), (375, 550), (1, 0)),  # 6
        tile((480, 900), (480, 950), (2, 6)),  # 7: south's hand, side by side
        tile((530, 900), (530, 950), (4, 4)),  # 8
    ]
    lay = build_layout(tiles, (1000, 1000))
    assert lay.tiles == [0, 1, 2, 3, 4]
    assert lay.pieces == [[5, 6]]
    assert lay.hands == {"south": [7, 8]}


def test_a_lone_tile_against_the_chain_is_the_chains_not_a_hand():
    # past the bend the next tile lies against the chain's end but was misread (a 6 for the 5), off
    # line so it cannot join; a lone tile far out at the bottom is still south's hand
    tiles = line_with_double_and_bend() + [
        tile((400, 240), (450, 240), (6, 2)),  # 5: against tile 4's end, at a right angle
        tile((500, 925), (550, 925), (3, 1)),  # 6
    ]
    lay = build_layout(tiles, (1000, 1000))
    assert lay.tiles == [0, 1, 2, 3, 4]
    assert lay.pieces == [[5]]
    assert lay.hands == {"south": [6]}


def test_a_hand_with_a_double_is_no_layout_the_lone_opener_is():
    # a recount: the opener alone in the middle; in the hand at the bottom the double lies beside
    # a tile of its value, offset so its middle meets that half's side (a joint, geometrically)
    tiles = [
        tile((500, 475), (500, 525), (3, 5)),  # 0: the opener
        tile((480, 900), (480, 950), (2, 6)),  # 1
        tile((530, 925), (530, 975), (6, 6)),  # 2: the double beside 1's 6
        tile((580, 900), (580, 950), (0, 1)),  # 3
        tile((630, 900), (630, 950), (5, 1)),  # 4
    ]
    assert {(j.a, j.b) for j in select_joins(tiles, candidate_joins(tiles))} == {(1, 2)}
    lay = build_layout(tiles, (1000, 1000))
    assert lay.tiles == [0] and lay.edges == []
    assert lay.hands == {"south": [1, 2, 3, 4]}


def test_rendered_chains_rebuild_their_true_tree(rendered):
    """With the true values, the joins found from geometry are the renderer's parent links."""
    checked = exact = 0
    for tr in truths(rendered):
        t_layout = [t for t in tr["tiles"] if t["owner"] == "layout"]
        if not any(t["parent"] is not None for t in t_layout) or not all(t["labelled"] for t in t_layout):
            continue
        tiles = []
        for t in tr["tiles"]:
            box = box_from_corners(np.array(t["corners"]))
            h = np.array(t["halves"], float)
            vals = tuple(t["values"]) if t["values"] else None
            tiles.append(LayoutTile(h, (h[1] - h[0]) / np.hypot(*(h[1] - h[0])), box.width, vals, t["face"]))
        lay = build_layout(tiles, tuple(tr["size"]))
        truth_edges = {frozenset((i, t["parent"])) for i, t in enumerate(tr["tiles"])
                       if t["owner"] == "layout" and t["parent"] is not None}
        checked += 1
        exact += truth_edges == {frozenset(e) for e in lay.edges}
    assert checked >= 5
    assert exact / checked >= 0.9, f"{exact}/{checked} rendered layouts rebuilt exactly"


def test_a_doubtful_half_is_settled_by_its_sure_neighbour_BYK_1_6():
    tiles = line_with_double_and_bend()
    doubtful = tiles[1]
    tiles[1] = LayoutTile(doubtful.halves, doubtful.u, W, (None, 3), "up", (0.0, 0.99))
    lay = build_layout(tiles, (1000, 1000))
    assert (0, 1) in lay.edges
    assert lay.fixed == {(1, 0): 2}


def test_only_a_clearly_surer_neighbour_overrides_a_doubtful_half_BYK_1_6():
    for neighbour, fixed in ((0.92, {}), (0.97, {(1, 0): 2})):
        tiles = line_with_double_and_bend()
        t0, t1 = tiles[0], tiles[1]
        tiles[0] = LayoutTile(t0.halves, t0.u, W, (1, 2), "up", (1.0, neighbour))
        tiles[1] = LayoutTile(t1.halves, t1.u, W, (5, 3), "up", (0.89, 0.99))  # its 2 read as a doubtful 5
        lay = build_layout(tiles, (1000, 1000))
        assert (0, 1) in lay.edges  # end to end in line: neighbours either way
        assert lay.fixed == fixed, neighbour


def test_a_box_showing_no_face_at_all_is_not_settled_into_the_chain_BYK_1_6():
    # held-out render s8_000028: a false box by a tile's end, one half no tile face and the other
    # unread, joined the chain as a 0 by a tight contact. A tile showing one value is still settled.
    tiles = line_with_double_and_bend()
    end = tiles[4]  # 4-5, its 5 half at (375, 200)
    ghost = LayoutTile(np.array([[375.0, 250.0], [375.0, 300.0]]), end.u, W, (None, None), "up", (0.3, 0.3),
                       (False, True))
    lay = build_layout([*tiles, ghost], (1000, 1000))
    assert all(5 not in e for e in lay.edges) and lay.fixed == {}
    shows_one = LayoutTile(ghost.halves, end.u, W, (None, 2), "up", (0.3, 0.99), (False, False))
    lay = build_layout([*tiles, shows_one], (1000, 1000))
    assert (4, 5) in lay.edges and lay.fixed == {(5, 0): 5}


def test_sure_halves_that_differ_off_line_never_join():
    # end to end but half a width aside: not one line, so no joint with differing halves
    a = tile((75, 100), (125, 100), (1, 2))
    b = tile((175, 100 + W / 2), (225, 100 + W / 2), (4, 3))
    lay = build_layout([a, b], (1000, 1000))
    assert lay.edges == [] and lay.fixed == {}


def test_a_chain_folded_onto_itself_joins_each_half_to_its_neighbour_BYK_1_6():
    """Renderer seed 7, image 89: a chain of seven bent tightly round its opener 0-5, whose 5 half
    faces both its neighbour 5-1 and, nearer, the double 5-5 laid two tiles further on. Nearest
    first, 5-5 took that half and the chain fell in two; giving the join up lets both in."""
    from vision.synth.dataset import image_rng
    from vision.synth.scene import render_scene

    tr = render_scene(image_rng(7, 89), (640, 640)).truth("x.jpg")
    tiles = []
    for t in tr["tiles"]:
        h = np.array(t["halves"], float)
        tiles.append(LayoutTile(h, (h[1] - h[0]) / np.hypot(*(h[1] - h[0])),
                                box_from_corners(np.array(t["corners"])).width,
                                tuple(t["values"]) if t["values"] else None, t["face"]))
    truth_edges = {frozenset((i, t["parent"])) for i, t in enumerate(tr["tiles"])
                   if t["owner"] == "layout" and t["parent"] is not None}
    assert len(truth_edges) == 6
    nearest_first, _ = nearest_joins(tiles, candidate_joins(tiles))
    assert {frozenset((j.a, j.b)) for j in nearest_first} != truth_edges
    lay = build_layout(tiles, tuple(tr["size"]))
    assert {frozenset(e) for e in lay.edges} == truth_edges


def test_tiny_tiles_join_across_a_gap_of_a_pixel_or_two():
    """At 20 px a tile is 10 px wide: two boxes a pixel or two short at their touching ends leave
    a gap of half a width, which is measurement, not a gap between tiles."""
    w = 10.0

    def small(h0, h1, values):
        h = np.array([h0, h1], float)
        d = h[1] - h[0]
        return LayoutTile(h, d / np.hypot(*d), w, values)

    gap = 0.45 * w + 1.0  # ports this far apart: over PORT_TOL widths, within the pixel slack
    tiles = [small((5, 5), (15, 5), (1, 2)), small((25 + gap, 5), (35 + gap, 5), (2, 3))]
    assert build_layout(tiles, (200, 200)).edges == [(0, 1)]
    far = [tiles[0], small((25 + gap + 3, 5), (35 + gap + 3, 5), (2, 3))]
    assert build_layout(far, (200, 200)).edges == []


def test_a_divider_found_far_off_the_middle_leaves_the_ends_to_the_box():
    # s7_000093: in a 35 px tile a column of blurred pips was taken for the divider, 5 px off the
    # middle; its halves then overlapped the next tile's and the chain did not join
    from vision.read.box import Box
    from vision.read.reader import DIVIDER_OFF_CENTRE, layout_tiles
    from vision.read.tile import TileRead

    quad = Box(100.0, 100.0, 1.0, 0.0, 40.0, 20.0).corners()

    def read(shift: float) -> TileRead:
        halves = np.array([[90.0 + shift, 100.0], [110.0 + shift, 100.0]])
        return TileRead(quad, halves, "up", (1, 2), (1.0, 1.0), ("", ""), 0.9)

    near, far = layout_tiles([read(0.5 * DIVIDER_OFF_CENTRE * 40), read(2 * DIVIDER_OFF_CENTRE * 40)])
    assert np.allclose(near.halves, [[92, 100], [112, 100]])  # the divider's halves, kept
    assert np.allclose(far.halves, [[90, 100], [110, 100]])  # the box's
