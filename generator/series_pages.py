"""A series' own files, beside its volumes, made from the volumes' typed papers.

``index.html`` (the series, then its volumes newest first), ``people/`` (a page per person,
archive_people.py), ``search.html`` (search across volumes: each volume's prebuilt index is loaded
only when a query needs it), ``papers.json`` (every paper with its volume), ``sitemap.xml`` (a
sitemap index: the volumes' sitemaps and the series' own, since one sitemap may hold at most 50,000
addresses) and ``feed.xml`` (the newest volume's papers), the feed and sitemaps written by
``publish.feeds`` as a volume's are.

``SeriesWriter`` makes them while a build runs: each volume's papers.json records are written to a
part file as soon as the volume is built (so the series' papers are never all in memory), the newest
volume's papers are kept for the feed, and the pages are rendered once every volume is known.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable, Iterable

from generator import __version__
from generator.archive_people import Person, group_people
from generator.cache import BuildCache
from generator.errors import ThemeError
from generator.i18n import interface
from generator.model import Author, RenderedPaper
from generator.output import Staging
from generator.publish.feeds import SITEMAP_PATH, atom_feed, sitemap_index, sitemap_pages, sitemaps
from generator.reporter import Reporter
from generator.search import lunr_js
from generator.series import Layout, Listing, Member, SeriesVolume, newest_first, volume_date
from generator.site import AUTHORS_PER_PAGE, json_line, paginate, paper_record
from generator.theme import Theme, default_theme_dir
from generator.volume import Volume

ARCHIVE_ASSETS = ("archive-search.js",)  # themes/default/archive/: never copied into a volume
STATIC_ASSETS = ("style.css", "search.css", "favicon.svg")
QUERY_END = "  // tests/js runs the query code above in node"
SERIES_SITEMAP = "sitemap-archive.xml"
PARTS = ".series-parts"
CACHE_KIND = "series"  # each volume's SeriesVolume, for a volume that fails to build next time


class SeriesPages:
    """The series' page types, rendered with the series' theme in its language."""

    def __init__(self, series: Volume, volumes: list[SeriesVolume], content_dir: Path):
        self.env = Theme.for_content(content_dir).environment(interface(series.language))
        self.env.globals.update(series={"title": series.title, "description": series.description,
                                        "language": series.language, "version": __version__,
                                        "paper_count": sum(len(v.papers) for v in volumes)},
                                volumes=volumes)

    def render(self, template: str, root: str, **context) -> bytes:
        try:
            return self.env.get_template(template).render(root=root, **context).encode("utf-8")
        except Exception as exc:  # a theme's own template: name it, never a traceback
            raise ThemeError(f"template {template} failed: {exc}") from None

    def html(self, people: list[Person]) -> dict[str, bytes]:
        files = {"index.html": self.render("archive.html", ""),
                 "search.html": self.render("archive-search.html", "")}
        for url, chunk, pagination in paginate(people, AUTHORS_PER_PAGE, "people/index"):
            files[url] = self.render("people.html", "../", people=chunk, pagination=pagination, count=len(people))
        for person in people:
            files[person.url] = self.render("person.html", "../", person=person)
        return files


def series_files(series: Volume, volumes: list[SeriesVolume], content_dir: Path, warn: Callable[..., None],
                 newest: list[RenderedPaper] | None) -> dict[str, bytes]:
    """Every file of the series but papers.json; ``volumes`` newest first, ``newest`` the first one's papers."""
    people = group_people(volumes, warn)
    files = SeriesPages(series, volumes, content_dir).html(people)
    files.update(series_sitemaps(series, volumes, list(files)))
    if volumes and newest is not None:
        feed = atom_feed(newest, volumes[0].volume, series, volumes[0].path)
        if feed is not None:
            files["feed.xml"] = feed
    files.update(assets())
    return files


def series_records(volume: SeriesVolume, papers: Iterable[dict]) -> Iterable[bytes]:
    """A volume's papers.json records as the series' papers.json holds them: with ``volume_path`` and
    ``volume_title`` (``volume`` is a citation's volume number) and a ``url`` from the series' root."""
    for record in papers:
        yield json_line({"volume_path": volume.path, "volume_title": volume.title,
                         **record, "url": f"{volume.path}/{record['url']}"})


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


def assets() -> dict[str, bytes]:
    """The theme's styles, lunr.js, the volumes' query code (search-query.js) and archive-search.js."""
    theme = default_theme_dir()
    files = {f"assets/{name}": (theme / "static" / name).read_bytes() for name in STATIC_ASSETS}
    files.update({f"assets/{name}": (theme / "archive" / name).read_bytes() for name in ARCHIVE_ASSETS})
    files["assets/lunr.js"] = lunr_js()
    files["assets/search-query.js"] = query_script((theme / "static" / "search.js").read_text(encoding="utf-8"))
    return files


def query_script(search_js: str) -> bytes:
    """The query half of search.js (words, stemming, CJK bigrams, ``find``) as a browser global,
    so that the archive searches the volumes' indexes exactly as a volume's own box does."""
    end = search_js.find(QUERY_END)
    if end < 0:
        raise ThemeError("search.js lacks the line that ends its query code; the archive search needs it")
    exported = ("  globalThis.proceedingsQuery = { normalise: normalise, queryWords: queryWords, "
                "fromLatex: fromLatex, find: find, markedRanges: markedRanges };\n})();\n")
    return (search_js[:end] + exported).encode("utf-8")


class SeriesWriter:
    """The series' files, made while its volumes are built into ``staging``."""

    def __init__(self, layout: Layout, staging: Staging, cache: bool = True):
        assert layout.series is not None
        self.layout, self.series, self.staging = layout, layout.series, staging
        self.volumes: list[SeriesVolume] = []
        self.newest: tuple[SeriesVolume, list[RenderedPaper]] | None = None
        self.parts = staging.path / PARTS  # removed before the swap; a killed build's goes with its staging
        self.parts.mkdir()
        self.store = BuildCache.for_content(layout.content_dir, enabled=cache)
        self.known = self.store.load_json(CACHE_KIND, self.store.key(CACHE_KIND)) if self.store.enabled else None
        self.seen: dict[str, object] = {}

    def add(self, member: Member, volume: Volume, papers: list[RenderedPaper], files: Iterable[str]) -> None:
        """A volume just built: listed, its records written out, kept for the feed if it is the newest."""
        entry = SeriesVolume.of(member.prefix, volume, papers, files)
        self._listed(entry, series_records(entry, (paper_record(p) for p in papers)))
        if self.newest is None or entry.sort_key > self.newest[0].sort_key:
            self.newest = (entry, papers)

    def carried(self, member: Member) -> None:
        """A volume that failed to build, its last build carried over: listed as it was last built."""
        known = (self.known or {}).get(member.prefix) if isinstance(self.known, dict) else None
        published = self.staging.path / member.prefix / "papers.json"
        if known is None or not published.is_file():
            return
        entry = from_json(member.prefix, known)
        records = json.loads(published.read_text(encoding="utf-8"))
        self._listed(entry, series_records(entry, records))
        if self.newest is None or entry.sort_key > self.newest[0].sort_key:
            self.newest = (entry, [])  # its papers are not at hand: the feed waits for its next build

    def _listed(self, entry: SeriesVolume, records: Iterable[bytes]) -> None:
        self.volumes.append(entry)
        with open(self.parts / f"{len(self.volumes)}.jsonl", "wb") as part:
            for line in records:
                part.write(line + b"\n")
        self.seen[entry.path] = to_json(entry)

    def finish(self, reporter: Reporter) -> tuple[list[SeriesVolume], int]:
        """The series' pages and papers.json, written into the staging folder; the volumes, newest first,
        and how many files."""
        try:
            volumes = newest_first(self.volumes)
            newest = self.newest[1] if self.newest and volumes and self.newest[0] is volumes[0] else None
            files = series_files(self.series, volumes, self.layout.content_dir, reporter.warn, newest)
            for name, data in files.items():
                self.staging.write(name, data)
            order = {id(v): n + 1 for n, v in enumerate(self.volumes)}
            with open(self.staging.path / "papers.json", "wb") as out:
                out.writelines(join_records(self._part(order[id(v)]) for v in volumes))
            if self.store.enabled:
                self.store.store_json(CACHE_KIND, self.store.key(CACHE_KIND), self.seen)
            return volumes, len(files) + 1
        finally:
            shutil.rmtree(self.parts, ignore_errors=True)

    def _part(self, number: int) -> Iterable[bytes]:
        with open(self.parts / f"{number}.jsonl", "rb") as part:
            for line in part:
                yield line.rstrip(b"\n")


def to_json(volume: SeriesVolume) -> dict:
    return {"title": volume.title, "description": volume.volume.description, "date": volume.date,
            "year": volume.year, "sitemaps": list(volume.sitemaps), "papers": [[p.id, p.url, p.title, p.year,
                                             [[a.name, a.affiliation, a.orcid, a.id] for a in p.authors]]
                                            for p in volume.papers]}


def from_json(path: str, data: dict) -> SeriesVolume:
    volume = Volume(data["title"], data["description"], date=volume_date(data["date"]))
    papers = tuple(Listing(id_, url, title, tuple(Author(*author) for author in authors), year)
                   for id_, url, title, year, authors in data["papers"])
    return SeriesVolume(path, volume, papers, data["year"], tuple(data["sitemaps"]))
