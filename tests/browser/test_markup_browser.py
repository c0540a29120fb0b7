"""Markup as a phone reader sees it (issue 38): a wide formula scrolls in its own box, never the page;
HTML an abstract may carry is drawn, not shown as tags; no tie, no error box in a sentence.

The site is built from a small PMLR-shaped .bib (tests/test_markup.py: ``PMLR_BIB``) whose
abstracts hold a display formula and an inline formula several times wider than a 390 px screen.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter
from test_markup import PMLR_BIB

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def markup_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("markup-browser")
    content = root / "content"
    content.mkdir()
    (content / "colt-2024.bib").write_text(PMLR_BIB, encoding="utf-8")
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


def paper(site: Path, slug_part: str) -> str:
    found = [page for page in (site / "papers").glob("*.html") if slug_part in page.name]
    assert len(found) == 1, found
    return found[0].as_uri()


@pytest.mark.parametrize("slug_part", ["wide-formulas", "html-in-an-abstract"])
def test_a_wide_formula_scrolls_in_its_own_box_at_390_px(page, markup_site, slug_part):
    page.set_viewport_size(PHONE)
    page.goto(paper(markup_site, slug_part))
    # (kind, width of the formula itself, right edge of the box it scrolls in)
    widths = page.evaluate("""() => Array.from(document.querySelectorAll(".abstract math")).map(m => {
        const box = m.closest(".math-wide") || m;
        return [m.getAttribute("display") || "inline", m.scrollWidth, box.getBoundingClientRect().right]; })""")
    if slug_part == "wide-formulas":
        # the formulas really are wider than the screen: the test would fail without the scrolling box
        assert any(kind == "block" and inner > PHONE["width"] for kind, inner, _ in widths), widths
        assert any(kind == "inline" and inner > PHONE["width"] for kind, inner, _ in widths), widths
    assert all(right <= PHONE["width"] for _, _, right in widths), widths
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not page.errors, page.errors


def test_the_html_subset_is_drawn_and_nothing_is_shown_as_markup(page, markup_site):
    page.set_viewport_size(PHONE)
    page.goto(paper(markup_site, "html-in-an-abstract"))
    abstract = page.locator(".abstract")
    assert abstract.locator("em").first.inner_text() == "Optimal Transport Markov"
    assert abstract.locator("ul > li").count() == 2
    text = page.evaluate("""() => { const copy = document.querySelector(".abstract").cloneNode(true);
        copy.querySelectorAll("math").forEach(m => m.remove());  // \\tilde's accent is a ~ drawn over its letter
        document.body.append(copy); const text = copy.innerText; copy.remove(); return text; }""")
    for shown in ("<em>", "</li>", "<ul>", "~", "\\", "$"):
        assert shown not in text, (shown, text)
    assert "Tseng 1995" in text and "\\effdim" not in abstract.inner_text()
    assert page.locator(".abstract .tex-error").count() == 0
    assert page.locator(".abstract script").count() == 0 and "<script>" in text  # a tag outside the subset
