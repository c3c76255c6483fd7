"""`dominocam enrol`: a rendered set is read 28 / 28 right and gives a profile that round-trips;
bad photos (27 tiles, a tile twice, not an image) give one clear line and the exit code."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from dominocam.cli import main
from vision.read.assign import assign
from vision.read.setprofile import ProfileError, SetProfile, load_profile
from vision.synth.camera import encode_jpeg
from vision.synth.enrol import DOUBLE_SIX, render_enrolment
from vision.synth.looks import FACTORS

SIZE = (960, 720)


def _photo(tmp_path: Path, name: str, seed: int, look: str = "baseline", values=None):
    r = render_enrolment(np.random.default_rng([31, seed]), SIZE, FACTORS[look], values=values)
    path = tmp_path / f"{name}.jpg"
    path.write_bytes(encode_jpeg(r.image, r.jpeg_quality))
    return path, r


def _enrol(capsys, argv):
    code = main(["enrol", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_assign_matches_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(1, 6))
        m = int(rng.integers(n, 7))
        cost = rng.integers(0, 4, (n, m)).astype(float) + rng.random((n, m)) * 0.01
        cols = assign(cost)
        assert len(set(cols.tolist())) == n and cols.min() >= 0
        best = min(sum(cost[i, p[i]] for i in range(n)) for p in itertools.permutations(range(m), n))
        assert cost[np.arange(n), cols].sum() == pytest.approx(best)


@pytest.mark.parametrize("look", ["baseline", "six_across"])
def test_enrol_reads_a_rendered_set_right_and_the_profile_round_trips(tmp_path, capsys, look):
    photo, r = _photo(tmp_path, look, 1, look)
    out_file = tmp_path / "club" / "set.json"
    code, out, err = _enrol(capsys, [str(photo), "--out", str(out_file), "--json"])
    assert code == 0, err
    doc = json.loads(out)
    assert doc["image"] == str(photo) and doc["complete"] is True and doc["profile"] == str(out_file)
    assert len(doc["tiles"]) == 28
    assert sorted(tuple(sorted(t["values"])) for t in doc["tiles"]) == sorted(DOUBLE_SIX)
    truth_halves = np.array(r.halves)  # (28, 2, 2)
    for t in doc["tiles"]:
        got = np.array(t["halves"])
        j = int(np.argmin(np.linalg.norm(truth_halves.mean(axis=1) - got.mean(axis=0), axis=1)))
        # the same tile, read half by half the right way round
        straight = np.linalg.norm(truth_halves[j] - got, axis=1).max()
        turned = np.linalg.norm(truth_halves[j][::-1] - got, axis=1).max()
        want = list(r.tiles[j].values) if straight < turned else list(r.tiles[j].values)[::-1]
        assert t["values"] == want
        assert min(straight, turned) < 0.15 * r.tiles[j].length
        assert 0.0 < t["confidence"] <= 1.0
    profile = load_profile(out_file)
    assert SetProfile.from_dict(json.loads(out_file.read_text())).to_dict() == profile.to_dict()
    assert SetProfile.from_dict(profile.to_dict()).to_dict() == profile.to_dict()
    assert profile.tiles == 28 and profile.divider == "line"
    assert profile.arrangements[6] == ("across" if look == "six_across" else "along")
    assert all(len(profile.pips[v]) == v for v in range(7))
    # the rendered tile's long side, as the camera shows it
    true_len = float(np.median([np.linalg.norm(c[1] - c[0]) for c in r.corners]))
    assert profile.tile_length_px == pytest.approx(true_len, rel=0.1)
    assert 1.8 < profile.ratio < 2.2
    # plain white body, black pips
    assert profile.body[0] > 150 and all(c[0] < 100 for c in profile.pip_colours[1:])


def test_text_output_names_the_profile(tmp_path, capsys):
    photo, _ = _photo(tmp_path, "set", 1)
    code, out, _ = _enrol(capsys, [str(photo), "--out", str(tmp_path / "mine.json")])
    assert code == 0
    assert "all 28 tiles" in out and str(tmp_path / "mine.json") in out
    assert (tmp_path / "mine.json").is_file()


@pytest.mark.parametrize("case, values, found", [
    ("27 tiles", [v for v in DOUBLE_SIX if v != (2, 5)], "found 27 tiles"),
    ("one tile twice (29)", [*DOUBLE_SIX, (3, 4)], "found 29 tiles"),
])
def test_a_photo_without_exactly_28_tiles_is_refused(tmp_path, capsys, case, values, found):
    photo, r = _photo(tmp_path, "bad", 2, values=values)
    assert len(r.tiles) == len(values)
    out_file = tmp_path / "set.json"
    code, out, err = _enrol(capsys, [str(photo), "--out", str(out_file), "--json"])
    assert code == 1, case
    assert out == "" and not out_file.exists()
    assert len(err.strip().splitlines()) == 1
    assert found in err and "need exactly 28" in err and "lay all 28 tiles face up, not touching" in err


def test_a_set_with_one_tile_twice_and_one_missing_cannot_be_assigned(tmp_path, capsys):
    values = [(1, 5) if v == (2, 4) else v for v in DOUBLE_SIX]  # 1-5 twice, no 2-4
    photo, _ = _photo(tmp_path, "twice", 3, values=values)
    code, out, err = _enrol(capsys, [str(photo), "--out", str(tmp_path / "set.json")])
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "cannot assign the set" in err and "both read 1-5" in err and "no tile reads 2-4" in err


def test_not_an_image(tmp_path, capsys):
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    code, out, err = _enrol(capsys, [str(text)])
    assert code == 2 and out == ""
    assert str(text) in err and "corrupt or unreadable image" in err
    code, _, err = _enrol(capsys, [str(tmp_path / "missing.png")])
    assert code == 2 and "file not found" in err


def test_a_broken_profile_file_says_what_to_do(tmp_path):
    bad = tmp_path / "set.json"
    bad.write_text("{not json")
    with pytest.raises(ProfileError, match="dominocam enrol"):
        load_profile(bad)
    bad.write_text(json.dumps({"version": 1, "image": "x"}))
    with pytest.raises(ProfileError, match="not a set profile"):
        load_profile(bad)
    with pytest.raises(ProfileError, match="no such set profile"):
        load_profile(tmp_path / "none.json")


def _tiles_right(rows: list[dict], render) -> int:
    truth = np.array(render.halves)
    good = 0
    for t in rows:
        if t["values"] is None:
            continue
        got = np.array(t["halves"])
        j = int(np.argmin(np.linalg.norm(truth.mean(axis=1) - got.mean(axis=0), axis=1)))
        good += sorted(t["values"]) == sorted(render.tiles[j].values)
    return good


def test_read_with_the_set_profile_reads_the_enrolled_six_across(tmp_path, capsys):
    photo, _ = _photo(tmp_path, "set", 1, "six_across")
    profile = tmp_path / "set.json"
    assert _enrol(capsys, [str(photo), "--out", str(profile)])[0] == 0
    sixes = [(a, 6) for a in range(7)]
    table, r = _photo(tmp_path, "sixes", 5, "six_across", values=sixes)
    assert main(["read", "--json", "--set", str(profile), str(table)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert len(row["tiles"]) == 7
    assert _tiles_right(row["tiles"], r) == 7


def test_without_set_the_profile_is_never_applied(tmp_path, capsys, monkeypatch):
    import vision.read.profile

    def refuse(*_):
        raise AssertionError("the profile was applied without --set")

    monkeypatch.setattr(vision.read.profile, "apply_profile", refuse)
    table, _ = _photo(tmp_path, "sixes", 5, values=[(a, 6) for a in range(7)])
    assert main(["read", "--json", str(table)]) == 0
    assert len(json.loads(capsys.readouterr().out)["tiles"]) == 7


@pytest.mark.parametrize("command", ["read", "recount"])
def test_a_missing_or_broken_set_file_is_exit_2(tmp_path, capsys, command):
    table, _ = _photo(tmp_path, "t", 5, values=[(1, 2)])
    assert main([command, "--set", str(tmp_path / "none.json"), str(table)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no such set profile" in err and "dominocam enrol" in err
    (tmp_path / "bad.json").write_text("[]")
    assert main([command, "--set", str(tmp_path / "bad.json"), str(table)]) == 2
    assert "not a set profile" in capsys.readouterr().err


def test_tiles_the_detector_missed_are_found_by_the_body_colour():
    from vision.read.loose import missed_tiles

    r = render_enrolment(np.random.default_rng([31, 7]), SIZE, FACTORS["no_divider"])
    frame = r.image
    truth = [np.asarray(c, float) for c in r.corners]
    # as if the detector had boxed all but three of the tiles
    found = missed_tiles(frame, truth[3:])
    assert len(found) == 3
    for c in truth[:3]:
        near = min(found, key=lambda q: np.linalg.norm(q.mean(axis=0) - c.mean(axis=0)))
        assert np.linalg.norm(near.mean(axis=0) - c.mean(axis=0)) < 0.1 * r.tiles[0].length
        assert np.linalg.norm(near[1] - near[0]) == pytest.approx(np.linalg.norm(c[1] - c[0]), rel=0.15)


def test_a_tile_in_the_shade_is_found_by_a_second_look_with_even_light(tmp_path):
    """Grooved tiles, one of them in the shade of the room's light: the detector boxes it not,
    and the body colour of the lit tiles misses it; the second look, with the light made even
    (`vision.read.light`), finds it, and the whole set is read right."""
    import cv2

    from vision.detect import DEFAULT_MODEL, TileDetector
    from vision.read.enrol import enrol_photo, enrolment_boxes

    path, r = _photo(tmp_path, "groove", 4, "groove")
    frame = cv2.imread(str(path))
    detector = TileDetector(DEFAULT_MODEL)
    assert len(enrolment_boxes(frame, detector.detect(frame), detector.last.doubtful)) < 28
    enrolment = enrol_photo(frame, detector, str(path))
    for t in enrolment.tiles:
        j = int(np.argmin([np.linalg.norm(np.mean(c, axis=0) - t.halves.mean(axis=0)) for c in r.corners]))
        assert sorted(t.values) == sorted(r.tiles[j].values)
    assert len({tuple(sorted(t.values)) for t in enrolment.tiles}) == 28


def test_even_light_lifts_the_shade_to_the_lit_part():
    from vision.read.light import even_light

    table = np.full((960, 1280, 3), (40, 90, 40), np.uint8)
    for x in range(40, 1200, 160):
        for y in (100, 800):
            table[y:y + 40, x:x + 80] = 235  # white tiles 80 px long, lying apart
    table[480:] = (table[480:].astype(np.float32) * 0.35).astype(np.uint8)
    evened = even_light(table, 80.0)
    lit, shaded = evened[110:130, 50:110].mean(), evened[810:830, 50:110].mean()
    assert table[810:830, 50:110].mean() < 0.4 * table[110:130, 50:110].mean()  # it was in the shade
    assert abs(lit - shaded) < 0.1 * lit
    assert abs(float(evened[300, 20].mean()) - float(evened[700, 20].mean())) < 10  # the table too


def test_a_box_running_out_of_the_photo_is_no_tile_of_the_set():
    """The set lies inside the photo: a doubtful box reaching past its edge (the table below a tile
    at the edge, boxed by the detector) is not taken for the 28th tile, the true one is."""
    from vision.detect.detections import Detections
    from vision.read.enrol import enrolment_boxes

    r = render_enrolment(np.random.default_rng([31, 5]), SIZE, FACTORS["baseline"])
    corners = np.array(r.corners, np.float32)
    sure = Detections(corners[1:], np.full(27, 0.9, np.float32), np.zeros(27, np.int64))
    h = SIZE[1]
    length = float(np.linalg.norm(corners[0][1] - corners[0][0]))
    out = np.array([[300, h - 20], [300 + length, h - 20], [300 + length, h + 20], [300, h + 20]], np.float32)
    doubtful = Detections(np.stack([out, corners[0]]), np.array([0.24, 0.2], np.float32), np.zeros(2, np.int64))
    boxes = enrolment_boxes(r.image, sure, doubtful)
    assert len(boxes) == 28
    centres = np.array([np.asarray(b).mean(axis=0) for b in boxes])
    for c in corners:
        assert np.linalg.norm(centres - c.mean(axis=0), axis=1).min() < 0.2 * length


def test_a_doubtful_box_on_the_bare_table_is_no_tile_of_the_set():
    """Two tiles the detector missed, so it offers doubtful boxes: one on bare table (a plank of
    dark wood reads 0-0) is dropped, where asked, for its middle being off the sure tiles' body
    colour, and the tile it would have pushed out is found by that colour."""
    from vision.detect.detections import Detections
    from vision.read.enrol import enrolment_boxes

    r = render_enrolment(np.random.default_rng([31, 5]), SIZE, FACTORS["baseline"])
    corners = np.array(r.corners, np.float32)
    centres = corners.mean(axis=1)
    length = float(np.linalg.norm(corners[0][1] - corners[0][0]))
    spots = [np.array([x, y], np.float32) for x in range(80, SIZE[0] - 80, 20) for y in range(80, SIZE[1] - 80, 20)]
    spot = max(spots, key=lambda p: np.linalg.norm(centres - p, axis=1).min())
    assert np.linalg.norm(centres - spot, axis=1).min() > 1.5 * length
    bare = spot + (corners[0] - corners[0].mean(axis=0))
    sure = Detections(corners[1:], np.full(27, 0.9, np.float32), np.zeros(27, np.int64))
    doubtful = Detections(np.stack([bare, corners[0]]), np.array([0.24, 0.2], np.float32), np.zeros(2, np.int64))
    boxes = enrolment_boxes(r.image, sure, doubtful, table_colour=True)
    assert len(boxes) == 28
    found = np.array([np.asarray(b).mean(axis=0) for b in boxes])
    assert np.linalg.norm(found - spot, axis=1).min() > length
    for c in centres:
        assert np.linalg.norm(found - c, axis=1).min() < 0.2 * length
