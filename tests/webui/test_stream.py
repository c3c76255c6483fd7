"""The MJPEG broadcast: one encoder, latest frame only, re-send of a still picture, slow viewers
dropped, a corrupt frame skipped."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

from tests.webui.conftest import wait_for
from webui.stream import FrameBroadcaster, TooManyViewers


def frame(value: int) -> np.ndarray:
    return np.full((48, 64, 3), value, np.uint8)


def shade(jpeg: bytes | None) -> int | None:
    """The grey level of a uniform test frame after the JPEG round trip."""
    if jpeg is None:
        return None
    return int(round(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).mean()))


@pytest.fixture
def caster():
    b = FrameBroadcaster(max_fps=200, resend_s=0.3, slow_viewer_s=0.2, max_viewers=3)
    yield b
    b.close()


def test_one_encoding_per_frame_whatever_the_number_of_viewers(caster):
    viewers = [caster.viewer() for _ in range(3)]
    caster.publish(frame(10))
    firsts = [next(v) for v in viewers]
    assert len(set(firsts)) == 1 and b"image/jpeg" in firsts[0]
    encoded = caster.encoded
    for i in range(5):
        caster.publish(frame(20 + 10 * i))
        wait_for(lambda n=encoded + i + 1: caster.encoded >= n)
        for v in viewers:
            next(v)
    assert caster.encoded == encoded + 5  # not 15: viewers share the encoder's output
    for v in viewers:
        v.close()
    wait_for(lambda: caster.viewers == 0)


def test_a_still_table_is_re_sent(caster):
    viewer = caster.viewer()
    caster.publish(frame(50))
    first = next(viewer)
    t0 = time.monotonic()
    again = next(viewer)  # no new frame: the same picture comes again after resend_s
    assert again == first
    assert 0.2 <= time.monotonic() - t0 < 2.0
    viewer.close()


def test_a_viewer_that_does_not_keep_up_is_dropped(caster):
    viewer = caster.viewer()
    caster.publish(frame(60))
    next(viewer)
    time.sleep(0.4)  # the server's write for this viewer blocked longer than slow_viewer_s
    with pytest.raises(StopIteration):
        next(viewer)
    assert caster.dropped_viewers == 1
    assert caster.viewers == 0


def test_a_slow_viewer_skips_frames_instead_of_queueing_them(caster):
    viewer = caster.viewer()
    caster.publish(frame(1))
    next(viewer)
    for v in range(2, 30):
        caster.publish(frame(v * 8))
    wait_for(lambda: shade(caster.latest_jpeg()) == 29 * 8)  # the encoder caught up with the newest
    latest = caster.latest_jpeg()
    assert next(viewer).endswith(latest + b"\r\n")  # straight to the newest picture


def test_viewer_limit(caster):
    viewers = [caster.viewer() for _ in range(3)]
    caster.publish(frame(5))
    for v in viewers:
        next(v)
    with pytest.raises(TooManyViewers):
        caster.viewer()
    viewers[0].close()
    wait_for(lambda: caster.viewers == 2)
    caster.viewer().close()


def test_a_corrupt_frame_is_skipped_and_the_stream_goes_on(caster):
    viewer = caster.viewer()
    caster.publish(frame(70))
    good = next(viewer)
    caster.publish(np.zeros((0, 0, 3), np.uint8))  # an empty/corrupt frame from a broken camera
    time.sleep(0.1)
    assert caster.latest_jpeg() is not None and good.endswith(caster.latest_jpeg() + b"\r\n")
    caster.publish(frame(90))
    wait_for(lambda: not good.endswith(caster.latest_jpeg() + b"\r\n"))
    viewer.close()


def test_close_ends_every_viewer(caster):
    viewer = caster.viewer()
    caster.publish(frame(3))
    next(viewer)
    done = threading.Event()

    def drain():
        for _ in viewer:
            pass
        done.set()

    threading.Thread(target=drain, daemon=True).start()
    caster.close()
    assert done.wait(2)
