"""Writing the site atomically: build beside it, then swap.

The new site is written to a staging folder next to the output folder, file
by file as the build renders it (``Staging``), and swapped in with two
renames, so a reader never sees half a site and a failed build leaves the
previous one in place. A file whose bytes did not change is hard-linked
from the previous site instead of written again. A run killed between the
renames leaves ``.<name>.old``, which the next run puts back or clears. The
replaced site is then removed; a large one is renamed ``.<name>.gone-…`` and
removed by a process of its own that the build does not wait for (what such a
removal left, the next run removes).
Two builds into one output folder take turns: each holds a lock on
``.<name>.lock`` (``flock``, released by the system when a build dies, so a
killed build never blocks the next) while it stages and swaps.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import unicodedata
from pathlib import Path
from typing import Any, BinaryIO, Callable, IO, Iterable, Iterator

try:
    import fcntl
except ImportError:  # not on Windows: builds there do not take turns
    fcntl = None  # type: ignore[assignment]

from generator.errors import OutputError
from generator.runtime import sizes
from generator.runtime.aside import GONE, remove
from generator.runtime.pieces import write_out, write_pieces

# A folder we are allowed to replace holds these (or is empty, or absent).
SITE_MARKERS = ("index.html", "papers.json")


def is_built_site(folder: Path) -> bool:
    """Whether ``folder`` holds a site a build made (never content to read)."""
    return all((folder / marker).is_file() for marker in SITE_MARKERS)


def _sibling(out_dir: Path, suffix: str) -> Path:
    return out_dir.parent / f".{out_dir.name}.{suffix}"


def recover(out_dir: Path) -> None:
    """Finish or undo a swap that a killed run left half done."""
    old, staging = _sibling(out_dir, "old"), _sibling(out_dir, "staging")
    if old.exists():
        if out_dir.exists():
            shutil.rmtree(old)
        else:
            old.rename(out_dir)
    if staging.exists():
        shutil.rmtree(staging)
    for gone in out_dir.parent.glob(f".{out_dir.name}.{GONE}*"):  # a removal aside that did not finish
        remove(gone, _sibling(out_dir, GONE), aside=True)


def check_replaceable(out_dir: Path, content_dir: Path) -> None:
    out, content = out_dir.resolve(), content_dir.resolve()
    if out == content or out in content.parents:
        raise OutputError("the output folder would contain the content folder; choose another --out", path=out_dir)
    if out_dir.is_dir() and any(out_dir.iterdir()):
        if not all((out_dir / marker).exists() for marker in SITE_MARKERS):
            raise OutputError(
                "this folder is not empty and was not built by proceedings; refusing to replace it "
                "(remove it or choose another --out)", path=out_dir,
            )


class Staging:
    """The next site, written file by file into ``.<name>.staging`` beside the current one.

    Files go to disk as they are rendered (forked workers write their own share),
    so the whole site is never held in memory. A file whose bytes equal the
    current site's is hard-linked from it rather than written again. Nothing
    is published until ``publish`` swaps the folders; ``discard`` removes the
    staging folder, leaving the current site as it was.
    """

    def __init__(self, out_dir: Path, path: Path | None = None):
        self.out_dir = out_dir
        self.path = path or _sibling(out_dir, "staging")
        # A build writes or links thousands of files: their folders are made once, not asked for per file.
        self._folders: set[str] = set()
        self._previous: bool | None = None  # whether there is a current site to compare with (asked once)

    def part(self, prefix: str) -> Staging:
        """The staging of one volume of a series: its files under ``prefix/``, swapped in with the whole
        (a one-volume site is its own part, at prefix "")."""
        if not prefix:
            return self
        return Staging(self.out_dir / prefix, self.path / prefix)

    def clear(self, prefix: str) -> None:
        """Forget what was staged under ``prefix/``."""
        shutil.rmtree(self.path / prefix, ignore_errors=True)

    def carry(self, prefix: str) -> bool:
        """Take the current site's ``prefix/`` folder as it is (a volume that failed to build keeps its last
        build); False when there is none."""
        source, target = self.out_dir / prefix, self.path / prefix
        self.clear(prefix)  # what a failed build wrote of it
        if not source.is_dir():
            return False
        shutil.copytree(source, target, copy_function=_link_or_copy, symlinks=True)
        return True

    def open(self) -> None:
        recover(self.out_dir)
        self.path.mkdir(parents=True)

    def write(self, name: str, data: bytes) -> None:
        """The file, linked from the current site when it holds the same bytes, else written: into a staging
        folder no reader sees, so at once (one open, write and close), not through a temporary file."""
        if self._previous is None:
            self._previous = self.out_dir.is_dir()
        target = os.path.join(self.path, name)  # plain strings: a Path per file costs more than the write
        self._folder(target)
        current = os.path.join(self.out_dir, name)
        if not self._previous or not _same_bytes(current, data) or not _link(current, target):
            _write(target, data)

    def write_chunks(self, name: str, chunks: Iterable[bytes]) -> None:
        """The file from its pieces, written as they come (a file that grows with every paper is never whole in
        memory): as ``write`` writes their bytes joined, and then linked from the current site when that holds
        the same bytes (compared a piece at a time as they are written)."""
        if self._previous is None:
            self._previous = self.out_dir.is_dir()
        target = os.path.join(self.path, name)
        self._folder(target)
        current = os.path.join(self.out_dir, name)
        if write_pieces(target, chunks, current if self._previous else None):
            linked = target + ".link"  # (a name no site file has: staging names are the site's)
            if _link(current, linked):
                os.replace(linked, target)

    def link(self, name: str) -> bool:
        """Take the current site's file as it is (False: it could not be linked, and must be written)."""
        target = os.path.join(self.path, name)
        try:
            self._folder(target)
        except OSError:
            return False
        return _link(os.path.join(self.out_dir, name), target)

    def _folder(self, target: str) -> None:
        folder = os.path.dirname(target)
        if folder not in self._folders:
            os.makedirs(folder, exist_ok=True)
            self._folders.add(folder)

    def copy(self, name: str, source: Path) -> None:
        _copy(source, self.path / name)

    def publish(self, files: int = 0) -> None:
        """Swap the staging folder in for the site, then remove the replaced one: here, or aside when the size
        policy finds a site of ``files`` files large (runtime/aside.py)."""
        _one_file_each(self.path, self.out_dir)
        _swap(self.path, self.out_dir)
        old = _sibling(self.out_dir, "old")
        if old.exists():
            remove(old, _sibling(self.out_dir, GONE), aside=sizes.current().removes_aside(files))

    def discard(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


@contextlib.contextmanager
def output_lock(out_dir: Path, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the output folder's lock; while another build holds it, say so once and wait.

    The lock file is removed on release, by its holder; so a build that got the lock on a file
    removed meanwhile takes the new one instead (the usual flock-and-unlink protocol).
    """
    if fcntl is None:
        yield
        return
    lock = _sibling(out_dir, "lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    while True:
        handle = open(lock, "a+b")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait(f"another build is writing {out_dir}/; waiting for it to finish")
                on_wait = None
            fcntl.flock(handle, fcntl.LOCK_EX)
        if _same_file(handle, lock):
            break
        handle.close()
    try:
        yield
    finally:
        lock.unlink(missing_ok=True)
        handle.close()  # releases the lock


def _same_file(handle: IO[Any], path: Path) -> bool:
    try:
        return os.fstat(handle.fileno()).st_ino == os.stat(path).st_ino
    except FileNotFoundError:
        return False


@contextlib.contextmanager
def staged_site(out_dir: Path, on_wait: Callable[[str], None] | None = None) -> Iterator[Staging]:
    """A ``Staging`` for ``out_dir``, under its lock; any failure inside discards it (before another
    build may start) and leaves the site unchanged."""
    staging = Staging(out_dir)
    try:
        with output_lock(out_dir, on_wait):
            try:
                staging.open()
                yield staging
            except BaseException:
                staging.discard()
                raise
    except OSError as exc:
        raise OutputError(f"cannot write the site ({exc.strerror or exc}); the previous site is unchanged",
                          path=_in_site(exc.filename, staging.path, out_dir)) from None


def _in_site(filename: str | bytes | None, staging: Path, out_dir: Path) -> Path | str:
    """A file of the staging folder named by its place in the site (``site/papers/x.html``, which the
    reader knows), never by the staging folder's own name."""
    if not filename:
        return out_dir
    path = Path(os.fsdecode(filename))
    return out_dir / path.relative_to(staging) if path.is_relative_to(staging) else path


def publish_site(staging: Staging, static: dict[str, Path]) -> None:
    """Copy the theme's static files in, then swap the staging folder in for the site."""
    for name, source in static.items():
        staging.copy(name, source)
    staging.publish()


def write_site(out_dir: Path, files: dict[str, bytes], static: dict[str, Path]) -> None:
    """Write every file to a staging folder, then swap it in for ``out_dir``."""
    with staged_site(out_dir) as staging:
        for name, source in static.items():
            staging.copy(name, source)
        for name, data in files.items():
            staging.write(name, data)
        staging.publish()


def _same_bytes(path: Path | str, data: bytes) -> bool:
    """Whether ``path`` is a regular file (not a link to one elsewhere) holding exactly ``data``."""
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
            return False
        with open(path, "rb") as handle:
            return handle.read() == data
    except OSError:
        return False


def _link(source: Path | str, target: Path | str) -> bool:
    """Hard-link an unchanged file of the current site into the staging folder, whose folder is made (False:
    write it)."""
    try:
        os.link(source, target)
        return True
    except OSError:
        return False  # another file system, or links not allowed: write a copy


def _link_or_copy(source: str, target: str) -> None:
    """copytree's copy: a link where it can (copytree makes the folders)."""
    if not _link(source, target):
        shutil.copy2(source, target)


def _write(path: str, data: bytes) -> None:
    """``data`` into the file ``path`` (made or emptied first), as ``Path.write_bytes`` writes it (the same
    permissions) with one system call each to open, write and close it."""
    _write_all(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666), data)


def _write_all(handle: int, data: bytes) -> None:
    """``data`` into the open file ``handle``, which is then closed."""
    try:
        write_out(handle, data)
    finally:
        os.close(handle)


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def file_key(name: str) -> str:
    """A name as macOS and Windows compare names: one Unicode normal form, case aside."""
    return unicodedata.normalize("NFC", name).casefold()


def _one_file_each(staging: Path, out_dir: Path) -> None:
    """Refuse a site two of whose files are one on macOS or Windows (names that differ only in case or
    Unicode normal form): a clone there would lose one of them, silently."""
    for folder, dirs, files in os.walk(staging):
        seen: dict[str, str] = {}
        for name in (*dirs, *files):
            other = seen.setdefault(file_key(name), name)
            if other != name:
                where = Path(folder).relative_to(staging)
                raise OutputError(f"{where / other} and {where / name} are one file on macOS and Windows "
                                  "(their names differ only in case or Unicode normal form); rename one",
                                  path=out_dir)


def _swap(staging: Path, out_dir: Path) -> None:
    old = _sibling(out_dir, "old")
    if out_dir.exists():
        out_dir.rename(old)
    staging.rename(out_dir)


def write_changed(out_dir: Path, before: dict[str, bytes], after: dict[str, bytes],
                  remove: bool = True) -> tuple[int, int]:
    """Write the files whose bytes changed, each atomically; drop the ones that went away.

    Used by the dev server between full builds. Returns (written, removed).
    """
    written = removed = 0
    try:
        for name, data in after.items():
            if before.get(name) != data:
                write_atomically(out_dir / name, data)
                written += 1
        for name in (set(before) - set(after)) if remove else ():
            (out_dir / name).unlink(missing_ok=True)
            removed += 1
    except OSError as exc:
        raise OutputError(f"cannot write the site ({exc.strerror or exc})", path=exc.filename or out_dir) from None
    return written, removed


def write_atomically(path: Path, data: bytes, folder_made: bool = False) -> None:
    """Write via a temporary file and rename, so a reader never sees half a file (a private one, as
    ``atomic_file`` makes it). ``folder_made``: the caller made the folder (thousands of pages into one)."""
    if not folder_made:
        path.parent.mkdir(parents=True, exist_ok=True)
    # One process writes a name at a time (the build's lock): its id makes the temporary name its own, with
    # no random name to draw; a name a killed run left is taken by O_EXCL's refusal to another one.
    temporary = os.path.join(path.parent, f".{path.name}.{os.getpid()}.tmp")
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except FileExistsError:
        with atomic_file(path) as fallback:
            fallback.write(data)
        return
    try:
        _write_all(handle, data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def atomic_file(path: Path, mode: int | None = None) -> Iterator[BinaryIO]:
    """A file to write that appears at ``path`` whole or not at all: a temporary file beside it (private,
    unless ``mode`` says otherwise), renamed over it when the block ends without an error."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
