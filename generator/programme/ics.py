"""A venue's iCalendar file (COLT 2020's ``colt.ics``: 43 events, ``DTSTART;TZID=America/New_York:…`` and the
``VTIMEZONE`` it names) read into sessions, with the ``icalendar`` library: it resolves a ``TZID`` that is an IANA
name, a Windows name ("Eastern Standard Time") or one the file defines in its own ``VTIMEZONE``; ``…Z`` is UTC, a
time with neither is floating. Each event is read on its own: one that cannot be read is reported with the line
its ``BEGIN:VEVENT`` is on, and the others are kept.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from generator import diagnostics as codes
from generator.errors import ContentError, Diagnostic
from generator.programme.model import Calendar, Session, Span
from generator.programme.times import looks_like_link, zone_named
from generator.sources.encoding import read_text

if TYPE_CHECKING:  # icalendar (~50 ms to import) is imported where it is used: only a volume with a programme
    import icalendar

_BLOCK = re.compile(r"^BEGIN:(VEVENT|VTIMEZONE)[ \t]*$.*?^END:\1[ \t]*$", re.M | re.S | re.I)


def read_ics(path: Path, name: str, zone: str = "") -> Calendar:
    """The events of ``path`` (shown as ``name``) as sessions; ``zone``, the venue's zone when known, is the
    clock a UTC or offset-only time is shown on (the file's ``X-WR-TIMEZONE`` when it gives one)."""
    text = read_text(path, name).text
    if "BEGIN:VCALENDAR" not in text.upper():
        raise ContentError("this is not an iCalendar file (no BEGIN:VCALENDAR)", path=name, line=1)
    blocks = list(_blocks(text))
    events = [(block, line) for kind, block, line in blocks if kind == "VEVENT"]
    said = _calendar_zone(text)
    venue = zone or said
    tz = zone_named(venue) if venue else None
    zones = "".join(block + "\n" for kind, block, _ in blocks if kind == "VTIMEZONE")
    parsed = _whole(text, len(events))
    sessions, problems, stamps = [], [], []
    for number, (block, line) in enumerate(events):
        try:
            event = parsed[number] if parsed else _alone(block, zones)
            session, notes = _session(event, name, line, tz)
            changed = _stamps(event)
        except Exception as exc:  # noqa: BLE001 - icalendar raises many kinds on malformed text; one event is lost
            problems.append(Diagnostic("warning", f"this event cannot be read ({_short(exc)}); skipped", name, line,
                                       codes.PROGRAMME_EVENT_SKIPPED))
            continue
        problems.extend(notes)
        if session is not None:
            sessions.append(session)
            stamps.extend(changed)
    return Calendar(tuple(sessions), venue, max(stamps, default=None), tuple(problems))


def _blocks(text: str) -> Iterator[tuple[str, str, int]]:
    """(kind, text, the line it starts on) of each VEVENT and VTIMEZONE, lines counted as the scan goes."""
    line, counted = 1, 0
    for match in _BLOCK.finditer(text):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        yield match[1].upper(), match[0], line


def _whole(text: str, count: int) -> list[icalendar.Component] | None:
    """The file's events parsed at once (icalendar keeps a bad property as an error of its event), or None when
    the file is too broken for that, or its events are not the ``count`` blocks found (each is then parsed alone,
    so that one bad event cannot take the others with it and each keeps its line)."""
    import icalendar  # (imported here: see the note at the top)

    try:
        found = icalendar.Calendar.from_ical(text).walk("VEVENT")
    except Exception:  # noqa: BLE001 - icalendar raises many kinds on malformed text
        return None
    return found if len(found) == count else None


def _alone(block: str, zones: str) -> icalendar.Component:
    """One event parsed with the file's time zones."""
    import icalendar

    return icalendar.Calendar.from_ical(f"BEGIN:VCALENDAR\n{zones}{block}\nEND:VCALENDAR\n").walk("VEVENT")[0]


def _calendar_zone(text: str) -> str:
    """The zone the file says it is in (``X-WR-TIMEZONE``, as Apple and Google Calendar export it)."""
    match = re.search(r"^X-WR-TIMEZONE[^:\n]*:(.+)$", text, re.M | re.I)
    value = match[1].strip() if match else ""
    return value if value and zone_named(value) is not None else ""


def _session(event: icalendar.Component, name: str, line: int,
             tz: dt.tzinfo | None) -> tuple[Session | None, list[Diagnostic]]:
    title = " ".join(str(event.get("SUMMARY", "")).split())
    where = f"the event {title!r}" if title else "an event"
    broken = dict(getattr(event, "errors", ()))
    if "DTSTART" in broken or "DTSTART" not in event:
        why = f"its DTSTART cannot be read ({broken['DTSTART']})" if "DTSTART" in broken else "it has no DTSTART"
        return None, [Diagnostic("warning", f"{where}: {why}; skipped", name, line, codes.PROGRAMME_EVENT_SKIPPED)]
    if not title:
        return None, [Diagnostic("warning", "an event with no SUMMARY (nothing to call it); skipped", name, line,
                                 codes.PROGRAMME_EVENT_SKIPPED)]
    if str(event.get("STATUS", "")).upper() == "CANCELLED":
        return None, [Diagnostic("info", f"{where} is cancelled (STATUS:CANCELLED); left out", name, line,
                                 codes.PROGRAMME_EVENT_CANCELLED)]
    notes = []
    span = _span(event, tz, broken)
    if span.end is None and ("DTEND" in broken or "DURATION" in broken):
        notes.append(Diagnostic("warning", f"{where}: its end cannot be read; shown with its start only", name,
                                line, codes.PROGRAMME_EVENT_PARTIAL))
    if "RRULE" in event or "RDATE" in event:
        notes.append(Diagnostic("warning", f"{where} repeats (RRULE/RDATE); only its first time is in the "
                                "programme: give each time an event of its own", name, line,
                                codes.PROGRAMME_EVENT_PARTIAL))
    categories = event.get("CATEGORIES")
    category = ""
    if categories is not None:
        first = categories[0] if isinstance(categories, list) else categories
        category = ",".join(str(value) for value in getattr(first, "cats", [first]))
    location, link = _text(event, "LOCATION"), _text(event, "URL")
    if looks_like_link(location):  # COLT 2020's WiML lunch: LOCATION is the workshop's page
        location, link = "", link or location
    return Session(title, span, room=location, link=link, category=category,
                   description=str(event.get("DESCRIPTION", "")).strip(), source=name, line=line,
                   uid=_text(event, "UID")), notes


def _span(event: icalendar.Component, tz: dt.tzinfo | None, broken: dict[str, str]) -> Span:
    start = _value(event, "DTSTART")
    if not isinstance(start, dt.date):
        raise ValueError(f"its DTSTART is not a date or a time ({start!r})")
    end = None
    if "DTEND" in event and "DTEND" not in broken:
        end = _value(event, "DTEND")
    elif "DURATION" in event and "DURATION" not in broken:
        duration = _value(event, "DURATION")
        if not isinstance(duration, dt.timedelta):
            raise ValueError(f"its DURATION is not a duration ({duration!r})")
        end = start + duration
    if not isinstance(start, dt.datetime):  # a date: an all-day event, ending (exclusive) on DTEND's date
        first = dt.datetime.combine(start, dt.time())
        last = dt.datetime.combine(end, dt.time()) if isinstance(end, dt.date) else first + dt.timedelta(days=1)
        return Span(first, last, all_day=True)
    start = _on_venue_clock(start, tz)
    until = _on_venue_clock(end, tz) if isinstance(end, dt.datetime) else None  # a date alone ends no timed event
    if until is not None and ((until.tzinfo is None) != (start.tzinfo is None) or until < start):
        until = None  # an end in another kind of time, or before the start: the start alone is trusted
    return Span(start, until)


def _value(event: icalendar.Component, key: str) -> object:
    """A date, time or duration property's value, or None when the event has none."""
    return getattr(event.get(key), "dt", None)


def _on_venue_clock(moment: dt.datetime, tz: dt.tzinfo | None) -> dt.datetime:
    """A UTC or offset-only time on the venue's clock, the same instant; a time in a named zone stays in it."""
    if tz is None or moment.tzinfo is None or isinstance(moment.tzinfo, ZoneInfo) and moment.tzinfo.key != "UTC":
        return moment
    return moment.astimezone(tz)


def _text(event: icalendar.Component, key: str) -> str:
    return " ".join(str(event.get(key, "")).split())


def _stamps(event: icalendar.Component) -> list[dt.datetime]:
    """When the venue last changed the event, in UTC (LAST-MODIFIED, else DTSTAMP)."""
    broken = dict(getattr(event, "errors", ()))
    for key in ("LAST-MODIFIED", "DTSTAMP"):
        value = _value(event, key) if key not in broken else None
        if isinstance(value, dt.datetime):
            aware = value if value.tzinfo else value.replace(tzinfo=dt.timezone.utc)
            return [aware.astimezone(dt.timezone.utc)]
    return []


def _short(exc: Exception) -> str:
    return " ".join(str(exc).split())[:160] or type(exc).__name__
