"""The project: everything read from the content folder before any page is written.

Config, source lists, taxonomy, the volume they describe, and the LaTeX renderer
the config's macros make. Made once per run by the pipeline's first stage;
``derive`` gives new entries their titles and tags while pages are synced.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from babel import Locale

from generator.runtime.executor import INLINE, Executor
from generator.runtime.cache import BuildCache, EntryCache, digest
from generator.runtime.sizes import Cost
from generator.model.config import CONFIG_NAME, Config, load_config
from generator.text.i18n import LANGUAGE_OF_SCRIPT
from generator.text.cjk import language_of, majority_language
from generator.errors import ContentError
from generator.latex import AbstractRenderer, RenderedAbstract
from generator.latex.abstract_renderer import REMEMBERED
from generator.content.merge import Derived, Deriver
from generator.model.paper import Entry, SourceList
from generator.content.page_language import page_languages
from generator.content.pages import PAGES_DIR, page_paths
from generator.reporter import Reporter
from generator.sources import READERS, find_sources, links_out
from generator.sources.kept import KIND as KEPT_SOURCES, kept_reading
from generator.sources.duplicates import kept_drop_duplicates
from generator.sources.relative import RelativeLinks, column_patterns
from generator.derive.people_file import Rules, load_rules
from generator.derive.tagging import TAXONOMY_FILE, Taxonomy, load_taxonomy
from generator.derive.sanity import lint_project
from generator.derive.volume_topics import (STRONG, VolumeTopics, is_front_matter, paper_key, survey, topics_of,
                                            topics_record)
from generator.model.volume import Volume
from generator import diagnostics as codes

T = TypeVar("T")


@dataclass(frozen=True)
class Project:
    content_dir: Path
    config: Config
    volume: Volume
    sources: list[SourceList]
    taxonomy: Taxonomy
    renderer: AbstractRenderer
    people: Rules = Rules()  # people.yaml: who is one person when names alone cannot say
    topics: VolumeTopics = VolumeTopics()  # whether the taxonomy fits the volume, and its broad tags
    # A first build's entries' title candidates, made while the own topics were chosen (``EarlyTitles``), by
    # id(entry), with the entry: the sync derives their tags alone.
    early: dict[int, tuple[Entry, tuple[str, ...]]] = field(default_factory=dict, compare=False, repr=False)
    # A digest of everything the sources were read from (each file's bytes, how it is read: sources/kept.py),
    # "" when some reading is not one the build cache keeps: what the sync's outcome is kept under (with the pages').
    sources_key: str = field(default="", compare=False)

    def in_series(self, series: str) -> Project:
        """The same project built into a series of that title (series/layout.py)."""
        config = replace(self.config, series=series)
        return replace(self, config=config, volume=replace(self.volume, series=series))

    def topic_names(self) -> dict[str, str]:
        """Tag name → the name readers see, in the configured language (the taxonomy's ``names``)."""
        return self.taxonomy.names_for(self.config.language)

    def tags_version(self) -> str:
        """What the tool's tags depend on besides the entry: the taxonomy, ``auto_tags`` and what the
        volume made of the taxonomy; when it changes, pages whose tags are the tool's are tagged again."""
        return f"{self.taxonomy.version}/{self.config.auto_tags}{self.topics.version}"


def load_project(content_dir: Path, reporter: Reporter, base_url: str | None = None,
                 incoming: Path | None = None, store: BuildCache | None = None, executor: Executor = INLINE,
                 derive: bool = False) -> Project:
    """Config, source lists and taxonomy: the parts of the content that are not pages.

    The ``executor`` spreads the volume's survey (each paper's tags and phrases) over its processes.
    ``derive``: the sync will derive the titles of new entries (a build; not ``check``). When no page is
    written yet, every entry is new: other processes make their titles while this one reads the rest of the
    project, the survey above all (``EarlyTitles``).

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
    columns = column_patterns(config.links)  # links: patterns over a source's columns, applied as it is read
    # Each source as an earlier build read it, when its file and reading are the same (sources/kept.py).
    kept = EntryCache(store, KEPT_SOURCES, plain=True) if store is not None and store.enabled else None
    readings = [kept_reading(path, name, RelativeLinks(content_dir, config.venue_base_url, columns), kept)
                for name, path in sorted(paths.items())]
    sources = [source for source, _ in readings]
    keys = [key for _, key in readings]
    sources_key = digest("sources", *keys) if all(keys) else ""
    for source in sources:
        for diagnostic in source.diagnostics:
            reporter.report(diagnostic)
    renderer = AbstractRenderer(config.macros)
    # A first build's titles are made from here on, beside the rest: of every entry read, its repeats too (dropped
    # next, by this process meanwhile: a tenth of a second at 10,000 papers with the other core idle).
    early = EarlyTitles(renderer, [entry for source in sources for entry in source.entries], executor) if (
        derive and not page_paths(content_dir)) else None

    def rest() -> tuple[list[SourceList], Config, Rules, Taxonomy, VolumeTopics, Volume]:
        """The rest of the project: the sources less their repeats, the papers' language, the people, the taxonomy
        and what the volume makes of it, the lint (a first build makes its titles meanwhile: ``EarlyTitles``)."""
        kept_sources, repeats = kept_drop_duplicates(sources, store, sources_key)  # (kept by the sources' key)
        for diagnostic in repeats:
            reporter.report(diagnostic)
        entries = [entry for source in kept_sources for entry in source.entries]
        renderings = None
        if early is not None:
            early.keep(entries)
        elif derive and (store is None or not store.enabled):  # every abstract is rendered again (--no-cache)
            # Beside the own topics' count and choice alone: elsewhere the render stage renders them with their words'
            # split, where made early each rendering crosses from a worker twice (r10k: load + render 3.7 → 6.1 s at
            # load 4).
            renderings = EarlyTitles(renderer, entries[:REMEMBERED], executor, titles=False)
        if kept is not None:
            kept.save()
        language = with_papers_language(config, kept_sources, reporter, content_dir, store, executor)
        people = load_rules(content_dir, reporter.warn) if content_dir.is_dir() else Rules()
        taxonomy = load_taxonomy(content_dir)
        # What the survey found of the same sources with the same taxonomy (the sources' key), kept by the cache.
        surveyed = store.key(SURVEYED, sources_key, taxonomy.version, taxonomy.name, language.auto_tags,
                             str(STRONG)) if store is not None and store.enabled and sources_key else ""
        topics = topics_of(store.load_json(SURVEYED, surveyed)) if store is not None and surveyed else None
        if topics is None:
            # The taxonomy's tags of each entry, kept by the build cache: an unchanged volume is not tagged again.
            # Its 256 shard files are written later, beside the build (``cache.later``): written here, they were
            # 0.2 CPU-s of this process's kernel time and 0.35 s of its wall at 10,000 papers, the other core idle
            # once the titles are made.
            known = None
            if store is not None and store.enabled:
                known = EntryCache(store, TAGGED, taxonomy.version, str(STRONG), later=True)
            remembered = _RememberedTopics(store) if store is not None and store.enabled else None
            topics = survey(taxonomy, entries, language.auto_tags, known, remembered, executor,
                            renderings.beside if renderings is not None else None)
            if known is not None:
                known.save()
            if store is not None and surveyed:
                store.store_json(SURVEYED, surveyed, topics_record(topics))
        volume = Volume.of(language, kept_sources, content_dir.resolve().name)
        lint_project(content_dir, language, volume, kept_sources, people, reporter.warn)  # pmlint's: dates, names
        return kept_sources, language, people, taxonomy, topics, volume

    sources, config, people, taxonomy, topics, volume = early.beside(rest) if early is not None else rest()
    return Project(content_dir, config, volume, sources, taxonomy, renderer, people, topics,
                   early.found if early is not None else {}, sources_key)


SURVEYED = "survey"  # the build cache's record of what the survey found, by the sources' key
TAGGED = "volume-topics"  # the build cache's entry of each paper's tags of the taxonomy, by the paper


class EarlyTitles:
    """A first build's entries' title candidates and renderings, made by the executor's other processes while
    this one makes the rest of the project once the sources are read (``beside``): dropping their repeats, the
    survey's serial parts — counting what the taxonomy makes of the papers, choosing the volume's own topics,
    seconds at 10,000 papers —, the waits between its spread parts, saving its cache and the lint would each leave
    a core idle, and the titles (the sync's heaviest work, which no topic changes) fill it. The survey's own spread
    work forks its workers beside these. The sync then derives only the entries' tags (``make_deriver``).

    Without ``titles`` (a build without its cache, whose pages are written) only the abstracts are rendered,
    beside the own topics' count and choice alone (``survey``'s ``beside``): the render stage renders every page's
    abstract, and a page's is its entry's (the renderer remembers them, as many as it keeps: ``REMEMBERED``)."""

    def __init__(self, renderer: AbstractRenderer, entries: list[Entry], executor: Executor, titles: bool = True):
        self.renderer, self.entries, self.executor, self.titles = renderer, entries, executor, titles
        self.found: dict[int, tuple[Entry, tuple[str, ...]]] = {}
        self.kept: set[int] | None = None  # (``keep``)

    def keep(self, entries: list[Entry]) -> None:
        """Only these of the entries are the project's (the others repeat them: dropped while the titles were
        made): theirs alone are found and remembered."""
        self.kept = {id(entry) for entry in entries}

    def beside(self, job: Callable[[], T]) -> T:
        """``job`` run in this process while the other processes make the titles; then this one makes what
        is left of them too."""
        entries, executor = self.entries, self.executor
        workers = executor.workers(Cost.HEAVY, len(entries))
        # No core idle beside it; or a volume the size policy calls large (its jobs are fresh processes, to keep
        # memory down): a worker holding its share of the renderings while this process holds every paper's
        # phrases made the tree's peak (1.6 GB at 50,000 papers, against 1.26 GB in relate papers).
        if workers < 2 or len(entries) < 2 * workers or executor.fresh(len(entries)):
            return job()
        size = executor.policy.chunk(len(entries), workers)
        chunks = [entries[i : i + size] for i in range(0, len(entries), size)]
        done: list[T] = []
        # The worker and this process each render: the engine built once, here, before the worker is forked.
        self.renderer.prepare(entry.text for entry in entries)
        made = executor.claimed(functools.partial(_titles_of, self.renderer, self.titles), chunks, workers,
                                before=lambda: done.append(job()))
        kept = self.kept
        for entry, (candidates, rendering) in zip(entries, itertools.chain.from_iterable(made)):
            if kept is not None and id(entry) not in kept:
                continue
            self.renderer.remember(entry.text, rendering)  # in proceedings order, as the sync would
            if candidates is not None:
                self.found[id(entry)] = (entry, candidates)
        return done[0]


def _titles_of(renderer: AbstractRenderer, titles: bool,
               entries: list[Entry]) -> list[tuple[tuple[str, ...] | None, RenderedAbstract]]:
    """Each entry's abstract rendered, and with ``titles`` its title candidates (its own title, else derived
    from its abstract)."""
    made: list[tuple[tuple[str, ...] | None, RenderedAbstract]] = []
    for entry in entries:
        rendering = renderer.render(entry.text)
        made.append((candidates_of(entry, rendering.plain) if titles else None, rendering))
    return made


def candidates_of(entry: Entry, plain: str) -> tuple[str, ...]:
    """The title a source gives, else those derived from the rendered abstract, best first."""
    return (entry.title,) if entry.title else tuple(_title_candidates(plain))


class _RememberedTopics:
    """The volume's own topics as the last build chose them, in the build cache (volume_topics.Remembered)."""

    def __init__(self, store: BuildCache):
        self.cache = store

    def load(self, key: str) -> Any:
        return self.cache.load_json("own-topics", self.cache.key("own-topics", key))

    def store(self, key: str, value: Any) -> None:
        self.cache.store_json("own-topics", self.cache.key("own-topics", key), value)


def with_papers_language(config: Config, sources: list[SourceList], reporter: Reporter,
                         content_dir: Path | None = None, store: BuildCache | None = None,
                         executor: Executor = INLINE) -> Config:
    """A config that names no ``language``, for a volume whose papers are mostly Japanese or Chinese: that
    language, so that the interface and the default title are in it (NLP2024's papers under 論文一覧, 論文集).
    The papers are the pages (a hand-written page, or one whose source is gone, counts as any other) and the
    sources' entries that no page holds yet."""
    if config.language_given:
        return config
    pages = page_languages(content_dir / PAGES_DIR, store, executor) if content_dir is not None else {}
    entries = (f"{entry.title}\n{entry.text}" for source in sources for entry in source.entries
               if (entry.source, entry.index) not in pages)
    written = majority_language([*pages.values(), *map(language_of, entries)])
    language = LANGUAGE_OF_SCRIPT.get(written)
    if language is None:
        return config
    reporter.info(f"language: most papers are written in {Locale.parse(written).english_name}, so the pages speak "
                  f"it (`language: {language}`); `language: en` in {CONFIG_NAME} keeps them in English")
    return replace(config, language=language)


def report_links_out(content_dir: Path, reporter: Reporter) -> None:
    """Sources and pages that are symlinks out of the content folder: not read, and said so."""
    root = content_dir.resolve()
    found = [p for p in links_out(content_dir, root, "*") if p.suffix.lower() in READERS]
    found += links_out(content_dir / PAGES_DIR, root, "*.md")
    for path in found:
        reporter.warn("is a link to a file outside the content folder; not read (copy the file in instead)",
                      path.relative_to(content_dir), code=codes.LINK_OUTSIDE)


def make_deriver(project: Project, reporter: Reporter, executor: Executor = INLINE) -> Deriver:
    """Titles and tags for new or changed entries, by the ``executor`` (the slow part of a first build)."""

    def derive_chunk(entries: list[Entry]) -> list[tuple[Derived, bool, RenderedAbstract]]:
        # Each abstract's rendering goes back with its title: the render stage then needs not render it again.
        return [(*derive_one(project, entry), project.renderer.render(entry.text)) for entry in entries]

    def derive(entries: Sequence[Entry]) -> list[Derived]:
        # Entries whose titles were made while the project loaded (EarlyTitles) get their tags here: a look-up.
        early = [_early(project, entry) for entry in entries]
        made = iter(executor.map(derive_chunk, [e for e, found in zip(entries, early) if found is None], Cost.HEAVY))
        results: list[tuple[Derived, bool, RenderedAbstract | None]] = [
            next(made) if found is None else (*derive_one(project, entry, found), None)
            for entry, found in zip(entries, early)]
        taxonomy = project.taxonomy
        for entry, (derived, fell_back, rendering) in zip(entries, results):
            if rendering is not None:  # (an early entry's was remembered as the project loaded)
                project.renderer.remember(entry.text, rendering)
            if fell_back:
                reporter.warn(f"no tag of {taxonomy.name} matches “{derived.title}”; tagged it {taxonomy.fallback!r} "
                              f"(give keywords or subjects in the source, add {TAXONOMY_FILE}, or set "
                              "`auto_tags: never`)", entry.source, entry.line, code=codes.TOPIC_FALLBACK,
                              paper=entry.uid, value=taxonomy.fallback)
        if any(_taxonomy_tags(project, entry) for entry in entries):
            report_volume_topics(project, reporter)
        return [derived for derived, _, _ in results]

    return derive


def _early(project: Project, entry: Entry) -> tuple[str, ...] | None:
    """The title candidates made for ``entry`` as the project loaded, if they were."""
    found = project.early.get(id(entry))
    return found[1] if found is not None and found[0] is entry else None


def derive_one(project: Project, entry: Entry, candidates: Sequence[str] | None = None) -> tuple[Derived, bool]:
    """An entry's title candidates and tags, and whether no taxonomy tag matched.

    A title the source gives is kept. Subjects and keywords the source gives are the tags; the taxonomy
    adds its own as ``auto_tags`` says: to papers without them (missing), to all (always), or never — and
    only where it fits the volume, its broad tags giving way to narrower ones (``project.topics``).
    """
    plain = project.renderer.render(entry.text).plain if candidates is None else None
    if candidates is None:
        assert plain is not None
        candidates = candidates_of(entry, plain)
    topics = project.topics
    if not _taxonomy_tags(project, entry) or is_front_matter(entry) or (topics.fits and not entry.text.strip()):
        return Derived(candidates[0], entry.keywords, tuple(candidates[1:]), given=bool(entry.title)), False
    if not topics.fits:
        # The volume's own phrases; a paper that shares none is under the fallback, as one no tag matches.
        own = topics.own_tags.get(paper_key(entry), (project.taxonomy.fallback,)) if topics.own else ()
        tags = tuple(dict.fromkeys((*entry.keywords, *own)))
        return Derived(candidates[0], tags, tuple(candidates[1:]), given=bool(entry.title)), False
    broad = topics.broad_names
    if plain is None:
        plain = project.renderer.render(entry.text).plain
    # The survey scored the title and the source's text: the same words, where the abstract renders as written.
    scores = topics.scores.get(paper_key(entry)) if entry.title and plain == entry.text else None
    tags = (project.taxonomy.ranked(list(scores), broad) if scores is not None
            else project.taxonomy.tags_for(entry.title or candidates[0], plain, narrower_than=broad))
    fell_back = tags == (project.taxonomy.fallback,)
    if entry.keywords:  # a broad tag gives way to them too
        tags = tuple(dict.fromkeys((*entry.keywords, *(() if fell_back else (t for t in tags if t not in broad)))))
        fell_back = False
    return Derived(candidates[0], tags, tuple(candidates[1:]), given=bool(entry.title)), fell_back


def _taxonomy_tags(project: Project, entry: Entry) -> bool:
    """Whether ``auto_tags`` has the taxonomy tag this entry: when it has no subjects or keywords, or always."""
    mode = project.config.auto_tags
    return mode == "always" or (mode == "missing" and not entry.keywords)


def report_volume_topics(project: Project, reporter: Reporter) -> None:
    """What the volume made of the taxonomy, said once a build: that it does not fit, or which tags give way."""
    topics, taxonomy = project.topics, project.taxonomy
    if not topics.fits and topics.own:
        none = topics.own_of - len(topics.own_tags)
        reporter.info(f"topics: {topics.fell_back} of {topics.tagged} papers match no tag of {taxonomy.name}, so it "
                      f"does not fit this volume: their topics are the {len(topics.own)} key phrases its papers share "
                      f"({', '.join(topics.own[:5])}…), {none} of {topics.own_of} papers under {taxonomy.fallback!r}. "
                      f"A {TAXONOMY_FILE} names topics of your own")
        return
    if not topics.fits:
        source = project.sources[0].path.name if project.sources else None
        reporter.warn(f"{topics.fell_back} of {topics.papers} papers match no tag of {taxonomy.name}: it does not "
                      f"fit this volume, so it tags none of them (rather than {taxonomy.fallback!r} on most). To give "
                      f"them topics, give keywords or subjects in the source or add a {TAXONOMY_FILE} for the field; "
                      "`auto_tags: never` says none are wanted", source, code=codes.TOPIC_TAXONOMY_UNFIT,
                      subject=taxonomy.name)
        return
    for name, count in topics.broad:
        reporter.info(f"topics: “{name}” would be on {count} of {topics.papers} papers, which tells a reader "
                      "little: it gives way to their narrower topics, and stays on the papers that have none")


def placeholder_deriver(entries: Sequence[Entry]) -> list[Derived]:
    """What ``check`` derives: nothing (a digest stands for the title), so 100,000 new entries stay cheap."""
    return [Derived(digest(entry.text)[:16], ()) for entry in entries]


def _title_candidates(plain: str) -> list[str]:
    """Titles for an entry without one. The rules (derive/titles.py and its Chinese and Japanese ones) are
    imported the first time an entry needs them: a build whose entries all have titles, or whose pages are
    all written, never compiles their patterns."""
    from generator.derive.titles import title_candidates

    return title_candidates(plain)
