"""The assignment problem (Hungarian algorithm, shortest augmenting paths) in numpy.

Used by the enrolment (`vision.read.enrol`): each of the 28 tiles of a set is a distinct value, so
the reading of a whole set is the cheapest one-to-one match of tiles to values. O(n^3); 28 x 28
takes well under a millisecond.
"""

from __future__ import annotations

import numpy as np


def assign(cost: np.ndarray) -> np.ndarray:
    """For a cost matrix (n, m) with n <= m, the column of each row (n,) in the one-to-one match
    of least total cost. Costs must be finite."""
    cost = np.asarray(cost, dtype=np.float64)
    n, m = cost.shape
    if n > m:
        raise ValueError(f"more rows ({n}) than columns ({m}): no one-to-one match")
    if not np.isfinite(cost).all():
        raise ValueError("costs must be finite")
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    owner = np.zeros(m + 1, dtype=np.int64)  # owner[j]: the row (1-based) matched to column j; 0 none
    way = np.zeros(m + 1, dtype=np.int64)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        minv = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = owner[j0]
            free = ~used
            free[0] = False
            cur = cost[i0 - 1] - u[i0] - v[1:]
            better = free[1:] & (cur < minv[1:])
            minv[1:][better] = cur[better]
            way[1:][better] = j0
            masked = np.where(free, minv, np.inf)
            j1 = int(np.argmin(masked))
            delta = masked[j1]
            u[owner[used]] += delta
            v[used] -= delta
            minv[free] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    out = np.full(n, -1, dtype=np.int64)
    for j in range(1, m + 1):
        if owner[j]:
            out[owner[j] - 1] = j - 1
    return out
