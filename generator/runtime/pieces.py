"""A file written from its pieces as they come (runtime/output.py's ``Staging.write_chunks``): a file that grows
with every paper (papers.json, the citation files) is never whole in memory, and it is compared with the current
site's file as it is written."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from typing import BinaryIO

# Bytes gathered before a write: a whole-volume file's pieces are a paper's record each (a kilobyte or two), and
# a write call per piece would cost more than the pieces; a megabyte is nothing beside the file.
_WRITE_BUFFER = 1 << 20


def write_pieces(path: str, chunks: Iterable[bytes], current: str | None) -> bool:
    """``chunks`` into the file ``path`` (made or emptied first, as output.py's ``_write`` makes it), a megabyte
    at a time; whether the regular file ``current`` (None: none) holds exactly the same bytes, read beside them."""
    same_file: BinaryIO | None = None
    try:
        if current is not None and stat.S_ISREG(os.lstat(current).st_mode):
            same_file = open(current, "rb")
    except OSError:
        pass
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
    same = same_file is not None
    try:
        buffer = bytearray()
        for chunk in chunks:
            if same:
                same = same_file is not None and same_file.read(len(chunk)) == chunk
            buffer += chunk
            if len(buffer) >= _WRITE_BUFFER:
                write_out(handle, buffer)
                buffer.clear()
        write_out(handle, buffer)
        return same and same_file is not None and same_file.read(1) == b""
    finally:
        os.close(handle)
        if same_file is not None:
            same_file.close()


def write_out(handle: int, data: bytes | bytearray) -> None:
    view = memoryview(data)
    while view:  # a regular file takes it all at once unless a signal or a full disk cuts it short
        view = view[os.write(handle, view):]
