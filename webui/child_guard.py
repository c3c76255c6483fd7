"""The server's helper processes die with it, whatever kills it (SIGKILL included).

The reader's worker processes start from multiprocessing's forkserver. `install()` (called by
`dominocam serve` before any pool starts) makes the forkserver import this module first; on import
it asks Linux to kill the forkserver when the server dies (PR_SET_PDEATHSIG), and every process it
forks (the reading workers) when the forkserver dies. Without it a killed server left its workers
(about 100 MB each) and their resource tracker running. Elsewhere than Linux it does nothing.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal

log = logging.getLogger(__name__)
PR_SET_PDEATHSIG = 1


def die_with_parent() -> bool:
    """Ask the kernel to SIGKILL this process when its parent dies; exit at once if it is already
    gone. False where prctl is not available."""
    parent = os.getppid()
    try:
        ok = ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False
    if ok and os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)
    return ok


ENV = "DOMINOCAM_GUARD_PARENT"


def install() -> None:
    """Preload this module in the forkserver (call at server start, before any pool)."""
    os.environ[ENV] = str(os.getpid())
    multiprocessing.get_context("forkserver").set_forkserver_preload(["__main__", __name__])


def _guard_if_forkserver() -> None:
    """On import in a direct child of the guarded server (the forkserver): die with the server,
    and let every process forked from here die with the forkserver."""
    if os.environ.get(ENV) == str(os.getppid()) and die_with_parent():
        os.register_at_fork(after_in_child=die_with_parent)


_guard_if_forkserver()
