"""What a process made of a file (its text, its digest), kept under the file's identity and made again only
when the file is another or has changed.

Every build reads its whole theme: each template it renders, and every file of it for the site's digest
(pipeline/reuse.py). A process that builds again (``serve`` on each edit, a series' volumes, a test session)
read the same unchanged files each time; one ``stat`` says whether a file is the one read before, at about a
third of the cost of opening and reading it. The identity is the inode, size and modification and change
times in nanoseconds: an edit in place moves the times, a file saved by replacing it has another inode.

A file's times move in the kernel's clock ticks (a few milliseconds), so two edits of the same length within one
tick leave the same identity: what is made of a file changed less than ``SETTLED`` ago is not kept (git's "racy"
files), and the next ask reads it again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")
SETTLED = 2_000_000_000  # nanoseconds since a file's last change after which its identity says it is unchanged
Identity = tuple[int, int, int, int]


def identity(info: os.stat_result) -> Identity:
    return info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


class KeptByIdentity(Generic[T]):
    """``make(path)`` for a file, made once for each state of the file (a dict of every file asked for: a
    theme's few dozen, and a test session's small ones)."""

    def __init__(self, make: Callable[[str], T]) -> None:
        self._make = make
        self._kept: dict[str, tuple[Identity, T]] = {}

    def __call__(self, path: str, info: os.stat_result | None = None) -> T:
        now = identity(info or os.stat(path))
        kept = self._kept.get(path)
        if kept is not None and kept[0] == now:
            return kept[1]
        made = self._make(path)
        if time.time_ns() - now[3] >= SETTLED:  # changed long enough ago (a time ahead of the clock: never)
            self._kept[path] = (now, made)
        else:
            self._kept.pop(path, None)
        return made
