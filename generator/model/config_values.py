"""The checks of each ``proceedings.yaml`` value: a function per kind that returns the value as the
``Config`` holds it or raises ``ValueError`` saying what is wrong (config.py adds the file and line).
``VALIDATORS`` names the function of every key the file may hold."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from generator.errors import shown
from generator.model.details import natural_order, split_names
from generator.model.doi import parse_doi_settings
from generator.model.link_patterns import check_pattern


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


VALIDATORS: dict[str, Callable[[Any], Any]] = {
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
