"""Hostile content in a real browser: no page of a site built from tests/fixtures/hostile/ opens a
dialog or holds an element the content injected, from file:// and over http, and the search box
shows hostile titles as text.

tests/test_bad_input.py proves the same on the HTML source; this proves what Chromium makes of it
(entity decoding, MathML parsing, the search results that search.js writes into the page).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter
from test_bad_input import hostile_content

from .conftest import served
from .helpers import TIMEOUT, html_pages, search_for

# What the content tries to inject, as CSS selectors: none may match on any page.
# The build's own JSON-LD (data, never run) and the SVG it draws (the charts, the map: drawing elements and links
# only, tests/test_bad_input.py) are the two exceptions, by their type and class.
SCRIPT = "script:not([src]):not([type='application/ld+json'])"
INJECTED = [SCRIPT, "img", "iframe", "object", "embed", "svg:not(.chart-svg):not(.paper-map)",
            "svg script", "svg foreignObject", "[onerror]", "[onload]", "[onclick]",
            "[style]", "a[href^='javascript' i]", "a[href^='data' i]", "math [href]", "base"]
FIND_INJECTED = """selectors => selectors.flatMap(selector =>
    [...document.querySelectorAll(selector)].map(node => `${selector}: ${node.outerHTML.slice(0, 80)}`))"""


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile-browser")
    reporter = Reporter()
    build(hostile_content(root / "content"), root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


@pytest.fixture(scope="module")
def hostile_http(hostile_site):
    with served(hostile_site) as url:
        yield url


@pytest.fixture(params=["file", "http"])
def root_url(request, hostile_site):
    return hostile_site.as_uri() + "/" if request.param == "file" else request.getfixturevalue("hostile_http")


def visit(page, url: str) -> list[str]:
    """Open ``url``, let its scripts run, and return what the content injected."""
    page.goto(url, wait_until="load")
    page.wait_for_timeout(50)  # a handler on a broken image or a timer would have fired by now
    return page.evaluate(FIND_INJECTED, INJECTED)


def test_no_hostile_page_opens_a_dialog_or_holds_injected_elements(page, hostile_site, root_url):
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(f"{page.url}: {dialog.message}"), dialog.dismiss()))
    pages = [p for p in html_pages(hostile_site) if root_url.startswith("http") or p != "404.html"]
    assert len(pages) > 30
    injected = {name: found for name in pages if (found := visit(page, root_url + name))}
    assert injected == {}
    assert dialogs == []
    assert page.errors == [], page.errors


def test_hostile_titles_in_search_results_stay_text(page, root_url):
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(root_url + "index.html")
    for query, title in (("hand", '<script>alert("page title")</script>'), ("raw", "<img src=x onerror=")):
        search_for(page, query)
        page.wait_for_selector("#search-panel .search-hit-title", timeout=TIMEOUT)
        titles = page.locator("#search-panel .search-hit-title").all_inner_texts()
        assert any(title in shown for shown in titles), titles
        page.wait_for_timeout(50)
        assert page.evaluate(FIND_INJECTED, INJECTED) == []
    assert [option for option in page.locator("#search-tag option").all_inner_texts() if "<" in option]
    assert dialogs == []


def test_the_page_text_shows_the_markup_as_written(page, hostile_site, root_url):
    """What a reader sees of a hostile paper: its markup as text, the good link as a link."""
    page.goto(root_url + "papers/hand-edited-hostile.html")
    heading = page.locator("h1.page-title").inner_text()
    assert heading == '<script>alert("page title")</script> & <img src=x onerror=alert("page title")>'
    assert page.locator(".tags a", has_text="../../etc/passwd").count() == 1
    page.goto(root_url + next(p for p in html_pages(hostile_site) if p.startswith("papers/latex-links")))
    assert page.locator(".abstract a").evaluate_all("links => links.map(a => a.href)") == ["https://example.org/"]


def test_the_checks_see_an_injection(page, tmp_path):
    """Not vacuous: on a page without the site's CSP, the same checks catch a dialog and the elements."""
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    bad = tmp_path / "bad.html"
    bad.write_text('<p>x</p><img src="nowhere.png" onerror="alert(1)"><script>alert(2)</script>'
                   '<a href="javascript:alert(3)">a</a>', encoding="utf-8")
    found = visit(page, bad.as_uri())
    assert sorted(dialogs) == ["1", "2"]
    assert {item.split(": ", 1)[0] for item in found} == {SCRIPT, "img", "[onerror]",
                                                      "a[href^='javascript' i]"}
    page.errors.clear()
    page.failed.clear()
