"""The Atom feed (one entry per paper) and the sitemap, as bytes.

Neither reads the clock or file times, so two builds of the same content are
byte-identical:

* ``feed.xml`` needs a date (Atom requires ``updated``), so it is written
  only when the config's ``date`` is set; every entry is updated on that date. It holds the volume's
  first ``FEED_ENTRIES`` papers, in proceedings order.
* ``sitemap.xml`` needs absolute addresses, so it is written only when the
  base URL is known. It gives no ``lastmod``, having no true one to give.

Entry ids are ``urn:uuid:`` names derived from the proceedings title and the
paper id (what the citation key is made of): valid with or without a base
URL, and unchanged when the site moves to another address or a paper's title
or slug is edited, so a feed reader never shows a paper twice.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from generator import __version__
from generator.model.corrections import Notice
from generator.model.paper import RenderedPaper
from generator.model.volume import Volume
from generator.text.cjk import excerpt

from .reading import authors_of

FEED_PATH = "feed.xml"
CORRECTIONS_PATH = "corrections.xml"
_KIND_WORDS = {"retracted": "Retracted", "erratum": "Erratum"}  # a version is named by its own label
SITEMAP_PATH = "sitemap.xml"
ROBOTS_PATH = "robots.txt"
ATOM_NS = "http://www.w3.org/2005/Atom"
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
SITEMAP_LIMIT = 50_000  # addresses in one sitemap, as the protocol allows
# Entries in a feed: a reader's feed client fetches the whole file at every poll, so a large volume's
# feed of every abstract serves no one; the first papers keep it a size a client fetches at every poll.
FEED_ENTRIES = 1_000
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"
SUMMARY_LENGTH = 220  # display columns of an abstract's start in a person's or topic's feed (a page's teaser's)
# A fixed namespace for our uuid5 names, so ids do not depend on anything but the volume and paper.
_ID_NAMESPACE = uuid.UUID("6f1c1bb6-5b0e-5c4e-9a55-2d1f0f5a7c11")
# Characters XML 1.0 cannot carry at all, even escaped (real abstracts have had \x0b and \x0c).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_FEED_END = b"</feed>\n"
# What ElementTree writes for each of these characters in an attribute's value, in the order it replaces them.
_ATTRIBUTE_ENTITIES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"), ("\r", "&#13;"),
                       ("\n", "&#10;"), ("\t", "&#09;"))
_FEED_ENTRY = "feed entry"  # what a kept entry's key starts with, beside the other things a build keeps


def atom_feed(papers: Sequence[RenderedPaper], volume: Volume, series: Volume | None = None,
              prefix: str = "", of: FeedOf | None = None, entries: dict[Any, bytes] | None = None) -> bytes | None:
    """The Atom feed of the volume, or None without a date. ``series``: the feed is the series' own, of
    this volume at ``prefix/`` (titled, identified and linked as the series'). ``of``: the feed of one
    person's or topic's papers in the volume (``FeedOf``), beside their page; ``entries``: where its
    entries are kept once written, for the other feeds that list the same paper (a build's, render/html.py)."""
    if volume.date is None:
        return None
    site = series or volume
    ids = (series.title, prefix) if series else (volume.title,)
    updated = f"{volume.date.isoformat()}T00:00:00Z"
    feed = ET.Element("feed", {"xmlns": ATOM_NS, XML_LANG: site.language})
    if of and not site.base_url:  # its relative links are from the site's root, one folder up
        feed.set(XML_BASE, "../")
    title = f"{series.title}: {volume.title}" if series else volume.title
    element(feed, "title", f"{of.title} · {title}" if of else title)
    if volume.description and not of:
        element(feed, "subtitle", volume.description)
    # A person's or topic's feed is named by its file: an entry keeps the id it has in the volume's feed.
    element(feed, "id", urn(*ids, of.path) if of else urn(*ids))
    element(feed, "updated", updated)
    ET.SubElement(feed, "link", {"rel": "alternate", "type": "text/html",
                                 "href": site.link(_within(prefix, of.page if of else "index.html"))})
    if site.base_url:  # a relative self link would say nothing a reader does not know
        ET.SubElement(feed, "link", {"rel": "self", "type": "application/atom+xml",
                                     "href": site.link(of.path if of else FEED_PATH)})
    # Atom requires an author for the feed or for every entry; the proceedings stand in.
    element(ET.SubElement(feed, "author"), "name", site.title)
    element(feed, "generator", "Proceedings", version=__version__)
    if of is not None:
        return _spliced(feed, [_short_entry(paper, site, updated, ids, prefix, entries)
                               for paper in papers[:FEED_ENTRIES]])
    for paper in papers[:FEED_ENTRIES]:
        _entry(feed, paper, site, updated, ids, prefix)
    return serialize_xml(feed)


def _spliced(feed: ET.Element, entries: list[bytes]) -> bytes:
    """A person's or topic's feed: written unindented (one a person, tens of thousands at 50,000 papers), its
    entries as each was written alone. An element's text does not depend on the tree around it (none of an
    entry's names is in a namespace), so the bytes are those of the whole tree written at once."""
    head = serialize_xml(feed, indent=False)
    assert head.endswith(_FEED_END)  # the feed has children (its title, id…): never written as <feed/>
    return b"".join([head[:-len(_FEED_END)], *entries, _FEED_END])


def _short_entry(paper: RenderedPaper, site: Volume, updated: str, ids: tuple[str, ...], prefix: str,
                 kept: dict[Any, bytes] | None) -> bytes:
    """A paper's entry in a person's or topic's feed, as bytes: the same in each that lists it (a paper of
    three authors and two topics is in five), so written once a build when ``kept`` keeps it."""
    key = (_FEED_ENTRY, paper.paper.id, site.base_url, updated, ids, prefix)
    found = kept.get(key) if kept is not None else None
    if found is None:
        found = _short_entry_xml(paper, site, updated, ids, prefix).encode("utf-8", "xmlcharrefreplace")
        if kept is not None:
            kept[key] = found
    return found


def forget_entries(kept: dict[Any, Any]) -> None:
    """Let go of the entries ``_short_entry`` keeps in ``kept``, once every feed that lists them is written (a
    large volume's build: tens of MB, held to the end of the render stage otherwise); the rest of ``kept`` stays."""
    for key in [key for key in kept if isinstance(key, tuple) and key[:1] == (_FEED_ENTRY,)]:
        del kept[key]


def _short_entry_xml(paper: RenderedPaper, site: Volume, updated: str, ids: tuple[str, ...], prefix: str) -> str:
    """What ``_entry(short=True)`` makes, as ElementTree writes it, without a tree and its writer (a tenth of a
    millisecond an entry: most of a person's feed). tests/test_feed_entries.py holds the two equal."""
    title = (_xml("title", paper.title_html, type="html") if "<math" in paper.title_html
             else _xml("title", paper.title_plain))
    link = _xml("link", "", rel="alternate", type="text/html", href=site.link(_within(prefix, paper.url)))
    authors = "".join(f"<author>{_xml('name', name)}</author>" for name in authors_of(paper))
    summary = _xml("summary", excerpt(paper.abstract_plain, SUMMARY_LENGTH), type="text")
    return (f"<entry>{title}{_xml('id', urn(*ids, paper.paper.id))}{_xml('updated', updated)}{link}{authors}"
            f"{summary}</entry>")


def _xml(tag: str, text: str, **attributes: str) -> str:
    """An element of ``text`` (cleaned as ``element`` cleans it) as ElementTree writes it: its attributes in
    order, escaped as ElementTree escapes them; ``<tag />`` when it has no text."""
    opened = tag + "".join(f' {name}="{_escape_attribute(value)}"' for name, value in attributes.items())
    text = _clean(text)
    if not text:
        return f"<{opened} />"
    return f"<{opened}>{text.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')}</{tag}>"


def _escape_attribute(value: str) -> str:
    for character, entity in _ATTRIBUTE_ENTITIES:
        if character in value:
            value = value.replace(character, entity)
    return value


@dataclass(frozen=True)
class FeedOf:
    """A feed of some of a volume's papers: a person's or a topic's, at ``path`` beside their ``page``."""

    title: str  # the person's name, the topic's
    path: str  # "authors/jane-doe.xml"
    page: str  # "authors/jane-doe.html"


def feed_path(page: str) -> str:
    """The feed beside a person's or topic's page: ``authors/jane-doe.html`` → ``authors/jane-doe.xml``."""
    return page.removesuffix(".html") + ".xml"


Dated = tuple[RenderedPaper, str, Notice, dt.date]  # a paper, the kind of its correction, the correction, its date


def dated_corrections(papers: Sequence[RenderedPaper], volume: Volume) -> list[Dated]:
    """(paper, kind, notice, its date) of every correction with a date (its own, else the volume's), newest
    first, then in proceedings order: what ``corrections.xml`` lists."""
    found = [(paper, kind, notice, when) for paper in papers if paper.paper.corrections
             for kind, notice in paper.paper.corrections.notices() if (when := notice.date or volume.date)]
    return sorted(found, key=lambda item: item[3], reverse=True)  # a stable sort: ties keep proceedings order


def corrections_feed(papers: Sequence[RenderedPaper], volume: Volume) -> bytes | None:
    """The Atom feed of the volume's retractions, errata and versions, or None when it has none. Dated by
    the corrections themselves (never the clock): the feed is as new as its newest correction."""
    found = dated_corrections(papers, volume)
    if not found:
        return None
    feed = ET.Element("feed", {"xmlns": ATOM_NS, XML_LANG: volume.language})
    element(feed, "title", f"{volume.title}: corrections")
    element(feed, "id", urn(volume.title, CORRECTIONS_PATH))
    element(feed, "updated", stamp(found[0][3]))
    ET.SubElement(feed, "link", {"rel": "alternate", "type": "text/html", "href": volume.link("index.html")})
    if volume.base_url:
        ET.SubElement(feed, "link", {"rel": "self", "type": "application/atom+xml",
                                     "href": volume.link(CORRECTIONS_PATH)})
    element(ET.SubElement(feed, "author"), "name", volume.title)
    element(feed, "generator", "Proceedings", version=__version__)
    for paper, kind, notice, date in found:
        entry = ET.SubElement(feed, "entry")
        element(entry, "title", f"{_KIND_WORDS.get(kind) or notice.label}: {paper.title_plain}")
        element(entry, "id", urn(volume.title, paper.paper.id, kind, notice.label))
        element(entry, "updated", stamp(date))
        ET.SubElement(entry, "link", {"rel": "alternate", "type": "text/html", "href": volume.link(paper.url)})
        if notice.note:
            element(entry, "summary", notice.note, type="text")
    return serialize_xml(feed)


def stamp(date: dt.date) -> str:
    return f"{date.isoformat()}T00:00:00Z"


def _within(prefix: str, path: str) -> str:
    return f"{prefix}/{path}" if prefix else path


def _entry(feed: ET.Element, paper: RenderedPaper, site: Volume, updated: str, ids: tuple[str, ...],
           prefix: str, short: bool = False) -> None:
    entry = ET.SubElement(feed, "entry")
    # A title with math goes as HTML, so that a reader that shows HTML shows the formula.
    if "<math" in paper.title_html:
        element(entry, "title", paper.title_html, type="html")
    else:
        element(entry, "title", paper.title_plain)
    element(entry, "id", urn(*ids, paper.paper.id))
    element(entry, "updated", updated)
    ET.SubElement(entry, "link", {"rel": "alternate", "type": "text/html",
                                  "href": site.link(_within(prefix, paper.url))})
    for name in authors_of(paper):
        element(ET.SubElement(entry, "author"), "name", name)
    for tag in paper.paper.tags if not short else ():  # a person's or topic's feed: no more than it needs
        ET.SubElement(entry, "category", {"term": _clean(tag)})
    # A person's or topic's feed gives the abstract's start (a file per person: at 10,000 papers their whole
    # abstracts were 67 MB); the volume's feed.xml and the paper's page have it all.
    element(entry, "summary", excerpt(paper.abstract_plain, SUMMARY_LENGTH) if short else paper.abstract_plain,
          type="text")


def sitemap_pages(paths: Iterable[str]) -> list[str]:
    """The pages a sitemap lists: every HTML page but 404.html, in name order."""
    return sorted(p for p in paths if p.endswith(".html") and p != "404.html")


def sitemap_names(count: int, stem: str = "sitemap") -> list[str]:
    """The sitemaps ``count`` pages need: ``stem.xml``, or ``stem-1.xml``… past 50,000 (the protocol's limit)."""
    if count <= SITEMAP_LIMIT:
        return [f"{stem}.xml"]
    return [f"{stem}-{n}.xml" for n in range(1, -(-count // SITEMAP_LIMIT) + 1)]


def sitemaps(pages: Sequence[str], site: Volume, stem: str = "sitemap") -> dict[str, bytes]:
    """``pages`` at their absolute addresses in as many sitemaps as the limit needs (``sitemap_names``);
    none without a base URL."""
    if not site.base_url:
        return {}
    names = sitemap_names(len(pages), stem)
    return {name: _urlset(pages[n * SITEMAP_LIMIT:(n + 1) * SITEMAP_LIMIT], site) for n, name in enumerate(names)}


def volume_sitemaps(paths: Iterable[str], volume: Volume) -> dict[str, bytes]:
    """A volume's ``sitemap.xml``: its pages, or past 50,000 a sitemap index naming ``sitemap-N.xml``."""
    files = sitemaps(sitemap_pages(paths), volume)
    if len(files) > 1:
        files[SITEMAP_PATH] = sitemap_index(list(files), volume) or b""
    return files


def volume_sitemap_names(paths: Iterable[str]) -> list[str]:
    """The names ``volume_sitemaps`` writes (with a base URL)."""
    names = sitemap_names(len(sitemap_pages(paths)))
    return names if names == [SITEMAP_PATH] else [*names, SITEMAP_PATH]


def _urlset(pages: Sequence[str], site: Volume) -> bytes:
    urlset = ET.Element("urlset", {"xmlns": SITEMAP_NS})
    for path in pages:
        element(ET.SubElement(urlset, "url"), "loc", site.link(path))
    return serialize_xml(urlset)


def sitemap_index(sitemaps: Iterable[str], site: Volume) -> bytes | None:
    """A sitemap index naming these sitemaps (one sitemap may hold at most 50,000 addresses), or None
    without a base URL."""
    if not site.base_url:
        return None
    index = ET.Element("sitemapindex", {"xmlns": SITEMAP_NS})
    for name in sitemaps:
        element(ET.SubElement(index, "sitemap"), "loc", site.link(name))
    return serialize_xml(index)


def robots_txt(site: Volume) -> bytes:
    """``robots.txt``: every crawler may read every page, and (with a base URL) where the sitemap is. A
    crawler reads it only at a host's root: a site published under a path has to copy its lines there."""
    lines = ["User-agent: *", "Allow: /"]
    sitemap = site.absolute(SITEMAP_PATH)
    if sitemap:
        lines += ["", f"Sitemap: {sitemap}"]
    return ("\n".join(lines) + "\n").encode("utf-8")


def element(parent: ET.Element, tag: str, text: str, **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, tag, attributes)
    element.text = _clean(text)
    return element


def _clean(text: str) -> str:
    return _NOT_XML.sub("", text)


@functools.lru_cache(maxsize=1 << 16)  # a paper's entry has one id in every feed that lists it (its topics', authors')
def urn(*parts: str) -> str:
    return uuid.uuid5(_ID_NAMESPACE, "\x1f".join(parts)).urn


def serialize_xml(root: ET.Element, indent: bool = True) -> bytes:
    """``root`` as an XML file; ``indent=False``: without the indentation a reader of the file never sees
    (a feed reader parses it), for the many small feeds where it is a tenth of the bytes (issue 43)."""
    if indent:
        ET.indent(root)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"
