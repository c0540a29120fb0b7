"""The numbers of "the volume at a glance" (glance.html): how many papers each topic, session, track, day,
section and affiliation has, how many authors a paper has, and across a series, papers per volume and the
people who come back.

Counting only: where each bar goes and how it is drawn is render/glance.py's. Every count is of papers (a
paper in two sessions counts in each; a paper with three authors of one institution counts once for it).
Names are kept as the sources write them: two names are one only when they differ in case and spacing alone
("MIT" and "mit", "Queen  Mary" and "Queen Mary"), shown as most papers write them. Ties are ordered by name,
so the same papers always give the same charts.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from generator.derive.groups import day_key, group_kind, natural_key
from generator.model.paper import Author, RenderedPaper

TOP = 20  # bars in a chart of categories; the rest are summed as "others" (the page stays small at 10,000 papers)
MOST_AUTHORS = 12  # the histogram's last column: papers with this many authors or more
# Several affiliations of one author, as a source writes them ("Inria; ENS Paris") and as a list of them
# becomes (model/details._affiliation joins with "; "). A comma is part of one name ("Queen Mary University of
# London, Centre for Digital Music"), never a separator.
_AFFILIATIONS = re.compile(r"\s*;\s*")
_GROUP_KINDS = {"sections": "section", "sessions": "sessions", "tracks": "track"}  # a chart → derive/groups' kind


@dataclass(frozen=True)
class Count:
    """One bar: a name as written, its papers, and its page from the site's root ("" when it has none)."""

    name: str
    value: int
    link: str = ""
    extra: int = 0  # a second number the table shows (a returning person's papers beside their volumes)


@dataclass(frozen=True)
class Tally:
    """One chart's numbers: the bars shown (at most ``TOP``), and what is left out of them."""

    kind: str  # topics, sections, sessions, tracks, days, affiliations, volumes, people
    shown: tuple[Count, ...]
    categories: int  # how many there are in all (shown and not)
    others: int  # the papers (or people) in the categories not shown, each counted once
    without: int  # the papers that name none (no topic, no affiliation)
    ordered: bool = False  # shown in the programme's order (days, sections), not largest first

    @property
    def hidden(self) -> int:
        return self.categories - len(self.shown)

    @property
    def largest(self) -> Count:
        return max(self.shown, key=lambda count: count.value)


@dataclass(frozen=True)
class Histogram:
    """Papers by their number of authors: ``columns`` are (label, papers), one per number from the fewest to
    ``MOST_AUTHORS`` ("12+"); a column of no papers between two others is kept, so the shape reads true."""

    columns: tuple[tuple[str, int], ...]
    papers: int
    mean: float
    median: float


def fold(name: str) -> str:
    """What two spellings of one name share: case and spacing aside."""
    return " ".join(name.split()).casefold()


def tally(kind: str, members: Iterable[tuple[object, Sequence[str]]], links: Callable[[str], str] = lambda _: "",
          order: Callable[[str], object] | None = None, top: int = TOP) -> Tally:
    """Each name's papers from (paper, its names) pairs: a paper counted once per name (folded), each name as
    most of its papers write it (a tie: the first in sort order)."""
    papers: dict[str, set[int]] = {}
    spellings: dict[str, dict[str, int]] = {}
    without = 0
    for number, (_, names) in enumerate(members):
        own: dict[str, str] = {}
        for name in names:
            written = " ".join(name.split())
            if written:
                own.setdefault(written.casefold(), written)
        without += not own
        for key, written in own.items():
            if key not in papers:
                papers[key], spellings[key] = set(), {}
            papers[key].add(number)
            spellings[key][written] = spellings[key].get(written, 0) + 1
    named = {key: min(spelled, key=lambda s: (-spelled[s], s)) for key, spelled in spellings.items()}
    return ranked(kind, [(named[key], members_of, links(named[key])) for key, members_of in papers.items()],
                  without, order, top)


def ranked(kind: str, groups: Sequence[tuple[str, set[int], str]], without: int,
           order: Callable[[str], object] | None = None, top: int = TOP) -> Tally:
    """(name, its papers, its link) as a chart: the ``top`` largest shown, ties by name; in ``order`` (a
    programme's days) when every name fits, else largest first."""
    sizes = sorted((len(group[1]) for group in groups), reverse=True)
    least = sizes[top - 1] if len(sizes) >= top else 0  # only names this large can be shown: only they are sorted
    ranking = sorted((group for group in groups if len(group[1]) >= least),
                     key=lambda group: (-len(group[1]), natural_key(group[0]), group[0]))
    shown = ranking[:top]
    rest = [*ranking[top:], *(group for group in groups if len(group[1]) < least)]
    ordered = order is not None and not rest
    if ordered:
        shown.sort(key=lambda group: (order(group[0]), natural_key(group[0]), group[0]))  # type: ignore[misc]
    others = len(set().union(*(group[1] for group in rest)))
    return Tally(kind, tuple(Count(name, len(members), link) for name, members, link in shown), len(groups),
                 others, without, ordered)


def topic_tally(papers: Sequence[RenderedPaper], pages: Sequence[tuple[str, Sequence[RenderedPaper], str]]) -> Tally:
    """Papers per topic, from the topic pages (name, papers, page): the names and counts their pages show."""
    numbers = {id(paper): number for number, paper in enumerate(papers)}
    groups = [(name, {numbers[id(paper)] for paper in listed}, url) for name, listed, url in pages]
    return ranked("topics", groups, sum(1 for paper in papers if not paper.paper.tags))


def affiliations(authors: Sequence[Author]) -> list[str]:
    """A paper's institutions, as its authors' affiliations name them (several to an author, split at ";")."""
    return [part for author in authors for part in _AFFILIATIONS.split(author.affiliation) if part.strip()]


def volume_tallies(papers: Sequence[RenderedPaper], topics: Sequence[tuple[str, Sequence[RenderedPaper], str]],
                   group_links: dict[str, str]) -> list[Tally]:
    """The volume's charts of categories, those its papers carry (a chart whose every paper names nothing is
    left out): topics, the programme's sections, sessions, tracks and days, then affiliations. ``topics``: each
    topic page's (name, papers, page); ``group_links``: a group's name → its heading in the contents (a bar of
    the kind the contents are grouped by links there; a day has no heading)."""
    contents = group_kind(papers)  # the kind of group the contents have headings for, which a bar may link

    def group(kind: str) -> Callable[[str], str]:
        linked = _GROUP_KINDS.get(kind) == contents
        return lambda name: group_links.get(name, "") if linked else ""

    first = {name: place for place, name in enumerate(dict.fromkeys(p.details.section for p in papers))}
    # Sections and days read best in the programme's order (there are few); sessions and tracks rank by size,
    # which is what a glance at them asks (a session's place in the programme is the contents' to show).
    programme: list[tuple[str, Callable[[RenderedPaper], Sequence[str]], Callable[[str], object] | None]] = [
        ("sections", lambda p: (p.details.section,), lambda name: first.get(name, len(first))),
        ("sessions", lambda p: p.details.sessions, None),
        ("tracks", lambda p: p.details.track, None),
        ("days", lambda p: (p.details.day,), day_key),
    ]
    charts = [topic_tally(papers, topics)]
    charts += [tally(kind, ((p, names(p)) for p in papers), group(kind), order)
               for kind, names, order in programme]
    charts.append(tally("affiliations", ((p, affiliations(p.details.authors)) for p in papers)))
    return [chart for chart in charts if chart.shown]


def authors_histogram(counts: Sequence[int], most: int = MOST_AUTHORS) -> Histogram | None:
    """Papers by how many authors they have; None when no paper names an author (a plain list of abstracts)."""
    if not any(counts):
        return None
    by_number = Counter(min(count, most) for count in counts)
    low = min(by_number)
    high = max(by_number)
    columns = tuple((f"{number}+" if number == most else str(number), by_number[number])
                    for number in range(low, high + 1))
    ordered = sorted(counts)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return Histogram(columns, len(counts), sum(counts) / len(counts), median)


def volume_tally(volumes: Sequence[tuple[str, int, str]], top: int = TOP) -> Tally:
    """Papers per volume of a series from (title, papers, its home page), in the series' order (newest first):
    the first ``top`` shown, the older ones summed."""
    shown, rest = volumes[:top], volumes[top:]
    return Tally("volumes", tuple(Count(title, papers, link) for title, papers, link in shown), len(volumes),
                 sum(papers for _, papers, _ in rest), 0, ordered=True)


def returning_tally(people: Iterable[tuple[str, Sequence[str], int, str]], top: int = TOP) -> Tally:
    """The people of a series in two volumes or more, from (name, the volume of each of their papers, papers,
    page): the ``top`` who came back most, by volumes, then papers, then name. ``others`` counts the returning
    people not shown, ``without`` those in one volume only."""
    once = 0
    returning = []
    for name, volumes, papers, url in people:
        if len(set(volumes)) < 2:
            once += 1
        else:
            returning.append(Count(name, len(set(volumes)), url, papers))
    returning.sort(key=lambda count: (-count.value, -count.extra, natural_key(count.name), count.name, count.link))
    return Tally("people", tuple(returning[:top]), len(returning), max(0, len(returning) - top), once)
