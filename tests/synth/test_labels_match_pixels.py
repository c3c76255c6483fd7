"""Labels match pixels: pips counted in the rectified labelled halves equal the labelled values,
and every labelled box lies on a tile body."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.synth.helpers import as_saved, count_dark_blobs, rectify
from vision.synth.scene import render_scene


def _plain_tiles(render, min_len: float = 60.0):
    """Tiles a plain dark-blob counter can read: light face, no glare, not covered, no motion blur
    (a smeared six really does look like two bars)."""
    if render.blur == "motion":
        return
    truth = render.truth("x.jpg")["tiles"]
    for i, t in enumerate(truth):
        if (t["labelled"] and t["face"] == "up" and t["plain_style"] and not t["glare"]
                and t["visible"] >= 0.999 and t["in_frame"] >= 0.999 and t["length_px"] >= min_len):
            yield i, t


@pytest.mark.parametrize("kind", ["chain", "recount", "dense", "board"])
def test_rectified_halves_show_the_labelled_pips(kind):
    checked = wrong = 0
    mistakes = []
    for seed in range(14):
        rng = np.random.default_rng([77, seed, len(kind)])
        r = render_scene(rng, (640, 640), kind=kind, length=float(rng.uniform(90, 130)), style_kind="white")
        img = as_saved(r)
        for i, t in _plain_tiles(r):
            face = rectify(img, np.array(t["corners"]))
            for k in range(2):
                half = face[:, k * 64:(k + 1) * 64]
                got = count_dark_blobs(half)
                checked += 1
                if got != t["values"][k]:
                    wrong += 1
                    mistakes.append((seed, i, k, t["values"][k], got))
    assert checked >= 20, f"too few plain tiles sampled ({checked}); the scene set-up changed"
    assert wrong == 0, f"{wrong}/{checked} halves disagree (seed, tile, half, label, counted): {mistakes[:8]}"


def test_a_displaced_box_reads_wrong():
    """Boxes moved by a quarter of a tile along its axis mostly misread: agreement above is earned."""
    total = wrong = 0
    for seed in range(4):
        rng = np.random.default_rng([78, seed])
        r = render_scene(rng, (640, 640), kind="chain", length=110.0, style_kind="white")
        img = as_saved(r)
        for _, t in _plain_tiles(r):
            c = np.array(t["corners"])
            shift = (c[1] - c[0]) * 0.25
            face = rectify(img, c + shift)
            for k in range(2):
                total += 1
                wrong += count_dark_blobs(face[:, k * 64:(k + 1) * 64]) != t["values"][k]
    assert total >= 10
    assert wrong / total > 0.5, f"only {wrong}/{total} displaced halves misread"


def test_every_labelled_box_lies_on_a_tile_body():
    """Light tiles on dark felt: inside each labelled box the face is bright; a ring just outside is
    not (it holds the dark table, the tile's side and its shadow)."""
    checked = 0
    for seed in range(8):
        rng = np.random.default_rng([91, seed])
        r = render_scene(rng, (640, 640), kind="chain", length=float(rng.uniform(60, 110)), surface="felt",
                         style_kind="white")
        img = cv2.cvtColor(as_saved(r), cv2.COLOR_BGR2GRAY).astype(np.float32)
        truth = r.truth("x.jpg")["tiles"]
        polys = [np.array(t["corners"]) for t in truth]
        for i, _ in _plain_tiles(r, 40.0):
            c = polys[i].mean(axis=0)
            inner = np.zeros(img.shape, np.uint8)
            cv2.fillPoly(inner, [np.round(c + (polys[i] - c) * 0.8).astype(np.int32)], 1)
            outer = np.zeros(img.shape, np.uint8)
            cv2.fillPoly(outer, [np.round(c + (polys[i] - c) * 1.5).astype(np.int32)], 1)
            cv2.fillPoly(outer, [np.round(c + (polys[i] - c) * 1.15).astype(np.int32)], 0)
            for j, p in enumerate(polys):  # neighbours are bright too: leave them out of the ring
                if j != i:
                    pc = p.mean(axis=0)
                    cv2.fillPoly(outer, [np.round(pc + (p - pc) * 1.2).astype(np.int32)], 0)
            if outer.sum() < 50:
                continue
            face = np.median(img[inner > 0])
            ring = np.median(img[outer > 0])
            assert face > ring + 40, f"seed {seed} tile {i}: face {face:.0f} vs ring {ring:.0f}"
            checked += 1
    assert checked >= 5, f"too few isolated tiles checked ({checked})"
