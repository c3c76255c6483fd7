"""Faces of a no-divider set the detector boxed as backs (issue 23, robustness matrix no-divider
look): a 0-1 shows its pip, a 0-0 between two blank ends is the blank double the chain goes on
through (a closed double takes nothing: SPI-4, BAL-12); backs of the faces' colour stay backs."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.read.between import blank_between
from vision.read.layout import build_layout
from vision.read.pipfaces import faces_boxed_down, shows_pips
from vision.read.reader import layout_tiles
from vision.read.tile import TileRead
from vision.synth.looks import FACTORS
from vision.synth.styles import random_style
from vision.synth.tiles import PlacedTile, draw_face

WIDTH = 40.0  # an 80 px tile


def _style(back=None):
    style = FACTORS["no_divider"].style(random_style(np.random.default_rng(3)))
    return replace(style, back=tuple(int(x) for x in style.body) if back is None else back, back_pattern="plain")


def _as_read(t: PlacedTile, face: str, values=(None, None)) -> TileRead:
    conf = (1.0, 1.0) if face == "down" else (0.99, 0.99)
    why = ("face down", "face down") if face == "down" else ("", "")
    return TileRead(t.corners(), t.halves(), face, values, conf, why, 0.8)


def test_a_0_1_boxed_as_a_back_of_the_faces_colour_reads_0_1() -> None:
    style = _style()
    frame = np.full((200, 400, 3), (40, 90, 30), np.uint8)
    t = PlacedTile((0, 1), (200, 100), 0.0, WIDTH, 2.0, style=style)
    draw_face(frame, t)
    out = faces_boxed_down(frame, [_as_read(t, "down")])
    assert out[0].face == "up" and sorted(out[0].values) == [0, 1], (out[0].half_values, out[0].reasons)


def test_a_back_of_the_faces_colour_stays_a_back() -> None:
    style = _style()
    frame = np.full((200, 400, 3), (40, 90, 30), np.uint8)
    t = PlacedTile(None, (200, 100), 0.0, WIDTH, 2.0, face="down", style=style)
    draw_face(frame, t)
    assert faces_boxed_down(frame, [_as_read(t, "down")])[0].face == "down"


def test_a_reading_shows_pips_only_with_a_sure_pip_half() -> None:
    t = PlacedTile((0, 1), (200, 100), 0.0, WIDTH, 2.0)
    read = _as_read(t, "up", (0, 1))
    assert shows_pips(replace(read, half_confidence=(0.7, 0.97)))
    assert not shows_pips(replace(read, half_confidence=(0.7, 0.9)))  # the pip half unsure
    assert not shows_pips(replace(read, half_confidence=(0.6, 0.99)))  # the blank half unsure
    assert not shows_pips(replace(read, half_values=(0, 0)))  # nothing on it: blanks.py's business


def _chain_through_a_blank(blank_face: str):
    """6-0 | 0-0 across | 0-3 in a straight line, the 0-0 boxed as a back (`blank_face` "down")."""
    style = _style(back=(150, 40, 20))
    frame = np.full((200, 600, 3), (40, 90, 30), np.uint8)
    L = 2 * WIDTH
    placed = [PlacedTile((6, 0), (300 - L / 2 - WIDTH / 2 - 1, 100), 0.0, WIDTH, 2.0, style=style),
              PlacedTile((0, 0), (300, 100), math.pi / 2, WIDTH, 2.0, style=style),
              PlacedTile((0, 3), (300 + L / 2 + WIDTH / 2 + 1, 100), 0.0, WIDTH, 2.0, style=style)]
    for t in placed:
        draw_face(frame, t)
    tiles = [_as_read(placed[0], "up", (6, 0)), _as_read(placed[1], blank_face, (None, None) if blank_face == "down"
                                                          else (0, 0)), _as_read(placed[2], "up", (0, 3))]
    return frame, tiles


def test_a_closed_double_the_chain_goes_on_past_is_the_blank_double_SPI_4_BAL_12() -> None:
    _, tiles = _chain_through_a_blank("down")
    size = (600, 200)
    layout = build_layout(layout_tiles(tiles), size)
    assert layout.inferred.get(1) == (0, 0) and len(layout.tiles) == 2  # joined once, as a closed double
    out, layout = blank_between(tiles, layout, layout_tiles, size)
    assert out[1].face == "up" and out[1].values == (0, 0)
    assert sorted(layout.tiles) == [0, 1, 2] and len(layout.joins) == 2


def test_a_closed_double_at_the_chain_s_end_stays_closed() -> None:
    _, tiles = _chain_through_a_blank("down")
    tiles = tiles[:2]  # no tile beyond it: a face-down double closing the leg
    size = (600, 200)
    layout = build_layout(layout_tiles(tiles), size)
    out, after = blank_between(tiles, layout, layout_tiles, size)
    assert out[1].face == "down" and after is layout


def test_a_blank_half_of_a_big_tile_in_falling_light_reads_0() -> None:
    """No divider, a 200 px 0-5 with the light falling off along it (its halves 13 apart in
    lightness, 2-4 in colour: matrix no_divider s9300_000037): the plain half beside the sure five
    is its blank, not a half the classifier calls no face and leaves unread."""
    from vision.read.box import box_from_corners
    from vision.read.tile import read_tiles

    style = replace(_style(), shade=0.0)
    frame = np.full((400, 700, 3), (40, 90, 30), np.uint8)
    t = PlacedTile((0, 5), (350, 200), 0.0, 100.0, 2.0, style=style)
    draw_face(frame, t)
    ramp = np.interp(np.arange(frame.shape[1]), [250, 450], [1.0, 0.88])[None, :, None]  # the lamp at the left
    frame = (frame * ramp).astype(np.uint8)
    (read,) = read_tiles(frame, [(box_from_corners(t.corners()), "up", 0.9)])
    assert read.values is not None and sorted(read.values) == [0, 5], (read.half_values, read.reasons)


NO = "no pips layout: the classifier takes it for no tile face (1.00)"


def _plain_up(read: TileRead, confidence: float = 0.8) -> TileRead:
    """`read` boxed face up, both halves taken surely for no tile face."""
    return replace(read, face="up", half_values=(None, None), half_confidence=(0.0, 0.0), reasons=(NO, NO),
                   detection_confidence=confidence)


def test_a_back_boxed_face_up_showing_no_face_at_an_open_end_is_a_closed_double_BAL_12() -> None:
    # Fresh42 h963, faint divider, Baltic: Gleb's closed 6-6, boxed face up at 0.77 on every
    # reading, both halves "no tile face" at 1.00, in a set whose backs are the faces' colour:
    # an unread face that joined nothing, never a move.
    from vision.read.ends import close_plain_ends

    frame, tiles = _chain_through_a_blank("down")
    tiles = [tiles[0], _plain_up(tiles[1])]  # 6-0 | back: the back closes the 0
    size = (600, 200)
    layout = build_layout(layout_tiles(tiles), size)
    out, after = close_plain_ends(frame, tiles, layout, layout_tiles, size)
    assert out[1].face == "down" and after.inferred.get(1) == (0, 0) and sorted(after.tiles) == [0, 1]
    unsure = [tiles[0], _plain_up(tiles[1], 0.3)]  # the detector unsure: the table, a card
    assert close_plain_ends(frame, unsure, build_layout(layout_tiles(unsure), size), layout_tiles, size)[0][1].face == "up"


def test_a_blank_double_with_no_divider_showing_no_face_in_the_chain_s_middle_stays_the_blank() -> None:
    # The robustness matrix (no divider, scene 0): the opener 0-0, tiles on its sides, both halves
    # no tile face, taken for a back the chain went on past; read face up again by `blank_between`.
    from vision.read.ends import close_plain_ends

    frame, tiles = _chain_through_a_blank("up")
    tiles = [tiles[0], _plain_up(tiles[1]), tiles[2]]
    size = (600, 200)
    out, layout = close_plain_ends(frame, tiles, build_layout(layout_tiles(tiles), size), layout_tiles, size)
    out, layout = blank_between(out, layout, layout_tiles, size)
    assert out[1].face == "up" and out[1].values == (0, 0)
    assert sorted(layout.tiles) == [0, 1, 2]
