"""The volume's contents: one page, or for a big volume a page per group (issue 29).

Up to CONTENTS_PAPERS papers are listed on the home page, as PMLR's and the ACL
Anthology's volume pages list theirs. A bigger volume is split by its groups (its
sections, else sessions, else tracks, else each paper's primary topic) into pages
under ``contents/``: consecutive small groups share a page, a group too big for one
is cut into parts ("Reinforcement learning, part 2 of 3"), and the home page lists
every group with links to where it is. So even the largest volume makes some tens of
pages, each within the budget, never hundreds of numbered ones.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generator.derive.groups import PaperGroup, group_kind, paper_groups
from generator.model.paper import RenderedPaper
from generator.render.paginate import chunk_by_weight
from generator.text.slugs import slugify, unique

# Papers on the one contents page of a volume, and the bytes their list items may make (a page a phone
# still loads quickly; tests/test_site.py holds it to 300 KB gzip).
CONTENTS_PAPERS = 1_000
CONTENTS_BUDGET = 1_000_000
# A paper in several sessions is listed once (derive/groups.py), so its listings weigh what its papers do; the
# bound stays for a theme that lists papers again under each of their groups.
LISTINGS_BUDGET = 2_500_000
# A split volume's pages hold more (list items gzip about ten to one), so that even a very large volume
# whose papers are each in two sessions makes at most 100 pages (tests/test_contents.py).
PAGE_PAPERS = 1_500
PAGE_BUDGET = 1_500_000
FOLDER = "contents"


@dataclass(frozen=True)
class ContentsPage:
    """One page of a split volume's contents: the groups (or parts of groups) it lists, in order."""

    url: str
    groups: tuple[PaperGroup, ...]

    @property
    def papers(self) -> tuple[RenderedPaper, ...]:
        """The papers it lists."""
        return tuple(paper for group in self.groups for paper in group.papers)

    @property
    def shown(self) -> tuple[RenderedPaper, ...]:
        """Every paper it shows: those it lists and those its groups name as listed under an earlier one."""
        return (*self.papers, *(paper for group in self.groups for paper in group.also))


@dataclass(frozen=True)
class GroupEntry:
    """A group as the home page of a split volume lists it: its name, its count and where its parts are."""

    name: str
    count: int  # its papers, those listed under an earlier group included
    links: tuple[str, ...]  # "contents/<page>.html#<anchor>", one per part
    kind: str = ""  # as PaperGroup's


@dataclass(frozen=True)
class Contents:
    """The plan of the contents: ``groups`` on the home page, or ``pages`` and the home page's ``index``."""

    groups: tuple[PaperGroup, ...] = ()
    pages: tuple[ContentsPage, ...] = ()
    index: tuple[GroupEntry, ...] = ()

    @property
    def split(self) -> bool:
        return bool(self.pages)


def plan_contents(papers: Sequence[RenderedPaper], weight: Callable[[RenderedPaper], int]) -> Contents:
    """The home page's groups when the volume fits one page, else its contents pages."""
    costs = {id(paper): weight(paper) for paper in papers}  # once a paper, however many groups list it
    weight = functools.partial(_cost, costs)
    if len(papers) <= CONTENTS_PAPERS and sum(map(weight, papers)) <= CONTENTS_BUDGET:
        groups = paper_groups(papers)
        if sum(weight(paper) for group in groups for paper in group.papers) <= LISTINGS_BUDGET:
            return Contents(groups=tuple(groups))
    groups = paper_groups(papers, group_kind(papers, topics=True))
    pieces = [part for group in groups for part in _parts(group, weight)]
    pages = _pages(_packed(pieces, weight))
    return Contents(pages=pages, index=_index(groups, pages))


def _cost(costs: dict[int, int], paper: RenderedPaper) -> int:
    return costs[id(paper)]


def _parts(group: PaperGroup, weight: Callable[[RenderedPaper], int]) -> list[PaperGroup]:
    """A group as pieces that each fit a page: the whole group, or its parts (numbered in ``part``)."""
    chunks = chunk_by_weight(group.papers, PAGE_PAPERS, weight, PAGE_BUDGET)
    if len(chunks) == 1:
        return [group]
    return [PaperGroup(group.name, f"{group.anchor}-part-{n}" if n > 1 else group.anchor, tuple(chunk), n, len(chunks),
                       group.kind, group.also if n == 1 else ())
            for n, chunk in enumerate(chunks, start=1)]


def _packed(pieces: list[PaperGroup], weight: Callable[[RenderedPaper], int]) -> list[list[PaperGroup]]:
    """Consecutive pieces share a page while they fit: 300 sessions of 20 papers make 6 pages, not 300."""
    pages: list[list[PaperGroup]] = []
    count = load = 0
    for piece in pieces:
        cost = sum(map(weight, piece.papers))
        if not pages or count + len(piece.papers) > PAGE_PAPERS or load + cost > PAGE_BUDGET:
            pages.append([])
            count = load = 0
        pages[-1].append(piece)
        count += len(piece.papers)
        load += cost
    return pages


def _pages(packed: list[list[PaperGroup]]) -> tuple[ContentsPage, ...]:
    """Each page named after its first group (and part): contents/session-1a.html, contents/vision-part-2.html."""
    taken: set[str] = set()
    pages = []
    for groups in packed:
        first = groups[0]
        stem = slugify(first.name) if first.name else "other-papers"
        stem = unique(f"{stem}-part-{first.part}" if first.part > 1 else stem or "group", taken)
        taken.add(stem)
        pages.append(ContentsPage(f"{FOLDER}/{stem}.html", tuple(groups)))
    return tuple(pages)


def _index(groups: list[PaperGroup], pages: tuple[ContentsPage, ...]) -> tuple[GroupEntry, ...]:
    links: dict[str, list[str]] = {group.name: [] for group in groups}  # a volume's groups have one name each
    for page in pages:
        for piece in page.groups:
            links[piece.name].append(f"{page.url}#{piece.anchor}")
    return tuple(GroupEntry(group.name, group.count, tuple(links[group.name]), group.kind) for group in groups)
