"""When the search index is made, and what follows a published site: the pipeline's scheduling.

The pipeline owns one ``Schedule``, chosen by its ``Options`` (``schedule_for``); the sink only
takes the files, and every schedule works with every sink.

* ``Alongside`` (build): the index is started before papers are related, in a process of its own
  (runtime/executor.py) that writes its files straight into the sink's folder (``Sink.target``; a
  sink without one is given the bytes), so that it is built on the other core while the templates
  render; ``publish`` waits for it. From the build cache when the papers did not change.
* ``Background`` (serve, ``Options.background_search``): a small edit serves its page at once. The
  search index, the files made from the whole volume that the site already has (the .bib, feed,
  papers.json…: ``defer``) and related papers worked out afresh (``relate_later``) follow in one
  background job after publish, added to the site when done (``Sink.add``); a newer pass's job
  supersedes it.
* ``Schedule`` itself (check, ``Options(search=False)``): no index; everything now.
"""

from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from generator.runtime.background import BackgroundRunner, Pending
from generator.runtime.cache import BuildCache
from generator.runtime.executor import Executor
from generator.model.paper import RenderedPaper
from generator.render.people_topics import tag_urls
from generator.search import search_files, start_search_files
from generator.pipeline.sinks import Sink

if TYPE_CHECKING:
    from generator.pipeline.stages import Options

Related = dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class SearchInput:
    """What the search index is made of."""

    papers: list[RenderedPaper]
    names: dict[str, str]  # the topics' names in the interface language

    @functools.cached_property
    def tag_urls(self) -> dict[str, str]:
        """Each topic's page, worked out where the index is made (serve: in the background job, off the edit's
        way)."""
        return tag_urls(self.papers)


class Schedule:
    """No search index; every output rendered now, related papers worked out now."""

    def start(self, search: SearchInput, sink: Sink, store: BuildCache, executor: Executor, fresh: bool) -> None:
        """Start the index (``fresh``: the papers it is made of moved since the last pass)."""

    def relate_later(self, relate: Callable[[], Related]) -> bool:
        """Whether related papers may be worked out after publish (False: work them out now)."""
        return False

    def defer(self, outputs: list, sink: Sink) -> list:
        """The outputs to render now; the others follow the published site."""
        return outputs

    def names(self) -> list[str]:
        """The search files of the site, once they are there."""
        return []

    def published(self, sink: Sink) -> None:
        """The site is published: start what follows it."""

    def cancel(self) -> None:
        """A stage failed: drop this pass's work."""

    def busy(self) -> bool:
        """Whether this pass's work holds a process of its own now (the index's child: a core, and a copy of
        each page of this process's memory that either writes to)."""
        return False


class Alongside(Schedule):
    def __init__(self) -> None:
        self._pending: Pending | None = None

    def start(self, search: SearchInput, sink: Sink, store: BuildCache, executor: Executor, fresh: bool) -> None:
        self._pending = start_search_files(search.papers, search.tag_urls, sink, store, executor, names=search.names)

    def names(self) -> list[str]:
        pending, self._pending = self._pending, None
        return pending() if pending is not None else []

    def busy(self) -> bool:
        return self._pending is not None and self._pending.running

    def cancel(self) -> None:
        # Stops the child before the staging folder it writes into is removed.
        if self._pending is not None:
            self._pending.cancel()
        self._pending = None


@dataclass
class _Job:
    """What one pass hands the background."""

    search: SearchInput
    needed: bool  # the index must be made again
    later: list = field(default_factory=list)  # outputs rendered with it
    relate: Callable[[], Related] | None = None

    def __call__(self) -> tuple[dict[str, bytes], list[str], Related | None]:
        files = search_files(self.search.papers, self.search.tag_urls, self.search.names)
        names = list(files)  # the search files: their names depend on the papers
        files.update({output.path: output.render() for output in self.later})
        return files, names, self.relate() if self.relate else None


class Background(Schedule):
    """``on_ready`` is told the job's lag, ``on_related`` the related papers it worked out (LiveSite)."""

    def __init__(self) -> None:
        self.on_ready: Callable[[float], None] | None = None
        self.on_related: Callable[[Related], None] | None = None
        self.lag: float | None = None  # seconds from publish to the last job's files in the site
        self._job: _Job | None = None
        self._names: list[str] = []  # the search files the last job added to the site (they depend on the papers)
        self._runner = BackgroundRunner()
        self._generation = 0
        self._lock = threading.Lock()

    def start(self, search: SearchInput, sink: Sink, store: BuildCache, executor: Executor, fresh: bool) -> None:
        with self._lock:
            names = list(self._names)
        self._job = _Job(search, fresh or not names or not all(sink.has(name) for name in names))

    def relate_later(self, relate: Callable[[], Related]) -> bool:
        assert self._job is not None
        self._job.relate = relate
        return True

    def defer(self, outputs: list, sink: Sink) -> list:
        # A whole-volume file the site has is served as it was until the job's version replaces it.
        assert self._job is not None
        now = [o for o in outputs if o.deps is not None or not sink.has(o.path)]
        self._job.later = [o for o in outputs if o.deps is None and sink.has(o.path)]
        return now

    def names(self) -> list[str]:
        with self._lock:
            return list(self._names)

    def published(self, sink: Sink) -> None:
        job, self._job = self._job, None
        if job is None or not (job.needed or job.relate):
            return
        with self._lock:
            self._generation += 1  # the job still running, if any, is stale: it is killed
            generation = self._generation
        start = time.perf_counter()

        def done(result: tuple[dict[str, bytes], list[str], Related | None]) -> None:
            files, names, related = result
            with self._lock:
                if generation != self._generation:
                    return
                sink.add(files, gone=set(self._names) - set(names))  # no shard of an index cut again lingers
                self._names = names
            self.lag = time.perf_counter() - start
            if self.on_ready:
                self.on_ready(self.lag)
            if related is not None and self.on_related:
                self.on_related(related)

        self._runner.submit(job, done)

    def cancel(self) -> None:
        self._job = None

    def wait(self) -> None:
        self._runner.wait()

    def stop(self) -> None:
        self._runner.stop()


def schedule_for(options: Options) -> Schedule:
    """The schedule ``Options`` ask for."""
    if not options.search:
        return Schedule()
    return Background() if options.background_search else Alongside()
