"""The pages a sync writes, each through a temporary file renamed into place (a killed build leaves no half page).

A cold build writes every page, and creating a file costs this build's one busy core a few hundred microseconds
of kernel time on a slow disk: a second or so for 10,000 pages, while the next stages (parsing the pages,
the programme) leave the other core idle. So the pages are made on every core as before (their text, and the
page as read: ``written_page``), and, when the executor finds it worth a process and the volume is not a large
one (``Executor.pages_aside``), written by a forked child beside the next stages instead, those a worker made
too (their bytes sent back with their pages: a worker that wrote its share where it made it took three times as
long a page, so this process, which writes none, made nine pages in ten; issue 43, session 26). Only a created
page whose front matter reads back as written goes there: nothing of this build reads its file (its ``PageDoc``
is at hand), but an updated page is read back from its file. ``PageWrites`` waits for the child; a page it could
not write fails the build as one written here would.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from generator.errors import ContentError
from generator.content.page_doc import PageDoc
from generator.content.pages import front_key, written_page
from generator.runtime.background import Pending
from generator.runtime.executor import Executor
from generator.runtime.output import write_atomically
from generator.runtime.sizes import Cost

if TYPE_CHECKING:
    from generator.content.merge import Change

Written = tuple[PageDoc, str]  # a created page as read, and the key of its front matter


class PageWrites:
    """The pages handed to a child, until it is waited for (``settle``)."""

    def __init__(self, pending: Pending | None = None):
        self.pending = pending

    def settle(self) -> None:
        """Every page on disk; the child's error (a full disk) raised here, as the page's own write would."""
        pending, self.pending = self.pending, None
        if pending is not None:
            with page_errors():
                pending()


@contextlib.contextmanager
def page_errors() -> Iterator[None]:
    """A content folder that takes no more writes (full, read-only): one error naming the page."""
    try:
        yield
    except OSError as exc:
        raise ContentError(f"cannot write the page ({exc.strerror or exc}): is the content folder full or "
                           "read-only? Pages written before it are kept; run again once it can be written",
                           path=os.fsdecode(exc.filename) if exc.filename else None) from None


def write_pages(changes: list[Change], executor: Executor) -> tuple[list[Written | None], PageWrites]:
    """Each change's page written (``Change.page_text``), and a created one as read with its front matter's key
    (None: read it back); the pages a child writes (wherever they were made), to wait for."""
    aside = executor.pages_aside(len(changes))

    def _write_pages(share: list[Change]) -> list[tuple[Written | None, bytes | None]]:
        return [_write(change, aside) for change in share]

    made = executor.map(_write_pages, changes, Cost.LIGHT)
    later = [(change.path, data) for change, (_, data) in zip(changes, made) if data is not None]
    pending = executor.start(functools.partial(_write_files, later)) if later else None
    return [written for written, _ in made], PageWrites(pending)


def _write(change: Change, later: bool) -> tuple[Written | None, bytes | None]:
    """The page made, and written unless ``later`` and it need not be read back: then its bytes, to write."""
    text = change.page_text()
    data = text.encode("utf-8")
    doc = written_page(change.path, change.meta, text) if change.meta is not None else None
    if doc is None or not later:
        write_atomically(change.path, data, folder_made=True)
        return ((doc, front_key(text)) if doc is not None else None), None
    return (doc, front_key(text)), data


def _write_files(files: list[tuple[Path, bytes]]) -> None:
    for path, data in files:
        write_atomically(path, data, folder_made=True)
