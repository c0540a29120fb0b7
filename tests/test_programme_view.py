"""The programme as pages show it (generator/render/programme.py): times on the venue's clock as `<time datetime>`
values and words in the interface's language, floating and all-day times as they are, a session past midnight
with its end's date, untimed sessions under their day; no view without a timed session."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from babel import Locale

from generator.programme.model import Session, Span, make_programme
from generator.render.programme import view

EN = Locale.parse("en")
NEW_YORK = ZoneInfo("America/New_York")


def test_an_instant_is_shown_on_the_venues_clock_with_its_offset():
    utc = dt.timezone.utc
    programme = make_programme([Session("Session 2B", Span(dt.datetime(2020, 7, 10, 17, tzinfo=utc),
                                                           dt.datetime(2020, 7, 10, 18, tzinfo=utc)), room="Zoom",
                                        papers=("1",), names=("Session 2B",))], "America/New_York")
    shown = view(programme, [], EN)
    assert shown is not None and shown.zone_name == "EDT"
    session = shown.sessions["session-2b"]
    assert (session.start, session.end) == ("2020-07-10T13:00:00-04:00", "2020-07-10T14:00:00-04:00")
    assert (session.date, session.start_clock, session.end_clock, session.zone_name, session.zone) == (
        "Fri, Jul 10, 2020", "13:00", "14:00", "EDT", "America/New_York")
    assert session.instant and session.calendar == "calendar/sessions/session-2b.ics"
    assert shown.by_name == {"Session 2B": "session-2b"} and shown.days[0].anchor == "day-2020-07-10"


def test_past_midnight_the_end_gives_its_date():
    programme = make_programme([Session("Social", Span(dt.datetime(2020, 7, 10, 22, tzinfo=NEW_YORK),
                                                       dt.datetime(2020, 7, 11, 1, tzinfo=NEW_YORK)))])
    session = view(programme, [], EN).sessions["social"]
    assert session.end_clock == "Sat, Jul 11, 2020, 01:00"


def test_floating_and_all_day_times_are_no_instants():
    programme = make_programme([
        Session("Lunch", Span(dt.datetime(2024, 5, 2, 12), dt.datetime(2024, 5, 2, 13))),
        Session("Workshops", Span(dt.datetime(2024, 5, 3), dt.datetime(2024, 5, 5), all_day=True)),
    ])
    shown = view(programme, [], EN)
    lunch, workshops = shown.sessions["lunch"], shown.sessions["workshops"]
    assert (lunch.start, lunch.instant, lunch.zone_name) == ("2024-05-02T12:00:00", False, "")
    assert (workshops.start, workshops.end, workshops.instant) == ("2024-05-03", "2024-05-04", False)
    assert workshops.end_clock == "Sat, May 4, 2024"


def test_untimed_sessions_keep_their_day_and_no_view_without_a_time():
    untimed = Session("Posters 1", day="1", papers=("7",), names=("1",))
    assert view(make_programme([untimed]), [], EN) is None
    assert view(None, [], EN) is None
    timed = Session("Keynote", Span(dt.datetime(2024, 11, 11, 9, tzinfo=NEW_YORK)))
    shown = view(make_programme([timed, untimed], "America/New_York"), [], EN)
    assert [(day.date, day.label) for day in shown.days] == [("Mon, November 11, 2024", ""), ("", "1")]
    assert not shown.sessions["posters-1"].timed and shown.sessions["posters-1"].calendar == ""


def test_words_in_the_interfaces_language():
    programme = make_programme([Session("基調講演", Span(dt.datetime(2024, 11, 11, 9, tzinfo=ZoneInfo("Asia/Tokyo")),
                                                      dt.datetime(2024, 11, 11, 10, tzinfo=ZoneInfo("Asia/Tokyo"))))],
                               "Asia/Tokyo")
    shown = view(programme, [], Locale.parse("ja"))
    (session,) = shown.sessions.values()
    assert (session.date, session.start_clock, session.zone_name) == ("2024年11月11日(月)", "9:00", "JST")
