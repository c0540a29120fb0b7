"""The programme of a volume: days, each with its sessions in time order; a session has a time span in a time
zone, a room, a chair and the ids of its papers, and an event without papers (a keynote, a break) is a session
too, with none.

Readers (``programme/readers.py``) make sessions from a venue's calendar; ``programme/join.py`` gives them their
papers, or makes them from the papers' own ``day``/``time``/``room``; ``publish/ical.py`` writes them as iCalendar.
The model is frozen and knows nothing of pages: a template reads it, a writer writes it.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable
from dataclasses import dataclass, replace
from zoneinfo import ZoneInfo

from generator.derive.groups import day_key, natural_key  # the contents' own order, for untimed sessions
from generator.programme.times import zone_named
from generator.text.slugs import slug_or_digest, unique


@dataclass(frozen=True)
class Span:
    """When a session is held. ``start`` and ``end`` are aware (an IANA zone when the source names one, else a
    fixed UTC offset, as Mini-Conf's ``2024-11-10T01:38:00-08:00`` gives) or naive: a floating time, the same
    wall-clock time wherever the reader is (RFC 5545 §3.3.5, form 1). ``all_day``: a date-only event."""

    start: dt.datetime
    end: dt.datetime | None = None
    all_day: bool = False

    @property
    def floating(self) -> bool:
        return self.start.tzinfo is None

    @property
    def zone(self) -> str:
        """The IANA name of its zone ("America/New_York"), "UTC" for UTC, else "" (an offset alone, floating)."""
        tz = self.start.tzinfo
        if isinstance(tz, ZoneInfo):
            return tz.key
        if tz is not None and tz.utcoffset(self.start) == dt.timedelta(0):
            return "UTC"
        return ""

    @property
    def local_date(self) -> dt.date:
        """The day it starts on, where it is held."""
        return self.start.date()

    def in_zone(self, zone: dt.tzinfo) -> Span:
        """The same instants on another zone's clock (a floating span stays as it is: it has no instant)."""
        if self.floating or self.all_day:
            return self
        return Span(self.start.astimezone(zone), self.end.astimezone(zone) if self.end else None)


@dataclass(frozen=True)
class Session:
    """One event of the programme: a session of papers, or a keynote, a break, a social (no papers)."""

    title: str
    span: Span | None = None  # None: the source gives no time that can be read (ISMIR's rows: day 1, session 1)
    room: str = ""
    chair: str = ""
    link: str = ""  # the venue's own link for it (Mini-Conf's `link`, an ICS `URL`), as written
    category: str = ""  # Mini-Conf's `calendarId` ("session", "coffee", "replay"), an ICS `CATEGORIES`
    description: str = ""
    papers: tuple[str, ...] = ()  # the ids of its papers, in the volume's order
    names: tuple[str, ...] = ()  # the papers' session names joined to it ("Session 2B", "5")
    day: str = ""  # the day as the papers' rows name it, when there is no date ("1", "Day 2", "Tuesday")
    time: str = ""  # the time as written, when it could not be read as one ("after lunch")
    source: str = ""  # the file it was read from, and the line its event starts on
    line: int = 0
    uid: str = ""  # the source's own UID (ICS), kept for reference
    key: str = ""  # its id in the programme, stable across builds: slug of the title, -2, -3 for its repeats

    @property
    def has_papers(self) -> bool:
        return bool(self.papers)


@dataclass(frozen=True)
class Day:
    """A day of the programme: its date where it is held (None when the sources only number it), its label as
    the sources give it when there is no date, and its sessions in time order."""

    date: dt.date | None
    label: str
    sessions: tuple[Session, ...]


@dataclass(frozen=True)
class Programme:
    sessions: tuple[Session, ...]  # every session and event, in time order (see ``order``), each with its key
    zone: str = ""  # the venue's time zone (IANA name), "" when the sources do not say
    unplaced: tuple[str, ...] = ()  # ids of the papers in no session
    stamp: dt.datetime | None = None  # when the source calendar was last changed, as it says (ICS LAST-MODIFIED)

    @property
    def days(self) -> tuple[Day, ...]:
        """The sessions by the day they start on where the venue is, in time order."""
        venue = zone_named(self.zone) if self.zone else None
        days: dict[tuple, list[Session]] = {}
        for session in self.sessions:
            days.setdefault(_day_of(session, venue), []).append(session)
        return tuple(Day(date, label, tuple(sessions)) for (_, date, label), sessions in days.items())

    def of_paper(self, paper: str) -> tuple[Session, ...]:
        """The sessions a paper is presented in, in time order."""
        return self._by_paper.get(paper, ())

    @functools.cached_property
    def _by_paper(self) -> dict[str, tuple[Session, ...]]:
        """Paper id → its sessions, made once: every paper page and .ics asks."""
        found: dict[str, list[Session]] = {}
        for session in self.sessions:
            for paper in session.papers:
                found.setdefault(paper, []).append(session)
        return {paper: tuple(sessions) for paper, sessions in found.items()}

    def by_key(self, key: str) -> Session | None:
        return next((session for session in self.sessions if session.key == key), None)

    @functools.cached_property
    def first_instant(self) -> dt.datetime | None:
        """The earliest start that is an instant (in UTC); None when no session has one."""
        starts = [s.span.start.astimezone(dt.timezone.utc) for s in self.sessions
                  if s.span is not None and s.span.start.tzinfo is not None]
        return min(starts, default=None)

    @property
    def timed(self) -> tuple[Session, ...]:
        """The sessions with a time: what a calendar file can hold."""
        return tuple(session for session in self.sessions if session.span is not None)


def _day_of(session: Session, venue: dt.tzinfo | None) -> tuple:
    """Its day where the venue is (an event in another zone, or in UTC, on the venue's calendar)."""
    if session.span is not None:
        span = session.span.in_zone(venue) if venue is not None else session.span
        return (0, span.local_date, "")
    return (1, None, session.day)


def order(session: Session) -> tuple:
    """Time order: timed sessions by their instant (floating ones by their wall-clock time), then by the day and
    name the rows give (natural order: Session 2 before Session 10), then by title."""
    if session.span is not None:
        start = session.span.start
        instant = start if start.tzinfo is None else start.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return (0, instant.isoformat(), (), natural_key(session.title), session.title, session.category)
    return (1, "", day_key(session.day), natural_key(session.title), session.title, session.category)


def make_programme(sessions: Iterable[Session], zone: str = "", unplaced: Iterable[str] = (),
                   stamp: dt.datetime | None = None) -> Programme:
    """The sessions in time order, each given its key: the slug of its title, the repeats of a title (ISMIR's
    "Posters I" live and its replay, ICWSM's three "Social Hour"s) numbered in time order, so that a key stays
    the same from one build to the next while the calendar keeps its order."""
    ordered = sorted(sessions, key=order)
    taken: set[str] = set()
    keyed = []
    for session in ordered:
        key = unique(slug_or_digest(session.title, "session"), taken)  # "—" → session-1a2b3c4d
        taken.add(key)
        keyed.append(replace(session, key=key))
    return Programme(tuple(keyed), zone, tuple(dict.fromkeys(unplaced)), stamp)


@dataclass(frozen=True)
class Calendar:
    """What a reader made of one calendar file: its events (no papers yet), the zone it is in, when it was last
    changed, and what it could not read."""

    sessions: tuple[Session, ...]
    zone: str = ""
    stamp: dt.datetime | None = None
    problems: tuple = ()  # Diagnostic, each naming the file and line
