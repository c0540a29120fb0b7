"""The proceedings as citations and feeds see it: title, date, address, citation keys.

``authors_of`` and ``pdf_url_of`` are the one place the BibTeX, the meta
tags and the feed read a paper's authors and PDF from.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote, urljoin

from generator.details import is_web_link
from generator.model import RenderedPaper, VolumeInfo

if TYPE_CHECKING:  # site.py imports this package; at run time we only read attributes
    from generator.config import Config
    from generator.site import SiteInfo

# Words a citation key leaves out of the proceedings title ("Proceedings of the …").
_MINOR_WORDS = frozenset("a an and at de for in of on the to proceedings".split())
_MAX_PREFIX = 16
_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9_.:+-]+")
# A key BibTeX and biber both read back: printable ASCII without separators or braces.
BIBTEX_KEY = re.compile(r"[A-Za-z0-9_.:/+-]+")


@dataclass(frozen=True)
class Volume:
    title: str
    description: str
    language: str
    base_url: str  # "" when unknown: links stay relative, absolute-only data is left out
    date: dt.date | None
    key_prefix: str  # citation keys are "<prefix>-<paper id>"
    source: VolumeInfo = VolumeInfo()  # editors, volume number, publisher… as the sources give them

    @classmethod
    def of(cls, site: SiteInfo, config: Config) -> Volume:
        date = config.date or site.source_volume.date  # the config's, else the source's (@proceedings)
        return cls(site.title, site.description, site.language, site.base_url, date,
                   key_prefix(site.title), site.source_volume)

    @property
    def year(self) -> str:
        return str(self.date.year) if self.date else self.source.year

    def absolute(self, path: str) -> str | None:
        """The published address of a site path, when the base URL is known."""
        return urljoin(self.base_url, quote(path, safe="/#")) if self.base_url else None

    def link(self, path: str) -> str:
        """An absolute address when known, else the path relative to the site root."""
        return self.absolute(path) or quote(path, safe="/#")

    def citation_key(self, paper: RenderedPaper) -> str:
        """A paper from a BibTeX source keeps its entry key: a venue's published keys never change.
        Otherwise the key is made of the paper's id, so editing a title or slug never changes it."""
        if paper.paper.source.lower().endswith(".bib") and BIBTEX_KEY.fullmatch(paper.paper.uid):
            return paper.paper.uid
        return f"{self.key_prefix}-{_KEY_UNSAFE.sub('-', paper.paper.id)}"


def key_prefix(title: str) -> str:
    """A short, readable key prefix from the proceedings title: "NeurIPS 2026" → "neurips2026".

    Long titles give their initials and numbers instead ("International
    Conference on Machine Learning 2026" → "icml2026"); letters are folded to
    ASCII because BibTeX keys must be.
    """
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    words = [w for w in re.findall(r"[A-Za-z0-9]+", ascii_title) if w.lower() not in _MINOR_WORDS]
    joined = "".join(words)
    if len(joined) > _MAX_PREFIX:
        joined = "".join(w if w.isdigit() else w[0] for w in words)
    return joined.lower() or "paper"


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
