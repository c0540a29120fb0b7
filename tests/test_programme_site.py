"""The programme built from the command line (issue 41): `programme.html`, each paper page's sessions with their
times, the calendar files, for venues shaped like COLT 2020 (colt.ics), ICWSM 2021 and ISMIR 2024 (Mini-Conf's
main_calendar.json, the papers' own rows), every file read back with ``icalendar``."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import os
import subprocess
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest

from conftest import REPO
from contents_fixtures import COLT_PAPERS, colt2020_csv, colt2020_events, colt2020_ics
from generator.commands.build import build
from generator.content.changes import Classifier, Kind
from generator.reporter import Reporter

FIXTURES = Path(__file__).parent / "fixtures"
NEW_YORK = ZoneInfo("America/New_York")
SESSION_LINE = re.compile(r'<li><a href="\.\./programme\.html#([\w-]+)">([^<]+)</a> · <span class="when" data-when>'
                          r'<time datetime="([^"]+)">[^<]+</time>–<time datetime="([^"]+)">[^<]+</time> '
                          r'<span class="zone" title="([^"]+)">([^<]+)</span></span>')


def run_build(content: Path, out: Path) -> Reporter:
    reporter = Reporter()
    build(content, out, reporter, cache=False)
    assert not reporter.errors, reporter.errors
    return reporter


def calendar_of(path: Path) -> icalendar.Calendar:
    return icalendar.Calendar.from_ical(path.read_bytes())


@pytest.fixture(scope="module")
def colt(tmp_path_factory) -> tuple[Path, Path, Reporter]:
    """COLT 2020's shape: 117 papers, each in two of 20 sessions, the calendar an Apple export."""
    root = tmp_path_factory.mktemp("colt")
    content = root / "content"
    content.mkdir()
    (content / "papers.csv").write_text(colt2020_csv(), encoding="utf-8")
    (content / "colt.ics").write_bytes(colt2020_ics().encode("utf-8"))
    (content / "proceedings.yaml").write_text("title: COLT 2020\ntimezone: America/New_York\n"
                                              "base_url: https://colt.example.org/2020/\n", encoding="utf-8")
    reporter = run_build(content, root / "site")
    return content, root / "site", reporter


def test_every_colt_paper_page_names_its_two_sessions_with_the_calendars_times(colt):
    _, site, reporter = colt
    assert not [d for d in reporter.diagnostics if d.code.startswith("programme-")]
    events = {summary: (dt.datetime.strptime(start, "%Y%m%dT%H%M%S").replace(tzinfo=NEW_YORK),
                        dt.datetime.strptime(end, "%Y%m%dT%H%M%S").replace(tzinfo=NEW_YORK))
              for summary, start, end in colt2020_events()}
    pages = sorted((site / "papers").glob("*.html"))
    assert len(pages) == COLT_PAPERS
    for page in pages:
        lines = SESSION_LINE.findall(page.read_text(encoding="utf-8"))
        assert len(lines) == 2, page.name
        for key, title, start, end, zone, name in lines:
            assert (dt.datetime.fromisoformat(start), dt.datetime.fromisoformat(end)) == events[title]
            assert key == title.lower().replace(" ", "-") and zone == "America/New_York" and name == "EDT"


def test_each_colt_paper_calendar_holds_its_sessions_at_the_calendars_instants(colt):
    _, site, _ = colt
    starts = {summary: dt.datetime.strptime(start, "%Y%m%dT%H%M%S").replace(tzinfo=NEW_YORK)
              for summary, start, _ in colt2020_events()}
    files = sorted((site / "calendar" / "papers").glob("*.ics"))
    assert len(files) == COLT_PAPERS
    uids = set()
    for path in files:
        page = f"https://colt.example.org/2020/papers/{path.stem}.html"
        html = (site / "papers" / f"{path.stem}.html").read_text(encoding="utf-8")
        assert f'href="../calendar/papers/{path.stem}.ics">Add to calendar</a>' in html
        events = list(calendar_of(path).walk("VEVENT"))
        assert len(events) == 2
        for event in events:
            session = re.search(r"\((Session \w+)\)$", str(event["SUMMARY"]))[1]
            start = event["DTSTART"].dt
            assert start.tzinfo.key == "America/New_York" and start == starts[session]
            assert event["DTSTART"].params["TZID"] == "America/New_York"
            assert str(event["URL"]) == page
            uids.add(str(event["UID"]))
        assert b"BEGIN:VTIMEZONE\r\nTZID:America/New_York" in path.read_bytes()
    assert len(uids) == 2 * COLT_PAPERS


def test_programme_ics_holds_every_session_and_event(colt):
    _, site, _ = colt
    events = list(calendar_of(site / "programme.ics").walk("VEVENT"))
    assert sorted(str(e["SUMMARY"]) for e in events) == sorted(summary for summary, _, _ in colt2020_events())
    assert len({str(e["UID"]) for e in events}) == len(events)
    session = next(e for e in events if str(e["SUMMARY"]) == "Session 2B")
    assert str(session["URL"]) == "https://colt.example.org/2020/programme.html#session-2b"
    assert (site / "calendar" / "sessions" / "session-2b.ics").is_file()
    assert len(list((site / "calendar" / "sessions").glob("*.ics"))) == len(events)


def test_the_programme_page_lists_days_sessions_papers_and_events(colt):
    _, site, _ = colt
    page = (site / "programme.html").read_text(encoding="utf-8")
    assert page.count('<section class="programme-day"') == 4
    assert page.count('class="programme-session programme-event"') == 8  # keynotes and breaks, no papers
    assert '<section class="programme-session" id="session-2b"' in page
    assert 'href="calendar/sessions/session-2b.ics">Add to calendar</a>' in page
    linked = set(re.findall(r'<a href="(papers/[^"]+\.html)">', page))
    assert len(linked) == COLT_PAPERS
    assert 'href="programme.html">Programme</a>' in (site / "index.html").read_text(encoding="utf-8")
    assert '<script src="assets/times.js" defer></script>' in page and (site / "assets" / "times.js").is_file()
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'class="in-programme" href="programme.html#session-1a"' in index


def test_the_reading_list_records_carry_each_papers_sessions(colt):
    _, site, _ = colt
    blocks = "".join(path.read_text(encoding="utf-8") for path in (site / "assets" / "reading").glob("r*.js"))
    assert blocks.count('\\"s\\":[[\\"Session ') == COLT_PAPERS
    assert "paper-" in blocks and ".colt2020@proceedings" in blocks
    page = (site / "reading-list.html").read_text(encoding="utf-8")
    assert 'data-reading-schedule' in page and 'assets/schedule.js' in page


def test_a_rebuild_gives_the_same_calendar_files_and_uids(colt, tmp_path):
    content, site, _ = colt
    again = tmp_path / "again"
    run_build(content, again)
    for path in [site / "programme.ics", *sorted((site / "calendar").rglob("*.ics"))]:
        assert (again / path.relative_to(site)).read_bytes() == path.read_bytes()


def test_colts_own_calendar_quirks_and_sessions_it_lacks(tmp_path):
    """The venue's file as it is (an Apple export whose last sessions are missing): the papers in a session no
    event is keep the session from their rows (untimed), and the build says which."""
    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(FIXTURES / "venues" / "colt-2020-papers.csv", content / "papers.csv")
    shutil.copy(FIXTURES / "programme" / "colt-2020.ics", content / "colt.ics")
    reporter = run_build(content, tmp_path / "site")
    unmatched = [d.message for d in reporter.diagnostics if d.code == "programme-session-unmatched"]
    assert len(unmatched) == 2 and "'Session 1F'" in unmatched[0] and "'Session 2F'" in unmatched[1]
    page = (tmp_path / "site" / "papers" / "a-greedy-anytime-algorithm-for-sparse-pca.html").read_text("utf-8")
    assert SESSION_LINE.findall(page)[0][:3] == ("session-1b", "Session 1B", "2020-07-09T13:00:00-04:00")
    programme = (tmp_path / "site" / "programme.html").read_text(encoding="utf-8")
    assert "Sessions without a time" in programme  # 1F and 2F, from the rows: no time
    ics = calendar_of(tmp_path / "site" / "calendar" / "papers" / "a-greedy-anytime-algorithm-for-sparse-pca.ics")
    assert [str(e["SUMMARY"]) for e in ics.walk("VEVENT")] == [
        "A Greedy Anytime Algorithm for Sparse PCA (Session 1B)"]
    assert "URL" not in next(iter(ics.walk("VEVENT")))  # no base URL: a relative reference is no URI


def test_icwsm_from_mini_confs_calendar_in_sitedata(tmp_path):
    content = tmp_path / "content"
    (content / "sitedata").mkdir(parents=True)
    shutil.copy(FIXTURES / "programme" / "icwsm-2021-papers.csv", content / "papers.csv")
    shutil.copy(FIXTURES / "programme" / "icwsm-2021-calendar.json", content / "sitedata" / "main_calendar.json")
    (content / "proceedings.yaml").write_text("title: ICWSM 2021\ntimezone: Europe/London\n", encoding="utf-8")
    run_build(content, tmp_path / "site")
    site = tmp_path / "site"
    for page in (site / "papers").glob("*.html"):
        lines = SESSION_LINE.findall(page.read_text(encoding="utf-8"))
        assert lines and all(zone == "Europe/London" and name == "BST" for *_, zone, name in lines), page.name
    paper = (site / "papers").glob("partisan-asymmetries*.html").__next__().read_text(encoding="utf-8")
    assert SESSION_LINE.findall(paper)[0][1:3] == ("P1", "2021-06-08T16:30:00+01:00")
    programme = (site / "programme.html").read_text(encoding="utf-8")
    assert "Keynote by Rediet Abebe" in programme


def test_ismir_from_its_calendar_with_a_sessions_map(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(FIXTURES / "venues" / "ismir-2024-programme.csv", content / "papers.csv")
    shutil.copy(FIXTURES / "programme" / "ismir-2024-calendar.json", content / "main_calendar.json")
    (content / "proceedings.yaml").write_text(
        "title: ISMIR 2024\ntimezone: America/Los_Angeles\nsessions:\n  1: Posters I\n  2: Posters II\n"
        "  3: [Posters III]\n", encoding="utf-8")
    reporter = run_build(content, tmp_path / "site")
    assert not [d for d in reporter.diagnostics if d.code in ("programme-session-unmatched", "programme-map-unmatched")]
    site = tmp_path / "site"
    pages = list((site / "papers").glob("*.html"))
    assert pages
    for page in pages:
        lines = SESSION_LINE.findall(page.read_text(encoding="utf-8"))
        assert lines and {title for _, title, *_ in lines} <= {"Posters I", "Posters II", "Posters III"}, page.name
        assert all(zone == "America/Los_Angeles" and name == "PST" for *_, zone, name in lines)


def test_ismir_rows_alone_make_no_programme_page(tmp_path):
    """Without a calendar ISMIR's rows say only "day 1, session 1": no time, so no programme page, no link."""
    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(FIXTURES / "venues" / "ismir-2024-programme.csv", content / "papers.csv")
    run_build(content, tmp_path / "site")
    assert not (tmp_path / "site" / "programme.html").exists()
    assert not (tmp_path / "site" / "calendar").exists()
    assert "programme.html" not in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


def test_a_programme_across_a_daylight_saving_change(tmp_path):
    """New York leaves summer time on 3 November 2024: the sessions either side keep their clock times, their
    offsets change, and each calendar file's VTIMEZONE says both."""
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.csv").write_text("title,abstract,session\nBefore the change,An abstract.,Early\n"
                                        "After the change,Another abstract.,Late\n", encoding="utf-8")
    (content / "programme.csv").write_text("session,date,start,end,room\nEarly,2024-11-02,09:00,10:30,Hall A\n"
                                           "Late,2024-11-04,09:00,10:30,Hall B\n", encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: Autumn Meeting\ntimezone: America/New_York\n", encoding="utf-8")
    run_build(content, tmp_path / "site")
    site = tmp_path / "site"
    assert len(list((site / "papers").glob("*.html"))) == 2  # programme.csv is no list of papers
    programme = (site / "programme.html").read_text(encoding="utf-8")
    assert '<time datetime="2024-11-02T09:00:00-04:00">' in programme
    assert '<time datetime="2024-11-04T09:00:00-05:00">' in programme
    assert '<span class="room">Hall B</span>' in programme
    whole = calendar_of(site / "programme.ics")
    starts = sorted(e["DTSTART"].dt.astimezone(dt.timezone.utc) for e in whole.walk("VEVENT"))
    assert starts == [dt.datetime(2024, 11, 2, 13, tzinfo=dt.timezone.utc),
                      dt.datetime(2024, 11, 4, 14, tzinfo=dt.timezone.utc)]
    assert [str(e["LOCATION"]) for e in whole.walk("VEVENT")] == ["Hall A", "Hall B"]
    assert b"TZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500" in (site / "programme.ics").read_bytes()


def test_a_calendar_edited_rebuilds_the_pages_that_show_its_times(tmp_path):
    """With the build cache on: a session moved in colt.ics moves the paper pages' times and their .ics."""
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.csv").write_text(colt2020_csv(count=12), encoding="utf-8")
    (content / "colt.ics").write_bytes(colt2020_ics().encode("utf-8"))
    build(content, tmp_path / "site", Reporter())
    moved = colt2020_ics().replace("DTSTART;TZID=America/New_York:20200709T083000",
                                   "DTSTART;TZID=America/New_York:20200709T090000")
    (content / "colt.ics").write_bytes(moved.encode("utf-8"))
    build(content, tmp_path / "site", Reporter())
    texts = [page.read_text(encoding="utf-8") for page in (tmp_path / "site" / "papers").glob("*.html")]
    assert any('datetime="2020-07-09T09:00:00-04:00"' in text for text in texts)
    assert not any('datetime="2020-07-09T08:30:00-04:00"' in text for text in texts)


def test_serve_treats_a_calendar_as_the_volumes_config(tmp_path):
    classify = Classifier(tmp_path, (), ()).kind
    for name in ("colt.ics", "sitedata/main_calendar.json", "programme.csv", "main_calendar.json"):
        assert classify(tmp_path / name) is Kind.CONFIG, name
    assert classify(tmp_path / "papers.csv") is Kind.LIST
    assert classify(tmp_path / "notes.json") is Kind.OTHER


def kept_environment() -> dict[str, str]:
    """What a process of the otherwise bare environment below still takes from the session: its cache folder
    (conftest.py) and a PYTHONDONTWRITEBYTECODE=1, without which it wrote bytecode into the repository."""
    return {name: os.environ[name] for name in ("XDG_CACHE_HOME", "PYTHONDONTWRITEBYTECODE") if name in os.environ}


def test_a_time_zone_that_is_no_zone_is_a_config_error_naming_the_line(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.csv").write_text("title,abstract\nA paper,An abstract.\n", encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: T\ntimezone: EDT\nsessions: [a]\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(content), "--out",
                           str(tmp_path / "site")], capture_output=True, text=True, cwd=tmp_path,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", **kept_environment()})
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "proceedings.yaml:2: timezone must be an IANA time zone such as America/New_York" in done.stderr
    assert "proceedings.yaml:3: sessions must be a mapping" in done.stderr


def test_serve_rebuilds_the_programme_when_its_calendar_is_saved(tmp_path):
    from generator.pipeline.live import LiveSite

    content = tmp_path / "content"
    (content / "sitedata").mkdir(parents=True)
    (content / "papers.csv").write_text(colt2020_csv(count=12), encoding="utf-8")
    calendar = content / "sitedata" / "colt.ics"
    calendar.write_bytes(colt2020_ics().encode("utf-8"))
    live = LiveSite(content, tmp_path / "site")
    live.build_all()
    assert b'datetime="2020-07-09T08:30:00-04:00"' in live.files["programme.html"]
    calendar.write_bytes(colt2020_ics().replace("DTSTART;TZID=America/New_York:20200709T083000",
                                                "DTSTART;TZID=America/New_York:20200709T093000").encode("utf-8"))
    result = live.rebuild({calendar.resolve()})
    assert not result.failed and result.written
    assert b'datetime="2020-07-09T09:30:00-04:00"' in live.files["programme.html"]
    papers = [data for name, data in live.files.items() if name.startswith("papers/")]
    assert any(b'datetime="2020-07-09T09:30:00-04:00"' in data for data in papers)
    assert not any(b'datetime="2020-07-09T08:30:00-04:00"' in data for data in papers)
    live.close()


def test_a_table_named_program_csv_is_the_programme_only_when_it_has_no_paper_columns(tmp_path):
    """A venue may name its papers' export program.csv: a header with an abstract or authors column says it is
    papers (read as a source); one of sessions and times is the programme (never a paper list)."""
    from generator.sources import find_sources, is_calendar_table

    papers = tmp_path / "program.csv"
    papers.write_text("UID,title,authors,abstract\np1,A Paper,Ann Lee,An abstract.\n", encoding="utf-8")
    assert not is_calendar_table(papers) and find_sources(tmp_path) == [papers]
    papers.write_text("\ufeffSession, Start Time ,End,Room\nEarly,2024-11-02 09:00,2024-11-02 10:30,Hall A\n",
                      encoding="utf-8")
    assert is_calendar_table(papers) and find_sources(tmp_path) == []
