"""The programme as the site shows it (issue 41): ``programme.html``, each paper page's "when and where", and the
calendar files beside them (``publish/ical.py`` writes them).

A session's times are shown on the venue's clock (its ``timezone:``, else the zone the calendar names) and written
into the page as exact instants (``<time datetime="2020-07-10T13:00:00-04:00">``), which ``assets/times.js``
shows on the reader's clock when asked. The view is made once per build and is part of every page's shared
context: a calendar moved re-renders every page that shows a time (pipeline/reuse.py digests the context).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from babel import Locale
from babel.dates import format_skeleton

from generator.model.paper import RenderedPaper
from generator.model.volume import Volume
from generator.render.outputs import PaperIds
from generator.programme.model import Programme, Session, Span
from generator.programme.times import zone_named
from generator.publish.ical import PaperLink, Site, paper_ics, paper_uid, programme_ics, session_ics

if TYPE_CHECKING:
    from generator.render.html import SiteRenderer

PAGE = "programme.html"
WHOLE = "programme.ics"
SESSIONS = "calendar/sessions"
PAPERS = "calendar/papers"


@dataclass(frozen=True)
class ShownSession:
    """A session or event as a page shows it: its names and place, its times written for the page."""

    key: str
    title: str
    room: str = ""
    chair: str = ""
    category: str = ""
    description: str = ""
    papers: tuple[str, ...] = ()  # the ids of its papers, in their order in it
    start: str = ""  # the `datetime` of its start: ISO 8601, with the offset when it is an instant
    end: str = ""
    zone: str = ""  # the IANA zone the times are shown in ("" for UTC offsets alone, floating or all-day times)
    date: str = ""  # "Fri, Jul 10, 2020", in the interface's language
    start_clock: str = ""  # "13:00"
    end_clock: str = ""  # "14:00", or with its date when it ends on another day
    zone_name: str = ""  # "EDT", "UTC-08:00"; "" when floating
    instant: bool = False  # its times are instants (a script may show them on another clock)
    day: str = ""  # untimed: the day and time as the rows write them
    time: str = ""
    calendar: str = ""  # its .ics file, from the root; "" untimed

    @property
    def timed(self) -> bool:
        return bool(self.start)


@dataclass(frozen=True)
class ShownDay:
    date: str  # the day's heading ("Friday, July 10, 2020"); "" when the sources give no date
    label: str  # then its label as the rows give it ("1", "Tuesday"); "": sessions with no day
    anchor: str
    sessions: tuple[ShownSession, ...]


@dataclass(frozen=True)
class ProgrammeView:
    """What templates see as ``programme``: the days, the sessions by key, each paper's sessions."""

    days: tuple[ShownDay, ...]
    sessions: dict[str, ShownSession]
    by_paper: dict[str, tuple[str, ...]]  # paper id → the keys of its sessions, in time order
    zone: str  # the venue's zone (IANA), "" when no source names one
    zone_name: str  # its abbreviation on the first day ("EDT")
    calendars: dict[str, str]  # paper id → its .ics file, from the root (only papers with a timed session)
    by_name: dict[str, str]  # a session's name as the papers write it → its first session's key (its place)
    digest: str = ""  # of the calendar files' bytes: a calendar edited is a new context

    def of_paper(self, paper_id: str) -> list[ShownSession]:
        return [self.sessions[key] for key in self.by_paper.get(paper_id, ())]

    def papers_of(self, session: ShownSession, by_id: dict[str, RenderedPaper]) -> list[RenderedPaper]:
        return [by_id[paper] for paper in session.papers if paper in by_id]


def view(programme: Programme | None, papers: Sequence[RenderedPaper], locale: Locale,
         digest: str = "") -> ProgrammeView | None:
    """The programme as pages show it; None when it has no timed session (there is no programme page then)."""
    if programme is None or not programme.timed:
        return None
    venue = zone_named(programme.zone) if programme.zone else None
    slugs = {paper.paper.id: paper.paper.slug for paper in papers}
    shown = {session.key: _shown(session, venue, locale) for session in programme.sessions}
    days = tuple(_day(day.date, day.label, day.sessions, shown, locale, number)
                 for number, day in enumerate(programme.days, start=1))
    by_paper = {paper: tuple(s.key for s in programme.of_paper(paper)) for paper in slugs
                if programme.of_paper(paper)}
    calendars = {paper: f"{PAPERS}/{slugs[paper]}.ics" for paper, keys in by_paper.items()
                 if any(shown[key].timed for key in keys)}
    first = next((s.span for s in programme.timed if s.span is not None and not s.span.floating), None)
    # The venue's clock by name: its zone's abbreviation, or the offset the calendar gives ("UTC+01:00")
    zone_name = _moment(first.start, venue).tzname() or "" if first is not None else ""
    by_name: dict[str, str] = {}
    for session in programme.sessions:
        for name in session.names:
            by_name.setdefault(name, session.key)
    return ProgrammeView(days, shown, by_paper, programme.zone, zone_name, calendars, by_name, digest)


def _day(date: dt.date | None, label: str, sessions: Sequence[Session], shown: dict[str, ShownSession], locale: Locale,
         number: int) -> ShownDay:
    heading = format_skeleton("yMMMMEEEEd", date, locale=locale) if date is not None else ""
    anchor = f"day-{date.isoformat()}" if date is not None else f"day-{number}"
    return ShownDay(heading, label, anchor, tuple(shown[session.key] for session in sessions))


def _shown(session: Session, venue: dt.tzinfo | None, locale: Locale) -> ShownSession:
    base: dict[str, Any] = {"key": session.key, "title": session.title, "room": session.room, "chair": session.chair,
                            # Mini-Conf's placeholder calendarId ("---") is no category to show
                            "category": session.category if any(c.isalnum() for c in session.category) else "",
                            "description": session.description,
                            "papers": session.papers, "day": session.day, "time": session.time}
    if session.span is None:
        return ShownSession(**base)
    return ShownSession(**base, **_times(session.span, venue, locale), calendar=f"{SESSIONS}/{session.key}.ics")


def _times(span: Span, venue: dt.tzinfo | None, locale: Locale) -> dict[str, Any]:
    """The span's `datetime` values and words, on the venue's clock when the span is an instant."""
    if span.all_day:
        last = (span.end - dt.timedelta(days=1)).date() if span.end else span.start.date()
        return {"start": span.start.date().isoformat(), "end": last.isoformat() if last > span.start.date() else "",
                "date": _date(span.start, locale), "end_clock": _date(last, locale) if last > span.start.date() else ""}
    start, end = _moment(span.start, venue), _moment(span.end, venue) if span.end else None
    found: dict[str, Any] = {"start": _iso(start), "date": _date(start, locale), "start_clock": _clock(start, locale),
                             "instant": start.tzinfo is not None, "zone": _zone_key(start),
                             "zone_name": start.tzname() or "" if start.tzinfo is not None else ""}
    if end is not None:
        found["end"] = _iso(end)
        same_day = end.date() == start.date()
        found["end_clock"] = _clock(end, locale) if same_day else f"{_date(end, locale)}, {_clock(end, locale)}"
    return found


def _moment(moment: dt.datetime, venue: dt.tzinfo | None) -> dt.datetime:
    return moment.astimezone(venue) if venue is not None and moment.tzinfo is not None else moment


def _iso(moment: dt.datetime) -> str:
    return moment.replace(microsecond=0).isoformat(timespec="seconds")


def _zone_key(moment: dt.datetime) -> str:
    key = getattr(moment.tzinfo, "key", "")
    return key if isinstance(key, str) else ""


def _date(moment: dt.date, locale: Locale) -> str:
    return format_skeleton("yMMMEd", moment, locale=locale)


def _clock(moment: dt.datetime, locale: Locale) -> str:
    return format_skeleton("Hm", moment.replace(tzinfo=None), locale=locale)


def calendar_site(volume: Volume, papers: Sequence[RenderedPaper]) -> Site:
    """What the calendar files say beyond the programme: UIDs carry the volume's key (its citation keys' prefix);
    URLs are absolute or absent (RFC 5545's URL is a URI, which a relative reference is not)."""
    links = {paper.paper.id: PaperLink(paper.title_plain, volume.absolute(paper.url) or "") for paper in papers}
    return Site(volume.key_prefix or "proceedings", volume.title, volume.absolute(PAGE) or "", links)


def programme_files(renderer: SiteRenderer, papers: Sequence[RenderedPaper], programme: Programme,
                    shown: ProgrammeView, only: frozenset[str] | None = None
                    ) -> Iterator[tuple[str, Callable[[], bytes], PaperIds | None]]:
    """(path, maker, the papers it shows) of ``programme.html``, ``programme.ics`` and each session's and paper's
    ``.ics``; given ``only``, the per-paper files of those papers alone (the rest show every paper or none)."""
    by_id = {paper.paper.id: paper for paper in papers}
    site = calendar_site(renderer.site.volume, papers)
    listed = PaperIds(paper for session in programme.sessions for paper in session.papers if paper in by_id)
    yield PAGE, functools.partial(renderer.render, PAGE, "", papers_by_id=by_id), listed
    yield WHOLE, functools.partial(programme_ics, programme, site), None
    for session in programme.timed:
        ics = functools.partial(_bytes, session_ics, programme, session, site)
        yield shown.sessions[session.key].calendar, ics, PaperIds(session.papers)
    for paper, path in shown.calendars.items():
        if only is None or paper in only:
            yield path, functools.partial(_bytes, paper_ics, programme, paper, site), PaperIds((paper,))


def _bytes(write: Callable[..., bytes | None], *args: Any) -> bytes:
    return write(*args) or b""  # (a timed session, a paper with one: never None here)


def personal(programme: Programme, shown: ProgrammeView, site: Site) -> dict[str, list[list[str]]]:
    """Each paper's sessions as the reading list's "My programme" needs them (publish/reading_list.py puts them
    in the paper's record): [session, start, end, zone, room, UID, key] of each timed session, the times as
    the pages write them (an instant with its offset), the UID the paper's own .ics gives the event."""
    made: dict[str, list[list[str]]] = {}
    by_key = {session.key: session for session in programme.sessions}
    for paper, keys in shown.by_paper.items():
        for key in keys:
            session, seen = by_key[key], shown.sessions[key]
            if not seen.timed:
                continue
            made.setdefault(paper, []).append([seen.title, seen.start, seen.end, seen.zone, seen.room,
                                               paper_uid(site, paper, session), key])
    return made


@dataclass(frozen=True)
class Programmed:
    """The build's programme and its view (None: no session has a time, so no page shows it)."""

    programme: Programme
    shown: ProgrammeView | None
