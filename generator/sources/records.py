"""From one record of a structured source (a JSON object, a CSV row, a BibTeX entry) to an Entry.

Formats differ in how they spell a field; once a reader has named its fields
with ``FIELDS``' names, every format is checked the same way here. A record
without an abstract is skipped with an error naming its line; a bad detail (a
link that is not a URL) is left out with a warning; the other papers go on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.details import parse_details
from generator.errors import Diagnostic, shown
from generator.model import Entry

# Our name for a field → the names sources use for it (compared lower case, spaces and dashes as _).
FIELDS: dict[str, tuple[str, ...]] = {
    "id": ("id", "uid", "paper_id", "key"),
    "title": ("title",),
    "authors": ("authors", "author"),
    "abstract": ("abstract", "summary"),
    "keywords": ("keywords", "keyword", "tags"),
    "pdf": ("pdf", "pdf_url", "paper_pdf", "url_pdf"),
    "code": ("code", "code_url", "github", "url_code"),
    "openreview": ("openreview", "openreview_url", "forum", "forum_url"),
    "track": ("track", "session", "sessions"),
    "award": ("award", "awards"),
    "doi": ("doi",),
}
_ALIASES = {alias: name for name, aliases in FIELDS.items() for alias in aliases}
LIST_SEPARATORS = re.compile(r"\s*[|;]\s*")


def field_name(column: str) -> str | None:
    """Our name for a source's column or key, or None for one we do not use."""
    return _ALIASES.get(re.sub(r"[\s-]+", "_", column.strip().lower()))


@dataclass
class RecordReader:
    """Turns records into entries for one source file, collecting problems as it goes."""

    source: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    index: int = 0
    ids: dict[str, int] = field(default_factory=dict)  # the source's ids seen so far → their line

    def entry(self, record: Mapping[str, Any], line: int) -> Entry | None:
        """``record`` uses our field names; ``line`` is where it starts in the file."""

        def problem(key: str, message: str) -> None:
            self.warn(f"{_name(record)}: `{key}` {message}", line)

        abstract = _text(record.get("abstract"))
        if not abstract:
            self.error(f"{_name(record)} has no abstract; skipped it", line)
            return None
        self.index += 1
        if "|" in str(record.get("authors") or ""):  # "Ada Lovelace|Charles Babbage", as Mini-Conf writes them
            record = {**record, "authors": split_list(record["authors"])}
        uid = " ".join(_text(record.get("id")).split())
        self._check_id(uid, line)
        return Entry(
            text=_paragraphs(abstract),
            source=self.source,
            index=self.index,
            line=line,
            title=" ".join(_text(record.get("title")).split()),
            keywords=tuple(dict.fromkeys(split_list(record.get("keywords"), commas=True))),
            details=parse_details(record, problem),
            uid=uid,
        )

    def _check_id(self, uid: str, line: int) -> None:
        if uid in self.ids:
            self.warn(f"the id {shown(uid)} is also on line {self.ids[uid]}: pages are matched by id, "
                      "so give each paper its own", line)
        elif uid:
            self.ids[uid] = line

    def warn(self, message: str, line: int | None) -> None:
        self.diagnostics.append(Diagnostic("warning", message, self.source, line))

    def error(self, message: str, line: int | None) -> None:
        self.diagnostics.append(Diagnostic("error", message, self.source, line))


def split_list(value: Any, commas: bool = False) -> list[str]:
    """A list field written as a list or as one string ("a|b", "a; b", and with ``commas`` "a, b")."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        items: Iterable[Any] = value
    else:
        pattern = r"\s*[|;,]\s*" if commas else LIST_SEPARATORS
        items = re.split(pattern, str(value))
    return [" ".join(str(item).split()) for item in items if str(item).strip()]


def _name(record: Mapping[str, Any]) -> str:
    """How a problem names a record (its line is reported beside): by title, else by id."""
    title, uid = " ".join(_text(record.get("title")).split()), _text(record.get("id"))
    return f"“{title}”" if title else f"record {shown(uid)}" if uid else "the record"


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _paragraphs(text: str) -> str:
    """Line ends as the plain list keeps them: paragraphs apart, no blank runs, no trailing spaces."""
    lines = [line.strip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
