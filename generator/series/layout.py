"""A series: many volumes in one site (PMLR, the ACL Anthology), each run by the volume's own pipeline.

A content folder whose sub-folders each hold a volume (sources, ``papers/``, ``proceedings.yaml``)
and which has no sources of its own is a series. ``Layout`` says what a content folder holds: one
volume at prefix "" (a one-volume site), or a series' volumes each at its folder's name. A build
stages the whole site under the output folder's lock: every volume's ``Pipeline`` writes into the
staging folder under its prefix, the series' own pages are made from the volumes' typed papers
(series/pages.py), and the whole is swapped in at once, so no failed, killed or raced build leaves a
half-built site.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable
from urllib.parse import quote

from generator.model.config import CONFIG_NAME, Config, load_config
from generator.errors import ContentError, Diagnostic
from generator.model.paper import Author, RenderedPaper
from generator.content.pages import PAGES_DIR
from generator.derive.people_file import Rules, load_rules
from generator.reporter import Reporter
from generator.sources import READERS, find_sources
from generator.model.volume import Volume
from generator.runtime.output import is_built_site
from generator import diagnostics as codes

VOLUME_MARKERS = (PAGES_DIR, CONFIG_NAME)
# The series' own files and folders at the top of the site: no volume may take their names.
_NUMBERED_SITEMAP = re.compile(r"sitemap-[0-9]+\.xml")
NOT_IN_ADDRESS = "#?"  # would end a URL's path: a fragment or a query (a space or "%" is encoded)
SERIES_NAMES = frozenset({"index.html", "search.html", "reading-list.html", "papers.json", "feed.xml", "sitemap.xml",
                          "sitemap-archive.xml", "robots.txt", "people", "assets", ".nojekyll", "glance.html"})


@dataclass(frozen=True)
class SeriesPaper:
    """A paper as the series' own pages list it (a person's papers): small, typed, no abstract."""

    id: str
    url: str  # from the site's root, percent-encoded as papers.json has it
    title: str  # plain text
    authors: tuple[Author, ...]
    year: str = ""
    page: str = ""  # its page file, from the series' content folder ("2024/papers/x.md"): where warnings point

    @classmethod
    def of(cls, paper: RenderedPaper, prefix: str) -> SeriesPaper:
        return cls(paper.paper.id, f"{quote(prefix, safe='')}/{quote(paper.url)}", paper.title_plain,
                   paper.details.authors, paper.details.year, f"{prefix}/{PAGES_DIR}/{paper.paper.path.name}")


@dataclass(frozen=True)
class SeriesVolume:
    """One volume as its series shows it: where it is, the volume, and its papers."""

    path: str  # the folder's name, which is also its prefix in the site
    volume: Volume
    papers: tuple[SeriesPaper, ...]
    year: str  # the volume's year, else its papers' most common one, else a year in the folder's name
    sitemaps: tuple[str, ...] = ()  # the volume's sitemaps that list pages (not an index), for the series' index
    number: str = ""  # its number and place: the volume's own, else as most of its papers give them
    venue: str = ""

    @classmethod
    def of(cls, path: str, volume: Volume, papers: list[RenderedPaper], files: Iterable[str] = ()) -> SeriesVolume:
        listings = tuple(SeriesPaper.of(paper, path) for paper in papers)
        return cls(path, volume, listings, volume.year or _common_year(listings) or _year_in(path),
                   leaf_sitemaps(files), volume.number or most_common(p.details.volume for p in papers),
                   volume.place or most_common(p.details.address for p in papers))

    @property
    def href(self) -> str:
        """The folder's name as a URL path segment: "2024 spring" is 2024%20spring, "100%" 100%25."""
        return quote(self.path, safe="")

    @property
    def title(self) -> str:
        """The volume's title; its folder's name when neither its config nor its sources give one."""
        return self.volume.title if self.volume.titled else self.path

    @property
    def date(self) -> str:
        """YYYY-MM-DD, or ""."""
        return self.volume.date.isoformat() if self.volume.date else ""

    @property
    def when(self) -> str:
        return self.date or self.year

    @property
    def sort_key(self) -> tuple[str, str]:
        return (self.when, self.path)


@dataclass(frozen=True)
class Member:
    """A volume of a content folder: its own content folder, and its prefix in the site."""

    content_dir: Path
    prefix: str  # "" for a one-volume site


@dataclass(frozen=True)
class Layout:
    """What a content folder holds: its volumes, and the series they make (None: one volume)."""

    content_dir: Path
    members: tuple[Member, ...]
    series: Volume | None = None  # the series' own title, description, language and base URL
    people: Rules = Rules()  # the series' people.yaml: every volume's, and its people pages'
    config: Config | None = None  # the series' proceedings.yaml, which its own pages are rendered with

    def base_url(self, member: Member, base_url: str | None) -> str | None:
        """Where a volume is published: the series' address + its prefix, else ``base_url`` as given."""
        if self.series is None:
            return base_url
        return f"{self.series.base_url}{quote(member.prefix, safe='')}/" if self.series.base_url else None

    def options_series(self) -> str:
        return self.series.title if self.series else ""


def holds_volume(folder: Path) -> bool:
    # A site a build made is no volume, wherever its --out put it: its robots.txt is no list of abstracts.
    if folder.name.startswith((".", "_")) or not folder.is_dir() or is_built_site(folder):
        return False
    return any((folder / marker).exists() for marker in VOLUME_MARKERS) or bool(find_sources(folder))


def is_volume(folder: Path) -> bool:
    # A link to a folder is never read as a volume, as a link out is never read as a source or page.
    return holds_volume(folder) and not folder.is_symlink()


def volume_dirs(content_dir: Path) -> list[Path]:
    return sorted(child for child in content_dir.iterdir() if is_volume(child)) if content_dir.is_dir() else []


def linked_volumes(content_dir: Path) -> list[Path]:
    """Links to folders that hold a volume: left out of the series, and said so."""
    if not content_dir.is_dir():
        return []
    return sorted(child for child in content_dir.iterdir() if child.is_symlink() and holds_volume(child))


def is_series(content_dir: Path) -> bool:
    """No sources or pages of its own, and at least one sub-folder that holds a volume."""
    if not content_dir.is_dir() or (content_dir / PAGES_DIR).exists() or find_sources(content_dir):
        return False
    return bool(volume_dirs(content_dir) or linked_volumes(content_dir))


def refuse_nothing_to_read(content_dir: Path) -> None:
    """A content folder with no source it reads and no page (empty, or only ``abstracts.docx``) is refused
    naming what it holds and the formats read: building it would publish an empty site and say nothing."""
    if not content_dir.is_dir() or find_sources(content_dir) or any((content_dir / PAGES_DIR).glob("*.md")):
        return
    if (content_dir / CONFIG_NAME).is_file():
        load_config(content_dir, lambda _: None)  # a config that cannot be read is said first (its warnings later)
    found = sorted(f"{child.name}/" if child.is_dir() else child.name
                   for child in content_dir.iterdir() if not child.name.startswith("."))
    held = (f"it holds {', '.join(found[:8])}{f' and {len(found) - 8} more' if len(found) > 8 else ''}"
            if found else "it is empty")
    raise ContentError(f"no source of abstracts to read: {held}. The formats read are {' '.join(READERS)} "
                       "(a spreadsheet saved as CSV, a .bib export…); put one here, or start with "
                       "`proceedings new` or `proceedings import FILE`", path=content_dir)


def load_layout(content_dir: Path, reporter: Reporter, base_url: str | None = None) -> Layout:
    """The one place that tells a series from a volume. A series' config is validated here (an error in it
    stops the build); a volume named like one of the series' own files is reported and left out."""
    if not is_series(content_dir):
        refuse_nothing_to_read(content_dir)
        return Layout(content_dir, (Member(content_dir, ""),))
    config = load_config(content_dir, reporter.report, base_url)
    members = []
    for folder in volume_dirs(content_dir):
        if folder.name.casefold() in SERIES_NAMES:
            reporter.error(f"a volume may not be named {folder.name!r}: the series' own {folder.name} is there; "
                           f"rename the folder", folder, code=codes.VOLUME_FOLDER_INVALID, subject=folder.name)
        elif unsafe := sorted(set(folder.name) & set(NOT_IN_ADDRESS)):
            reporter.error(f"a volume's folder name is its address, which may not hold {' or '.join(unsafe)}: "
                           f"rename the folder", folder, code=codes.VOLUME_FOLDER_INVALID, subject=folder.name)
        else:
            members.append(Member(folder, folder.name))
    for link in linked_volumes(content_dir):
        reporter.warn("is a link to a folder; not built as a volume (move or copy the volume's folder in instead)",
                      Path(link.name), code=codes.SERIES_LINK_FOLDER)
    people = load_rules(content_dir, reporter.warn)
    return Layout(content_dir, tuple(members), series_volume(config, content_dir), people, config)


def series_volume(config: Config, content_dir: Path) -> Volume:
    title = config.title or content_dir.resolve().name or "Proceedings"
    return Volume(title, config.description, config.language, config.base_url, repository=config.repository,
                  contact=config.contact)


class VolumeReporter(Reporter):
    """Passes everything on, each path prefixed with the volume's folder, so messages name the file."""

    def __init__(self, inner: Reporter, volume: str):
        super().__init__()
        self.inner, self.volume = inner, volume

    def report(self, diagnostic: Diagnostic) -> None:
        if diagnostic.path is not None:
            diagnostic = replace(diagnostic, path=Path(self.volume) / diagnostic.path)
        super().report(diagnostic)
        self.inner.report(diagnostic)

    def stage(self, name: str, seconds: float) -> None:
        self.inner.stage(f"{self.volume}: {name}", seconds)

    def progress(self, stage: str, done: int, total: int) -> None:
        self.inner.progress(f"{self.volume}: {stage}", done, total)

    def info(self, message: str) -> None:
        self.inner.info(message)


def member_reporter(reporter: Reporter, member: Member) -> Reporter:
    return VolumeReporter(reporter, member.prefix) if member.prefix else reporter


def leaf_sitemaps(files: Iterable[str]) -> tuple[str, ...]:
    """Of a volume's files, the sitemaps that list its pages: ``sitemap-N.xml`` in order when it has them
    (its ``sitemap.xml`` is then their index, which another index may not name), else ``sitemap.xml``."""
    numbered = sorted((name for name in files if _NUMBERED_SITEMAP.fullmatch(name)), key=lambda n: int(n[8:-4]))
    return tuple(numbered) or (("sitemap.xml",) if "sitemap.xml" in files else ())


def newest_first(volumes: list[SeriesVolume]) -> list[SeriesVolume]:
    return sorted(volumes, key=lambda v: v.sort_key, reverse=True)


def most_common(values: Iterable[str]) -> str:
    """The value most papers give ("" when none does); a tie goes to the first in the values' order."""
    counts = Counter(value for value in values if value)
    return min(counts, key=lambda value: (-counts[value], value)) if counts else ""


def _year_in(name: str) -> str:
    """A year the folder's name holds (``2021``, ``acl-2021``, ``v2021``), else ""."""
    found = re.findall(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)", name)
    return found[-1] if found else ""


def _common_year(papers: tuple[SeriesPaper, ...]) -> str:
    years = Counter(paper.year for paper in papers if paper.year.isdigit())
    return years.most_common(1)[0][0] if years else ""


def volume_date(text: str) -> dt.date | None:
    return dt.date.fromisoformat(text) if text else None
