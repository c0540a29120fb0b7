"""The cyclic garbage collector's pace during a build.

CPython collects its youngest objects every 700 net allocations of container objects and, when the
heap has grown by a quarter since, walks every object there is (a full collection). A build makes
millions of small objects that live to its end (each paper's fields, records read from the cache,
the outputs' listing), so at CPython's pace the collector walked the whole heap eight times in a warm
build of 10,000 papers: 1.0–1.5 of its 6–8 CPU-seconds, for almost no garbage (what a build drops,
reference counting frees; cycles are rare). A build runs at a slower pace: the young objects are
collected every ``YOUNG`` allocations, which keeps the garbage cycles waiting to be freed at a few MB,
and the older generations ten times less often than that. Forked workers inherit the pace.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

YOUNG = 50_000  # net allocations of container objects between two collections of the youngest (CPython: 700)
PACE = (YOUNG, 20, 20)  # each older generation collected after this many of the one below (CPython: 10, 10)


@contextlib.contextmanager
def build_pace() -> Iterator[None]:
    """The collector at a build's pace inside the block; as it was after."""
    before = gc.get_threshold()
    gc.set_threshold(*PACE)
    try:
        yield
    finally:
        gc.set_threshold(*before)
