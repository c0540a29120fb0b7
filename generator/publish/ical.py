"""The programme as iCalendar files (RFC 5545), written with the ``icalendar`` library: the whole programme
(``programme.ics``), one session, or one paper (its sessions, each an event whose URL is the paper's page).

- Times keep their zone: an IANA zone as ``DTSTART;TZID=America/New_York:…`` with the ``VTIMEZONE`` it needs
  (``publish/ical_zones.py``); UTC, or an offset alone (Mini-Conf's ``-08:00`` without a venue zone), as UTC
  (``…Z``); a floating time stays floating; an all-day event is a date.
- UIDs are stable: made from the volume's id and the session's key (its title's slug, numbered for repeats) and the
  paper's id, never from the clock or a counter, so that importing a new build's file updates the events a reader
  imported before instead of adding them again.
- The bytes are deterministic. ``DTSTAMP`` (required in every event) is not the clock: it is the stamp the caller
  gives (the volume's date), else the latest ``LAST-MODIFIED``/``DTSTAMP`` of the venue's own calendar, else the
  programme's first start: each a fact of the input, so the same input gives the same file, and a changed
  calendar a later stamp.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from generator.programme.model import Programme, Session, Span
from generator.publish.ical_zones import vtimezone

if TYPE_CHECKING:  # icalendar (~50 ms to import) is imported where it is used: only a volume with a programme
    import icalendar

PRODID = "-//Proceedings//Programme//EN"
_UTC = dt.timezone.utc
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=_UTC)


@dataclass(frozen=True)
class PaperLink:
    title: str
    url: str = ""  # the paper page's absolute address; "" when the site has none (no URL is written)


@dataclass(frozen=True)
class Site:
    """What the files say beyond the programme."""

    volume: str  # the volume's id ("colt-2020"), in every UID
    name: str = ""  # the calendar's name (X-WR-CALNAME): the volume's title
    programme_url: str = ""  # programme.html's absolute address: a session's URL is it with #key
    papers: Mapping[str, PaperLink] = field(default_factory=dict)
    stamp: dt.datetime | None = None  # DTSTAMP; see the module's note


def session_uid(site: Site, session: Session) -> str:
    return f"session-{session.key}.{_token(site.volume)}@proceedings"


def paper_uid(site: Site, paper: str, session: Session) -> str:
    return f"paper-{_token(paper)}-{session.key}.{_token(site.volume)}@proceedings"


def programme_ics(programme: Programme, site: Site) -> bytes:
    """Every timed session and event of the programme."""
    stamp = _stamp(programme, site)
    return _calendar(programme, site, [_session_event(s, site, stamp) for s in programme.timed], site.name)


def session_ics(programme: Programme, session: Session, site: Site) -> bytes | None:
    """One session; None when it has no time (no calendar can hold it)."""
    if session.span is None:
        return None
    title = f"{session.title} — {site.name}" if site.name else session.title
    return _calendar(programme, site, [_session_event(session, site, _stamp(programme, site))], title)


def paper_ics(programme: Programme, paper: str, site: Site) -> bytes | None:
    """A paper's sessions (COLT 2020: two per paper), each an event of its own; None when none has a time."""
    sessions = [session for session in programme.of_paper(paper) if session.span is not None]
    if not sessions:
        return None
    stamp = _stamp(programme, site)
    link = site.papers.get(paper, PaperLink(paper))
    return _calendar(programme, site, [_paper_event(paper, link, s, site, stamp) for s in sessions], link.title)


def personal_parts(programme: Programme, site: Site, name: str = "") -> tuple[bytes, dict[str, bytes], bytes]:
    """What a reader's own schedule ("My programme", from the reading list, which lives in the browser) is made
    of without an iCalendar library in the page: the calendar's head (with a VTIMEZONE for every zone of the
    programme), each paper's events as ``paper_ics`` writes them, and the tail. The head, the events of any
    papers, and the tail, joined, are one valid calendar."""
    stamp = _stamp(programme, site)
    whole = _calendar(programme, site, [_session_event(s, site, stamp) for s in programme.timed], name,
                      events_too=False)
    head, tail = whole[:-len(b"END:VCALENDAR\r\n")], b"END:VCALENDAR\r\n"
    parts = {}
    for paper in dict.fromkeys(p for session in programme.timed for p in session.papers):
        link = site.papers.get(paper, PaperLink(paper))
        parts[paper] = b"".join(_paper_event(paper, link, session, site, stamp).to_ical()
                                for session in programme.of_paper(paper) if session.span is not None)
    return head, parts, tail


def _calendar(programme: Programme, site: Site, events: list[icalendar.Event], name: str,
              events_too: bool = True) -> bytes:
    import icalendar  # only a volume with a programme writes calendars: imported here, when one does

    calendar = icalendar.Calendar()
    calendar.add("PRODID", PRODID)
    calendar.add("VERSION", "2.0")
    calendar.add("CALSCALE", "GREGORIAN")
    calendar.add("METHOD", "PUBLISH")
    if name:
        calendar.add("X-WR-CALNAME", name)
    if programme.zone:
        calendar.add("X-WR-TIMEZONE", programme.zone)
    for event in events if events_too else ():
        calendar.add_component(event)
    text: bytes = calendar.to_ical()
    zones = b"".join(_zone_text(key, first, last) for key, first, last in _zones(events))
    first_event = text.find(b"\r\nBEGIN:VEVENT\r\n")
    cut = first_event + 2 if first_event >= 0 else len(text) - len(b"END:VCALENDAR\r\n")
    return text[:cut] + zones + text[cut:]  # the zones before the events, as clients write them


def _zones(events: Iterable[icalendar.Event]) -> list[tuple[str, int, int]]:
    """(zone, first year, last year) of each zone the events use, in the order of the zones' names."""
    dates: dict[str, list[dt.date]] = {}
    for event in events:
        for key in ("DTSTART", "DTEND"):
            value = getattr(event.get(key), "dt", None)
            if isinstance(value, dt.datetime) and isinstance(value.tzinfo, ZoneInfo) and value.tzinfo.key != "UTC":
                dates.setdefault(value.tzinfo.key, []).append(value.date())
    return [(key, min(days).year, max(days).year) for key, days in sorted(dates.items())]


@functools.lru_cache(maxsize=64)
def _zone_text(key: str, first: int, last: int) -> bytes:
    """A zone's VTIMEZONE as the file holds it, made once: each paper's file of a volume carries the same."""
    text: bytes = vtimezone(ZoneInfo(key), dt.date(first, 1, 1), dt.date(last, 12, 31)).to_ical()
    return text


def _session_event(session: Session, site: Site, stamp: dt.datetime) -> icalendar.Event:
    assert session.span is not None, session.title  # the callers pass timed sessions only
    event = _timed(session.span, session_uid(site, session), stamp)
    event.add("SUMMARY", session.title)
    _place(event, session)
    url = f"{site.programme_url}#{session.key}" if _absolute(site.programme_url) else session.link
    if _absolute(url):
        event.add("URL", url)
    lines = [f"Chair: {session.chair}"] if session.chair else []
    papers = [site.papers.get(paper, PaperLink(paper)) for paper in session.papers]
    lines += [f"{link.title}{' — ' + link.url if link.url else ''}" for link in papers]
    if session.description:
        lines.append(session.description)
    if lines:
        event.add("DESCRIPTION", "\n".join(lines))
    return event


def _paper_event(paper: str, link: PaperLink, session: Session, site: Site, stamp: dt.datetime) -> icalendar.Event:
    assert session.span is not None, session.title  # the callers pass timed sessions only
    event = _timed(session.span, paper_uid(site, paper, session), stamp)
    event.add("SUMMARY", f"{link.title} ({session.title})")
    _place(event, session)
    if _absolute(link.url):
        event.add("URL", link.url)
    lines = [session.title] + ([f"Chair: {session.chair}"] if session.chair else [])
    event.add("DESCRIPTION", "\n".join(lines))
    return event


def _timed(span: Span, uid: str, stamp: dt.datetime) -> icalendar.Event:
    import icalendar

    event = icalendar.Event()
    event.add("UID", uid)
    event.add("DTSTAMP", stamp)
    if span.all_day:
        event.add("DTSTART", span.start.date())
        event.add("DTEND", (span.end or span.start + dt.timedelta(days=1)).date())
        return event
    event.add("DTSTART", _written(span.start))
    if span.end is not None:
        event.add("DTEND", _written(span.end))
    return event


def _written(moment: dt.datetime) -> dt.datetime:
    """An IANA zone as it is (TZID); UTC, an offset alone or a zone the venue's file defined, as UTC; floating
    as floating."""
    tz = moment.tzinfo
    if tz is None or isinstance(tz, ZoneInfo) and tz.key != "UTC":
        return moment
    return moment.astimezone(_UTC)


def _place(event: icalendar.Event, session: Session) -> None:
    if session.room:
        event.add("LOCATION", session.room)


def _stamp(programme: Programme, site: Site) -> dt.datetime:
    stamp = site.stamp or programme.stamp or programme.first_instant or _EPOCH
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=_UTC)
    return stamp.astimezone(_UTC).replace(microsecond=0)


def _absolute(url: str) -> bool:
    return bool(re.match(r"https?://", url or ""))


def _token(text: str) -> str:
    """``text`` as a UID part: itself when it is letters, digits, dots, dashes and underscores; else those parts
    and a short digest, so that two ids never share one."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "x"
    if safe == text:
        return text
    return f"{safe}-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:8]}"
