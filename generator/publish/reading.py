"""How citations and feeds read a paper (the volume itself is generator/model/volume.py).

``reference_of`` reads a paper once into the ``Reference`` every citation format writes (bibtex.py, ris.py,
csl.py, apa.py, the meta tags of meta.py, and the browser's records through formats.py and reading_list.py):
the paper's own details, else the volume's where the schema's ``Cite`` says so (``cited``). ``authors_of`` is
what the feed reads of a paper's authors.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Mapping
import dataclasses
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from generator.model.details import is_web_link
from generator.model.paper import DETAILS, Author, RenderedPaper
from generator.model.schema import Field
from generator.model.volume import Volume
from generator.text.cjk import has_cjk


def authors_of(paper: RenderedPaper) -> tuple[str, ...]:
    """The names of the paper's authors, in order (none when the page lists none)."""
    return tuple(author.name for author in paper.details.authors)


def absolute_link(link: str, volume: Volume) -> str | None:
    """A detail link (a URL or a path inside the site) as an absolute address, when one is known."""
    if not link:
        return None
    return link if is_web_link(link) else volume.absolute(link)


def volume_value(field: Field, paper: RenderedPaper, volume: Volume) -> Any:
    """The volume's value that stands in for a paper's missing ``field``: the config's own (``volume``,
    ``place``) for every paper; a source's @proceedings value for that source's papers only: a CSV of
    another year in the same folder never cites the .bib's volume number, editors or place."""
    path = field.cite.volume
    if not path.startswith("source."):
        return attrgetter(path)(volume)
    return attrgetter(path.removeprefix("source."))(volume.given) or (
        attrgetter(path)(volume) if paper.paper.source == volume.described else "")


def cited(paper: RenderedPaper, field: Field, volume: Volume, attribute: str = "") -> Any:
    """What a citation says of ``field`` (or of its ``attribute``, as ``first_page`` of ``pages``): the
    paper's own value, else the volume's (``Cite.volume``; PMLR repeats both); a link as an absolute address.
    Empty when neither gives one."""
    attribute = attribute or field.name
    value = getattr(paper.details, attribute)
    if not value and attribute == field.name and field.cite.volume:
        value = volume_value(field, paper, volume)
    if field.kind == "link":
        return absolute_link(value, volume) or ""
    return value


@dataclass(frozen=True)
class Name:
    """A person's name as citation formats split it; ``literal`` when it is not to be split (a CJK name
    written without spaces, a single word, an organisation)."""

    family: str = ""
    given: str = ""
    suffix: str = ""
    literal: str = ""


# The details a citation carries (their ``Cite`` names a BibTeX field or a meta tag), in declaration order.
CITED = tuple(field for field in DETAILS if field.cite.bibtex or field.cite.meta)


@dataclass(frozen=True)
class Reference:
    """One paper as every citation cites it: the BibTeX entry, RIS, CSL-JSON, APA, the meta tags and the
    browser's records (bibtex.py, ris.py, csl.py, apa.py, meta.py, reading_list.py) are all written from it,
    read once (``reference_of``), plain text but for ``markup``.

    ``details`` holds every detail the schema cites (``CITED``), by field name: the paper's own value, else the
    volume's (``cited``), a link as an absolute address. A detail newly declared with ``cite=Cite(...)`` is in
    every reference with no change here; a format shows it by naming it (bibtex.py does so for every one)."""

    key: str  # the citation key: the same paper has the same id in every format
    title: str  # plain text
    markup: str  # the title as the page's front matter has it (Markdown + LaTeX): BibTeX keeps its math
    container: str  # the proceedings' title
    date: dt.date | None  # the full date, when the volume's matches the year
    url: str  # the paper's page, absolute ("" without a base URL)
    abstract: str  # plain text
    keywords: tuple[str, ...]
    series: str  # the series' title, in a series
    issn: str
    isbn: str
    note: str  # a correction's note ("Retracted 2026-05-01: …"), "" when there is none
    page: str  # the paper's page file ("papers/x.md"), naming it in a warning
    details: Mapping[str, Any]

    def __getitem__(self, name: str) -> Any:
        """A cited detail by its schema name (``ref["doi"]``)."""
        return self.details[name]

    @functools.cached_property
    def private_use(self) -> frozenset[str]:
        """The private-use characters its texts hold (a text pasted from a PDF may): none, nearly always. The
        browser's texts mark their holes with others (formats.py); worked out once for every format."""
        return frozenset(_PRIVATE.findall("".join(_texts(self))))

    @property
    def authors(self) -> tuple[Author, ...]:
        return tuple(self.details["authors"])

    @functools.cached_property
    def author_names(self) -> tuple[Name, ...]:
        """The authors' names split (``split_name``), once for every format: a volume's files each read every
        paper in turn, far more names than ``split_name``'s cache keeps."""
        return tuple(split_name(author.name) for author in self.details["authors"])

    @functools.cached_property
    def editor_names(self) -> tuple[Name, ...]:
        return tuple(map(split_name, self.details["editors"]))

    @property
    def year(self) -> str:
        return str(self.details["year"])

    @functools.cached_property
    def pages(self) -> tuple[str, str]:
        """(first page, last page), read once for every format."""
        return page_range(self.details["pages"])

    @property
    def first_page(self) -> str:
        return self.pages[0]

    @property
    def last_page(self) -> str:
        return self.pages[1]


_PRIVATE = re.compile("[\ue000-\uf8ff]")


def _texts(ref: Reference) -> list[str]:
    """Every text a reference holds, its details' and their authors' too (a format writes nothing else but its
    own words); its fields only, not what it made of them (``author_names``…). Its texts first, by name, then
    any other value walked (about fifty values a reference, read for every paper: issue 43)."""
    own = ref.__dict__
    found = [own[name] for name in _TEXT_FIELDS]
    todo = [own[name] for name in _OTHER_FIELDS]
    while todo:
        item = todo.pop()
        kind = type(item)  # the common types by identity first (isinstance of an ABC costs more)
        if kind is str:
            found.append(item)
        elif kind is tuple or kind is dict:
            todo.extend(item.values() if kind is dict else item)
        elif kind is Author:
            todo.extend(vars(item).values())
        elif isinstance(item, str):
            found.append(item)
        elif isinstance(item, (tuple, list)):
            todo.extend(item)
        elif isinstance(item, Mapping):
            todo.extend(item.values())
        elif hasattr(item, "__dict__"):  # a dataclass (an author); a date has none
            todo.extend(vars(item).values())
    return found


_TEXT_FIELDS = tuple(field.name for field in dataclasses.fields(Reference) if field.type == "str")
_OTHER_FIELDS = tuple(field.name for field in dataclasses.fields(Reference) if field.type != "str")


def page_range(pages: str) -> tuple[str, str]:
    """The first and last page of "13--24" (or "13–24", "7"); ("", "") of none."""
    parts = pages.replace("\u2014", "-").replace("\u2013", "-").split("-") if pages else [""]
    return parts[0].strip(), parts[-1].strip()


def reference_of(paper: RenderedPaper, volume: Volume, key: str) -> Reference:
    """The paper's citation facts: its own details, else the volume's where the schema says so (``cited``)."""
    details = {field.name: cited(paper, field, volume) for field in CITED}
    year = details["year"]
    date = volume.date if volume.date and (not year or str(volume.date.year) == year) else None
    name = getattr(paper.paper.path, "name", "")
    return Reference(key, paper.title_plain, paper.paper.title, volume.title, date, volume.absolute(paper.url) or "",
                     paper.abstract_plain, paper.paper.tags, volume.series, volume.issn, volume.isbn,
                     paper.paper.corrections.citation_note(), f"papers/{name}" if name else "", details)


# Words that belong to the family name before it ("Ludwig van Beethoven", "Maria de la Cruz").
_PARTICLES = frozenset("da das de del della der des di do dos du la le van von ten ter zu".split())
_SUFFIXES = re.compile(r"(?:jr|sr|[ivx]+|\d+(?:st|nd|rd|th))\.?", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)  # a paper's names are split by each format its block writes, one after another
def split_name(name: str) -> Name:
    """"Given Family" (as pages write names) split for a citation; "John Smith, Jr." keeps its suffix. A name
    of one word, or of CJK characters written without spaces, stays whole."""
    name = " ".join(name.split())
    suffix = ""
    if "," in name:
        base, last = name.rsplit(",", 1)
        if not _SUFFIXES.fullmatch(last.strip()) or "," in base:
            return Name(literal=name)
        name, suffix = base.strip(), last.strip()
    words = name.split(" ")
    if len(words) < 2 or has_cjk(name):  # "山田 太郎" is family first: no rule of ours splits it rightly
        return Name(literal=name)
    start = len(words) - 1
    while start > 1 and words[start - 1] in _PARTICLES:
        start -= 1
    return Name(" ".join(words[start:]), " ".join(words[:start]), suffix)
