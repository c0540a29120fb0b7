"""Search as a reader uses it, in a real browser, on the real built site.

Both from file:// and over http; over http the site is served with
Content-Security-Policy: script-src 'self', so an inline script or handler
would show up as a script error, which every test checks for.
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urlencode

import pytest

from .helpers import TIMEOUT, papers, search_for


def distinctive_title_word(paper: dict, everyone: list[dict]) -> str:
    """The title word that the fewest papers mention: the one a reader would type."""
    counts = Counter(w for p in everyone
                     for w in set(re.findall(r"[a-z]{4,}", (p["title"] + " " + p["abstract"]).lower())))
    return min(re.findall(r"[A-Za-z]{4,}", paper["title"]), key=lambda w: (counts[w.lower()], -len(w)))


def shown(page) -> str:
    """What the reader sees of the search: the status line and the result titles."""
    status = page.locator(".search-status").first.inner_text() if page.locator(".search-status").count() else ""
    titles = page.locator(".search-hit-title").all_inner_texts()
    return f"status {status!r}, results {titles}"


@pytest.fixture(autouse=True)
def no_script_errors(page):
    yield
    assert not page.errors, f"the browser reported script errors: {page.errors}"


def test_each_paper_is_found_by_a_word_of_its_title(page, site_url, search_site):
    everyone = papers(search_site)
    page.goto(site_url + "index.html")
    for paper in everyone:
        word = distinctive_title_word(paper, everyone)
        search_for(page, word)
        titles = page.locator(".search-hit-title").all_inner_texts()
        assert paper["title"] in titles, f"typing {word!r} on the home page, a reader saw {shown(page)}"
        link = page.locator(".search-hit-title", has_text=paper["title"]).first
        assert link.get_attribute("href") == site_url + paper["url"]


def test_index_loads_only_when_a_reader_starts_searching(page, site_url):
    requested = []
    page.on("request", lambda request: requested.append(request.url.rsplit("/", 1)[-1]))
    page.goto(site_url + "index.html")
    page.wait_for_load_state("load")
    assert "search.js" in requested
    assert not {"lunr.js", "search-shards.js", "search-hits.js", "manifest.js"} & set(requested), requested
    assert not [name for name in requested if re.fullmatch(r"(t|d)\d+\.js|tags\.js", name)], requested
    page.locator("#search-q").focus()
    # A function, not an expression: Playwright evals an expression, which the CSP refuses.
    page.wait_for_function("() => typeof lunr !== 'undefined' && "
                           "document.querySelectorAll('#search-tag option').length > 1", timeout=TIMEOUT)
    assert "manifest.js" in requested and "search-shards.js" in requested and "search-hits.js" in requested


def test_the_panel_is_made_by_search_js_in_the_volumes_words(page, site_url, search_site):
    """Not written in every page (issue 29): the page has the form alone, search.js adds the panel."""
    html = (search_site / "index.html").read_text(encoding="utf-8")
    assert "search-panel" not in html and "aria-controls" not in html.split("</form>")[0]
    page.goto(site_url + "index.html")
    page.wait_for_function("() => document.querySelector('#search-panel') !== null", timeout=TIMEOUT)
    assert page.locator("#search-q").get_attribute("aria-controls") == "search-panel"
    assert page.locator("#search-tag option").first.inner_text() == "All topics"
    assert page.locator("label[for='search-tag']").inner_text() == "Topic"
    assert page.locator("#search-tag").get_attribute("form") == "search-form"


def test_keyboard_slash_arrows_and_enter(page, site_url, search_site):
    page.goto(site_url + "index.html")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "search-q", "pressing / did not focus the search box"
    page.keyboard.type("learning")
    page.wait_for_selector(".search-hit-title", timeout=TIMEOUT)
    first, second = page.locator(".search-hit-title").all()[:2]
    page.keyboard.press("ArrowDown")
    assert first.evaluate("node => node === document.activeElement"), \
        f"ArrowDown did not reach the first result; {shown(page)}"
    outline = first.evaluate("node => getComputedStyle(node).outlineStyle")
    assert outline != "none", "the focused result has no visible focus outline"
    page.keyboard.press("ArrowDown")
    assert second.evaluate("node => node === document.activeElement")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.id") == "search-q", \
        "ArrowUp from the first result did not return to the box"
    page.keyboard.press("ArrowDown")
    target = first.get_attribute("href")
    page.keyboard.press("Enter")
    page.wait_for_url(target, timeout=TIMEOUT)


def test_a_query_without_results_says_so(page, site_url):
    page.goto(site_url + "index.html")
    search_for(page, "qwzxv")
    assert page.locator(".search-status").inner_text() == "No papers match “qwzxv”."
    assert page.locator(".search-hit").count() == 0


def test_matched_words_are_highlighted(page, site_url):
    page.goto(site_url + "index.html")
    search_for(page, "diffusion")
    marks = {m.lower() for m in page.locator(".search-hit mark").all_inner_texts()}
    assert marks and all(m.startswith("diffusion") for m in marks), f"highlighted {marks}; {shown(page)}"


def test_query_in_the_address_restores_the_search(page, site_url):
    page.goto(site_url + "search.html?q=diffusion")
    page.wait_for_selector(".search-page-results .search-hit-title", timeout=TIMEOUT)
    assert page.locator("#search-q").input_value() == "diffusion"
    assert page.locator(".search-page-results .search-hit").count() >= 1, shown(page)


def test_tag_filter_keeps_only_that_topic(page, site_url, search_site):
    everyone = papers(search_site)
    tag = Counter(t for p in everyone for t in p["tags"]).most_common(1)[0][0]
    page.goto(site_url + "search.html?q=learning")
    page.wait_for_selector(".search-hit-title", timeout=TIMEOUT)
    tagged = {p["title"] for p in everyone if tag in p["tags"]}
    expected = [t for t in page.locator(".search-hit-title").all_inner_texts() if t in tagged]
    # Every paper's tags are loaded only when a topic is chosen.
    assert not [url for url in page.requests if url.endswith("/assets/search/tags.js")], page.requests
    page.select_option("#search-tag", tag)
    page.wait_for_function("tag => document.querySelector('.search-status').textContent.includes(tag)",
                           arg=tag, timeout=TIMEOUT)
    hits = page.locator(".search-hit").all()
    assert hits, shown(page)
    for hit in hits:
        assert tag in hit.locator(".tag").all_inner_texts(), f"filtering by {tag!r} showed {shown(page)}"
    assert page.locator(".search-hit-title").all_inner_texts() == expected, \
        f"filtering “learning” by {tag!r} should leave {expected}; a reader saw {shown(page)}"
    assert "tag=" in page.url, "the topic is not kept in the address"
    assert [url for url in page.requests if url.endswith("/assets/search/tags.js")], page.requests


def test_a_topic_in_the_address_is_restored_with_the_query(page, site_url, search_site):
    tag = Counter(t for p in papers(search_site) for t in p["tags"]).most_common(1)[0][0]
    page.goto(site_url + "search.html?" + urlencode({"q": "learning", "tag": tag}))
    page.wait_for_function("tag => document.querySelector('.search-status').textContent.includes(tag)",
                           arg=tag, timeout=TIMEOUT)
    assert page.locator("#search-tag").input_value() == tag
    assert "tag=" in page.url, "restoring the search dropped the topic from the address"


def test_search_works_from_a_paper_page(page, site_url, search_site):
    """Paper pages sit one folder down: result links must still resolve."""
    everyone = papers(search_site)
    page.goto(site_url + everyone[0]["url"])
    word = distinctive_title_word(everyone[-1], everyone)
    search_for(page, word)
    link = page.locator(".search-hit-title", has_text=everyone[-1]["title"]).first
    link.click()
    page.wait_for_url(site_url + everyone[-1]["url"], timeout=TIMEOUT)


def test_escape_or_a_click_elsewhere_closes_the_results(page, site_url):
    page.goto(site_url + "index.html")
    search_for(page, "learning")
    panel = page.locator("#search-panel")
    page.keyboard.press("Escape")
    assert panel.is_hidden(), "Escape left the results open"
    page.locator("#search-q").press_sequentially(" model")
    panel.wait_for(state="visible", timeout=TIMEOUT)
    # The answer to the whole query (Escape emptied the box), not to one typed on the way ("mo"), which
    # would open the results again after the click.
    page.wait_for_function("() => document.querySelector('.search-status').textContent.includes('“model”')",
                           timeout=TIMEOUT)
    page.mouse.click(5, 400)
    assert panel.is_hidden(), "a click on the page left the results open"


# LaTeX-ish queries: what a reader copies out of a paper. The index holds the text of the
# rendered formulas (𝒪(N) folds to O(N)), so a query in LaTeX must find what its text finds.
LATEX_QUERIES = [
    ("SE(3)", "Drift-React"), ("$SE(3)$", "Drift-React"), ("O(V)", "EntropyCache"),
    ("$O(V)$", "EntropyCache"), ("O(N)", "Energy-Guided"), (r"\mathcal{O}(N)", "Energy-Guided"),
    (r"\(O(N)\)", "Energy-Guided"), ("(2+ε)-approximation", "Dynamic setting"),
    (r"(2+\epsilon)-approximation", "Dynamic setting"),
    # No title promised, only an answer: a count or "No papers match", never a failure.
    ("epsilon", None), (r"\epsilon", None), ("ε", None), ("O(N", None), (r"\frac{1}{2}", None), ("$$", None),
]


def test_latex_like_queries_find_what_their_text_finds(page, site_url):
    page.goto(site_url + "index.html")
    wrong = []
    for query, title in LATEX_QUERIES:
        search_for(page, query)
        status = page.locator(".search-status").inner_text()
        titles = page.locator(".search-hit-title").all_inner_texts()
        if not re.fullmatch(r"(No papers match|1 paper matches|\d+ papers match) “.*”\.", status):
            wrong.append(f"typing {query!r}, a reader saw {status!r}")
        elif title and not (titles and titles[0].startswith(title)):
            wrong.append(f"typing {query!r}, a reader saw {shown(page)}, not “{title}…” first")
    assert not wrong, "\n".join(wrong)
    search_for(page, "$SE(3)$")
    marks = page.locator(".search-hit mark").all_inner_texts()
    assert {"SE", "3"} <= set(marks), f"“SE(3)” is not highlighted (marks: {marks}); {shown(page)}"


def test_results_lead_to_the_paper_they_name(page, site_url, search_site):
    paper = papers(search_site)[len(papers(search_site)) // 2]
    page.goto(site_url + "search.html?q=" + distinctive_title_word(paper, papers(search_site)))
    page.locator(".search-hit-title", has_text=paper["title"]).first.click()
    page.wait_for_url(site_url + paper["url"], timeout=TIMEOUT)
    assert page.locator("h1").inner_text() == paper["title"], f"the result for {paper['title']!r} opened {page.url}"
