"""How citations and feeds read a paper (the volume itself is generator/volume.py).

``authors_of`` and ``pdf_url_of`` are the one place the BibTeX, the meta
tags and the feed read a paper's authors and PDF from.
"""

from __future__ import annotations

from generator.details import is_web_link
from generator.model import RenderedPaper
from generator.volume import Volume


def authors_of(paper: RenderedPaper) -> tuple[str, ...]:
    """The names of the paper's authors, in order (none when the page lists none)."""
    return tuple(author.name for author in paper.details.authors)


def absolute_link(link: str, volume: Volume) -> str | None:
    """A detail link (a URL or a path inside the site) as an absolute address, when one is known."""
    if not link:
        return None
    return link if is_web_link(link) else volume.absolute(link)


def pdf_url_of(paper: RenderedPaper, volume: Volume) -> str | None:
    """Absolute address of the paper's PDF, when it has one (``pdf``: a URL or a site path)."""
    return absolute_link(paper.details.pdf, volume)
