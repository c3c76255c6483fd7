"""A joint whose halves read differently is shown apart from the chain: drawn red, listed in the JSON."""

import numpy as np

from vision.read.layout import build_layout
from vision.read.picture import CHAIN, MISMATCH, draw_reading
from vision.read.reader import FrameReading, layout_tiles, reading_to_json
from vision.read.tile import TileRead


def _tile(x0: float, values: tuple[int, int]) -> TileRead:
    quad = np.array([[x0, 80], [x0 + 100, 80], [x0 + 100, 130], [x0, 130]], float)
    return TileRead(quad, np.array([[x0 + 25, 105], [x0 + 75, 105]], float), "up", values, (1.0, 1.0),
                    ("", ""), 0.9)


def _reading(values: list[tuple[int, int]]) -> FrameReading:
    tiles = [_tile(50 + 100 * i, v) for i, v in enumerate(values)]
    return FrameReading((500, 300), tiles, build_layout(layout_tiles(tiles), (500, 300)), 0.0)


def _line_pixels(img: np.ndarray, colour) -> int:
    # the joint's line runs between the two tiles' centres, at y 105
    row = img[104:107, 100:250].reshape(-1, 3)
    return int(np.all(np.abs(row.astype(int) - colour) < 30, axis=1).sum())


def test_a_mismatched_joint_is_drawn_in_its_own_colour():
    frame = np.full((300, 500, 3), 90, np.uint8)
    odd = _reading([(1, 2), (0, 3)])  # 2 against 0, in one line
    assert [j.mismatch for j in odd.layout.joins] == [True]
    img = draw_reading(frame, odd)
    assert _line_pixels(img, MISMATCH) > 20 and _line_pixels(img, CHAIN) == 0
    same = draw_reading(frame, _reading([(1, 2), (2, 3)]))
    assert _line_pixels(same, CHAIN) > 20 and _line_pixels(same, MISMATCH) == 0


def test_a_mismatched_joint_is_listed_in_the_json():
    odd = reading_to_json(_reading([(1, 2), (0, 3), (3, 4)]), "x.jpg")["layout"]
    assert sorted(odd["edges"]) == [[0, 1], [1, 2]] and odd["mismatches"] == [[0, 1]]
    assert "mismatches" not in reading_to_json(_reading([(1, 2), (2, 3)]), "x.jpg")["layout"]


def test_a_bit_of_chain_cut_off_is_listed_in_the_json_and_in_no_hand():
    tiles = [_tile(50 + 100 * i, v) for i, v in enumerate([(1, 2), (2, 3), (4, 5), (5, 6), (6, 0)])]
    tiles = tiles[:2] + [_tile(x + 150, t.half_values) for x, t in zip((200, 300, 400), tiles[2:], strict=True)]
    reading = FrameReading((800, 300), tiles, build_layout(layout_tiles(tiles), (800, 300)), 0.0)
    out = reading_to_json(reading, "x.jpg")
    assert out["layout"]["edges"] == [[2, 3], [3, 4]] and out["layout"]["pieces"] == [[0, 1]]
    assert out["hands"] == {}


def test_a_bit_of_chain_cut_off_is_shaded_as_chain():
    tiles = [_tile(50, (1, 2)), _tile(150, (2, 3)), _tile(400, (4, 5)), _tile(500, (5, 6)), _tile(600, (6, 0))]
    reading = FrameReading((800, 300), tiles, build_layout(layout_tiles(tiles), (800, 300)), 0.0)
    assert reading.layout.tiles == [2, 3, 4] and reading.layout.pieces == [[0, 1]]
    frame = np.full((300, 800, 3), 90, np.uint8)
    img = draw_reading(frame, reading).astype(int)
    # inside the first tile, away from its outline and labels: the chain's tint, not the bare table
    assert np.abs(img[95, 80] - 90).max() > 10
