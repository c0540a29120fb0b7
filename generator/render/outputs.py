"""The site's files as the renderer lists them (``Output``, ``SiteListing``) and what the page types are made of
(``SiteParts``, ``Shown``): the types html.py's renderer and page_types.py's registry share."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable, Collection, Iterable, Iterator, Union

from generator.derive.people import Person
from generator.model.paper import RenderedPaper
from generator.render.contents import Contents, plan_contents
from generator.render.paginate import list_weight
from generator.render.people_topics import TagPage


class PaperIds(tuple[str, ...]):
    """The ids of the papers a file shows, sorted, each once: a tuple (56 bytes and 8 a paper), not a frozenset (a
    hash table of 216 bytes for one paper, 730 for a paper page's eight). A large volume lists every file at once,
    each with its papers (r50k: 86,000 files, 50,000 of them paper pages), at a warm build's peak (bench/RESULTS.md,
    issue 43, session 22). It answers what the listing asks of a file's papers (``in``, ``isdisjoint``, ``&``, ``==``,
    iterating)."""

    __slots__ = ()

    def __new__(cls, ids: Iterable[str] = ()) -> PaperIds:
        return super().__new__(cls, sorted(set(ids)))

    def isdisjoint(self, other: Collection[str]) -> bool:
        """Whether none of these papers is in ``other`` (a set: each asked once)."""
        return not any(key in other for key in self)

    def __and__(self, other: Collection[str]) -> frozenset[str]:
        """These papers that are in ``other`` too."""
        return frozenset(key for key in self if key in other)


Ids = Union[PaperIds, frozenset[str]]  # a file's papers: as listed (``ids_of``), or a set given by hand (tests)


@dataclass(frozen=True, slots=True)
class Output:
    """One file of the site, rendered on demand. Slotted: a large volume's listing holds every one at once.

    ``deps`` names the papers (by id) whose content the file shows, so an
    edit to one paper re-renders only the files that show it; ``None`` means
    the file depends on the whole proceedings.
    """

    path: str
    render: Callable[[], bytes]
    deps: Ids | None = None
    # What a template worker may render of it (pipeline/shares.py), as its page type declares: "list", a file
    # showing papers as lists do (title, authors, links, topics; of an abstract only whether there is one and
    # its language); "page", ``paper``'s own page; "": the build renders it.
    share: str = ""
    paper: RenderedPaper | None = None
    # The same bytes as ``render``'s, in pieces, for a file that grows with every paper (papers.json, the
    # citation files): a sink that writes to disk writes each piece as it comes, and the file is never whole in
    # memory (pipeline/sinks.py: ``write_chunks``).
    chunks: Callable[[], Iterator[bytes]] | None = None


@dataclass(frozen=True)
class SiteListing:
    """What one listing of the site's files found: the files, the page types' files (the sitemap's), and what
    every page may show beyond its own papers (the site, the shared context, what page types show of papers
    they do not list): an edit that moves it moves more than the files that name the paper."""

    outputs: list[Output]
    pages: list[str]
    context: tuple

    def fingerprint(self) -> str:
        """``context`` as one string, for the build cache's digests (pipeline/reuse.py)."""
        site, shared, cross_page = self.context
        return repr((site, sorted(shared.items()), cross_page))


@dataclass(frozen=True)
class SiteParts:
    """What the page types are made of: the papers in proceedings order, and their topic and author pages;
    ``only``: the papers whose files are listed (None: every file)."""

    papers: list[RenderedPaper]
    tags: list[TagPage]
    authors: list[Person[RenderedPaper]]
    only: frozenset[str] | None = None

    @functools.cached_property
    def contents(self) -> Contents:
        """The volume's contents: its groups, on the home page or on pages of their own (render/contents.py)."""
        return plan_contents(self.papers, list_weight)


@dataclass(frozen=True)
class Shown:
    """What a page type's pages show of papers they do not list: entries of the templates' shared context, and
    what an edit that moves it must render every page again for (``SiteListing.context``)."""

    shared: dict[str, Any]
    beyond: Any


def ids_of(papers: Iterable[RenderedPaper | None]) -> PaperIds:
    return PaperIds([p.paper.id for p in papers if p is not None])
