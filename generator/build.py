"""The build, as a table of contents of named, timed stages.

load config → read lists → sync pages → parse pages → render abstracts →
render templates → write the site. Per-paper problems are collected and
reported together; config, theme and output problems stop the build and
leave the previous site untouched.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from collections.abc import Sequence
from typing import Callable, TypeVar

from generator.background import map_chunks, map_in_parallel
from generator.cache import BuildCache, EntryCache, from_rendered_record, paper_key, rendered_record
from generator.config import Config, load_config
from generator.errors import ContentError, Diagnostic, ProceedingsError, shown
from generator.latex import AbstractRenderer
from generator.merge import Change, Derived, Deriver, SyncPlan, plan_sync
from generator.model import Entry, Paper, RenderedPaper, SourceList, VolumeInfo
from generator.output import Staging, check_replaceable, publish_site, staged_site
from generator.files import last_good_pages, linked_files, static_files
from generator.pages import PAGES_DIR, PageDoc, page_paths, read_page, to_paper, unknown_keys
from generator.publish import Publication
from generator.reporter import Reporter
from generator.related import related_ids
from generator.search import start_search_files
from generator.site import SiteInfo, SiteRenderer, author_count, tag_urls
from generator.sources import READERS, find_sources, links_out, read_source
from generator.sources.duplicates import drop_duplicates
from generator.tagging import TAXONOMY_FILE, Taxonomy, load_taxonomy
from generator.theme import Theme
from generator.titles import title_candidates

T = TypeVar("T")


@dataclass
class BuildResult:
    papers: int = 0
    files: int = 0
    changes: list[Change] = field(default_factory=list)


@dataclass(frozen=True)
class Project:
    """Everything read from the content directory before any page is written."""

    content_dir: Path
    config: Config
    sources: list[SourceList]
    taxonomy: Taxonomy
    renderer: AbstractRenderer


class Stages:
    """Runs named stages and reports how long each took."""

    def __init__(self, reporter: Reporter):
        self.reporter = reporter

    def __call__(self, name: str, func: Callable[..., T], *args, **kwargs) -> T:
        start = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            self.reporter.stage(name, time.perf_counter() - start)


def build(content_dir: Path, out_dir: Path, reporter: Reporter, base_url: str | None = None,
          jobs: int | None = None, cache: bool = True, series: str = "") -> BuildResult:
    """``series``: the title of the archive this volume is built into (archive.py), linked from its pages."""
    stage = Stages(reporter)
    jobs = jobs or os.cpu_count() or 1
    project = stage("load project", load_project, content_dir, reporter, base_url)
    if series:
        project = replace(project, config=replace(project.config, series=series))
    check_replaceable(out_dir, content_dir)
    docs = stage("read pages", read_pages, content_dir, jobs)
    plan = stage("sync pages", sync_pages, project, reporter, apply=True, docs=docs, jobs=jobs)
    papers = stage("parse pages", parse_pages, content_dir, reporter, unchanged(docs, plan))
    del docs
    store = BuildCache.for_content(content_dir, enabled=cache)  # work unchanged since the last build
    renders = EntryCache(store, "abstracts", repr(project.config))
    rendered = stage("render abstracts", render_papers, papers, project.renderer, reporter, jobs, renders)
    # Files go to disk as they are made, published at the end; another build into out_dir waits its turn.
    with staged_site(out_dir, reporter.info) as staging:
        # The search index is built on another core while papers are related and templates render.
        search = start_search_files(rendered, tag_urls(rendered), staging, store, parallel=jobs > 1,
                                    names=topic_names(project))
        try:
            related = stage("relate papers", related_ids, rendered, cache=store, jobs=jobs)
            renderer = site_renderer(project, rendered, warn=reporter.warn, related=related)
            names = stage("render templates", render_outputs, renderer.outputs(rendered), staging, reporter, jobs)
            names += stage("search index", search)
        finally:
            search.cancel()  # a failed stage: stop the child before the staging folder goes
        for name, data in last_good_pages(content_dir, out_dir, papers, set(names), reporter).items():
            staging.write(name, data)
            names.append(name)
        static = static_files(content_dir, set(names))
        static.update(linked_files(content_dir, [r.paper for r in rendered], set(names), reporter))
        stage("write site", publish_site, staging, static)
    return BuildResult(papers=len(rendered), files=len(names) + len(static), changes=plan.changes)


def load_project(content_dir: Path, reporter: Reporter, base_url: str | None = None,
                 incoming: Path | None = None) -> Project:
    """Config, source lists and taxonomy: the parts of the content that are not pages.

    ``incoming`` (``import``) is a source kept elsewhere: it takes the place of the content folder's
    file of the same name, which is then not read, and the folder need not exist yet.
    """
    if content_dir.is_file():
        raise ContentError("is a file, not a content folder: to make a site from a source file, import it "
                           f"into a folder first (`proceedings import {content_dir} --content FOLDER`), "
                           "then build that folder", path=content_dir)
    if not content_dir.is_dir() and incoming is None:
        raise ContentError("no such content folder (give the folder holding your sources with --content, "
                           "or start one with `proceedings new` or `proceedings import FILE`)", path=content_dir)
    config = load_config(content_dir, reporter.report, base_url)
    paths = {path.name: path for path in find_sources(content_dir)} if content_dir.is_dir() else {}
    if content_dir.is_dir():
        report_links_out(content_dir, reporter)
    if incoming is not None:
        paths[incoming.name] = incoming
    sources = [read_source(path, name) for name, path in sorted(paths.items())]
    for source in sources:
        for diagnostic in source.diagnostics:
            reporter.report(diagnostic)
    sources, repeats = drop_duplicates(sources)
    for diagnostic in repeats:
        reporter.report(diagnostic)
    return Project(content_dir, config, sources, load_taxonomy(content_dir), AbstractRenderer(config.macros))


def read_pages(content_dir: Path, jobs: int = 1) -> dict[Path, PageDoc]:
    """Every page, read and its front matter parsed (on ``jobs`` cores: YAML is most of a warm build's reading)."""
    paths = page_paths(content_dir)

    def read_share(share: list[Path]) -> list[PageDoc]:
        return [read_page(path, path.relative_to(content_dir)) for path in share]

    return dict(zip(paths, map_in_parallel(read_share, paths, jobs if len(paths) >= 2_000 else 1)))


def unchanged(docs: dict[Path, PageDoc], plan: SyncPlan) -> dict[Path, PageDoc]:
    """The pages read before the sync that the sync did not touch."""
    touched = {change.path for change in plan.changes}
    return {path: doc for path, doc in docs.items() if path not in touched}


def sync_pages(project: Project, reporter: Reporter, apply: bool, docs: dict[Path, PageDoc] | None = None,
               deriver: Deriver | None = None, jobs: int = 1) -> SyncPlan:
    """Bring the Markdown pages in step with the sources (see merge.py)."""
    pages = list((docs if docs is not None else read_pages(project.content_dir)).values())
    plan = plan_sync(project.content_dir, project.sources, pages, deriver or make_deriver(project, reporter, jobs),
                     tags_version(project))
    for diagnostic in plan.diagnostics:
        reporter.report(diagnostic)
    if apply:
        plan.apply()
    return plan


def make_deriver(project: Project, reporter: Reporter, jobs: int = 1) -> Deriver:
    """Titles and tags for new or changed entries, on ``jobs`` cores (the slow part of a first build)."""

    def derive_chunk(entries: list[Entry]) -> list[tuple[Derived, bool]]:
        return [derive_one(project, entry) for entry in entries]

    def derive(entries: Sequence[Entry]) -> list[Derived]:
        workers = jobs if len(entries) >= 500 else 1
        results = map_in_parallel(derive_chunk, list(entries), workers)
        for entry, (derived, fell_back) in zip(entries, results):
            if fell_back:
                taxonomy = project.taxonomy
                reporter.warn(f"no tag of {taxonomy.name} matches “{derived.title}”; tagged it {taxonomy.fallback!r} "
                              f"(give keywords in the source, add {TAXONOMY_FILE}, or set `auto_tags: never`)",
                              entry.source, entry.line)
        return [derived for derived, _ in results]

    return derive


def derive_one(project: Project, entry: Entry) -> tuple[Derived, bool]:
    """An entry's title candidates and tags, and whether no taxonomy tag matched.

    A title the source gives is kept. Keywords the source gives are the tags; the taxonomy adds
    its own as ``auto_tags`` says: to papers without keywords (missing), to all (always), or never.
    """
    plain = project.renderer.render(entry.text).plain
    candidates = [entry.title] if entry.title else title_candidates(plain)
    mode = project.config.auto_tags
    if mode == "never" or (mode == "missing" and entry.keywords):
        return Derived(candidates[0], entry.keywords, tuple(candidates[1:]), given=bool(entry.title)), False
    tags = project.taxonomy.tags_for(entry.title or candidates[0], plain)
    fell_back = tags == (project.taxonomy.fallback,)
    if entry.keywords:
        tags = tuple(dict.fromkeys((*entry.keywords, *(() if fell_back else tags))))
        fell_back = False
    return Derived(candidates[0], tags, tuple(candidates[1:]), given=bool(entry.title)), fell_back


def tags_version(project: Project) -> str:
    """What the tool's tags depend on besides the entry: the taxonomy and ``auto_tags``; when it
    changes, pages whose tags are the tool's are tagged again."""
    return f"{project.taxonomy.version}/{project.config.auto_tags}"


def report_links_out(content_dir: Path, reporter: Reporter) -> None:
    """Sources and pages that are symlinks out of the content folder: not read, and said so."""
    root = content_dir.resolve()
    found = [p for p in links_out(content_dir, root, "*") if p.suffix.lower() in READERS]
    found += links_out(content_dir / PAGES_DIR, root, "*.md")
    for path in found:
        reporter.warn("is a link to a file outside the content folder; not read (copy the file in instead)",
                      path.relative_to(content_dir))


def parse_pages(content_dir: Path, reporter: Reporter, known: dict[Path, PageDoc] | None = None) -> list[Paper]:
    """Validate every page; a bad page is reported and left out, the rest go on.

    ``known`` holds pages already read (and unchanged since), to avoid reading them twice.
    """
    papers = []
    for path in page_paths(content_dir):
        try:
            papers.append(parse_page(path, content_dir, reporter, (known or {}).get(path)))
        except ProceedingsError as exc:
            reporter.report(Diagnostic.from_error(exc))
    return unique_papers(papers, reporter)


def parse_page(path: Path, content_dir: Path, reporter: Reporter, doc: PageDoc | None = None) -> Paper:
    display = path.relative_to(content_dir)
    doc = doc or read_page(path, display)
    paper = to_paper(doc, display, reporter.warn)
    for key in unknown_keys(doc):
        reporter.warn(f"unknown front matter key {shown(key)}", display, doc.lines.get(key))
    return paper


def unique_papers(papers: list[Paper], reporter: Reporter) -> list[Paper]:
    """Papers in proceedings order; a page repeating another's slug or id is an error (the first wins)."""
    owners: dict[tuple[str, str], Path] = {}
    kept = []
    for paper in sorted(papers, key=lambda p: p.path.name):
        clash = next(((field, value) for field, value in (("slug", paper.slug), ("id", paper.id))
                      if (field, value) in owners), None)
        if clash:
            field, value = clash
            line = read_page(paper.path).lines.get(field)  # only on this rare path: read it again
            reporter.error(f"{field} {value!r} is already the {field} of {owners[clash].name}",
                           f"{PAGES_DIR}/{paper.path.name}", line)
            continue
        owners[("slug", paper.slug)] = owners[("id", paper.id)] = paper.path
        kept.append(paper)
    return sorted(kept, key=lambda p: (p.order, p.source, p.id))


def render_outputs(outputs: list, staging: Staging, reporter: Reporter, jobs: int = 1) -> list[str]:
    """Render every output into the staging folder, on ``jobs`` cores; return their names.

    The files made from the whole volume (deps None: the .bib, feed, sitemap, papers.json)
    come first, in this process: the .bib makes every paper's citation, which this
    process's paper pages then reuse, so it takes a smaller share of the pages.
    """
    whole = [output for output in outputs if output.deps is None]
    ordered = whole + [output for output in outputs if output.deps is not None]
    workers = jobs if len(ordered) >= 500 else 1

    def render_chunk(chunk: list) -> list[str]:
        for done, output in enumerate(chunk, start=1):
            staging.write(output.path, output.render())
            # The first chunk renders in this process; the others keep pace with it.
            reporter.progress("render templates", min(done * workers, len(ordered)), len(ordered))
        return [output.path for output in chunk]

    if workers < 2:
        return render_chunk(ordered)
    first = len(whole) + (len(ordered) - len(whole)) * 2 // (3 * workers)
    rest = ordered[first:]
    size = max(1, -(-len(rest) // (workers - 1)))
    chunks = [ordered[:first]] + [rest[i : i + size] for i in range(0, len(rest), size)]
    return [name for names in map_chunks(render_chunk, chunks) for name in names]


def render_papers(papers: list[Paper], renderer: AbstractRenderer, reporter: Reporter,
                  jobs: int = 1, cache: EntryCache | None = None) -> list[RenderedPaper]:
    """Render every title and abstract, on ``jobs`` cores; problems become warnings.

    With a ``cache`` (records keyed by a digest of the whole ``Paper``), a paper rendered
    by an earlier build with the same renderer is not rendered again.
    """
    keys = [paper_key(paper) for paper in papers] if cache else []
    found = [cache.get(key) for key in keys] if cache else [None] * len(papers)
    results = [None if record is None else from_rendered_record(paper, record, RenderedPaper, Diagnostic)
               for paper, record in zip(papers, found)]
    missing = [paper for paper, result in zip(papers, results) if result is None]

    def render_chunk(chunk: list[Paper]) -> list[tuple[RenderedPaper, list[Diagnostic]]]:
        done_here = []
        for done, paper in enumerate(chunk, start=1):
            local = Reporter()
            done_here.append((render_paper(paper, renderer, local), local.diagnostics))
            # Only the first chunk renders in this process; the others keep pace with it.
            reporter.progress("render abstracts", min(done * workers, len(missing)), len(missing))
        return done_here

    workers = jobs if len(missing) >= 500 else 1
    fresh = iter(map_in_parallel(render_chunk, missing, workers))
    rendered = []
    for index, result in enumerate(results):
        if result is None:
            result = next(fresh)
            if cache:
                cache.put(keys[index], rendered_record(*result))
        paper, diagnostics = result
        rendered.append(paper)
        for diagnostic in diagnostics:
            reporter.report(diagnostic)
    if cache:
        cache.save()
    return rendered


def render_paper(paper: Paper, renderer: AbstractRenderer, reporter: Reporter) -> RenderedPaper:
    title = renderer.render_inline(paper.title)
    abstract = renderer.render(paper.abstract)
    for problem in title.problems + abstract.problems:
        reporter.warn(f"{problem.message} in “{title.plain}”", _page_name(paper))
    return RenderedPaper(paper, title.html, title.plain, abstract.html, abstract.plain)


def _page_name(paper: Paper) -> str:
    return f"{PAGES_DIR}/{paper.path.name}"


def site_renderer(project: Project, papers: list[RenderedPaper], env=None, warn=None,
                  related: dict[str, tuple[str, ...]] | None = None) -> SiteRenderer:
    """The template renderer with the volume's citations and related papers.

    Pass the ``env`` of an earlier renderer to skip recompiling templates, and
    ``related`` (paper id → related ids) to reuse related papers already worked out.
    """
    site = site_info(project, papers)
    publication = Publication(papers, site, project.config, warn, related=related)
    return SiteRenderer(Theme.for_content(project.content_dir), project.config, site, env, publication,
                        topic_names(project))


def topic_names(project: Project) -> dict[str, str]:
    """Tag name → the name readers see, in the configured language (the taxonomy's ``names``)."""
    return project.taxonomy.names_for(project.config.language)


def site_info(project: Project, papers: list[RenderedPaper]) -> SiteInfo:
    config = project.config
    title = config.title or next((s.title for s in project.sources if s.title), None) or "Proceedings"
    volume = next((s.volume for s in project.sources if s.volume.title), VolumeInfo())
    date = config.date or volume.date
    return SiteInfo(
        title=title,
        description=config.description,
        language=config.language,
        base_url=config.base_url,
        date=date.isoformat() if date else "",
        paper_count=len(papers),
        author_count=author_count(papers),
        source_volume=volume,
        series=config.series,
    )
