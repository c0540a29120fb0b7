"""Paper details (authors, links, track, award, DOI), checked and normalised once.

Pages and every source format go through ``parse_details``, so a value means
the same wherever it was written. A bad value is a problem reported by key and
left out: the paper still builds without it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import unquote

from generator.errors import shown
from generator.model.paper import DETAILS, Author, Details

# key, message → reported by the caller with its own file and line
Problem = Callable[[str, str], None]

ORCID = re.compile(r"(?:https?://orcid\.org/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dX])/?", re.IGNORECASE)
DOI = re.compile(r"(?:doi:\s*|https?://(?:dx\.)?doi\.org/)?(10\.\d{4,9}/\S+)", re.IGNORECASE)
URL = re.compile(r"https?://[^\s/?#<>\"'`\\]+[^\s<>\"'`\\]*", re.IGNORECASE)
# A path inside the site: no scheme, not protocol-relative, nothing that leaves the attribute.
SITE_PATH = re.compile(r"(?![a-z][a-z0-9+.-]*:)(?!//)[^\s<>\"'`\\]+", re.IGNORECASE)
OPENREVIEW_ID = re.compile(r"[A-Za-z0-9_-]{6,}")
# "Ada Lovelace and Charles Babbage", "Ada Lovelace; Charles Babbage" (and commas: see _split_commas)
AUTHOR_SEPARATOR = re.compile(r"\s*;\s*|\s+and\s+")
# Control characters (NUL above all: no file name can hold one), raw or percent-encoded.
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# What a link given as a path may publish: documents, slides, archives and media, never the content
# folder's own sources, pages or config (`pdf: proceedings.yaml`), nor HTML or SVG that could run script.
DOCUMENT_TYPES = frozenset("""pdf ps eps djvu zip gz tgz tar bz2 xz 7z ppt pptx pps ppsx key odp doc docx odt
    rtf ipynb mp4 webm mov m4v mp3 ogg wav png jpg jpeg gif webp""".split())
# What a spreadsheet holds in a cell that has no link yet.
NOT_KNOWN = frozenset({"n/a", "na", "none", "null", "tba", "tbd", "-", "–", "—"})


_LIST_SEPARATOR = re.compile(r"[;|]")
_COMMA = re.compile(",")
# What an author object may hold (``affiliations`` and ``institution`` are other exports' ``affiliation``).
_AUTHOR_KEYS = ("name", "affiliation", "affiliations", "institution", "orcid", "id")
# Marks after a name: a presenter, the corresponding author, equal contribution, a note.
_MARKS = "*†‡§¶# "
# "Name (Affiliation)", the affiliation in the last parentheses and itself maybe holding some: "(… (AIST))".
_AFFILIATION = re.compile(r"([^()]*?[^()\s])\s*\((.+)\)")

# A name's last part that is not a given name: "Smith, Jr." stays as written.
_SUFFIX = re.compile(r"(?:jr|sr|[ivx]+|\d+(?:st|nd|rd|th))\.?", re.IGNORECASE)


def parse_details(raw: Mapping[str, Any], problem: Problem) -> Details:
    """Every field of the schema, by its kind, in declaration order (so are the problems). A field ``raw``
    does not hold is its default, with no problem, whatever its kind (tests/test_paper_details.py holds each
    kind's reader to it): only the fields a page or record gives are read (a plain list's pages give none of
    30, and a warm build parses 10,000 pages)."""
    return Details(**{field.name: _PARSE[field.kind](raw, field.name, problem) for field in DETAILS
                      if field.name in raw})


def parse_text_list(raw: Mapping[str, Any], key: str, problem: Problem) -> tuple[str, ...]:
    """A list of short texts, or one text (a single session)."""
    value = raw.get(key)
    if value is None or value == "":
        return ()
    if isinstance(value, (str, int, float)):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, (str, int, float)) for item in value):
        problem(key, "must be a list of names, like [Session 1, Session 2]")
        return ()
    return tuple(dict.fromkeys(_clean(item) for item in value if _clean(item)))


def parse_authors(value: Any, problem: Problem, key: str = "authors") -> tuple[Author, ...]:
    """A list of names or of ``{name, affiliation, orcid}``; a single string of names also works."""
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        value = split_names(value)
    if not isinstance(value, list):
        problem(key, "must be a list of names, or of `{name: …, affiliation: …, orcid: …}`")
        return ()
    authors = []
    for number, item in enumerate(value, start=1):
        author = _author(item, number, lambda _, message: problem(key, message))
        if author is not None:
            authors.append(author)
    return tuple(authors)


def split_names(text: str) -> list[str]:
    """Names in one string. Separated by ``;`` (or ``|``), each part is one name, "Family, Given"
    included; separated by "and" or commas, "Jane Doe, John Smith" is two names. A separator inside
    parentheses is part of an affiliation ("Jane Roe (Queen Mary, University of London)")."""
    text = text.strip()
    if ";" in text or "|" in text:
        return [part.strip() for part in split_outside(text, _LIST_SEPARATOR) if part.strip()]
    return [name for names in split_outside(text, AUTHOR_SEPARATOR) for name in _split_commas(names)]


def _split_commas(names: str) -> list[str]:
    """"Jane Doe, John Smith" is two names; "Doe, Jane" and "John Smith, Jr." are one."""
    parts = [part.strip() for part in split_outside(names, _COMMA) if part.strip()]
    return parts if all(" " in part for part in parts) else [names.strip()]


def split_outside(text: str, separator: re.Pattern[str]) -> list[str]:
    """``text`` split at each ``separator`` outside parentheses; a text whose parentheses do not pair up
    is split at every one (a stray "(" must not glue the rest of the list into one name)."""
    paired = text.count("(") == text.count(")")
    parts, start, depth, position = [], 0, 0, 0
    for match in separator.finditer(text):
        for char in text[position:match.start()]:
            depth += {"(": 1, ")": -1}.get(char, 0)
        position = match.start()
        if depth <= 0 or not paired:
            parts.append(text[start:match.start()])
            start = match.end()
    return [*parts, text[start:]]


def split_affiliation(written: str) -> tuple[str, str]:
    """"Arthur Flexer (Johannes Kepler University Linz)*" → the name (with its marks, which ``_author``
    drops) and the affiliation; a name without a closing parenthesis has none ("Ana (Ani) Souza" keeps it)."""
    text = written.strip()
    marks = len(text) - len(text.rstrip(_MARKS))
    body = text[:len(text) - marks].rstrip()
    match = _AFFILIATION.fullmatch(body)
    if match is None or match.group(2).count("(") != match.group(2).count(")"):
        return written, ""
    return match.group(1) + text[len(text) - marks:], match.group(2).strip()


def natural_order(name: str) -> str:
    """"Doe, Jane" as a reader writes it: "Jane Doe"; "Smith, Jr., John" → "John Smith, Jr."; a name
    without a comma, or "John Smith, Jr.", as it is."""
    parts = [part.strip().rstrip("*†‡§¶# ") for part in name.split(",")]
    if len(parts) == 2 and all(parts) and not _SUFFIX.fullmatch(parts[1]):
        return f"{parts[1]} {parts[0]}"
    if len(parts) == 3 and all(parts) and _SUFFIX.fullmatch(parts[1]):
        return f"{parts[2]} {parts[0]}, {parts[1]}"
    return name


def _author(item: Any, number: int, problem: Problem) -> Author | None:
    if isinstance(item, str):
        # A name as written, with an affiliation maybe: the same Author for every paper that writes it so (a
        # name alone can raise no problem but having none).
        found = _NAMED.get(item)
        if found is not None:
            return found
        name, affiliation = split_affiliation(item)
        author = _author({"name": name, "affiliation": affiliation}, number, problem)
        if author is not None and len(_NAMED) < _NAMED_MOST:
            _NAMED[item] = author
        return author
    if not isinstance(item, Mapping):
        problem("authors", f"author {number} must be a name or a mapping with `name`")
        return None
    unknown = sorted(str(key) for key in item if key not in _AUTHOR_KEYS)
    if unknown:
        problem("authors", f"author {number} has unknown field(s) {', '.join(unknown)} "
                           f"(known: {', '.join(_AUTHOR_KEYS)})")
    # "Jane Doe*", "John Smith†": marks of equal contribution or of a note belong to the paper, not the name.
    name = natural_order(_clean(item.get("name")).rstrip(_MARKS + ","))
    if not name:
        problem("authors", f"author {number} has no name")
        return None
    orcid = _clean(item.get("orcid"))
    if orcid:
        match = ORCID.fullmatch(orcid)
        if match is None:
            problem("authors", f"author {number} ({name}): ORCID {shown(orcid)} is not like 0000-0002-1825-0097")
            orcid = ""
        elif not orcid_checks(match.group(1)):
            problem("authors", f"author {number} ({name}): ORCID {shown(match.group(1))} has a wrong check digit "
                               "(a typo?); left out")
            orcid = ""
        else:
            orcid = match.group(1).upper()
    return Author(name, _affiliation(item), orcid, _clean(item.get("id")))


_NAMED: dict[str, Author] = {}  # an author written as a string → what it reads as
_NAMED_MOST = 1 << 16  # names kept (a few MB): past them, a name is read each time


def _affiliation(item: Mapping[str, Any]) -> str:
    """An author object's affiliation: ``affiliation``, else ``affiliations`` (a list is joined with "; "),
    else ``institution``, as exports spell it."""
    for key in ("affiliation", "affiliations", "institution"):
        value = item.get(key)
        if isinstance(value, list):
            value = "; ".join(_clean(part) for part in value if isinstance(part, str) and _clean(part))
        if not isinstance(value, str):  # a nested object ({"name": …}) is not printed as Python writes it
            continue
        if _clean(value):
            return _clean(value)
    return ""


def orcid_checks(orcid: str) -> bool:
    """Whether the last character of ``0000-0002-1825-0097`` is its ISO 7064 MOD 11-2 check digit, as
    ORCID computes it: a digit mistyped (or most swaps of two) is caught, so a typo never splits a person."""
    digits = orcid.replace("-", "")
    total = 0
    for digit in digits[:-1]:
        total = (total + int(digit)) * 2
    check = (12 - total % 11) % 11
    return digits[-1].upper() == ("X" if check == 10 else str(check))


def parse_link(raw: Mapping[str, Any], key: str, problem: Problem) -> str:
    value = _clean(raw.get(key))
    if not value or value.lower() in NOT_KNOWN:
        return ""
    if key == "openreview" and OPENREVIEW_ID.fullmatch(value):  # a bare forum id, as OpenReview exports give
        return f"https://openreview.net/forum?id={value}"
    if CONTROL.search(value):
        problem(key, f"{shown(value)} holds a control character; left out")
        return ""
    if URL.fullmatch(value):
        return value
    if SITE_PATH.fullmatch(value):
        refused = site_path_problem(value)
        if refused:
            problem(key, f"{shown(value)} {refused}; left out")
            return ""
        return value
    problem(key, f"{shown(value)} is not an http(s) URL or a path inside the site; left out")
    return ""


def site_file_name(link: str) -> str:
    """The content folder's file a link given as a path names: decoded, without query or fragment."""
    return posixpath.normpath(unquote(link.split("#", 1)[0].split("?", 1)[0]))


def site_path_problem(link: str) -> str:
    """Why a link given as a path may not publish its file ("" when it may)."""
    name = site_file_name(link)
    if CONTROL.search(name):
        return "holds an encoded control character"
    if name.startswith(("../", "/")) or name == ".." or any(part.startswith(".") for part in name.split("/")):
        return "is outside the content folder or hidden"
    extension = name.rsplit(".", 1)[-1].lower() if "." in name.rsplit("/", 1)[-1] else ""
    if extension not in DOCUMENT_TYPES:
        return (f"is not a document a paper links to (.{extension or '?'}); a path may name a PDF, slides, "
                "an archive or media (give other files an https:// address)")
    return ""


def parse_doi(raw: Mapping[str, Any], key: str, problem: Problem) -> str:
    value = _clean(raw.get(key))
    if not value or value.lower() in NOT_KNOWN:
        return ""
    match = DOI.fullmatch(value)
    if match is None:
        problem(key, f"{shown(value)} is not a DOI (like 10.1234/abc); left out")
        return ""
    return match.group(1)


def _text(raw: Mapping[str, Any], key: str, problem: Problem) -> str:
    value = raw.get(key)
    if value is not None and not isinstance(value, (str, int, float)):
        problem(key, "must be text")
        return ""
    return _clean(value)


def _clean(value: Any) -> str:
    return " ".join(str(value).split()) if value is not None else ""


def _authors(raw: Mapping[str, Any], key: str, problem: Problem) -> tuple[Author, ...]:
    return parse_authors(raw.get(key), problem, key)


def _names(raw: Mapping[str, Any], key: str, problem: Problem) -> tuple[str, ...]:
    return tuple(author.name for author in parse_authors(raw.get(key), problem, key))


def parse_labelled(raw: Mapping[str, Any], key: str, problem: Problem) -> tuple[tuple[str, str], ...]:
    """Links each with its label: ``[{label: Talk, link: https://…}]``; each link checked as a link field's."""
    value = raw.get(key)
    if value is None or value == "" or value == []:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, Mapping) for item in value):
        problem(key, "must be a list of `{label: …, link: …}`")
        return ()
    found = []
    for item in value:
        label = _clean(item.get("label"))
        link = parse_link({key: item.get("link")}, key, problem)
        if link and not is_web_link(link):
            problem(key, f"{shown(link)} is not an http(s) address; left out")
        elif link and not label:
            problem(key, f"{shown(link)} has no label; left out")
        elif link:
            found.append((label, link))
    return tuple(dict.fromkeys(found))


# How each kind of field (schema.Kind) is read: (record, key, problem) → its value.
_PARSE: dict[str, Callable[[Mapping[str, Any], str, Problem], Any]] = {
    "authors": _authors, "names": _names, "list": parse_text_list, "text": _text, "link": parse_link,
    "doi": parse_doi, "labelled": parse_labelled,
}


def details_to_meta(details: Details) -> dict[str, Any]:
    """Front matter fields for the details that are set, in declaration order."""
    meta: dict[str, Any] = {}
    for field in DETAILS:
        value = getattr(details, field.name)
        if field.kind == "authors" and value:
            meta[field.name] = [_author_meta(author) for author in value]
        elif field.kind == "list" and value:
            meta[field.name] = value[0] if len(value) == 1 else list(value)  # `track: Main`
        elif field.kind == "names" and value:
            meta[field.name] = list(value)
        elif field.kind == "labelled" and value:
            meta[field.name] = [{"label": label, "link": link} for label, link in value]
        elif value:
            meta[field.name] = value
    return meta


def _author_meta(author: Author) -> str | dict[str, str]:
    """A name alone as a plain string, the readable form for a person to edit."""
    fields = author_fields(author)
    return author.name if fields.keys() == {"name"} else fields


def author_fields(author: Author) -> dict[str, str]:
    """The author's known fields, in order: ``name`` always, ``affiliation``, ``orcid`` and ``id`` when given."""
    fields = {"name": author.name, "affiliation": author.affiliation, "orcid": author.orcid, "id": author.id}
    return {key: value for key, value in fields.items() if value}


def is_web_link(link: str) -> bool:
    """An http(s) address, as opposed to a path inside the site (both pass ``parse_link``)."""
    return link.startswith(("http://", "https://"))
