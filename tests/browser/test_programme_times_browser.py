"""The programme in a real browser (issue 41): the toggle to the reader's own time zone shows the same instants
(across a daylight-saving change too), the calendar links lead to files that parse, and the reading list's "My
programme" lists its papers' sessions in time order and downloads them as a calendar that parses. From file://,
as a reader opens a downloaded site; the pages pass the Nu checker and axe."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from urllib.parse import unquote, urlsplit
from zoneinfo import ZoneInfo

import icalendar
import pytest

from contents_fixtures import colt2020_csv, colt2020_ics
from generator.commands.build import build
from generator.reporter import Reporter

from .checkers import violations
from .conftest import served
from .helpers import DESKTOP, TIMEOUT, watch

PARIS = ZoneInfo("Europe/Paris")
# A title the calendar must escape (comma, semicolon) and fold (past 75 octets, in characters of two and
# three octets, which a fold must not cut).
LONG = "Before the change; a study, with commas and ünïcödé — 会議の論文が七十五オクテットを超える長い題名"


@pytest.fixture(scope="module")
def programme_site(tmp_path_factory) -> Path:
    """COLT 2020's shape with its calendar, and two sessions either side of New York's change to winter time."""
    root = tmp_path_factory.mktemp("programme")
    content = root / "content"
    content.mkdir()
    (content / "papers.csv").write_text(colt2020_csv(count=16), encoding="utf-8")
    (content / "colt.ics").write_bytes(colt2020_ics().encode("utf-8"))
    (content / "proceedings.yaml").write_text("title: COLT 2020\ntimezone: America/New_York\n", encoding="utf-8")
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


@pytest.fixture(scope="module")
def autumn_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("autumn")
    content = root / "content"
    content.mkdir()
    (content / "papers.csv").write_text(f"title,abstract,session\n\"{LONG}\",An abstract.,Early\n"
                                        "After the change,Another abstract.,Late\n", encoding="utf-8")
    (content / "programme.csv").write_text("session,date,start,end,room\n"
                                           "Early,2024-11-02,09:00,10:30,\"Hall A, 1st floor\"\n"
                                           "Late,2024-11-04,09:00,10:30,Hall B\n", encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: Autumn Meeting\ntimezone: America/New_York\n", encoding="utf-8")
    build(content, root / "site", Reporter())
    return root / "site"


@pytest.fixture
def paris(browser):
    """A page in a browser whose clock is in Paris (its own time zone, as a reader's would be)."""
    context = browser.new_context(timezone_id="Europe/Paris", locale="en-GB", accept_downloads=True)
    page = watch(context.new_page())
    page.set_viewport_size(DESKTOP)
    yield page
    context.close()


def shown_times(page) -> list[tuple[str, str]]:
    """(datetime, text) of every <time> in a span of instants."""
    return [tuple(pair) for pair in page.locator("[data-when] time").evaluate_all(
        "times => times.map(t => [t.getAttribute('datetime'), t.textContent])")]


def toggle(page) -> None:
    page.locator(".time-zone-choice button").first.click()


def test_the_readers_time_zone_shows_the_same_instants(paris, programme_site):
    paris.goto((programme_site / "programme.html").as_uri())
    venue = shown_times(paris)
    assert venue and venue[0] == ("2020-07-09T08:30:00-04:00", "Thu, Jul 9, 2020, 08:30")
    choice = paris.locator(".time-zone-choice")
    assert choice.is_visible() and "America/New_York" in choice.inner_text()
    toggle(paris)
    assert "Europe/Paris" in choice.inner_text()
    for (stamp, text), (same, _) in zip(shown_times(paris), venue):
        assert stamp == same
        local = dt.datetime.fromisoformat(stamp).astimezone(PARIS)
        assert text.endswith(local.strftime("%H:%M")), (stamp, text)
    assert shown_times(paris)[0][1] == "Thu, Jul 9, 2020, 14:30"
    assert set(paris.locator("[data-when] .zone").evaluate_all("z => z.map(e => e.title)")) == {"Europe/Paris"}
    paris.reload()  # remembered
    assert shown_times(paris)[0][1] == "Thu, Jul 9, 2020, 14:30"
    toggle(paris)
    assert shown_times(paris) == venue  # and back to the venue's words, exactly
    assert not paris.errors and not paris.failed


def test_a_paper_page_shows_its_sessions_on_the_readers_clock(paris, programme_site):
    page = next(p for p in sorted((programme_site / "papers").glob("*.html")))
    paris.goto(page.as_uri())
    assert paris.locator(".paper-sessions li").count() == 2
    before = shown_times(paris)
    toggle(paris)
    after = shown_times(paris)
    assert [s for s, _ in after] == [s for s, _ in before]
    assert all(t.endswith(dt.datetime.fromisoformat(s).astimezone(PARIS).strftime("%H:%M")) for s, t in after)
    assert not paris.errors


def test_a_conference_across_a_daylight_saving_change(paris, autumn_site):
    """New York leaves summer time on 3 November 2024, Paris a week before: 09:00 in New York is 14:00 in
    Paris on the 2nd and 15:00 on the 4th."""
    paris.goto((autumn_site / "programme.html").as_uri())
    assert [text for _, text in shown_times(paris)][::2] == ["Sat, Nov 2, 2024, 09:00", "Mon, Nov 4, 2024, 09:00"]
    assert paris.locator("[data-when] .zone").all_inner_texts() == ["EDT", "EST"]
    toggle(paris)
    assert [text for _, text in shown_times(paris)] == ["Sat, Nov 2, 2024, 14:00", "15:30",
                                                        "Mon, Nov 4, 2024, 15:00", "16:30"]


def test_without_scripts_the_venues_times_show(browser, programme_site):
    context = browser.new_context(java_script_enabled=False, timezone_id="Asia/Tokyo")
    page = context.new_page()
    page.goto((programme_site / "programme.html").as_uri())
    assert page.locator("time").first.inner_text() == "Thu, Jul 9, 2020, 08:30"
    assert not page.locator(".time-zone-choice").is_visible()
    context.close()


def linked_file(page, selector: str) -> list[Path]:
    hrefs = page.locator(selector).evaluate_all("links => links.map(a => a.href)")
    return [Path(unquote(urlsplit(href).path)) for href in hrefs]


def test_every_add_to_calendar_link_leads_to_a_calendar(paris, programme_site):
    paris.goto((programme_site / "programme.html").as_uri())
    files = linked_file(paris, "a.add-calendar")
    assert len(files) == 28  # COLT's 20 sessions and 8 keynotes and breaks
    for path in files:
        events = list(icalendar.Calendar.from_ical(path.read_bytes()).walk("VEVENT"))
        assert len(events) == 1 and events[0]["DTSTART"].dt.tzinfo.key == "America/New_York"
    whole = linked_file(paris, ".programme-note a")[0]
    assert len(list(icalendar.Calendar.from_ical(whole.read_bytes()).walk("VEVENT"))) == 28
    paper = next(p for p in sorted((programme_site / "papers").glob("*.html")))
    paris.goto(paper.as_uri())
    (ics,) = linked_file(paris, ".paper-when a.add-calendar")
    assert len(list(icalendar.Calendar.from_ical(ics.read_bytes()).walk("VEVENT"))) == 2


def test_my_programme_lists_the_reading_lists_sessions_and_downloads_them(paris, programme_site):
    slugs = sorted(p.stem for p in (programme_site / "papers").glob("*.html"))[:3]
    paris.goto((programme_site / "reading-list.html").as_uri())
    paris.evaluate("list => localStorage.setItem('proceedings-reading-list:' + new URL('./', location.href).href,"
                   " JSON.stringify(list))", slugs)
    paris.reload()
    schedule = paris.locator("[data-reading-schedule]")
    schedule.wait_for(state="visible", timeout=TIMEOUT)
    items = paris.locator(".schedule-item")
    assert items.count() == 6  # three papers, two sessions each
    starts = paris.locator(".schedule-item [data-when] time:first-of-type").evaluate_all(
        "times => times.map(t => t.getAttribute('datetime'))")
    assert starts == sorted(starts, key=lambda s: dt.datetime.fromisoformat(s))
    with paris.expect_download() as download:
        paris.locator("[data-reading-calendar]").click()
    text = Path(download.value.path()).read_bytes()
    assert download.value.suggested_filename == "my-programme.ics"
    assert all(len(line) <= 75 for line in text.split(b"\r\n"))
    calendar = icalendar.Calendar.from_ical(text)
    events = list(calendar.walk("VEVENT"))
    assert len(events) == 6
    own = {}
    for slug in slugs:
        for event in icalendar.Calendar.from_ical(
                (programme_site / "calendar" / "papers" / f"{slug}.ics").read_bytes()).walk("VEVENT"):
            own[str(event["UID"])] = event["DTSTART"].dt
    assert {str(e["UID"]): e["DTSTART"].dt for e in events} == own  # the same events, the same instants
    assert all("URL" not in event for event in events)  # from file://: no URI to give
    toggle(paris)
    assert paris.locator(".schedule-item .zone").first.get_attribute("title") == "Europe/Paris"
    assert not paris.errors and not paris.failed


def test_the_programme_pages_are_valid_html(vnu, programme_site):
    paper = next(p for p in sorted((programme_site / "papers").glob("*.html")))
    pages = [programme_site / "programme.html", paper, programme_site / "reading-list.html",
             programme_site / "index.html"]
    messages = [m for m in vnu(pages, "--errors-only") if m["type"] in ("error", "non-document-error")]
    assert not messages, json.dumps(messages, indent=1)[:3000]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation_on_the_programme(page, programme_site, axe, scheme):
    page.emulate_media(color_scheme=scheme)
    problems = []
    paper = next(p for p in sorted((programme_site / "papers").glob("*.html")))
    with served(programme_site) as root:
        page.goto(root + "programme.html")
        page.locator(".time-zone-choice button").wait_for(timeout=TIMEOUT)
        problems += violations(axe, page, f"programme.html ({scheme})")
        page.goto(root + f"papers/{paper.name}")
        problems += violations(axe, page, f"{paper.name} ({scheme})")
        page.evaluate("slug => localStorage.setItem('proceedings-reading-list:' + new URL('./', location.href).href"
                      ".replace('papers/', ''), JSON.stringify([slug]))", paper.stem)
        page.goto(root + "reading-list.html")
        page.locator("[data-reading-schedule]").wait_for(state="visible", timeout=TIMEOUT)
        problems += violations(axe, page, f"reading-list.html with My programme ({scheme})")
    assert not problems, "axe-core found:\n" + "\n".join(problems)


def test_my_programmes_file_escapes_and_folds_what_the_titles_hold(paris, autumn_site):
    slugs = sorted(p.stem for p in (autumn_site / "papers").glob("*.html"))
    paris.goto((autumn_site / "reading-list.html").as_uri())
    paris.evaluate("list => localStorage.setItem('proceedings-reading-list:' + new URL('./', location.href).href,"
                   " JSON.stringify(list))", slugs)
    paris.reload()
    paris.locator("[data-reading-schedule]").wait_for(state="visible", timeout=TIMEOUT)
    assert paris.locator(".schedule-item .schedule-paper").all_inner_texts() == [LONG, "After the change"]
    with paris.expect_download() as download:
        paris.locator("[data-reading-calendar]").click()
    text = Path(download.value.path()).read_bytes()
    assert all(len(line) <= 75 for line in text.split(b"\r\n")) and b"\r\n " in text
    text.decode("utf-8")  # no character cut by a fold
    events = list(icalendar.Calendar.from_ical(text).walk("VEVENT"))
    assert [str(e["SUMMARY"]) for e in events] == [f"{LONG} (Early)", "After the change (Late)"]
    assert [str(e["LOCATION"]) for e in events] == ["Hall A, 1st floor", "Hall B"]
    assert [e["DTSTART"].dt for e in events] == [dt.datetime(2024, 11, 2, 13, tzinfo=dt.timezone.utc),
                                                 dt.datetime(2024, 11, 4, 14, tzinfo=dt.timezone.utc)]
