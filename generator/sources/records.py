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

import dataclasses
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.text.cleantext import clean_fields
from generator.model.details import NOT_KNOWN, parse_details
from generator import diagnostics as codes
from generator.errors import Diagnostic, shown
from generator.model.paper import DETAILS, TEXT_FIELDS, Entry
from generator.model.schema import ENTRY_FIELDS
from generator.sources.awards import award_value
from generator.sources.escapes import decode_line_breaks
from generator.sources.relative import RelativeLinks, resolve_links
from generator.sources.subjects import looks_like_session, subject_topics

# Our name for a field → the names sources use for it (compared lower case, spaces and dashes as _): the
# record's own fields and every detail, as generator/model/schema.py declares them.
FIELDS: dict[str, tuple[str, ...]] = {field.name: field.names for field in (*ENTRY_FIELDS, *DETAILS)}
# The details written as lists, which a cell may give as one string ("Session 3B|Session 3D").
_LISTS = tuple(field.name for field in DETAILS if field.kind == "list")
_ALIASES = {alias: name for name, aliases in FIELDS.items() for alias in aliases}
# A record needs one of these to be a paper: a title alone (a keynote, a demo) is one.
REQUIRED_ANY = ("title", "abstract")
# The columns of a venue's own classification, primary first (model.schema.ENTRY_FIELDS).
SUBJECT_COLUMNS = ("subjects", "secondary_subjects")


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
    ranked = sorted(((column, field_rank(name), source_value(column, name, cell))
                     for column, name, cell in zip(columns, header, row) if column is not None),
                    key=lambda item: item[1])
    for column, _, cell in ranked:
        if column not in record or (not str(record[column]).strip() and str(cell).strip()):
            record[column] = cell
    return record


def source_value(field: str, column: str, value: Any) -> Any:
    """A source's value as the field reads it: an award from a flag or a notes column (sources/awards.py)."""
    return award_value(column, value) if field == "award" else value


def patterned_columns(header: Iterable[str], links: Any) -> list[Any]:
    """For each column of ``header``, the ``links:`` pattern over it (a ColumnLink), else None."""
    columns = links.columns if links is not None else {}
    return [columns.get(_normal(str(name))) for name in header]


@functools.lru_cache(maxsize=4096)  # a file's few column names, asked for on every record
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
    # Each subject column's values by entry (its index), and the first session name met in a column.
    subject_values: dict[str, list[tuple[int, list[str], set[str]]]] = field(default_factory=dict)
    session_subjects: dict[str, tuple[int, str]] = field(default_factory=dict)

    def entry(self, record: Mapping[str, Any], line: int, patterned: Iterable[tuple[Any, Any]] = ()) -> Entry | None:
        """``record`` uses our field names; ``line`` is where it starts in the file; ``patterned``: (ColumnLink,
        the record's value) of each column a ``links:`` pattern names, whose links become ``more_links``."""

        def problem(key: str, message: str) -> None:
            self.warn(f"{_name(record)}: `{key}` {message}", line, code=codes.RECORD_FIELD_INVALID, subject=key,
                      paper=_text(record.get("id")))

        record = clean_fields(record, TEXT_FIELDS)  # NFC, no control or invisible characters (text/cleantext.py)

        abstract, title = self._text(record.get("abstract")), " ".join(self._text(record.get("title")).split())
        if not abstract and not title:
            self.skip(f"{_name(record)} has neither a title nor an abstract; skipped it", line)
            return None
        self.index += 1
        record = {**record, **{key: split_list(record.get(key)) for key in _LISTS}}
        made = [{"label": pattern.label, "link": pattern.link(_text(value), _text(record.get("id")))}
                for pattern, value in patterned if _text(value) and _text(value).lower() not in NOT_KNOWN]
        if made:
            record["more_links"] = [link for link in made if link["link"]]
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
            keywords=unique_names([*self._subjects(record, line),
                                   *split_list(record.get("keywords"), commas=True)]),
            details=parse_details(record, problem),
            uid=uid,
        )

    def _subjects(self, record: Mapping[str, Any], line: int) -> list[str]:
        """The topics the record's subject columns give, without the session labels some venues put there
        ("Poster/Demo 3": sources/subjects.py); each column's values are kept for ``settle``'s look at the column."""
        topics = []
        for column in SUBJECT_COLUMNS:
            names = subject_topics(split_list(record.get(column)))
            sessions_named = [name for name in names if looks_like_session(name)]
            if sessions_named:
                self.session_subjects.setdefault(column, (line, sessions_named[0]))
            names = [name for name in names if name not in sessions_named]
            own = {_folded(session) for session in record.get("sessions", ())}
            self.subject_values.setdefault(column, []).append((self.index, names, own))
            topics += names
        return topics

    def settle(self, entries: list[Entry]) -> list[Entry]:
        """The entries once the whole file is read. A subject column that repeats the sessions column (at least
        half of the papers that give it name their own session there) holds sessions, not subjects: its values
        that name a session of the file are not topics. A venue whose sessions are named by topic ("Fairness",
        holding papers of other subjects too) keeps its topics."""
        sessions = {_folded(name) for entry in entries for name in entry.details.sessions}
        lines = {entry.index: entry.line for entry in entries}
        dropped: dict[int, set[str]] = {}
        for column, rows in self.subject_values.items():
            given = [row for row in rows if row[1]]
            repeating = [(index, names) for index, names, own in given if own & set(map(_folded, names))]
            if not repeating or 2 * len(repeating) < len(given):
                continue
            for index, names, _ in given:
                dropped.setdefault(index, set()).update(name for name in map(_folded, names) if name in sessions)
            index, names = repeating[0]
            self.session_subjects.setdefault(column, (lines.get(index, 1), names[0]))
        for column, (line, example) in self.session_subjects.items():
            self.warn(f"the `{self.spelled.get(column, column)}` column holds session names (such as "
                      f"{shown(example)}), not subjects: they are not made into topics", line,
                      code=codes.SOURCE_SESSION_SUBJECTS, subject=column, value=example)
        if not dropped:
            return entries
        return [dataclasses.replace(entry, keywords=tuple(k for k in entry.keywords
                                                          if _folded(k) not in dropped.get(entry.index, ())))
                for entry in entries]

    def _text(self, value: Any) -> str:
        text = _text(value)
        return decode_line_breaks(text, self.file_escapes, self.decided) if self.escaped_breaks else text

    def _check_id(self, uid: str, line: int) -> None:
        if uid in self.ids:
            self.warn(f"the id {shown(uid)} is also on line {self.ids[uid]}: records sharing an id are matched "
                      "to their pages by their text instead, so that no address shows another paper; "
                      "give each paper its own id", line, code=codes.RECORD_ID_REPEATED, paper=uid)
        elif uid:
            self.ids[uid] = line

    def warn(self, message: str, line: int | None, *, code: str, **fields: Any) -> None:
        self.diagnostics.append(Diagnostic("warning", message, self.source, line, code, **fields))

    def skip(self, message: str, line: int | None, **fields: Any) -> None:
        """A warning that the record on ``line`` is not published."""
        self.diagnostics.append(Diagnostic("warning", message, self.source, line, codes.RECORD_SKIPPED, **fields))

    def finish(self) -> None:
        """The warnings about the whole file, once its last record is read."""
        left_out = self.links.warning() if self.links is not None else None
        if left_out is not None:
            self.warn(*left_out, code=codes.SOURCE_LINKS_LEFT_OUT)


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


def _folded(name: str) -> str:
    """A name as two spellings of one are compared: spaces and case aside."""
    return " ".join(name.split()).casefold()


def _paragraphs(text: str) -> str:
    """Line ends as the plain list keeps them: paragraphs apart, no blank runs, no trailing spaces."""
    lines = [line.strip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
