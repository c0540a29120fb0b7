"""schema.org JSON-LD for the paper pages (``ScholarlyArticle``), the home page (the proceedings) and the author
pages (``Person``), written into a ``<script type="application/ld+json">`` (data: a browser never runs it).

schema.org has no type for proceedings: the volume is a ``PublicationVolume`` ("a part of a successively
published publication such as a periodical or multi-volume work": PMLR's volume 247), its meeting the ``Event``
it records (``recordedAt``, CreativeWork's property whose range is Event), each paper ``isPartOf`` it. A DOI is
an ``identifier`` (``PropertyValue``, ``propertyID`` "DOI") and its doi.org address a ``sameAs``; an ORCID is
the person's ``sameAs``. Every value is one the citations give (the paper's ``Reference``): the same title,
authors and date as papers.json and the citation_* tags.

The article does not repeat the abstract (issue 43: 1.2 KB a page, a quarter of the paper pages' bytes at
50,000 papers): the page shows it, Google Scholar reads the page and its citation_* tags, and Google's Article
structured data asks for a headline, authors, dates and an image, never an abstract; papers.json, the RIS and
MODS files and the feeds carry it for tools.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from markupsafe import Markup

from generator.model.paper import Author
from generator.model.volume import Volume
from generator.text.jsontext import compact_text

from .reading import Reference

CONTEXT = "https://schema.org"
ORCID_URL = "https://orcid.org/"
DOI_URL = "https://doi.org/"
# What must not appear as written inside a <script>: "</script", "<!--" and, for good measure, "&" and ">".
_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _script_safe(text: str) -> str:
    """``text`` with each of ``_UNSAFE`` written as its escape: a replace for each that occurs (none, nearly
    always), rather than ``str.translate``'s look-up of every character (a paper page's article, issue 43)."""
    for char, escaped in _UNSAFE.items():
        if char in text:
            text = text.replace(char, escaped)
    return text


def script_json(data: Mapping[str, Any]) -> Markup:
    """``data`` as JSON a ``<script>`` holds safely: no "<" (so no "</script>" or "<!--"), no "&"."""
    return Markup(_script_safe(json.dumps(data, ensure_ascii=False, separators=(",", ":"))))


def _compact(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` without its empty values: JSON-LD says nothing rather than something empty."""
    return {key: value for key, value in data.items() if value not in ("", None, [], {})}


def article(ref: Reference, volume: Volume, volume_json: str | None = None) -> Markup:
    """A paper page's ``ScholarlyArticle``; ``volume_json``: ``part_of(volume)``, when the caller keeps it (the
    same on every page of the volume)."""
    doi = ref["doi"]
    data = {
        "@context": CONTEXT, "@type": "ScholarlyArticle", "@id": ref.url, "name": ref.title,
        "headline": ref.title[:110],
        "author": [person(author) for author in ref.authors],
        "datePublished": ref.date.isoformat() if ref.date else ref.year,
        "keywords": ", ".join(ref.keywords), "url": ref.url,
        "inLanguage": volume.language, "pagination": ref["pages"],
        "identifier": _compact({"@type": "PropertyValue", "propertyID": "DOI", "value": doi}) if doi else None,
        "sameAs": DOI_URL + doi if doi else None,
    }
    # The volume, the article's last member, as JSON written once: json.dumps writes a member's value as it
    # writes the value alone.
    own = compact_text(_compact(data))
    if volume_json is None:
        volume_json = part_of(volume)
    return Markup(_script_safe(f'{own[:-1]},"isPartOf":{volume_json}}}'))


def part_of(volume: Volume) -> str:
    """The volume as an article's ``isPartOf`` holds it (``proceedings``), as JSON."""
    return json.dumps(proceedings(volume), ensure_ascii=False, separators=(",", ":"))


def person(author: Author, url: str = "", affiliations: Iterable[str] = ()) -> dict[str, Any]:
    """A ``Person``: name, affiliations (``Organization``s) and ORCID (``sameAs``)."""
    own = (part.strip() for part in author.affiliation.split(";"))
    places = list(dict.fromkeys([*affiliations, *filter(None, own)]))
    organisations = [{"@type": "Organization", "name": place} for place in places]
    return _compact({"@type": "Person", "name": author.name, "url": url,
                     "affiliation": organisations[0] if len(organisations) == 1 else organisations,
                     "sameAs": ORCID_URL + author.orcid if author.orcid else ""})


def proceedings(volume: Volume) -> dict[str, Any]:
    """The volume: a ``PublicationVolume`` that records its meeting (an ``Event``)."""
    return _compact({
        "@type": "PublicationVolume", "name": volume.title, "url": volume.absolute("") or "",
        "volumeNumber": volume.number, "datePublished": volume.date.isoformat() if volume.date else volume.year,
        "publisher": {"@type": "Organization", "name": volume.publisher} if volume.publisher else None,
        "editor": [{"@type": "Person", "name": name} for name in volume.editors],
        "isbn": volume.isbn, "issn": volume.issn, "inLanguage": volume.language,
        "isPartOf": {"@type": "CreativeWorkSeries", "name": volume.series} if volume.series else None,
        "recordedAt": event(volume),
    })


def event(volume: Volume) -> dict[str, Any] | None:
    """The meeting, when the volume names it, its place or its days."""
    name = volume.given.venue or volume.source.venue
    if not (name or volume.place or volume.days):
        return None
    days = volume.days
    return _compact({"@type": "Event", "name": name or volume.title,
                     "alternateName": volume.source.short_name,
                     "location": {"@type": "Place", "name": volume.place} if volume.place else None,
                     "startDate": days[0].isoformat() if days else "", "endDate": days[1].isoformat() if days else ""})


def home(volume: Volume) -> Markup:
    """The home page's: the proceedings and their event."""
    return script_json({"@context": CONTEXT, **proceedings(volume)})


def author_page(name: str, orcid: str, affiliations: Iterable[str], url: str) -> Markup:
    """An author page's ``Person``."""
    return script_json({"@context": CONTEXT, **person(Author(name, orcid=orcid), url, affiliations)})
