"""Typed content objects, parsed once at the edge and never mutated."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from generator.errors import Diagnostic


@dataclass(frozen=True)
class Author:
    name: str
    affiliation: str = ""
    orcid: str = ""  # bare, 0000-0002-1825-0097
    id: str = ""  # a person id of the series' own (tells apart two people of one name in an archive)


@dataclass(frozen=True)
class Details:
    """What is known about a paper beyond its title, abstract and tags; every field optional."""

    authors: tuple[Author, ...] = ()
    track: tuple[str, ...] = ()  # tracks, most papers have one: "Main", "Datasets and Benchmarks"
    sessions: tuple[str, ...] = ()  # a programme's sessions: Mini-Conf's "Session 3B|Session 3D"
    section: str = ""  # the part of the volume it is in (PMLR's `section`, named by the volume's `sections`)
    award: str = ""
    pdf: str = ""  # links: http(s) URLs or paths inside the site
    code: str = ""
    openreview: str = ""
    doi: str = ""  # bare, 10.1234/abc
    # As the source's BibTeX gives them, for citations: kept as written ("13--24", "Jul").
    pages: str = ""
    volume: str = ""
    year: str = ""
    month: str = ""
    publisher: str = ""
    address: str = ""
    editors: tuple[str, ...] = ()  # names, "Given Family"

    def __bool__(self) -> bool:
        return any(getattr(self, name) for name in DETAIL_FIELDS)

    @property
    def first_page(self) -> str:
        return self.pages.replace("—", "-").replace("–", "-").split("-")[0].strip() if self.pages else ""

    @property
    def last_page(self) -> str:
        return self.pages.replace("—", "-").replace("–", "-").split("-")[-1].strip() if self.pages else ""


LINK_FIELDS = ("pdf", "code", "openreview")
CITATION_FIELDS = ("pages", "volume", "year", "month", "publisher", "address")
VALUE_FIELDS = ("section", "award", *LINK_FIELDS, "doi", *CITATION_FIELDS)  # one string each, in order
LIST_FIELDS = ("track", "sessions", "editors")  # lists of strings (one may be written as a plain string)
DETAIL_FIELDS = ("authors", "track", "sessions", *VALUE_FIELDS, "editors")  # in front matter order


@dataclass(frozen=True)
class VolumeInfo:
    """What a source says about the volume itself (a BibTeX file's ``@proceedings`` entry)."""

    title: str = ""
    editors: tuple[str, ...] = ()
    date: dt.date | None = None  # published, else the last day of the meeting
    year: str = ""
    volume: str = ""
    publisher: str = ""
    address: str = ""
    sections: tuple[tuple[str, str], ...] = ()  # (name a paper's `section` gives, its title), in order


@dataclass(frozen=True)
class Entry:
    """One paper as it appears in a source: its abstract and whatever else the format carries."""

    text: str  # the abstract
    source: str  # the source's file name, relative to the content directory
    index: int  # 1-based position in the source
    line: int  # line in the source where the entry starts
    title: str = ""  # empty: the tool derives one from the abstract
    keywords: tuple[str, ...] = ()  # become tags beside the taxonomy's
    details: Details = Details()
    uid: str = ""  # the source's own id for the paper (BibTeX key, Mini-Conf UID…), used to match pages


@dataclass(frozen=True)
class SourceList:
    """A parsed source list: its title line and its entries."""

    path: Path
    title: str  # empty for formats that carry no proceedings title
    entries: tuple[Entry, ...]
    diagnostics: tuple[Diagnostic, ...] = ()  # records skipped or fields left out, by line
    volume: VolumeInfo = VolumeInfo()  # what the source says about the volume (BibTeX's @proceedings)


@dataclass(frozen=True)
class Paper:
    """A paper as its Markdown page describes it."""

    id: str
    slug: str
    title: str
    abstract: str  # Markdown + LaTeX, as written
    tags: tuple[str, ...]
    order: int
    source: str
    entry: int
    path: Path  # the page file
    details: Details = Details()
    uid: str = ""


@dataclass(frozen=True)
class Tag:
    name: str
    slug: str


@dataclass(frozen=True)
class RenderedPaper:
    """A paper beside its rendered forms: HTML lives next to the model, not in it."""

    paper: Paper
    title_html: str
    title_plain: str
    abstract_html: str
    abstract_plain: str

    @property
    def slug(self) -> str:
        return self.paper.slug

    @property
    def details(self) -> Details:
        return self.paper.details

    @property
    def url(self) -> str:
        """Path of the paper's page relative to the site root."""
        return f"papers/{self.paper.slug}.html"
