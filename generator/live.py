"""A site kept in memory between builds, rebuilt incrementally on change.

The dev server holds a ``LiveSite``. Its first build is a full build; after
that, ``rebuild`` takes the changed paths, classifies them, and redoes only
what depends on them: an edited paper re-renders the files whose ``deps``
name it (its page, its neighbours, its home and topic pages); a template
re-renders every page from cached abstracts; a list or the config reloads
the project. Files whose bytes did not change are not rewritten. The search
index follows in a background thread; its lag is reported separately.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import jinja2

from generator.background import BackgroundRunner
from generator.build import (Project, linked_files, load_project, page_paths, parse_page, render_paper, topic_names,
                             site_renderer, static_files, sync_pages, unique_papers)
from generator.changes import Classifier, Kind
from generator.errors import Diagnostic, ProceedingsError
from generator.model import RenderedPaper
from generator.output import check_replaceable, write_changed, write_site
from generator.reporter import Reporter
from generator.search import INDEX_JS, LUNR_JS, search_files
from generator.site import Output, tag_urls
from generator.theme import Theme, default_theme_dir


@dataclass
class Rebuild:
    """What one rebuild did, for the console line and the tests."""

    kinds: list[str]
    seconds: float
    rendered: int = 0
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
        return (f"rebuilt ({', '.join(self.kinds) or 'nothing'}): {self.rendered} files rendered, "
                f"{self.written} written, {self.removed} removed in {self.seconds * 1000:.0f} ms{shown}")


class LiveSite:
    def __init__(self, content_dir: Path, out_dir: Path, base_url: str | None = None,
                 on_search_ready: Callable[[float], None] | None = None):
        self.content_dir = content_dir.resolve()
        self.out_dir = out_dir
        self.base_url = base_url
        self.on_search_ready = on_search_ready
        self.files: dict[str, bytes] = {}  # the served site; replaced whole, never mutated
        self.errors: list[Diagnostic] = []  # problems of the last rebuild, shown in the browser
        self.search_lag: float | None = None
        self._project: Project | None = None
        self._env: jinja2.Environment | None = None
        self._papers: dict[Path, RenderedPaper] = {}  # last good rendering of each page
        self._outputs: dict[str, Output] = {}
        self._generated: dict[str, bytes] = {}  # rendered pages and search files
        self._static: dict[str, bytes] = {}  # theme files under assets/
        self._generation = 0
        self._deferred: list[Output] = []
        self._related: dict[str, tuple[str, ...]] | None = None
        self._lock = threading.Lock()
        self._background = BackgroundRunner()

    def watched_roots(self) -> list[Path]:
        return sorted({self.content_dir, default_theme_dir().resolve()})

    def classifier(self) -> Classifier:
        theme = Theme.for_content(self.content_dir)
        return Classifier(self.content_dir, tuple(d.resolve() for d in theme.template_dirs),
                          tuple(d.resolve() for d in theme.static_dirs))

    # -- building -----------------------------------------------------------

    def build_all(self) -> Rebuild:
        """The first build: everything, written with the atomic swap."""
        return self._run(["full build"], self._full, swap=True)

    def rebuild(self, changed: set[Path]) -> Rebuild:
        grouped = self.classifier().kinds(changed)
        grouped.pop(Kind.OTHER, None)
        if not grouped:
            return Rebuild([], 0.0)
        return self._run(sorted(kind.value for kind in grouped), lambda r: self._incremental(grouped, r))

    def _run(self, kinds: list[str], step, swap: bool = False) -> Rebuild:
        start = time.perf_counter()
        reporter = Reporter()
        try:
            rendered, papers = step(reporter)
        except ProceedingsError as exc:
            reporter.report(Diagnostic.from_error(exc))
            self.errors = reporter.errors
            return Rebuild(kinds, time.perf_counter() - start, diagnostics=reporter.diagnostics, failed=True)
        result = Rebuild(kinds, 0.0, rendered=rendered, diagnostics=reporter.diagnostics)
        with self._lock:  # the background job may be merging its files right now
            files = {**self._static, **self._generated}
            if swap:
                check_replaceable(self.out_dir, self.content_dir)
                write_site(self.out_dir, files, {})
                result.written = len(files)
            else:
                result.written, result.removed = write_changed(self.out_dir, self.files, files)
            result.cleared = bool(self.errors) and not reporter.errors
            self.files, self.errors = files, reporter.errors
        result.seconds = time.perf_counter() - start
        if papers is not None:
            self._refresh_deferred(papers)
        return result

    def _full(self, reporter: Reporter):
        self._load(reporter)
        self._papers, self._env = {}, None
        self._reparse(set(page_paths(self.content_dir)), reporter)
        return self._render(reporter, everything=True, changed_ids=set())

    def _incremental(self, grouped: dict[Kind, set[Path]], reporter: Reporter):
        if self._project is None or Kind.CONFIG in grouped:
            return self._full(reporter)  # macros, taxonomy or base URL may change any page
        if Kind.LIST in grouped:
            synced = self._load(reporter)
            grouped.setdefault(Kind.PAGE, set()).update(synced)
        if Kind.TEMPLATE in grouped:
            self._env = None
        changed_ids = self._reparse(grouped.get(Kind.PAGE, set()), reporter)
        everything = Kind.TEMPLATE in grouped or Kind.STATIC in grouped
        return self._render(reporter, everything=everything, changed_ids=changed_ids)

    def _load(self, reporter: Reporter) -> set[Path]:
        """Read config, lists and taxonomy, and sync the pages; return the pages it wrote."""
        project = load_project(self.content_dir, reporter, self.base_url)
        plan = sync_pages(project, reporter, apply=True)
        self._project = project
        return {change.path for change in plan.changes}

    def _reparse(self, paths: set[Path], reporter: Reporter) -> set[str]:
        """Re-read these pages; a broken page keeps its last good rendering."""
        assert self._project is not None
        changed: set[str] = set()
        allowed = set(page_paths(self.content_dir))  # never a symlink out of the content folder
        for path in sorted(paths):
            old = self._papers.get(path)
            if not path.exists() or path not in allowed:
                if old:
                    changed.add(old.paper.id)
                    del self._papers[path]
                continue
            try:
                paper = parse_page(path, self.content_dir, reporter)
            except ProceedingsError as exc:
                reporter.report(Diagnostic.from_error(exc))
                continue
            if old and old.paper == paper:
                continue
            self._papers[path] = render_paper(paper, self._project.renderer, reporter)
            changed |= {paper.id} | ({old.paper.id} if old else set())
        return changed

    def _render(self, reporter: Reporter, everything: bool, changed_ids: set[str]):
        assert self._project is not None
        kept = unique_papers([r.paper for r in self._papers.values()], reporter)
        by_id = {r.paper.id: r for r in self._papers.values()}
        papers = [by_id[p.id] for p in kept]
        # A small edit keeps the related papers worked out last time (5 s at 10,000 papers);
        # they are worked out afresh whenever every page is rendered anyway.
        renderer = site_renderer(self._project, papers, self._env, related=None if everything else self._related)
        outputs = {o.path: o for o in renderer.outputs(papers)}
        if not everything and _shape(outputs) != _shape(self._outputs):
            everything = True
            renderer = site_renderer(self._project, papers, self._env)
            outputs = {o.path: o for o in renderer.outputs(papers)}
        self._env = renderer.env
        self._related = renderer.publication.related_ids() if renderer.publication else None
        with self._lock:
            generated = {k: v for k, v in self._generated.items() if k in outputs or k in (INDEX_JS, LUNR_JS)}
        first = not self._generated
        redo = [o for o in outputs.values()
                if first or (o.deps is not None and (everything or o.path not in generated or o.deps & changed_ids))]
        for output in redo:
            generated[output.path] = output.render()
        self._deferred = [] if first else [o for o in outputs.values() if o.deps is None]
        if everything:
            static = static_files(self.content_dir, {})
            static.update(linked_files(self.content_dir, [p.paper for p in papers], outputs))
            self._static = {name: path.read_bytes() for name, path in static.items()}
        self._outputs = outputs
        deferred_paths = {o.path for o in self._deferred} | {INDEX_JS, LUNR_JS}
        with self._lock:  # keep what the background job merged while we rendered
            latest = {p: self._generated[p] for p in deferred_paths if p in self._generated and p in generated}
            self._generated = {**generated, **latest}
        search_needed = everything or bool(changed_ids)
        return len(redo), papers if search_needed else None

    # -- the search index and whole-site files, after the pages ------------------

    def _refresh_deferred(self, papers: list[RenderedPaper]) -> None:
        """Rebuild the search index (and papers.json) in the background; a newer build supersedes it."""
        with self._lock:
            self._generation += 1  # the job still running, if any, is stale: it is killed
            generation = self._generation
        start, deferred = time.perf_counter(), self._deferred
        names = topic_names(self._project) if self._project else {}

        def job() -> dict[str, bytes]:
            files = search_files(papers, tag_urls(papers), names)
            files.update({output.path: output.render() for output in deferred})
            return files

        def done(generated: dict[str, bytes]) -> None:
            with self._lock:
                if generation != self._generation:
                    return
                changed = {k: v for k, v in generated.items() if self._generated.get(k) != v}
                self._generated = {**self._generated, **changed}
                self.files = {**self.files, **changed}
                write_changed(self.out_dir, {}, changed, remove=False)
            self.search_lag = time.perf_counter() - start
            if self.on_search_ready:
                self.on_search_ready(self.search_lag)

        self._background.submit(job, done)

    def wait_for_search(self) -> None:
        self._background.wait()

    def close(self) -> None:
        self._background.stop()


def _shape(outputs: dict[str, Output]) -> dict[str, frozenset[str] | None]:
    """Which files exist and what each depends on: when this moves, render everything."""
    return {path: output.deps for path, output in outputs.items()}
