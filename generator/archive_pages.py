"""The archive's own files, written beside its volumes.

``index.html`` (the series, then its volumes newest first), ``people/`` (a page per
person, archive_people.py), ``search.html`` (search across volumes: each volume's
prebuilt index is loaded only when a query needs it), ``papers.json`` (every paper
with its volume), ``sitemap.xml`` (a sitemap index: the volumes' sitemaps and the
archive's own, since one sitemap may hold at most 50,000 addresses) and ``feed.xml``
(the newest volume's papers).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable

from generator import __version__
from generator.archive import Volume
from generator.archive_people import Person, group_people
from generator.people_file import Rules
from generator.config import Config
from generator.errors import ThemeError
from generator.i18n import interface
from generator.output import atomic_file, write_atomically
from generator.publish.feeds import ATOM_NS, SITEMAP_NS, XML_LANG, _clean, _serialize, _urn
from generator.search import lunr_js
from generator.site import AUTHORS_PER_PAGE, paginate
from generator.theme import Theme, default_theme_dir

ARCHIVE_ASSETS = ("archive-search.js",)  # themes/default/archive/: never copied into a volume
STATIC_ASSETS = ("style.css", "search.css", "favicon.svg")
QUERY_END = "  // tests/js runs the query code above in node"
ARCHIVE_SITEMAP = "sitemap-archive.xml"


def write_archive(volumes: list[Volume], config: Config, title: str, content_dir: Path, out_dir: Path,
                  warn: Callable[..., None], people_rules: Rules | None = None) -> int:
    """Write every archive-level file; return how many."""
    volumes = sorted(volumes, key=lambda v: v.sort_key, reverse=True)  # newest first
    people = group_people(volumes, warn, people_rules)
    pages = ArchivePages(config, title, volumes, content_dir)
    files = pages.html(people)
    files.update(sitemaps(volumes, config, [name for name in files if name.endswith(".html")]))
    feed = newest_feed(volumes, config, title)
    if feed is not None:
        files["feed.xml"] = feed
    files.update(assets())
    for name, data in files.items():
        path = out_dir / name
        if not path.is_file() or path.read_bytes() != data:
            write_atomically(path, data)
            path.chmod(0o644)  # as a volume's files: readable by the web server
    write_papers_json(volumes, out_dir / "papers.json")
    _remove_stale(out_dir / "people", {name for name in files if name.startswith("people/")}, out_dir)
    return len(files) + 1


class ArchivePages:
    def __init__(self, config: Config, title: str, volumes: list[Volume], content_dir: Path):
        self.env = Theme.for_content(content_dir).environment(interface(config.language))
        self.env.globals.update(series={"title": title, "description": config.description,
                                        "language": config.language, "version": __version__,
                                        "paper_count": sum(len(v.papers) for v in volumes)},
                                volumes=volumes)
        self.volumes = volumes

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


def write_papers_json(volumes: list[Volume], path: Path) -> None:
    """Every paper, volumes newest first, each record as its volume's papers.json has it plus
    ``volume_path`` and ``volume_title`` (``volume`` is a citation's volume number), with a ``url``
    from the archive's root. Written volume by volume: the archive's papers are never all in memory."""
    with atomic_file(path, 0o644) as stream:
        stream.write(b"[\n")
        first = True
        for volume in volumes:
            for record in volume.full_records():
                line = json.dumps({"volume_path": volume.path, "volume_title": volume.title, **record},
                                  ensure_ascii=False).encode("utf-8")
                stream.write(line if first else b",\n" + line)
                first = False
        stream.write(b"\n]\n")


def sitemaps(volumes: list[Volume], config: Config, pages: list[str]) -> dict[str, bytes]:
    """A sitemap index naming each volume's sitemap and the archive's own; none without a base URL."""
    if not config.base_url:
        return {}
    own = ET.Element("urlset", {"xmlns": SITEMAP_NS})
    for page in sorted(pages):
        ET.SubElement(ET.SubElement(own, "url"), "loc").text = config.base_url + page
    index = ET.Element("sitemapindex", {"xmlns": SITEMAP_NS})
    for name in [ARCHIVE_SITEMAP] + [f"{v.path}/sitemap.xml" for v in sorted(volumes, key=lambda v: v.path)]:
        ET.SubElement(ET.SubElement(index, "sitemap"), "loc").text = config.base_url + name
    return {ARCHIVE_SITEMAP: _serialize(own), "sitemap.xml": _serialize(index)}


def newest_feed(volumes: list[Volume], config: Config, title: str) -> bytes | None:
    """An Atom feed of the newest volume's papers; Atom needs a date, so only when the volume has one."""
    newest = volumes[0] if volumes else None
    if newest is None or not newest.date:
        return None
    updated = f"{newest.date}T00:00:00Z"
    link = (lambda path: config.base_url + path) if config.base_url else (lambda path: path)
    feed = ET.Element("feed", {"xmlns": ATOM_NS, XML_LANG: config.language})
    _text(feed, "title", f"{title}: {newest.title}")
    _text(feed, "id", _urn(title, newest.path))
    _text(feed, "updated", updated)
    ET.SubElement(feed, "link", {"rel": "alternate", "type": "text/html", "href": link(f"{newest.path}/index.html")})
    if config.base_url:
        ET.SubElement(feed, "link", {"rel": "self", "type": "application/atom+xml", "href": link("feed.xml")})
    _text(ET.SubElement(feed, "author"), "name", title)
    _text(feed, "generator", "Proceedings", version=__version__)
    for record in newest.full_records():
        entry = ET.SubElement(feed, "entry")
        _text(entry, "title", record["title"])
        _text(entry, "id", _urn(title, newest.path, record["id"]))
        _text(entry, "updated", updated)
        ET.SubElement(entry, "link", {"rel": "alternate", "type": "text/html", "href": link(record["url"])})
        for author in record.get("authors", ()):
            _text(ET.SubElement(entry, "author"), "name", author["name"])
        _text(entry, "summary", record.get("abstract", ""), type="text")
    return _serialize(feed)


def _text(parent: ET.Element, tag: str, text: str, **attributes: str) -> None:
    ET.SubElement(parent, tag, attributes).text = _clean(text)


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


def _remove_stale(folder: Path, kept: set[str], out_dir: Path) -> None:
    if not folder.is_dir():
        return
    for path in folder.iterdir():
        if path.is_file() and path.relative_to(out_dir).as_posix() not in kept:
            path.unlink()

