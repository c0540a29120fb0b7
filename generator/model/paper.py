"""Typed content objects, parsed once at the edge and never mutated."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from generator.errors import Diagnostic
from generator.model.corrections import Corrections
from generator.model.schema import Cite, detail, fields_of


@dataclass(frozen=True)
class Author:
    name: str
    affiliation: str = ""
    orcid: str = ""  # bare, 0000-0002-1825-0097
    id: str = ""  # a person id of the series' own (tells apart two people of one name in a series)


# What a source calls an award (sources/awards.py reads each): its own column, a yes/no flag column, a note.
AWARD_NAMES = ("award", "awards", "paper_award", "awardnominee", "award_nominee", "best_paper", "best_paper_award",
               "best_paper_nominee", "best_paper_candidate", "best_student_paper", "outstanding_paper", "notes", "note",
               "remarks")


@dataclass(frozen=True)
class Details:
    """What is known about a paper beyond its title, abstract and tags; every field optional.

    Each attribute is the one declaration of its field (``generator/model/schema.py`` says what the parts mean):
    readers, validation, front matter (in this order), citations and papers.json derive from it.
    """

    # ISMIR's `authors_and_affil` ("Arthur Flexer (Johannes Kepler University Linz)*; …") first: where a table has
    # it beside `authors` (names alone), it is the one read (records.field_ranks).
    authors: tuple[Author, ...] = detail("authors", "authors_and_affil", "authors_and_affiliations", "authors",
                                         "author", cite=Cite("author", bibtex_at=1))
    # Tracks, most papers have one ("Main", "Datasets and Benchmarks"; SIGDIAL/INLG's joint export names the
    # `conference`, sigdial or inlg); a programme's sessions ("Session 3B"). A session's readable title, where the
    # file has a column for it beside the session's id (`session_title` beside `genchalpostersession+demos`), is
    # read first (records.field_rank), so the title is what pages show.
    track: tuple[str, ...] = detail("list", "track", "tracks", "conference", tex=True)
    sessions: tuple[str, ...] = detail("list", "session_title", "session_titles", "session_name", "session_names",
                                       "sessions", "session", tex=True)
    # Programme data, kept as the source writes it (ISMIR's `day`/`position`, ICWSM's `date`/`time`/`room`):
    # shown on the paper's page, and on a session's heading when all its papers share it.
    day: str = detail("text", "day", "date")
    time: str = detail("text", "time", "start_time", "time_slot")
    room: str = detail("text", "room")
    position: str = detail("text", "position", "poster_position")  # the paper's place in its session
    # The part of the volume it is in (PMLR's `section`, named by the volume's `sections`).
    section: str = detail("text")
    # An award or a nomination: a column of its own, a yes/no flag column (ISMIR's `AwardNominee`) or a note that
    # reads as one (SIGDIAL's `notes`: "Best Paper Nominee"); sources/awards.py reads each.
    award: str = detail("text", *AWARD_NAMES, tex=True)
    # The materials, as venues' exports name them: Mini-Conf (ISMIR's `pdf_path`, `poster_pdf`, `slides_pdf`),
    # ICWSM (`pdf_url`, `href`), SIGDIAL/INLG (`paper`, `poster`, `full_video`), PMLR (`pdf`, `software`, `url`).
    pdf: str = detail("link", "pdf", "pdf_url", "pdf_path", "paper_pdf", "url_pdf", "paper",
                      cite=Cite("pdf", bibtex_at=60, meta=(("citation_pdf_url", "pdf"),), meta_at=21))
    code: str = detail("link", "code", "code_url", "github", "url_code", "software")
    openreview: str = detail("link", "openreview", "openreview_url", "forum", "forum_url")
    video: str = detail("link", "video", "video_url", "url_video", "full_video")  # a recording of the talk
    poster: str = detail("link", "poster", "poster_pdf", "poster_url")
    slides: str = detail("link", "slides", "slides_pdf", "slides_url")
    thumbnail: str = detail("link", "thumbnail", "thumbnail_url")  # an image; linked, never loaded from elsewhere
    data: str = detail("link", "data", "data_url", "dataset", "dataset_url")
    # Links made from a source's column through a `links:` pattern (COLT 2020's `slideslive_1`, a bare talk id,
    # with `slideslive_1: {pattern: "https://slideslive.com/{value}", label: Talk}`), each with its label.
    more_links: tuple[tuple[str, str], ...] = detail("labelled")
    # The paper on the publisher's own site (PMLR's and a .bib's `url`, ICWSM's `href`).
    publisher_page: str = detail("link", "publisher_page", "url", "href")
    doi: str = detail("doi", cite=Cite("doi", bibtex_at=61, meta=(("citation_doi", "doi"),), meta_at=20))
    # As the source's BibTeX gives them, for citations: kept as written ("13--24", "Jul").
    pages: str = detail("text", cite=Cite("pages", bibtex_at=10, meta_at=11, meta=(
        ("citation_firstpage", "first_page"), ("citation_lastpage", "last_page"))))
    volume: str = detail("text", cite=Cite("volume", bibtex_at=13, meta=(("citation_volume", "volume"),),
                                           meta_at=10, volume="source.volume"))
    year: str = detail("text", cite=Cite("year", bibtex_at=11, volume="year"))
    month: str = detail("text", cite=Cite("month", bibtex_at=14))
    publisher: str = detail("text", tex=True, cite=Cite("publisher", bibtex_at=15, volume="source.publisher",
                                                        meta=(("citation_publisher", "publisher"),), meta_at=12))
    address: str = detail("text", "address", "location", tex=True,
                          cite=Cite("address", bibtex_at=16, volume="source.address"))
    editors: tuple[str, ...] = detail("names", "editor", "editors",  # names, "Given Family"
                                      cite=Cite("editor", bibtex_at=12, volume="source.editors"))

    def __bool__(self) -> bool:
        return any(getattr(self, name) for name in DETAIL_FIELDS)

    @property
    def links(self) -> tuple[tuple[str, str], ...]:
        """(field, link) of every link the paper has, in declaration order: what the templates show."""
        return tuple((name, getattr(self, name)) for name in LINK_FIELDS if getattr(self, name))

    @property
    def first_page(self) -> str:
        return self.pages.replace("—", "-").replace("–", "-").split("-")[0].strip() if self.pages else ""

    @property
    def last_page(self) -> str:
        return self.pages.replace("—", "-").replace("–", "-").split("-")[-1].strip() if self.pages else ""


DETAILS = fields_of(Details)  # the schema of every detail, in front matter order
DETAIL_FIELDS = tuple(f.name for f in DETAILS)
LINK_FIELDS = tuple(f.name for f in DETAILS if f.kind == "link")
# The fields that are text to read, in a record and on a page (ids, slugs and links have their own checks):
# those text/cleantext.py's ``clean_fields`` cleans.
TEXT_FIELDS = frozenset(("title", "abstract", "keywords", "tags", "subjects", "secondary_subjects",
                         *(field.name for field in DETAILS
                           if field.kind in ("authors", "names", "list", "text", "labelled"))))


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
    venue: str = ""  # the meeting the volume is of ("Conference on Learning Theory": PMLR's `name`)
    short_name: str = ""  # its short name ("COLT": PMLR's `shortname`)
    start: dt.date | None = None  # the meeting's first and last days
    end: dt.date | None = None


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
    old_slugs: tuple[str, ...] = ()  # the addresses it had before (papers/<old>.html leads to it)
    corrections: Corrections = Corrections()


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
