"""A series' own files, beside its volumes, made from the volumes' typed papers.

``index.html`` (the series, then its volumes newest first), ``people/`` (a page per person,
series/people.py), ``reading-list.html`` (one reading list across the volumes: publish/reading_list.py),
``search.html`` (search across volumes, with the series' own index, written by
series/writer.py: search/series.py), ``papers.json`` (every paper with its volume), ``sitemap.xml`` (a
sitemap index: the volumes' sitemaps and the series' own, since one sitemap may hold at most 50,000
addresses) and ``feed.xml`` (the newest volume's papers), the feed and sitemaps written by
``publish.feeds`` as a volume's are.

``series_writer.SeriesWriter`` makes them while a build runs; ``series_live`` while serve runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable

from generator import __version__
from generator.series.people import group_people
from generator.derive.people import Person, Rules
from generator.errors import ThemeError
from generator.text.i18n import interface
from generator.model.paper import RenderedPaper
from generator.publish.feeds import (ROBOTS_PATH, SITEMAP_PATH, atom_feed, robots_txt, sitemap_index, sitemap_pages,
                                     sitemaps)
from generator.search import lunr_js
from generator.series.layout import SeriesVolume
from generator.render.html import AUTHORS_PER_PAGE
from generator.render.paginate import paginate
from generator.render.records import json_line
from generator.render.theme import Theme
from generator.model.volume import Volume

SERIES_SITEMAP = "sitemap-archive.xml"


class SeriesPages:
    """The series' page types, rendered with the series' theme in its language."""

    def __init__(self, series: Volume, volumes: list[SeriesVolume], content_dir: Path):
        self.env = Theme.for_content(content_dir).environment(interface(series.language))
        self.env.globals.update(series={"title": series.title, "description": series.description,
                                        "language": series.language, "version": __version__,
                                        "paper_count": sum(len(v.papers) for v in volumes)},
                                volumes=volumes, search_volumes=[search_volume(v) for v in volumes])

    def render(self, template: str, root: str, **context: Any) -> bytes:
        try:
            return self.env.get_template(template).render(root=root, **context).encode("utf-8")
        except Exception as exc:  # a theme's own template: name it, never a traceback
            raise ThemeError(f"template {template} failed: {exc}") from None

    def html(self, people: list[Person]) -> dict[str, bytes]:
        files = {"index.html": self.render("archive.html", ""),
                 "search.html": self.render("archive-search.html", ""),
                 "reading-list.html": self.render("archive-reading-list.html", "")}
        for url, chunk, pagination in paginate(people, AUTHORS_PER_PAGE, "people/index"):
            files[url] = self.render("people.html", "../", people=chunk, pagination=pagination, count=len(people))
        for person in people:
            files[person.url] = self.render("person.html", "../", person=person)
        return files


def series_files(series: Volume, volumes: list[SeriesVolume], content_dir: Path, warn: Callable[..., None],
                 newest: list[RenderedPaper] | None, rules: Rules | None = None) -> dict[str, bytes]:
    """Every file of the series but papers.json; ``volumes`` newest first, ``newest`` the first one's papers,
    ``rules`` the series' people.yaml."""
    people = group_people(volumes, warn, rules)
    files = SeriesPages(series, volumes, content_dir).html(people)
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
