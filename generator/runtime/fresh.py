"""Fresh processes: forked from multiprocessing's fork server, so that they hold none of the build
process's memory, and fed their items in batches (and claimed items one at a time) as they read them.
runtime/executor.py chooses when work runs here (runtime/sizes.py's size policy)."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import threading
from collections.abc import Iterable, Iterator
from multiprocessing.connection import Connection
from typing import Any, Callable, TypeVar

from generator.runtime.background import Pending, die_with, release_free_memory, send_outcome

T = TypeVar("T")


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
    die_with(os.getppid())  # the fork server, which ends with the process that started it
    send_outcome(sender, lambda: job(_received(feed, asks), *args))
