"""One crawl of a built site per way of opening it (file:// and http), shared by the tests.

It starts at index.html and follows every a[href] and form[action] inside the site,
on a phone-sized page (375 px), and keeps for each page what the tests need: whether
it loaded, its links and ids, what the console said and what was requested, its
formulas' boxes, its visible text and how far it scrolls sideways. Opening each page
once for all of that keeps the browser suite fast. ``crawled`` is the seed site's crawl;
``crawl_of`` crawls any other built site (test_details_browser.py).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urldefrag

import pytest

from .helpers import DESCRIBE_JS, PHONE, search_for, watch

# An SVG <a> (the map's marks, the charts' bars) has an object for ``href`` and ``className``: read attributes.
LINKS_JS = """() => Array.from(document.querySelectorAll("a[href], form[action]"), node => ({
  url: node.tagName === "FORM" ? node.action : new URL(node.getAttribute("href"), document.baseURI).href,
  text: (node.innerText || node.getAttribute("aria-label") || node.textContent || node.id || node.tagName)
    .trim().replace(/\\s+/g, " "),
  kind: node.tagName === "FORM" ? "form" : (node.getAttribute("class") || ""),
}))"""

STYLED_JS = "() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() !== ''"

BOXES_JS = """() => Array.from(document.querySelectorAll("math"), node => {
  const box = node.getBoundingClientRect();
  return [box.width, box.height, (node.getAttribute("alttext") || node.textContent).trim().slice(0, 80)];
})"""

# Without formulas and code (the BibTeX entry is LaTeX on purpose). Hidden through the
# CSSOM: the pages' Content-Security-Policy refuses a <style> element.
TEXT_JS = """() => {
  const hidden = Array.from(document.querySelectorAll("math, pre, code"), node => [node, node.style.display]);
  hidden.forEach(([node]) => node.style.setProperty("display", "none", "important"));
  const text = document.body.innerText;
  hidden.forEach(([node, display]) => { node.style.display = display; });
  return text;
}"""

LOOK_JS = """() => {
  const style = getComputedStyle(document.body);
  return Object.fromEntries(["background-color", "color", "font-size", "display", "padding", "border-style"]
    .map(name => [name, style.getPropertyValue(name)]));
}"""

# How far the page scrolls sideways, and the innermost elements that stick out.
OVERFLOW_JS = """() => {
  %s
  const width = document.documentElement.clientWidth;
  const over = document.documentElement.scrollWidth - width;
  const wide = over <= 0 ? [] : Array.from(document.querySelectorAll("body *"))
    .filter(node => node.getBoundingClientRect().right > width + 1 && node.checkVisibility())
    .filter((node, _, all) => !all.some(other => other !== node && node.contains(other)));
  return [over, wide.slice(0, 3).map(describe)];
}""" % DESCRIBE_JS


@dataclass
class Link:
    url: str
    text: str
    kind: str


@dataclass
class Visit:
    loaded: str = ""  # empty when it loaded; else what a reader got instead
    heading: str = ""
    ids: set[str] = field(default_factory=set)
    links: list[Link] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    formulas: list[tuple[float, float, str]] = field(default_factory=list)  # width, height, what it says
    text: str = ""  # what a reader sees, less formulas and code
    overflow: tuple[int, list[str]] = (0, [])  # px it scrolls sideways at 375 px, and what sticks out
    look: dict[str, str] = field(default_factory=dict)  # the body's colours, size, box: the same on every page


@dataclass
class Crawl:
    root: str
    site: Path
    visits: dict[str, Visit]  # by path relative to the root
    fetch: Callable[[str], int] | None = None  # a file that is not a page, over http: its status

    def relative(self, url: str) -> str | None:
        url = urldefrag(url).url.split("?", 1)[0]
        return unquote(url[len(self.root):]) if url.startswith(self.root) else None


def open_page(page, crawl: Crawl, rel: str) -> Visit:
    page.errors, page.requests, page.failed = [], [], []
    visit = Visit()
    try:
        response = page.goto(crawl.root + rel, wait_until="load")
    except Exception as error:  # playwright's Error: the address does not open at all
        missing = crawl.root.startswith("file:") and not (crawl.site / rel).is_file()
        visit.loaded = "a missing file" if missing else str(error).splitlines()[0]
        return visit
    if response is None or (response.status and not response.ok):
        visit.loaded = f"HTTP {response.status}" if response else "nothing"
    elif not page.evaluate(STYLED_JS):
        visit.loaded = "a page without the site's style (style.css did not load)"
    if rel == "index.html":  # a reader searching: lunr and the index load too
        search_for(page, "learning")
    visit.heading = page.evaluate("() => (document.querySelector('h1') || {}).innerText || ''")
    if not visit.heading and not visit.loaded:
        visit.loaded = "a page without a heading"
    visit.ids = set(page.evaluate("() => Array.from(document.querySelectorAll('[id]'), n => n.id)"))
    visit.links = [Link(**link) for link in page.evaluate(LINKS_JS)]
    visit.formulas = [tuple(box) for box in page.evaluate(BOXES_JS)]
    visit.text = page.evaluate(TEXT_JS)
    visit.overflow = tuple(page.evaluate(OVERFLOW_JS))
    visit.look = page.evaluate(LOOK_JS)
    visit.errors, visit.failed, visit.requests = page.errors, page.failed, page.requests
    return visit


def crawl_site(page, crawl: Crawl, opens: Callable[[str], bool] = lambda rel: True) -> None:
    """Open every page reachable from index.html that ``opens`` picks (by default all of them).
    A link to a page left closed is still checked by ``problem``: the file is there, or the server says 200."""
    todo = ["index.html"]
    while todo:
        rel = todo.pop()
        if rel in crawl.visits or not opens(rel):
            continue
        visit = crawl.visits[rel] = open_page(page, crawl, rel)
        for link in visit.links:
            target = crawl.relative(link.url)
            if target is not None and target.endswith(".html") and target not in crawl.visits:
                todo.append(target)


@contextlib.contextmanager
def crawl_of(browser, site: Path, root: str, opens: Callable[[str], bool] = lambda rel: True) -> Iterator[Crawl]:
    """The pages of ``site`` a reader can reach from index.html (those ``opens`` picks), opened from
    ``root`` at 375 px."""
    context = browser.new_context(viewport=PHONE)
    page = watch(context.new_page())
    # Files that are not pages (proceedings.bib, papers.json…), and pages left closed, are checked, not opened.
    crawl = Crawl(root, site, {}, fetch=functools.cache(lambda url: context.request.get(url).status))
    crawl_site(page, crawl, opens)
    if root.startswith("http"):  # linked from nowhere; its root-absolute links work from a server root only
        crawl.visits["404.html"] = open_page(page, crawl, "404.html")
    try:
        yield crawl
    finally:
        context.close()


def problem(crawl: Crawl, link: Link) -> str:
    """What a reader gets by following the link; empty when it is fine."""
    target = crawl.relative(link.url)
    if target is None:
        if link.url.startswith("file:"):
            return f"{link.url}, outside the site"
        return ""  # a link to another web site: not ours to check
    fragment = urldefrag(link.url).fragment
    if target in crawl.visits:
        visit = crawl.visits[target]
        if visit.loaded:
            return visit.loaded
        if fragment and unquote(fragment) not in visit.ids:
            return f"a page without the #{fragment} it points at"
        return ""
    if crawl.root.startswith("file:"):
        return "" if (crawl.site / target).is_file() else "a missing file"
    status = crawl.fetch(urldefrag(link.url).url)
    return "" if status == 200 else f"HTTP {status}"


@pytest.fixture(scope="session", params=["file", "http"])
def crawled(request, browser, search_site) -> Iterator[Crawl]:
    """The seed site's crawl, from file:// and over http."""
    root = search_site.as_uri() + "/" if request.param == "file" else request.getfixturevalue("http_root")
    with crawl_of(browser, search_site, root) as crawl:
        yield crawl
