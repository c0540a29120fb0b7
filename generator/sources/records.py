"""From one record of a structured source (a JSON object, a CSV row, a BibTeX entry) to an Entry.

Formats differ in how they spell a field; once a reader has named its fields
with ``FIELDS``' names, every format is checked the same way here. A record
with neither a title nor an abstract, or one the reader cannot parse, is
skipped with a warning naming its line; a record with a title and no abstract
(a keynote, a demo) is a paper. A bad detail (a link that is not a URL) is left
out with a warning; the other papers go on. None of this is an error: a
third-party file with one odd record still publishes every usable one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.text.cleantext import clean_fields
from generator.model.details import parse_details
from generator.errors import SKIPPED, Diagnostic, shown
from generator.model.paper import DETAILS, Entry
from generator.model.schema import ENTRY_FIELDS
from generator.sources.escapes import decode_line_breaks
from generator.sources.relative import RelativeLinks, resolve_links
from generator.sources.subjects import subject_topics

# Our name for a field → the names sources use for it (compared lower case, spaces and dashes as _): the
# record's own fields and every detail, as generator/model/schema.py declares them.
FIELDS: dict[str, tuple[str, ...]] = {field.name: field.names for field in (*ENTRY_FIELDS, *DETAILS)}
# The details written as lists, which a cell may give as one string ("Session 3B|Session 3D").
_LISTS = tuple(field.name for field in DETAILS if field.kind == "list")
_ALIASES = {alias: name for name, aliases in FIELDS.items() for alias in aliases}
# A record needs one of these to be a paper: a title alone (a keynote, a demo) is one.
REQUIRED_ANY = ("title", "abstract")


def field_name(column: str) -> str | None:
    """Our name for a source's column or key, or None for one we do not use."""
    return _ALIASES.get(_normal(column))


def field_rank(column: str) -> int:
    """Where ``column`` comes in its field's names: of two columns giving one field in a row (ISMIR's
    `authors_and_affil` and `authors`), the non-empty one ranked first is read."""
    name = _normal(column)
    return FIELDS[_ALIASES[name]].index(name) if name in _ALIASES else len(_ALIASES)


def row_record(columns: Iterable[str | None], header: Iterable[str], row: Iterable[Any]) -> dict[str, Any]:
    """A table row as a record keyed by our field names, each field from its best column (``field_rank``)."""
    record: dict[str, Any] = {}
    ranked = sorted(((column, field_rank(name), cell) for column, name, cell in zip(columns, header, row)
                     if column is not None), key=lambda item: item[1])
    for column, _, cell in ranked:
        if column not in record or (not str(record[column]).strip() and str(cell).strip()):
            record[column] = cell
    return record


def _normal(column: str) -> str:
    return re.sub(r"[\s-]+", "_", column.strip().lower())


@dataclass
class RecordReader:
    """Turns records into entries for one source file, collecting problems as it goes."""

    source: str
    escaped_breaks: bool = False  # the format writes line breaks as \\n (Mini-Conf's CSV, JSON from it)
    file_escapes: bool = False  # and this file evidently does (a \\n that cannot be TeX somewhere in it)
    decided: list[str] = field(default_factory=list)  # \\nword runs read as breaks by the file's evidence
    diagnostics: list[Diagnostic] = field(default_factory=list)
    index: int = 0
    ids: dict[str, int] = field(default_factory=dict)  # the source's ids seen so far → their line
    links: RelativeLinks | None = None  # how relative links are published (None: kept as paths)
    spelled: dict[str, str] = field(default_factory=dict)  # our name of a field → the source's, for messages

    def entry(self, record: Mapping[str, Any], line: int) -> Entry | None:
        """``record`` uses our field names; ``line`` is where it starts in the file."""

        def problem(key: str, message: str) -> None:
            self.warn(f"{_name(record)}: `{key}` {message}", line)

        record = clean_fields(record)  # NFC, no control or invisible characters (generator/text/cleantext.py)

        abstract, title = self._text(record.get("abstract")), " ".join(self._text(record.get("title")).split())
        if not abstract and not title:
            self.skip(f"{_name(record)} has neither a title nor an abstract; skipped it", line)
            return None
        self.index += 1
        record = {**record, **{key: split_list(record.get(key)) for key in _LISTS}}
        record = resolve_links(record, self.links, self.spelled, line)
        uid = " ".join(_text(record.get("id")).split())
        self._check_id(uid, line)
        return Entry(
            text=_paragraphs(abstract),
            source=self.source,
            index=self.index,
            line=line,
            title=title,
            # The venue's subjects first: its own classification (a subject may hold commas, a keyword not).
            keywords=unique_names([*subject_topics([*split_list(record.get("subjects")),
                                                    *split_list(record.get("secondary_subjects"))]),
                                   *split_list(record.get("keywords"), commas=True)]),
            details=parse_details(record, problem),
            uid=uid,
        )

    def _text(self, value: Any) -> str:
        text = _text(value)
        return decode_line_breaks(text, self.file_escapes, self.decided) if self.escaped_breaks else text

    def _check_id(self, uid: str, line: int) -> None:
        if uid in self.ids:
            self.warn(f"the id {shown(uid)} is also on line {self.ids[uid]}: records sharing an id are matched "
                      "to their pages by their text instead, so that no address shows another paper; "
                      "give each paper its own id", line)
        elif uid:
            self.ids[uid] = line

    def warn(self, message: str, line: int | None) -> None:
        self.diagnostics.append(Diagnostic("warning", message, self.source, line))

    def skip(self, message: str, line: int | None) -> None:
        """A warning that the record on ``line`` is not published."""
        self.diagnostics.append(Diagnostic("warning", message, self.source, line, SKIPPED))

    def finish(self) -> None:
        """The warnings about the whole file, once its last record is read."""
        left_out = self.links.warning() if self.links is not None else None
        if left_out is not None:
            self.warn(*left_out)


def accepted_names(*fields: str) -> str:
    """The column or key names a source may use for ``fields``, for a message."""
    return ", ".join(f"`{alias}`" for name in fields for alias in FIELDS[name])


def split_list(value: Any, commas: bool = False) -> list[str]:
    """A list field written as a list or as one string: "a|b", else "a; b" (and with ``commas`` "a, b").

    A string that uses ``|`` is split on ``|`` only, so a keyword with a comma or a semicolon in it
    ("Privacy, fairness") stays whole in "Privacy, fairness|Robustness", as Mini-Conf writes it.
    """
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        items: Iterable[Any] = value
    else:
        text = str(value)
        items = text.split("|") if "|" in text else re.split(r"[;,]" if commas else ";", text)
    return [" ".join(str(item).split()) for item in items if str(item).strip()]


def unique_names(names: Iterable[str]) -> tuple[str, ...]:
    """Names in order without repeats; two that differ only in case are one (the first spelling wins)."""
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(name.casefold(), name)
    return tuple(seen.values())


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
