""""The volume at a glance" (``glance.html``): its numbers (derive/charts.py) drawn as static SVG.

This module places the bars: each chart's rows and columns with their sizes worked out here, in whole pixels
and percentages of the chart's width, so that the SVG needs no script and no viewBox (a chart is as wide as the
page, its words at the page's own size, on a phone as on a desktop). The template (``_chart.html``) writes the
elements, every name through Jinja's escaping, and the theme's stylesheet colours them (``assets/charts.css``:
the theme's colours, light and dark, black on white in print). The same geometry draws a series' page
(series/pages.py).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

from generator.derive.charts import Count, Histogram, Tally, authors_histogram, volume_tallies

if TYPE_CHECKING:
    from generator.render.html import SiteRenderer
    from generator.render.outputs import SiteParts

GLANCE = "glance.html"
ROW = 38  # a bar's row: its name above, the bar and its number below
LONGEST = 84.0  # the longest bar, in % of the chart's width: the rest is for its number
PLOT = 140  # the histogram's tallest column, in pixels
PLOT_TOP = 22  # room above it for its number


@dataclass(frozen=True)
class Bar:
    """One row of a bar chart: its count and where it is drawn."""

    count: Count
    top: int  # the row's top, in pixels
    width: str  # the bar's length, in % of the chart's width

    @property
    def label_y(self) -> int:
        return self.top + 15

    @property
    def bar_y(self) -> int:
        return self.top + 21

    @property
    def value_y(self) -> int:
        return self.top + 32


@dataclass(frozen=True)
class BarChart:
    """A chart of categories: its numbers (``tally``), its rows, its height; ``linked`` when a bar leads to a
    page (the SVG is then a group of links, each named, rather than one image: an image's parts cannot be
    links a keyboard reaches)."""

    tally: Tally
    bars: tuple[Bar, ...]
    height: int

    @property
    def kind(self) -> str:
        return self.tally.kind

    @property
    def linked(self) -> bool:
        return any(bar.count.link for bar in self.bars)


@dataclass(frozen=True)
class Column:
    label: str  # the number of authors ("3", "12+")
    value: int  # papers
    x: str  # the column's left edge, width and middle, in % of the chart's width
    width: str
    middle: str
    top: int  # its top, in pixels
    height: int


@dataclass(frozen=True)
class ColumnChart:
    """The histogram of authors per paper: its numbers and its columns."""

    histogram: Histogram
    columns: tuple[Column, ...]
    baseline: int = PLOT_TOP + PLOT
    height: int = PLOT_TOP + PLOT + 24

    @property
    def mean(self) -> str:
        return f"{self.histogram.mean:.1f}"

    @property
    def median(self) -> str:
        return f"{self.histogram.median:g}"


def percent(value: float) -> str:
    """A length in % with at most two decimals, the same text for the same value on every machine."""
    return f"{round(value, 2):g}%"


def bar_chart(tally: Tally) -> BarChart:
    """The rows of a chart of categories, the longest bar ``LONGEST`` % wide; a bar of any papers at least a
    sliver, so that it is seen."""
    most = max((count.value for count in tally.shown), default=0) or 1
    bars = tuple(Bar(count, row * ROW, percent(max(count.value / most * LONGEST, 0.5 if count.value else 0)))
                 for row, count in enumerate(tally.shown))
    return BarChart(tally, bars, len(bars) * ROW + 4)


def column_chart(histogram: Histogram) -> ColumnChart:
    """The histogram's columns, side by side across the chart's width, the tallest ``PLOT`` pixels high."""
    slot = 100 / len(histogram.columns)
    most = max(value for _, value in histogram.columns) or 1
    columns = []
    for place, (label, value) in enumerate(histogram.columns):
        height = round(value / most * PLOT) if value else 0
        columns.append(Column(label, value, percent(slot * (place + 0.18)), percent(slot * 0.64),
                              percent(slot * (place + 0.5)), PLOT_TOP + PLOT - height, height))
    return ColumnChart(histogram, tuple(columns))


def glance_charts(parts: SiteParts, group_links: dict[str, str]) -> tuple[list[BarChart], ColumnChart | None]:
    """The volume's charts of categories, and its histogram of authors (None when no paper names one)."""
    papers = parts.papers
    topics = [(page.tag.name, page.papers, page.url) for page in parts.tags]
    charts = [bar_chart(tally) for tally in volume_tallies(papers, topics, group_links)]
    histogram = authors_histogram([len(paper.details.authors) for paper in papers])
    return charts, column_chart(histogram) if histogram is not None else None


def glance_files(renderer: SiteRenderer, parts: SiteParts) -> Iterator[tuple[str, Callable[[], bytes]]]:
    """``glance.html`` and what renders it, made from every paper (its output shows them all: any edit may move
    a count); none for a volume of no papers."""
    if parts.papers:
        # The counts are made when the page is rendered: a warm build keeps the page it made last time
        # (pipeline/reuse.py) and need not count at all.
        yield GLANCE, functools.partial(_glance_page, renderer, parts, renderer.shared["group_links"])


def _glance_page(renderer: SiteRenderer, parts: SiteParts, group_links: dict[str, str]) -> bytes:
    charts, histogram = glance_charts(parts, group_links)
    return renderer.render("glance.html", "", charts=charts, histogram=histogram)
