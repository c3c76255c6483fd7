"""`dominocam read` on rendered images with truth, the JSON contract, and bad inputs."""

from __future__ import annotations

import json
import shutil

import cv2
import numpy as np

from dominocam.cli import main
from tests.read.conftest import truths


def _run(capsys, argv):
    code = main(argv)
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.strip()]


def test_read_rendered_images_matches_truth(rendered, capsys):
    images = sorted((rendered / "images" / "train").glob("*.jpg"))[:6]
    code, rows = _run(capsys, ["read", "--truth-boxes", "--json", *map(str, images)])
    assert code == 0
    assert [r["image"] for r in rows] == [str(p) for p in images]
    exact = total = 0
    by_name = {t["image"].split("/")[-1]: t for t in truths(rendered)}
    for row in rows:
        assert set(row) == {"image", "tiles", "layout", "hands", "ms"}
        # the contract's two keys, and the documented extras only where there are any
        assert {"edges", "ends"} <= set(row["layout"]) <= {"edges", "ends", "mismatches", "pieces"}
        assert all(row["layout"][k] for k in set(row["layout"]) - {"edges", "ends"})
        truth = by_name[row["image"].split("/")[-1]]
        labelled = [t for t in truth["tiles"] if t["labelled"]]
        assert len(row["tiles"]) == len(labelled)
        for t in row["tiles"]:
            assert {"values", "halves", "corners", "face", "confidence"} <= set(t)
            assert np.array(t["corners"]).shape == (4, 2) and np.array(t["halves"]).shape == (2, 2)
            assert 0.0 <= t["confidence"] <= 1.0
            if t["face"] == "down":
                assert t["values"] is None
        # the tile read at each truth tile shows the truth's values, half by half
        for tt in labelled:
            if tt["face"] != "up" or tt["length_px"] < 45:
                continue
            c = np.mean(tt["halves"], axis=0)
            near = min(row["tiles"], key=lambda t: np.hypot(*(np.mean(t["halves"], axis=0) - c)))
            total += 1
            if near["values"] is None:
                continue
            hv = near["values"]
            if np.hypot(*(np.array(near["halves"][0]) - tt["halves"][0])) > np.hypot(
                    *(np.array(near["halves"][0]) - tt["halves"][1])):
                hv = hv[::-1]
            exact += hv == tt["values"]
    assert total >= 20
    assert exact / total >= 0.85, f"{exact}/{total} tiles read exactly"


def test_bad_inputs_give_error_entries_and_the_rest_still_run(rendered, tmp_path, capsys):
    good = sorted((rendered / "images" / "train").glob("*.jpg"))[0]
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    garbage = tmp_path / "garbage.png"
    garbage.write_bytes(b"\x89PNG\r\n\x1a\n" + b"not really a png" * 10)
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    unsupported = tmp_path / "notes.txt"
    unsupported.write_text("hello")
    missing = tmp_path / "missing.jpg"
    no_images = tmp_path / "no-images"
    no_images.mkdir()
    args = [str(corrupt), str(garbage), str(empty), str(unsupported), str(missing), str(no_images), str(good)]
    code, rows = _run(capsys, ["read", "--truth-boxes", "--json", *args])
    assert code == 1
    assert [r["image"] for r in rows] == args
    errors = {r["image"]: r["error"] for r in rows if "error" in r}
    assert set(errors) == set(args[:6])
    assert "truncated" in errors[str(corrupt)]
    assert "empty" in errors[str(empty)]
    assert "unsupported" in errors[str(unsupported)]
    assert "not found" in errors[str(missing)]
    assert "no images" in errors[str(no_images)]
    assert "tiles" in rows[-1]


def test_folder_expands_and_annotate_writes_pictures(rendered, tmp_path, capsys):
    folder = tmp_path / "imgs"
    folder.mkdir()
    for p in sorted((rendered / "images" / "train").glob("*.jpg"))[:2]:
        shutil.copy(p, folder / p.name)
        shutil.copy(rendered / "truth" / f"{p.stem}.json", folder / f"{p.stem}.json")
    (folder / "readme.txt").write_text("not an image")
    out = tmp_path / "ann"
    code, rows = _run(capsys, ["read", "--truth-boxes", "--json", "--annotate", str(out), str(folder)])
    assert code == 0
    assert len(rows) == 2 and all(r["image"].startswith(str(folder)) for r in rows)
    pics = sorted(out.glob("*.jpg"))
    assert len(pics) == 2
    img = cv2.imread(str(pics[0]))
    src = cv2.imread(rows[0]["image"])
    assert img.shape == src.shape and np.abs(img.astype(int) - src).mean() > 1.0


def test_missing_model_says_what_to_do(rendered, tmp_path, capsys):
    good = sorted((rendered / "images" / "train").glob("*.jpg"))[0]
    code = main(["read", "--model", str(tmp_path / "none.onnx"), str(good)])
    err = capsys.readouterr().err
    assert code == 2 and "dominocam train" in err


def _with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with a minimal EXIF block (APP1) holding only the orientation tag."""
    import struct

    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1)
    tiff += struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]


def test_exif_rotation_is_applied(tmp_path):
    from vision.read.imageio import load_image

    img = np.zeros((40, 100, 3), np.uint8)
    img[:, :10] = 255  # a white band on the left edge
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    path = tmp_path / "rotated.jpg"
    path.write_bytes(_with_exif_orientation(buf.tobytes(), 6))  # 6: rotate 90 degrees clockwise to view
    frame = load_image(str(path))
    assert frame.shape[:2] == (100, 40)
    assert frame[:10].mean() > 200 and frame[-10:].mean() < 50  # the band is now on top


def test_reading_in_worker_processes_gives_the_same_result(rendered):
    from vision.read.reader import read_frame
    from vision.read.truthdet import BoxNoise, truth_detections
    from vision.read.workers import ReadingPool

    with ReadingPool(2) as pool:
        for tr in truths(rendered)[:4]:
            frame = cv2.imread(str(rendered / tr["image"]))
            dets = truth_detections(tr, BoxNoise())[0]
            here, there = read_frame(frame, dets), read_frame(frame, dets, pool=pool)
            assert len(here.tiles) == len(there.tiles) > 0
            assert [t.half_values for t in here.tiles] == [t.half_values for t in there.tiles]
            assert [t.half_confidence for t in here.tiles] == [t.half_confidence for t in there.tiles]
            assert [t.quad.tolist() for t in here.tiles] == [t.quad.tolist() for t in there.tiles]
            assert here.layout.edges == there.layout.edges
        # a frame of another size grows the shared buffer
        from vision.detect.detections import Detections

        big = cv2.resize(frame, None, fx=1.5, fy=1.5)
        dets = Detections(dets.corners * 1.5, dets.confidence, dets.class_id)
        assert [t.half_values for t in read_frame(big, dets).tiles] == \
            [t.half_values for t in read_frame(big, dets, pool=pool).tiles]
    assert pool._buffer[0] is None  # closed: the shared buffer is unlinked


def test_degenerate_boxes_are_unread_and_off_frame_boxes_do_not_break():
    from vision.detect.detections import Detections
    from vision.read.reader import read_frame

    frame = np.full((200, 300, 3), 90, np.uint8)
    corners = np.array([[[10, 10]] * 4, [[-50, -20], [60, -20], [60, 30], [-50, 30]]], np.float32)
    reading = read_frame(frame, Detections(corners, np.array([0.5, 0.6], np.float32), np.array([0, 0])))
    assert reading.tiles[0].values is None and "too small" in reading.tiles[0].reasons[0]
    assert reading.tiles[1].quad.shape == (4, 2)  # half outside the frame: read from the edge pixels
    assert reading.layout.edges == []
