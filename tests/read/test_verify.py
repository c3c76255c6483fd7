"""The physical-tile check: tiles drawn by the renderer's own tile painter on a board-like table,
and the boxes a fooled detector gives (across two tiles, a second box, a small box)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest

from vision.read import verify
from vision.read.box import Box
from vision.synth.styles import random_style
from vision.synth.tiles import PlacedTile, draw_face, draw_side

WIDTH = 54.0  # a tile 108 px long, as in the real photos at their given scale


def _table(w: int = 900, h: int = 500) -> np.ndarray:
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (120, 130, 20)  # teal board
    img[::45, :] = (60, 65, 10)  # printed grid lines
    img[:, ::45] = (60, 65, 10)
    return img


def _tiles(img: np.ndarray, centres, angle: float = 0.0, width: float = WIDTH, seed: int = 3,
           values=((5, 3), (3, 6), (6, 1), (1, 4))) -> list[PlacedTile]:
    style = random_style(np.random.default_rng(seed), kind="white")
    out = []
    for k, c in enumerate(centres):
        t = PlacedTile(values[k % len(values)], c, angle, width, 2.0, style=style)
        draw_side(img, t, np.array([2.0, 3.0]))
        draw_face(img, t)
        out.append(t)
    return out


def _quad(cx: float, cy: float, length: float, width: float, angle: float = 0.0) -> np.ndarray:
    return Box(cx, cy, math.cos(angle), math.sin(angle), length, width).corners()


@dataclass
class Scene:
    img: np.ndarray
    tiles: list[PlacedTile]


@pytest.fixture(scope="module")
def chain() -> Scene:
    """Four tiles end to end with the narrow visible gap of the real photos (3 px), and a fifth
    tile alone. (Tiles pressed closer than the warp resolves look like one long body: then only
    the size and overlap checks can help.)"""
    img = _table()
    L = 2 * WIDTH
    centres = [(150 + k * (L + 3), 200) for k in range(4)] + [(300, 380)]
    return Scene(img, _tiles(img, centres))


def test_real_tiles_are_physical(chain: Scene) -> None:
    quads = [t.corners() for t in chain.tiles]
    verdicts = verify.verify_frame(chain.img, quads, [0.8] * len(quads))
    assert all(v.physical for v in verdicts), [v.reason for v in verdicts]


def test_box_across_two_tiles_end_to_end_is_rejected(chain: Scene) -> None:
    a, b = chain.tiles[1], chain.tiles[2]
    mid = (np.asarray(a.center) + np.asarray(b.center)) / 2
    straddle = _quad(mid[0], mid[1], a.length, a.width)
    # alone, an unsure box goes on its body: a gap across the middle, the body on past both ends
    v, body = verify.verify_tile(chain.img, straddle, 0.3)
    assert body is not None and body.split
    assert not v.physical and "two tiles" in v.reason
    # a sure one goes too once its neighbours are boxed: it lies half on each
    quads = [t.corners() for t in chain.tiles]
    verdicts = verify.verify_frame(chain.img, [*quads, straddle], [0.9] * len(quads) + [0.9])
    assert all(v.physical for v in verdicts[:-1]) and not verdicts[-1].physical


def test_a_sure_tile_in_a_line_of_touching_tiles_stays() -> None:
    # held-out render s7_000082: the 3-5 lies in a straight line of touching white tiles; the
    # detector's box for it (recorded, 44-epoch model, confidence 0.94) shows its divider reaching
    # the outline and its neighbours' bodies past both ends, as a straddling box would. Sure boxes
    # stay (STRADDLE_SURE); the same box unsure goes.
    import cv2

    from vision.read.box import box_from_corners
    from vision.synth.dataset import encode_jpeg, image_rng
    from vision.synth.scene import render_scene

    r = render_scene(image_rng(7, 82), (640, 640))
    img = cv2.imdecode(np.frombuffer(encode_jpeg(r.image, r.jpeg_quality), np.uint8), cv2.IMREAD_COLOR)
    truth = [t for t in r.truth("x")["tiles"] if t.get("values") in ([3, 5], [5, 3])]
    assert len(truth) == 1
    box = box_from_corners(np.array([[208.1, 297.6], [244.3, 274.5], [194.7, 197.0], [158.6, 220.1]]))
    assert np.hypot(*(box.corners().mean(axis=0) - np.mean(truth[0]["corners"], axis=0))) < 3
    v, body = verify.verify_tile(img, box.corners(), 0.94)
    assert body is not None and body.split and min(body.ends) >= verify.END_RUNS_ON
    assert v.physical
    assert not verify.verify_tile(img, box.corners(), 0.3)[0].physical


def test_box_shifted_by_a_quarter_tile_is_rejected(chain: Scene) -> None:
    t = chain.tiles[1]
    q = _quad(t.center[0] + 0.3 * t.length, t.center[1], t.length, t.width)
    v, _ = verify.verify_tile(chain.img, q, 0.9)
    assert not v.physical


def test_box_across_two_tiles_side_by_side_is_rejected() -> None:
    img = _table()
    tiles = _tiles(img, [(300, 200), (300, 200 + WIDTH + 3)])
    q = _quad(300, 200 + (WIDTH + 3) / 2, tiles[0].length, WIDTH)
    v, body = verify.verify_tile(img, q, 0.9)
    assert body is not None and body.split_along
    assert not v.physical and "side by side" in v.reason


def test_a_second_box_on_a_tile_goes_the_first_stays(chain: Scene) -> None:
    t = chain.tiles[4]
    good = t.corners()
    shifted = _quad(t.center[0] + 0.25 * t.length, t.center[1] + 4, t.length, t.width)
    verdicts = verify.verify_frame(chain.img, [good, shifted], [0.6, 0.5])
    assert verdicts[0].physical
    assert not verdicts[1].physical


def test_touching_tiles_do_not_push_each_other_out(chain: Scene) -> None:
    # boxes a little too big (as a detector gives) still overlap their neighbours only slightly
    quads = [_quad(*t.center, t.length * 1.06, t.width * 1.06) for t in chain.tiles]
    verdicts = verify.verify_frame(chain.img, quads, [0.7, 0.9, 0.5, 0.8, 0.6])
    assert all(v.physical for v in verdicts), [v.reason for v in verdicts]


def test_small_box_among_tiles_is_part_of_something(chain: Scene) -> None:
    quads = [t.corners() for t in chain.tiles]
    t = chain.tiles[0]
    small = _quad(t.center[0] - t.length / 4, t.center[1], t.length * 0.4, t.width * 0.8)
    verdicts = verify.verify_frame(chain.img, [*quads, small], [0.8] * 5 + [0.4])
    assert all(v.physical for v in verdicts[:5])
    assert not verdicts[5].physical and "px long" in verdicts[5].reason


@pytest.mark.parametrize(("confidence", "kept"), [(0.3, False), (0.8, True)])
def test_somewhat_short_box_goes_only_when_the_detector_is_unsure(confidence: float, kept: bool) -> None:
    # a clean body 0.7 of the frame's tile length: between MIN_RELATIVE_LENGTH and SHORT_RELATIVE_LENGTH
    img = _table()
    tiles = _tiles(img, [(150 + k * 120, 150) for k in range(4)])
    small = _tiles(img, [(400, 360)], width=WIDTH * 0.7, seed=5)[0]
    quads = [t.corners() for t in tiles] + [small.corners()]
    verdicts = verify.verify_frame(img, quads, [0.8] * 4 + [confidence])
    assert all(v.physical for v in verdicts[:4])
    assert verdicts[4].physical is kept, verdicts[4].reason
    if not kept:
        assert "unsure" in verdicts[4].reason


def test_a_box_far_longer_than_the_frame_s_tiles_is_no_tile_of_the_set() -> None:
    # a clean white body twice a tile's length (a box lid's printed domino, a phone) among four tiles
    img = _table()
    tiles = _tiles(img, [(150 + k * 120, 150) for k in range(4)])
    big = _tiles(img, [(450, 360)], width=WIDTH * 1.6, seed=5)[0]
    quads = [t.corners() for t in tiles] + [big.corners()]
    verdicts = verify.verify_frame(img, quads, [0.8] * 5)
    assert all(v.physical for v in verdicts[:4])
    assert not verdicts[4].physical and "no tile of this set" in verdicts[4].reason


def test_a_box_a_little_longer_than_the_frame_s_tiles_stays() -> None:
    # a tile nearer a tilted camera, or boxed a little long, is still a tile
    img = _table()
    tiles = _tiles(img, [(150 + k * 120, 150) for k in range(4)])
    near = _tiles(img, [(450, 360)], width=WIDTH * 1.3, seed=5)[0]
    verdicts = verify.verify_frame(img, [t.corners() for t in [*tiles, near]], [0.8] * 5)
    assert all(v.physical for v in verdicts), [v.reason for v in verdicts]


def test_whole_tiles_among_many_short_boxes_stay() -> None:
    # five sure boxes half a tile long pull the median down: the frame does not agree on one
    # length, so the three whole tiles, twice that median, are not "far longer"
    img = _table()
    whole = _tiles(img, [(150 + k * 150, 120) for k in range(3)])
    short = _tiles(img, [(100 + k * 120, 380) for k in range(5)], width=WIDTH * 0.5, seed=5)
    verdicts = verify.verify_frame(img, [t.corners() for t in [*whole, *short]], [0.8] * 8)
    assert all(v.physical for v in verdicts[:3]), [v.reason for v in verdicts[:3]]


def test_box_on_empty_board_with_a_printed_star_is_rejected() -> None:
    import cv2

    img = _table()
    pts = np.array([[300 + 40 * math.cos(a) * (1 if k % 2 == 0 else 0.3), 200 + 40 * math.sin(a) * (1 if k % 2 == 0 else 0.3)]
                    for k, a in enumerate(np.linspace(0, 2 * math.pi, 9)[:-1])], np.int32)
    cv2.fillPoly(img, [pts], (60, 190, 220))
    v, body = verify.verify_tile(img, _quad(300, 200, 2 * WIDTH, WIDTH), 0.4)
    assert body is not None and body.fill < verify.MIN_FILL
    assert not v.physical


def test_small_tiles_bodies_are_not_judged_but_a_phantom_at_a_joint_loses_against_the_two() -> None:
    # Below MIN_VERIFY_PX the body cues are too coarse to judge a box alone, but tiles are rigid
    # bodies that never overlap (issue 23): a box across the joint of two touching tiles, surer
    # than either, still loses against the two together.
    img = _table()
    w = 18.0
    tiles = _tiles(img, [(100 + k * (2 * w + 2), 100) for k in range(4)], width=w)
    a, b = tiles[1], tiles[2]
    mid = (np.asarray(a.center) + np.asarray(b.center)) / 2
    quads = [t.corners() for t in tiles] + [_quad(mid[0], mid[1], a.length, w)]
    assert verify.verify_tile(img, quads[4], 0.9)[1] is None  # too small to judge alone
    verdicts = verify.verify_frame(img, quads, [0.6] * 4 + [0.9])
    assert all(v.physical for v in verdicts[:4])
    assert not verdicts[4].physical and "two better tiles" in verdicts[4].reason


def test_rotated_tiles_and_straddle() -> None:
    img = _table()
    ang = math.radians(30)
    u = np.array([math.cos(ang), math.sin(ang)])
    L = 2 * WIDTH
    centres = [tuple(np.array([250.0, 150.0]) + u * k * (L + 3)) for k in range(3)]
    tiles = _tiles(img, centres, angle=ang)
    quads = [t.corners() for t in tiles]
    mid = (np.asarray(centres[0]) + np.asarray(centres[1])) / 2
    quads.append(_quad(mid[0], mid[1], L, WIDTH, ang))
    verdicts = verify.verify_frame(img, quads, [0.7, 0.7, 0.7, 0.9])
    assert [v.physical for v in verdicts] == [True, True, True, False]


def test_physical_tiles_keeps_order_and_drops_the_rest(chain: Scene) -> None:
    from vision.read.reader import read_frame
    from vision.read.truthdet import detections_from_corners

    a, b = chain.tiles[0], chain.tiles[1]
    mid = (np.asarray(a.center) + np.asarray(b.center)) / 2
    corners = [t.corners() for t in chain.tiles] + [_quad(mid[0], mid[1], a.length, a.width)]
    dets = detections_from_corners(corners, ["up"] * len(corners), None)
    reading = read_frame(chain.img, dets)
    centres = [t.halves.mean(axis=0) for t in reading.tiles]
    assert len(reading.tiles) == 5
    for t, c in zip(chain.tiles, centres, strict=True):
        assert np.hypot(*(np.asarray(t.center) - c)) < 5


def test_box_across_two_tightly_pressed_tiles_goes_when_both_are_boxed() -> None:
    # flat tiles pressed together without a visible gap look like one long body: only the two
    # better boxes that the straddling box half covers give it away
    import cv2

    img = _table()
    L, w = int(2 * WIDTH), int(WIDTH)
    for k in range(3):
        x0 = 100 + k * L
        cv2.rectangle(img, (x0, 200), (x0 + L - 1, 200 + w - 1), (235, 240, 240), -1)
        cv2.line(img, (x0 + L // 2, 200 + w // 5), (x0 + L // 2, 200 + w - w // 5), (30, 30, 30), 2)
        for dx in (L // 4, 3 * L // 4):
            cv2.circle(img, (x0 + dx, 200 + w // 2), 5, (30, 30, 30), -1)
    quads = [_quad(100 + k * L + L / 2 - 0.5, 200 + w / 2 - 0.5, L, w) for k in range(3)]
    straddle = _quad(100 + L - 0.5, 200 + w / 2 - 0.5, L, w)
    alone, body = verify.verify_tile(img, straddle, 0.5)
    assert alone.physical and body is not None and not body.split
    verdicts = verify.verify_frame(img, [*quads, straddle], [0.8, 0.7, 0.8, 0.5])
    assert [v.physical for v in verdicts] == [True, True, True, False]
    assert "two better tiles" in verdicts[3].reason


@pytest.fixture(scope="module")
def gingham(tmp_path_factory):
    """The rendered scene s5_000000 (as in tests/read/conftest.py's `rendered` set): white tiles on
    a green and white gingham table whose white squares touch them, a 5-5 spinner with big pips
    crossed by its neighbours, a 3-5 with a tile at one end and a white square at the other."""
    import json

    import cv2

    from vision.synth.dataset import write_images

    out = tmp_path_factory.mktemp("gingham")
    write_images(out, 1, 5, (1280, 960), n_val=0, progress=False)
    img = cv2.imread(str(out / "images" / "train" / "s5_000000.jpg"))
    truth = json.loads((out / "truth" / "s5_000000.json").read_text())
    return img, [np.array(t["corners"], float) for t in truth["tiles"] if t.get("labelled", True)]


@pytest.mark.parametrize("seed", range(4))
def test_true_tiles_on_a_busy_table_stay_with_detector_like_boxes(gingham, seed: int) -> None:
    # regression: the 5-5's body colour came out as its pips' (fill 5 %, "a gap runs along the
    # box"), and the 3-5's divider reaching the outline plus a white square past one end read as
    # "halves of two tiles"
    from vision.read.box import box_from_corners
    from vision.read.truthdet import BoxNoise, perturb

    img, corners = gingham
    rng = np.random.default_rng(seed)
    quads = [perturb(box_from_corners(c), BoxNoise(), rng).corners() for c in corners]
    verdicts = verify.verify_frame(img, quads, [0.9] * len(quads))
    dropped = [(np.round(q.mean(axis=0)), v.reason) for q, v in zip(quads, verdicts, strict=True) if not v.physical]
    assert not dropped
    for centre in ((671, 450), (569, 287)):
        k = int(np.argmin([np.hypot(*(c.mean(axis=0) - centre)) for c in corners]))
        _, b = verify.verify_tile(img, quads[k], 0.9)
        assert b is not None and not b.split_along and b.fill > verify.CLEAN_FILL


def test_a_box_half_on_two_tiles_on_the_busy_table_still_goes(gingham) -> None:
    # a box from the middle of the 3-5 to the middle of the tile at its end (the 5-4 set across
    # it, both boxed) is no tile
    from vision.read.box import box_from_corners

    img, corners = gingham
    centres = [c.mean(axis=0) for c in corners]
    k = int(np.argmin([np.hypot(*(c - (569, 287))) for c in centres]))
    box = box_from_corners(corners[k])
    end = np.array([box.cx - box.ux * box.length, box.cy - box.uy * box.length])
    j = int(np.argmin([np.hypot(*(c - end)) if i != k else np.inf for i, c in enumerate(centres)]))
    assert np.hypot(*(centres[j] - end)) < box.width  # the neighbour lies at that end
    mid = (centres[k] + centres[j]) / 2
    straddle = _quad(mid[0], mid[1], box.length, box.width, math.atan2(box.uy, box.ux))
    verdicts = verify.verify_frame(img, [*corners, straddle], [0.9] * len(corners) + [0.8])
    assert all(v.physical for v in verdicts[:-1]), [v.reason for v in verdicts]
    assert not verdicts[-1].physical


def _read(values, reasons, confidence: float, cx: float = 100.0):
    from vision.read.tile import TileRead

    quad = _quad(cx, 100, 40, 20)  # too small for the body checks: only the faces speak
    return TileRead(quad, np.array([[cx - 10, 100.0], [cx + 10, 100.0]]), "up", values, (0.9, 0.9), reasons, confidence)


def test_an_unsure_box_with_one_half_showing_no_face_is_no_tile() -> None:
    from vision.read.tile import NO_FACE

    img = _table()
    no_face = f"{NO_FACE}: the classifier takes it for no tile face (0.86)"
    tiles = [
        _read((5, None), ("", no_face), 0.32, 100),  # s7_000149: a box off a tile's end, joined to a 5-5
        _read((5, None), ("", no_face), 0.8, 200),  # sure: a tile partly under an arm, kept
        _read((5, None), ("", "unsure: blob count 2, classifier 3 at 0.41"), 0.32, 300),  # unsure, not no face
        _read((None, None), (no_face, no_face), 0.32, 400),  # neither half a face, unsure: the table
        _read((None, None), (no_face, no_face), 0.45, 500),  # neither half a face: left to the other checks
        _read((5, 3), ("", ""), 0.32, 600),
    ]
    kept = verify.physical_tiles(img, tiles)
    assert [float(t.quad.mean(axis=0)[0]) for t in kept] == [200.0, 300.0, 500.0, 600.0]
    assert verify.half_a_face(tiles[0]).startswith("one half shows no tile face")
    assert verify.half_a_face(tiles[3]).startswith("neither half shows a tile face")


def test_a_box_far_wider_than_the_frame_s_tiles_is_no_tile_of_the_set() -> None:
    # a dark block cut by the frame's edge: no longer than a tile, but as wide as one is long
    # (session 38: boxed as a back in 24 of the matrix's 25 looks); the frame's edge shortens a
    # tile's box, never widens it
    img = _table()
    tiles = _tiles(img, [(150 + k * 120, 150) for k in range(4)])
    img[330:500, 700:900] = (20, 25, 20)
    block = _quad(800, 420, 1.4 * 2 * WIDTH, 2 * WIDTH)
    verdicts = verify.verify_frame(img, [t.corners() for t in tiles] + [block], [0.8] * 4 + [0.4])
    assert all(v.physical for v in verdicts[:4]), [v.reason for v in verdicts[:4]]
    assert not verdicts[4].physical and "wide" in verdicts[4].reason


def _big_blank_domino(img: np.ndarray) -> PlacedTile:
    """A printed domino twice a tile's size (a box lid), its halves blank."""
    style = random_style(np.random.default_rng(5), kind="white")
    big = PlacedTile((0, 0), (450, 360), 0.0, 2 * WIDTH, 2.0, style=style)
    draw_face(img, big)
    return big


@pytest.mark.parametrize(("confidence", "kept"), [(0.35, False), (0.9, True)])
def test_a_blank_box_on_part_of_something_larger_is_no_tile_unless_the_detector_is_sure(
        confidence: float, kept: bool) -> None:
    # a tile-sized box inside a big blank printed domino: its body runs on past an end and a side
    img = _table()
    tiles = _tiles(img, [(150 + k * 120, 100) for k in range(4)])
    _big_blank_domino(img)
    inside = _quad(450 - WIDTH, 360 - WIDTH / 2, 2 * WIDTH, WIDTH)
    quads = [t.corners() for t in tiles] + [inside]
    verdicts = verify.verify_frame(img, quads, [0.8] * 4 + [confidence], blanks=[False] * 4 + [True])
    assert all(v.physical for v in verdicts[:4])
    assert verdicts[4].physical is kept, verdicts[4].reason
    if not kept:
        assert "blank face" in verdicts[4].reason


def test_a_true_blank_double_alone_on_the_table_stays() -> None:
    # the 0-0 itself, boxed unsurely: its body ends at its outline, so it is kept
    img = _table()
    tiles = _tiles(img, [(150 + k * 120, 100) for k in range(4)])
    blank = _tiles(img, [(450, 360)], values=((0, 0),), seed=5)[0]
    verdicts = verify.verify_frame(img, [t.corners() for t in [*tiles, blank]], [0.8] * 4 + [0.35],
                                   blanks=[False] * 4 + [True])
    assert all(v.physical for v in verdicts), [v.reason for v in verdicts]
