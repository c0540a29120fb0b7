"""The programme's calendar files (issue 41, part 3): programme.ics, one session's and one paper's .ics, each
read back with icalendar: the calendar's own DTSTART with its TZID and a VTIMEZONE that is right on its own (read
under another name, so that only its rules place the times), across a daylight-saving change too; UTC for a
time with only an offset; stable UIDs; the same bytes for the same input."""

from __future__ import annotations

import csv
import datetime as dt
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest

from generator.programme.join import PaperTimes, join
from generator.programme.model import Session, Span, make_programme
from generator.programme.readers import read_calendar
from generator.publish.ical import (PaperLink, Site, paper_ics, paper_uid, personal_parts, programme_ics, session_ics,
                                   session_uid)

HERE = Path(__file__).parent / "fixtures"
FIXTURES = HERE / "programme"
NEW_YORK = ZoneInfo("America/New_York")
UTC = dt.timezone.utc
BASE = "https://proceedings.example/colt-2020"


def colt():
    with (HERE / "venues" / "colt-2020-papers.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    papers = [PaperTimes(row["UID"], tuple(row["session"].split("|"))) for row in rows]
    programme, _ = join(read_calendar(FIXTURES / "colt-2020.ics"), papers)
    links = {row["UID"]: PaperLink(row["title"], f"{BASE}/papers/{row['UID']}.html") for row in rows}
    return programme, Site("colt-2020", "COLT 2020", f"{BASE}/programme.html", links)


def events(data: bytes) -> list[icalendar.Event]:
    return icalendar.Calendar.from_ical(data).walk("VEVENT")


def under_another_name(data: bytes, zone: str) -> bytes:
    """The file with its zone renamed, so that a reader cannot look the name up and must use the VTIMEZONE (a new
    name each time: icalendar keeps the zones it has built by their TZID)."""
    under_another_name.calls = getattr(under_another_name, "calls", 0) + 1
    return data.replace(zone.encode(), f"Venue Time {under_another_name.calls}".encode())


def instants(data: bytes) -> list[tuple[dt.datetime, dt.datetime]]:
    return [(e["DTSTART"].dt.astimezone(UTC), e["DTEND"].dt.astimezone(UTC)) for e in events(data)]


def test_programme_ics_holds_every_timed_session_with_its_zone():
    programme, site = colt()
    data = programme_ics(programme, site)
    back = events(data)
    assert len(back) == len(programme.timed) == 9
    calendar = icalendar.Calendar.from_ical(data)
    assert [str(c["TZID"]) for c in calendar.walk("VTIMEZONE")] == ["America/New_York"]
    assert str(calendar["X-WR-TIMEZONE"]) == "America/New_York" and str(calendar["X-WR-CALNAME"]) == "COLT 2020"
    session = next(e for e in back if str(e["SUMMARY"]) == "Session 2B")
    assert session["DTSTART"].params["TZID"] == "America/New_York"
    assert session["DTSTART"].dt == dt.datetime(2020, 7, 10, 13, 0, tzinfo=NEW_YORK)
    assert str(session["URL"]) == f"{BASE}/programme.html#session-2b"
    assert str(session["UID"]) == "session-session-2b.colt-2020@proceedings"
    assert len({str(e["UID"]) for e in back}) == len(back)
    assert all(e["DTSTAMP"].dt == dt.datetime(2020, 7, 6, 16, 24, 13, tzinfo=UTC) for e in back)  # the source's
    # a session lists its papers with their pages
    first = next(e for e in back if str(e["SUMMARY"]) == "Session 1A")
    assert f"{BASE}/papers/54.html" in str(first["DESCRIPTION"])
    # its own VTIMEZONE places every time where zoneinfo does
    assert instants(under_another_name(data, "America/New_York")) == instants(data)


def test_the_file_is_rfc_5545_text():
    programme, site = colt()
    data = programme_ics(programme, site)
    lines = data.split(b"\r\n")
    assert lines[0] == b"BEGIN:VCALENDAR" and lines[-2] == b"END:VCALENDAR" and lines[-1] == b""
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert all(len(line) <= 75 for line in lines)
    for event in events(data):
        assert {"UID", "DTSTAMP", "DTSTART"} <= set(event)
    assert b"PRODID:-//Proceedings//Programme//EN" in data and b"VERSION:2.0" in data


def test_a_papers_calendar_has_each_of_its_sessions_at_the_calendars_time():
    programme, site = colt()
    data = paper_ics(programme, "54", site)
    back = events(data)
    source = {str(e["SUMMARY"]): e["DTSTART"].dt for e in events((FIXTURES / "colt-2020.ics").read_bytes())}
    assert [str(e["SUMMARY"]) for e in back] == [
        "Asymptotic Errors for Convex Penalized Linear Regression beyond Gaussian Matrices (Session 1A)",
        "Asymptotic Errors for Convex Penalized Linear Regression beyond Gaussian Matrices (Session 1E)"]
    for event, name in zip(back, ("Session 1A", "Session 1E")):
        assert event["DTSTART"].dt == source[name] and event["DTSTART"].params["TZID"] == "America/New_York"
        assert str(event["URL"]) == f"{BASE}/papers/54.html"
    assert [str(e["UID"]) for e in back] == ["paper-54-session-1a.colt-2020@proceedings",
                                            "paper-54-session-1e.colt-2020@proceedings"]
    assert paper_ics(programme, "100", site) is not None  # Session 1B is in the calendar; 1F is not: one event
    assert len(events(paper_ics(programme, "100", site))) == 1
    assert paper_ics(programme, "no-such-paper", site) is None


def test_a_sessions_calendar_and_an_untimed_session():
    programme, site = colt()
    session = programme.by_key("session-1a")
    back = events(session_ics(programme, session, site))
    assert [str(e["UID"]) for e in back] == [session_uid(site, session)]
    untimed = next(s for s in programme.sessions if s.span is None)
    assert session_ics(programme, untimed, site) is None


def test_same_input_same_bytes():
    first, site = colt()
    second, _ = colt()
    assert programme_ics(first, site) == programme_ics(second, site)
    assert paper_ics(first, "54", site) == paper_ics(second, "54", site)


def test_uids_survive_a_rescheduled_session_and_a_new_event():
    programme, site = colt()
    before = {str(e["SUMMARY"]): str(e["UID"]) for e in events(programme_ics(programme, site))}
    moved = [s if s.title != "Session 2B" else Session(s.title, Span(s.span.start + dt.timedelta(hours=1),
                                                                      s.span.end + dt.timedelta(hours=1)),
                                                       papers=s.papers) for s in programme.sessions]
    moved.append(Session("Business Meeting", Span(dt.datetime(2020, 7, 11, 17, tzinfo=NEW_YORK))))
    after_programme = make_programme(moved, programme.zone, stamp=programme.stamp)
    after = {str(e["SUMMARY"]): str(e["UID"]) for e in events(programme_ics(after_programme, site))}
    assert {title: uid for title, uid in after.items() if title in before} == before
    session = after_programme.by_key("session-2b")
    assert paper_uid(site, "140", session) == "paper-140-session-2b.colt-2020@proceedings"


@pytest.mark.parametrize("zone, days, hours_utc", [
    # New York falls back on 3 November 2024; 09:00 is 13:00 UTC before, 14:00 after
    ("America/New_York", (1, 2, 4), (13, 13, 14)),
    # Berlin springs forward on 31 March 2024: 09:00 is 08:00 UTC before, 07:00 after
    ("Europe/Berlin", (29, 30, 31), (8, 8, 7)),
    # Sydney leaves daylight time on 7 April 2024: 09:00 is 22:00 UTC the day before, then 23:00
    ("Australia/Sydney", (5, 6, 8), (22, 22, 23)),
])
def test_a_conference_across_a_daylight_saving_change(zone, days, hours_utc):
    tz = ZoneInfo(zone)
    month = 11 if zone == "America/New_York" else 3 if zone == "Europe/Berlin" else 4
    sessions = [Session(f"Day {n}", Span(dt.datetime(2024, month, day, 9, tzinfo=tz),
                                         dt.datetime(2024, month, day, 10, 30, tzinfo=tz)), papers=(str(n),))
                for n, day in enumerate(days, 1)]
    programme = make_programme(sessions, zone)
    data = programme_ics(programme, Site("dst-2024"))
    for data_read in (data, under_another_name(data, zone)):  # by name, and by the file's VTIMEZONE alone
        assert [start.hour for start, _ in instants(data_read)] == list(hours_utc)
        assert all(end - start == dt.timedelta(minutes=90) for start, end in instants(data_read))
    assert all(e["DTSTART"].dt.hour == 9 for e in events(data))  # the venue's wall clock
    onsets = re.findall(rb"BEGIN:(DAYLIGHT|STANDARD)\r\nDTSTART:(\d{8}T\d{6})", data)
    assert len(onsets) == 3  # the year's start, and its two changes


def test_a_session_across_the_change_itself_lasts_its_real_time():
    calendar = read_calendar(FIXTURES / "programme.csv")
    programme = make_programme(calendar.sessions, "America/New_York")
    session = programme.by_key("hackathon-night")
    data = session_ics(programme, session, Site("dst-2024"))
    for data_read in (data, under_another_name(data, "America/New_York")):
        (start, end), = instants(data_read)
        assert (start, end - start) == (dt.datetime(2024, 11, 3, 2, tzinfo=UTC), dt.timedelta(hours=6))
    assert b"DTSTART:20241103T020000\r\nTZNAME:EST\r\nTZOFFSETFROM:-0400" in data  # onset in the clock before


def test_offsets_alone_are_written_in_utc_and_floating_stays_floating():
    calendar = read_calendar(FIXTURES / "icwsm-2021-calendar.json")  # +01:00, no zone named
    programme = make_programme(calendar.sessions)
    data = programme_ics(programme, Site("icwsm-2021"))
    assert b"DTSTART:20210608T153000Z" in data and b"VTIMEZONE" not in data
    quirks = make_programme(read_calendar(FIXTURES / "quirks.ics").sessions)
    data = programme_ics(quirks, Site("quirks"))
    by_title = {str(e["SUMMARY"]): e for e in events(data)}
    assert by_title["Coffee"]["DTSTART"].dt == dt.datetime(2024, 3, 29, 10, 30)  # floating
    assert by_title["Registration desk open"]["DTSTART"].dt == dt.date(2024, 3, 29)
    assert by_title["Registration desk open"]["DTEND"].dt == dt.date(2024, 3, 31)
    # the file's own "Conference Time" zone: written as UTC, the same instant
    opening = by_title["Opening, welcome and awards"]["DTSTART"].dt
    assert opening == dt.datetime(2024, 3, 29, 8, tzinfo=UTC) and opening.tzinfo in (UTC, ZoneInfo("UTC"))


def test_text_is_escaped_and_read_back_as_written():
    title = 'Opening; welcome, "awards"\n<script>alert(1)</script>'
    session = Session(title, Span(dt.datetime(2024, 5, 1, 9, tzinfo=UTC)), room="Hall A, level 2", chair="Q; R")
    programme = make_programme([session])
    data = programme_ics(programme, Site("v"))
    event, = events(data)
    assert str(event["SUMMARY"]) == title and str(event["LOCATION"]) == "Hall A, level 2"
    assert "Chair: Q; R" in str(event["DESCRIPTION"])
    assert b"\\;" in data and b"\\," in data and b"\\n" in data


def test_the_stamp_is_the_callers_else_the_first_start():
    programme = make_programme(read_calendar(FIXTURES / "ismir-2024-calendar.json").sessions)
    stamps = {e["DTSTAMP"].dt for e in events(programme_ics(programme, Site("ismir-2024")))}
    assert stamps == {dt.datetime(2024, 11, 11, 16, 0, tzinfo=UTC)}  # Registration, 08:00-08:00
    given = dt.datetime(2024, 10, 1, 12, tzinfo=UTC)
    stamps = {e["DTSTAMP"].dt for e in events(programme_ics(programme, Site("ismir-2024", stamp=given)))}
    assert stamps == {given}


def test_relative_links_are_not_written_as_urls():
    programme = make_programme(read_calendar(FIXTURES / "ismir-2024-calendar.json").sessions)
    assert b"URL" not in programme_ics(programme, Site("ismir-2024"))  # "/papers.html?session=1" is no URI


def test_a_readers_own_schedule_is_the_head_some_papers_events_and_the_tail():
    programme, site = colt()
    head, parts, tail = personal_parts(programme, site, "My programme")
    assert set(parts) == {"54", "79", "100", "227", "64", "140"}
    mine = head + parts["54"] + parts["100"] + tail
    back = events(mine)
    assert [str(e["UID"]) for e in back] == [str(e["UID"]) for e in events(paper_ics(programme, "54", site))] + [
        str(e["UID"]) for e in events(paper_ics(programme, "100", site))]
    assert [e["DTSTART"].dt for e in back] == [e["DTSTART"].dt for e in events(paper_ics(programme, "54", site))
                                              + events(paper_ics(programme, "100", site))]
    assert b"BEGIN:VTIMEZONE" in head and b"BEGIN:VEVENT" not in head
    assert str(icalendar.Calendar.from_ical(mine)["X-WR-CALNAME"]) == "My programme"
    assert instants(under_another_name(mine, "America/New_York")) == instants(mine)


def test_a_session_with_a_start_only_and_one_in_utc():
    sessions = [Session("Lightning talks", Span(dt.datetime(2024, 5, 1, 9, tzinfo=ZoneInfo("Asia/Tokyo")))),
                Session("Hybrid panel", Span(dt.datetime(2024, 5, 1, 3, tzinfo=ZoneInfo("UTC")),
                                             dt.datetime(2024, 5, 1, 4, tzinfo=ZoneInfo("UTC"))))]
    data = programme_ics(make_programme(sessions, "Asia/Tokyo"), Site("v"))
    lightning, panel = events(data)
    assert "DTEND" not in lightning and lightning["DTSTART"].params["TZID"] == "Asia/Tokyo"
    assert b"DTSTART:20240501T030000Z" in data and panel["DTEND"].dt == dt.datetime(2024, 5, 1, 4, tzinfo=UTC)
    assert data.count(b"BEGIN:VTIMEZONE") == 1 and b"TZID:Asia/Tokyo" in data
