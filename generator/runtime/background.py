"""The processes the build's work runs in: forked, fresh (from a fork server), or a background job.

Which one a piece of work gets is runtime/executor.py's choice, by the size policy
(runtime/sizes.py); this module only starts them, sends them their work and reads back
their results.

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
import itertools
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Iterable, Iterator
from multiprocessing.connection import Connection
from typing import Any, Callable, TypeVar

Job = Callable[[], Any]
T = TypeVar("T")


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


def _die_with(parent: int) -> None:
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
    _die_with(parent)
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
    if context is None:
        return Pending(job)
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child_reporting, args=(job, sender, receiver, os.getpid()), daemon=True)
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
    return Pending(None, process, receiver)


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


FEED_BATCH = 500  # items a fresh process is sent at a time


def _fresh_context():
    try:
        context = multiprocessing.get_context("forkserver")
    except ValueError:
        return None
    # The server imports these once; each process it forks for a job has them without importing them.
    context.set_forkserver_preload(["generator.search", "generator.pipeline.shares"])
    _start_fork_server()
    return context


def _start_fork_server() -> None:
    """Start multiprocessing's fork server importing nothing from the current folder, and this very
    ``generator``. It is started as ``python -c …``, which puts the current folder first on its import path:
    a content repository's own ``multiprocessing/`` or ``selectors`` would run its code. ``PYTHONSAFEPATH``
    keeps that folder off the server's path (and the path its processes are given goes without it too);
    ``PYTHONPATH`` leads with the folder this ``generator`` is in, when no installed path holds it."""
    import multiprocessing.forkserver as forkserver
    import site
    import sys

    own = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # generator's parent
    here = set() if os.getcwd() == own else {"", os.getcwd()}  # in the tool's own checkout, the folder is the tool's
    saved = {name: os.environ.get(name) for name in ("PYTHONSAFEPATH", "PYTHONPATH")}
    path = sys.path[:]
    sys.path[:] = [entry for entry in path if entry not in here]
    os.environ["PYTHONSAFEPATH"] = "1"
    if own not in site.getsitepackages():
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, (own, saved["PYTHONPATH"])))
    try:
        forkserver.ensure_running()
    finally:
        sys.path[:] = path
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def in_fresh_process(job: Callable[..., T], items: Iterable, *args: Any, now: int = 0,
                     claims: Iterator | None = None) -> Pending:
    """Start ``job(iterator of items, *args)`` in a process that holds none of this one's memory; call
    the returned ``Pending`` for its result (an exception in the job is raised again there).

    A process forked from this one shares its pages until either side writes to them, and this one
    writes to its papers all through a build (reading an object counts it): every page the child
    inherited then counts twice, though the job may read only a little of each object (the search index
    reads only the papers' words). This process is forked from multiprocessing's fork server, a small
    process started once, and sent ``items`` (which must pickle, as must ``job``, a module-level function,
    and ``args``) ``FEED_BATCH`` at a time by a thread of this one, as the job reads them; the first
    ``now`` by this thread before it returns (what the job needs before it can start: sent by a thread
    that shares the interpreter with this one's work, they came a few at a time).
    ``claims``: items the job reads after ``items``, each sent only when the job is about to need it
    (``CLAIMS_AHEAD`` ahead): an iterator that this process's own work draws from too (it must be safe
    to call from two threads), so that each item goes to whichever process frees up first.
    Without the fork server the job runs in this process when its result is asked for (the caller has
    drawn every claim by then).
    """
    context = _fresh_context()
    if context is None:
        return Pending(lambda: job(iter(items), *args))
    release_free_memory()  # what the stages before left free but held, as before a fork
    receiver, sender = context.Pipe(duplex=False)
    feed_in, feed_out = context.Pipe(duplex=False)
    asks_in, asks_out = context.Pipe(duplex=False) if claims is not None else (None, None)
    process = context.Process(target=_fresh_child, args=(job, args, feed_in, sender, asks_out), daemon=True)
    process.start()
    feed_in.close()
    sender.close()
    if asks_out is not None:
        asks_out.close()
    items = iter(items)
    if now:
        _send(itertools.islice(items, now), feed_out)
    threading.Thread(target=_feed, args=(items, feed_out, claims, asks_in), daemon=True, name="fresh-feed").start()
    return Pending(None, process, receiver)


def _send(items: Iterable, connection: Connection) -> None:
    batch: list = []
    for item in items:
        batch.append(item)
        if len(batch) == FEED_BATCH:
            connection.send(batch)
            batch = []
    if batch:
        connection.send(batch)


CLAIMS_AHEAD = 2  # claimed items a fresh process asks for before it needs them: one at work, one waiting


def _feed(items: Iterable, connection: Connection, claims: Iterator | None = None,
          asks: Connection | None = None) -> None:
    """Send ``items`` in batches, then None; then, with ``claims``, one claimed item for each time the
    job asks, and None once none is left. A job cancelled or dead ends the sending."""
    try:
        _send(items, connection)
        connection.send(None)
        if claims is not None and asks is not None:
            _answer(claims, connection, asks)
    except OSError:
        pass
    finally:
        connection.close()
        if asks is not None:
            asks.close()
        release_free_memory()  # the batches' buffers


def _answer(claims: Iterator, connection: Connection, asks: Connection) -> None:
    while True:
        try:
            asks.recv()
        except EOFError:  # the job is gone
            return
        item = next(claims, None)  # claimed now: not before the job can take it
        connection.send(item)
        if item is None:
            return


def _received(connection: Connection, asks: Connection | None = None) -> Iterator:
    while (batch := connection.recv()) is not None:  # EOFError: the sender died before the end
        yield from batch
    if asks is None:
        return
    for _ in range(CLAIMS_AHEAD):
        _ask(asks)
    while (item := connection.recv()) is not None:
        _ask(asks)  # the next, while this one is at work
        yield item


def _ask(asks: Connection) -> None:
    try:
        asks.send(True)
    except OSError:  # the feeder has sent its last (there were no more) and closed
        pass


def _fresh_child(job: Callable[..., Any], args: tuple, feed: Connection, sender: Connection,
                 asks: Connection | None) -> None:
    _die_with(os.getppid())  # the fork server, which ends with the process that started it
    _send_outcome(sender, lambda: job(_received(feed, asks), *args))


def _trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim  # glibc only
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _trim()


def release_free_memory() -> None:
    """Give the C heap's free pages back to the system before a fork. The stages before leave much
    of it free but held (relating papers above all); held, those pages are shared with the child until
    this process writes into them again, and then copied: counted twice, for a child that never reads
    them."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


class Pending:
    """The result of a job started by ``in_parallel`` or ``in_fresh_process`` (or run on demand).

    The result is read as soon as the child sends it, by a thread: a result larger than the pipe's
    buffer (the search index's file names, for a large volume) would otherwise hold the child, and
    every page it un-shared, until its result is asked for — the whole render stage.
    """

    def __init__(self, job: Job | None, process: Any = None, receiver: Connection | None = None) -> None:
        self._job, self._process = job, process
        self._outcome: tuple[bool, Any] | None = None
        self._reader: threading.Thread | None = None
        if process is not None:
            self._reader = threading.Thread(target=self._receive, args=(receiver,), daemon=True,
                                            name="pending-result")
            self._reader.start()

    @property
    def running(self) -> bool:
        """Whether the job is at work in its own process now (a core taken)."""
        return self._process is not None and self._outcome is None and self._process.is_alive()

    def _receive(self, receiver: Connection) -> None:
        try:
            self._outcome = receiver.recv()
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
        return value

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


def _child_reporting(job: Job, sender: Connection, receiver: Connection, parent: int) -> None:
    """Like ``_child``, but an exception goes back to the parent as (True, exception)."""
    _die_with(parent)
    receiver.close()
    _send_outcome(sender, job)


def _send_outcome(sender: Connection, job: Callable[[], Any]) -> None:
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
