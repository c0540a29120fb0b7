"""The search page fetches what it shows (issue 43): a query with many matches shows its first 20 results
and loads only their display blocks, tells the count of every match at once, and shows 20 more, with
their blocks, as the reader scrolls or presses "Show more results" (by keyboard too, and where the
browser has no IntersectionObserver); the same for a series' page, across its volumes."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlencode

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from .conftest import served
from .checkers import violations
from .helpers import TIMEOUT

STEP = 20  # search.js PAGE_STEP
PAPERS = 70
WORD = "quokka"  # in every paper's abstract: 70 matches, three steps and a part


def listing(n: int) -> str:
    return (f"Paper number {n} on the {WORD} counts of island {n}. Each {WORD} survey of island {n} is "
            f"compared with the last, and its counts are pooled across seasons.")


@pytest.fixture(scope="module")
def many_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("paging")
    content = root / "content"
    content.mkdir()
    (content / "abstracts.txt").write_text("Quokka proceedings\n\n" + "\n\n".join(map(listing, range(PAPERS)))
                                           + "\n", encoding="utf-8")
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


@pytest.fixture(scope="module")
def series_site(tmp_path_factory) -> Path:
    """Two volumes of 15 and 30 papers, all holding the word: 45 matches across volumes."""
    root = tmp_path_factory.mktemp("paging-series")
    content = root / "series"
    for year, count in (("2024", 15), ("2025", 30)):
        (content / year).mkdir(parents=True)
        (content / year / "abstracts.txt").write_text(
            f"Quokka {year}\n\n" + "\n\n".join(listing(n) for n in range(count)) + "\n", encoding="utf-8")
        (content / year / "proceedings.yaml").write_text(f"title: Quokka {year}\ndate: {year}-06-01\n",
                                                          encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: Quokka Series\n", encoding="utf-8")
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


@pytest.fixture(params=["file", "http"])
def many_url(request, many_site):
    if request.param == "file":
        yield many_site.as_uri() + "/"
        return
    with served(many_site) as url:
        yield url


@pytest.fixture(autouse=True)
def no_script_errors(page):
    yield
    assert not page.errors, f"the browser reported script errors: {page.errors}"
    assert not page.failed, f"requests failed: {page.failed}"


def blocks(page, folder: str = "") -> list[str]:
    """The display blocks (assets/search/d<n>.js) the page injected, under ``folder`` if given."""
    sources = page.eval_on_selector_all("script[src*='/assets/search/d']", "tags => tags.map(t => t.src)")
    return sorted(src for src in sources if re.search(r"/assets/search/d\d+\.js$", src) and folder in src)


def shown(page) -> list[str]:
    return page.eval_on_selector_all(".search-hit-title", "links => links.map(a => a.getAttribute('href'))")


def block_holds(site: Path, src: str) -> set[str]:
    """The addresses (relative to the site's root) of the papers a loaded block holds."""
    text = (site / "assets" / "search" / src.rsplit("/", 1)[-1]).read_text(encoding="utf-8")
    return set(re.findall(r'papers/[^"\\]+\.html', text))


def open_page(page, url: str, count: int) -> None:
    page.goto(url + "search.html?" + urlencode({"q": WORD}))
    page.wait_for_function("n => document.querySelectorAll('.search-hit-title').length === n", arg=STEP,
                           timeout=TIMEOUT)
    assert page.locator(".search-status").inner_text().startswith(f"{count} papers match")


def press_more(page) -> None:
    """The button pressed where it is, not scrolled to first (scrolled to, it takes the step by itself)."""
    page.eval_on_selector(".search-more-button", "button => button.click()")


def wait_for(page, count: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('.search-hit-title').length === n", arg=count,
                           timeout=TIMEOUT)


def only_shown_blocks(page, site: Path, folder: str = "") -> None:
    """Every block loaded holds a result shown: none was loaded for a result not shown."""
    hrefs = {re.sub(r"^.*?(papers/)", r"\1", href) for href in shown(page)}
    for src in blocks(page, folder):
        assert block_holds(site, src) & hrefs, f"{src} holds no result shown"


def test_the_first_screen_loads_the_blocks_of_20_results_and_tells_every_match(page, many_url, many_site):
    open_page(page, many_url, PAPERS)
    first = blocks(page)
    assert 1 <= len(first) <= STEP, first
    only_shown_blocks(page, many_site)
    assert page.locator(".search-more-button").is_visible()
    page.wait_for_timeout(300)  # nothing more comes by itself while the reader stays at the top
    assert len(shown(page)) == STEP and blocks(page) == first


def test_scrolling_shows_20_more_with_their_blocks(page, many_url, many_site):
    open_page(page, many_url, PAPERS)
    first = blocks(page)
    page.locator(".search-more-button").scroll_into_view_if_needed()
    wait_for(page, 2 * STEP)
    assert set(first) < set(blocks(page))
    only_shown_blocks(page, many_site)
    for _ in range(2):  # to the end: 70 in all, then no button
        page.locator(".search-more-button").scroll_into_view_if_needed()
        page.wait_for_function("() => document.querySelectorAll('.search-hit-title').length >= 60",
                               timeout=TIMEOUT)
    wait_for(page, PAPERS)
    assert page.locator(".search-more").is_hidden()
    assert len(set(shown(page))) == PAPERS


def test_the_button_works_by_keyboard_and_focus_goes_to_the_first_new_result(page, many_site):
    page.add_init_script("delete window.IntersectionObserver;")  # the button alone: nothing loads on scroll
    page.goto(many_site.as_uri() + "/search.html?" + urlencode({"q": WORD}))
    wait_for(page, STEP)
    button = page.locator(".search-more-button")
    button.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    assert len(shown(page)) == STEP
    button.focus()
    page.keyboard.press("Enter")
    wait_for(page, 2 * STEP)
    focused = page.evaluate("() => document.activeElement.getAttribute('href')")
    assert focused == shown(page)[STEP], "focus should go to the first of the new results"
    only_shown_blocks(page, many_site)


def test_a_new_query_starts_again_at_the_first_screen(page, many_site):
    page.goto(many_site.as_uri() + "/search.html?" + urlencode({"q": WORD}))
    wait_for(page, STEP)
    press_more(page)
    wait_for(page, 2 * STEP)
    page.fill("#search-q", "seasons island")
    page.press("#search-q", "Enter")
    page.wait_for_function("() => document.querySelector('.search-status').textContent.includes('seasons')",
                           timeout=TIMEOUT)
    wait_for(page, STEP)


def test_the_dropdown_loads_the_blocks_of_its_8_results(page, many_site):
    page.goto(many_site.as_uri() + "/index.html")
    page.locator("#search-q").press_sequentially(WORD)
    page.wait_for_function("n => document.querySelectorAll('#search-panel .search-hit-title').length === n",
                           arg=8, timeout=TIMEOUT)
    assert 1 <= len(blocks(page)) <= 8
    only_shown_blocks(page, many_site)
    assert page.locator(".search-more a").inner_text() == f"Show all {PAPERS} results"
    assert page.locator(".search-more-button").count() == 0


def test_a_series_page_steps_across_its_volumes(page, series_site):
    page.goto((series_site / "search.html").as_uri() + "?" + urlencode({"q": WORD}))
    wait_for(page, STEP)
    page.wait_for_function("() => document.querySelector('.search-status').textContent.endsWith('Searched 2 volumes.')",
                           timeout=TIMEOUT)
    assert page.locator(".search-status").inner_text().startswith("45 papers match")
    counts = page.locator(".search-volume-title .tag-count").all_inner_texts()
    assert counts == ["30", "15"], counts  # newest first, each volume's count told at once
    assert page.locator(".search-volume[data-volume='2024'] .search-hit-title").count() == 0
    assert blocks(page, "/2024/") == []  # the older volume's blocks wait for its results to be shown
    only_shown_blocks(page, series_site / "2025")
    press_more(page)
    wait_for(page, 2 * STEP)
    assert page.locator(".search-volume[data-volume='2025'] .search-hit-title").count() == 30
    assert page.locator(".search-volume[data-volume='2024'] .search-hit-title").count() == 10
    assert page.locator(".search-volume[data-volume='2025'] .search-volume-more").count() == 0
    assert page.locator(".search-volume[data-volume='2024'] .search-volume-more").count() == 1
    only_shown_blocks(page, series_site / "2024", "/2024/")
    press_more(page)
    wait_for(page, 45)
    assert page.locator(".search-more").is_hidden()


def test_axe_finds_nothing_on_a_page_of_more_results(page, many_site, axe):
    with served(many_site) as url:
        open_page(page, url, PAPERS)
        press_more(page)
        wait_for(page, 2 * STEP)
        assert violations(axe, page, "search.html, two steps") == []
