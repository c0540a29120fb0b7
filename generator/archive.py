"""A series archive: many volumes in one site (PMLR, the ACL Anthology).

A content folder whose sub-folders each hold a volume (sources, ``papers/``,
``proceedings.yaml``) and which has no sources of its own is an archive. Each
volume is built, as a one-volume site, into ``<out>/<volume>/``; then the
archive's own files are written from what the volumes published (their
``papers.json``): the home page, a page per person, search across volumes,
``papers.json``, the sitemap and the feed (archive_pages.py).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterable

from generator.build import BuildResult, build
from generator.config import CONFIG_NAME, Config, load_config
from generator.errors import ContentError, Diagnostic, ProceedingsError
from generator.output import SITE_MARKERS, check_replaceable
from generator.pages import PAGES_DIR
from generator.people import group
from generator.people_file import Rules, load_rules
from generator.reporter import Reporter
from generator.sources import find_sources, read_source

VOLUME_MARKERS = (PAGES_DIR, CONFIG_NAME)
RESERVED = frozenset({"people", "assets"})  # the archive's own folders in the site


@dataclass(frozen=True)
class Volume:
    """One volume of the archive, as its content and its built ``papers.json`` describe it."""

    path: str  # the folder's name, which is also its path in the site
    title: str
    date: str  # YYYY-MM-DD, or ""
    year: str  # or ""
    papers: tuple[dict, ...]  # papers.json records but their abstracts, each with ``url`` from the archive's root
    built: Path | None = None  # the volume's built folder, whose papers.json has the abstracts

    def full_records(self) -> list[dict]:
        """The volume's papers.json records, abstracts included, ``url`` from the archive's root."""
        return _records(self.built, self.path) if self.built else list(self.papers)

    @property
    def when(self) -> str:
        return self.date or self.year

    @property
    def sort_key(self) -> tuple[str, str]:
        return (self.date or self.year, self.path)


def is_volume(folder: Path) -> bool:
    if folder.name.startswith((".", "_")) or not folder.is_dir() or folder.is_symlink():
        return False
    return any((folder / marker).exists() for marker in VOLUME_MARKERS) or bool(find_sources(folder))


def volume_dirs(content_dir: Path) -> list[Path]:
    return sorted(child for child in content_dir.iterdir() if is_volume(child)) if content_dir.is_dir() else []


def is_archive(content_dir: Path) -> bool:
    """No sources or pages of its own, and at least one sub-folder that holds a volume."""
    if not content_dir.is_dir() or (content_dir / PAGES_DIR).exists() or find_sources(content_dir):
        return False
    return bool(volume_dirs(content_dir))


def series_config(content_dir: Path, reporter: Reporter, base_url: str | None = None) -> Config:
    return load_config(content_dir, reporter.report, base_url)


def series_title(config: Config, content_dir: Path) -> str:
    return config.title or content_dir.resolve().name or "Proceedings"


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


def build_volume(content_dir: Path, folder: Path, out_dir: Path, reporter: Reporter, config: Config,
                 cache: bool = True, jobs: int | None = None, people: Rules | None = None) -> BuildResult:
    """One volume, built as a one-volume site into ``<out>/<folder name>/``, linking up to the archive."""
    base_url = f"{config.base_url}{folder.name}/" if config.base_url else None
    return build(folder, out_dir / folder.name, VolumeReporter(reporter, folder.name), base_url=base_url,
                 jobs=jobs, cache=cache, series=series_title(config, content_dir), people=people)


def build_archive(content_dir: Path, out_dir: Path, reporter: Reporter, base_url: str | None = None,
                  cache: bool = True, jobs: int | None = None, only: Iterable[str] | None = None) -> ArchiveResult:
    """Every volume (or ``only`` those named, the others as last built), then the archive's pages."""
    from generator.archive_pages import write_archive

    config = series_config(content_dir, reporter, base_url)
    people = load_rules(content_dir, reporter.warn)  # the series' people.yaml: every volume's, and the archive's
    check_replaceable(out_dir, content_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    folders = volume_dirs(content_dir)
    wanted = set(only) if only is not None else None
    results = {}
    for folder in [f for f in folders if f.name in RESERVED]:
        reporter.error(f"a volume may not be named {folder.name!r}: the archive's own {folder.name}/ is there; "
                       f"rename the folder", folder)
    folders = [folder for folder in folders if folder.name not in RESERVED]
    for folder in folders:
        if wanted is None or folder.name in wanted or not (out_dir / folder.name / "papers.json").is_file():
            reporter.info(f"volume {folder.name}/")
            try:
                results[folder.name] = build_volume(content_dir, folder, out_dir, reporter, config, cache, jobs,
                                                    people)
            except ProceedingsError as exc:  # one broken volume never sinks the others
                reporter.error(f"volume {folder.name} not built: {exc.message} (its previous build, if any, "
                               f"stays published)", exc.path or folder, exc.line)
    remove_stale_volumes(out_dir, {folder.name for folder in folders})
    volumes = [read_volume(folder, out_dir / folder.name) for folder in folders
               if (out_dir / folder.name / "papers.json").is_file()]
    files = write_archive(volumes, config, series_title(config, content_dir), content_dir, out_dir, reporter.warn,
                          people)
    return ArchiveResult(volumes, results, files)


def remove_stale_volumes(out_dir: Path, names: set[str]) -> None:
    """A volume whose folder is gone leaves the site too (only folders a volume build made)."""
    for child in out_dir.iterdir():
        if child.is_dir() and child.name not in names and all((child / m).is_file() for m in SITE_MARKERS):
            shutil.rmtree(child)


@dataclass
class ArchiveResult:
    volumes: list[Volume]
    built: dict[str, BuildResult]
    files: int

    @property
    def papers(self) -> int:
        return sum(len(volume.papers) for volume in self.volumes)


def read_volume(folder: Path, built: Path) -> Volume:
    """What the archive needs of a built volume: its title and date from its content, its papers
    from the ``papers.json`` it published."""
    records = _records(built, folder.name)
    for record in records:
        record.pop("abstract", None)  # 50,000 abstracts are read again only to be written out
    title, date, year = volume_heading(folder)
    year = year or _common_year(records) or _year_in(folder.name)
    return Volume(folder.name, title, date, year, tuple(records), built)


def _records(built: Path, path: str) -> list[dict]:
    try:
        records = json.loads((built / "papers.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ContentError(f"the volume's build left no readable papers.json ({exc})", path=built) from None
    for record in records:
        record["url"] = f"{path}/{record['url']}"
    return records


def volume_heading(folder: Path) -> tuple[str, str, str]:
    """Title, date and year as the volume's own build finds them: ``proceedings.yaml`` first,
    then what the sources say (a list's first line, a .bib's ``@proceedings``)."""
    config = load_config(folder, lambda diagnostic: None)  # its build has reported any problem
    title, date, year = config.title, config.date, ""
    for path in find_sources(folder):
        source = read_source(path, path.name)
        title = title or source.title or source.volume.title
        date = date or source.volume.date
        year = year or source.volume.year
    date_text = date.isoformat() if isinstance(date, dt.date) else ""
    return title or folder.name, date_text, year or date_text[:4]


def _year_in(name: str) -> str:
    """A year the folder's name holds (``2021``, ``acl-2021``, ``v2021``), else ""."""
    found = re.findall(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)", name)
    return found[-1] if found else ""


def _common_year(records: list[dict]) -> str:
    years = Counter(record["year"] for record in records if str(record.get("year", "")).isdigit())
    return years.most_common(1)[0][0] if years else ""


def archive_changes(content_dir: Path, changed: Iterable[Path]) -> set[str] | None:
    """The volumes a set of changed files belongs to, or None when a change touches the archive
    as a whole (its proceedings.yaml, its theme): then every volume is rebuilt."""
    root = content_dir.resolve()
    names = set()
    for path in changed:
        try:
            parts = path.resolve().relative_to(root).parts
        except ValueError:
            return None
        if len(parts) < 2:
            return None
        names.add(parts[0])
    return names


def check_archive(content_dir: Path, reporter: Reporter, check: Callable) -> dict[str, object]:
    """``check`` run on every volume, each volume's messages naming its folder."""
    series_config(content_dir, reporter)
    people = load_rules(content_dir, reporter.warn)
    results = {folder.name: check(folder, VolumeReporter(reporter, folder.name), people=people)
               for folder in volume_dirs(content_dir)}
    # The people pages' warnings, from every volume's papers (newest folder first, as the archive lists them).
    group((((name, paper), authors) for name, result in reversed(results.items()) for paper, authors in result.authors),
          people, "people").report(reporter.warn)
    return results
