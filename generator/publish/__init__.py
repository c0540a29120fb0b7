"""Publishing: citations, related papers, feeds and the files a static host wants.

A ``Publication`` is made once per build, after the abstracts are rendered:

* ``template_globals()``: ``feed_url`` for every page's ``<head>`` ("" when no feed);
* ``paper_context(paper)``: ``meta``, ``bibtex``, ``apa`` (HTML) and ``related`` for paper.html (its own
  RIS and CSL-JSON the Cite box offers from the paper's record in the reading list's blocks, reading_list.py);
* ``references``, ``formats``, ``pieces``: each paper's ``Reference`` (reading.py), read once, and its text in
  each citation format (formats.py), as the volume's files and the browser's records have them;
* ``files(paths)``: ``.nojekyll`` and the volume's citations (``proceedings.bib``, ``.ris``,
  ``.csl.json``, ``.apa.txt``: one for each of ``formats``, publish/formats.py) always, ``feed.xml`` when
  the config has a date, ``corrections.xml``
  when a paper has a dated correction, ``crossref.xml`` when the volume registers DOIs (crossref.py),
  ``sitemap.xml`` when the base URL is known, ``robots.txt``
  (naming the sitemap when there is one) unless the volume is one of a series', whose root has its own.

Nothing here reads the clock or the file system: the same content gives the
same bytes on every build. It is below render/ (which holds a Publication): the layers
contract in pyproject.toml keeps it from importing anything above it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from generator.errors import ConfigError
from generator.model.config import CONFIG_NAME
from generator.model.paper import RenderedPaper
from generator.derive.related import RELATED_COUNT, related_papers

from . import crossref, jsonld
from .apa import apa
from .bibtex import BibTeX, unique_keys
from .feeds import (CORRECTIONS_PATH, FEED_PATH, ROBOTS_PATH, SITEMAP_PATH, atom_feed, corrections_feed,
                    dated_corrections, robots_txt, volume_sitemap_names, volume_sitemaps)
from .formats import HOLES, CitationFormat, browser_pieces, citation_formats
from .meta import MetaTag, paper_meta
from .reading import Reference, reference_of
from .suggest import paper_link
from generator import diagnostics as codes

if TYPE_CHECKING:
    from generator.latex import MacroDef
    from generator.model.volume import Volume

__all__ = ["APA_PATH", "BIB_PATH", "CSL_PATH", "FEED_PATH", "NOJEKYLL", "RIS_PATH", "SITEMAP_PATH", "MetaTag",
           "Publication"]

# The volume's citation files (each a format's ``path``, publish/formats.py), by name for the tests and the commands.
BIB_PATH = "proceedings.bib"
RIS_PATH = "proceedings.ris"
CSL_PATH = "proceedings.csl.json"
APA_PATH = "proceedings.apa.txt"
# GitHub Pages runs Jekyll on a site published from a branch; this file turns it off,
# so nothing is dropped or rewritten. (A site deployed by the Actions workflow skips Jekyll anyway.)
NOJEKYLL = ".nojekyll"
# What no date does to citations ("n.d.") the build's summary says, once (commands/build.py).
NO_DATE = ("the site has a base URL but no date: feed.xml is not written (add `date: YYYY-MM-DD`, the date of the "
           "proceedings)")


class Publication:
    def __init__(self, papers: Sequence[RenderedPaper], volume: Volume, macros: dict[str, MacroDef] | None = None,
                 warn: Callable[..., None] | None = None, related_count: int = RELATED_COUNT,
                 related: dict[str, tuple[str, ...]] | None = None,
                 schedules: dict[str, list[list[str]]] | None = None, kept: int | None = None):
        # ``kept``: how many papers' citations are kept once made (None: every one). A template worker renders
        # each paper's page once and makes no volume file: it keeps the last few, not half the volume's.
        self.papers = list(papers)
        # Paper id → its timed sessions, for the reading list's "My programme" (render/programme.py: personal).
        self.schedules = schedules or {}
        self.volume = volume
        # A paper's BibTeX is made once, or again when its kept text was let go (``keep_few``): its warning once.
        # Made when the first entry is written (its Markdown and LaTeX engines): a warm build writes none.
        writer = functools.cache(lambda: BibTeX(self.volume, macros or {}, _said_once(warn) if warn is not None
                                                else None))
        by_id = {p.paper.id: p for p in self.papers}
        keys = unique_keys(self.papers, volume)
        # Each paper is read once into the Reference every format writes; when first asked for: an incremental
        # rebuild needs only a few.
        self.references: _Lazy = _Lazy(
            lambda paper_id: reference_of(by_id[paper_id], volume, keys[paper_id]), kept)
        self.formats: tuple[CitationFormat, ...] = citation_formats(lambda ref: writer().text(ref))
        # A kept format's pieces (BibTeX's) are kept once written: the page shows the entry, the volume's file
        # and the paper's record carry it, and its title's math is parsed (and warned about) once.
        self._kept = {f.name: _Lazy(functools.partial(lambda f, i: f.pieces(self.references[i]), f), kept)
                      for f in self.formats if f.kept}
        self.bibtex = _Made(lambda paper_id: self.text(self.formats[0], paper_id))  # paper id → its entry
        self._related, self._by_id = related, by_id
        if related is None:
            self.related: dict[str, tuple[RenderedPaper, ...]] = related_papers(self.papers, related_count)
        else:  # the dev server reuses the last full computation between small edits; a pass needs few
            self.related = _Lazy(lambda paper_id: tuple(by_id[i] for i in related.get(paper_id, ()) if i in by_id))
        # Only a site being published (it has an address) is told: a local preview needs no feed.
        if self.volume.date is None and self.volume.base_url and warn is not None:
            warn(NO_DATE, CONFIG_NAME, code=codes.FEED_NO_DATE, subject="date")
        self._volume_json: str | None = None  # the volume as each paper page's JSON-LD holds it (jsonld.part_of)
        self.deposit = crossref.wanted(volume)
        refused = crossref.problems(self.papers, volume) if self.deposit and warn is not None else []
        if refused:  # before a file is written: the last site stays as it was
            raise ConfigError("\n".join(f"{path}: {problem}" for path, problem in refused),
                              code=codes.DOI_DEPOSIT_INVALID)

    def keep_few(self, kept: int) -> None:
        """From now, keep the citations (references and BibTeX texts) of the last ``kept`` papers made only: a
        large volume's are a hundred MB, and each of its files reads a paper's in turn (a paper's page, its
        block of records; each citation file, one after another). Made again when asked again, with the same
        text, and warned about once."""
        for made in (self.references, *self._kept.values()):
            made.clear()
            made.kept = kept

    def template_globals(self) -> dict[str, str]:
        return {"feed_url": FEED_PATH if self.volume.date else ""}

    def paper_context(self, paper: RenderedPaper) -> dict[str, Any]:
        _, html = apa(self.references[paper.paper.id])
        return {
            "meta": paper_meta(self.references[paper.paper.id], self.volume),
            "bibtex": self.bibtex[paper.paper.id],
            "apa": html,
            "related": self.related[paper.paper.id],
            "jsonld": self._article(paper),
            "correction": paper_link(paper, self.volume),
        }

    def _article(self, paper: RenderedPaper) -> Markup:
        """The paper page's JSON-LD; the volume in it written once, for every paper that cites it as it is."""
        volume = self.volume.as_cited_by(paper.paper.source)
        if volume is not self.volume:
            return jsonld.article(self.references[paper.paper.id], volume)
        if self._volume_json is None:
            self._volume_json = jsonld.part_of(volume)
        return jsonld.article(self.references[paper.paper.id], volume, self._volume_json)

    def pieces(self, citation: CitationFormat, paper_id: str) -> tuple[str, ...]:
        """The paper's text in ``citation``'s format as the browser receives it (formats.py: ``pieces``)."""
        kept = self._kept.get(citation.name)
        return kept[paper_id] if kept is not None else citation.pieces(self.references[paper_id], alone=True)

    def browser_texts(self, paper_id: str) -> dict[str, tuple[str, ...]]:
        """``pieces`` of each format the browser's records carry, by name (a paper's record: reading_list.py);
        the formats not kept from one marking of the paper (``browser_pieces``)."""
        browser = [f for f in self.formats if f.browser]
        made = browser_pieces([f for f in browser if f.name not in self._kept], self.references[paper_id])
        return {f.name: made[f.name] if f.name in made else self._kept[f.name][paper_id] for f in browser}

    def text(self, citation: CitationFormat, paper_id: str) -> str:
        """The paper's text in ``citation``'s format, as the volume's file has it."""
        kept = self._kept.get(citation.name)
        ref = self.references[paper_id]
        return citation.fill(kept[paper_id], _values(ref)) if kept is not None else citation.write(ref)

    def texts(self, citation: CitationFormat) -> Iterator[str]:
        """Each paper's text in ``citation``'s format, in proceedings order, as the volume's file has it: from its
        pieces when they are kept already, else written as it is (the same text, without the pieces' work, and
        not kept: the build's own process writes the volume's files before it renders any page or block)."""
        kept = self._kept.get(citation.name)
        for paper in self.papers:
            ref = self.references[paper.paper.id]
            pieces = kept.get(paper.paper.id) if kept is not None else None
            yield citation.write(ref) if pieces is None else citation.fill(pieces, _values(ref))

    def related_ids(self, paper_id: str) -> tuple[str, ...]:
        """The ids of ``related[paper_id]``, without making it: the site's listing names them for every paper page,
        and a warm build, which renders none, would keep every paper's tuple of related papers made for it."""
        if self._related is not None:
            return tuple(key for key in self._related.get(paper_id, ()) if key in self._by_id)
        return tuple(paper.paper.id for paper in self.related[paper_id])

    def naming(self, ids: frozenset[str]) -> set[str]:
        """The papers (by id) whose related papers name one of ``ids``."""
        if self._related is not None:
            return {key for key, listed in self._related.items() if not ids.isdisjoint(listed)}
        return {key for key, listed in self.related.items() if any(p.paper.id in ids for p in listed)}

    def file_names(self, paths: Iterable[str]) -> list[str]:
        """The names ``files`` will return, without making the files; ``paths`` as for ``files``."""
        return list(self.file_makers(paths))

    def files(self, paths: Iterable[str]) -> dict[str, bytes]:
        """The volume's own files; ``paths`` are the site's other files, for the sitemap."""
        return {name: make() for name, make in self.file_makers(paths).items()}

    def file_makers(self, paths: Iterable[str]) -> dict[str, Callable[[], bytes]]:
        """Each of the volume's own files (name → a function making its bytes), as ``files`` has them. Each
        is made when it is written and let go: the citation files grow with every paper, and made all at
        once they would be a large volume's peak of memory."""
        paths = list(paths)

        makers: dict[str, Callable[[], bytes]] = {NOJEKYLL: lambda: b""}
        for name, chunks in self.file_chunks().items():
            makers[name] = functools.partial(lambda c: b"".join(c()), chunks)
        if not self.volume.series:  # a volume of a series: the series' robots.txt, at its root, speaks for it
            makers[ROBOTS_PATH] = lambda: robots_txt(self.volume)
        if self.volume.date:
            makers[FEED_PATH] = lambda: atom_feed(self.papers, self.volume) or b""  # None only without a date
        if self.deposit:
            makers[crossref.CROSSREF_PATH] = lambda: crossref.crossref_deposit(self.papers, self.volume,
                                                                               self.references.__getitem__)
        if dated_corrections(self.papers, self.volume):
            makers[CORRECTIONS_PATH] = lambda: corrections_feed(self.papers, self.volume) or b""  # None: none dated
        sitemaps = functools.cache(lambda: volume_sitemaps(paths, self.volume))  # small: made together
        for name in volume_sitemap_names(paths) if self.volume.base_url else []:
            makers[name] = functools.partial(lambda n: sitemaps()[n], name)
        return makers


    def file_chunks(self) -> dict[str, Callable[[], Iterator[bytes]]]:
        """The volume's files that grow with every paper (the citation files: name → a function making its
        bytes in pieces, a paper at a time), for a sink that writes a file as it is made: none of them is ever
        whole in memory (at 50,000 papers they are 20–70 MB each)."""
        return {citation.path: functools.partial(lambda f: f.layout.chunks(self.texts(f)), citation)
                for citation in self.formats}


def _values(ref: Reference) -> dict[str, str]:
    return {name: getattr(ref, name) for name in HOLES}


def _said_once(warn: Callable[..., None]) -> Callable[..., None]:
    """``warn``, passing on each warning (its words, file and details) the first time only."""
    said: set[tuple] = set()

    def once(*args: Any, **kwargs: Any) -> None:
        key = (args, tuple(sorted(kwargs.items())))
        try:
            if key in said:
                return
            said.add(key)
        except TypeError:  # a detail that is no plain value: passed on, not remembered
            pass
        warn(*args, **kwargs)

    return once


class _Made:
    """``made[key]`` is ``make(key)``, made each time (from what a _Lazy keeps: not kept twice)."""

    def __init__(self, make: Callable[[str], str]):
        self._make = make

    def __getitem__(self, key: str) -> str:
        return self._make(key)


class _Lazy(dict):
    """A dict that makes a missing value with ``make(key)`` and keeps it: every one, or the last ``kept`` made."""

    def __init__(self, make: Callable[[str], Any], kept: int | None = None):
        super().__init__()
        self._make, self.kept = make, kept

    def __missing__(self, key: str) -> Any:
        if self.kept is not None and len(self) >= self.kept:
            del self[next(iter(self))]  # the first made: a worker renders its pages one after another
        value = self[key] = self._make(key)
        return value
