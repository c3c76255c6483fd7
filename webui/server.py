"""Serve the app with waitress (a production WSGI server; never Flask's dev server).

Every MJPEG viewer and every live page holds one worker thread for as long as it is open, so the
pool is sized from the viewer limits. `send_bytes=1` makes waitress flush each Server-Sent Event
at once instead of waiting for 18 kB of output; a small high-water mark bounds what a slow viewer
can have queued.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import threading
import time
import warnings
from typing import Any

from flask import Flask
from waitress import create_server, wasyncore

from webui.security import lan_addresses

log = logging.getLogger(__name__)


M_ARENA_MAX = -8  # glibc mallopt parameter


def limit_malloc_arenas(arenas: int = 2) -> bool:
    """Cap glibc's malloc arenas. Each thread that allocates gets an arena (up to 8 per core); with
    a thread per viewer, freed JPEG and SSE buffers stay spread over many arenas and the resident
    size creeps up (lab/benchmarks/bench_web.py --seconds 300, 50 MJPEG + 50 SSE: +23.5 MB and still
    rising with glibc's default, +7.7 MB and flat after the first minute with 2 arenas).
    Call before the server's threads start. An explicit MALLOC_ARENA_MAX in the environment wins.
    Returns False where it does not apply (not glibc, or set by the environment)."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    try:
        return bool(ctypes.CDLL("libc.so.6").mallopt(M_ARENA_MAX, arenas))
    except (OSError, AttributeError):
        return False


def make_server(app: Flask, host: str, port: int):
    """A waitress server bound to host:port (port 0: any free port; see `.effective_port`)."""
    cfg = app.config
    threads = int(cfg["STREAM_MAX_VIEWERS"]) + int(cfg["SSE_MAX_CLIENTS"]) + 8
    options: dict[str, Any] = dict(
        host=host,
        port=port,
        threads=threads,
        connection_limit=threads + 50,
        send_bytes=1,
        outbuf_high_watermark=256 * 1024,
        channel_timeout=30,
        asyncore_use_poll=True,
        ident="dominocam",
        expose_tracebacks=False,
        clear_untrusted_proxy_headers=True,
    )
    with warnings.catch_warnings():
        # send_bytes is deprecated in waitress 3 but still decides when output is flushed.
        warnings.simplefilter("ignore", DeprecationWarning)
        return create_server(app, **options)


def lan_urls(server, host: str) -> list[str]:
    """Where other machines reach a server bound to every address (0.0.0.0 / ::): its LAN URLs."""
    if host not in ("0.0.0.0", "::", ""):
        return []
    return [f"http://{a}:{server.effective_port}/" for a in lan_addresses()]


def server_url(server, host: str) -> str:
    """The address to print: the LAN one when bound to every address (others in the room use it)."""
    lan = lan_urls(server, host)
    if lan:
        return lan[0]
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else ("[::1]" if host == "::" else host)
    return f"http://{shown}:{server.effective_port}/"


def serve_until_signalled(server, stop_streams, grace_s: float = 1.0, poll_s: float = 0.2,
                          ready=None) -> int:
    """Run `server` until SIGINT or SIGTERM, then stop within about `grace_s` + 1 s, quietly.

    waitress's own run() lets Ctrl-C stop its loop first; an open live page's thread then waits
    for a loop that no longer runs (5 s) and dies on a closed trigger with a traceback. Here the
    signal only sets a flag: the loop keeps running while `stop_streams()` ends every open SSE and
    MJPEG response and their threads finish writing, then the workers are stopped and the
    sockets closed. `ready()` is called once the signals are caught (the URLs printed then: a
    Ctrl-C right after them stops the server as any other). Returns the signal number that
    stopped it."""
    stop = threading.Event()
    got: list[int] = []

    def on_signal(signum, frame) -> None:
        got.append(signum)
        stop.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        if ready is not None:
            ready()
        while not stop.is_set():
            wasyncore.loop(timeout=poll_s, map=server._map, use_poll=True, count=1)
        log.info("stopping")
        stop_streams()
        end = time.monotonic() + grace_s
        while server.task_dispatcher.active_count and time.monotonic() < end:
            wasyncore.loop(timeout=0.05, map=server._map, use_poll=True, count=1)
        server.task_dispatcher.shutdown(timeout=0.5)
        wasyncore.close_all(server._map)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    return got[0] if got else 0
