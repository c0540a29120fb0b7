"""The size policy: how much work it takes before the build moves it out of this process.

Every choice between inline, forked and fresh-process execution (runtime/executor.py) is made
here, from these numbers and nothing else. The numbers only trade time and memory: whichever
way a piece of work runs, it makes the same bytes.

``PROCEEDINGS_SIZES=large`` in the environment makes every volume take the paths a large one
takes (the tests' way to drive them on a small volume, and a way to reproduce a large build's
behaviour on a small one).
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass

from generator.errors import ProceedingsError

ENVIRONMENT = "PROCEEDINGS_SIZES"


class Cost(enum.Enum):
    """What one item of a piece of work costs, beside what starting a worker costs."""

    HEAVY = "heavy"  # deriving an entry's title and tags, rendering an abstract or a template's file
    LIGHT = "light"  # reading or writing a page, scoring a paper's neighbours: a worker must have many to pay


@dataclass(frozen=True)
class SizePolicy:
    # Items from which a piece of work is split over forked workers. Below, this process does it
    # alone: a fork, and gathering its results back, would cost more than the share it takes.
    heavy_split: int = 500
    light_split: int = 2_000
    # Papers from which a job that runs beside the render stage (the search index, the template
    # workers) is a fresh process sent only what it needs, not a fork. A forked child shares this
    # process's memory only until either writes to it, and the render stage touches every paper
    # (reading an object writes its reference count): the child's share of a large volume is
    # copied and counted twice. A fresh process costs a fork server and sending the items, which a
    # small volume does not earn back.
    fresh_from: int = 20_000
    # Papers from which a job beside the render stage (the search index) gets a process of its own at all.
    # Below, it runs in this process when its result is asked for: a tiny volume's index takes less than
    # forking this process and sending its result back, and a busy machine has no idle core to give it.
    beside_from: int = 100
    # Chunks per worker that split work is cut into, each claimed by whichever process frees up first:
    # enough that the last chunk is short (no process waits long on another), few enough that claiming
    # one (a shared counter's lock) costs nothing beside it.
    claims: int = 32
    # The same for work whose chunks' results are joined into one (``Executor.map_chunks``: a table of a chunk's
    # key phrases): each chunk repeats the keys it shares with the others, to make, send back and join again,
    # so fewer, larger chunks (c10k's phrases: 0.3 CPU-s less in 8 chunks than in 64).
    joined_claims: int = 4
    # Files of a site from which the site it replaces is removed by a process of its own that the build does
    # not wait for (runtime/output.py). Below, the build removes it: a few hundred files take milliseconds.
    aside_from: int = 2_000
    # Files from which a forked child writes them beside the stages that follow: the cache entries saved before
    # relate (runtime/cache_writes.py), a first build's new pages (content/page_writes.py). Below, here: a fork costs
    # tens of milliseconds, a file a few tenths of one.
    write_aside_from: int = 64

    def splits(self, cost: Cost, items: int) -> bool:
        """Whether ``items`` items of work of this cost are worth workers of their own."""
        return items >= (self.heavy_split if cost is Cost.HEAVY else self.light_split)

    def beside(self, papers: int) -> bool:
        """Whether a job beside the render stage of a volume of ``papers`` papers gets its own process."""
        return papers >= self.beside_from

    def chunk(self, items: int, workers: int, joined: bool = False) -> int:
        """Items in each chunk that ``items`` items split over ``workers`` processes are claimed by (``joined``:
        chunks whose results are joined into one)."""
        return max(1, -(-items // (workers * (self.joined_claims if joined else self.claims))))

    def removes_aside(self, files: int) -> bool:
        """Whether the site a site of ``files`` files replaces is removed without the build waiting."""
        return files >= self.aside_from

    def writes_aside(self, files: int) -> bool:
        """Whether ``files`` files (cache shards, new pages) are written by a process of their own beside the build."""
        return files >= self.write_aside_from

    def fresh(self, papers: int) -> bool:
        """Whether jobs beside the render stage of a volume of ``papers`` papers are fresh processes."""
        return papers >= self.fresh_from


# Bytes of cache entries held for a forked child to write (runtime/cache_writes.py); an entry's shards beyond them are
# written at once, as they are made.
LATER_BYTES = 40 << 20

DEFAULT = SizePolicy()
# Every volume as a large one: work is split and its jobs are fresh processes from a single item, and the site
# it replaces is removed aside.
LARGE = SizePolicy(heavy_split=1, light_split=1, fresh_from=1, beside_from=1, aside_from=1, write_aside_from=1)
NAMED = {"default": DEFAULT, "large": LARGE}


def current() -> SizePolicy:
    """The policy this process runs by: ``DEFAULT``, unless the environment names another."""
    name = os.environ.get(ENVIRONMENT, "").strip().lower() or "default"
    if name not in NAMED:
        raise ProceedingsError(f"{ENVIRONMENT}={name!r} in the environment: expected one of {', '.join(NAMED)}")
    return NAMED[name]
