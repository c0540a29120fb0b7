"""The volume at a glance in a real browser: the charts drawn in the theme's colours in light and dark and in grey
on paper, no script error, axe and the Nu checker satisfied, the bars leading to their pages by mouse and keyboard;
from file:// and over http with the site's CSP. The volume is a real-shaped export with affiliations, sessions,
tracks and days; the series is tests/series_fixtures.py's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from series_fixtures import SMALL, make_series
from generator.commands.build import build
from generator.reporter import Reporter

from .checkers import report, violations
from .conftest import served
from .helpers import DESKTOP, PHONE

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "venues" / "openreview-style-papers.jsonl"


@pytest.fixture(scope="module")
def glance_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("glance")
    (root / "content").mkdir()
    shutil.copy(FIXTURE, root / "content" / "papers.jsonl")
    reporter = Reporter()
    build(root / "content", root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


@pytest.fixture(scope="module")
def series_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("glance-series")
    reporter = Reporter()
    build(make_series(root, SMALL), root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


def bar_fills(page) -> list[str]:
    return page.locator(".chart-bar").evaluate_all("bars => bars.map(b => getComputedStyle(b).fill)")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_charts_draw_in_the_themes_colours(page, glance_site, scheme):
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size(DESKTOP)
    page.goto((glance_site / "glance.html").as_uri())
    assert page.locator("figure.chart").count() == 6  # topics, sessions, tracks, days, affiliations, authors
    fills = set(bar_fills(page))
    expected = page.evaluate("(() => { const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');"
                             " r.style.fill = 'var(--accent)'; document.querySelector('svg').appendChild(r);"
                             " const fill = getComputedStyle(r).fill; r.remove(); return fill; })()")
    assert fills == {expected}
    # A bar's name is drawn in the link colour where it leads to a page, else in the text's.
    linked = page.locator("#chart-topics .chart-label").first.evaluate("t => getComputedStyle(t).fill")
    plain = page.locator("#chart-affiliations .chart-label").first.evaluate("t => getComputedStyle(t).fill")
    assert linked == expected and plain == page.evaluate("getComputedStyle(document.body).color")
    # Every bar has a width the reader can see; the longest is most of the chart's width.
    widths = page.locator(".chart-bar").evaluate_all("bars => bars.map(b => b.getBBox().width)")
    assert min(widths) > 0
    assert not page.errors and not page.failed, (page.errors, page.failed)


def test_light_and_dark_bars_differ_and_print_is_grey(page, glance_site):
    page.goto((glance_site / "glance.html").as_uri())
    page.emulate_media(color_scheme="light")
    light = bar_fills(page)[0]
    page.emulate_media(color_scheme="dark")
    dark = bar_fills(page)[0]
    page.emulate_media(media="print", color_scheme="dark")
    printed = set(bar_fills(page))
    assert light != dark and printed == {"rgb(85, 85, 85)"}
    labels = page.locator(".chart-label").evaluate_all("ts => ts.map(t => getComputedStyle(t).fill)")
    assert set(labels) == {"rgb(0, 0, 0)"}


def test_a_bar_leads_to_its_page_by_mouse_and_by_keyboard(page, glance_site):
    page.set_viewport_size(PHONE)
    page.goto((glance_site / "glance.html").as_uri())
    page.locator("#chart-topics a").first.locator(".chart-bar").click()
    assert page.url.endswith("/tags/dialogue.html")
    page.goto((glance_site / "glance.html").as_uri())
    page.locator("#chart-topics a").first.focus()
    assert page.evaluate("document.activeElement.getAttribute('href')") == "tags/dialogue.html"
    page.keyboard.press("Enter")
    page.wait_for_url("**/tags/dialogue.html")
    # The table's links, in a disclosure that opens without a script.
    page.goto((glance_site / "glance.html").as_uri())
    page.locator("#chart-sessions summary").click()
    page.locator("#chart-sessions table a", has_text="Oral 1A").click()
    assert "#group-oral-1a" in page.url


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation(page, glance_site, series_site, axe, scheme):
    page.emulate_media(color_scheme=scheme)
    problems = []
    for site, path in ((glance_site, "glance.html"), (series_site, "glance.html"), (series_site, "2019/glance.html")):
        with served(site) as root:
            page.goto(root + path)
            for summary in page.locator("summary").all():
                summary.click()  # the tables too
            problems += violations(axe, page, f"{path} ({scheme})")
            assert not page.errors and not page.failed, (page.errors, page.failed)
    assert not problems, "axe-core found:\n" + "\n".join(problems)


def test_the_nu_checker_finds_no_error(vnu, glance_site, series_site):
    pages = [glance_site / "glance.html", series_site / "glance.html", series_site / "2019" / "glance.html"]
    messages = [m for m in vnu(pages, "--errors-only") if m["type"] in ("error", "non-document-error")]
    assert not messages, "the Nu HTML checker found:\n" + "\n".join(report(messages, glance_site))
    sheet = [m for m in vnu([glance_site / "assets" / "charts.css"], "--css", "--errors-only")
             if m["type"] in ("error", "non-document-error")]
    assert not sheet, sheet
