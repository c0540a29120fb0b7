"""BLAS on one thread, asked for before numpy is first imported.

OpenBLAS reads its thread count once, as numpy loads it, and starts a pool of that many threads then (one a core
by default). A build never wants more than one: its own work is spread over forked processes (runtime/executor.py),
and the map's algebra is pinned to one thread anyway (derive/map_layout.py, with threadpoolctl, whoever imported
numpy first). A pool of two cost a build's process 40–100 ms more CPU as numpy loaded, its threads spinning; and
every forked worker that calls BLAS starts it again: 12–14 ms more CPU and 17–107 ms more wall a worker
(bench/RESULTS.md, session 26). A variable the user set is left as it is.
"""

from __future__ import annotations

import os

VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_thread() -> None:
    """BLAS libraries loaded from now on start one thread (unless the environment names another count)."""
    for name in VARIABLES:
        os.environ.setdefault(name, "1")
