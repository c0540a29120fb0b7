"""What map.html shows: the papers' marks in colour groups, a legend, and the clusters with their labels.

A mark's colour is its paper's topic (the first of its topics that is among the volume's ``COLOURS`` most
common) or its session; the rest share one colour ("other"). Clusters are found on the drawing itself
(k-means on the places, from a start that depends on nothing but the places), each labelled by the topic most
its own (count in the cluster squared over the count in the volume), else by the words of its titles; their
most central papers make the text alternative's links.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.derive.paper_map import Placed
from generator.model.paper import RenderedPaper

COLOURS = 9  # colour groups besides "other": what a reader tells apart (the theme's --map-1 … --map-9)
MAX_CLUSTERS = 12
CENTRAL = 3  # papers named under each cluster in the text alternative
UNPLACED_LISTED = 100  # papers listed under the map as not on it; the others are in the contents (a page < 100 KB)
_WORD = re.compile(r"[^\W\d_][\w-]{3,}")
_COMMON = frozenset("with from that this using towards based their approach learning model models method methods "
                    "data analysis study via over under into when which what through deep network networks".split())


@dataclass(frozen=True)
class Mark:
    x: int
    y: int
    url: str
    title: str


@dataclass(frozen=True)
class MarkGroup:
    """Papers of one colour: ``number`` 1–9 (the theme's classes ``m1`` … ``m9``), 0 for the rest; ``marks``: all
    its placed papers', ``drawn``: those the page draws itself (render/map_points.py; map.js draws the others)."""

    number: int
    name: str
    url: str
    marks: list[Mark] = field(default_factory=list)
    drawn: list[Mark] = field(default_factory=list)


@dataclass(frozen=True)
class Cluster:
    label: str
    url: str  # the label's topic page, or ""
    x: int
    y: int
    count: int
    papers: list[RenderedPaper]  # the most central first


def colour_by(papers: Sequence[RenderedPaper], choice: str) -> str:
    """"topics", "sessions" or "" (one colour), as the config's ``map`` chooses; ``auto``: topics when most
    papers have one, else sessions when most have one."""
    if choice in ("topics", "sessions"):
        return choice
    half = len(papers) / 2
    if sum(1 for p in papers if p.paper.tags) > half:
        return "topics"
    if sum(1 for p in papers if p.details.sessions) > half:
        return "sessions"
    return ""


def mark_groups(papers: Sequence[RenderedPaper], placed: Placed, by: str, tag_urls: dict[str, str],
                names: dict[str, str]) -> list[MarkGroup]:
    """The legend's groups, the most common first, "other" last; each with its placed papers' marks."""
    labels = {p.paper.id: _labels(p, by) for p in papers}
    counts = Counter(label for own in labels.values() for label in dict.fromkeys(own))
    top = sorted(counts, key=lambda label: (-counts[label], label.casefold()))[:COLOURS]
    groups = {label: MarkGroup(number, names.get(label, label), tag_urls.get(label.casefold(), "") if by == "topics"
                               else "") for number, label in enumerate(top, start=1)}
    other = MarkGroup(0, "", "")
    for paper in papers:
        place = placed.places.get(paper.paper.id)
        if place is None:
            continue
        group = next((groups[label] for label in labels[paper.paper.id] if label in groups), other)
        group.marks.append(Mark(place[0], place[1], paper.url, paper.title_plain))
    return [group for group in (*groups.values(), other) if group.marks]


def _labels(paper: RenderedPaper, by: str) -> tuple[str, ...]:
    if by == "topics":
        return paper.paper.tags
    if by == "sessions":
        return paper.details.sessions
    return ()


def clusters(papers: Sequence[RenderedPaper], placed: Placed, tag_urls: dict[str, str]) -> list[Cluster]:
    """The drawing's clusters, largest first, each with a label at its centre and its most central papers."""
    shown = [p for p in papers if p.paper.id in placed.places]
    if not shown:
        return []
    from generator.derive.map_layout import load_numpy

    np = load_numpy()
    points = np.array([placed.places[p.paper.id] for p in shown], dtype=np.float64)
    members = _kmeans(np, points, max(1, min(MAX_CLUSTERS, round((len(shown) / 6) ** 0.5))))
    found = []
    for group in members:
        centre = points[group].mean(0)
        order = sorted(group, key=lambda n: (float(((points[n] - centre) ** 2).sum()), n))
        found.append((len(group), [shown[n] for n in order], (round(centre[0]), round(centre[1]))))
    found.sort(key=lambda item: (-item[0], item[2]))
    named = _names([item[1] for item in found], shown)
    return [Cluster(label, tag_urls.get(label.casefold(), "") if is_topic else "", x, y, count, group[:CENTRAL])
            for (count, group, (x, y)), (label, is_topic) in zip(found, named)]


def _kmeans(np: Any, points: Any, k: int) -> list[list[int]]:
    """Lloyd's k-means from a farthest-point start (the point nearest the middle first): no randomness."""
    middle = points.mean(0)
    chosen = [int(((points - middle) ** 2).sum(1).argmin())]
    distance = ((points - points[chosen[0]]) ** 2).sum(1)
    while len(chosen) < min(k, len(points)):
        chosen.append(int(distance.argmax()))
        distance = np.minimum(distance, ((points - points[chosen[-1]]) ** 2).sum(1))
    centres = points[chosen]
    for _ in range(20):
        nearest = ((points[:, None, :] - centres[None, :, :]) ** 2).sum(2).argmin(1)
        moved = np.array([points[nearest == c].mean(0) if (nearest == c).any() else centres[c]
                          for c in range(len(centres))])
        if np.array_equal(moved, centres):
            break
        centres = moved
    return [group for group in (np.flatnonzero(nearest == c).tolist() for c in range(len(centres))) if group]


def _names(groups: list[list[RenderedPaper]], papers: Sequence[RenderedPaper]) -> list[tuple[str, bool]]:
    """Each cluster's label and whether it is a topic: its most telling topic not yet taken by a larger
    cluster, else the two most telling words of its titles."""
    topics = Counter(tag for p in papers for tag in dict.fromkeys(p.paper.tags))
    words = Counter(word for p in papers for word in _title_words(p))
    taken: set[str] = set()
    names = []
    for group in groups:
        name = _telling(Counter(tag for p in group for tag in dict.fromkeys(p.paper.tags)), topics, taken, 1)
        is_topic = bool(name)
        if not name:
            name = _telling(Counter(word for p in group for word in _title_words(p)), words, taken, 2)
        taken.update(name)
        names.append((" · ".join(name), is_topic))
    return names


def _telling(inside: Counter[str], overall: Counter[str], taken: set[str], count: int) -> list[str]:
    ranked = sorted((name for name, n in inside.items() if name not in taken and n > 1),
                    key=lambda name: (-inside[name] ** 2 / overall[name], name.casefold()))
    return ranked[:count]


def _title_words(paper: RenderedPaper) -> set[str]:
    return {word for word in map(str.lower, _WORD.findall(paper.title_plain)) if word not in _COMMON}


def map_context(papers: Sequence[RenderedPaper], placed: Placed, choice: str, tag_urls: dict[str, str],
                session_names: dict[str, str]) -> dict[str, Any]:
    """map.html's context (render/contexts.py: MapContext)."""
    by = colour_by(papers, choice)
    names = session_names if by == "sessions" else {}
    unplaced = set(placed.unplaced)
    listed = [p for p in papers if p.paper.id in unplaced]
    return {"map_width": placed.width, "map_height": placed.height, "colour_by": by,
            "groups": mark_groups(papers, placed, by, tag_urls, names),
            "clusters": clusters(papers, placed, tag_urls),
            "unplaced": listed[:UNPLACED_LISTED], "unplaced_count": len(listed)}
