"""The cyclic garbage collector's pace during a build.

CPython collects its youngest objects every 700 net allocations of container objects and, when the
heap has grown by a quarter since, walks every object there is (a full collection). A build makes
millions of small objects that live to its end (each paper's fields, records read from the cache,
the outputs' listing), so at CPython's pace the collector walked the whole heap eight times in a warm
build of 10,000 papers: 1.0–1.5 of its 6–8 CPU-seconds, for almost no garbage (what a build drops,
reference counting frees; cycles are rare). A build runs at a slower pace: the young objects are
collected every ``YOUNG`` net allocations, the middle generation after ``MIDDLE`` of those (every million
or so, as at session 19's pace: the cycles that outlive a young collection wait no longer than they did, and
the collector is not off, for with it off the build's process at 50,000 papers held 300 MB more), the oldest
after 20 of those. Forked workers inherit the pace.

Why ``YOUNG`` is 200,000 and not 50,000 (session 19's): the count is net, and CPython never lets it go below
zero, so a burst of allocations (a stage's records, a chunk's results) reaches a small threshold and is walked
before the objects an earlier stage drops can offset it; 20 ms a collection of 50,000. A cold build of 10,000
papers walked 835,000 young objects in 15–17 collections (0.3–0.4 CPU-seconds in its process, 0.1–0.2 in its
workers); at 200,000, 70,000–210,000 in 1–2 (0.04–0.16 CPU-s, none in the workers), its process's and a worker's
peak 15 MB higher; the 50,000-paper tree's peak did not move (bench/RESULTS.md, session 26).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

YOUNG = 200_000  # net allocations of container objects between two collections of the youngest (CPython: 700)
MIDDLE = 5  # young collections between two of the middle generation (CPython: 10)
PACE = (YOUNG, MIDDLE, 20)  # the oldest collected after 20 of the middle's (CPython: 10)


@contextlib.contextmanager
def build_pace() -> Iterator[None]:
    """The collector at a build's pace inside the block; as it was after."""
    before = gc.get_threshold()
    gc.set_threshold(*PACE)
    try:
        yield
    finally:
        gc.set_threshold(*before)
