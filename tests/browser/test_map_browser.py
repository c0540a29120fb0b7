"""map.html in a browser: the keyboard reaches a paper's dot and Enter opens the paper, hovering shows its title,
and map.js highlights a search's papers and the reading list's; from file:// and over http. A volume past the
page's budget: map.js draws every paper from the points files, a drawn dot opens its paper, and without
JavaScript the page's own dots and the contents reach every paper."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from generator.commands.build import build
from generator.render import map_points
from generator.reporter import Reporter
from map_fixtures import write_volume

from .checkers import violations
from .conftest import served
from .helpers import TIMEOUT

pytestmark = pytest.mark.browser


def test_tab_reaches_a_paper_and_enter_opens_it(page, site_url):
    page.goto(site_url + "map.html")
    first = page.locator(".paper-map a").first
    title = first.locator("title").text_content()
    href = first.get_attribute("href")
    # Tab from the search box after the map's form: the next stop is the first dot.
    page.locator("[data-map-reading]").focus()
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('href')")
    assert focused == href
    # The focused dot is ringed thickly, so a keyboard user sees where they are.
    ring = page.evaluate("getComputedStyle(document.activeElement.querySelector('circle')).strokeWidth")
    assert float(ring.removesuffix("px")) >= 5
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(re.escape(href) + "$"), timeout=TIMEOUT)
    assert page.locator("h1").first.text_content().strip() == title.strip()
    assert not page.errors


def test_each_dot_names_its_paper(page, site_url):
    page.goto(site_url + "map.html")
    names = page.evaluate("[...document.querySelectorAll('.paper-map a')]"
                          ".map(a => a.querySelector('title').textContent)")
    assert all(names) and len(set(names)) == len(names) == page.locator(".paper-map circle").count()
    # a dot's <title> is its link's first child: the link's name for a screen reader, the tooltip on hover
    first = page.evaluate("document.querySelector('.paper-map a').firstElementChild.tagName")
    assert first.lower() == "title"


def test_a_search_highlights_its_papers(page, site_url):
    page.goto(site_url + "map.html")
    titles = page.evaluate("[...document.querySelectorAll('.paper-map a title')].map(t => t.textContent)")
    word = "diffusion"
    expected = sum(1 for t in titles if word in t.lower())
    assert 0 < expected < len(titles)
    page.fill("#map-query", "DIFFUSION")
    page.locator("svg.paper-map.finding").wait_for(timeout=TIMEOUT)
    found = page.evaluate("[...document.querySelectorAll('.paper-map a.found title')].map(t => t.textContent)")
    assert len(found) == expected and all(word in t.lower() for t in found)
    assert str(expected) in page.locator(".map-found").text_content()
    # The others fade: a highlighted dot is drawn fully, the rest faintly.
    opacity = page.evaluate("""[getComputedStyle(document.querySelector('.paper-map a.found circle')).fillOpacity,
        getComputedStyle(document.querySelector('.paper-map a:not(.found) circle')).fillOpacity]""")
    assert float(opacity[0]) > 0.9 > 0.2 > float(opacity[1])
    page.fill("#map-query", "")
    page.locator("svg.paper-map:not(.finding)").wait_for(timeout=TIMEOUT)
    assert not page.errors


def test_the_reading_list_highlights_its_papers(page, site_url):
    page.goto(site_url + "index.html")
    hrefs = page.evaluate("[...document.querySelectorAll('.paper-item-title a')].slice(0, 2).map(a => a.href)")
    for href in hrefs:  # added as a reader adds them: the paper page's button
        page.goto(href)
        page.locator(".paper-reading .reading-toggle").click()
    page.goto(site_url + "map.html")
    page.check("[data-map-reading]")
    expect(page.locator(".paper-map a.found")).to_have_count(2, timeout=TIMEOUT)
    found = page.evaluate("[...document.querySelectorAll('.paper-map a.found')]"
                          ".map(a => new URL(a.getAttribute('href'), document.baseURI).href)")
    assert sorted(found) == sorted(hrefs)
    assert not page.errors


def test_without_javascript_the_map_is_whole_and_the_form_hidden(browser, search_site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(search_site.as_uri() + "/map.html")
    assert page.locator(".paper-map a").count() > 0
    assert not page.locator("[data-map-find]").is_visible()
    assert page.locator(".map-clusters a").count() > 0  # the text alternative
    context.close()


# A volume past the page's budget (render/map_points.py, issue 43): the budgets cut so that 150 papers need points
# files, as 10,000 do with the real ones (tests/test_map_points.py builds 2,400 papers with those).
@pytest.fixture(scope="module")
def big_map(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("big-map")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(map_points, "MARK_BYTES", 4_000)
        patch.setattr(map_points, "FILE_BYTES", 5_000)
        reporter = Reporter()
        build(write_volume(root / "content", 150), root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


@pytest.fixture(params=["file", "http"])
def big_url(request, big_map):
    if request.param == "file":
        yield big_map.as_uri() + "/"
    else:
        with served(big_map) as url:
            yield url


def all_papers(site: Path) -> set[str]:
    return {f"papers/{p['slug']}.html" for p in json.loads((site / "papers.json").read_text(encoding="utf-8"))}


def test_a_big_map_draws_every_paper_from_its_files(page, big_url, big_map):
    page.goto(big_url + "map.html")
    drawn = int(page.locator("svg.paper-map").get_attribute("data-drawn"))
    files = page.locator("svg.paper-map").get_attribute("data-files").split()
    assert 0 < drawn < 150 and len(files) >= 3
    page.locator("svg.paper-map[data-complete]").wait_for(state="attached", timeout=TIMEOUT)
    hrefs = page.evaluate("[...document.querySelectorAll('.paper-map a')].map(a => a.getAttribute('href'))")
    assert len(hrefs) == 150 and set(hrefs) == all_papers(big_map)  # each paper once
    assert page.locator(".map-count").text_content() == "All 150 papers drawn."
    # every dot drawn, each in a colour group, each with a title and a dot of the page's size
    shapes = page.evaluate("""[...document.querySelectorAll('.paper-map a')].map(a => [
        a.parentNode.getAttribute('class'), a.firstElementChild.tagName, a.querySelector('circle').getAttribute('r'),
        a.querySelector('circle').getBBox().width > 0])""")
    assert all(group.startswith("m") and tag == "title" and r == "5" and shown for group, tag, r, shown in shapes)
    # the files came from the map's folder, once each
    loaded = [url for url in page.requests if "/map/points-" in url]
    assert sorted(url.rsplit("/", 1)[1] for url in loaded) == sorted(file.rsplit("/", 1)[1] for file in files)
    assert not page.errors and not page.failed


def test_a_loaded_dot_opens_its_paper_and_is_found(page, big_url, big_map):
    own = set(re.findall(r'<a href="(papers/[^"]+)"><title>', (big_map / "map.html").read_text(encoding="utf-8")))
    page.goto(big_url + "map.html")
    page.locator("svg.paper-map[data-complete]").wait_for(state="attached", timeout=TIMEOUT)
    # a dot map.js drew from a points file: not in the page's own markup
    dots = page.evaluate("""[...document.querySelectorAll('.paper-map a')].map(a => [a.getAttribute('href'),
        a.querySelector('title').textContent])""")
    href, title = next((href, title) for href, title in dots if href not in own)
    # the map's search finds it, as it finds the page's own dots
    page.fill("#map-query", title)
    expect(page.locator(f'.paper-map a.found[href="{href}"]')).to_have_count(1, timeout=TIMEOUT)
    # reached by the keyboard, it opens its paper with Enter
    page.locator(f'.paper-map a[href="{href}"]').focus()
    assert page.evaluate("document.activeElement.getAttribute('href')") == href
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(re.escape(href) + "$"), timeout=TIMEOUT)
    assert page.locator("h1").first.text_content().strip() == title.strip()
    assert not page.errors


def test_without_javascript_a_big_map_draws_its_spread_and_leads_to_the_contents(browser, big_map):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((big_map / "map.html").as_uri())
    drawn = page.locator(".paper-map a").count()
    assert drawn == int(page.locator("svg.paper-map").get_attribute("data-drawn")) < 150
    note = page.locator(".map-count")
    assert f"draws {drawn} of the 150 papers" in note.text_content()
    note.locator("a").click()  # the contents: every paper, without a script
    listed = set()
    while True:
        listed |= {a.get_attribute("href").removeprefix("../") for a in page.locator(".paper-item-title a").all()}
        following = page.locator(".pagination a[rel=next]")
        if not following.count():
            break
        following.first.click()
    assert listed == all_papers(big_map)
    context.close()


def test_a_big_map_is_valid_html_and_passes_axe(page, big_map, axe, vnu):
    messages = [m for m in vnu([big_map / "map.html"], "--errors-only") if m["type"] in ("error", "non-document-error")]
    assert not messages, [m["message"] for m in messages[:10]]
    with served(big_map) as url:
        page.goto(url + "map.html")
        page.locator("svg.paper-map[data-complete]").wait_for(state="attached", timeout=TIMEOUT)
        assert not violations(axe, page, "map.html of a volume with points files")
