"""The blank double of a set with no divider, boxed by the detector as a back (issue 23, live deal
h02): the one face-down box of another colour than every other back is the 0-0; backs in a shadow
or a set whose backs share the faces' colour change nothing."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from vision.read.blanks import blank_doubles
from vision.read.tile import TileRead
from vision.synth.looks import FACTORS
from vision.synth.styles import random_style
from vision.synth.tiles import PlacedTile, draw_face

LENGTH = 70.0


def _table(back: tuple[int, int, int], *, blank_at: int | None = 6, shade_from: int | None = None,
           pattern: str = "plain"):
    """Seven face-down tiles of colour `back` in a row (the one at `blank_at` drawn as the 0-0
    of a no-divider set, face up); those from `shade_from` on lie in a shadow. Returns the frame
    and the reader's tiles as the detector boxed them: all face down."""
    style = replace(FACTORS["no_divider"].style(random_style(np.random.default_rng(3))), back=back,
                    back_pattern=pattern)
    frame = np.full((160, 720, 3), (40, 90, 30), np.uint8)
    tiles = []
    for n in range(7):
        face = "up" if n == blank_at else "down"
        t = PlacedTile((0, 0) if face == "up" else None, (60 + 100 * n, 80), math.pi / 2, LENGTH / 2, 2.0,
                       face=face, style=style)
        draw_face(frame, t)
        tiles.append(TileRead(t.corners(), t.halves(), "down", (None, None), (1.0, 1.0),
                              ("face down", "face down"), 0.9))
    if shade_from is not None:
        frame[:, 100 * shade_from + 10:] = (frame[:, 100 * shade_from + 10:] * 0.55).astype(np.uint8)
    return frame, tiles


def test_the_blank_double_among_blue_backs_reads_0_0():
    frame, tiles = _table((150, 40, 20))  # BGR: blue backs, an ivory face
    out, _ = blank_doubles(frame, tiles)
    assert [t.face for t in out] == ["down"] * 6 + ["up"]
    assert out[6].values == (0, 0)


def test_backs_in_a_shadow_are_no_blank_double():
    frame, tiles = _table((30, 30, 160), blank_at=None, shade_from=4)  # red backs, three shaded
    assert [t.face for t in blank_doubles(frame, tiles)[0]] == ["down"] * 7


def test_backs_of_the_faces_colour_cannot_be_told_from_the_blank():
    style = FACTORS["no_divider"].style(random_style(np.random.default_rng(3)))
    frame, tiles = _table(tuple(int(x) for x in style.body))
    assert [t.face for t in blank_doubles(frame, tiles)[0]] == ["down"] * 7


def _with_a_dark_thing(confidence: float, colour=(12, 12, 12)):
    """Six red backs, two face-up tiles and a tile-sized dark thing (a phone) boxed as a back."""
    frame, tiles = _table((30, 30, 160), blank_at=None)
    style = random_style(np.random.default_rng(3))
    for n, vals in ((1, (3, 5)), (3, (2, 6))):  # two of the backs drawn as faces, read so
        t = PlacedTile(vals, (60 + 100 * n, 80), math.pi / 2, LENGTH / 2, 2.0, face="up", style=style)
        draw_face(frame, t)
        tiles[n] = replace(tiles[n], face="up", half_values=vals, half_confidence=(0.99, 0.99))
    q = tiles[6].quad.round().astype(np.int32)
    x0, y0 = q.min(axis=0)
    x1, y1 = q.max(axis=0)
    frame[y0:y1, x0:x1] = colour
    tiles[6] = replace(tiles[6], detection_confidence=confidence)
    return frame, tiles


@pytest.mark.parametrize("confidence", [0.4, 0.8])
def test_a_dark_thing_among_backs_is_neither_a_blank_nor_a_back(confidence: float) -> None:
    frame, tiles = _with_a_dark_thing(confidence)
    out, _ = blank_doubles(frame, tiles)
    assert len(out) == 6 and all(t.values != (0, 0) for t in out)


def test_a_box_a_little_off_the_backs_colour_stays_a_back_when_the_detector_is_sure() -> None:
    frame, tiles = _with_a_dark_thing(0.8, colour=(30, 30, 90))  # a back in a shadow: dark red
    out, _ = blank_doubles(frame, tiles)
    assert len(out) == 7 and out[6].face == "down"


def test_an_unsure_box_off_the_backs_colour_is_no_tile() -> None:
    frame, tiles = _with_a_dark_thing(0.4, colour=(30, 30, 90))
    assert len(blank_doubles(frame, tiles)[0]) == 6


@pytest.mark.parametrize("confidence", [0.4, 0.9])
def test_a_gap_in_a_row_boxed_as_a_back_is_the_table_not_a_tile(confidence: float) -> None:
    # Fresh live deal h449 (JPEG at quality 40): the place a tile was taken from in a row of
    # backs boxed as one more back at 0.8-0.9; its middle shows the cloth.
    frame, tiles = _with_a_dark_thing(confidence, colour=(40, 90, 30))
    out, _ = blank_doubles(frame, tiles)
    assert len(out) == 6 and all(t.values != (0, 0) for t in out)


def _recount(look: str, lone: str = "blank"):
    """Hands laid out face up at the recount, in `look`: a 1-3 and a 2-5 read, and a third box
    the detector called a back: the 0-0 (`lone` "blank") or a skin-coloured hand ("hand")."""
    style = replace(FACTORS[look].style(random_style(np.random.default_rng(3))), back=(150, 40, 20),
                    back_pattern="plain")
    frame = np.full((160, 420, 3), (40, 90, 30), np.uint8)
    tiles = []
    for n, v in enumerate([(1, 3), (2, 5), (0, 0)]):
        t = PlacedTile(v, (70 + 140 * n, 80), math.pi / 2, LENGTH / 2, 2.0, style=style)
        if n == 2 and lone == "hand":
            frame[80 - 40:80 + 40, 350 - 22:350 + 22] = (120, 150, 200)  # BGR: skin
        else:
            draw_face(frame, t)
        face, values = ("down", (None, None)) if n == 2 else ("up", v)
        tiles.append(TileRead(t.corners(), t.halves(), face, values, (1.0, 1.0), ("", ""), 0.9))
    return frame, tiles


def test_a_lone_blank_double_at_the_recount_is_told_by_the_backs_seen_before():
    # held-out live deal h05: a pinned 0-0 boxed as a back when the hands lay face up, with no
    # back beside it; the backs' colour from the deal's earlier frames tells it
    first, backs_row = _table((150, 40, 20), blank_at=None)
    _, backs = blank_doubles(first, backs_row)
    assert backs is not None
    for look in ("pin", "no_divider"):
        frame, tiles = _recount(look)
        assert blank_doubles(frame, tiles)[0][2].face == "down"  # one frame alone cannot tell
        out, seen = blank_doubles(frame, tiles, backs)
        assert out[2].face == "up" and out[2].values == (0, 0), look
        assert seen is None  # this frame's own backs agree on nothing


def _hands_face_up(with_a_back: bool):
    """The recount in a no-divider set: three tiles read face up, the 0-0 boxed as a back, and (when
    `with_a_back`) one blue back of the boneyard; too few backs to agree on their colour."""
    style = replace(FACTORS["no_divider"].style(random_style(np.random.default_rng(3))), back=(150, 40, 20),
                    back_pattern="plain")
    frame = np.full((160, 720, 3), (40, 90, 30), np.uint8)
    tiles = []
    for n, v in enumerate([(1, 3), (2, 5), (4, 6), (0, 0), (None, None)]):
        if v[0] is None and not with_a_back:
            break
        face = "down" if v[0] is None else "up"
        t = PlacedTile(None if face == "down" else v, (70 + 140 * n, 80), math.pi / 2, LENGTH / 2, 2.0,
                       face=face, style=style)
        draw_face(frame, t)
        said = ("down", (None, None)) if n >= 3 else ("up", v)
        tiles.append(TileRead(t.corners(), t.halves(), said[0], said[1], (1.0, 1.0), ("", ""), 0.9))
    return frame, tiles


def test_the_blank_double_at_a_recount_with_few_backs_is_told_by_the_faces_beside_it():
    frame, tiles = _hands_face_up(with_a_back=True)
    out, seen = blank_doubles(frame, tiles)
    assert out[3].face == "up" and out[3].values == (0, 0)
    assert out[4].face == "down" and seen is None


def test_a_plain_box_of_the_faces_colour_with_no_back_beside_it_stays_a_back():
    # backs of the faces' colour and a blank cannot be told apart without a back of another colour
    frame, tiles = _hands_face_up(with_a_back=False)
    assert blank_doubles(frame, tiles)[0][3].face == "down"


def test_a_hand_boxed_as_a_back_is_no_blank_double_by_the_backs_seen_before():
    first, backs_row = _table((150, 40, 20), blank_at=None)
    _, backs = blank_doubles(first, backs_row)
    frame, tiles = _recount("pin", lone="hand")
    assert blank_doubles(frame, tiles, backs)[0][2].face == "down"


def test_the_blank_double_among_patterned_backs_of_its_colour_reads_0_0():
    # held-out live deal h17: backs of the faces' colour with a line along them; the opener 0-0
    # (no divider) is the one box with nothing on it
    style = FACTORS["no_divider"].style(random_style(np.random.default_rng(3)))
    body = tuple(int(x) for x in style.body)
    for pattern in ("line", "ring"):
        frame, tiles = _table(body, pattern=pattern)
        out, _ = blank_doubles(frame, tiles)
        assert [t.face for t in out] == ["down"] * 6 + ["up"], pattern
        assert out[6].values == (0, 0)
        frame, tiles = _table(body, pattern=pattern, blank_at=None)  # every box a back: none taken
        assert [t.face for t in blank_doubles(frame, tiles)[0]] == ["down"] * 7


def test_a_back_in_brighter_light_than_the_others_keeps_the_backs_tint_and_is_no_blank():
    """Fresh live deal h423 (faint divider, tan backs, white faces): the hand rows lay in the shade
    at the table's edges, a closed 0-0 (BAL) in the lit middle, as light as the faces but as tan
    as the backs: read as a face-up blank. A plain box whose tint is the backs' is a back; the
    blank double of the faces' tint among the same shaded backs still reads 0-0."""
    style = replace(FACTORS["no_divider"].style(random_style(np.random.default_rng(3))),
                    body=(235, 240, 240), back=(196, 228, 236), back_pattern="plain")  # BGR: white faces, pale tan backs

    def frame_with(lit: str):
        frame = np.full((160, 1020, 3), (40, 90, 30), np.uint8)
        tiles = []
        for n in range(10):
            values = (n % 7, (n + 2) % 7) if n >= 7 else ((0, 0) if n == 6 and lit == "blank" else None)
            t = PlacedTile(values, (60 + 100 * n, 80), math.pi / 2, LENGTH / 2, 2.0,
                           face="down" if values is None else "up", style=style)
            draw_face(frame, t)
            read = (values, (0.99, 0.99), ("read", "read")) if n >= 7 else ((None, None), (1.0, 1.0), ("face down",) * 2)
            tiles.append(TileRead(t.corners(), t.halves(), "up" if n >= 7 else "down", read[0], read[1], read[2], 0.9))
        frame[:, :590] = (frame[:, :590] * 0.72).astype(np.uint8)  # the rows in the shade, the 7th tile lit
        return frame, tiles

    frame, tiles = frame_with("back")
    out, _ = blank_doubles(frame, tiles)
    assert [t.face for t in out[:7]] == ["down"] * 7
    # boxed unsure, it is still a back, not a strange thing among the backs to drop
    tiles[6] = replace(tiles[6], detection_confidence=0.5)
    out, _ = blank_doubles(frame, tiles)
    assert len(out) == 10 and out[6].face == "down"
    frame, tiles = frame_with("blank")
    out, _ = blank_doubles(frame, tiles)
    assert out[6].face == "up" and out[6].values == (0, 0)


def test_an_unsure_back_in_brighter_light_far_from_both_colours_keeps_the_backs_tint_and_stays():
    """Fresh live deal h546 (pin on a line, dark red backs, white faces): a closed 5-5 (SPI-4) in
    the lit middle of the table, 40 (Lab) from the shaded backs and far from the faces, boxed at
    0.36-0.72, was dropped as a strange thing on most readings, and the deal's last play was never
    written. Of the backs' tint, it is a back however unsure the detector is; a box of another tint
    as unsure is still dropped."""
    style = replace(FACTORS["pin_line"].style(random_style(np.random.default_rng(3))),
                    body=(235, 240, 240), back=(50, 50, 150), back_pattern="plain")  # BGR: dark red backs

    def frame_with(lit_colour=None):
        frame = np.full((160, 1020, 3), (40, 90, 30), np.uint8)
        tiles = []
        for n in range(10):
            values = (n % 7, (n + 2) % 7) if n >= 7 else None
            t = PlacedTile(values, (60 + 100 * n, 80), math.pi / 2, LENGTH / 2, 2.0,
                           face="down" if values is None else "up",
                           style=replace(style, back=lit_colour) if n == 6 and lit_colour else style)
            draw_face(frame, t)
            read = (values, (0.99, 0.99), ("read", "read")) if n >= 7 else ((None, None), (1.0, 1.0), ("face down",) * 2)
            tiles.append(TileRead(t.corners(), t.halves(), "up" if n >= 7 else "down", read[0], read[1], read[2],
                                  0.5 if n == 6 else 0.9))
        frame[:, :590] = (frame[:, :590] * 0.55).astype(np.uint8)  # the rows in the shade, the 7th tile lit
        return frame, tiles

    out, _ = blank_doubles(*frame_with())
    assert len(out) == 10 and out[6].face == "down"
    out, _ = blank_doubles(*frame_with(lit_colour=(150, 120, 40)))  # a blue thing boxed as a back
    assert len(out) == 9
