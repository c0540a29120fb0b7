"""The processes the build's work runs in: forked, fresh (from a fork server), or a background job.

Which one a piece of work gets is runtime/executor.py's choice, by the size policy
(runtime/sizes.py); this module only starts them, sends them their work and reads back
their results.

A fresh process (one that holds none of this one's memory) is runtime/fresh.py's.

``BackgroundRunner`` runs one slow job at a time off the main thread, dropping jobs made stale
by newer ones. The dev server rebuilds the search index after the pages are served. In a
forked process it uses the second core and cannot slow the server down
(no shared GIL), and a job overtaken by a newer edit is simply killed.
Where fork is unavailable the job runs in a thread instead.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from typing import Any, Callable

Job = Callable[[], Any]


class BackgroundRunner:
    def __init__(self) -> None:
        self._context = _fork_context()
        self._process: Any = None  # the context's Process
        self._waiter: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, job: Job, on_done: Callable[[Any], None]) -> None:
        """Start ``job``; when it finishes, call ``on_done`` with its result (in a thread)."""
        with self._lock:
            self._cancel()
            if self._context is None:
                self._waiter = threading.Thread(target=lambda: on_done(job()), daemon=True)
            else:
                receiver, sender = self._context.Pipe(duplex=False)
                self._process = self._context.Process(target=_child, args=(job, sender, receiver, os.getpid()),
                                                     daemon=True)
                self._process.start()
                sender.close()
                self._waiter = threading.Thread(target=_wait, args=(receiver, on_done), daemon=True)
            self._waiter.start()

    def wait(self, timeout: float | None = None) -> None:
        waiter = self._waiter
        if waiter:
            waiter.join(timeout)

    def stop(self) -> None:
        with self._lock:
            self._cancel()

    def _cancel(self) -> None:
        if self._process is not None and self._process.is_alive():
            self._process.kill()
            self._process.join()
        self._process = None


def can_fork() -> bool:
    """Whether work can go to a forked process here (not on Windows, nor where fork is disabled)."""
    return _fork_context() is not None


def _fork_context():
    try:
        return multiprocessing.get_context("fork")
    except ValueError:
        return None


PARENT_POLL = 0.2  # seconds: how soon a worker notices that its build was killed


def die_with(parent: int) -> None:
    """End this forked worker as soon as ``parent`` is gone (``kill -9`` of a build, a crashed server).

    A daemon process is only ended by a parent that exits normally; one killed outright would
    leave it running, orphaned. A thread watches for the parent to change instead: it works on
    every platform with fork, and whatever thread of the parent forked us.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _child(job: Job, sender: Connection, receiver: Connection, parent: int) -> None:
    die_with(parent)
    receiver.close()  # or a parent that died would leave us blocked writing to our own pipe
    try:
        sender.send(job())
    finally:
        sender.close()
        os._exit(0)  # skip the parent's atexit handlers and threads we inherited


def _wait(receiver: Connection, on_done: Callable[[Any], None]) -> None:
    try:
        result = receiver.recv()
    except (EOFError, OSError):
        return  # killed as stale
    finally:
        receiver.close()
    on_done(result)


def in_parallel(job: Job) -> Pending:
    """Start ``job`` in a forked process now; call the returned ``Pending`` for its result.

    An exception in the job is raised again by that call; ``cancel()`` kills the job.
    Without fork the job runs when its result is asked for.
    """
    context = _fork_context()
    return Pending(job) if context is None else _forked(context, job, parts=False)


def in_parallel_parts(job: Callable[[Callable[[Any], None]], None]) -> Pending:
    """Start ``job(put)`` in a forked process now: each ``put(part)`` sends a part of its result back as soon
    as it is made, and the child lets it go (a worker that held every part it made until it ended would hold
    its whole share of a stage's results: hundreds of MB of a large volume's renderings). The returned
    ``Pending``'s result is the list of the parts, in the order put. Without fork the job runs when its
    result is asked for."""
    context = _fork_context()
    if context is None:
        def here() -> list[Any]:
            parts: list[Any] = []
            job(parts.append)
            return parts
        return Pending(here)
    return _forked(context, job, parts=True)


def _forked(context: Any, job: Callable[..., Any], parts: bool) -> Pending:
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child_reporting, args=(job, sender, receiver, os.getpid(), parts),
                              daemon=True)
    # Objects that exist now are moved out of the collector's sight in the child: its
    # collections then never touch (and so never copy) the pages it shares with us.
    release_free_memory()
    frozen_already = gc.get_freeze_count() > 0  # serve keeps its whole site frozen between whole passes
    gc.freeze()
    try:
        process.start()
    finally:
        if not frozen_already:  # unfreezing would hand serve's whole site back to every collection
            gc.unfreeze()
    sender.close()
    return Pending(None, process, receiver, parts)


class Claims:
    """Numbers 0 … ``total`` − 1 handed out once each, to this process and the workers it forks after making
    this: iterating claims the next one, whichever process asks first (a counter in shared memory)."""

    def __init__(self, total: int):
        context = _fork_context()
        self.total = total
        self._next = context.Value("q", 0) if context is not None else _Local()

    def __iter__(self) -> Iterator[int]:
        while True:
            with self._next.get_lock():
                number = self._next.value
                self._next.value = number + 1
            if number >= self.total:
                return
            yield number

    @property
    def claimed(self) -> int:
        """How many numbers have been handed out so far."""
        return min(self._next.value, self.total)


class _Local:
    """A counter for one process (where nothing forks): ``multiprocessing.Value``'s shape."""

    def __init__(self) -> None:
        self.value = 0
        self._lock = threading.Lock()

    def get_lock(self) -> threading.Lock:
        return self._lock


def _libc(name: str) -> Callable[..., int] | None:
    try:
        found: Callable[..., int] = getattr(ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6"), name)
        return found  # glibc only
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _libc("malloc_trim")
_MALLOPT = _libc("mallopt")
_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter: blocks at least this large are mapped on their own
_LARGE_BLOCK = 1 << 20


def release_free_memory() -> None:
    """Give the C heap's free pages back to the system before a fork. The stages before leave much
    of it free but held (relating papers above all); held, those pages are shared with the child until
    this process writes into them again, and then copied: counted twice, for a child that never reads
    them."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def map_large_blocks_apart() -> None:
    """From now on, every block of 1 MiB or more (numpy's and scipy's temporaries) is mapped on its own, so that
    freeing it gives it back to the system at once. glibc's default threshold rises to 32 MiB as such blocks are
    freed, and from then on they stay in the heap, free but held, until the next ``release_free_memory``: at
    50,000 papers the build's process held about 90 MB more that way while relating papers, its peak
    (bench/RESULTS.md, issue 43, session 22)."""
    if _MALLOPT is not None:
        _MALLOPT(_M_MMAP_THRESHOLD, _LARGE_BLOCK)


class Pending:
    """The result of a job started by ``in_parallel`` or ``in_fresh_process`` (or run on demand).

    The result is read as soon as the child sends it, by a thread: a result larger than the pipe's
    buffer (the search index's file names, for a large volume) would otherwise hold the child, and
    every page it un-shared, until its result is asked for — the whole render stage.
    """

    def __init__(self, job: Job | None, process: Any = None, receiver: Connection | None = None,
                 parts: bool = False) -> None:
        self._job, self._process = job, process
        self._outcome: tuple[bool, Any] | None = None
        self._parts: list[Any] | None = [] if parts else None  # (in_parallel_parts: the result, as it comes)
        self._reader: threading.Thread | None = None
        if process is not None:
            self._reader = threading.Thread(target=self._receive, args=(receiver,), daemon=True,
                                            name="pending-result")
            self._reader.start()

    @property
    def running(self) -> bool:
        """Whether the job is at work in its own process now (a core taken)."""
        return self._process is not None and self._outcome is None and self._process.is_alive()

    @property
    def received(self) -> int:
        """How many parts of its result a job started by ``in_parallel_parts`` has sent back so far."""
        return len(self._parts or ())

    def _receive(self, receiver: Connection) -> None:
        try:
            message = receiver.recv()
            while message[0] == _PART:  # a part of the result, put by the job (an outcome's is a bool)
                assert self._parts is not None
                self._parts.append(message[1])
                message = receiver.recv()
            self._outcome = message
        except (EOFError, OSError):
            self._outcome = None  # the child died, or was cancelled
        finally:
            receiver.close()

    def __call__(self) -> Any:
        if self._process is None:
            assert self._job is not None
            return self._job()
        assert self._reader is not None
        self._reader.join()
        self._process.join()
        if self._outcome is None:
            raise RuntimeError("a parallel build step died; run again with --jobs 1 to see why")
        failed, value = self._outcome
        if failed:
            raise value
        return value if self._parts is None else self._parts

    def cancel(self) -> None:
        """Stop the job if it is still running (nothing to do for one that runs on demand)."""
        if self._process is not None and self._process.is_alive():
            self._process.kill()
            self._process.join()

    def then(self, func: Callable[[Any], Any]) -> Pending:
        """The result of ``func`` on this one's, in this process; cancelling it stops this job."""
        return _Then(self, func)


class _Then(Pending):
    def __init__(self, first: Pending, func: Callable[[Any], Any]):
        super().__init__(lambda: func(first()))
        self._first = first

    @property
    def running(self) -> bool:
        return self._first.running

    def cancel(self) -> None:
        self._first.cancel()


def _child_reporting(job: Callable[..., Any], sender: Connection, receiver: Connection, parent: int,
                     parts: bool = False) -> None:
    """Like ``_child``, but an exception goes back to the parent as (True, exception); with ``parts``, the
    job is handed ``put``, which sends (``_PART``, a part of its result) at once."""
    die_with(parent)
    receiver.close()
    send_outcome(sender, (lambda: job(lambda part: sender.send((_PART, part)))) if parts else job)


_PART = "part"  # the tag of a part of a job's result (an outcome's first item is a bool)


def send_outcome(sender: Connection, job: Callable[[], Any]) -> None:
    """Run ``job`` in this child and send the parent (False, its result) or (True, the exception it raised,
    or a RuntimeError naming it when it cannot be pickled); then end the child."""
    try:
        try:
            outcome = (False, job())
        except BaseException as exc:  # noqa: BLE001 - the parent raises it again
            outcome = (True, exc if _picklable(exc) else RuntimeError(f"{type(exc).__name__}: {exc}"))
        sender.send(outcome)
    finally:
        sender.close()
        os._exit(0)


def _picklable(value: Any) -> bool:
    try:
        pickle.loads(pickle.dumps(value))
        return True
    except Exception:  # noqa: BLE001 - anything that cannot make the trip
        return False
