"""The build cache's files, sealed: each entry file carries a digest of its payload keyed with this
user's secret, checked on every read (runtime/cache.py says why).

A truncated, altered or forged file is a miss and is removed; large entries are sealed and
checked in chunks, never held whole.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path
from collections.abc import Iterable
from typing import IO

from generator.runtime.output import atomic_file

FORMAT = 2  # 2: payload digests keyed with the user's secret
MAGIC = b"proceedings-cache"
CHUNK = 1 << 20


def key_file() -> Path:
    """Where this user's cache key lives: the user's cache folder, never a content folder."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "proceedings" / "cache-key"


@lru_cache(maxsize=None)
def secret_key(path: Path) -> bytes | None:
    """The secret at ``path`` that keys every payload digest, made on first use (None: no cache can be
    trusted). Its folder is the user's, so no one who can only write a content folder can read it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            make_key(path)
        key = path.read_bytes()
    except OSError:
        return None
    return key if len(key) == 32 else None


def make_key(path: Path) -> None:
    """A new key, written whole under a private name and then linked into place, so that a process
    racing this one (two first builds at once, two test workers) finds no key or the whole key, never
    an empty file: that one would read as no key and turn its cache off. The first link wins."""
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(os.urandom(32))
        try:
            os.link(temp, path)
        except FileExistsError:
            pass
    finally:
        os.unlink(temp)


def sealer() -> hashlib.blake2b:
    """A hasher keyed with the user's secret: what an entry's payload digest is made with."""
    return hashlib.blake2b(digest_size=20, key=secret_key(key_file()) or b"")


def payload_digest(data: bytes) -> str:
    """The keyed digest an entry file's header carries for its payload."""
    hasher = sealer()
    hasher.update(len(data).to_bytes(8, "little"))
    hasher.update(data)
    return hasher.hexdigest()


def file_digest(handle: IO[bytes], size: int) -> str:
    """``payload_digest(data)`` of the next ``size`` bytes of an open file, read in chunks ("" if it has fewer)."""
    hasher = sealer()
    hasher.update(size.to_bytes(8, "little"))
    while size and (chunk := handle.read(min(CHUNK, size))):
        hasher.update(chunk)
        size -= len(chunk)
    return hasher.hexdigest() if size == 0 else ""


def header_of(data: bytes) -> bytes:
    return header_for(payload_digest(data))


def header_for(data_digest: str) -> bytes:
    return b"%s %d %s\n" % (MAGIC, FORMAT, data_digest.encode())


def read_checked(path: Path) -> bytes | None:
    """An entry file's payload, or None if it is missing or damaged (and then removed)."""
    try:
        with open(path, "rb") as handle:
            header = handle.readline(200)
            data = handle.read()
    except OSError:
        return None
    if header != header_of(data):
        remove(path)  # damaged: never trusted, never read again
        return None
    return data


def copy_checked(path: Path, target: Path) -> bool:
    """Check an entry file's digest reading it in chunks, then copy its payload to ``target``."""
    try:
        with open(path, "rb") as handle:
            header = handle.readline(200)
            size = os.fstat(handle.fileno()).st_size - len(header)
            if header != header_for(file_digest(handle, size)):
                remove(path)
                return False
            handle.seek(len(header))
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as out:
                shutil.copyfileobj(handle, out, CHUNK)
        return True
    except OSError:
        target.unlink(missing_ok=True)
        return False


def copy_in(source: Path, target: Path) -> None:
    with open(source, "rb") as handle:
        header = header_for(file_digest(handle, os.fstat(handle.fileno()).st_size))
        handle.seek(0)
        with atomic_file(target) as out:
            out.write(header)
            shutil.copyfileobj(handle, out, CHUNK)


def write_pieces(target: Path, pieces: Iterable[bytes], size: int) -> None:
    """An entry whose payload is ``size`` bytes, written from ``pieces`` as they come, never whole in memory:
    its header (the payload's digest, known only at the end) written last, over a blank one of the same length."""
    hasher = sealer()
    hasher.update(size.to_bytes(8, "little"))
    blank = header_for("0" * 2 * hasher.digest_size)
    written = 0
    with atomic_file(target) as out:
        out.write(blank)
        for piece in pieces:
            hasher.update(piece)
            out.write(piece)
            written += len(piece)
        if written != size:  # a piece changed under us: no entry rather than a wrong one
            raise OSError(f"{target}: {written:,} bytes written where {size:,} were announced")
        out.seek(0)
        out.write(header_for(hasher.hexdigest()))


def remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def write_atomically(path: Path, *chunks: bytes) -> None:
    with atomic_file(path) as handle:
        for chunk in chunks:
            handle.write(chunk)
