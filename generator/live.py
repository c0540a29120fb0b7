"""A site kept in memory between builds, rebuilt incrementally on change.

The dev server holds a ``LiveSite``. Its first build is a full build; after
that, ``rebuild`` takes the changed paths, classifies them, and redoes only
what depends on them: an edited paper re-renders the files whose ``deps``
name it (its page, its neighbours, its home and topic pages); a template
re-renders every page from cached abstracts; a list or the config reloads
the project. Files whose bytes did not change are not rewritten. The search
index is rebuilt afterwards, in the background, and its lag reported.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from generator.build import (Project, load_project, page_paths, parse_page, render_paper, site_renderer,
                             static_files, sync_pages, unique_papers)
from generator.changes import Classifier, Kind, Scan, diff, scan
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

    def summary(self) -> str:
        if self.failed:
            return f"rebuild failed ({', '.join(self.kinds)}) in {self.seconds * 1000:.0f} ms; still serving the last good site"
        what = ", ".join(self.kinds) or "nothing"
        errors = sum(d.level == "error" for d in self.diagnostics)
        shown = f"; {errors} errors shown in the browser" if errors else ""
        return (f"rebuilt ({what}): {self.rendered} files rendered, {self.written} written, "
                f"{self.removed} removed in {self.seconds * 1000:.0f} ms{shown}")


class LiveSite:
    def __init__(self, content_dir: Path, out_dir: Path, base_url: str | None = None):
        self.content_dir = content_dir.resolve()
        self.out_dir = out_dir
        self.base_url = base_url
        self.files: dict[str, bytes] = {}  # the served site; replaced whole, never mutated
        self._generated: dict[str, bytes] = {}  # rendered pages and search files
        self._static: dict[str, bytes] = {}  # theme files under assets/
        self.errors: list[Diagnostic] = []  # problems of the last rebuild, shown in the browser
        self.search_lag: float | None = None
        self._project: Project | None = None
        self._papers: dict[Path, RenderedPaper] = {}  # last good rendering of each page
        self._outputs: dict[str, Output] = {}
        self._scan: Scan = {}
        self._lock = threading.Lock()
        self._search_thread: threading.Thread | None = None
        self._pending_search: list[RenderedPaper] | None = None

    # -- watching -----------------------------------------------------------

    def watched_roots(self) -> list[Path]:
        roots = [self.content_dir, default_theme_dir().resolve()]
        return sorted(set(roots))

    def classifier(self) -> Classifier:
        theme = Theme.for_content(self.content_dir)
        return Classifier(self.content_dir, tuple(d.resolve() for d in theme.template_dirs),
                          tuple(d.resolve() for d in theme.static_dirs))

    def poll(self) -> set[Path]:
        """Paths changed since the last look."""
        current = scan(self.watched_roots())
        changed = diff(self._scan, current)
        self._scan = current
        return changed

    # -- building -----------------------------------------------------------

    def build_all(self) -> Rebuild:
        """The first build: everything, written with the atomic swap."""
        self._scan = scan(self.watched_roots())
        return self._run(["full build"], lambda reporter: self._full(reporter), swap=True)

    def rebuild(self, changed: set[Path]) -> Rebuild:
        grouped = self.classifier().kinds(changed)
        grouped.pop(Kind.OTHER, None)
        if not grouped:
            return Rebuild([], 0.0)
        kinds = sorted(kind.value for kind in grouped)
        return self._run(kinds, lambda reporter: self._incremental(grouped, reporter))

    def _run(self, kinds: list[str], step, swap: bool = False) -> Rebuild:
        start = time.perf_counter()
        self.wait_for_search()  # its files join self._generated before we build on it
        reporter = Reporter()
        try:
            files, rendered = step(reporter)
        except ProceedingsError as exc:
            reporter.report(Diagnostic.from_error(exc))
            self.errors = reporter.errors
            return Rebuild(kinds, time.perf_counter() - start, diagnostics=reporter.diagnostics, failed=True)
        result = Rebuild(kinds, 0.0, rendered=rendered, diagnostics=reporter.diagnostics)
        if swap:
            check_replaceable(self.out_dir, self.content_dir)
            write_site(self.out_dir, files, {})
            result.written = len(files)
        else:
            result.written, result.removed = write_changed(self.out_dir, self.files, files)
        self.files = files
        self.errors = reporter.errors
        self._scan = scan(self.watched_roots())  # our own writes (synced pages) are not edits
        result.seconds = time.perf_counter() - start
        self._refresh_search()
        return result

    def _full(self, reporter: Reporter) -> tuple[dict[str, bytes], int]:
        project = load_project(self.content_dir, reporter, self.base_url)
        sync_pages(project, reporter, apply=True)
        self._project = project
        self._papers = {}
        self._reparse(set(page_paths(self.content_dir)), reporter)
        return self._render(reporter, everything=True, changed_ids=set())

    def _incremental(self, grouped: dict[Kind, set[Path]], reporter: Reporter) -> tuple[dict[str, bytes], int]:
        if self._project is None or Kind.CONFIG in grouped or Kind.LIST in grouped:
            before = scan([self.content_dir])
            project = load_project(self.content_dir, reporter, self.base_url)
            sync_pages(project, reporter, apply=True)
            synced = diff(before, scan([self.content_dir]))
            if Kind.CONFIG in grouped:  # macros or taxonomy may change any page
                self._project, self._papers = project, {}
                self._reparse(set(page_paths(self.content_dir)), reporter)
                return self._render(reporter, everything=True, changed_ids=set())
            self._project = project
            grouped.setdefault(Kind.PAGE, set()).update(p for p in synced if p.suffix == ".md")
        changed_ids = self._reparse(grouped.get(Kind.PAGE, set()), reporter)
        everything = Kind.TEMPLATE in grouped or Kind.STATIC in grouped
        return self._render(reporter, everything=everything, changed_ids=changed_ids)

    def _reparse(self, paths: set[Path], reporter: Reporter) -> set[str]:
        """Re-read these pages; a broken page keeps its last good rendering."""
        assert self._project is not None
        changed: set[str] = set()
        for path in sorted(paths):
            old = self._papers.get(path)
            if not path.exists():
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

    def _render(self, reporter: Reporter, everything: bool, changed_ids: set[str]) -> tuple[dict[str, bytes], int]:
        assert self._project is not None
        kept = unique_papers([r.paper for r in self._papers.values()], reporter)
        by_id = {r.paper.id: r for r in self._papers.values()}
        papers = [by_id[p.id] for p in kept]
        outputs = {o.path: o for o in site_renderer(self._project, papers).outputs(papers)}
        everything = everything or _shape(outputs) != _shape(self._outputs)
        generated = {k: v for k, v in self._generated.items() if k in outputs or _is_search_file(k)}
        redo = [o for o in outputs.values()
                if everything or o.path not in generated or o.deps is None or o.deps & changed_ids]
        for output in redo:
            generated[output.path] = output.render()
        if everything:
            self._static = {name: path.read_bytes() for name, path in static_files(self.content_dir, {}).items()}
        self._outputs, self._generated = outputs, generated
        if everything or changed_ids:
            self._pending_search = papers
        return {**self._static, **generated}, len(redo)

    # -- search ---------------------------------------------------------------

    def _refresh_search(self) -> None:
        """Rebuild the search index after the pages are served, and time the lag."""
        papers, self._pending_search = self._pending_search, None
        if papers is None:
            return
        start = time.perf_counter()

        def work():
            generated = search_files(papers, tag_urls(papers))
            with self._lock:
                changed = {k: v for k, v in generated.items() if self._generated.get(k) != v}
                if changed:
                    self._generated = {**self._generated, **changed}
                    self.files = {**self.files, **changed}
                    write_changed(self.out_dir, {}, changed, remove=False)
            self.search_lag = time.perf_counter() - start

        self._search_thread = threading.Thread(target=work, name="search-index", daemon=True)
        self._search_thread.start()

    def wait_for_search(self) -> None:
        if self._search_thread:
            self._search_thread.join()


def _is_search_file(path: str) -> bool:
    return path in (INDEX_JS, LUNR_JS)


def _shape(outputs: dict[str, Output]) -> list[tuple[str, frozenset[str] | None]]:
    """Which files exist and what each depends on: if this moves, render everything."""
    return sorted((path, o.deps) for path, o in outputs.items())
