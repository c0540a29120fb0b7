"""One executor: where the build's work runs, inline, in forked workers or in fresh processes.

The pipeline makes one ``Executor`` from the cores it may use and the size policy
(runtime/sizes.py), and every stage hands it its work described by what it is: a list of items
of some cost to map a function over (``map``), a job to start beside the stage (``start``), or a
job fed items one by one (``feed``). The executor alone decides, by the policy, whether that
runs in this process, in forked workers or in a fresh process; a stage never compares a size
itself. Every way runs the same functions on the same data, so the bytes made are the same.
Work split over workers balances itself: it is cut into many more chunks than there are workers
(``SizePolicy.claims``), and each process, this one too, claims the next chunk as it frees up
(``background.Claims``), so none sits idle while another still has a long share to go. Each
chunk's result is put back in its place, so the result does not depend on who did what.
The processes themselves are runtime/background.py's (forked) and runtime/fresh.py's (from a fork server).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator
from typing import Any, Callable, TypeVar

from generator.runtime import sizes
from generator.runtime.background import Claims, Job, Pending, can_fork, in_parallel, in_parallel_parts
from generator.runtime.fresh import in_fresh_process
from generator.runtime.sizes import Cost, SizePolicy

T = TypeVar("T")
U = TypeVar("U")
Progress = Callable[[int, int], None]  # items done (about: those claimed), of all of them


class Executor:
    """Runs work on at most ``cores`` processes (one: all of it in this process), as ``policy`` says."""

    def __init__(self, cores: int = 1, policy: SizePolicy | None = None):
        self.cores = max(1, cores) if can_fork() else 1
        self.policy = policy if policy is not None else sizes.current()

    def __repr__(self) -> str:
        return f"Executor(cores={self.cores}, policy={self.policy})"

    def __eq__(self, other: object) -> bool:  # equal executors run work the same way (a cache may key on one)
        return isinstance(other, Executor) and (self.cores, self.policy) == (other.cores, other.policy)

    def __hash__(self) -> int:
        return hash((self.cores, self.policy))

    def workers(self, cost: Cost, items: int) -> int:
        """The processes ``items`` items of work of this ``cost`` are split over (this one included)."""
        return self.cores if self.cores > 1 and self.policy.splits(cost, items) else 1

    def fresh(self, papers: int) -> bool:
        """Whether jobs beside the render stage of a volume of ``papers`` papers run in fresh processes."""
        return self.cores > 1 and self.policy.fresh(papers)

    def forks(self, papers: int) -> bool:
        """Whether work on ``papers`` goes to forked workers of this process (more than one core, not fresh ones)."""
        return self.cores > 1 and not self.policy.fresh(papers)

    def writes_aside(self, files: int) -> bool:
        """Whether ``files`` files are written by a forked process beside the build (``start``)."""
        return self.cores > 1 and self.policy.writes_aside(files)

    def pages_aside(self, pages: int) -> bool:
        """Whether ``pages`` new pages are written by a forked process beside the build's next stages: not a large
        volume's (fresh processes), whose child would keep each page of the build's heap that the build changes
        meanwhile (copy on write; measured at 50,000 papers: 440 MB more while the pages are parsed)."""
        return self.writes_aside(pages) and not self.policy.fresh(pages)

    def map(self, func: Callable[[list[T]], list[U]], items: list[T], cost: Cost,
            progress: Progress | None = None) -> list[U]:
        """``func`` (one result per item) over ``items``, in order: over forked workers and this process, each
        claiming the next chunk as it frees up, when the policy finds them worth it; else all of them here.
        ``progress`` is told, in this process, how many items are done."""
        workers = self.workers(cost, len(items))
        if workers < 2 or len(items) < 2 * workers:
            return _inline(func, items, progress)
        chunks = self._chunks(items, workers)
        return [item for result in self.claimed(func, chunks, workers, progress) for item in result]

    def map_chunks(self, func: Callable[[list[T]], U], items: list[T], cost: Cost) -> list[U]:
        """``func`` over ``items`` cut into chunks (all of them one chunk when ``map`` would run them in this
        process; fewer, larger ones than ``map``'s when it would spread them: ``SizePolicy.joined_claims``): one
        result per chunk, in order. For work whose result over many items is one value, joined by the caller
        (the phrases of many papers as one table: derive/phrase_table.py) rather than one per item."""
        workers = self.workers(cost, len(items))
        if workers < 2 or len(items) < 2 * workers:
            return [func(items)]
        return self.claimed(func, self._chunks(items, workers, joined=True), workers)

    def _chunks(self, items: list[T], workers: int, joined: bool = False) -> list[list[T]]:
        size = self.policy.chunk(len(items), workers, joined)
        return [items[i : i + size] for i in range(0, len(items), size)]

    def claimed(self, func: Callable[[list[T]], U], chunks: list[list[T]], workers: int,
                progress: Progress | None = None, before: Job | None = None) -> list[U]:
        """``func`` over each chunk, by ``workers`` processes (this one and forked ones) that each claim the
        next chunk as it frees up; the results in the chunks' order. ``before`` runs in this process once
        the workers are started, before it claims any chunk (work only this process may do: they claim the
        chunks meanwhile). Each chunk is emptied in ``chunks`` once done."""
        if workers < 2 or self.cores < 2:
            if before is not None:
                before()
            return [func(chunk) for chunk in chunks]
        claims = Claims(len(chunks))
        # Each worker sends each chunk's result back as it is done and lets it go (none holds its whole share).
        waits = [in_parallel_parts(functools.partial(_claim_sending, func, chunks, claims))
                 for _ in range(workers - 1)]
        try:
            if before is not None:
                before()
            done = _claim(func, chunks, claims, _chunk_progress(chunks, claims, progress))
            for wait in waits:
                done += wait()
        except BaseException:
            for wait in waits:
                wait.cancel()
            raise
        results: list[Any] = [None] * len(chunks)
        for number, result in done:
            results[number] = result
        return results

    def chunks(self, func: Callable[[list[T]], U], chunks: list[list[T]]) -> list[U]:
        """``func`` over each chunk, the chunks split by the caller: the first in this process, each other
        one in a forked process (all of them here on one core)."""
        if self.cores < 2 or not chunks:
            return [func(chunk) for chunk in chunks]
        waits = [in_parallel(functools.partial(func, chunk)) for chunk in chunks[1:] if chunk]
        try:
            first = func(chunks[0])  # this process takes a share too
        except BaseException:
            for wait in waits:
                wait.cancel()
            raise
        return [first] + [wait() for wait in waits]

    def start(self, job: Job) -> Pending:
        """``job`` started in a forked process now; on one core it runs when its result is asked for."""
        return in_parallel(job) if self.cores > 1 else Pending(job)

    def feed(self, job: Callable[..., Any], items: Iterable, *args: Any, papers: int, now: int = 0,
             claims: Iterator | None = None) -> Pending:
        """``job(iterator of items, *args)`` started beside the render stage of a volume of ``papers``
        papers: in a fresh process sent only the items (which must pickle, as must ``job``, a module-level
        function, and ``args``; the first ``now`` before this returns) when the policy says so, else
        forked; on one core, or for a volume too small for a process of its own, here when its result is
        asked for.

        ``claims``: items the job reads after ``items``, each sent when it is about to need one, from an
        iterator this process's own work draws from as well (fresh.in_fresh_process). A forked job
        would draw from its own copy of it, doing this process's work again: with ``claims`` a job that is
        not fresh runs when its result is asked for, by then with every claim drawn."""
        if not self.policy.beside(papers):
            return Pending(lambda: job(iter(items) if claims is None else itertools.chain(items, claims), *args))
        if self.fresh(papers):
            return in_fresh_process(job, items, *args, now=now, claims=claims)
        if claims is not None:
            return Pending(lambda: job(itertools.chain(items, claims), *args))
        return self.start(lambda: job(iter(items), *args))


def _claim(func: Callable[[list[T]], U], chunks: list[list[T]], claims: Claims,
           progress: Callable[[], None] | None = None) -> list[tuple[int, U]]:
    """The chunks this process claims, each with its number, ``func`` over each, until none is left."""
    done = []
    for number in claims:
        done.append((number, func(chunks[number])))
        chunks[number] = []  # its items let go (in this process; each worker holds its own copy)
        if progress is not None:
            progress()
    return done


def _claim_sending(func: Callable[[list[T]], U], chunks: list[list[T]], claims: Claims,
                   put: Callable[[tuple[int, U]], None]) -> None:
    """``_claim`` in a worker: each chunk's result, with its number, ``put`` (sent back) as soon as it is made."""
    for number in claims:
        put((number, func(chunks[number])))
        chunks[number] = []


def _chunk_progress(chunks: list[list[T]], claims: Claims, progress: Progress | None) -> Callable[[], None] | None:
    """After each of this process's chunks: ``progress`` told the items of the chunks claimed so far."""
    if progress is None:
        return None
    ends = list(itertools.accumulate(len(chunk) for chunk in chunks))
    return lambda: progress(ends[min(claims.claimed, len(ends)) - 1], ends[-1])


def _inline(func: Callable[[list[T]], list[U]], items: list[T], progress: Progress | None) -> list[U]:
    """``func`` over ``items`` in this process; with ``progress``, a slice at a time, to tell it."""
    if progress is None:
        return func(items)
    size = max(INLINE_SLICE, -(-len(items) // 100))
    results: list[U] = []
    for start in range(0, len(items), size):
        results += func(items[start : start + size])
        progress(len(results), len(items))
    return results


INLINE_SLICE = 64  # items between two progress reports of work done in this process

INLINE = Executor(1, sizes.DEFAULT)  # everything in this process: a caller that asks for no cores
