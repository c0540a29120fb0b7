"""A site kept in memory between builds, rebuilt incrementally on change.

The dev server holds a ``LiveSite``: the build's pipeline (pipeline/stages.py) with a
``MemorySink``, its ``Run`` kept between passes. The first pass is a full build;
after that, ``rebuild`` classifies the changed paths and reruns from the first
stage they invalidate: an edited paper is read, parsed and rendered again and
re-renders the files whose ``deps`` name it (its page, its neighbours, its home
and topic pages) — when it keeps its place in every list, those files alone are
listed, not the whole site (pipeline/listing.py); a template re-renders every
page from the rendered abstracts;
a list or the config reloads the project. Files whose bytes did not change are
not rewritten. The search index follows in the background (the pipeline's
``Background`` schedule, pipeline/schedule.py); its lag is reported.
"""

from __future__ import annotations

import gc
import time
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from generator.content.changes import Classifier, Kind
from generator.errors import Diagnostic, ProceedingsError
from generator.content.pages import PAGES_DIR
from generator.model.details import site_path_problem
from generator.derive.people_file import Rules
from generator.pipeline.stages import OUTPUTS, STAGE_NAMES, Options, Pass, Pipeline, first_stage
from generator.pipeline.listing import moved_lists
from generator.pipeline.state import Run
from generator.reporter import Reporter
from generator.pipeline.schedule import Background
from generator.pipeline.sinks import MemorySink
from generator.render.theme import Theme, default_theme_dir


@dataclass
class Rebuild:
    """What one rebuild did, for the console line and the tests."""

    kinds: list[str]
    seconds: float
    rendered: int = 0
    listed: int = 0  # files listed to choose those rendered from (pipeline/listing.py)
    written: int = 0
    removed: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    failed: bool = False
    cleared: bool = False  # the last rebuild's errors are gone (a broken edit undone): the banner must go

    @property
    def changed_anything(self) -> bool:
        return self.failed or self.cleared or bool(self.written or self.removed or self.diagnostics)

    def summary(self) -> str:
        if self.failed:
            return (f"rebuild failed ({', '.join(self.kinds)}) in {self.seconds * 1000:.0f} ms; "
                    "still serving the last good site")
        errors = sum(d.level == "error" for d in self.diagnostics)
        shown = f"; {errors} errors shown in the browser" if errors else ""
        return (f"rebuilt ({', '.join(self.kinds) or 'nothing'}): {self.rendered} files rendered of "
                f"{self.listed} listed, {self.written} written, {self.removed} removed "
                f"in {self.seconds * 1000:.0f} ms{shown}")


class LiveSite:
    def __init__(self, content_dir: Path, out_dir: Path, base_url: str | None = None,
                 on_search_ready: Callable[[float], None] | None = None, series: str = "",
                 people: Rules | None = None):
        self.content_dir = content_dir.resolve()
        self.out_dir = out_dir
        self.sink = MemorySink(out_dir)
        self.pipeline = Pipeline(self.content_dir, self.sink, Options(base_url=base_url, keep=True, series=series,
                                                                      people=people or Rules(), background_search=True))
        background = self.pipeline.schedule
        assert isinstance(background, Background)
        self.background = background
        self.background.on_ready, self.background.on_related = on_search_ready, self._related_ready
        self.errors: list[Diagnostic] = []  # problems of the last rebuild, shown in the browser
        # The problems found the last time the pages were read: a pass that starts after them (a template,
        # related papers settled) does not see them again, and they still stand.
        self._page_errors: list[Diagnostic] = []
        self._related: dict[str, tuple[str, ...]] | None = None  # worked out in the background, not yet shown

    @property
    def files(self) -> dict[str, bytes]:
        """The served site."""
        return self.sink.files

    @property
    def search_lag(self) -> float | None:
        return self.background.lag

    def watched_roots(self) -> list[Path]:
        return sorted({self.content_dir, default_theme_dir().resolve()})

    def classifier(self) -> Classifier:
        theme = Theme.for_content(self.content_dir)
        return Classifier(self.content_dir, tuple(d.resolve() for d in theme.template_dirs),
                          tuple(d.resolve() for d in theme.static_dirs))

    def build_all(self) -> Rebuild:
        """The first build: everything."""
        return self._run(["full build"], "project", Pass(everything=True))

    def rebuild(self, changed: set[Path]) -> Rebuild:
        grouped = self.classifier().kinds(changed | self._links_to(changed))
        other = [path for path in grouped.pop(Kind.OTHER, ()) if self._document(path)]
        if not grouped and other:  # a document a paper may link to, replaced or copied in: published as a build does
            return self._run([Kind.OTHER.value], "publish", Pass())
        if not grouped:
            return Rebuild([], 0.0)
        start, now = first_stage(set(grouped))
        now.pages = grouped.get(Kind.PAGE, set())
        return self._run(sorted(kind.value for kind in grouped), start, now)

    def _document(self, path: Path) -> bool:
        """Whether ``path`` may be a document a paper links to by path (a PDF, slides…), which the build
        publishes: not a folder's own event, nor a cache's or an editor's litter, nor a hidden file."""
        try:
            name = path.relative_to(self.content_dir).as_posix()
        except ValueError:
            return False
        return not path.is_dir() and not site_path_problem(name)

    def _links_to(self, changed: set[Path]) -> set[Path]:
        """The sources and pages that are links to a changed file within the folder: the build reads them
        through the link, so they changed too (the watcher names the file, not the link)."""
        candidates = [*self.content_dir.iterdir(), *(self.content_dir / PAGES_DIR).glob("*.md")]
        links = set()
        for path in candidates:
            if path.is_symlink() and path.resolve() in changed:
                links.add(path)
        return links

    def _related_ready(self, related: dict[str, tuple[str, ...]]) -> None:
        self._related = related  # called from the background job's thread: settle() shows it

    def settle(self) -> Rebuild | None:
        """Show the related papers the background worked out after the last edit (a small edit serves
        its page at once with the related papers of before): then the site is the one ``build`` makes."""
        related, self._related = self._related, None
        if related is None or keep_related(self.pipeline.state, related):
            return None
        return self._run(["related papers"], OUTPUTS, Pass(related=related))

    def _run(self, kinds: list[str], start: str, now: Pass) -> Rebuild:
        began = time.perf_counter()
        reporter = Reporter()
        reads_pages = self.pipeline.state.project is None or STAGE_NAMES.index(start) <= STAGE_NAMES.index("papers")
        whole = self.pipeline.state.project is None or start == "project" or now.everything
        if whole:  # the last whole site's objects may be garbage now: the collector looks at them again
            gc.unfreeze()
        try:
            self.pipeline.run(reporter, start, now)
        except ProceedingsError as exc:
            reporter.report(Diagnostic.from_error(exc))
            self.errors = reporter.errors
            return Rebuild(kinds, time.perf_counter() - began, diagnostics=reporter.diagnostics, failed=True)
        if whole:  # out of its sight until the next whole pass (see freeze_whole_site)
            freeze_whole_site()
        result = Rebuild(kinds, time.perf_counter() - began, rendered=self.sink.rendered,
                         listed=self.pipeline.state.listed, written=self.sink.written, removed=self.sink.removed,
                         diagnostics=reporter.diagnostics)
        if reads_pages:
            self._page_errors = reporter.errors
        errors = reporter.errors if reads_pages else self._page_errors + reporter.errors
        result.cleared = bool(self.errors) and not errors
        self.errors = errors
        return result

    def wait_for_search(self) -> None:
        self.background.wait()

    def close(self) -> None:
        self.background.stop()
        gc.unfreeze()


def freeze_whole_site() -> None:
    """Move every object there is out of the garbage collector's sight (gc.freeze). A site is some tens of
    objects a paper: each full collection during a small edit scanned them all again, several a rebuild,
    holding the GIL, while the server's loop, in this process, could answer no one. Frozen,
    those collections see only what the rebuild made. Cyclic garbage among them waits for the next whole
    pass, which unfreezes them first."""
    gc.freeze()


def keep_related(state: Run, related: dict[str, tuple[str, ...]]) -> bool:
    """Take related papers worked out after the last pass if they move no paper's list: no page shows
    anything new, so no pass need run (on a large volume a pass takes the rebuild thread long enough to feel)."""
    if state.project is None or state.related is None or moved_lists(state.related, related):
        return False
    state.related = related
    if state.listing is not None:  # the next edit lists its files with these (pipeline/listing.py)
        state.listing = dataclasses.replace(state.listing, related=related)
    return True
