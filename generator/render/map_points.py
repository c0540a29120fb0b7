"""What map.html draws itself and what map.js draws after it (issue 43): the page under 100 KB at any size.

The page holds the map's landmarks (the cluster labels, the legend with every group's count, the clusters as a
list) and as many marks as fit ``MARK_BYTES`` and the page's ``PAGE_BYTES``. A volume whose marks pass
``MARK_BYTES`` has every mark written beside the page too, in scripts ``map/points-N.js`` that each call
``proceedingsMap.arrived(name, points)`` (scripts, not JSON, since fetch() is refused from file://); map.js loads
them once the page is drawn and draws the marks the page does not. A volume whose marks fit draws them all and
writes no file: one rule, by size.

The files are made from the papers alone, before their places are known: how many there are follows from the
papers' titles and addresses (``file_count``), and file N holds every Nth paper of the volume from the Nth, so
each file is a sample of the whole volume that fills the whole map in. So the listing of the site's files needs
no layout, which serve works out in the background after an edit.

Which marks the page draws: a spread of the whole drawing, so that they already make the map. The marks are
sorted along a Z-order curve over their places and taken in the order of their positions' bits reversed
(0, n/2, n/4, 3n/4, …): any first k of that order are spaced evenly along the curve, so every part of the map
shows in proportion to its papers. Nothing random: the same places give the same bytes.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import escape

from generator.model.paper import RenderedPaper
from generator.render.map_view import Mark, MarkGroup
from generator.search.payload import compact_json, data_script

PAGE_LIMIT = 100_000  # no page over 100 KB but the contents pages (issue 43)
PAGE_BYTES = 96_000  # what the plan aims at: a little under the limit, for what the frame's render adds
MARK_BYTES = 64_000  # of marks in the page, however small the rest: a page quick to draw
FILE_BYTES = 64_000  # of JSON in one points file, about (20 KB gzipped)
FOLDER = "map"
CALLBACK = "proceedingsMap.arrived"


@dataclass(frozen=True)
class MapPlan:
    """The page's groups (each with the marks it draws, ``drawn``), the count it draws and places in all, and
    the points files (path, bytes), which hold every placed paper once."""

    groups: list[MarkGroup]
    drawn: int
    count: int
    files: list[tuple[str, bytes]]

    def context(self) -> dict[str, Any]:
        """What map.html sees of the plan (render/contexts.py: MapContext)."""
        return {"groups": self.groups, "map_drawn": self.drawn, "map_count": self.count,
                "map_files": [path for path, _ in self.files]}


def file_count(papers: Sequence[RenderedPaper]) -> int:
    """How many points files the volume has: none when its marks fit ``MARK_BYTES``, else enough for its points at
    ``FILE_BYTES`` a file, counting each place at its longest (four digits each way: the drawing is 1,000 wide)."""
    marks = 0
    for paper in papers:  # (until the marks pass the page's budget: a few hundred of 10,000 papers)
        marks += mark_bytes(Mark(1000, 1000, paper.url, paper.title_plain))
        if marks > MARK_BYTES:
            break
    else:
        return 0
    return math.ceil(sum(len(compact_json(_row(9, Mark(1000, 1000, p.url, p.title_plain)))) + 1
                         for p in papers) / FILE_BYTES)


def file_path(number: int) -> str:
    return f"{FOLDER}/points-{number}.js"


def spread_order(places: Sequence[tuple[int, int]]) -> list[int]:
    """The indices of ``places`` in spread order: any first k of them spaced evenly over the drawing."""
    along = sorted(range(len(places)), key=lambda n: (_morton(*places[n]), n))
    bits = max(len(places) - 1, 1).bit_length()
    return [along[position] for position in sorted(range(len(places)), key=lambda p: _reversed(p, bits))]


def _morton(x: int, y: int) -> int:
    """The place's position on the Z-order curve: the bits of x and y interleaved (places are whole units)."""
    code = 0
    for bit in range(max(x, y, 1).bit_length()):
        code |= ((x >> bit) & 1) << (2 * bit) | ((y >> bit) & 1) << (2 * bit + 1)
    return code


def _reversed(number: int, bits: int) -> int:
    return int(format(number, f"0{bits}b")[::-1], 2)


def mark_bytes(mark: Mark) -> int:
    """A mark's bytes in the page, as map.html writes it (a link, its title and its dot, on a line)."""
    return len(f'<a href="{escape(mark.url)}"><title>{escape(mark.title)}</title>'
               f'<circle cx="{mark.x}" cy="{mark.y}" r="5"/></a>\n'.encode("utf-8"))


def plan_map(papers: Sequence[RenderedPaper], groups: list[MarkGroup], render: Callable[[MapPlan], bytes],
             files: int) -> tuple[MapPlan, bytes]:
    """The plan and the page it renders (``render``: map.html with the plan's context), with ``files`` points
    files (``file_count``): the page draws every mark when there are none, else the longest spread it has room
    for; a page still over the limit (a theme's own markup) draws fewer again."""
    points = [(group.number, mark) for group in groups for mark in group.marks]
    written = points_files(papers, points, files)
    if not files:
        plan = _planned(groups, points, list(range(len(points))), len(points), written)
        return plan, render(plan)
    order = spread_order([(mark.x, mark.y) for _, mark in points])
    frame = len(render(_planned(groups, points, order, 0, written)))
    costs = [mark_bytes(points[n][1]) for n in order]
    drawn, budget = 0, min(MARK_BYTES, PAGE_BYTES - frame)
    while drawn < len(costs) and budget >= costs[drawn]:
        budget -= costs[drawn]
        drawn += 1
    while True:
        plan = _planned(groups, points, order, drawn, written)
        page = render(plan)
        over = len(page) - PAGE_LIMIT
        if over <= 0 or drawn == 0:
            return plan, page
        while drawn > 0 and over > 0:  # a theme writes marks its own way: as many fewer as it is over
            drawn -= 1
            over -= costs[drawn]


def _planned(groups: list[MarkGroup], points: list[tuple[int, Mark]], order: list[int], drawn: int,
             files: list[tuple[str, bytes]]) -> MapPlan:
    """The plan that draws the first ``drawn`` of ``order`` in the page (each group's in its own order)."""
    inline = {points[n][1].url for n in order[:drawn]}
    shown = [dataclasses.replace(group, drawn=[mark for mark in group.marks if mark.url in inline])
             for group in groups]
    return MapPlan(shown, drawn, len(points), files)


def points_files(papers: Sequence[RenderedPaper], points: Sequence[tuple[int, Mark]],
                 files: int) -> list[tuple[str, bytes]]:
    """``files`` points files: file N holds the points of every ``files``-th paper from the Nth, in the volume's
    order, each ``[x, y, colour group, slug, title]`` (its page papers/<slug>.html)."""
    if not files:
        return []
    position = {paper.url: number for number, paper in enumerate(papers)}
    rows: list[list[tuple[int, list[Any]]]] = [[] for _ in range(files)]
    for number, mark in points:
        rows[position[mark.url] % files].append((position[mark.url], _row(number, mark)))
    return [(file_path(n), data_script(CALLBACK, f"points-{n}", [row for _, row in sorted(held)]))
            for n, held in enumerate(rows)]


def _row(number: int, mark: Mark) -> list[Any]:
    """A point as a file holds it; RenderedPaper.url is always papers/<slug>.html."""
    return [mark.x, mark.y, number, mark.url.removeprefix("papers/").removesuffix(".html"), mark.title]
