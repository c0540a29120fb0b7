"""Papers put in their sessions: a calendar's events joined to the session names the papers give, by name
normalised ("Session 2B" is "session 2b", "Session 2A: Misinformation" is "Session 2A"), or through a ``sessions:``
map for names that differ (ISMIR 2024's papers say session ``5``, its calendar ``Posters V``). Without a calendar,
or for the names it does not have, the papers' own ``day``/``date``, ``time`` and ``room`` make the sessions
(ICWSM 2021: ``2021-06-08``, ``(16:45-17:45 GMT)``, ``Room A``).
"""

from __future__ import annotations

import unicodedata
from urllib.parse import parse_qs, urlsplit
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from generator import diagnostics as codes
from generator.derive.groups import natural_key
from generator.errors import Diagnostic
from generator.programme.model import Calendar, Programme, Session, Span, make_programme
from generator.programme.times import date_of, slot, span_on, zone_named


@dataclass(frozen=True)
class PaperTimes:
    """What a paper says of when and where it is presented: its sessions, and the programme fields as its row
    writes them (``model.paper.Details``: ``sessions``, ``day``, ``time``, ``room``)."""

    id: str
    sessions: tuple[str, ...] = ()
    day: str = ""
    time: str = ""
    room: str = ""
    position: str = ""  # its place in its session (ISMIR's `position`: 04), when it is in one

    @classmethod
    def of(cls, paper_id: str, details: object) -> PaperTimes:
        """From a paper's details (any object with those attributes)."""
        return cls(paper_id, tuple(getattr(details, "sessions", ()) or ()),
                   *(getattr(details, name, "") or "" for name in ("day", "time", "room", "position")))


def normalise(name: str) -> str:
    """A session name compared: case, width, accents, spacing and punctuation set aside."""
    text = unicodedata.normalize("NFKD", name.casefold())
    text = "".join(" " if unicodedata.category(c)[0] in "PSZ" else c for c in text if not unicodedata.combining(c))
    return " ".join(text.split())


def _head(name: str) -> str:
    """The id before a colon ("Session 2A: Misinformation" → "Session 2A"); "" when there is none."""
    head, colon, _ = name.partition(":")
    return normalise(head) if colon and head.strip() else ""


def session_map(entries: Mapping) -> dict[str, tuple[str, ...]]:
    """A ``sessions:`` map as YAML gives it (``5: Posters V``, or a list of event names), normalised: the papers'
    session name → the calendar's names for it."""
    mapped = {}
    for key, value in entries.items():
        names = value if isinstance(value, (list, tuple)) else [value]
        mapped[normalise(str(key))] = tuple(str(name) for name in names if str(name).strip())
    return mapped


def join(calendar: Calendar | None, papers: Sequence[PaperTimes], mapping: Mapping | None = None,
         zone: str = "") -> tuple[Programme, list[Diagnostic]]:
    """The programme: the calendar's events, each with the papers whose session names it (a name may be several
    events: a session and its replay), and sessions from the papers' rows for the names no event is; ``zone`` is
    the venue's zone for rows whose times name none."""
    mapped = session_map(mapping or {})
    events = list(calendar.sessions) if calendar else []
    index = _index(events)
    links = _link_index(events)
    by_link: dict[str, list[int]] = {}
    members: dict[int, list[str]] = {}
    names_of: dict[int, list[str]] = {}
    unmatched: dict[str, list[PaperTimes]] = {}
    problems: list[Diagnostic] = []
    used_keys: set[str] = set()
    for paper in papers:
        for name in dict.fromkeys(paper.sessions):
            found = _events_for(name, index, mapped, used_keys)
            if not found and normalise(name) in links:  # the venue's own links say which events it is
                found = links[normalise(name)]
                by_link.setdefault(name, found)
            for number in found:
                members.setdefault(number, []).append(paper.id)
                names_of.setdefault(number, [])
                if name not in names_of[number]:
                    names_of[number].append(name)
            if not found:
                unmatched.setdefault(name, []).append(paper)
    by_id = {paper.id: paper for paper in papers}
    joined = [replace(event, papers=_in_place((*event.papers, *members.get(number, ())), by_id),
                      names=tuple(names_of.get(number, ()))) for number, event in enumerate(events)]
    problems += _map_problems(mapped, used_keys, index)
    problems += [_joined_by_link(name, [events[n] for n in found]) for name, found in by_link.items()]
    problems += _unknown_papers(events, {paper.id for paper in papers})
    if calendar is not None and events:
        problems += [_unmatched(name, group, calendar_source(calendar)) for name, group in unmatched.items()]
    joined += from_rows(unmatched, zone or (calendar.zone if calendar else ""))
    placed = {paper for session in joined for paper in session.papers}
    unplaced = [paper.id for paper in papers if paper.id not in placed]
    return make_programme(joined, zone or (calendar.zone if calendar else ""), unplaced,
                          calendar.stamp if calendar else None), problems


def _link_index(events: Sequence[Session]) -> dict[str, list[int]]:
    """Normalised session name → the events whose link names it: Mini-Conf links an event to its papers' list
    (ISMIR 2024: "Posters I" → ``/papers.html?session=1``; ICWSM 2021: "Demos and Posters 1" →
    ``papers.html?filter=sessions&search=D1``; COLT 2020: ``papers.html?session=Session+4D``)."""
    index: dict[str, list[int]] = {}
    for number, event in enumerate(events):
        try:
            query = parse_qs(urlsplit(event.link).query) if "?" in event.link else {}
        except ValueError:  # a link that is no URL ("http://[x"): it names nothing
            continue
        names = query.get("session", []) + query.get("sessions", [])
        if any(value.strip().casefold() in ("session", "sessions") for value in query.get("filter", [])):
            names += query.get("search", [])
        for name in dict.fromkeys(normalise(value) for value in names if value.strip()):
            index.setdefault(name, []).append(number)
    return index


def _joined_by_link(name: str, events: Sequence[Session]) -> Diagnostic:
    titles = ", ".join(dict.fromkeys(event.title for event in events))
    return Diagnostic("info", f"the session {name!r} is joined, by the calendar's links to it, to {len(events)} "
                      f"event{'s' if len(events) != 1 else ''} ({titles}); a `sessions:` map names the ones it is",
                      events[0].source, events[0].line or None, codes.PROGRAMME_SESSION_LINKED)


def _unknown_papers(events: Sequence[Session], known: set[str]) -> list[Diagnostic]:
    """A programme table's ``papers`` that name no paper of the volume."""
    return [Diagnostic("warning", f"{event.title!r} lists the paper {paper!r}, which is no paper of the volume",
                       event.source, event.line or None, codes.PROGRAMME_PAPER_UNKNOWN)
            for event in events for paper in event.papers if paper not in known]


def _unmatched(name: str, papers: Sequence[PaperTimes], source: str) -> Diagnostic:
    count = f"{len(papers)} paper{'s' if len(papers) != 1 else ''}"
    message = f"no event of the calendar is the session {name!r} ({count})"
    if _timed(papers):
        message += "; its papers' own day and time place it"
    return Diagnostic("warning", message + "; a `sessions:` map can name its event", source or None, None,
                      codes.PROGRAMME_SESSION_UNMATCHED)


def calendar_source(calendar: Calendar) -> str:
    return next((session.source for session in calendar.sessions if session.source), "")


def _timed(papers: Sequence[PaperTimes]) -> bool:
    return any(paper.time or paper.day for paper in papers)


def _forms(name: str) -> list[str]:
    """The keys a name is known by, most exact first: itself normalised, the id before a colon, and both without
    spaces (SIGDIAL/INLG 2023's papers say `inlgoralsession1`, its calendar "INLG Oral Session 1: Trustworthiness
    of NLG systems")."""
    key, head = normalise(name), _head(name)
    return [form for form in dict.fromkeys((key, head, key.replace(" ", ""), head.replace(" ", ""))) if form]


def _index(events: Sequence[Session]) -> dict[str, list[int]]:
    """Each event's id, and each form of the events' titles → the events known by it; a form an event has at a
    more exact level (its whole title) is never taken by another's less exact one (its id)."""
    index: dict[str, list[int]] = {}
    for number, event in enumerate(events):  # the event's own id, when the papers name their sessions by it
        # (SIGDIAL/INLG 2023's calendar: "UID": "inlgoralsession1"); an iCalendar UID is an opaque id for clients
        if event.uid and not event.source.lower().endswith(".ics"):
            index.setdefault(normalise(event.uid), []).append(number)
    forms = [_forms(event.title) for event in events]
    for level in range(4):
        claimed = set(index)
        for number, names in enumerate(forms):
            if level < len(names) and names[level] not in claimed:
                index.setdefault(names[level], []).append(number)
    for numbers in index.values():
        numbers[:] = list(dict.fromkeys(numbers))
    return index


def _events_for(name: str, index: Mapping[str, list[int]], mapped: Mapping[str, tuple[str, ...]],
                used_keys: set[str]) -> list[int]:
    key = normalise(name)
    if key in mapped:
        used_keys.add(key)
        return [number for target in mapped[key] for number in index.get(normalise(target), ())]
    return next((list(index[form]) for form in _forms(name) if form in index), [])


def _map_problems(mapped: Mapping[str, tuple[str, ...]], used: set[str],
                  index: Mapping[str, list[int]]) -> list[Diagnostic]:
    problems = []
    for key, targets in mapped.items():
        if key not in used:
            problems.append(Diagnostic("warning", f"sessions: {key!r} is no paper's session", "proceedings.yaml",
                                       None, codes.PROGRAMME_MAP_UNMATCHED))
        for target in targets:
            if normalise(target) not in index:
                problems.append(Diagnostic("warning", f"sessions: {key!r} names {target!r}, which is no event of the "
                                           "calendar", "proceedings.yaml", None, codes.PROGRAMME_MAP_UNMATCHED))
    return problems


def from_rows(sessions: Mapping[str, Sequence[PaperTimes]], zone: str = "") -> list[Session]:
    """A session for each name, from what its papers' rows say: the day, time and room most of the papers that
    are in it alone give (a paper in two sessions has one day and time in its row, which cannot tell whose it is).
    A date and a time that can be read make its span (in the time's own zone, ICWSM's "GMT", else ``zone``);
    otherwise the day and time are kept as written."""
    made = []
    for name, papers in sessions.items():
        alone = [paper for paper in papers if len(set(paper.sessions)) <= 1]
        day, time, room = (_most(getattr(paper, field) for paper in alone) for field in ("day", "time", "room"))
        made.append(Session(name, _span(day, time, zone), room=room,
                            papers=_in_place([p.id for p in papers], {p.id: p for p in papers}),
                            names=(name,), day=day, time=time))
    return made


def _in_place(ids: Sequence[str], papers: Mapping[str, PaperTimes]) -> tuple[str, ...]:
    """A session's papers in the order their positions give (2 before 10), those with none after them in the
    volume's order. A paper in several sessions has one position in its row, which cannot say whose it is."""
    def place(item: tuple[int, str]) -> tuple:
        number, paper_id = item
        paper = papers.get(paper_id)
        if paper is not None and paper.position.strip() and len(set(paper.sessions)) <= 1:
            return (0, natural_key(paper.position), number)
        return (1, (), number)

    unique_ids = list(dict.fromkeys(ids))
    return tuple(paper_id for _, paper_id in sorted(enumerate(unique_ids), key=place))


def papers_by_session(papers: Iterable[PaperTimes]) -> dict[str, list[PaperTimes]]:
    """Session name → its papers, in order: the programme without a calendar is ``from_rows`` of this."""
    grouped: dict[str, list[PaperTimes]] = {}
    for paper in papers:
        for name in dict.fromkeys(paper.sessions):
            grouped.setdefault(name, []).append(paper)
    return grouped


def _most(values: Iterable[str]) -> str:
    counts = Counter(value.strip() for value in values if value and value.strip())
    return min(counts, key=lambda value: (-counts[value], value)) if counts else ""


def _span(day: str, time: str, zone: str) -> Span | None:
    date = date_of(day) if day else None
    parsed = slot(time) if time else None
    if date is None or parsed is None:
        return None
    start, end, zone_text = parsed
    tz = zone_named(zone_text) if zone_text else (zone_named(zone) if zone else None)
    if zone_text and tz is None:
        return None  # a zone that cannot be read: the time is kept as written, never shown in a wrong zone
    first, last = span_on(date, start, end, tz)
    venue = zone_named(zone) if zone else None
    if venue is not None and first.tzinfo is not None:  # ICWSM's GMT slots on the venue's clock, same instants
        first, last = first.astimezone(venue), last.astimezone(venue) if last else None
    return Span(first, last)
