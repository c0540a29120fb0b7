"""The proceedings config: ``proceedings.yaml`` in the content directory.

Every key is optional. Validation collects every problem before failing,
and unknown keys are warned about rather than silently ignored (MkDocs).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from generator.errors import ConfigError, Diagnostic, shown
from generator.text.i18n import catalogue_for, catalogue_locales
from generator.text.yamlutil import key_lines, load_mapping, read_utf8
from generator.text.cleantext import clean_value
from generator.model.details import natural_order, split_names
from generator.model.link_patterns import check_pattern
from generator.model.doi import DoiSettings, parse_doi_settings
from generator import diagnostics as codes

CONFIG_NAME = "proceedings.yaml"


@dataclass(frozen=True)
class MacroDef:
    """A user macro from the config: ``body`` is LaTeX and may use ``#1``..``#9``. The LaTeX renderer
    (latex/) reads it; it is declared here, with the config that holds it, as the model is below latex."""

    body: str
    nargs: int = 0

_MACRO_NAME = re.compile(r"^\\?([A-Za-z]+)$")
_PARAMETER = re.compile(r"#([1-9#])")  # as macros.substitute reads a body: ## is a literal #
_LANGUAGE = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$")
# Characters RFC 3986 keeps out of a URL: the base URL is written into attributes and XML as it is.
_NOT_IN_URL = re.compile(r"[\x00-\x20\x7f\"'<>\\^`{|}]")
_ISSN = re.compile(r"(\d{4})-?(\d{3}[\dX])")
_NOT_IN_URL_NAMES = "any of < > \\ ^ ` { | }"

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


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("must be a non-empty string")
    return value.strip()


def _optional_text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("must be a string")
    return value.strip()


def _date(value: Any) -> dt.date:
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f"must be a date written YYYY-MM-DD, not {shown(value)}") from None


def _editors(value: Any) -> tuple[str, ...]:
    """``editors: [Jane Doe, John Smith]``, or one string as a source writes names ("Doe, Jane and Smith, John")."""
    if isinstance(value, str):
        value = split_names(value)
    if not isinstance(value, list) or not value or not all(isinstance(name, str) and name.strip() for name in value):
        raise ValueError(f"must be a list of names, such as [Jane Doe, John Smith], not {shown(value)}")
    return tuple(natural_order(" ".join(name.split())) for name in value)


def _volume_number(value: Any) -> str:
    """``volume: 247`` (a number to YAML) or ``volume: "12 (2)"``."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip():
        raise ValueError(f"must be the volume's number or name, such as 247, not {shown(value)}")
    return str(value).strip()


def _issn(value: Any) -> str:
    text = str(value).strip().upper()
    match = _ISSN.fullmatch(text)
    if not match:
        raise ValueError(f"must be an ISSN written 1234-567X, not {shown(value)}")
    digits = match.group(1) + match.group(2)
    total = sum(int(d) * w for d, w in zip(digits[:7], range(8, 1, -1)))
    check = (11 - total % 11) % 11
    if digits[7] != ("X" if check == 10 else str(check)):
        raise ValueError(f"{shown(value)} has a wrong check digit (a typo?)")
    return f"{digits[:4]}-{digits[4:]}"


def _isbn(value: Any) -> str:
    text = str(value).strip()
    digits = text.replace("-", "").replace(" ", "").upper()
    if re.fullmatch(r"\d{9}[\dX]", digits):
        total = sum((10 - n) * (10 if d == "X" else int(d)) for n, d in enumerate(digits))
    elif re.fullmatch(r"\d{13}", digits):
        total = sum(int(d) * (3 if n % 2 else 1) for n, d in enumerate(digits))
        total = 0 if total % 10 == 0 else 1
    else:
        raise ValueError(f"must be an ISBN of 10 or 13 digits, not {shown(value)}")
    if total % (11 if len(digits) == 10 else 10):
        raise ValueError(f"{shown(value)} has a wrong check digit (a typo?)")
    return text


def normalize_base_url(value: Any) -> str:
    """An http(s) URL ending in ``/``; empty stays empty (relative site)."""
    if value in (None, ""):
        return ""
    if not isinstance(value, str):
        raise ValueError("must be a URL string")
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"must be an http(s) URL such as https://example.org/proceedings/, not {shown(value)}")
    bad = _NOT_IN_URL.search(value.strip())
    if bad:
        raise ValueError(f"must be a URL without spaces, quotes or {_NOT_IN_URL_NAMES}; "
                         f"{bad.group()!r} is not allowed in {shown(value)} (percent-encode it)")
    return value.strip().rstrip("/") + "/"


# GitHub's rules: an owner of letters, digits and single hyphens; a repository of letters, digits, ".", "_", "-".
_REPOSITORY = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}/[A-Za-z0-9._-]{1,100}")
_EMAIL = re.compile(r"[^@\s<>\"'(),;:\\]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
# What a config that names no repository takes it from: GitHub Actions sets it in every step.
REPOSITORY_VARIABLE = "GITHUB_REPOSITORY"


def check_repository(value: Any) -> str:
    """``owner/name`` of a GitHub repository (a pasted ``https://github.com/owner/name`` is read too)."""
    text = str(value).strip() if isinstance(value, str) else ""
    text = re.sub(r"^(?:https?://)?github\.com/", "", text).removesuffix("/").removesuffix(".git")
    if not _REPOSITORY.fullmatch(text) or text.split("/")[1] in (".", ".."):
        raise ValueError(f"must be a GitHub repository written owner/name, such as acme/proceedings-2026, "
                         f"not {shown(value)}")
    return text


def _email(value: Any) -> str:
    text = str(value).strip() if isinstance(value, str) else ""
    if not _EMAIL.fullmatch(text):
        raise ValueError(f"must be an email address, such as chairs@example.org, not {shown(value)}")
    return text


def _language(value: Any) -> str:
    if not isinstance(value, str) or not _LANGUAGE.match(value):
        raise ValueError(f"must be a language tag such as en or zh-CN, not {shown(value)}")
    return value


def _positive_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"must be a whole number of at least 1, not {shown(value)}")
    return value


def _macro(name: str, value: Any) -> tuple[str, MacroDef]:
    match = _MACRO_NAME.match(str(name))
    if not match:
        raise ValueError(f"macro name {shown(name)} must be letters only, like dVC or \\dVC")
    if isinstance(value, str):
        return match.group(1), _checked(name, MacroDef(value))
    if isinstance(value, dict) and isinstance(value.get("body"), str):
        args = value.get("args", 0)
        if isinstance(args, bool) or not isinstance(args, int) or not 0 <= args <= 9:
            raise ValueError(f"macro {name}: args must be a number from 0 to 9")
        unknown = set(value) - {"body", "args"}
        if unknown:
            raise ValueError(f"macro {name}: unknown keys {sorted(unknown)} (use body and args)")
        return match.group(1), _checked(name, MacroDef(value["body"], args))
    raise ValueError(f"macro {name}: give its body as a string, or as {{body: ..., args: N}}")


def _checked(name: str, macro: MacroDef) -> MacroDef:
    """A body may only use the arguments the macro takes (TeX: "Illegal parameter number")."""
    used = max((int(key) for key in _PARAMETER.findall(macro.body) if key != "#"), default=0)
    if used > macro.nargs:
        raise ValueError(f"macro {name}: its body uses #{used} but the macro takes {macro.nargs} "
                         f"argument{'' if macro.nargs == 1 else 's'}; write {{body: '...', args: {used}}}")
    return macro


def _macros(value: Any) -> dict[str, MacroDef]:
    if not isinstance(value, dict):
        raise ValueError("must be a mapping of macro name to definition")
    return dict(_macro(name, body) for name, body in value.items())


class EntryProblem(ValueError):
    """A problem with one entry of a mapping-valued key, reported at that entry's line."""

    def __init__(self, message: str, entry: str):
        super().__init__(message)
        self.entry = entry


def _links(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError("must be a mapping of link kind to address pattern, like "
                         "{pdf: \"https://proceedings.mlr.press/v247/{key}/{key}.pdf\"}")
    patterns = {}
    for kind, pattern in value.items():
        try:
            patterns[str(kind)] = check_pattern(str(kind), pattern)
        except ValueError as exc:
            raise EntryProblem(str(exc), str(kind)) from None
    return patterns


AUTO_TAGS = ("never", "missing", "always")


def _auto_tags(value: Any) -> str:
    if value not in AUTO_TAGS:
        raise ValueError(f"must be one of {', '.join(AUTO_TAGS)}, not {value!r}")
    return str(value)


def _timezone(value: Any) -> str:
    """An IANA zone that Python's zoneinfo knows; an abbreviation (EDT) or an offset is not one, as it says no
    daylight-saving rule."""
    text = value.strip() if isinstance(value, str) else ""
    try:
        ZoneInfo(text)
    except (ValueError, ZoneInfoNotFoundError):
        text = ""
    if not text or "/" not in text and text != "UTC":
        raise ValueError(f"must be an IANA time zone such as America/New_York or Europe/London, not {shown(value)}")
    return text


def _sessions(value: Any) -> dict[str, tuple[str, ...]]:
    """``sessions: {5: Posters V, Demo: [Demos 1, Demos 1 (replay)]}``: a paper's session → the calendar's names."""
    if not isinstance(value, dict):
        raise ValueError("must be a mapping of the papers' session name to the calendar's event name, like "
                         "{5: Posters V}")
    mapped = {}
    for key, names in value.items():
        listed = names if isinstance(names, list) else [names]
        if not listed or not all(isinstance(n, (str, int)) and not isinstance(n, bool) and str(n).strip()
                                 for n in listed):
            raise EntryProblem(f"{shown(key)} must name an event, or a list of events", str(key))
        mapped[str(key).strip()] = tuple(str(name).strip() for name in listed)
    return mapped
MAP_COLOURS = ("auto", "topics", "sessions", "off")


def _map(value: Any) -> str:
    if isinstance(value, bool):
        return "auto" if value else "off"
    if value not in MAP_COLOURS:
        raise ValueError(f"must be one of {', '.join(MAP_COLOURS)} (or true, false), not {shown(value)}")
    return str(value)


_VALIDATORS: dict[str, Callable[[Any], Any]] = {
    "title": _text,
    "description": _optional_text,
    "date": _date,
    "online_date": _date,
    "volume": _volume_number,
    "venue": _text,
    "short_title": _text,
    "place": _text,
    "editors": _editors,
    "publisher": _text,
    "doi": parse_doi_settings,
    "start_date": _date,
    "end_date": _date,
    "issn": _issn,
    "isbn": _isbn,
    "base_url": normalize_base_url,
    "venue_base_url": normalize_base_url,
    "language": _language,
    "papers_per_page": _positive_int,
    "macros": _macros,
    "auto_tags": _auto_tags,
    "links": _links,
    "timezone": _timezone,
    "sessions": _sessions,
    "repository": check_repository,
    "contact": _email,
    "map": _map,
}


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
        if key not in _VALIDATORS:
            known = ", ".join(_VALIDATORS)
            # Named as every message names a file: from the content folder (a series prefixes its volume).
            warn(Diagnostic("warning", f"unknown config key {shown(key)} (known keys: {known})", Path(path.name), line,
                            codes.CONFIG_UNKNOWN_KEY, subject=str(key)))
            continue
        try:
            values[key] = _VALIDATORS[key](raw)
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
