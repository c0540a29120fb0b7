"""Paper details in a real browser: authors (affiliation, ORCID), track, award and links on paper pages,
author pages and the author index, from file:// and over http.

The site is built from realistic sources: the JSON Lines and BibTeX fixtures written the way venues
publish them (tests/fixtures/sources/), one paper with many authors, long affiliations and every kind
of link (RICH below), and, when ../shared/corpora is beside the repository, the first 100 ICLR 2020
records, which make the author index long enough to have a second page. The seed site's checks
(crawl, axe-core, the Nu HTML checker, contrast, keyboard, print) run here on the pages the seed has
none of.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from .conftest import REPO, served
from .crawl import OVERFLOW_JS, crawl_of, problem
from .helpers import DESCRIBE_JS, PHONE, html_pages, papers
from .checkers import report, violations
from .test_keyboard_browser import tab_through
from .test_layout_browser import CONTRAST_JS

SOURCES = REPO / "tests" / "fixtures" / "sources"
ICLR = REPO.parent / "shared" / "corpora" / "iclr-2020.jsonl"
ICLR_RECORDS = 100
needs_iclr = pytest.mark.skipif(not ICLR.is_file(), reason="needs ../shared/corpora (the real NeurIPS/ICLR abstracts): "
                                                           f"the ICLR 2020 papers at {ICLR}")

# A base URL without a path: 404.html's root-absolute links then work from the test server's root.
CONFIG = "title: Workshop on Details 2026\ndate: 2026-12-06\nbase_url: https://proceedings.example.org/\n"

# A paper as big conferences list them: a dozen authors from long-named institutions, a long
# track name, an award, and every link (PDF, code, OpenReview, DOI).
AFFILIATIONS = [
    "Max Planck Institute for Intelligent Systems and Eberhard Karls Universität Tübingen, "
    "Department of Computer Science",
    "Department of Electrical Engineering and Computer Sciences, University of California, Berkeley",
    "Université Paris-Saclay, CNRS, Inria, Laboratoire Interdisciplinaire des Sciences du Numérique (LISN)",
    "Rheinisch-Westfälische Technische Hochschule Aachen, Lehrstuhl für Informatik 6 (Maschinelles Lernen)",
]
NAMES = ["Maximilian Alexander von Hohenberg-Schwarzenfeld", "Aiyana Nakamura-Oyelaran", "Siddharth Venkataraman Iyer",
         "Żaneta Wróblewska-Chrzanowska", "Ada Lovelace", "Oluwaseun Adebayo-Okonkwo", "María José García-Fernández",
         "Nguyễn Thị Minh Khai", "Jean-Baptiste Delacroix-Montgolfier", "Sebastian Thrun-Whitaker",
         "Hiroshi Takahashi-Yamamoto", "Chidinma Eze", "Lars Ulrich Østergaard-Kristiansen", "Priya Raghunathan"]
# Every other author has an ORCID (made up, with valid check digits); Ada Lovelace's is the one
# papers.jsonl gives her.
ORCIDS = dict(zip(NAMES[::2], ["0000-0003-1014-0050", "0000-0003-1024-7368", "0000-0002-1825-0097",
                               "0000-0003-1034-4678", "0000-0003-1044-1988", "0000-0003-1054-8291",
                               "0000-0003-1064-550X"]))
RICH = {
    "id": "rich-1",
    "title": "Scalable Bayesian Uncertainty Quantification for Multi-Site Neuroimaging with Heterogeneous Scanners",
    "authors": [{"name": name, "affiliation": AFFILIATIONS[n % len(AFFILIATIONS)],
                 **({"orcid": ORCIDS[name]} if name in ORCIDS else {})} for n, name in enumerate(NAMES)],
    "abstract": "Multi-site neuroimaging studies pool scans from scanners that differ in field strength and protocol. "
                "We give a hierarchical Bayesian model whose posterior over site effects costs $O(n \\log n)$ and "
                "calibrates its uncertainty on held-out sites.",
    "keywords": ["uncertainty", "neuroimaging"],
    "track": "Oral session 4B: Probabilistic Methods, Uncertainty Quantification and Causal Inference",
    "award": "Outstanding Paper Award, Honourable Mention",
    "pdf": "https://openreview.net/pdf?id=Hyg-JC4FDr",
    "code": "https://github.com/neuroimaging-uncertainty-lab/scalable-bayesian-multisite-harmonisation",
    "openreview": "Hyg-JC4FDr",
    "doi": "10.1007/978-3-031-43993-3_12",
}
RICH_AUTHOR = "Ada Lovelace"  # on two papers (one in papers.jsonl), with two affiliations and an ORCID


def details_content(target: Path, config: str = CONFIG, *, iclr: int = ICLR_RECORDS) -> Path:
    target.mkdir(parents=True)
    (target / "proceedings.yaml").write_text(config, encoding="utf-8")
    for name in ("papers.jsonl", "venue.bib"):  # each has records that are skipped on purpose
        shutil.copy(SOURCES / name, target / name)
    (target / "rich.jsonl").write_text(json.dumps(RICH, ensure_ascii=False) + "\n", encoding="utf-8")
    if ICLR.is_file() and iclr:
        lines = ICLR.read_text(encoding="utf-8").splitlines()[:iclr]
        (target / "iclr-2020.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def build_details(root: Path, config: str = CONFIG, **options) -> Path:
    reporter = Reporter()
    build(details_content(root / "content", config, **options), root / "site", reporter)
    ours = [d for d in reporter.errors if str(d.path) not in ("papers.jsonl", "venue.bib")]
    assert not ours, ours  # the fixtures' broken records are reported; nothing else may be
    site = root / "site"
    # papers.jsonl's jl-2 names a PDF inside the site ("papers/jl-2.pdf"): the build links it and
    # the venue puts the file there, as a deployment would.
    (site / "papers" / "jl-2.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    return site


@pytest.fixture(scope="module")
def details_site(tmp_path_factory) -> Path:
    return build_details(tmp_path_factory.mktemp("details-browser"))


@pytest.fixture(scope="module")
def details_http(details_site):
    with served(details_site) as url:
        yield url


@pytest.fixture(params=["file", "http"])
def details_url(request, details_site) -> str:
    return details_site.as_uri() + "/" if request.param == "file" else request.getfixturevalue("details_http")


def iclr_only(site: Path, every: int) -> set[str]:
    """The pages only the ICLR records bring (their papers and authors), less every ``every``-th one."""
    iclr = {" ".join(json.loads(line)["title"].split())
            for line in ICLR.read_text(encoding="utf-8").splitlines()[:ICLR_RECORDS]} if ICLR.is_file() else set()
    ours = [p for p in papers(site) if p["title"] not in iclr]
    kept = {author["name"] for p in ours for author in p.get("authors", [])}
    index = "".join((site / p).read_text(encoding="utf-8") for p in html_pages(site) if p.startswith("authors/index"))
    authors = [url for url, name in re.findall(r'<li><a href="\.\./(authors/[^"]+)">([^<]+)</a>', index)
               if html.unescape(name) not in kept]
    iclr_papers = [p["url"] for p in papers(site) if p["title"] in iclr]
    return {url for n, url in enumerate(authors) if n % every} | {url for n, url in enumerate(iclr_papers) if n % every}


@pytest.fixture(scope="module", params=["file", "http"])
def details_crawl(request, browser, details_site):
    """Every page but most of those the ICLR records add (the same templates, 80 ms a page): each of
    their pages is still checked to be there, and one in eight is opened."""
    root = details_site.as_uri() + "/" if request.param == "file" else request.getfixturevalue("details_http")
    closed = iclr_only(details_site, every=8)
    with crawl_of(browser, details_site, root, opens=lambda rel: rel not in closed) as crawl:
        yield crawl


def rich_paper(site: Path) -> str:
    return next(p["url"] for p in papers(site) if p["title"] == RICH["title"])


def author_page(site: Path, name: str = RICH_AUTHOR) -> str:
    found = [p for p in html_pages(site) if p.startswith("authors/") and
             f'<h1 class="page-title">{name}</h1>' in (site / p).read_text(encoding="utf-8")]
    assert len(found) == 1, f"expected one author page for {name}, found {found}"
    return found[0]


def detail_pages(site: Path) -> list[str]:
    """A paper with every detail, the fullest author page, and the author index."""
    return [rich_paper(site), author_page(site), "authors/index.html"]


# The crawl ------------------------------------------------------------------------------------

def test_the_crawl_reaches_every_paper_author_and_index_page(details_crawl):
    pages = html_pages(details_crawl.site)
    authors = [p for p in pages if p.startswith("authors/") and not p.startswith("authors/index")]
    assert len(authors) > 20 and "authors/index.html" in pages
    linked = {details_crawl.relative(link.url) for visit in details_crawl.visits.values() for link in visit.links}
    unreachable = [p for p in pages if p != "404.html" and p not in details_crawl.visits and p not in linked]
    assert not unreachable, f"no link leads a reader from index.html to {unreachable}"
    opened = [p for p in details_crawl.visits if p.startswith("authors/")]
    assert rich_paper(details_crawl.site) in details_crawl.visits and len(opened) > 20, opened


def test_no_internal_link_is_broken(details_crawl):
    broken = [f"on {page} the link “{link.text}” ({link.url}) leads to {what}"
              for page, visit in details_crawl.visits.items() for link in visit.links
              if (what := problem(details_crawl, link))]
    assert not broken, "\n".join(broken)


def test_detail_links_are_links_not_requests(details_crawl):
    """ORCID, DOI, PDF, code and OpenReview are places to go, not things the page loads."""
    rich = details_crawl.visits[rich_paper(details_crawl.site)]
    external = {link.url for link in rich.links if details_crawl.relative(link.url) is None}
    for expected in (RICH["pdf"], RICH["code"], "https://openreview.net/forum?id=Hyg-JC4FDr",
                     f"https://doi.org/{RICH['doi']}", "https://orcid.org/0000-0002-1825-0097"):
        assert expected in external, f"{rich_paper(details_crawl.site)} has no link to {expected}: {sorted(external)}"
    problems = [f"on {page}: {item}" for page, visit in details_crawl.visits.items()
                for item in visit.errors + visit.failed +
                [f"requested {url}" for url in visit.requests
                 if not url.startswith(details_crawl.root) and not url.startswith("data:")]]
    assert not problems, "console errors, failed or foreign requests:\n" + "\n".join(problems)


def test_no_page_scrolls_sideways_on_a_phone(details_crawl):
    assert RICH_AUTHOR in details_crawl.visits[rich_paper(details_crawl.site)].text
    wide = [f"on {rel} at {PHONE['width']}px the page scrolls sideways by {visit.overflow[0]}px "
            f"(too wide: {visit.overflow[1]})" for rel, visit in details_crawl.visits.items() if visit.overflow[0] > 0]
    assert not wide, "\n".join(wide)


@needs_iclr
def test_the_author_index_has_a_second_page(details_crawl):
    """Past 400 names the index continues on authors/index-2.html, linked from the first page."""
    first = details_crawl.visits["authors/index.html"]
    assert "authors/index-2.html" in {details_crawl.relative(link.url) for link in first.links}
    second = details_crawl.visits["authors/index-2.html"]
    assert not second.loaded and second.heading == "Authors"


# What every reader needs -------------------------------------------------------------------------

@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation_on_detail_pages(page, details_http, details_site, axe, scheme):
    page.emulate_media(color_scheme=scheme)
    problems = []
    for rel in detail_pages(details_site):
        page.goto(details_http + rel)
        problems += violations(axe, page, f"{rel} ({scheme})")
    assert not problems, "axe-core found:\n" + "\n".join(problems)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_details_keep_their_contrast(page, details_url, details_site, scheme):
    """The award pill, the track and the affiliations included: each must be on screen to count."""
    page.emulate_media(color_scheme=scheme)
    problems = []
    for rel in detail_pages(details_site):
        page.goto(details_url + rel)
        problems += [f"on {rel} in {scheme} mode, {text} is {fg} on {bg}: contrast {ratio}, below {need}"
                     for text, fg, bg, ratio, need in page.evaluate(CONTRAST_JS)]
        if rel == rich_paper(details_site):
            for selector in (".paper-facts .award", ".paper-facts .track", ".authors .affiliation"):
                assert page.locator(selector).first.is_visible(), f"{selector} is not shown on {rel}"
    assert not problems, "text too faint to read:\n" + "\n".join(problems)


def test_every_page_is_valid_html(vnu, details_site):
    pages = [details_site / p for p in html_pages(details_site)]
    messages = [m for m in vnu(pages, "--errors-only") if m["type"] in ("error", "non-document-error")]
    assert not messages, "the Nu HTML checker found:\n" + "\n".join(report(messages, details_site))


def test_a_paper_with_many_authors_fits_a_phone(page, details_url, details_site):
    page.set_viewport_size(PHONE)
    page.goto(details_url + rich_paper(details_site))
    over, culprits = page.evaluate(OVERFLOW_JS)
    assert over <= 0, f"at {PHONE['width']}px the paper scrolls sideways by {over}px (too wide: {culprits})"
    assert page.locator(".authors li").count() == len(NAMES)
    assert page.locator(".paper-links a").count() == 4


# Keyboard and print ----------------------------------------------------------------------------

LINKS_JS = """selector => { %s; return Array.from(document.querySelectorAll(selector), describe); }""" % DESCRIBE_JS


@pytest.mark.parametrize("which", ["paper", "author"])
def test_tab_reaches_every_author_and_detail_link_with_visible_focus(page, details_url, details_site, which):
    rel, selector = ((rich_paper(details_site), ".authors a, .paper-links a") if which == "paper"
                     else (author_page(details_site), ".orcid a, .kicker a, .paper-item-title a"))
    page.goto(details_url + rel)
    wanted = page.evaluate(LINKS_JS, selector)
    stops = tab_through(page)
    missed = Counter(wanted) - Counter(stop["what"] for stop in stops)  # seven links say “ORCID”
    assert len(wanted) >= 4 and not missed, f"on {rel} Tab never reaches {sorted(missed.elements())}"
    hidden = [f"{stop['what']} ({'no focus outline' if not stop['visible'] else 'off the screen'})"
              for stop in stops if not (stop["visible"] and stop["onScreen"])]
    assert not hidden, f"on {rel} focus cannot be seen on: {hidden}"


def test_print_keeps_the_authors_and_says_where_links_go(page, details_url, details_site):
    """On paper a link is only what it says: each external one prints its address (a DOI its own
    identifier), and the BibTeX, with every author, wraps instead of being cut off."""
    rel = rich_paper(details_site)
    page.goto(details_url + rel)
    page.emulate_media(media="print")
    for selector in (".authors", ".authors .affiliation", ".paper-facts .award", ".paper-links", ".bibtex"):
        assert page.locator(selector).first.is_visible(), f"printing {rel} leaves out {selector}"
    printed = page.evaluate("""() => Array.from(document.querySelectorAll(".paper-links a, .authors a.orcid"),
        a => [a.innerText, a.href, getComputedStyle(a, "::after").content])""")
    unsaid = [f"“{text}” ({href}) prints as {after}" for text, href, after in printed
              if href not in after and urlsplit(href).path.strip("/") not in text]
    assert len(printed) == 4 + len(ORCIDS) and not unsaid, \
        f"on paper, {rel}'s links do not say where they go:\n" + "\n".join(unsaid)
    cut = page.evaluate("""() => Array.from(document.querySelectorAll("main *"))
        .filter(node => node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).overflowX !== "visible")
        .map(node => node.className || node.tagName)""")
    assert not cut, f"printed, {rel} cuts off the right of {cut}"
    over, culprits = page.evaluate(OVERFLOW_JS)
    assert over <= 0, f"printed, {rel} is wider than the page by {over}px: {culprits}"


# The Chinese interface ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def chinese_details(tmp_path_factory) -> Path:
    return build_details(tmp_path_factory.mktemp("details-zh"), CONFIG + "language: zh-CN\n", iclr=0)


def test_chinese_interface_names_the_authors_作者(page, chinese_details):
    page.goto(chinese_details.as_uri() + "/" + rich_paper(chinese_details))
    assert "作者" in page.locator(".site-nav a").all_inner_texts()
    assert page.locator("ul.authors").get_attribute("aria-label") == "作者"
    page.locator(".site-nav a", has_text="作者").click()
    page.wait_for_load_state("load")
    assert page.url.endswith("authors/index.html")
    assert page.locator("h1").inner_text() == "作者"
    assert page.locator(".count").inner_text().endswith("位作者")
    page.goto(chinese_details.as_uri() + "/" + author_page(chinese_details))
    assert page.locator(".kicker a").inner_text() == "作者"
    assert not page.errors and not page.failed, page.errors + page.failed
