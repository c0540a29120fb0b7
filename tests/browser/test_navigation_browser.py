"""Every link on the seed site, followed in a real browser, from file:// and over http.

The crawl (crawl.py) starts at index.html and follows every a[href] and form[action]
inside the site; the first tests read what it saw. A page "loads" when it is there
(the file exists, or the server answers 200), has its heading and is styled by the
site's style.css.
"""

from __future__ import annotations

from .crawl import STYLED_JS, problem
from .helpers import TIMEOUT, html_pages, papers, search_for


def test_every_link_leads_to_a_page_that_loads(crawled):
    broken = [f"on {page} the link “{link.text}” ({link.url}) leads to {what}"
              for page, visit in crawled.visits.items() for link in visit.links
              if (what := problem(crawled, link))]
    assert len(crawled.visits) > 1, f"the crawl from {crawled.root}index.html found no page"
    assert not broken, "\n".join(broken)


def test_every_page_can_be_reached_from_the_home_page(crawled):
    unreachable = [p for p in html_pages(crawled.site) if p != "404.html" and p not in crawled.visits]
    assert not unreachable, f"no link leads a reader from index.html to {unreachable}"


def test_every_page_looks_like_the_home_page(crawled):
    """One theme: a page's body class must not pick up a component's style (a topic page is <body class="tag">)."""
    home = crawled.visits["index.html"].look
    odd = [f"{page}: {', '.join(f'{k} {v} (home: {home[k]})' for k, v in visit.look.items() if home[k] != v)}"
           for page, visit in crawled.visits.items() if visit.look and visit.look != home]
    assert not odd, "pages that do not look like the home page:\n" + "\n".join(odd)


def test_no_page_reports_a_script_error_or_a_failed_request(crawled):
    seen = [f"on {page}: {', '.join(visit.errors + visit.failed)}"
            for page, visit in crawled.visits.items() if visit.errors or visit.failed]
    assert not seen, "the browser console showed errors:\n" + "\n".join(seen)


def test_no_page_asks_anything_of_another_host(crawled):
    """A reader's browser talks to the site only: no fonts, scripts or trackers from elsewhere."""
    foreign = [f"{page} requested {url}" for page, visit in crawled.visits.items()
               for url in visit.requests if not url.startswith(crawled.root) and not url.startswith("data:")]
    assert any(url.endswith("/assets/search/manifest.js") for url in crawled.visits["index.html"].requests), \
        "searching on the home page did not load the index: the crawl did not search"
    assert not foreign, "\n".join(foreign)


def test_each_topic_link_leads_to_a_topic_page_that_lists_the_paper(crawled):
    missing = []
    for paper in papers(crawled.site):
        visit = crawled.visits[paper["url"]]
        chips = [link for link in visit.links if "tag" in link.kind.split()]
        assert sorted(c.text for c in chips) == sorted(paper["tags"]), \
            f"on {paper['url']} the topics shown are {[c.text for c in chips]}, not {paper['tags']}"
        for chip in chips:
            topic = crawled.visits[crawled.relative(chip.url)]
            listed = {crawled.relative(link.url) for link in topic.links}
            if topic.heading != chip.text or paper["url"] not in listed:
                missing.append(f"“{chip.text}” on {paper['url']} leads to “{topic.heading}”, which does not list it")
    assert not missing, "\n".join(missing)


def test_previous_and_next_walk_through_every_paper_in_order(page, site_url, search_site):
    order = [p["url"] for p in sorted(papers(search_site), key=lambda p: p["order"])]
    page.goto(site_url + order[0])
    assert page.locator(".prev-next a[rel=prev]").count() == 0, f"{order[0]} is first but offers a previous paper"
    for here, there in zip(order, order[1:]):
        page.locator(".prev-next a[rel=next]").click()
        page.wait_for_url(site_url + there, timeout=TIMEOUT)
        assert page.locator(".prev-next a[rel=prev]").get_attribute("href").endswith(here), \
            f"on {there}, “Previous” does not lead back to {here}"
    assert page.locator(".prev-next a[rel=next]").count() == 0, f"{order[-1]} is last but offers a next paper"
    page.locator(".prev-next a[rel=prev]").click()
    page.wait_for_url(site_url + order[-2], timeout=TIMEOUT)
    assert not page.errors, page.errors


def test_a_topic_chip_opens_its_topic_page(page, site_url, search_site):
    paper = papers(search_site)[0]
    page.goto(site_url + paper["url"])
    page.locator(".paper-article .tag").first.click()
    page.wait_for_load_state("load")
    assert page.locator("h1").inner_text() == paper["tags"][0], f"clicking a topic chip opened {page.url}"
    page.locator(".paper-item-title a", has_text=paper["title"][:30]).first.click()
    page.wait_for_url(site_url + paper["url"], timeout=TIMEOUT)


def test_the_404_page_looks_like_the_site_at_any_depth(page, http_root):
    """A server shows 404.html at the missing address: its root-absolute links must still work."""
    response = page.goto(http_root + "papers/2026/no-such-paper.html")
    assert response.status == 404
    page.errors.clear()  # the browser logs the 404 itself; nothing else may fail
    page.failed.clear()
    assert page.locator("h1").inner_text() == "Page not found"
    assert page.evaluate(STYLED_JS), "the 404 page is unstyled: style.css did not load at this depth"
    assert page.locator(".site-header").evaluate("node => getComputedStyle(node).borderBottomStyle") == "solid", \
        "the 404 page's header does not look like the site's"
    search_for(page, "diffusion")
    link = page.locator(".search-hit-title").first.get_attribute("href")
    assert link.startswith(http_root + "papers/"), f"a search result on the 404 page links to {link}"
    page.keyboard.press("Escape")
    page.locator("main a", has_text="browse by topic").click()
    page.wait_for_url(http_root + "tags/index.html", timeout=TIMEOUT)
    assert not page.errors and not page.failed, page.errors + page.failed
