"""Papers put in their sessions (issue 41, part 1): a calendar's events joined to the papers' session names by
normalised name or a `sessions:` map, and without a calendar a programme made from the rows' own day, time and
room. The papers are the venue fixtures' rows, read as the build reads them."""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import replace
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from generator.programme.join import PaperTimes, join, normalise, papers_by_session, session_map
from generator.programme.model import Calendar, Session, Span, make_programme
from generator.programme.readers import read_calendar

HERE = Path(__file__).parent / "fixtures"
FIXTURES = HERE / "programme"
VENUES = HERE / "venues"
NEW_YORK = ZoneInfo("America/New_York")


def paper_times(path: Path, id_column: str = "UID", date_column: str = "date") -> list[PaperTimes]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [PaperTimes(row[id_column], tuple(s.strip() for s in row["session"].split("|") if s.strip()),
                           row.get(date_column) or "", row.get("time") or "", row.get("room") or "")
                for row in csv.DictReader(handle)]


@pytest.mark.parametrize("a, b", [
    ("Session 2B", "session 2b"), ("Session  2B ", "SESSION 2B"), ("Posters–I", "posters i"),
    ("Café Session", "cafe session"), ("Ｓｅｓｓｉｏｎ ２Ｂ", "session 2b"), ("Session 2.B", "session 2 b"),
])
def test_names_compare_without_case_spacing_or_punctuation(a, b):
    assert normalise(a) == normalise(b)


def test_session_2a_is_not_session_2b():
    assert normalise("Session 2A") != normalise("Session 2B")


def test_colt_papers_join_both_their_sessions_and_report_the_names_the_calendar_lacks():
    calendar = read_calendar(FIXTURES / "colt-2020.ics")
    papers = paper_times(VENUES / "colt-2020-papers.csv")
    programme, problems = join(calendar, papers)
    first = programme.of_paper("54")
    assert [s.title for s in first] == ["Session 1A", "Session 1E"]
    assert first[0].span.start == dt.datetime(2020, 7, 9, 8, 30, tzinfo=NEW_YORK)
    assert first[0].papers == ("54", "79") and first[0].names == ("Session 1A",)
    # The fixture's papers name Session 1F and 2F, which COLT's calendar does not have: each said once.
    assert [str(p) for p in problems] == [
        f"colt-2020.ics: warning: no event of the calendar is the session {name!r} ({count} paper); a `sessions:` "
        "map can name its event" for name, count in (("Session 1F", 1), ("Session 2F", 1))]
    # ... and made from the rows (which give no time): untimed, after the timed sessions
    untimed = [s for s in programme.sessions if s.span is None]
    assert [(s.title, s.papers) for s in untimed] == [("Session 1F", ("100",)), ("Session 2F", ("140",))]
    assert not programme.unplaced
    # Events without papers stay in the programme, in their place
    keynote = next(s for s in programme.sessions if s.title.startswith("Keynote 1"))
    assert not keynote.has_papers
    titles = [s.title for s in programme.days[1].sessions]
    assert titles[:4] == ["Session 1A", "Keynote 1: Salil Vadhan (+ Opening Remarks)", "Coffee Break 1A",
                          "Session 1B"]
    assert [day.date for day in programme.days[:4]] == [dt.date(2020, 7, d) for d in (8, 9, 10, 11)]


def test_a_sessions_map_joins_ismirs_numbers_to_its_poster_sessions():
    calendar = read_calendar(FIXTURES / "ismir-2024-calendar.json", zone="America/Los_Angeles")
    papers = paper_times(VENUES / "ismir-2024-programme.csv", date_column="day")
    programme, problems = join(calendar, papers, {1: "Posters I", 2: "Posters II", "3": ["Posters III"]})
    assert not problems and not programme.unplaced
    sessions = programme.of_paper("12")  # session 1: the live poster session and its replay
    assert [(s.title, s.category, s.key) for s in sessions] == [("Posters I", "online", "posters-i"),
                                                                ("Posters I", "replay", "posters-i-2")]
    assert sessions[0].papers == ("12", "45") and sessions[0].names == ("1",)
    assert programme.of_paper("88")[0].title == "Posters III"


def test_map_entries_that_name_nothing_are_reported():
    calendar = read_calendar(FIXTURES / "ismir-2024-calendar.json")
    papers = paper_times(VENUES / "ismir-2024-programme.csv", date_column="day")
    _, problems = join(calendar, papers, {1: "Posters I", 2: "Poster II", 9: "Posters IX"})
    assert [str(p) for p in problems] == [
        "proceedings.yaml: warning: sessions: '2' names 'Poster II', which is no event of the calendar",
        "proceedings.yaml: warning: sessions: '9' is no paper's session",
        "proceedings.yaml: warning: sessions: '9' names 'Posters IX', which is no event of the calendar",
        # ... and the venue's links (/papers.html?session=2) still find them, with a note
        "ismir-2024-calendar.json:8: info: the session '2' is joined, by the calendar's links to it, to 1 event "
        "(Posters II); a `sessions:` map names the ones it is",
        "ismir-2024-calendar.json:11: info: the session '3' is joined, by the calendar's links to it, to 1 event "
        "(Posters III); a `sessions:` map names the ones it is",
    ]


def test_without_a_map_the_calendars_links_join_ismirs_sessions():
    """ISMIR 2024 links each of its events to its papers (/papers.html?session=1): the oral session, the posters
    on site and online, and the replay are all session 1's events, each named in a note."""
    calendar = read_calendar(FIXTURES / "ismir-2024-calendar.json", zone="America/Los_Angeles")
    papers = paper_times(VENUES / "ismir-2024-programme.csv", date_column="day")
    programme, problems = join(calendar, papers)
    assert not programme.unplaced
    assert [(s.title, s.category) for s in programme.of_paper("12")] == [
        ("Oral Session I", "onsite"), ("Posters and Coffee I", "onsite"), ("Posters I", "online"),
        ("Posters I", "replay")]
    assert str(problems[0]) == (
        "ismir-2024-calendar.json:3: info: the session '1' is joined, by the calendar's links to it, to 4 events "
        "(Oral Session I, Posters and Coffee I, Posters I); a `sessions:` map names the ones it is")


def test_session_map_normalises_its_keys():
    assert session_map({5: "Posters V", "Session 2B": ["A", "B"]}) == {"5": ("Posters V",), "session 2b": ("A", "B")}


def test_icwsm_calendar_and_rows_agree_on_every_instant():
    """ICWSM 2021: the calendar's P1 is 16:30+01:00; the paper's row says (15:30-16:30 GMT): the same instant.
    D1 and S1 are named otherwise in the calendar, so without a map the rows place them."""
    calendar = read_calendar(FIXTURES / "icwsm-2021-calendar.json", zone="Europe/London")
    papers = paper_times(FIXTURES / "icwsm-2021-papers.csv")
    programme, problems = join(calendar, papers)
    from_calendar = programme.of_paper("18035")[0]
    assert from_calendar.title == "P1" and from_calendar.link == "papers.html?filter=sessions&search=P1"
    rows_only, _ = join(None, papers, zone="Europe/London")
    from_rows = rows_only.of_paper("18035")[0]
    assert from_rows.span.start == from_calendar.span.start and from_rows.span.end == from_calendar.span.end
    assert from_rows.span.zone == "Europe/London" and from_rows.room == "Room A"
    # D1 and S1 are "Demos and Posters 1" and "Spotlight Session 1" in the calendar: its links say so
    assert [p.level for p in problems] == ["info", "info"]
    spotlight = programme.of_paper("18040")[0]
    assert spotlight.title == "Spotlight Session 1" and spotlight.span == rows_only.of_paper("18040")[0].span
    assert programme.of_paper("18037")[0].title == "Demos and Posters 1"
    without_links = make_programme([replace(s, link="") for s in calendar.sessions])
    programme, problems = join(Calendar(without_links.sessions), papers, zone="Europe/London")
    assert len(problems) == 2 and programme.of_paper("18040")[0].title == "S1"  # placed by the rows
    assert programme.of_paper("18040")[0].span == spotlight.span and programme.of_paper("18040")[0].room == "Spotlight"
    mapped, problems = join(calendar, papers, {"D1": "Demos and Posters 1", "S1": "Spotlight Session 1"})
    assert not problems and mapped.of_paper("18040")[0].title == "Spotlight Session 1"


def test_a_session_called_by_its_id_finds_the_event_named_with_it():
    calendar = make_programme([Session("Session 2A", Span(dt.datetime(2021, 6, 8, 10, tzinfo=NEW_YORK)))])
    papers = [PaperTimes("1", ("Session 2A: Misinformation",))]
    programme, problems = join(Calendar(calendar.sessions, "America/New_York"), papers)
    assert not problems and programme.of_paper("1")[0].title == "Session 2A"


def test_rows_without_a_calendar_make_the_programme():
    papers = paper_times(VENUES / "icwsm-2021-programme.csv", id_column="paper_id")
    programme, problems = join(None, papers)
    assert not problems and not programme.unplaced
    first = programme.of_paper("18035")[0]
    assert first.title == "Session 2A: Misinformation" and first.room == "Room 1"
    assert first.span.start == dt.datetime(2021, 6, 8, 10, tzinfo=dt.timezone(dt.timedelta(hours=-4)))
    # Session 3B's papers are in two rooms: the room most of them give (ties: the first in order)
    assert programme.of_paper("18040")[0].room == "Room 2"
    assert [day.date for day in programme.days] == [dt.date(2021, 6, 8), dt.date(2021, 6, 9)]


def test_rows_that_only_number_their_days_make_an_untimed_programme():
    papers = paper_times(VENUES / "ismir-2024-programme.csv", date_column="day")
    programme, _ = join(None, papers)
    assert [(day.date, day.label, [s.title for s in day.sessions]) for day in programme.days] == [
        (None, "1", ["1", "2"]), (None, "2", ["3"])]
    assert all(session.span is None for session in programme.sessions)


def test_a_paper_in_no_session_is_unplaced():
    papers = [PaperTimes("1", ("Session 1",), "2024-05-01", "10:00-11:00 UTC"), PaperTimes("2")]
    programme, _ = join(None, papers)
    assert programme.unplaced == ("2",)
    assert programme.sessions[0].span.start == dt.datetime(2024, 5, 1, 10, tzinfo=dt.timezone.utc)


def test_a_row_time_in_an_unknown_zone_is_kept_as_written_not_guessed():
    papers = [PaperTimes("1", ("Session 1",), "2024-05-01", "10:00-11:00 CST")]
    session = join(None, papers)[0].sessions[0]
    assert session.span is None and (session.day, session.time) == ("2024-05-01", "10:00-11:00 CST")


def test_papers_by_session_lists_a_paper_under_each_of_its_sessions():
    papers = paper_times(VENUES / "colt-2020-papers.csv")
    grouped = papers_by_session(papers)
    assert [p.id for p in grouped["Session 1E"]] == ["54", "79"]


def test_keys_are_stable_and_number_repeats_in_time_order():
    zone = ZoneInfo("Europe/London")
    social = [Session("Social Hour", Span(dt.datetime(2021, 6, d, 19, tzinfo=zone))) for d in (10, 8, 9)]
    programme = make_programme(social)
    assert [(s.key, s.span.start.day) for s in programme.sessions] == [
        ("social-hour", 8), ("social-hour-2", 9), ("social-hour-3", 10)]
    assert programme.by_key("social-hour-2").span.start.day == 9


def test_load_programme_reads_the_content_folders_calendar(tmp_path):
    from generator.programme.load import load_programme

    (tmp_path / "sitedata").mkdir()
    (tmp_path / "sitedata" / "main_calendar.json").write_bytes((FIXTURES / "ismir-2024-calendar.json").read_bytes())
    papers = paper_times(VENUES / "ismir-2024-programme.csv", date_column="day")
    programme, problems = load_programme(tmp_path, papers, "America/Los_Angeles", {1: "Posters I", 2: "Posters II",
                                                                                     3: "Posters III"})
    assert not problems and not programme.unplaced and programme.zone == "America/Los_Angeles"
    assert programme.of_paper("61")[0].span.start == dt.datetime(2024, 11, 11, 15, 15,
                                                                 tzinfo=ZoneInfo("America/Los_Angeles"))


def test_load_programme_with_a_broken_calendar_falls_back_to_the_rows(tmp_path):
    from generator.programme.load import load_programme

    (tmp_path / "main_calendar.json").write_text('[{"title": "P1", "start": ]')
    papers = paper_times(VENUES / "icwsm-2021-programme.csv", id_column="paper_id")
    programme, problems = load_programme(tmp_path, papers)
    assert [str(p) for p in problems] == ["main_calendar.json:1: error: not valid JSON: Expecting value"]
    assert programme.of_paper("18035")[0].room == "Room 1" and not programme.unplaced


def test_paper_times_read_a_papers_details():
    from generator.model.paper import Details

    details = Details(sessions=("P1", "P1"), day="2021-06-08", time="(15:30-16:30 GMT)", room="Room A")
    times = PaperTimes.of("18035", details)
    assert times == PaperTimes("18035", ("P1", "P1"), "2021-06-08", "(15:30-16:30 GMT)", "Room A")
    programme, _ = join(None, [times])
    assert programme.sessions[0].papers == ("18035",)  # a session named twice is one membership
    assert programme.sessions[0].span.start == dt.datetime(2021, 6, 8, 15, 30, tzinfo=dt.timezone.utc)


def test_days_are_the_venues_days():
    """A session given in UTC that starts at 02:00 UTC is on the previous evening in New York."""
    late = Session("Late session", Span(dt.datetime(2020, 7, 11, 2, tzinfo=dt.timezone.utc)))
    early = Session("Session 2B", Span(dt.datetime(2020, 7, 10, 13, tzinfo=NEW_YORK)))
    programme = make_programme([late, early], "America/New_York")
    assert [(day.date, [s.title for s in day.sessions]) for day in programme.days] == [
        (dt.date(2020, 7, 10), ["Session 2B", "Late session"])]
    assert [day.date for day in make_programme([late, early]).days] == [dt.date(2020, 7, 10), dt.date(2020, 7, 11)]


def test_sigdial_papers_name_their_sessions_by_the_calendars_ids():
    """SIGDIAL/INLG 2023: the papers' `sigdialoralsession1` is the calendar's event whose UID it is ("Sigdial Oral
    Session 1: Analysis of discourse and dialogue"), with its room and chair."""
    calendar = read_calendar(FIXTURES / "sigdial-2023-calendar.json", zone="Europe/Prague")
    papers = paper_times(VENUES / "sigdial-2023-programme.csv")
    programme, problems = join(calendar, papers)
    assert not problems and not programme.unplaced
    oral = programme.of_paper("sigdial86")[0]
    assert (oral.title, oral.room, oral.chair) == ("Sigdial Oral Session 1: Analysis of discourse and dialogue",
                                                   "Sun I", "Gabriel Skantze")
    assert oral.papers == ("sigdial86", "sigdial14", "sigdial43")
    assert programme.of_paper("inlg124")[0].title == "GenChal Poster Session + demos, Simon Mille"
    assert oral.span.start == dt.datetime(2023, 9, 13, 10, 45, tzinfo=ZoneInfo("Europe/Prague"))


def test_names_without_spaces_find_the_event():
    utc = dt.timezone.utc
    events = [Session("Virtual Poster Session", Span(dt.datetime(2023, 9, 12, 9, tzinfo=utc))),
              Session("INLG Oral Session 1: Trustworthiness", Span(dt.datetime(2023, 9, 13, 9, tzinfo=utc)))]
    papers = [PaperTimes("1", ("virtualpostersession",)), PaperTimes("2", ("inlgoralsession1",))]
    programme, problems = join(Calendar(tuple(events)), papers)
    assert not problems
    assert [programme.of_paper(p)[0].title for p in "12"] == ["Virtual Poster Session",
                                                               "INLG Oral Session 1: Trustworthiness"]


def test_an_ics_uid_is_not_a_session_name():
    events = [Session("Keynote", Span(dt.datetime(2024, 5, 1, 9, tzinfo=dt.timezone.utc)), uid="1", source="x.ics")]
    programme, problems = join(Calendar(tuple(events)), [PaperTimes("p", ("1",))])
    assert programme.of_paper("p")[0].title == "1" and len(problems) == 1  # from its row, with a warning


def test_a_sessions_papers_follow_their_positions():
    """ISMIR 2024's rows give each paper's place in its session (`position`: 04, 11): 2 before 10; a paper with
    none, or in two sessions, after them in the volume's order."""
    papers = [PaperTimes("a", ("1",), position="11"), PaperTimes("b", ("1",)), PaperTimes("c", ("1",), position="04"),
              PaperTimes("d", ("1", "2"), position="01"), PaperTimes("e", ("1",), position="2")]
    programme, _ = join(None, papers)
    assert programme.sessions[0].papers == ("e", "c", "a", "b", "d")
    with (VENUES / "ismir-2024-programme.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    papers = [PaperTimes(r["UID"], (r["session"],), r["day"], position=r["position"]) for r in rows]
    calendar = read_calendar(FIXTURES / "ismir-2024-calendar.json")
    programme, _ = join(calendar, list(reversed(papers)), {1: "Posters I"})
    assert programme.of_paper("12")[0].papers == ("12", "45")  # positions 04 and 11
