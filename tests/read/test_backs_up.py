"""A back boxed as a face (fresh live deal h555: a closed 6-6 of a pink-backed set boxed face up,
both halves no tile face): read face down where it has the backs' colour and the faces another
tint; a blank face, or backs of the faces' own tint, change nothing."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.read.backs_up import backs_boxed_up
from vision.read.blanks import agreed, inner_colour
from vision.read.tile import NO_FACE, TileRead
from vision.synth.looks import FACTORS
from vision.synth.styles import random_style
from vision.synth.tiles import PlacedTile, draw_face

LENGTH = 70.0
NO = f"{NO_FACE}: the classifier takes it for no tile face (1.00)"


def _table(back, body=(235, 240, 240)):
    """Five backs of colour `back` (BGR), three faces read, and a back (tile 8) boxed face up and
    read as no face on one half, blank on the other; tile 9 a 0-0 face read as no face on both."""
    style = replace(FACTORS["baseline"].style(random_style(np.random.default_rng(3))), body=body, back=back,
                    back_pattern="plain")
    frame = np.full((160, 1020, 3), (40, 90, 30), np.uint8)
    tiles = []
    for n in range(10):
        values = {5: (1, 3), 6: (2, 5), 7: (4, 6), 9: (0, 0)}.get(n)
        t = PlacedTile(values, (60 + 100 * n, 80), math.pi / 2, LENGTH / 2, 2.0,
                       face="up" if values else "down", style=style)
        draw_face(frame, t)
        if n < 5:
            read = TileRead(t.corners(), t.halves(), "down", (None, None), (1.0, 1.0), ("face down",) * 2, 0.9)
        elif n == 8:
            read = TileRead(t.corners(), t.halves(), "up", (None, 0), (0.0, 0.55), (NO, ""), 0.45)
        elif n == 9:
            read = TileRead(t.corners(), t.halves(), "up", (None, None), (0.0, 0.0), (NO, NO), 0.6)
        else:
            read = TileRead(t.corners(), t.halves(), "up", values, (0.99, 0.99), ("", ""), 0.9)
        tiles.append(read)
    return frame, tiles


def test_a_back_boxed_as_a_face_showing_none_is_read_face_down_SPI_4():
    frame, tiles = _table((200, 170, 250))  # BGR: pink backs, white faces
    out = backs_boxed_up(frame, tiles)
    assert out[8].face == "down" and out[8].detection_confidence == 0.45
    assert out[9].face == "up"  # the blank double has the faces' colour
    assert [t.face for t in out[:8]] == [t.face for t in tiles[:8]]


def test_backs_of_the_faces_tint_leave_a_blank_box_a_face():
    frame, tiles = _table((236, 240, 240))
    assert backs_boxed_up(frame, tiles)[8].face == "up"


def test_with_too_few_backs_the_remembered_colour_decides():
    frame, tiles = _table((200, 170, 250))
    few = tiles[3:]  # two backs: too few to agree on a colour
    assert backs_boxed_up(frame, few)[5].face == "up"
    backs = agreed([inner_colour(frame, t.quad) for t in tiles[:5]])
    assert backs is not None
    assert backs_boxed_up(frame, few, backs)[5].face == "down"
