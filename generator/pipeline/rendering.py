"""The work inside the pipeline's stages: syncing pages, parsing them, rendering
abstracts and rendering outputs, each where the executor runs it (runtime/executor.py).

pipeline/stages.py says in which order they run and what a pass may skip; this module
does the work, the same for ``build``, ``serve`` and ``check``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
import dataclasses
import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.runtime.executor import INLINE, Executor
from generator.pipeline.shares import CLAIM_BATCH, Batches, Shares
from generator.runtime.sizes import Cost
from generator.runtime.cache import EntryCache
from generator.runtime.cache_records import from_rendered_record, paper_key, rendered_record
from generator.errors import Diagnostic, ProceedingsError, shown
from generator.latex import AbstractRenderer
from generator.content.merge import Deriver, SyncPlan, plan_sync
from generator.model.paper import Paper, RenderedPaper
from generator.content.pages import PAGES_DIR, PageDoc, is_page, read_pages, to_paper, unknown_keys
from generator.content.project import Project, make_deriver
from generator.derive.paper_map import Placed, paper_places
from generator.search.terms import remember, terms
from generator.publish import Publication
from generator.reporter import Reporter
from generator.render.html import SiteRenderer
from generator.render.programme import Programmed, calendar_site, personal, view as programme_view
from generator.programme.join import PaperTimes
from generator.programme.load import load_programme
from generator.programme.model import Programme
from generator.programme.readers import calendar_digest
from generator.text.i18n import interface
from generator.render.site_info import SiteInfo
from generator.render.people_topics import group_authors
from generator.render.theme import Theme
from generator.pipeline.sinks import Sink
from generator.pipeline.grouping import pages_by_block
from generator import diagnostics as codes

@dataclass(frozen=True)
class Rendered:
    """A paper as parsed, its rendering, and what rendering it said."""

    source: Paper
    paper: RenderedPaper
    diagnostics: tuple[Diagnostic, ...]


def sync_pages(project: Project, reporter: Reporter, docs: dict[Path, PageDoc], deriver: Deriver,
               apply: bool = True, executor: Executor = INLINE) -> SyncPlan:
    """Bring the Markdown pages in step with the sources (see content/merge.py); ``apply`` False only plans."""
    plan = plan_sync(project.content_dir, project.sources, list(docs.values()), deriver, project.tags_version())
    for diagnostic in plan.diagnostics:
        reporter.report(diagnostic)
    if apply:
        plan.apply(executor)
    return plan


@dataclass(frozen=True)
class Parsed:
    """A page as last read: its front matter, and the paper it made (None: it does not parse)."""

    doc: PageDoc
    paper: Paper | None
    diagnostics: tuple[Diagnostic, ...]


def parse_page(path: Path, content_dir: Path, doc: PageDoc) -> Parsed:
    """A page's front matter validated into a Paper, with what was wrong with it."""
    display = page_display(path, content_dir)
    local = Reporter()
    try:
        paper = to_paper(doc, display, local.warn)
    except ProceedingsError as exc:
        return Parsed(doc, None, (Diagnostic.from_error(exc),))
    for key in unknown_keys(doc):
        local.warn(f"unknown front matter key {shown(key)}", display, doc.lines.get(key), code=codes.PAGE_UNKNOWN_KEY,
                   subject=str(key))
    return Parsed(doc, paper, tuple(local.diagnostics))


def page_display(path: Path, content_dir: Path) -> Path:
    """``path.relative_to(content_dir)``: for a page of the content folder, made of its name (pathlib's
    ``relative_to`` was a sixth of parsing a page)."""
    folder, name = os.path.split(str(path))
    if folder == os.path.join(str(content_dir), PAGES_DIR):
        return Path(PAGES_DIR, name)
    return path.relative_to(content_dir)


def render_papers(papers: list[Paper], renderer: AbstractRenderer, reporter: Reporter, executor: Executor = INLINE,
                  cache: EntryCache | None = None, known: dict[Path, Rendered] | None = None,
                  pack: Callable[[RenderedPaper], RenderedPaper] | None = None, split: bool = False
                  ) -> dict[Path, Rendered]:
    """Every title and abstract rendered by the ``executor``; problems become warnings.

    A paper rendered by the last pass (``known``, by page) or by an earlier build (the ``cache``,
    keyed by a digest of the whole ``Paper``) is not rendered again. ``pack``: what each new rendering is
    kept as (a large volume's build packs its texts as each is made: pipeline/packed.py), not every one
    unpacked until the stage ends. ``split``: each new rendering's plain title and abstract are split into
    the search's words where it is made, on every core, and remembered (search/terms.py ``remember``) for
    related papers and the search index's forked child, which then split them no more.
    """
    keep: Callable[[RenderedPaper], RenderedPaper] = pack or (lambda rendered: rendered)
    known = known or {}
    results: dict[Path, Rendered] = {}
    for paper in papers:
        last = known.get(paper.path)
        if last is not None and (last.source is paper or last.source == paper):
            results[paper.path] = last
    keys = {paper.path: paper_key(paper) for paper in papers if paper.path not in results} if cache else {}
    by_key = {key: paper for paper in papers if (key := keys.get(paper.path)) is not None}
    # Taken: the entry keeps none of the records (a warm build rewrites no shard), the rendering its texts; a
    # shard at a time (``take_each``), so that a large volume's records are not all read before most are packed.
    for key, record in cache.take_each(by_key) if cache else ():
        paper = by_key[key]
        found = from_rendered_record(paper, record, RenderedPaper, Diagnostic) if record is not None else None
        if found is not None and paper.path not in results:  # (None: a record of another shape, rendered again)
            rendered, diagnostics = found
            results[paper.path] = Rendered(paper, keep(rendered), tuple(diagnostics))
    del by_key
    missing = [paper for paper in papers if paper.path not in results]

    def render_chunk(chunk: list[Paper]) -> list[tuple[Any, ...]]:
        # Each rendering less its paper: a worker's results carry no copy of the papers this process holds, nor
        # of an abstract's rendering its renderer kept from the sync (``_sent_texts``).
        done_here: list[tuple[Any, ...]] = []
        for paper in chunk:
            local = Reporter()
            rendered = render_paper(paper, renderer, local)
            words = (terms(rendered.title_plain), terms(rendered.abstract_plain)) if split else ()
            done_here.append((_sent_texts(rendered, renderer), local.diagnostics, *words))
        return done_here

    progress = functools.partial(reporter.progress, "render abstracts")
    if executor.fresh(len(papers)) and executor.workers(Cost.HEAVY, len(missing)) > 1:
        made = _fresh_renderings(missing, renderer, executor, render_chunk, progress)
    else:
        made = executor.map(render_chunk, missing, Cost.HEAVY, progress)
    for paper, done in zip(missing, made):
        texts, diagnostics = done[0], done[1]
        rendered = RenderedPaper(paper, *_texts(texts, paper, renderer))
        if len(done) > 2:  # split where it was rendered: (the title's words, the abstract's)
            remember(rendered.title_plain, done[2])
            remember(rendered.abstract_plain, done[3])
        results[paper.path] = Rendered(paper, keep(rendered), tuple(diagnostics))
        if cache:
            cache.put(keys[paper.path], rendered_record(rendered, diagnostics))
    if cache:
        cache.save()
    for paper in papers:
        for diagnostic in results[paper.path].diagnostics:
            reporter.report(diagnostic)
    return results


def split_words(parallel: bool, executor: Executor, papers: int) -> bool:
    """Whether the abstracts a build renders are split into words as they are rendered, once for related papers
    and the search index's child (``render_papers(split=True)``): a build whose workers write their share
    (``parallel``) on more than one core and whose index's process is forked from this one (not a large
    volume's fresh one, sent its records, nor none for a small volume). Serve's sink is not ``parallel``."""
    return parallel and executor.forks(papers) and executor.policy.beside(papers)


RenderChunk = Callable[[list[Paper]], list[tuple[Any, ...]]]  # (texts, diagnostics[, title's words, abstract's])


def _fresh_renderings(missing: list[Paper], renderer: AbstractRenderer, executor: Executor, render_chunk: RenderChunk,
                      progress: Callable[[int, int], None]) -> list[tuple[tuple[str, ...], list[Diagnostic]]]:
    """A large volume's renderings (``render_chunk``'s, in ``missing``'s order) made by this process and fresh
    ones (runtime/fresh.py), each claiming the next batch of papers as it frees up. A forked worker of a build
    this size came to hold a copy of most of the build's pages (each page either process writes to is then
    counted twice: 450 MB at 50,000 papers); a fresh one holds its renderer and the papers of its batch. This
    process renders first the papers whose rendering its renderer kept from the sync (found, not made again)."""
    found_here = [index for index, paper in enumerate(missing) if renderer.knows(paper.abstract)]
    others = [index for index, paper in enumerate(missing) if not renderer.knows(paper.abstract)]
    numbers = [others[i:i + CLAIM_BATCH] for i in range(0, len(others), CLAIM_BATCH)]
    batches = Batches([[missing[i] for i in batch] for batch in numbers])
    pendings = [executor.feed(render_abstracts_share, (), renderer.macros, papers=len(missing), claims=batches)
                for _ in range(executor.workers(Cost.HEAVY, len(missing)) - 1 if batches.total else 0)]
    made: list[Any] = [None] * len(missing)
    try:
        for index, result in zip(found_here, render_chunk([missing[i] for i in found_here])):
            made[index] = result
        for number, batch in batches:
            for index, result in zip(numbers[number], render_chunk(batch)):
                made[index] = result
            progress(min(len(found_here) + batches.claimed * CLAIM_BATCH, len(missing)), len(missing))
        for pending in pendings:
            for number, results in pending():
                for index, result in zip(numbers[number], results):
                    made[index] = result
    except BaseException:
        for pending in pendings:
            pending.cancel()
        raise
    return made


def render_abstracts_share(items: Iterator, macros: Any) -> list[tuple[int, list]]:
    """A fresh process's share of the render stage: each batch of papers it claims rendered by a renderer of
    its own (the config's macros), less the papers (``_rendered_texts``), with what rendering each said."""
    renderer, done = AbstractRenderer(macros), []
    for number, batch in items:
        results = []
        for paper in batch:
            local = Reporter()
            results.append((_rendered_texts(render_paper(paper, renderer, local)), local.diagnostics))
        done.append((number, results))
    return done


def render_paper(paper: Paper, renderer: AbstractRenderer, reporter: Reporter) -> RenderedPaper:
    from generator.latex.guesses import advice  # (with the math tables: a build that renders nothing needs neither)

    title = renderer.render_inline(paper.title)
    # Found if the sync rendered it to derive a title; else made now, and not kept: no stage renders it again,
    # and a large volume's renderings kept (in each worker too) would push out those still to be found.
    abstract = renderer.render(paper.abstract, remember=False)
    page = f"{PAGES_DIR}/{paper.path.name}"
    for problem in title.problems + abstract.problems:
        reporter.warn(f"{problem.message} in “{title.plain}”", page, code=problem.code, paper=paper.id,
                      subject=problem.subject, value=problem.value)
    for guessed in dict.fromkeys(title.guesses + abstract.guesses):
        reporter.warn(f"{guessed.message} in “{title.plain}”; {advice(guessed)}", page, code=guessed.code,
                      paper=paper.id, subject=guessed.subject, value=guessed.value)
    return RenderedPaper(paper, title.html, title.plain, abstract.html, abstract.plain)


def _rendered_texts(rendered: RenderedPaper) -> tuple[str, ...]:
    """A rendering's fields after its paper, in order: ``RenderedPaper(paper, *texts)`` makes it again."""
    return tuple(getattr(rendered, name) for name in _TEXT_FIELDS)


_TEXT_FIELDS = tuple(field.name for field in dataclasses.fields(RenderedPaper))[1:]  # (its first is ``paper``)
_KEPT = ("title_html", "title_plain")  # the texts sent for a rendering whose abstract the renderer kept


def _sent_texts(rendered: RenderedPaper, renderer: AbstractRenderer) -> tuple[str, ...]:
    """``_rendered_texts``, less the abstract's when ``renderer`` kept its rendering (the sync's, made before the
    workers were forked): the process that forked them holds it, and need not be sent 10,000 of them again."""
    if renderer.knows(rendered.paper.abstract):
        return tuple(getattr(rendered, name) for name in _KEPT)
    return _rendered_texts(rendered)


def _texts(sent: tuple[str, ...], paper: Paper, renderer: AbstractRenderer) -> tuple[str, ...]:
    """``_sent_texts``' texts whole again: an abstract's rendering not sent is the one ``renderer`` kept."""
    if len(sent) == len(_TEXT_FIELDS):
        return sent
    abstract = renderer.render(paper.abstract, remember=False)
    return (*sent, abstract.html, abstract.plain)


def changed_papers(before: Sequence[RenderedPaper], after: Sequence[RenderedPaper]) -> set[str]:
    """The ids of papers that came, went or render differently now."""
    old = {paper.paper.id: paper for paper in before}
    new = {paper.paper.id: paper for paper in after}
    moved = {key for key, paper in new.items() if old.get(key) is not paper and old.get(key) != paper}
    return moved | (old.keys() - new.keys())


def read_programme(project: Project, papers: list[Paper], reporter: Reporter) -> tuple[Programme, str]:
    """The volume's programme (programme/load.py: its calendar files joined to the papers' sessions, or the
    papers' own days, times and rooms), each problem reported; and the digest of the calendar files' bytes,
    which the pages' shared context carries (a calendar edited renders again what shows its times)."""
    times = [PaperTimes.of(paper.id, paper.details) for paper in papers]
    programme, problems = load_programme(project.content_dir, times, project.config.timezone,
                                         project.config.sessions)
    for problem in problems:
        reporter.report(problem)
    return programme, calendar_digest(project.content_dir)


def site_renderer(project: Project, papers: list[RenderedPaper], env: Any = None, warn: Any = None,
                  related: dict[str, tuple[str, ...]] | None = None,
                  programme: tuple[Programme, str] | None = None,
                  places: Callable[[list[RenderedPaper]], Placed] | None = None) -> SiteRenderer:
    """The template renderer with the volume's citations and related papers.

    Pass the ``env`` of an earlier renderer to skip recompiling templates, and
    ``related`` (paper id → related ids) to reuse related papers already worked out; ``programme``: the
    volume's programme and the digest of its calendar files (the programme stage's); ``places``: how the map
    page finds its places, when the relate stage left them to it (``paper_map.map_later``).
    """
    authors = group_authors(papers, project.people)  # once: the count every page shows, and the author pages
    site = SiteInfo(project.volume, len(papers), len(authors.people), has_map=has_map(project, papers))
    made, schedules = None, None
    if programme is not None:
        shown = programme_view(programme[0], papers, interface(project.config.language).locale, programme[1])
        made = Programmed(programme[0], shown)
        if shown is not None:
            schedules = personal(programme[0], shown, calendar_site(project.volume, papers))
    publication = Publication(papers, project.volume, project.config.macros, warn, related=related,
                              schedules=schedules)
    # The map's places, as the relate stage worked them out (or, in serve's background after an edit, afresh).
    places = places or functools.partial(paper_places, content_dir=project.content_dir, related=related)
    return SiteRenderer(Theme.for_content(project.content_dir), project.config, site, env, publication,
                        project.topic_names(), project.people, authors, programme=made, places=places)


def has_map(project: Project, papers: Sequence[RenderedPaper]) -> bool:
    """Whether the volume has map.html: the config's ``map`` is not off, and there are papers to place."""
    return project.config.map != "off" and bool(papers)


def render_outputs(outputs: list, sink: Sink, reporter: Reporter, executor: Executor = INLINE,
                   shares: Shares | None = None) -> list[str]:
    """Render every output into the sink, by the ``executor`` when the sink takes files from workers; the
    files' names. ``outputs`` is emptied: each output is let go once rendered.

    The files made from the whole volume (deps None: the .bib, feed, sitemap, papers.json)
    come first, in this process, while the workers claim chunks of the others; then this process
    claims chunks too, so that each takes as much as it has time for. With ``shares`` the workers
    are fresh processes sent only what they render (pipeline/shares.py), else forked.
    """
    whole = [output for output in outputs if output.deps is None]
    rest = [output for output in outputs if output.deps is not None]
    workers = executor.workers(Cost.HEAVY, len(outputs)) if sink.parallel else 1
    progress = functools.partial(reporter.progress, "render templates")
    outputs.clear()  # each output is let go once rendered: a large volume's are much memory

    def render_chunk(chunk: list) -> list[str]:
        for output in chunk:
            if output.chunks is not None:
                sink.write_chunks(output.path, output.chunks())
            else:
                sink.write(output.path, output.render())
        return [output.path for output in chunk]

    if workers < 2:
        return INLINE.map(render_chunk, whole + rest, Cost.HEAVY, progress)  # all of it in this process
    if shares is not None:
        return shares.render(whole + rest, render_chunk, workers - 1, executor, progress)
    # The whole-volume files in this process, while the workers claim the others' chunks; then it claims too.
    rest = pages_by_block(rest)  # (a page and its block claimed together: their citations made once)
    size = executor.policy.chunk(len(rest), workers)
    chunks = [rest[i : i + size] for i in range(0, len(rest), size)]
    del rest
    first: list[str] = []

    def before() -> None:
        first.extend(render_chunk(whole))
        whole.clear()

    claimed = executor.claimed(render_chunk, chunks, workers, progress, before=before)
    return first + [name for names in claimed for name in names]


def sync_project(project: Project, reporter: Reporter, apply: bool = True, executor: Executor = INLINE) -> SyncPlan:
    """The pages synced to a project made elsewhere (``import``: its source is not in the folder yet)."""
    docs = read_pages(project.content_dir, executor)
    return sync_pages(project, reporter, docs, make_deriver(project, reporter, executor), apply, executor)


def read_again(content_dir: Path, docs: dict[Path, PageDoc], paths: set[Path], executor: Executor = INLINE,
               written: dict[Path, PageDoc] | None = None) -> dict[Path, PageDoc]:
    """``docs`` with these pages read again (a page gone, or now a link out, is dropped); in name order.
    A page just ``written`` (pages.written_page) is taken as it was written, not read."""
    written = written or {}
    fresh = read_pages(content_dir, executor, only=sorted(path for path in paths
                                                      if path not in written and is_page(content_dir, path)))
    fresh.update(written)
    again = {path: fresh[path] if path in paths else doc for path, doc in docs.items()
             if path not in paths or path in fresh}
    new = {path: doc for path, doc in fresh.items() if path not in docs}
    return dict(sorted({**again, **new}.items())) if new else again
