"""Reading the record of a correction from an issue: the form's rendered Markdown, or the issue as JSON.

GitHub renders an issue form as ``### <label>`` and the field's value under it; a field with ``render: yaml``
is wrapped in a fenced ``yaml`` block. The record (model/suggestion.py) is the block under ``### The record``
(else the issue's first ``yaml`` block), read as YAML with every problem named by the issue's file and line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.errors import ProceedingsError, shown
from generator.model.details import ORCID, orcid_checks, parse_authors
from generator.model.suggestion import PAPER_FIELDS, PERSON_FIELDS, RECORD_LABEL, authors_record
from generator.text.cleantext import clean
from generator.text.yamlutil import load_mapping

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})\s*([A-Za-z]*)\s*$")
# papers/<name>.md, or <volume>/papers/<name>.md in a series
_FILE = re.compile(r"^(?:[^/\\]+/)?papers/[^/\\]+\.md$")
_ORCID_URL = re.compile(r"^(?:https?://)?orcid\.org/", re.IGNORECASE)
_PAPER_KEYS = {"paper", "file", *PAPER_FIELDS, "was"}
_PERSON_KEYS = {"person", "papers", "more_papers", *PERSON_FIELDS, "was"}
_PLACE_KEYS = {"paper", "file", "author", "was"}


class RecordError(ProceedingsError):
    """A record that cannot be applied, named by the issue's file and line."""


@dataclass
class Record:
    """A correction's record as read: ``data`` checked, each field's line in the issue."""

    issue: Path
    data: dict[str, Any]
    lines: dict[str, int]
    where: str  # "" for the issue file's own lines, " (the issue's body)" for JSON's

    @property
    def kind(self) -> str:
        return "paper" if "paper" in self.data else "person"

    def problem(self, name: str | None, message: str) -> ProceedingsError:
        line = self.lines.get(name or "", min(self.lines.values(), default=1))
        return RecordError(f"{message}{self.where}", path=self.issue, line=line)

    def was(self, name: str) -> str:
        return str(self.data["was"].get(name, ""))

    def value(self, name: str) -> Any:
        """A field's value as the page would have it (the text cleaned as a page's is, authors as a record
        writes them): so that a value the reader left alone has the fingerprint the link gave it."""
        value = self.data.get(name, "")
        if name == "authors":
            problems: list[str] = []
            authors = parse_authors(value, lambda key, message: problems.append(f"`{key}`: {message}"))
            if problems:
                raise self.problem(name, "; ".join(problems))
            return authors_record(authors)
        if name == "orcid":
            value = _ORCID_URL.sub("", str(value or "").strip())
            if value and not (ORCID.fullmatch(value) and orcid_checks(value)):
                raise self.problem(name, f"{shown(value)} is not an ORCID iD (0000-0002-1825-0097)")
            return value
        text = clean(str(value), lines=name == "abstract").strip()
        return " ".join(text.split()) if name == "name" else text


def read_record(issue: Path) -> Record:
    """The record of the correction in ``issue`` (Markdown, or JSON with a ``body``)."""
    try:
        text = issue.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read the issue: {getattr(exc, 'strerror', None) or exc}", path=issue) from None
    where = ""
    if text.lstrip().startswith("{"):
        text, where = _json_body(text, issue), " (the line of the issue's body)"
    lines = text.replace("\r\n", "\n").split("\n")
    start, end = _block(lines, issue)
    data, key_lines = load_mapping("\n".join(lines[start:end]), issue, RecordError, first_line=start + 1)
    record = Record(issue, data, key_lines, where)
    _check(record)
    return record


def _json_body(text: str, issue: Path) -> str:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc.msg}", path=issue, line=exc.lineno) from None
    body = data.get("body") if isinstance(data, dict) else None
    if not isinstance(body, str):
        raise RecordError("the JSON has no issue `body` (gh issue view N --json body)", path=issue)
    return body


def _block(lines: list[str], issue: Path) -> tuple[int, int]:
    """(first line, line past the last) of the record's fenced block, 0-based."""
    heading = next((n for n, line in enumerate(lines) if line.strip().lstrip("#").strip() == RECORD_LABEL
                    and line.lstrip().startswith("#")), None)
    for number in range(heading or 0, len(lines)):
        opened = _FENCE.match(lines[number])
        if opened and (heading is not None or opened.group(2).lower() == "yaml"):
            for close in range(number + 1, len(lines)):
                if lines[close].strip().startswith(opened.group(1)) and not lines[close].strip().strip("`~"):
                    return number + 1, close
            raise RecordError("the record's block (```yaml) is never closed", path=issue, line=number + 1)
    where = "under `### The record`" if heading is not None else "(a ```yaml block)"
    raise RecordError(f"no record {where}: is this an issue made by the \"Suggest a correction\" form?",
                      path=issue, line=(heading or 0) + 1)


def _check(record: Record) -> None:
    """The record's shape: a paper's or a person's, each field of its type."""
    data = record.data
    if "paper" in data:
        known, required = _PAPER_KEYS, ("paper", "file", "title", "was")
    elif "person" in data:
        known, required = _PERSON_KEYS, ("person", "name", "papers", "was")
    else:
        raise record.problem(None, "the record names no `paper` and no `person`")
    for key in data:
        if key not in known:
            raise record.problem(key, f"unknown field {shown(key)} (the record has {', '.join(sorted(known))})")
    for key in required:
        if data.get(key) in (None, "", [], {}):
            raise record.problem(key, f"`{key}` is missing or empty")
    if not isinstance(data["was"], dict):
        raise record.problem("was", "`was` must be the mapping the link gave; leave it as it was")
    if "paper" in data:
        data["paper"] = _identifier(record, "paper", data["paper"])
        _file(record, "file", data["file"])
    else:
        data["papers"] = [_place(record, item) for item in _list(record, "papers")]
    for key in ("title", "abstract", "name", "person"):
        if key in data and not isinstance(data[key], str):
            raise record.problem(key, f"`{key}` must be text, not {shown(data[key])}")
    if "authors" in data and not isinstance(data["authors"], list):
        raise record.problem("authors", "`authors` must be a list of names")


def _identifier(record: Record, key: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not str(value).strip():
        raise record.problem(key, f"`{key}` must be the paper's id, not {shown(value)}")
    return str(value).strip()


def _file(record: Record, key: str, value: Any) -> str:
    if not isinstance(value, str) or not _FILE.match(value) or ".." in value:
        raise record.problem(key, f"`{key}` must be the page's file, papers/<name>.md (in a series "
                                  f"<volume>/papers/<name>.md), not {shown(value)}")
    return value


def _list(record: Record, key: str) -> list[Any]:
    value = record.data[key]
    if not isinstance(value, list):
        raise record.problem(key, f"`{key}` must be a list")
    return value


def _place(record: Record, item: Any) -> dict[str, Any]:
    if not isinstance(item, dict) or set(item) != _PLACE_KEYS:
        raise record.problem("papers", f"each of `papers` is {{paper, file, author, was}}, not {shown(item)}")
    author = item["author"]
    if isinstance(author, bool) or not isinstance(author, int) or author < 1:
        raise record.problem("papers", f"`author` is the author's place (1, 2, …), not {shown(author)}")
    return {"paper": _identifier(record, "papers", item["paper"]), "file": _file(record, "papers", item["file"]),
            "author": author, "was": str(item["was"])}
