"""Cache entries written later, by a forked child beside the build's next stages (runtime/cache.py's ``later``).

A cold build saves three entries of 256 shard files each between loading and rendering (front matter, papers,
rendered abstracts), on its one busy core: creating a file costs a few hundred microseconds of kernel time on a
slow disk, about 0.1 CPU-s an entry, and sealing it a few hundredths more. A thread would not take it off that core
(each of its system calls comes back to wait for the GIL: measured, the main thread's wall grew by about what the
writing cost); a child does. So an entry saved ``later`` is made
into its shards' bytes at once (its records are let go as before) and kept as bytes; ``aside`` hands every entry
kept so far to one forked child, which seals and writes them while the build goes on, and ``settle`` waits for it.

Nothing can read a half-written entry: each shard file appears whole or not at all (``write_atomically``), a
shard missing is a miss, and any read of a kind settles that kind first (written here, or its child waited for).
A build settles everything before it ends, failed or not: an entry only ever says what its inputs made, so one
written after a later stage failed is as right as one written before. Few files (a small volume, a warm build
that rewrote a shard or two) are written here, not worth a fork (runtime/sizes.py ``writes_aside``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from generator.runtime.background import Pending
from generator.runtime.executor import Executor
from generator.runtime.sealed import header_of, write_atomically
from generator.runtime.sizes import LATER_BYTES


@dataclass(frozen=True)
class EntryWrite:
    """One entry's shards to write into its folder (made already), then the kind's other entries dropped."""

    kind: str
    folder: Path
    shards: tuple[tuple[str, bytes], ...]  # file name → its JSON payload
    drop_others: Callable[[str, Path], None]

    def write(self) -> None:
        try:
            for name, data in self.shards:
                write_atomically(self.folder / name, header_of(data), data)
            self.drop_others(self.kind, self.folder)
        except OSError:  # a cache that cannot be written is only slower
            pass


class LaterWrites:
    """The entries saved ``later`` and not yet written, and the job writing those handed ``aside``."""

    def __init__(self) -> None:
        self.kept: list[EntryWrite] = []
        self.job: tuple[Pending, frozenset[str]] | None = None  # writing, and the kinds it writes

    def __reduce__(self) -> tuple[type, tuple]:
        return (LaterWrites, ())  # a cache sent to another process (the search index's): none of this one's writes

    def room(self) -> int:
        """The bytes more that may be held for a child: a 10,000-paper volume's three entries (36 MB), not a
        larger one's (50,000 papers: 166 MB, held from the pages' stage on and fragmenting the heap it left)."""
        return LATER_BYTES - sum(len(data) for entry in self.kept for _, data in entry.shards)

    def keep(self, entry: EntryWrite) -> None:
        self.kept.append(entry)  # (written in this order: a kind's later entry drops its earlier one)

    def aside(self, executor: Executor) -> None:
        """Every entry kept so far written by a forked child, when the executor finds their files worth one;
        else here, now."""
        entries, self.kept = self.kept, []
        if not entries:
            return
        self.settle()
        if not executor.writes_aside(sum(len(entry.shards) for entry in entries)):
            _write_all(entries)
            return
        self.job = (executor.start(functools.partial(_write_all, entries)), frozenset(e.kind for e in entries))

    def settle(self, kind: str | None = None) -> None:
        """The entries of ``kind`` (None: every kind) on disk: those kept written here, the child waited for."""
        if self.job is not None and (kind is None or kind in self.job[1]):
            job, self.job = self.job[0], None
            try:
                job()
            except RuntimeError:  # the child died (killed, out of memory): its shards are whole or missing, and
                pass  # a missing shard is a miss; a cache left unwritten only makes the next build slower
        if any(kind is None or entry.kind == kind for entry in self.kept):
            entries, self.kept = self.kept, []
            _write_all(entries)


def _write_all(entries: list[EntryWrite]) -> None:
    for entry in entries:
        entry.write()
