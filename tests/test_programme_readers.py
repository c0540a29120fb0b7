"""The programme's calendar readers (issue 41, part 1): a venue's .ics (COLT 2020's Apple export; an Outlook
export with its own zone, a Windows zone name, UTC, floating and all-day events), Mini-Conf's main_calendar.json
(ISMIR 2024, ICWSM 2021) and a hand-written programme.csv. Bad events are reported with file and line, and never
sink the others."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.errors import ContentError
from generator.programme.readers import find_calendars, read_calendar
from generator.programme.times import slot, zone_named

FIXTURES = Path(__file__).parent / "fixtures" / "programme"
NEW_YORK = ZoneInfo("America/New_York")


def read(name: str, zone: str = ""):
    return read_calendar(FIXTURES / name, zone=zone)


def by_title(calendar):
    return {session.title: session for session in calendar.sessions}


def messages(calendar) -> list[str]:
    return [str(problem) for problem in calendar.problems]


def test_colt_ics_keeps_its_zone_and_every_event():
    calendar = read("colt-2020.ics")
    assert len(calendar.sessions) == 9 and not calendar.problems
    assert calendar.zone == "America/New_York"  # X-WR-TIMEZONE
    session = by_title(calendar)["Session 2B"]
    assert session.span.start == dt.datetime(2020, 7, 10, 13, 0, tzinfo=NEW_YORK)
    assert session.span.zone == "America/New_York"
    assert session.span.end - session.span.start == dt.timedelta(hours=2, minutes=30)
    assert session.line == 26 and session.source == "colt-2020.ics"  # its BEGIN:VEVENT
    assert session.uid == "C249B229-A383-47FC-8015-BCF674F05F59"
    # LOCATION holding the workshop's page is its link, not a room
    lunch = by_title(calendar)["WiML-T Lunch"]
    assert lunch.room == "" and lunch.link == "https://wimlworkshop.org/sh_events/wiml-colt/"
    assert calendar.stamp == dt.datetime(2020, 7, 6, 16, 24, 13, tzinfo=dt.timezone.utc)  # its latest change


def test_quirky_ics_reads_each_kind_of_time_and_reports_the_bad_events():
    calendar = read("quirks.ics")
    events = by_title(calendar)
    assert set(events) == {"Opening, welcome and awards", "Session 1: Parsing and Semantics", "session 2", "Coffee",
                           "Registration desk open"}
    # A zone the file defines itself (Outlook's "Conference Time": CET/CEST) is honoured: 09:00 on 29 March 2024
    # is before Europe's change (31 March), so +01:00.
    opening = events["Opening, welcome and awards"].span.start
    assert opening.utcoffset() == dt.timedelta(hours=1)
    # A Windows zone name is the IANA zone; DURATION makes the end.
    parsing = events["Session 1: Parsing and Semantics"].span
    assert parsing.zone == "America/New_York" and parsing.end - parsing.start == dt.timedelta(minutes=90)
    assert events["session 2"].span.zone == "UTC" and events["session 2"].category == "Posters,Hybrid"
    assert events["Coffee"].span.floating
    registration = events["Registration desk open"].span
    assert registration.all_day and (registration.end - registration.start).days == 2
    assert messages(calendar) == [
        "quirks.ics:27: warning: the event 'Session 3': its DTSTART cannot be read (Expected datetime, date, or "
        "time. Got: '2024-13-01'); skipped",
        "quirks.ics:33: warning: the event 'Session 4': it has no DTSTART; skipped",
        "quirks.ics:38: warning: an event with no SUMMARY (nothing to call it); skipped",
        "quirks.ics:60: warning: the event 'Coffee' repeats (RRULE/RDATE); only its first time is in the programme: "
        "give each time an event of its own",
        "quirks.ics:75: info: the event 'Panel' is cancelled (STATUS:CANCELLED); left out",
    ]


def test_a_venue_zone_puts_utc_times_on_the_venue_clock():
    calendar = read("quirks.ics", zone="Europe/Rome")
    session = by_title(calendar)["session 2"]
    assert session.span.start == dt.datetime(2024, 3, 30, 14, 0, tzinfo=ZoneInfo("Europe/Rome"))
    assert session.span.zone == "Europe/Rome"
    # a time in a named zone stays in it
    assert by_title(calendar)["Session 1: Parsing and Semantics"].span.zone == "America/New_York"


def test_a_file_that_is_not_a_calendar_is_one_clear_error(tmp_path):
    path = tmp_path / "notes.ics"
    path.write_text("Sessions: see the website\n")
    with pytest.raises(ContentError, match=r"notes.ics:1: this is not an iCalendar file"):
        read_calendar(path)


def test_miniconf_json_from_ismir_with_offsets_and_replays():
    calendar = read("ismir-2024-calendar.json", zone="America/Los_Angeles")
    assert len(calendar.sessions) == 10 and not calendar.problems
    posters = [s for s in calendar.sessions if s.title == "Posters I"]
    assert [s.category for s in posters] == ["online", "replay"]
    assert posters[0].span.start == dt.datetime(2024, 11, 11, 10, 15, tzinfo=ZoneInfo("America/Los_Angeles"))
    assert posters[0].span.zone == "America/Los_Angeles"
    assert posters[0].room == "" and posters[0].link == "/papers.html?session=1"
    assert posters[0].line == 5


def test_miniconf_json_without_a_zone_keeps_the_offset():
    calendar = read("icwsm-2021-calendar.json")
    p1 = by_title(calendar)["P1"]
    assert p1.span.start.utcoffset() == dt.timedelta(hours=1) and p1.span.zone == ""
    assert p1.span.start.astimezone(dt.timezone.utc).hour == 15
    assert by_title(calendar)["Steering committee meeting"].link == ""  # "location": null


def test_bad_miniconf_events_are_reported_and_the_good_kept():
    calendar = read("bad-calendar.json")
    assert [s.title for s in calendar.sessions] == ["Session 1", "Session 3"]
    assert by_title(calendar)["Session 1"].room == "Room 101"
    assert by_title(calendar)["Session 3"].span.end is None
    assert messages(calendar) == [
        "bad-calendar.json:3: warning: the event 'Session 2': its start 'tomorrow morning' is not a date and time; "
        "skipped",
        "bad-calendar.json:4: warning: an event is str, not an object; skipped",
        "bad-calendar.json:5: warning: an event: no title; skipped",
        "bad-calendar.json:6: warning: the event 'Session 3': its end '2024-03-29T14:00:00+01:00' cannot be read, "
        "or is before its start; shown with its start only",
    ]


@pytest.mark.parametrize("text, expected", [
    ('{"title": "x"}', "a Mini-Conf calendar is a JSON list"),
    ('[\n{"title": "x", "start": "2024-01-01T10:00:00Z"},\n{"title": }\n]', "not valid JSON"),
])
def test_broken_json_is_one_clear_error(tmp_path, text, expected):
    path = tmp_path / "main_calendar.json"
    path.write_text(text)
    with pytest.raises(ContentError, match=expected) as caught:
        read_calendar(path)
    assert caught.value.path == "main_calendar.json" and caught.value.line


def test_programme_csv_rows_with_zones_chairs_and_papers():
    calendar = read("programme.csv")
    events = by_title(calendar)
    session = events["Session 1A: Learning Theory"]
    assert session.span.start == dt.datetime(2024, 11, 1, 10, 30, tzinfo=NEW_YORK)
    assert (session.room, session.chair, session.papers, session.line) == ("Room 101", "Alan Turing", ("54", "79"), 3)
    assert events["Session 2B"].chair == "Hopper, Grace"
    # 22:00 to 03:00 ends the next day, across the night New York's clocks go back: six hours, not five
    night = events["Hackathon night"].span
    assert night.end == dt.datetime(2024, 11, 3, 3, 0, tzinfo=NEW_YORK)
    assert night.end.astimezone(dt.timezone.utc) - night.start.astimezone(dt.timezone.utc) == dt.timedelta(hours=6)
    assert events["Poster session"].span.start == dt.datetime(2024, 11, 3, 14, 0, tzinfo=NEW_YORK)
    assert events["Remote session"].span.start.utcoffset() == dt.timedelta(hours=1)
    assert messages(calendar) == [
        "programme.csv:8: warning: 'Social': its start 'after dinner' is not a date and time (2020-07-10 13:00, or "
        "13:00 beside a date column); skipped",
        "programme.csv:9: warning: 'Business meeting': the time zone 'Mars/Olympus_Mons' is not a zone name "
        "(America/New_York), an offset (UTC+2) or an unambiguous abbreviation; skipped",
    ]


def test_programme_csv_takes_the_venue_zone_and_needs_its_columns(tmp_path):
    path = tmp_path / "programme.csv"
    path.write_text("Title,Start,End,Room\nKeynote,2024-07-01 9:30 AM,2024-07-01 10:30 AM,Aula\n")
    session = read_calendar(path, zone="Europe/Vienna").sessions[0]
    assert session.span.start == dt.datetime(2024, 7, 1, 9, 30, tzinfo=ZoneInfo("Europe/Vienna"))
    path.write_text("Title,Room\nKeynote,Aula\n")
    with pytest.raises(ContentError, match=r"programme.csv:1: the programme table needs a start column"):
        read_calendar(path)


def test_an_unknown_venue_zone_is_an_error(tmp_path):
    with pytest.raises(ContentError, match="Europe/Atlantis"):
        read_calendar(FIXTURES / "colt-2020.ics", zone="Europe/Atlantis")


def test_find_calendars_prefers_the_editors_table_then_ics_then_miniconf(tmp_path):
    assert find_calendars(tmp_path) == []
    (tmp_path / "sitedata").mkdir()
    (tmp_path / "sitedata" / "main_calendar.json").write_text("[]")
    assert find_calendars(tmp_path) == [tmp_path / "sitedata" / "main_calendar.json"]
    (tmp_path / "colt.ics").write_text("BEGIN:VCALENDAR\nEND:VCALENDAR\n")
    assert find_calendars(tmp_path) == [tmp_path / "colt.ics"]
    (tmp_path / "programme.csv").write_text("session,start\n")
    assert find_calendars(tmp_path) == [tmp_path / "programme.csv"]


@pytest.mark.parametrize("text, expected", [
    ("(16:45-17:45 GMT)", (dt.time(16, 45), dt.time(17, 45), "GMT")),
    ("10:00-11:30 EDT", (dt.time(10), dt.time(11, 30), "EDT")),
    ("2:30 pm – 3 p.m. PDT", (dt.time(14, 30), dt.time(15), "PDT")),
    ("10:00 – 11:30 America/New_York", (dt.time(10), dt.time(11, 30), "America/New_York")),
    ("14h00", (dt.time(14), None, "")),
    ("after lunch", None),
    ("25:00", None),
])
def test_slots_as_rows_write_them(text, expected):
    assert slot(text) == expected


@pytest.mark.parametrize("text, offset", [
    ("GMT", 0), ("UTC+2", 120), ("GMT-05:30", -330), ("EDT", -240), ("+09:00", 540), ("Asia/Tokyo", 540),
])
def test_zone_names(text, offset):
    zone = zone_named(text)
    assert zone.utcoffset(dt.datetime(2024, 7, 1)) == dt.timedelta(minutes=offset)


@pytest.mark.parametrize("text", ["CST", "IST", "Mars/Base", "noon", ""])
def test_ambiguous_or_unknown_zones_are_not_guessed(text):
    assert zone_named(text) is None


_MUTATIONS = st.lists(st.tuples(st.floats(0, 1), st.sampled_from(list(':;=\n,"\\ TZIDSTART0123456789-+Z\x00é[]{}'))),
                      min_size=1, max_size=20)


@pytest.mark.parametrize("name, sources", [
    pytest.param("x.ics", ("quirks.ics", "colt-2020.ics"), marks=pytest.mark.slow),  # the icalendar reader: 8 s
    ("main_calendar.json", ("ismir-2024-calendar.json",)),
    ("programme.csv", ("programme.csv",)),
])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=_MUTATIONS, zone=st.sampled_from(["", "America/New_York"]))
def test_a_damaged_calendar_is_read_or_reported_never_a_traceback(tmp_path, name, sources, mutations, zone):
    """Characters inserted into real-shaped calendars (the fuzzing that found icalendar's broken DTSTAMP and an
    offset of UTC+61): each reader returns what it could read, or raises ContentError naming the file."""
    chars = list("".join((FIXTURES / source).read_text() for source in sources))
    for where, char in mutations:
        chars.insert(int(where * len(chars)), char)
    path = tmp_path / name
    path.write_text("".join(chars))
    try:
        calendar = read_calendar(path, zone=zone)
    except ContentError as error:
        assert error.path == name
        return
    assert all(problem.path == name and problem.line for problem in calendar.problems)


def test_an_event_that_breaks_the_whole_file_costs_only_itself(tmp_path):
    """A stray END inside one event makes icalendar refuse the file: each event is then read alone."""
    text = (FIXTURES / "colt-2020.ics").read_text()
    text = text.replace("SUMMARY:Session 1B\n", "SUMMARY:Session 1B\nEND:VALARM\n")
    path = tmp_path / "colt.ics"
    path.write_text(text)
    calendar = read_calendar(path)
    assert len(calendar.sessions) == 8 and "Session 1B" not in by_title(calendar)
    assert by_title(calendar)["Session 2B"].line == 26
    assert messages(calendar) == ["colt.ics:74: warning: this event cannot be read (END encountered without an "
                                  "accompanying BEGIN!); skipped"]
