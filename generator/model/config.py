"""The proceedings config: ``proceedings.yaml`` in the content directory.

Every key is optional. Validation collects every problem before failing,
and unknown keys are warned about rather than silently ignored (MkDocs).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

from generator.errors import ConfigError, Diagnostic, shown
from generator.text.i18n import catalogue_for, catalogue_locales
from generator.text.yamlutil import key_lines, load_mapping, read_utf8
from generator.text.cleantext import clean_value
from generator.model.doi import DoiSettings
from generator.model.config_values import (  # MacroDef: the config's type, part of this API
    REPOSITORY_VARIABLE, VALIDATORS, EntryProblem, MacroDef, check_repository, normalize_base_url)
from generator import diagnostics as codes

CONFIG_NAME = "proceedings.yaml"


# What a config field shapes: every field declares it (``metadata=shapes(…)``), and the build cache's
# digest of each kind of work is made of the fields that shape it (``config_digest``), so that changing
# a field redoes exactly the work it shapes. tests/test_config.py fails for a field that declares nothing.
SHAPES = {
    "abstracts": "the rendered titles and abstracts (the build cache's abstracts)",
    "pages": "the site's files the templates and publish make: pages, feeds, citations, sitemaps (the last "
             "site's files are kept while their digest holds)",
    "papers": "the papers as read from the sources and pages (their links, their tags): outputs see it through "
              "the papers, whose own digests cover it",
    "none": "no output by itself: what it decides is another field's value",
}


def shapes(*names: str) -> dict[str, tuple[str, ...]]:
    """A Config field's metadata: the outputs it shapes, of ``SHAPES``."""
    if not names or not set(names) <= SHAPES.keys():
        raise ValueError(f"a config field shapes some of {', '.join(SHAPES)}, not {names}")
    return {"shapes": names}


@dataclass(frozen=True)
class Config:
    title: str | None = field(default=None, metadata=shapes("pages"))
    """Proceedings title; defaults to the first line of the abstract list."""
    description: str = field(default="", metadata=shapes("pages"))
    """One sentence shown under the title on the home page and in meta tags."""
    date: dt.date | None = field(default=None, metadata=shapes("pages"))
    """Date of the proceedings (YYYY-MM-DD): used for citations and feeds, never the clock."""
    online_date: dt.date | None = field(default=None, metadata=shapes("pages"))
    """The day the papers were first put online, when it is not ``date`` (citation_online_date)."""
    issn: str = field(default="", metadata=shapes("pages"))
    """The series' ISSN (``1234-567X``), for citations; none is made up."""
    isbn: str = field(default="", metadata=shapes("pages"))
    """The volume's ISBN (10 or 13 digits, hyphens allowed), for citations."""
    # The volume's identity, on the home page and in citations.
    volume: str = field(default="", metadata=shapes("pages"))
    """The volume's number in its series (PMLR's 247): on the home page and in citations."""
    venue: str = field(default="", metadata=shapes("pages"))
    """The meeting the volume is of ("The Thirty Seventh Annual Conference on Learning Theory")."""
    short_title: str = field(default="", metadata=shapes("pages"))
    """A short name for the site's header ("COLT 2024"), so that the long title is shown once."""
    place: str = field(default="", metadata=shapes("pages"))
    """Where the meeting was ("Edmonton, Canada"): on the home page and as the citations' address."""
    editors: tuple[str, ...] = field(default=(), metadata=shapes("pages"))
    """The volume's editors, "Given Family" (a .bib's @proceedings gives them too): on the home page and in
    every paper's citation."""
    publisher: str = field(default="", metadata=shapes("pages"))
    """The publisher every paper's citation names when the paper names none (and the Crossref deposit's)."""
    doi: DoiSettings = field(default=DoiSettings(), metadata=shapes("papers", "pages"))
    """DOIs and their Crossref deposit: ``pattern`` makes a paper's DOI when its source gives none ({n}, {key},
    {slug}); ``depositor`` and ``email`` head ``crossref.xml`` (model/doi.py, publish/crossref.py)."""
    start_date: dt.date | None = field(default=None, metadata=shapes("pages"))
    """The meeting's first day (YYYY-MM-DD)."""
    end_date: dt.date | None = field(default=None, metadata=shapes("pages"))
    """The meeting's last day (YYYY-MM-DD)."""
    base_url: str = field(default="", metadata=shapes("pages"))
    """Absolute URL where the site is published, e.g. https://org.github.io/proc/ ."""
    language: str = field(default="en", metadata=shapes("pages"))
    """Language of the interface and of the ``lang`` attribute (BCP 47)."""
    language_given: bool = field(default=False, metadata=shapes("none"))
    """Whether the file names ``language``; if not, the papers' language may set it (content/project.py).
    It shapes nothing itself: ``language`` says what was settled."""
    papers_per_page: int = field(default=100, metadata=shapes("pages"))
    """Papers listed on each list page before it paginates (fewer when their abstracts would pass
    render/paginate.LIST_PAGE_BUDGET bytes)."""
    macros: dict[str, MacroDef] = field(default_factory=dict, metadata=shapes("abstracts", "pages"))
    """LaTeX macros: name → body, or name → {body, args}."""
    venue_base_url: str = field(default="", metadata=shapes("papers"))
    """The address of the venue's own site, which a source's relative links (Mini-Conf's
    ``pdf_path: static/pdfs/123.pdf``) are resolved against."""
    links: dict[str, Any] = field(default_factory=dict, metadata=shapes("papers"))
    """Link kind → the address pattern its links are made from when a paper gives none
    (``pdf: https://proceedings.mlr.press/v247/{key}/{key}.pdf``); a source's column → a ColumnLink, the pattern
    its value makes a labelled link with (``slideslive_1: https://slideslive.com/{value}``)."""
    auto_tags: str = field(default="missing", metadata=shapes("papers"))
    """Topics from the taxonomy: for papers whose source gives no keywords (missing), for every paper
    beside its keywords (always), or never (only the source's keywords)."""
    timezone: str = field(default="", metadata=shapes("pages"))
    """The venue's time zone, an IANA name ("America/New_York"): the programme's times are shown on its clock,
    and a calendar's times that name no zone are read in it (docs/programme.md)."""
    sessions: dict[str, tuple[str, ...]] = field(default_factory=dict, metadata=shapes("pages"))
    """The papers' session name → the calendar's event name(s), for names that differ (``5: Posters V``)."""
    repository: str = field(default="", metadata=shapes("pages"))
    """The site's GitHub repository, ``owner/name``: every paper and person page links "Suggest a correction"
    to an issue form there (publish/suggest.py). Without it the build takes ``GITHUB_REPOSITORY`` (set on
    GitHub Actions)."""
    contact: str = field(default="", metadata=shapes("pages"))
    """The volume's contact email: "Suggest a correction" writes to it when no repository is known."""
    map: str = field(default="auto", metadata=shapes("pages"))
    """The map of the papers (map.html): coloured by ``topics`` or ``sessions``, ``auto`` (topics when most papers
    have one, else sessions), or ``off`` (no map; ``false`` says the same, ``true`` auto)."""
    series: str = field(default="", metadata=shapes("pages"))
    """Set by a series build, never read from the file: the series' title, which a volume's pages
    link to (the series' home is one folder up)."""

    @property
    def base_path(self) -> str:
        """The path part of ``base_url`` (``/proc/``), or ``/`` when unknown."""
        return urlsplit(self.base_url).path or "/" if self.base_url else "/"


def undeclared_fields(kind: type = Config) -> list[str]:
    """The fields of ``kind`` (Config) that do not say what they shape."""
    return [f.name for f in fields(kind) if not f.metadata.get("shapes")]


def config_digest(config: Config, shape: str) -> str:
    """A digest of the fields that shape ``shape`` (one of ``SHAPES``), names and values: what the cache
    keeps work of that kind under. A field that declares nothing is counted in every digest (a miss is
    slower, a stale hit wrong)."""
    if shape not in SHAPES:
        raise ValueError(f"no output {shape!r}: expected one of {', '.join(SHAPES)}")
    values = [(f.name, getattr(config, f.name)) for f in fields(config)
              if shape in f.metadata.get("shapes", SHAPES)]
    return hashlib.blake2b(repr(values).encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()


def _no_catalogue(language: str) -> str:
    shipped = ", ".join(["en", *(name.replace("_", "-") for name in catalogue_locales())])
    return (f"no interface translation for language {language!r}: headings and buttons are in English, "
            f"<html lang> is {language!r} (translations: {shipped}; docs/languages.md says how to add one)")


def load_config(content_dir: Path, warn: Callable[[Diagnostic], None], base_url: str | None = None,
                environ: Mapping[str, str] = os.environ) -> Config:
    """Read and validate ``proceedings.yaml``; a missing file means all defaults. ``base_url`` (the
    command line's ``--base-url``) wins over the file's; a file without ``repository`` takes the
    environment's ``GITHUB_REPOSITORY`` (GitHub Actions sets it)."""
    path = content_dir / CONFIG_NAME
    config = Config()
    if path.exists():
        text = read_utf8(path, path, ConfigError, "config")
        data, lines = load_mapping(text, path, ConfigError)
        # The same cleaning as a page's text: a control character in the title would reach every <title>.
        config = _validate(clean_value(data, lines=True), lines, path, warn, text)
    if not config.repository and environ.get(REPOSITORY_VARIABLE):
        try:
            config = replace(config, repository=check_repository(environ[REPOSITORY_VARIABLE]))
        except ValueError as exc:
            raise ConfigError(f"the environment's {REPOSITORY_VARIABLE} {exc}") from None
    if base_url is None:
        return config
    try:
        return replace(config, base_url=normalize_base_url(base_url))
    except ValueError as exc:
        raise ConfigError(f"--base-url {exc}") from None


def _validate(data: dict[str, Any], lines: dict[str, int], path: Path, warn: Callable[[Diagnostic], None],
              text: str = "") -> Config:
    values: dict[str, Any] = {}
    problems: list[str] = []
    for key, raw in data.items():
        line = lines.get(str(key))
        if key not in VALIDATORS:
            known = ", ".join(VALIDATORS)
            # Named as every message names a file: from the content folder (a series prefixes its volume).
            warn(Diagnostic("warning", f"unknown config key {shown(key)} (known keys: {known})", Path(path.name), line,
                            codes.CONFIG_UNKNOWN_KEY, subject=str(key)))
            continue
        try:
            values[key] = VALIDATORS[key](raw)
        except EntryProblem as exc:  # named at its own line: `links:` may hold a dozen patterns
            problems.append(f"{path}:{key_lines(text, str(key)).get(exc.entry, line)}: {key}: {exc}")
        except ValueError as exc:
            problems.append(f"{path}:{line}: {key} {exc}")
    if "language" in values and catalogue_for(values["language"]) is None:
        warn(Diagnostic("warning", _no_catalogue(values["language"]), path, lines.get("language"),
                        codes.CONFIG_NO_CATALOGUE, subject="language", value=str(values["language"])))
    if values.get("start_date") and values.get("end_date") and values["end_date"] < values["start_date"]:
        problems.append(f"{path}:{lines.get('end_date')}: end_date {values['end_date']} is before start_date "
                        f"{values['start_date']}")
    if problems:
        raise ConfigError("invalid config:\n  " + "\n  ".join(problems))
    return replace(Config(), **values, language_given="language" in values)
