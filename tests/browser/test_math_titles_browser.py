"""A title with math is typeset in search results, built by search.js as MathML elements (issue 18)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from .helpers import TIMEOUT, search_for

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "math-titles"


@pytest.fixture(scope="module")
def math_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("math-titles-browser")
    shutil.copytree(FIXTURE, root / "content")
    reporter = Reporter()
    build(root / "content", root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


def test_search_results_typeset_math_in_titles(page, math_site):
    page.goto((math_site / "index.html").as_uri())
    search_for(page, "bandits")
    page.wait_for_selector("#search-panel .search-hit-title math", timeout=TIMEOUT)
    hits = page.evaluate("""() => [...document.querySelectorAll('#search-panel .search-hit-title')].map(a => ({
        text: a.textContent, href: a.getAttribute('href'),
        math: [...a.querySelectorAll('math')].map(m => ({ns: m.namespaceURI, w: m.getBoundingClientRect().width,
                                                        h: m.getBoundingClientRect().height,
                                                        roots: m.querySelectorAll('msqrt').length})),
        marks: [...a.querySelectorAll('mark')].map(m => m.textContent)}))""")
    regret = next(hit for hit in hits if "Regret" in hit["text"])
    assert [m["ns"] for m in regret["math"]] == ["http://www.w3.org/1998/Math/MathML"]
    assert regret["math"][0]["w"] > 10 and regret["math"][0]["h"] > 10 and regret["math"][0]["roots"] == 1
    assert regret["marks"] == ["Bandits"], "words outside the formula are still marked"
    assert "$" not in regret["text"] and "\\" not in regret["text"]
    plain = next(hit for hit in hits if "Sorting" in hit["text"])
    assert plain["math"] == []
    assert not page.errors, page.errors
