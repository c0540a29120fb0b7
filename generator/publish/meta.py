"""Meta tags for a paper page: Google Scholar's ``citation_*`` and Open Graph.

Only facts we have are written: no author, PDF or address tag is made up
when the paper or the config does not give one. Values are plain text; the
template escapes them as attributes. ``og:description`` is the page's own
meta description: base.html gives that one tag both names (``name`` and ``property``).
"""

from __future__ import annotations

from typing import NamedTuple

from generator.model.paper import DETAILS
from generator.model.volume import Volume

from .reading import Reference

# The details that give citation_* tags, in the order Google Scholar's guidelines list them.
CITED = tuple(sorted((field for field in DETAILS if field.cite.meta), key=lambda field: field.cite.meta_at))


class MetaTag(NamedTuple):
    """One ``<meta>`` tag. A named tuple, not a frozen dataclass: a paper page has a dozen, and a frozen dataclass
    sets each field through ``object.__setattr__`` (twice the time to make, 0.05 CPU-s for 10,000 pages)."""

    attribute: str  # "name" (Google Scholar) or "property" (Open Graph)
    key: str
    content: str


def paper_meta(ref: Reference, volume: Volume) -> tuple[MetaTag, ...]:
    return citation_meta(ref, volume) + open_graph_meta(ref, volume)


def citation_meta(ref: Reference, volume: Volume) -> tuple[MetaTag, ...]:
    """Google Scholar's inclusion tags, in the order its guidelines list them."""
    tags = [MetaTag("name", "citation_title", ref.title)]
    for author in ref.authors:
        # Scholar reads an institution or ORCID as belonging to the citation_author before it.
        tags.append(MetaTag("name", "citation_author", author.name))
        if author.affiliation:
            tags.append(MetaTag("name", "citation_author_institution", author.affiliation))
        if author.orcid:
            tags.append(MetaTag("name", "citation_author_orcid", f"https://orcid.org/{author.orcid}"))
    if volume.date:
        # Scholar's documented form is YYYY/MM/DD; a year alone is accepted too.
        tags.append(MetaTag("name", "citation_publication_date", volume.date.strftime("%Y/%m/%d")))
    elif ref.year:
        tags.append(MetaTag("name", "citation_publication_date", ref.year))
    if volume.online_date and volume.online_date != volume.date:
        # Scholar and Zotero read the two apart: the day it went online is not the proceedings' date.
        tags.append(MetaTag("name", "citation_online_date", volume.online_date.strftime("%Y/%m/%d")))
    tags.append(MetaTag("name", "citation_conference_title", ref.container))
    for field in CITED:  # each detail the schema tags, at its place; a list gives one tag per item
        for key, attribute in field.cite.meta:
            value = ref[field.name] if attribute == field.name else getattr(ref, attribute)
            values = value if isinstance(value, tuple) else (value,)
            tags.extend(MetaTag("name", key, item) for item in values if item)
    for key, value in (("citation_isbn", ref.isbn), ("citation_issn", ref.issn)):
        if value:
            tags.append(MetaTag("name", key, value))
    if ref.url:
        tags.append(MetaTag("name", "citation_abstract_html_url", ref.url))
    return tuple(tags)


def open_graph_meta(ref: Reference, volume: Volume) -> tuple[MetaTag, ...]:
    tags = [
        MetaTag("property", "og:type", "article"),
        MetaTag("property", "og:title", ref.title),
        MetaTag("property", "og:site_name", volume.title),
    ]
    if ref.url:  # Open Graph wants an absolute URL or none
        tags.append(MetaTag("property", "og:url", ref.url))
    return tuple(tags)
