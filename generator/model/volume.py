"""The proceedings volume: one frozen model, made once while loading.

The config names it (title, date, address…) and a source may describe it too (a
BibTeX ``@proceedings`` entry: editors, volume number, publisher); ``Volume.of``
settles which wins, once. Templates (as ``site``), citations, feeds and the search
index all read this one object.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import unicodedata
from collections.abc import Sequence
import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote, urljoin

from generator.model.doi import DoiSettings
from generator.model.paper import RenderedPaper, SourceList, VolumeInfo
from generator.model.volume_title import derived_title
from generator.text.i18n import default_title

if TYPE_CHECKING:
    from generator.model.config import Config

# Words a citation key leaves out of the proceedings title ("Proceedings of the …").
_MINOR_WORDS = frozenset("a an and at de for in of on the to proceedings".split())
_MAX_PREFIX = 16
_YEAR_AFTER = re.compile(r"\s+(?:19|20)\d\d$")
_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9_.:+-]+")
# A key BibTeX and biber both read back: printable ASCII without separators or braces.
BIBTEX_KEY = re.compile(r"[A-Za-z0-9_.:/+-]+")


@dataclass(frozen=True)
class Volume:
    title: str
    description: str = ""
    language: str = "en"
    base_url: str = ""  # "" when unknown: links stay relative, absolute-only data is left out
    date: dt.date | None = None  # the config's, else the source's
    source: VolumeInfo = VolumeInfo()  # editors, volume number, publisher… as the sources give them
    series: str = ""  # the series' title when the volume is built into one (its home is one folder up)
    described: str = ""  # the source whose @proceedings gave ``source``: its values stand in for its papers only
    issn: str = ""  # the config's, for citations; never made up
    isbn: str = ""
    online_date: dt.date | None = None  # first online, when the config gives a day apart from ``date``
    given: VolumeInfo = VolumeInfo()  # the config's own facts (volume, venue, place, days): every source's papers'
    short: str = ""  # the config's short title for the header
    deposit: DoiSettings = DoiSettings()  # the config's `doi:` (its Crossref deposit, publish/crossref.py)
    repository: str = ""  # the site's GitHub repository, owner/name: where readers suggest corrections
    contact: str = ""  # the volume's contact email: where they write without a repository

    @classmethod
    def of(cls, config: Config, sources: Sequence[SourceList] = (), folder: str = "") -> Volume:
        """The config's title, else the first source's (a list's first line, an @proceedings title), else
        one made from the sources' file names or the content ``folder``'s name (``title_of``)."""
        title = config.title or title_of(sources, folder, config.language)
        describing = next((s for s in sources if s.volume.title), None)
        info = describing.volume if describing else VolumeInfo()
        described = describing.entries[0].source if describing and describing.entries else ""
        given = VolumeInfo(volume=config.volume, venue=config.venue, address=config.place, start=config.start_date,
                           end=config.end_date, editors=config.editors, publisher=config.publisher)
        return cls(title, config.description, config.language, config.base_url, config.date or info.date,
                   info, config.series, described, config.issn, config.isbn, config.online_date, given,
                   config.short_title, config.doi, config.repository, config.contact)

    def as_cited_by(self, source: str) -> Volume:
        """The volume as a paper from ``source`` cites it: a .bib's @proceedings (``source``) describes that
        file's papers only, never a list of another year in the same folder."""
        if not self.described or source == self.described:
            return self
        return dataclasses.replace(self, source=VolumeInfo())

    @property
    def titled(self) -> bool:
        """Whether the config or a source names the volume: its title is more than "Proceedings" in its language,
        or that and a year (made from a file named ``2020.csv``), which a series shows as its folder's name."""
        return _YEAR_AFTER.sub("", self.title) != default_title(self.language)

    @property
    def editors(self) -> tuple[str, ...]:
        """The config's editors, else its @proceedings'."""
        return self.given.editors or self.source.editors

    @property
    def number(self) -> str:
        """The volume's number: the config's, else its @proceedings'."""
        return self.given.volume or self.source.volume

    @property
    def venue(self) -> str:
        """The meeting's name, unless it is the title already (shown once)."""
        venue = self.given.venue or self.source.venue
        return "" if venue.casefold() == self.title.casefold() else venue

    @property
    def publisher(self) -> str:
        """The config's publisher, else its @proceedings'."""
        return self.given.publisher or self.source.publisher

    @property
    def place(self) -> str:
        return self.given.address or self.source.address

    @property
    def days(self) -> tuple[dt.date, dt.date] | None:
        """The meeting's first and last days (one day: twice), when known."""
        start = self.given.start or self.source.start
        end = self.given.end or self.source.end
        return (start or end, end or start) if start or end else None  # type: ignore[return-value]

    @property
    def short_title(self) -> str:
        """The header's name of the site: the config's, else the meeting's short name and year ("COLT 2024")
        from its @proceedings, else the title."""
        if self.short:
            return self.short
        if self.source.short_name:
            return " ".join(filter(None, (self.source.short_name, self.year)))
        return self.title

    @property
    def year(self) -> str:
        return str(self.date.year) if self.date else self.source.year

    def undated(self, papers: Sequence[RenderedPaper]) -> int:
        """How many of its papers a citation gives no year ("n.d."): neither the paper nor the volume has one."""
        return 0 if self.year else sum(not paper.details.year for paper in papers)

    @functools.cached_property
    def key_prefix(self) -> str:
        """Citation keys are "<prefix>-<paper id>"."""
        return key_prefix(self.title)

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


def title_of(sources: Sequence[SourceList], folder: str, language: str) -> str:
    """The title a volume whose config names none has: its first source's own, else one made readable from
    the sources' file names or the folder's name ("ismir-2024-papers.csv" → "ISMIR 2024"), else "Proceedings"
    in its language. A name that gives only a year gives "Proceedings 2024"."""
    own = next((source.title for source in sources if source.title), "")
    if own:
        return own
    texts = (text for source in sources for entry in source.entries for text in (entry.title, entry.text))
    made = derived_title([source.path.name for source in sources], folder, texts)
    if made and not any(char.isalpha() for char in made):
        return f"{default_title(language)} {made}"
    return made or default_title(language)


def title_origin(sources: Sequence[SourceList], title: str) -> str:
    """Where ``title_of`` found a title, as `import` says it in the proceedings.yaml it writes."""
    own = next((source for source in sources if source.title), None)
    if own is not None:
        where = "@proceedings entry" if own.volume.title else "first line"
        return f"the {where} of {own.path.name}"
    if title and sources:
        return f"the names of {', '.join(source.path.name for source in sources)} and of its folder"
    return ""


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
