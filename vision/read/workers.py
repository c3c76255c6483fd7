"""Reading a frame's tiles in worker processes.

The per-tile work (rectify, count pips, the classifier's inputs, the tile check) is
many small numpy and OpenCV steps that hold the GIL, so threads do not pay (see read_frame);
processes do. The frame goes to the workers once, through shared memory (pickling the parts round
29 tiles twice per frame cost more than the second core gave back); tasks carry only the boxes.
The result is the same as reading in-process.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import weakref
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import shared_memory

import cv2
import numpy as np

from vision.read.box import Box
from vision.read.tile import prepare_tile
from vision.read.verify import verify_tiles

log = logging.getLogger(__name__)

_ATTACHED: dict[str, shared_memory.SharedMemory] = {}  # in a worker: the frame buffer it reads


def _frame(name: str, shape: tuple[int, ...]) -> np.ndarray:
    shm = _ATTACHED.get(name)
    if shm is None:
        for old in _ATTACHED.values():
            old.close()
        _ATTACHED.clear()
        shm = shared_memory.SharedMemory(name=name)  # the pool unlinks it
        _ATTACHED[name] = shm
    return np.ndarray(shape, np.uint8, buffer=shm.buf)


def _prepare_task(task: tuple) -> list:
    name, shape, jobs, classifier = task
    frame = _frame(name, shape)
    return [prepare_tile(frame, box, face, confidence, classifier) for box, face, confidence in jobs]


def _verify_task(task: tuple) -> list:
    name, shape, quads, confidence, typical = task
    return verify_tiles(_frame(name, shape), quads, confidence, typical)


def _quiet_worker() -> None:
    # one process per core already (measured on the bench frames: 72-88 ms per frame with one
    # OpenCV thread per worker, 86-91 ms with OpenCV's default)
    cv2.setNumThreads(1)


def _warm() -> int:
    return os.getpid()


PROCESSES_ENV = "DOMINOCAM_READ_PROCESSES"


def reading_pool() -> ReadingPool | None:
    """A pool with one worker per core, or None (read in-process) on one core or when
    DOMINOCAM_READ_PROCESSES=0 (or 1). Measured on the 29-tile bench frames, 2 cores: in-process
    about 100 ms per frame, two workers 72-91 ms; the reads are the same."""
    n = int(os.environ.get(PROCESSES_ENV, os.cpu_count() or 1))
    return ReadingPool(n) if n > 1 else None


class ReadingPool:
    """Worker processes for `read_frame(..., pool=)`; close() (or use as a context manager).
    Left open, the workers and the shared buffer go when the pool is collected or at exit."""

    def __init__(self, processes: int | None = None) -> None:
        self.processes = processes or os.cpu_count() or 1
        # forkserver: workers start from a clean process, not a fork of a threaded web server
        self.executor = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("forkserver"),
                                            initializer=_quiet_worker)
        for f in [self.executor.submit(_warm) for _ in range(self.processes)]:
            f.result()  # start the workers now rather than on the first frame
        self.pids = [p.pid for p in self.executor._processes.values()]  # for CPU accounting (bench)
        log.info("reading in %d worker processes", self.processes)
        self._buffer: list[shared_memory.SharedMemory | None] = [None]  # held in a list for the finalizer
        self._close = weakref.finalize(self, _shutdown, self.executor, self._buffer)

    def share(self, frame: np.ndarray) -> SharedFrame:
        """Copy the frame into the shared buffer (it grows as needed) for this frame's tasks."""
        shm = self._buffer[0]
        if shm is None or shm.size < frame.nbytes:
            _release(self._buffer)
            shm = self._buffer[0] = shared_memory.SharedMemory(create=True, size=frame.nbytes)
        np.ndarray(frame.shape, np.uint8, buffer=shm.buf)[...] = frame
        return SharedFrame(self, shm.name, frame.shape)

    def split(self, items: list) -> list[list]:
        """The items in one contiguous share per worker."""
        n = max(1, math.ceil(len(items) / self.processes))
        return [items[i : i + n] for i in range(0, len(items), n)]

    def close(self) -> None:
        self._close()

    def __enter__(self) -> ReadingPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass(frozen=True)
class SharedFrame:
    """One frame in the pool's buffer: `read_tiles(prepare=)` and `physical_tiles(bodies=)` run
    their per-tile work in the workers (the frame arguments are the same frame, already shared).
    Valid until the pool's next `share`."""

    pool: ReadingPool
    name: str
    shape: tuple[int, ...]

    def prepare(self, frame: np.ndarray, jobs: list[tuple[Box, str, float]], classifier: bool) -> list:
        tasks = [(self.name, self.shape, part, classifier) for part in self.pool.split(list(jobs))]
        return [r for rs in self.pool.executor.map(_prepare_task, tasks) for r in rs]

    def bodies(self, frame: np.ndarray, quads, confidence, typical: float | None) -> list:
        items = list(zip([np.asarray(q, float).reshape(4, 2) for q in quads], [float(c) for c in confidence],
                         strict=True))
        tasks = [(self.name, self.shape, [q for q, _ in part], [c for _, c in part], typical)
                 for part in self.pool.split(items)]
        return [r for rs in self.pool.executor.map(_verify_task, tasks) for r in rs]


def _release(buffer: list) -> None:
    if buffer[0] is not None:
        buffer[0].close()
        buffer[0].unlink()
        buffer[0] = None


def _shutdown(executor: ProcessPoolExecutor, buffer: list) -> None:
    executor.shutdown(wait=True, cancel_futures=True)
    _release(buffer)
