"""Where the pipeline's files go: a folder swapped in whole (``build``), memory (``serve``), nowhere (``check``).

A sink says only where files go: it writes them, tells what the last site has (``has``,
``previous``), takes a file of the last site as it is (``keep_unchanged``) and publishes the site
(``finish``); what runs when, and on which core, is the pipeline's schedule (pipeline/schedule.py).

* ``StagingSink`` (build): a staging folder beside the site, written file by file (forked
  workers write their own share, the search index's child its file: ``target``), swapped in
  whole at the end, under the output folder's lock (``session``).
* ``MemorySink`` (serve): the site held in memory and mirrored to the output folder file
  by file; files that follow the published site (the background's search index) are ``add``-ed.
* ``NullSink`` (check): nothing is written.
"""

from __future__ import annotations

import contextlib
import threading
from array import array
from pathlib import Path
from typing import Iterable, Iterator

from generator.runtime.cache import BuildCache
from generator.runtime.output import (Staging, check_replaceable, output_lock, publish_site, staged_site,
                                       write_changed, write_site)
from generator.reporter import Reporter
from generator.pipeline.reuse import Digests, Inputs, LastSite


class Sink:
    """Takes nothing: what ``check`` runs the pipeline into. The others override what they do."""

    parallel = False  # whether forked workers may write their own share of the files

    def prepare(self, content_dir: Path) -> None:
        """Refuse an output folder that must not be replaced, before any page is touched."""

    def has(self, name: str) -> bool:
        """Whether the last site has this file (one that is kept need not be rendered again)."""
        return False

    def previous(self, name: str) -> bytes | None:
        """The last site's bytes of this file, if any."""
        return None

    def keep_unchanged(self, outputs: list, digests: Digests, store: BuildCache) -> list:
        """The outputs to render: those the last site does not hold as made from the same inputs."""
        return outputs

    @contextlib.contextmanager
    def session(self, reporter: Reporter) -> Iterator[None]:
        """Held while the pipeline's stages that make the site run (``pipeline.Stage.writes``)."""
        yield

    def write(self, name: str, data: bytes) -> None:
        pass

    def write_chunks(self, name: str, chunks: Iterable[bytes]) -> None:
        """The file from its pieces in order (``Output.chunks``); a sink that holds files takes them joined."""
        self.write(name, b"".join(chunks))

    def target(self, name: str) -> Path | None:
        """Where another process may write this file itself (None: no folder; give its bytes to ``write``)."""
        return None

    def worker_staging(self) -> Staging | None:
        """The folder a fresh process may write files into itself (pipeline/shares.py); None: none."""
        return None

    def finish(self, names: list[str], static: dict[str, Path]) -> None:
        """Publish the site: the files written now, those kept from the last site, the static files."""

    def add(self, files: dict[str, bytes], gone: Iterable[str] = ()) -> None:
        """Files that follow the published site (made in the background after it); ``gone``: files of
        the last such batch that this one no longer has (a search index cut into fewer shards)."""


class NullSink(Sink):
    def write_chunks(self, name: str, chunks: Iterable[bytes]) -> None:
        for _ in chunks:  # made (what making it warns about is told), a piece at a time, and dropped
            pass


class StagingSink(Sink):
    """A staging folder beside the site. On its own it takes the output folder's lock, stages and swaps;
    ``within`` a site being staged (a series' volume, under its prefix) it only writes there, and the site's
    builder swaps the whole in and then calls ``record``."""

    parallel = True

    def __init__(self, out_dir: Path, within: Staging | None = None):
        self.out_dir = out_dir
        self.within = within
        self.staging: Staging | None = None
        self.kept = 0  # files of the last site kept by this build, not rendered again
        self.rendered = 0  # files this build rendered (every one without the cache)
        # What to record once published: the inputs, the last site's record and where each linked file is in it.
        self._record: tuple[BuildCache, Inputs, LastSite, array] | None = None

    def prepare(self, content_dir: Path) -> None:
        if self.within is None:  # a site's builder checks its own folder
            check_replaceable(self.out_dir, content_dir)

    def previous(self, name: str) -> bytes | None:
        path = self.out_dir / name
        return path.read_bytes() if path.is_file() else None

    @contextlib.contextmanager
    def session(self, reporter: Reporter) -> Iterator[None]:
        self._record, self.kept, self.rendered = None, 0, 0
        if self.within is not None:
            self.staging = self.within
            try:
                yield
            finally:
                self.staging = None
            return
        # Another build into the same folder waits its turn; any failure inside discards the staging folder.
        with staged_site(self.out_dir, reporter.info) as staging:
            self.staging = staging
            try:
                yield
            finally:
                self.staging = None

    def keep_unchanged(self, outputs: list, digests: Digests, store: BuildCache) -> list:
        assert self.staging is not None
        if not store.enabled:  # --no-cache: nothing recorded to compare with, nothing to record
            self.rendered = len(outputs)
            return outputs
        inputs = digests()
        last = LastSite.load(store, self.out_dir)
        # Each listed file's place in the last site's record, if it holds it as made from the same inputs and
        # untouched (-1: not, or not linked now): a linked file keeps its inode, size and time, so its identity
        # is the one just compared (``record``).
        at = array("q", [-1]) * len(inputs)
        for index, place in last.unchanged(inputs):
            at[index] = place
        render, index = [], -1
        for output in outputs:  # some of the listed outputs, in the listing's order
            index += 1
            while inputs.names[index] != output.path:
                at[index], index = -1, index + 1  # (not wanted: neither rendered nor linked)
            if not (at[index] >= 0 and self.staging.link(output.path)):
                at[index] = -1
                render.append(output)
        at[index + 1:] = array("q", [-1]) * (len(inputs) - index - 1)
        self.kept, self.rendered = len(outputs) - len(render), len(render)
        self._record = (store, inputs, last, at)
        return render

    def write(self, name: str, data: bytes) -> None:
        assert self.staging is not None
        self.staging.write(name, data)

    def write_chunks(self, name: str, chunks: Iterable[bytes]) -> None:
        assert self.staging is not None
        self.staging.write_chunks(name, chunks)  # written as they come: never whole in memory

    def target(self, name: str) -> Path:
        """Where another process may write this file itself (a search index too big to send back)."""
        assert self.staging is not None
        path = self.staging.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def worker_staging(self) -> Staging | None:
        return self.staging

    def finish(self, names: list[str], static: dict[str, Path]) -> None:
        assert self.staging is not None
        if self.within is not None:
            for name, source in static.items():
                self.staging.copy(name, source)
            return
        publish_site(self.staging, static)
        self.record()

    def record(self) -> None:
        """Keep each published file's inputs and identity, for the next build to compare with."""
        if self._record is not None:
            store, inputs, last, at = self._record
            LastSite.save(store, self.out_dir, inputs, last, at)
            self._record = None

    def add(self, files: dict[str, bytes], gone: Iterable[str] = ()) -> None:
        with output_lock(self.out_dir):  # not while another build swaps the folder
            write_changed(self.out_dir, dict.fromkeys(set(gone) - set(files), b""), files)


class MemorySink(Sink):
    """The dev server's site: ``files`` is replaced whole on each pass, never mutated."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.files: dict[str, bytes] = {}
        self.rendered = self.written = self.removed = 0  # of the last pass
        self._new: dict[str, bytes] = {}
        self._static: dict[str, tuple[Path, tuple[int, ...], bytes]] = {}  # name → (source, its stat, bytes)
        self._lock = threading.Lock()  # files added from the background's thread are merged under it

    def prepare(self, content_dir: Path) -> None:
        check_replaceable(self.out_dir, content_dir)

    def has(self, name: str) -> bool:
        return name in self.files

    def previous(self, name: str) -> bytes | None:
        return self.files.get(name)

    @contextlib.contextmanager
    def session(self, reporter: Reporter) -> Iterator[None]:
        self._new = {}
        yield

    def write(self, name: str, data: bytes) -> None:
        self._new[name] = data

    def finish(self, names: list[str], static: dict[str, Path]) -> None:
        files = {name: data for name in names if (data := self._new.get(name, self.files.get(name))) is not None}
        files.update(self._static_bytes(static))
        with self._lock:
            if not self.files:
                write_site(self.out_dir, files, {})
                self.written, self.removed = len(files), 0
            else:
                self.written, self.removed = write_changed(self.out_dir, self.files, files)
            self.files, self.rendered = files, len(self._new)

    def add(self, files: dict[str, bytes], gone: Iterable[str] = ()) -> None:
        with self._lock:
            changed = {name: data for name, data in files.items() if self.files.get(name) != data}
            dropped = {name: self.files[name] for name in gone if name in self.files and name not in files}
            self.files = {**{n: d for n, d in self.files.items() if n not in dropped}, **changed}
            write_changed(self.out_dir, dropped, changed)  # writes the changed, removes the dropped

    def _static_bytes(self, static: dict[str, Path]) -> dict[str, bytes]:
        """The static files' bytes, read again only when a file changed."""
        kept: dict[str, tuple[Path, tuple[int, ...], bytes]] = {}
        for name, source in static.items():
            info = source.stat()  # a file copied over another keeps its inode and may keep its mtime: not its ctime
            stamp = (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino)
            last = self._static.get(name)
            fresh = last is not None and last[0] == source and last[1] == stamp
            kept[name] = last if fresh and last is not None else (source, stamp, source.read_bytes())
        self._static = kept
        return {name: data for name, (_, _, data) in kept.items()}
