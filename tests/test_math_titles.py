"""Math in titles is typeset wherever a title appears, and plain text where only text fits (issue 18).

Built end to end from a JSON Lines list whose titles carry LaTeX (tests/fixtures/math-titles/):
the paper page, the home list, previous/next links, related papers, the feed (as HTML) and the
search data (as a MathML tree, typeset by search.js) show the formula; <title>, meta tags and
papers.json hold its plain text.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

FIXTURE = Path(__file__).parent / "fixtures" / "math-titles"
MATH = '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">'


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("math-titles")
    shutil.copytree(FIXTURE, root / "content")
    reporter = Reporter()
    build(root / "content", root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


def page_of(site: Path, start: str) -> str:
    return next(site.glob(f"papers/{start}*.html")).read_text(encoding="utf-8")


def test_paper_page_heading_is_typeset_and_its_head_is_plain_text(site):
    page = page_of(site, "regret")
    heading = re.search(r'<h1 class="page-title">(.*?)</h1>', page, re.DOTALL).group(1)
    assert heading.startswith("Regret " + MATH) and "<msqrt>" in heading
    head = page.split("</head>")[0]
    assert "<math" not in head and "<title>Regret O(√(T)) for Bandits with Many Arms · Math in Titles</title>" in head
    assert 'property="og:title" content="Regret O(√(T)) for Bandits with Many Arms"' in head
    assert "$" not in head and "\\sqrt" not in head


def test_lists_previous_next_and_related_papers_typeset_it(site):
    home = (site / "index.html").read_text(encoding="utf-8")
    assert home.count(MATH) >= 3  # two titles' formulas (one has two)
    neighbour = page_of(site, "fast-sorting")
    assert re.search(r'rel="(prev|next)"[^>]*>.*?<span class="name">Regret ' + re.escape(MATH), neighbour)
    related = re.search(r'<section class="related".*?</section>', neighbour, re.DOTALL)
    assert related and MATH in related.group(0)


def test_feed_carries_the_title_as_html(site):
    feed = ElementTree.parse(site / "feed.xml").getroot()
    titles = {entry.find("{http://www.w3.org/2005/Atom}title") for entry in feed.iter("{http://www.w3.org/2005/Atom}entry")}
    math_titles = [t for t in titles if t.get("type") == "html"]
    assert len(math_titles) == 2 and all(t.text.count("<math") >= 1 for t in math_titles)
    assert all(t.text == "Fast Sorting of Large Lists" for t in titles if t.get("type") != "html")


def test_search_data_holds_the_formula_as_a_tree_and_papers_json_as_text(site):
    def block(path: Path) -> list:
        script = path.read_text(encoding="utf-8")
        return json.loads(json.loads(re.search(r"JSON\.parse\((\".*\")\)", script, re.DOTALL).group(1)))

    blocks = sorted((site / "assets" / "search").glob("d*.js"), key=lambda path: int(path.stem[1:]))
    by_url = {doc[1]: doc for path in blocks for doc in block(path)}
    regret = next(doc for url, doc in by_url.items() if "regret" in url)
    assert regret[0] == "Regret O(√(T)) for Bandits with Many Arms"
    assert regret[6][0] == "Regret " and regret[6][1][0] == "math"  # after the authors and how many more
    assert len(next(doc for url, doc in by_url.items() if "fast-sorting" in url)) == 6  # no math, no tree
    titles = {paper["title"] for paper in json.loads((site / "papers.json").read_text(encoding="utf-8"))}
    assert "Regret O(√(T)) for Bandits with Many Arms" in titles
