"""map.html in a browser: the keyboard reaches a paper's dot and Enter opens the paper, hovering shows its title,
and map.js highlights a search's papers and the reading list's; from file:// and over http."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

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
