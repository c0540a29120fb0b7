"""A series' own files, beside its volumes: the series' page types, rendered by the renderer a volume uses.

A series is one site of collections (Zola's languages at a prefix): each volume is a collection at its
folder's name, built by the volume's own pipeline, and the series' home, search, reading list and people
are page types of the same ``SiteRenderer``, whose templates see the series as ``site`` (and, for themes
written before, as ``series``), with its ``volumes`` newest first.

``index.html`` (the series, then its volumes newest first), ``people/`` (a page per person,
series/people.py), ``reading-list.html`` (one reading list across the volumes: publish/reading_list.py),
``search.html`` (search across volumes, with the series' own index: search/series.py), ``papers.json``
(every paper with its volume), ``sitemap.xml`` (a sitemap index: the volumes' sitemaps and the series'
own, since one sitemap may hold at most 50,000 addresses) and ``feed.xml`` (the newest volume's papers),
the feed and sitemaps written by ``publish.feeds`` as a volume's are. ``series/site.py`` makes them, for
``build`` and ``serve`` alike.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from generator.derive.charts import returning_tally, volume_tally
from generator.derive.people import Person, Rules
from generator.model.config import Config
from generator.model.paper import RenderedPaper
from generator.model.volume import Volume
from generator.publish import jsonld
from generator.publish.feeds import (ROBOTS_PATH, SITEMAP_PATH, atom_feed, feed_path, robots_txt, sitemap_index,
                                     sitemap_pages, sitemaps)
from generator.render.glance import GLANCE, bar_chart
from generator.render.html import AUTHORS_PER_PAGE, SiteRenderer
from generator.render.outputs import Output
from generator.render.site_info import SiteInfo
from generator.render.paginate import paginate
from generator.render.records import json_line
from generator.render.theme import Theme
from generator.search import lunr_js
from generator.series.layout import SeriesVolume
from generator.series.people import group_people
from generator.series.person_feeds import dated, person_feed, person_link

SERIES_SITEMAP = "sitemap-archive.xml"


@dataclass(frozen=True)
class SeriesParts:
    """What the series' page types are made of: its volumes, newest first, and its people."""

    volumes: list[SeriesVolume]
    people: list[Person]
    search_volumes: list[dict] = field(default_factory=list)  # each volume as the search box lists it

    @classmethod
    def of(cls, volumes: list[SeriesVolume], people: list[Person]) -> SeriesParts:
        return cls(volumes, people, [search_volume(v) for v in volumes])

    def context(self, renderer: SiteRenderer) -> dict[str, Any]:
        """What every page of the series sees beside ``site`` and ``root``: ``series``, the name themes written
        before the series was a site gave ``site`` (the same object), ``volumes`` and ``search_volumes``."""
        return {"series": renderer.site, "volumes": self.volumes, "search_volumes": self.search_volumes}


def _page(renderer: SiteRenderer, parts: SeriesParts, path: str, template: str, root: str, **context: Any) -> Output:
    return Output(path, functools.partial(renderer.render, template, root, **parts.context(renderer), **context))


def home_page(renderer: SiteRenderer, parts: SeriesParts) -> Iterator[Output]:
    yield _page(renderer, parts, "index.html", "series.html", "")


def search_page(renderer: SiteRenderer, parts: SeriesParts) -> Iterator[Output]:
    yield _page(renderer, parts, "search.html", "series-search.html", "")


def reading_list_page(renderer: SiteRenderer, parts: SeriesParts) -> Iterator[Output]:
    yield _page(renderer, parts, "reading-list.html", "series-reading-list.html", "")


def people_pages(renderer: SiteRenderer, parts: SeriesParts) -> Iterator[Output]:
    """The index of people (paginated) and a page per person across the volumes."""
    people = parts.people
    for url, chunk, pagination in paginate(people, AUTHORS_PER_PAGE, "people/index"):
        yield _page(renderer, parts, url, "people.html", "../", people=chunk, pagination=pagination, count=len(people))
    series = renderer.site.volume
    for person in people:
        feed = feed_path(person.url) if dated(person) else ""
        yield _page(renderer, parts, person.url, "person.html", "../", person=person, feed=feed,
                    correction=person_link(person, series),
                    jsonld=jsonld.author_page(person.name, person.orcid, person.affiliations,
                                              renderer.site.volume.absolute(person.url) or ""))
        if feed:  # across the volumes (series/person_feeds.py)
            yield Output(feed, functools.partial(lambda p: person_feed(p, series) or b"", person))


def glance_page(renderer: SiteRenderer, parts: SeriesParts) -> Iterator[Output]:
    """The series at a glance: papers per volume (newest first, linking each volume's home) and the people who
    come back (in two volumes or more, linking their pages); a chart with nothing to show is left out."""
    volumes = volume_tally([(v.title, len(v.papers), f"{v.href}/index.html") for v in parts.volumes])
    people = returning_tally((person.name, [volume.path for volume, _ in person.papers], len(person.papers),
                              person.url) for person in parts.people)
    charts = [bar_chart(tally) for tally in (volumes, people) if tally.shown]
    yield _page(renderer, parts, GLANCE, "series-glance.html", "", charts=charts, people_count=len(parts.people))


# The series' page types, in the order their outputs are listed: each takes the renderer and the series' parts
# and yields its outputs, as a volume's PAGE_TYPES (render/page_types.py) do.
SERIES_PAGE_TYPES: tuple[Callable[[SiteRenderer, SeriesParts], Iterable[Output]], ...] = (
    home_page, search_page, reading_list_page, people_pages, glance_page,
)


def series_renderer(config: Config, series: Volume, volumes: list[SeriesVolume], content_dir: Path) -> SiteRenderer:
    """The renderer of a volume, for the series: its theme and language, the series as ``site``."""
    info = SiteInfo(series, sum(len(v.papers) for v in volumes))
    return SiteRenderer(Theme.for_content(content_dir), config, info)


def series_files(config: Config, series: Volume, volumes: list[SeriesVolume], content_dir: Path,
                 warn: Callable[..., None], newest: list[RenderedPaper] | None,
                 rules: Rules | None = None) -> dict[str, bytes]:
    """Every file of the series but papers.json and its search index; ``volumes`` newest first, ``newest`` the
    first one's papers, ``rules`` the series' people.yaml."""
    renderer = series_renderer(config, series, volumes, content_dir)
    parts = SeriesParts.of(volumes, group_people(volumes, warn, rules))
    files = {output.path: output.render() for page_type in SERIES_PAGE_TYPES for output in page_type(renderer, parts)}
    files.update(series_sitemaps(series, volumes, list(files)))
    files[ROBOTS_PATH] = robots_txt(series)  # naming the sitemap index, which names every volume's sitemaps
    if volumes and newest is not None:
        feed = atom_feed(newest, volumes[0].volume, series, volumes[0].path)
        if feed is not None:
            files["feed.xml"] = feed
    files.update(assets(content_dir))
    return files


def search_volume(volume: SeriesVolume) -> dict:
    """A volume as the series' search box lists it; its address only when its folder's name needs encoding."""
    return {"path": volume.path, "title": volume.title, **({"href": volume.href} if volume.href != volume.path else {})}


def series_records(volume: SeriesVolume, papers: Iterable[dict]) -> Iterable[bytes]:
    """A volume's papers.json records as the series' papers.json holds them: with ``volume_path`` and
    ``volume_title`` (``volume`` is a citation's volume number) and a ``url`` from the series' root."""
    for record in papers:
        yield json_line({"volume_path": volume.path, "volume_title": volume.title,
                         **record, "url": f"{volume.href}/{record['url']}"})


def join_records(parts: Iterable[Iterable[bytes]]) -> Iterable[bytes]:
    """papers.json's bytes: one record a line, as a volume's."""
    yield b"[\n"
    first = True
    for part in parts:
        for line in part:
            yield line if first else b",\n" + line
            first = False
    yield b"\n]\n"


def series_sitemaps(series: Volume, volumes: list[SeriesVolume], pages: list[str]) -> dict[str, bytes]:
    """The series' own sitemap (``sitemap-archive.xml``, split past 50,000 pages) and ``sitemap.xml``, an index
    naming it and each volume's sitemaps; none without a base URL."""
    own = sitemaps(sitemap_pages(pages), series, stem=SERIES_SITEMAP.removesuffix(".xml"))
    leaves = [f"{v.path}/{name}" for v in sorted(volumes, key=lambda v: v.path) for name in v.sitemaps]
    index = sitemap_index([*own, *leaves], series)
    return {} if index is None else {**own, SITEMAP_PATH: index}


def assets(content_dir: Path) -> dict[str, bytes]:
    """The theme's static files (the series' ``theme/static`` shadowing the default's, as a volume's
    does) and lunr.js, under assets/: the same search.js and search-query.js as a volume's."""
    static = Theme.for_content(content_dir).static_files()
    files = {f"assets/{name}": path.read_bytes() for name, path in static.items()}
    files["assets/lunr.js"] = lunr_js()
    return files
