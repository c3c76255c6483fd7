"""A face-up box read on neither half is turned about its centre and read again (`vision.read.turn`)."""

from __future__ import annotations

import numpy as np
import pytest

from lab.read.evaluate import load_frame, load_rendered
from vision.read.box import Box, box_from_corners
from vision.read.tile import read_tiles
from vision.read.turn import turn_unread, turned


def _squarish_boxes_off(root, degrees: float):
    """Every whole face-up tile of the rendered set as the detector boxes a small tile at its worst:
    nearly square (width 0.72 of the length) and `degrees` off the tile's axis."""
    for ti in load_rendered(root):
        frame = load_frame(ti)
        tiles = [t for t in ti.tiles if t.counts and t.face == "up" and t.values and t.whole]
        jobs = []
        for t in tiles:
            b = box_from_corners(t.corners)
            jobs.append((turned(Box(b.cx, b.cy, b.ux, b.uy, b.length, 0.72 * b.length), degrees), "up", 0.6))
        yield frame, tiles, jobs


@pytest.mark.parametrize("degrees", [30.0, -40.0])
def test_boxes_turned_off_their_tile_are_read_right_once_turned_back(rendered, degrees):
    turned_back = right = 0
    for frame, truth, jobs in _squarish_boxes_off(rendered, degrees):
        read = read_tiles(frame, jobs)
        after = turn_unread(frame, read, jobs)
        for t, before, now in zip(truth, read, after, strict=True):
            if now is before:
                continue
            assert before.half_values == (None, None)  # only tiles read on neither half are turned
            turned_back += 1
            right += int(sorted(now.values) == sorted(t.values))
    # 24 renders: 139 of 240 boxes 30 degrees off and 156 at 40 are read on neither half
    assert turned_back >= 100
    assert right == turned_back  # none read wrong once turned


def test_a_box_on_no_tile_stays_unread():
    rng = np.random.default_rng(3)
    frame = np.clip(rng.normal(120, 25, (200, 200, 3)), 0, 255).astype(np.uint8)  # a speckled cloth
    jobs = [(Box(100, 100, 1.0, 0.0, 60, 40), "up", 0.6)]
    read = read_tiles(frame, jobs)
    assert read[0].half_values == (None, None)
    assert turn_unread(frame, read, jobs)[0].half_values == (None, None)


def test_tiles_read_on_a_half_are_left_as_they_are(rendered):
    frame, truth, jobs = next(_squarish_boxes_off(rendered, 0.0))
    read = read_tiles(frame, jobs)
    after = turn_unread(frame, read, jobs)
    assert all(a is b for a, b in zip(read, after, strict=True) if a.half_values != (None, None))


def test_only_sure_nearly_square_boxes_are_turned(rendered):
    """Unsure or long boxes read on neither half stay as read: most such boxes are false, and turned
    some read surely as tiles that are not there."""
    frame, truth, jobs = next(_squarish_boxes_off(rendered, 30.0))
    unsure = [(box, face, 0.4) for box, face, _ in jobs]
    long = [(Box(b.cx, b.cy, b.ux, b.uy, b.length, 0.5 * b.length), face, p) for b, face, p in jobs]
    for these in (unsure, long):
        read = read_tiles(frame, these)
        assert any(t.half_values == (None, None) for t in read)
        assert all(a is b for a, b in zip(read, turn_unread(frame, read, these), strict=True))
