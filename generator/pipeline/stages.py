"""One build pipeline, run by ``build``, ``serve`` and ``check``.

    project → pages → papers → rendered → search → relate → render → publish

Each stage of ``STAGES`` reads what the stages before it left in the ``Run`` and
adds its own; the last four make the site, inside the sink's session. Where the
files go is the sink's business (pipeline/sinks.py): a staging folder swapped in at the
end (``build``), memory (``serve``), nowhere (``check``). When the search index
is made, and what follows the published site, is the pipeline's ``schedule``,
chosen by the ``Options`` (pipeline/schedule.py).
A ``Run`` outlives one pass: ``serve`` keeps it and, when files change, reruns
from the first stage the change invalidates (``first_stage``), with the same
build cache as ``build``; unchanged pages are neither parsed nor rendered again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TypeVar

from generator.runtime.cache import BuildCache, EntryCache
from generator.content.changes import Kind
from generator.content.merge import Change
from generator.render.files import last_good_pages, linked_files, static_files
from generator.model.config import config_digest
from generator.model.doi import with_doi
from generator.model.link_patterns import with_patterns
from generator.model.paper import Paper, RenderedPaper
from generator.content.page_doc import PageDoc
from generator.content.page_writes import PageWrites
from generator.content.pages import PAGES_DIR, front_record, read_page, read_pages, unique_papers
from generator.content.project import load_project, make_deriver, placeholder_deriver
from generator.derive.related import forget_texts, forget_vectors, related_ids
from generator.pipeline.parsed import parse_pages
from generator.pipeline.synced import kept_sync
from generator.pipeline.listing import moved_lists, output_inputs, site_outputs
from generator.render.outputs import Output
from generator.pipeline.mapping import MapPlaces
from generator.pipeline.rendering import (changed_papers, has_map, read_again, read_programme, render_outputs,
                                          render_papers, split_words)
from generator.reporter import Reporter
from generator.pipeline.schedule import SearchInput, schedule_for
from generator.pipeline.sinks import Sink
from generator.runtime.background import map_large_blocks_apart, release_free_memory
from generator.runtime.executor import Executor
from generator.pipeline.state import DEFAULT_OPTIONS, Options, Pass, Run
from generator.pipeline.shares import worker_shares
from generator.pipeline.packed import packed
from generator.render.redirects import settle_old_slugs
from generator.model.corrections import OLD_SLUGS
from generator import diagnostics as codes
from generator.errors import ContentError

T = TypeVar("T")
SAMPLE = 50  # papers whose pages ``check`` renders, to try every template with real content


@dataclass(frozen=True)
class Stage:
    name: str
    run: Callable[[Pipeline], None]
    writes: bool = False  # runs inside the sink's session (build: under the output folder's lock, into staging)


class Pipeline:
    def __init__(self, content_dir: Path, sink: Sink, options: Options = DEFAULT_OPTIONS):
        self.content_dir = content_dir
        self.sink = sink
        self.options = options
        self.state = Run()
        self.store = BuildCache.for_content(content_dir, enabled=options.cache)
        self.reporter = Reporter()
        self.now = Pass()
        self.schedule = schedule_for(options)
        self.executor = Executor(options.cores)  # where each stage's work runs, by the size policy (runtime/sizes.py)
        self.page_writes = PageWrites()  # the sync's pages a child writes, until the rendered stage waits for them

    def run(self, reporter: Reporter, start: str = "project", now: Pass | None = None,
            until: str = "publish") -> Run:
        """Run the stages from ``start`` to ``until``; a failure leaves the sink's last site as it was."""
        self.reporter, self.now = reporter, now or Pass()
        if self.state.project is None:
            start = "project"
        self.sink.prepare(self.content_dir)
        try:
            with contextlib.ExitStack() as session:
                opened = False
                for stage in STAGES[STAGE_NAMES.index(start):STAGE_NAMES.index(until) + 1]:
                    if stage.writes and not opened:
                        session.enter_context(self.sink.session(reporter))
                        session.callback(self.schedule.cancel)  # a failed stage's work stops before the session
                        opened = True
                    stage.run(self)
        except BaseException:  # a content error, or a bug: the next pass starts from the project again
            self.state = Run()
            with contextlib.suppress(ContentError, RuntimeError):  # (the pass's own error is the one to report)
                self.settle()
            raise
        self.settle()
        return self.state

    def settle(self) -> None:
        """Every page and cache entry the stages wrote on disk before the pass ends, failed or not."""
        try:
            self.page_writes.settle()
        finally:
            self.store.later.settle()

    def page_as_written(self, path: Path) -> PageDoc:
        """A page read again from its file, once it is written."""
        self.page_writes.settle()
        return read_page(path)

    def timed(self, name: str, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        start = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            self.reporter.stage(name, time.perf_counter() - start)


def first_stage(kinds: set[Kind]) -> tuple[str, Pass]:
    """Where a pass starts for these kinds of change, and what it must redo."""
    now = Pass(everything=bool(kinds & {Kind.CONFIG, Kind.TEMPLATE, Kind.STATIC}), templates=Kind.TEMPLATE in kinds)
    if Kind.CONFIG in kinds or Kind.LIST in kinds:  # macros, taxonomy, base URL or the entries moved
        return "project", now
    return ("pages" if Kind.PAGE in kinds else OUTPUTS), now


# -- the stages ---------------------------------------------------------------------------


def load_stage(p: Pipeline) -> None:
    """Config, source lists, taxonomy: the volume everything else is made from."""
    project = p.timed("load project", load_project, p.content_dir, p.reporter, p.options.base_url, store=p.store,
                      executor=p.executor, derive=p.options.derive)
    if p.options.series:
        project = project.in_series(p.options.series)
    if p.options.people:
        project = dataclasses.replace(project, people=p.options.people + project.people)
    old = p.state.project
    if old is None or old.config != project.config:
        p.state.renders, p.state.env = {}, None  # macros change renderings, the language the templates
    if (old is None or old.config != project.config or old.taxonomy.version != project.taxonomy.version
            or old.people != project.people):  # people.yaml moves author pages and every link to them
        p.now.everything = True  # any page may show a title, a topic or a date that moved
    p.state.project, p.now.loaded = project, True


def pages_stage(p: Pipeline) -> None:
    """Every page read; when the project was (re)loaded, the pages synced to its sources first."""
    state, executor = p.state, p.executor
    # Parsed front matter by the digest of its text, when every page is read (its entry then keeps what this
    # pass read and wrote; serve reading one edited page leaves it as it is).
    every = state.docs is None or p.now.pages is None
    known = EntryCache(p.store, "front-matter", plain=True, later=True) if every and p.store.enabled else None
    if every:
        docs = p.timed("read pages", read_pages, p.content_dir, executor, known=known)
    else:
        assert state.docs is not None and p.now.pages is not None  # (not every page: some were read)
        docs = read_again(p.content_dir, state.docs, p.now.pages)
    if p.now.loaded:
        assert state.project is not None
        deriver = make_deriver(state.project, p.reporter, executor) if p.options.derive else placeholder_deriver
        plan = p.timed("sync pages", kept_sync, state.project, p.reporter, docs, deriver, p.options.write_pages,
                       executor, p.store)
        # A written page is taken as written (created) or read back like a person's (updated): the record of
        # the change need not keep its text.
        state.changes, written = plan.changes, {path: doc for path, (doc, _) in plan.written.items()}
        p.page_writes = plan.later
        for doc, key in plan.written.values() if known is not None else ():
            assert known is not None
            known.put(key, front_record(doc))  # the next build reads these pages without parsing them
        if p.options.write_pages:
            # (made anew: ``dataclasses.replace`` looks at every field of each of 10,000 changes)
            state.changes = [Change(change.action, change.path, change.detail) for change in plan.changes]
        del plan
        if not p.options.keep:  # synced: a build needs the entries no more (a large volume's hold much memory)
            state.project = dataclasses.replace(state.project, sources=[], early={},
                                                topics=dataclasses.replace(state.project.topics, scores={}))
        if p.options.write_pages and state.changes:  # the pages the sync wrote, as a person's would be read
            docs = p.timed("read pages", read_again, p.content_dir, docs, {change.path for change in state.changes},
                           executor, written)
    if known is not None:
        known.save()
    state.docs = docs


def papers_stage(p: Pipeline) -> None:
    """Each page's front matter validated into a Paper (a page read again is parsed again)."""

    def timed_parse() -> None:
        state = p.state
        assert state.docs is not None
        state.parsed = parse_pages(state.docs, p.content_dir, state.parsed, p.store)
        for parsed in state.parsed.values():
            for diagnostic in parsed.diagnostics:
                p.reporter.report(diagnostic)
        state.papers = unique_papers(standing_papers(p), p.reporter, p.page_as_written)
        docs = state.docs
        state.papers = settle_old_slugs(state.papers, p.reporter.warn,
                                        lambda paper: docs[paper.path].lines.get(OLD_SLUGS) if paper.path in docs
                                        else None)
        patterns = state.project.config.links if state.project is not None else {}
        if patterns:  # links: in proceedings.yaml, for the papers that give no link of that kind
            state.papers = [with_patterns(paper, patterns) for paper in state.papers]
        pattern = state.project.config.doi.pattern if state.project is not None else ""
        if pattern:  # doi: {pattern}: {n} is the paper's number in the volume, in proceedings order
            state.papers = [with_doi(paper, pattern, n) for n, paper in enumerate(state.papers, start=1)]
        if not p.options.keep:  # a build needs only the broken pages' text from here on
            state.docs = None
            state.parsed = {path: parsed for path, parsed in state.parsed.items() if parsed.paper is None}
            give_back(p, len(state.papers))  # the pages' texts as read

    p.timed("parse pages", timed_parse)


def standing_papers(p: Pipeline) -> list[Paper]:
    """The papers of the pages that parse; in serve, a page that stops parsing (a front matter half typed)
    keeps its last good paper until it parses again, so that the volume keeps its shape: no paper is
    renumbered and no list moves, and mending the page re-renders only what shows it."""
    state = p.state
    if not p.options.keep:
        return [parsed.paper for parsed in state.parsed.values() if parsed.paper]
    state.last_good = {path: parsed.paper or state.last_good[path] for path, parsed in state.parsed.items()
                       if parsed.paper or path in state.last_good}
    for path, parsed in state.parsed.items():
        if parsed.paper is None and path in state.last_good:
            p.reporter.warn("the site shows this paper as it was until the page parses again",
                            f"{PAGES_DIR}/{path.name}", code=codes.PAGE_KEPT_PREVIOUS)
    return list(state.last_good.values())


def programme_stage(p: Pipeline) -> None:
    """The volume's programme: its calendars joined to the papers' sessions, or the papers' own times."""
    assert p.state.project is not None
    p.state.programme = p.timed("read programme", read_programme, p.state.project, p.state.papers, p.reporter)


def rendered_stage(p: Pipeline) -> None:
    """Titles and abstracts rendered (LaTeX, emphasis, links); from the cache when unchanged."""
    state = p.state
    assert state.project is not None
    renders = EntryCache(p.store, "abstracts", config_digest(state.project.config, "abstracts"), plain=True,
                         later=True)
    before = state.rendered if state.rendered and not p.now.everything else None
    # A large volume's build packs each rendering as it is made (``pack_papers`` after the stage, at once).
    pack = packed if p.executor.fresh(len(state.papers)) and not p.options.keep else None
    state.renders = p.timed("render abstracts", render_papers, state.papers, state.project.renderer, p.reporter,
                            p.executor, renders, state.renders, pack,
                            split=split_words(p.sink.parallel, p.executor, len(state.papers)))
    state.rendered = [state.renders[paper.path].paper for paper in state.papers]
    if not p.options.keep:  # a build renders no abstract again: its renderer need not remember any
        state.renders = {}
        state.project.renderer.forget()
        pack_papers(p)
        give_back(p, len(state.rendered))  # the texts the packing let go
    state.changed_ids = None if before is None else changed_papers(before, state.rendered)
    p.page_writes.settle()  # the sync's pages, written meanwhile by a child
    if not p.options.keep:  # the entries saved since loading, written beside relate by a forked child (serve: at
        p.store.later.aside(p.executor)  # the pass's end, here; a fork of the server and its threads is not worth it)


def site_papers(p: Pipeline) -> list[RenderedPaper]:
    """The papers the outputs show: all of them, or ``check``'s sample."""
    return p.state.rendered[:SAMPLE] if p.options.sample else p.state.rendered


def whole_site(p: Pipeline) -> bool:
    """Whether every output is to be made again: every rendering moved, or the pass says so."""
    return p.state.changed_ids is None or p.now.everything or p.options.sample


def search_stage(p: Pipeline) -> None:
    """The search index, started first: on another core while papers are related and the templates render
    (build), or queued for the background after publish (serve); none for ``check`` (pipeline/schedule.py)."""
    project = p.state.project
    assert project is not None
    papers = site_papers(p)
    fresh = whole_site(p) or (bool(p.state.changed_ids) and p.now.related is None)
    p.timed("start search", p.schedule.start, SearchInput(papers, project.topic_names()), p.sink,
            p.store, p.executor, fresh)


def relate_stage(p: Pipeline) -> None:
    """Each paper's related papers: worked out now (on every core, or from the cache); after a small edit in
    serve, kept from the last pass while the background works them out again; or those it worked out."""
    state = p.state
    # Texts moved, but not the whole site: the serve policy shows the edit first and relates afterwards.
    stale = state.related is not None and not whole_site(p) and bool(state.changed_ids)
    if p.now.related is not None:  # worked out after the last pass: the pages to render are those whose list moved
        if state.changed_ids is not None:  # (None: every page is rendered anyway)
            state.changed_ids = moved_lists(state.related or {}, p.now.related)
        state.related = p.now.related
    elif stale and p.schedule.relate_later(functools.partial(related_ids, site_papers(p), cache=p.store)):
        return  # LiveSite.settle shows them
    elif whole_site(p) or state.related is None or stale:
        # In this process: sparse products in C (derive/related.py), no worker beside the index's child.
        project = state.project
        mapped = None
        if project is not None and has_map(project, site_papers(p)):  # from the vectors made now, if they are
            mapped = MapPlaces(site_papers(p), project.content_dir, p.store, p.reporter.warn, p.timed,
                               p.sink.parallel, p.executor, p.schedule.busy)
        state.related = p.timed("relate papers", related_ids, site_papers(p), cache=p.store,
                                vectors=mapped.vectors_made if mapped is not None else None)
        if mapped is not None:
            state.places = mapped.places(state.related)  # (None: made now)
    if state.places is None:  # (else made as map.html renders, or by a child: the vectors went, or go then)
        forget_vectors()
    give_back(p, len(state.papers))  # relating leaves much of the C heap free but held


def render_stage(p: Pipeline) -> None:
    """Every file the templates make whose inputs moved, into the sink (forked workers write their share); a
    file the last site holds as made from the same inputs is kept; those the schedule defers follow later."""
    state, sink = p.state, p.sink
    if not p.options.keep:
        forget_texts()
    papers = site_papers(p)
    outputs, everything, fingerprint, renderer = p.timed("list outputs", site_outputs, p, papers, whole_site(p))
    state.listed, changed = len(outputs), state.changed_ids or set()
    if p.now.related is not None and not everything:  # a related list shows on its paper's own page only
        own = {paper.url for paper in papers if paper.paper.id in changed}
        wanted = [o for o in outputs if o.path in own]
    else:
        wanted = [o for o in outputs if everything or o.deps is None or o.deps & changed or not sink.has(o.path)]
    wanted = p.timed("keep unchanged", sink.keep_unchanged, wanted,
                     lambda: output_inputs(p, fingerprint(), outputs, papers), p.store)
    outputs.clear()  # those to render are in ``wanted``, which rendering empties as it goes
    if not p.options.keep:  # a build reads only the files' names from here (publish); each output's papers go
        state.shape = dict.fromkeys(state.shape)
        wanted = [Output(o.path, o.render, _NAMED if o.deps else o.deps, o.share, o.paper, o.chunks)
                  for o in wanted]
    p.timed("render templates", render_outputs, p.schedule.defer(wanted, sink), sink, p.reporter, p.executor,
            worker_shares(p, renderer, papers))


# What a build's output names as its papers once their digests are made: that it shows some (the render stage
# renders those showing none first), not which (a large volume's sets are tens of MB).
_NAMED = frozenset({""})


def pack_papers(p: Pipeline) -> None:
    """A build of a volume large enough that memory counts before time (the size policy's fresh processes):
    from here each paper's abstract is read once by the search index and related papers, then only by the
    files that show it, and is held packed until then (pipeline/packed.py)."""
    state = p.state
    if not p.executor.fresh(len(state.rendered)):
        return
    state.rendered = [packed(paper) for paper in state.rendered]
    state.papers = [paper.paper for paper in state.rendered]


def give_back(p: Pipeline, papers: int) -> None:
    """A large volume's build (memory before time) gives the C heap's free pages back after a stage that let much
    go and maps large blocks apart from then on (a small one's would only fault them in again; it trims at forks)."""
    if p.executor.fresh(papers) and not p.options.keep:
        release_free_memory()
        map_large_blocks_apart()


def publish_stage(p: Pipeline) -> None:
    """The search files waited for, the last good page of each page that does not parse now, the static and
    linked files: the site published by the sink; then what follows it is started (serve's background)."""
    state, sink = p.state, p.sink
    names = list(state.shape) + p.timed("search index", p.schedule.names)
    broken = [parsed.doc for parsed in state.parsed.values() if parsed.paper is None]
    for name, data in last_good_pages(broken, sink.previous, set(names), p.reporter).items():
        sink.write(name, data)
        names.append(name)
    static = static_files(p.content_dir, set(names))
    static.update(linked_files(p.content_dir, state.papers, set(names), p.reporter))
    p.timed("write site", sink.finish, names, static)
    p.schedule.published(sink)
    state.files = names + sorted(static)


STAGES: tuple[Stage, ...] = (
    Stage("project", load_stage),
    Stage("pages", pages_stage),
    Stage("papers", papers_stage),
    Stage("programme", programme_stage),
    Stage("rendered", rendered_stage),
    Stage("search", search_stage, writes=True),
    Stage("relate", relate_stage, writes=True),
    Stage("render", render_stage, writes=True),
    Stage("publish", publish_stage, writes=True),
)
STAGE_NAMES = [stage.name for stage in STAGES]
OUTPUTS = next(stage.name for stage in STAGES if stage.writes)  # where a pass that only makes the site starts
