"""One executor: where the build's work runs, inline, in forked workers or in fresh processes.

The pipeline makes one ``Executor`` from the cores it may use and the size policy
(runtime/sizes.py), and every stage hands it its work described by what it is: a list of items
of some cost to map a function over (``map``), a job to start beside the stage (``start``), or a
job fed items one by one (``feed``). The executor alone decides, by the policy, whether that
runs in this process, in forked workers or in a fresh process; a stage never compares a size
itself. Every way runs the same functions on the same data, so the bytes made are the same.
The processes themselves are runtime/background.py's.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, Callable, TypeVar

from generator.runtime import sizes
from generator.runtime.background import Job, Pending, can_fork, in_fresh_process, in_parallel
from generator.runtime.sizes import Cost, SizePolicy

T = TypeVar("T")
U = TypeVar("U")


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

    def leaving(self, taken: int) -> Executor:
        """This executor with ``taken`` cores fewer (at least one): those are at work elsewhere."""
        return Executor(self.cores - taken, self.policy)

    def map(self, func: Callable[[list[T]], list[U]], items: list[T], cost: Cost) -> list[U]:
        """``func`` over ``items``, in order: split into one ordered share per worker, each but the first
        in its own forked process, when the policy finds them worth it; else over all of them here."""
        workers = self.workers(cost, len(items))
        if workers < 2 or len(items) < 2 * workers:
            return func(items)
        size = -(-len(items) // workers)
        shares = [items[i : i + size] for i in range(0, len(items), size)]
        return [item for result in self.chunks(func, shares) for item in result]

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

    def feed(self, job: Callable[..., Any], items: Iterable, *args: Any, papers: int, now: int = 0) -> Pending:
        """``job(iterator of items, *args)`` started beside the render stage of a volume of ``papers``
        papers: in a fresh process sent only the items (which must pickle, as must ``job``, a module-level
        function, and ``args``; the first ``now`` before this returns) when the policy says so, else
        forked; on one core, or for a volume too small for a process of its own, here when its result is
        asked for."""
        if not self.policy.beside(papers):
            return Pending(lambda: job(iter(items), *args))
        if self.fresh(papers):
            return in_fresh_process(job, items, *args, now=now)
        return self.start(lambda: job(iter(items), *args))


INLINE = Executor(1, sizes.DEFAULT)  # everything in this process: a caller that asks for no cores
