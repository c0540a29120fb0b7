"""The sharded index in a real browser (issue 28): a query loads the manifest, only the term shards its
words can match and the display blocks of the results shown, from file:// and over http."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from .conftest import served
from .helpers import REPO, TIMEOUT, papers, search_for

SYLLABLES = ["ka", "lo", "mi", "nu", "pe", "ra", "si", "to", "vu", "ze", "bo", "da"]
PAPERS = 300
KEYWORDS = 7  # made-up words per paper, none shared: a vocabulary big enough for several term shards


def made_up(n: int) -> str:
    word = ""
    for _ in range(4):
        word += SYLLABLES[n % len(SYLLABLES)]
        n //= len(SYLLABLES)
    return word


@pytest.fixture(scope="module")
def big_site(tmp_path_factory) -> Path:
    """300 papers (the corpus fixture's abstracts, each with words of its own), built by the real build."""
    fixture = REPO / "tests" / "fixtures" / "corpus" / "abstracts.jsonl"
    abstracts = [" ".join(json.loads(line)["abstract"].split())
                 for line in fixture.read_text(encoding="utf-8").split("\n") if line]
    listed = [f"{abstracts[n % len(abstracts)]} Keywords "
              f"{' '.join(made_up(n * KEYWORDS + k) for k in range(KEYWORDS))}." for n in range(PAPERS)]
    root = tmp_path_factory.mktemp("shards-browser")
    content = root / "content"
    content.mkdir()
    (content / "abstracts.txt").write_text("Big proceedings\n\n" + "\n\n".join(listed) + "\n", encoding="utf-8")
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


@pytest.fixture(params=["file", "http"])
def big_url(request, big_site):
    if request.param == "file":
        yield big_site.as_uri() + "/"
        return
    with served(big_site) as url:
        yield url


@pytest.fixture(autouse=True)
def no_script_errors(page):
    yield
    assert not page.errors, f"the browser reported script errors: {page.errors}"
    assert not page.failed, f"requests failed: {page.failed}"


def loaded(page, pattern: str) -> list[str]:
    """The index files the page injected (script tags under assets/search/) whose name fits."""
    sources = page.eval_on_selector_all("script[src*='/assets/search/']", "tags => tags.map(t => t.src)")
    names = [src.rsplit("/", 1)[-1] for src in sources]
    return sorted(name for name in names if re.fullmatch(pattern, name))


def test_a_query_loads_only_some_term_shards_and_finds_its_paper(page, big_url, big_site):
    shards = sorted(p.name for p in (big_site / "assets" / "search").glob("t*.js"))
    assert len(shards) >= 4, f"the site must have several term shards for this test to tell: {shards}"
    everyone = papers(big_site)
    number = 123
    word = made_up(number * KEYWORDS + 3)
    paper = next(p for p in everyone if word in p["abstract"])
    page.goto(big_url + "index.html")
    assert loaded(page, r".*") == []  # nothing of the index before a reader searches
    search_for(page, word)
    assert page.locator(".search-status").inner_text() == f"1 paper matches “{word}”."
    link = page.locator(".search-hit-title")
    assert link.count() == 1 and link.get_attribute("href") == big_url + paper["url"]
    terms = loaded(page, r"t\d+\.js")
    assert 1 <= len(terms) < len(shards), f"typing {word!r} loaded the term shards {terms} of {len(shards)}"
    blocks = loaded(page, r"d\d+\.js")
    assert len(blocks) == 1, f"one result needs one display block, not {blocks}"
    assert loaded(page, r"manifest\.js") == ["manifest.js"] and loaded(page, r"tags\.js") == []
    # Each file is loaded once, and a second query loads no file the first did.
    search_for(page, made_up(number * KEYWORDS + 4))
    assert page.locator(".search-status").inner_text().startswith("1 paper matches")
    again = page.eval_on_selector_all("script[src*='/assets/search/']", "tags => tags.map(t => t.src)")
    assert len(again) == len(set(again)), again


def test_a_topic_alone_lists_its_papers_from_the_tags_file(page, site_url, search_site):
    """An empty query with a topic: that topic's papers, found through assets/search/tags.js."""
    everyone = papers(search_site)
    tag, count = Counter(t for p in everyone for t in p["tags"]).most_common(1)[0]
    page.goto(site_url + "search.html?" + urlencode({"tag": tag}))
    status = f"{count} papers in {tag}."
    page.wait_for_function("text => document.querySelector('.search-status').textContent === text",
                           arg=status, timeout=TIMEOUT)
    titles = page.locator(".search-hit-title").all_inner_texts()
    assert sorted(titles) == sorted(p["title"] for p in everyone if tag in p["tags"])
    assert loaded(page, r"tags\.js") == ["tags.js"] and loaded(page, r"t\d+\.js") == []


def status_of(page) -> str:
    return page.locator(".search-status").inner_text()


def test_a_lone_last_letter_is_asked_for_only_when_the_reader_pauses(page, big_url):
    """Typing "word b…", the box does not ask for "word b" (the term shard of "b" alone, the largest of a
    corpus for "n") unless the reader stops on it; a pause of half a second asks for it as typed."""
    page.clock.install()
    page.goto(big_url + "index.html")
    word = made_up(5 * KEYWORDS)
    box = page.locator("#search-q")
    box.fill(word)
    page.clock.run_for(100)
    page.wait_for_function("text => document.querySelector('.search-status').textContent.includes(text)",
                           arg=f"“{word}”", timeout=TIMEOUT, polling=50)
    box.press_sequentially(" b")
    page.clock.run_for(300)  # a typist's gap between two keys: nothing asked yet
    assert f"“{word}”" in status_of(page), status_of(page)
    page.clock.run_for(300)  # a pause
    page.wait_for_function("text => document.querySelector('.search-status').textContent.includes(text)",
                           arg=f"“{word} b”", timeout=TIMEOUT, polling=50)
    box.press_sequentially("o")  # "word bo": a word again, asked for at once
    page.clock.run_for(100)
    page.wait_for_function("text => document.querySelector('.search-status').textContent.includes(text)",
                           arg=f"“{word} bo”", timeout=TIMEOUT, polling=50)


def test_the_first_results_show_while_a_later_display_block_is_on_its_way(page, browser, big_site):
    """Results are shown in rank order as their display blocks come: with every block but the first
    result's held back, the first results are listed (and no later one before them); the rest follow
    in the same order as an unhindered search, once the held blocks come."""
    query = "learning"
    with served(big_site) as url:
        page.goto(url + "index.html")
        search_for(page, query)
        page.wait_for_load_state("networkidle")  # every result's block has come
        expected = page.locator(".search-hit-title").evaluate_all("links => links.map(a => a.href)")
        blocks = loaded(page, r"d\d+\.js")
        assert len(blocks) >= 2, f"the query's results must span several display blocks to tell: {blocks}"
        first = expected[0].removeprefix(url)
        holding = [name for name in blocks
                   if f'\\"{first}\\"' in (big_site / "assets" / "search" / name).read_text(encoding="utf-8")]
        assert len(holding) == 1, holding
        held = []
        context = browser.new_context()
        try:
            def hold(route):
                if route.request.url.endswith("/" + holding[0]):
                    route.continue_()
                else:
                    held.append(route)
            context.route("**/assets/search/d*.js", hold)
            other = context.new_page()
            other.goto(url + "index.html")
            search_for(other, query)
            other.wait_for_selector("#search-panel .search-hit-title", timeout=TIMEOUT)
            early = other.locator(".search-hit-title").evaluate_all("links => links.map(a => a.href)")
            assert held, "no display block was held back: the test cannot tell"
            assert 1 <= len(early) < len(expected) and early == expected[:len(early)], (early, expected)
            for route in held:
                route.continue_()
            other.wait_for_function("n => document.querySelectorAll('.search-hit-title').length === n",
                                    arg=len(expected), timeout=TIMEOUT)
            final = other.locator(".search-hit-title").evaluate_all("links => links.map(a => a.href)")
            assert final == expected
        finally:
            context.close()
