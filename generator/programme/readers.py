"""A volume's calendar, found in its content folder and read into sessions: an iCalendar file (``programme/ics.py``),
Mini-Conf's ``main_calendar.json`` or a ``programme.csv`` written by hand. A file that cannot be read at all raises
``ContentError`` (file and line); an event that cannot be read is a warning naming its line, and the others stay.
"""

from __future__ import annotations

import csv
import hashlib
import datetime as dt
import json
import re
from collections.abc import Iterator
from pathlib import Path

from generator import diagnostics as codes
from generator.errors import ContentError, Diagnostic
from generator.programme.ics import read_ics
from generator.programme.model import Calendar, Session, Span
from generator.programme.times import clock, date_of, looks_like_link, moment, zone_named
from generator.sources import CALENDAR_TABLES, is_calendar_table
from generator.sources.encoding import read_text

# The calendar files a content folder may hold, in the order one is chosen: the editor's own table first, then
# the venue's iCalendar files, then Mini-Conf's JSON (which its parse_calendar script makes from an ICS, so a
# folder with both holds the same events twice). Mini-Conf keeps its data in sitedata/.
CSV_NAMES = CALENDAR_TABLES
JSON_NAMES = ("main_calendar.json",)
FOLDERS = (".", "sitedata")

# programme.csv's columns, each under the names a table may give it (compared without case, spaces or hyphens).
COLUMNS = {
    "title": ("session", "title", "name", "event", "session_name", "session_title"),
    "start": ("start", "start_time", "begin", "from", "starts"),
    "end": ("end", "end_time", "finish", "to", "ends"),
    "date": ("date", "day"),
    "zone": ("time_zone", "timezone", "tz", "zone", "tzid"),
    "room": ("room", "location", "venue", "place"),
    "chair": ("chair", "chairs", "session_chair", "chair_s"),
    "link": ("link", "url"),
    "category": ("category", "type", "kind", "calendarid"),
    "description": ("description", "details", "notes"),
    "papers": ("papers", "paper_ids", "paper_id", "uids", "ids"),
}


def find_calendars(content: Path) -> list[Path]:
    """The calendar files of the first kind the folder holds (see above), in name order; [] when none."""
    for kind in (CSV_NAMES, None, JSON_NAMES):
        found = []
        for folder in FOLDERS:
            base = content / folder
            if not base.is_dir():
                continue
            if kind is None:
                found += sorted(path for path in base.glob("*.ics") if path.is_file())
            else:
                found += [base / name for name in kind if (base / name).is_file()
                          and (kind is not CSV_NAMES or is_calendar_table(base / name))]
        if found:
            return found
    return []


def is_calendar(path: Path, content: Path) -> bool:
    """Whether ``path`` is a file ``find_calendars`` may read (serve rebuilds the programme when one changes)."""
    if path.parent not in {content / folder if folder != "." else content for folder in FOLDERS}:
        return False
    name = path.name.lower()
    return name in CSV_NAMES or name in JSON_NAMES or path.suffix.lower() == ".ics"


def calendar_digest(content: Path) -> str:
    """A digest of the calendar files' names and bytes: what the programme is made of beside the papers."""
    digest = hashlib.blake2b(digest_size=16)
    for path in find_calendars(content):
        digest.update(path.relative_to(content).as_posix().encode("utf-8") + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"\1unreadable")
        digest.update(b"\0")
    return digest.hexdigest()


def read_calendar(path: Path, name: str | None = None, zone: str = "") -> Calendar:
    """The sessions of one calendar file, by its kind; ``zone`` is the venue's (IANA name), when known."""
    name = name or path.name
    if zone and zone_named(zone) is None:
        raise ContentError(f"the time zone {zone!r} is not one Python's zoneinfo knows (e.g. America/New_York)")
    suffix = path.suffix.lower()
    if suffix == ".ics":
        return read_ics(path, name, zone)
    if suffix == ".json":
        return read_miniconf(path, name, zone)
    return read_table(path, name, zone)


def read_miniconf(path: Path, name: str, zone: str = "") -> Calendar:
    """Mini-Conf's ``main_calendar.json``: ``[{"title", "start", "end", "location", "link", "calendarId"}, …]``,
    times with their offset (``2024-11-10T01:38:00-08:00``). ``location`` is often a page of the site
    (``papers.html?session=…``): then it is the event's link, not its room."""
    text = read_text(path, name).text
    tz = zone_named(zone) if zone else None
    sessions, problems = [], []
    for item, line in _items(text, name):
        if not isinstance(item, dict):
            problems.append(Diagnostic("warning", f"an event is {type(item).__name__}, not an object; skipped", name,
                                       line, codes.PROGRAMME_EVENT_SKIPPED))
            continue
        session, problem = _miniconf_event(item, name, line, tz)
        if problem:
            problems.append(problem)
        if session:
            sessions.append(session)
    return Calendar(tuple(sessions), zone, None, tuple(problems))


def _items(text: str, name: str) -> Iterator[tuple[object, int]]:
    """(item, the line it starts on) for each item of the JSON array ``text``."""
    decoder = json.JSONDecoder()
    index = _skip(text, 0)
    if not text.startswith("[", index):
        raise ContentError("a Mini-Conf calendar is a JSON list of events ([{\"title\": …}, …])", path=name,
                           line=text.count("\n", 0, index) + 1)
    index = _skip(text, index + 1)
    while index < len(text) and text[index] != "]":
        try:
            item, end = decoder.raw_decode(text, index)
        except json.JSONDecodeError as exc:
            raise ContentError(f"not valid JSON: {exc.msg}", path=name, line=exc.lineno) from None
        yield item, text.count("\n", 0, index) + 1
        index = _skip(text, end)
        if text.startswith(",", index):
            index = _skip(text, index + 1)
        elif not text.startswith("]", index):
            raise ContentError("not valid JSON: expected ',' or ']' between events", path=name,
                               line=text.count("\n", 0, index) + 1)


def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\r\n":
        index += 1
    return index


def _miniconf_event(item: dict, name: str, line: int,
                    tz: dt.tzinfo | None) -> tuple[Session | None, Diagnostic | None]:
    title = " ".join(str(item.get("title") or "").split())
    start, end = (moment(str(item.get(key) or ""), tz) for key in ("start", "end"))
    if not title or start is None:
        why = "no title" if not title else f"its start {str(item.get('start') or '')!r} is not a date and time"
        return None, Diagnostic("warning", f"{'the event ' + repr(title) if title else 'an event'}: {why}; skipped",
                                name, line, codes.PROGRAMME_EVENT_SKIPPED)
    if tz is not None and start.tzinfo is not None:  # an offset alone says no zone: shown on the venue's clock
        start, end = start.astimezone(tz), end.astimezone(tz) if end and end.tzinfo else end
    problem = None
    if end is None and item.get("end") or end is not None and ((end.tzinfo is None) != (start.tzinfo is None)
                                                                 or end < start):
        problem = Diagnostic("warning", f"the event {title!r}: its end {str(item.get('end'))!r} cannot be read, or "
                             "is before its start; shown with its start only", name, line,
                             codes.PROGRAMME_EVENT_PARTIAL)
        end = None
    location = " ".join(str(item.get("room") or item.get("location") or "").split())  # SIGDIAL 2023: `room`
    link = str(item.get("link") or item.get("url") or "").strip()
    if looks_like_link(location):
        location, link = "", link or location
    return Session(title, Span(start, end), room=location, chair=_text(item.get("chair")), link=link,
                   category=_text(item.get("calendarId")), description=str(item.get("description") or "").strip(),
                   source=name, line=line, uid=_text(item.get("UID") or item.get("uid") or item.get("id"))), problem


def _text(value: object) -> str:
    """A JSON value as one line of text ("" for null, a list's items joined)."""
    if isinstance(value, list):
        value = ", ".join(str(part) for part in value if part is not None)
    return " ".join(str(value).split()) if value is not None else ""


def read_table(path: Path, name: str, zone: str = "") -> Calendar:
    """A ``programme.csv``: a row per session or event, with its start and end (a date-time, or a clock time
    beside a ``date`` column), time zone, room, chair, and optionally its papers' ids (``12|45``)."""
    text = read_text(path, name).text
    dialect = "excel-tab" if path.suffix.lower() == ".tsv" or "\t" in text.split("\n", 1)[0] else "excel"
    reader = csv.reader(text.splitlines(keepends=True), dialect)
    header = next(reader, None)
    if not header:
        raise ContentError("the programme table is empty", path=name, line=1)
    columns = _columns(header)
    missing = [key for key in ("title", "start") if key not in columns]
    if missing:
        raise ContentError(f"the programme table needs a {' and a '.join(missing)} column (its columns: "
                           f"{', '.join(header)})", path=name, line=1)
    sessions, problems = [], []
    line = reader.line_num + 1
    for row in reader:
        if any(cell.strip() for cell in row):
            values = {key: row[index].strip() if index < len(row) else "" for key, index in columns.items()}
            session, problem = _row_session(values, name, line, zone)
            if problem:
                problems.append(problem)
            if session:
                sessions.append(session)
        line = reader.line_num + 1
    return Calendar(tuple(sessions), zone, None, tuple(problems))


def _columns(header: list[str]) -> dict[str, int]:
    found = {re.sub(r"[\s\-()]+", "_", cell.strip().casefold()).strip("_"): index for index, cell in
             enumerate(header)}
    columns: dict[str, int] = {}
    for key, names in COLUMNS.items():
        index = next((found[alias] for alias in names if alias in found), None)
        if index is not None and index not in columns.values():
            columns[key] = index
    return columns


def _row_session(values: dict[str, str], name: str, line: int, zone: str) -> tuple[Session | None, Diagnostic | None]:
    title = " ".join(values.get("title", "").split())
    zone_text = values.get("zone", "") or zone
    tz = zone_named(zone_text) if zone_text else None
    if not title:
        return None, Diagnostic("warning", "a row with no session name; skipped", name, line,
                                codes.PROGRAMME_EVENT_SKIPPED)
    if zone_text and tz is None:
        return None, Diagnostic("warning", f"{title!r}: the time zone {zone_text!r} is not a zone name "
                                "(America/New_York), an offset (UTC+2) or an unambiguous abbreviation; skipped",
                                name, line, codes.PROGRAMME_EVENT_SKIPPED)
    day = date_of(values.get("date", "")) if values.get("date") else None
    start = moment(values["start"], tz, day)
    if start is None:
        return None, Diagnostic("warning", f"{title!r}: its start {values['start']!r} is not a date and time "
                                "(2020-07-10 13:00, or 13:00 beside a date column); skipped", name, line,
                                codes.PROGRAMME_EVENT_SKIPPED)
    end_text = values.get("end", "")
    end = moment(end_text, tz, day or start.date()) if end_text else None
    if end is not None and clock(end_text) is not None and (end.tzinfo is None) == (start.tzinfo is None) \
            and end <= start:  # a clock time past midnight (22:00 to 01:00)
        end += dt.timedelta(days=1)
    problem = None
    if values.get("end") and (end is None or (end.tzinfo is None) != (start.tzinfo is None) or end < start):
        problem = Diagnostic("warning", f"{title!r}: its end {values['end']!r} cannot be read, or is before its "
                             "start; shown with its start only", name, line, codes.PROGRAMME_EVENT_PARTIAL)
        end = None
    papers = tuple(part for part in re.split(r"[|;,\s]+", values.get("papers", "")) if part)
    return Session(title, Span(start, end), room=values.get("room", ""), chair=values.get("chair", ""),
                   link=values.get("link", ""), category=values.get("category", ""),
                   description=values.get("description", ""), papers=papers, source=name, line=line), problem
