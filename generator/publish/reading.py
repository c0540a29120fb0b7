"""How citations and feeds read a paper (the volume itself is generator/model/volume.py).

``authors_of`` and ``cited`` are the one place the BibTeX, the meta tags
and the feed read a paper's authors and cited details (its PDF, pages…) from.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from generator.model.details import is_web_link
from generator.model.paper import RenderedPaper
from generator.model.schema import Field
from generator.model.volume import Volume


def authors_of(paper: RenderedPaper) -> tuple[str, ...]:
    """The names of the paper's authors, in order (none when the page lists none)."""
    return tuple(author.name for author in paper.details.authors)


def absolute_link(link: str, volume: Volume) -> str | None:
    """A detail link (a URL or a path inside the site) as an absolute address, when one is known."""
    if not link:
        return None
    return link if is_web_link(link) else volume.absolute(link)


def _stands_in(field: Field, paper: RenderedPaper, volume: Volume) -> bool:
    """A value a source's @proceedings gives stands in for that source's papers only: a CSV of another
    year in the same folder never cites the .bib's volume number, editors or place."""
    return not field.cite.volume.startswith("source.") or paper.paper.source == volume.described


def cited(paper: RenderedPaper, field: Field, volume: Volume, attribute: str = "") -> Any:
    """What a citation says of ``field`` (or of its ``attribute``, as ``first_page`` of ``pages``): the
    paper's own value, else the volume's (``Cite.volume``; PMLR repeats both); a link as an absolute address.
    Empty when neither gives one."""
    attribute = attribute or field.name
    value = getattr(paper.details, attribute)
    if not value and attribute == field.name and field.cite.volume and _stands_in(field, paper, volume):
        value = attrgetter(field.cite.volume)(volume)
    if field.kind == "link":
        return absolute_link(value, volume) or ""
    return value
