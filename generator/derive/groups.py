"""Papers grouped as a programme reads them: by section, else session, else track.

A volume from PMLR has sections ("Contributed Papers", "Invited Talks"); a
Mini-Conf programme has sessions and tracks. The home page lists papers in
proceedings order under a heading for each run of papers of one group, with an
index of the groups at the top. Papers that name no group make one unnamed
group: a plain list, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.model.paper import RenderedPaper
from generator.text.slugs import slugify, unique


@dataclass(frozen=True)
class PaperGroup:
    name: str  # "" for papers that name no group
    anchor: str  # the heading's id on its page
    start: int  # the number of its first paper in the list
    papers: tuple[RenderedPaper, ...]


def group_name(paper: RenderedPaper) -> str:
    details = paper.details
    return details.section or next(iter(details.sessions or details.track), "")


def paper_groups(papers: Sequence[RenderedPaper], first_number: int = 1) -> list[PaperGroup]:
    """Runs of consecutive papers of one group; a group met again later gets a second heading."""
    groups: list[PaperGroup] = []
    taken: set[str] = set()
    run: list[RenderedPaper] = []
    start = first_number
    for number, paper in enumerate(papers, start=first_number):
        if run and group_name(paper) != group_name(run[0]):
            groups.append(_group(run, start, taken))
            run, start = [], number
        run.append(paper)
    if run:
        groups.append(_group(run, start, taken))
    return groups


def _group(run: list[RenderedPaper], start: int, taken: set[str]) -> PaperGroup:
    name = group_name(run[0])
    anchor = unique("group-" + slugify(name), taken) if name else ""
    taken.add(anchor)
    return PaperGroup(name, anchor, start, tuple(run))


def group_index(pages: Sequence[tuple[str, list[PaperGroup]]]) -> list[tuple[str, str]]:
    """(group name, link to its first heading) for each named group, in order of first appearance."""
    links: dict[str, str] = {}
    for url, groups in pages:
        for group in groups:
            if group.name and group.name not in links:
                links[group.name] = f"{url}#{group.anchor}"
    return list(links.items())
