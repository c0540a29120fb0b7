"""Where the pipeline's files go: the one thing ``build``, ``serve`` and ``check`` do differently.

* ``StagingSink`` (build): a staging folder beside the site, written file by file (forked
  workers write their own share), swapped in whole at the end; the search index is built
  on another core meanwhile.
* ``MemorySink`` (serve): the site held in memory and mirrored to the output folder file
  by file; the search index and the whole-volume files follow in the background after a
  small edit, so the edited page is served at once.
* ``NullSink`` (check): nothing is written.
"""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

from generator.background import BackgroundRunner, Pending
from generator.cache import BuildCache
from generator.model import RenderedPaper
from generator.output import Staging, check_replaceable, publish_site, staged_site, write_changed, write_site
from generator.reporter import Reporter
from generator.reuse import Digests, LastSite
from generator.search import INDEX_JS, LUNR_JS, search_files, start_search_files

SEARCH_FILES = [LUNR_JS, INDEX_JS]
Relate = Callable[[], dict[str, tuple[str, ...]]]


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

    def split(self, outputs: list) -> tuple[list, list]:
        """The outputs to render now, and those that may follow with the search index."""
        return outputs, []

    def keep_unchanged(self, outputs: list, digests: Digests, store: BuildCache) -> list:
        """The outputs to render: those the last site does not hold as made from the same inputs."""
        return outputs

    @contextlib.contextmanager
    def session(self, reporter: Reporter) -> Iterator[None]:
        yield

    def start_search(self, papers: list[RenderedPaper], tag_urls: dict[str, str], names: dict[str, str],
                     store: BuildCache, jobs: int, later: list, fresh: bool, relate: Relate | None = None) -> Pending:
        """Start the search index (and the ``later`` outputs, and ``relate``: related papers worked out
        afresh); calling the result names their files."""
        return Pending(lambda: [])

    def write(self, name: str, data: bytes) -> None:
        pass

    def finish(self, names: list[str], static: dict[str, Path]) -> None:
        """Publish the site: the files written now, those kept from the last site, the static files."""


class NullSink(Sink):
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
        self._record: tuple[BuildCache, dict[str, str]] | None = None  # the inputs to record once published

    def prepare(self, content_dir: Path) -> None:
        if self.within is None:  # a site's builder checks its own folder
            check_replaceable(self.out_dir, content_dir)

    def previous(self, name: str) -> bytes | None:
        path = self.out_dir / name
        return path.read_bytes() if path.is_file() else None

    @contextlib.contextmanager
    def session(self, reporter: Reporter) -> Iterator[None]:
        self._record, self.kept = None, 0
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
            return outputs
        inputs = digests()
        last = LastSite.load(store, self.out_dir)
        self._record = (store, inputs)
        render = [o for o in outputs if not (last.unchanged(o.path, inputs[o.path]) and self.staging.link(o.path))]
        self.kept = len(outputs) - len(render)
        return render

    def start_search(self, papers, tag_urls, names, store, jobs, later, fresh, relate=None) -> Pending:
        assert self.staging is not None and not later and relate is None
        return start_search_files(papers, tag_urls, self.staging, store, parallel=jobs > 1, names=names)

    def write(self, name: str, data: bytes) -> None:
        assert self.staging is not None
        self.staging.write(name, data)

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
            LastSite.save(self._record[0], self.out_dir, self._record[1])
            self._record = None


class MemorySink(Sink):
    """The dev server's site: ``files`` is replaced whole on each pass, never mutated."""

    def __init__(self, out_dir: Path, on_search_ready: Callable[[float], None] | None = None,
                 on_related: Callable[[dict[str, tuple[str, ...]]], None] | None = None):
        self.out_dir = out_dir
        self.on_search_ready = on_search_ready
        self.on_related = on_related  # told the related papers worked out after an edit
        self.files: dict[str, bytes] = {}
        self.search_lag: float | None = None
        self.rendered = self.written = self.removed = 0  # of the last pass
        self._new: dict[str, bytes] = {}
        self._static: dict[str, tuple[Path, int, bytes]] = {}  # name → (source, mtime, bytes)
        self._search: Callable[[], tuple[dict[str, bytes], dict | None]] | None = None
        self._generation = 0
        self._lock = threading.Lock()  # the background job merges its files under it
        self._background = BackgroundRunner()

    def prepare(self, content_dir: Path) -> None:
        check_replaceable(self.out_dir, content_dir)

    def has(self, name: str) -> bool:
        return name in self.files

    def previous(self, name: str) -> bytes | None:
        return self.files.get(name)

    def split(self, outputs: list) -> tuple[list, list]:
        if not self.files:  # the first pass renders everything at once
            return outputs, []
        return [o for o in outputs if o.deps is not None], [o for o in outputs if o.deps is None]

    @contextlib.contextmanager
    def session(self, reporter: Reporter) -> Iterator[None]:
        self._new, self._search = {}, None
        yield

    def start_search(self, papers, tag_urls, names, store, jobs, later, fresh, relate=None) -> Pending:
        if fresh or relate or not all(name in self.files for name in SEARCH_FILES):
            def job() -> tuple[dict[str, bytes], dict | None]:
                files = search_files(papers, tag_urls, names)
                files.update({output.path: output.render() for output in later})
                return files, relate() if relate else None

            self._search = job
        return Pending(lambda: list(SEARCH_FILES))

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
        if self._search is not None:
            self._refresh(self._search)

    def _static_bytes(self, static: dict[str, Path]) -> dict[str, bytes]:
        """The static files' bytes, read again only when a file changed."""
        kept = {}
        for name, source in static.items():
            mtime = source.stat().st_mtime_ns
            last = self._static.get(name)
            fresh = last is not None and last[0] == source and last[1] == mtime
            kept[name] = last if fresh else (source, mtime, source.read_bytes())
        self._static = kept
        return {name: data for name, (_, _, data) in kept.items()}

    def _refresh(self, job: Callable[[], tuple[dict[str, bytes], dict | None]]) -> None:
        """Build the search index (and the whole-volume files) in the background; a newer pass supersedes it."""
        with self._lock:
            self._generation += 1  # the job still running, if any, is stale: it is killed
            generation = self._generation
        start = time.perf_counter()

        def done(result: tuple[dict[str, bytes], dict | None]) -> None:
            generated, related = result
            with self._lock:
                if generation != self._generation:
                    return
                changed = {k: v for k, v in generated.items() if self.files.get(k) != v}
                self.files = {**self.files, **changed}
                write_changed(self.out_dir, {}, changed, remove=False)
            self.search_lag = time.perf_counter() - start
            if self.on_search_ready:
                self.on_search_ready(self.search_lag)
            if related is not None and self.on_related:
                self.on_related(related)

        self._background.submit(job, done)

    def wait_for_search(self) -> None:
        self._background.wait()

    def close(self) -> None:
        self._background.stop()
