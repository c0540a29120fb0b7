"""Lists that show a volume at a glance (issue 18): at 1280×900 the home, topic and author pages show at least
seven whole papers — title, authors, and a line of links (PDF, code, OpenReview, BibTeX) — and a paper's
abstract opens in place, without leaving the list (issue 29: from a small file a script loads, so that a
volume fits one contents page; without JavaScript the toggle links the paper's page). Screenshots are kept in
tests/artifacts/screenshots/ for review."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from .helpers import ARTIFACTS, DESKTOP, PHONE
from .crawl import OVERFLOW_JS

WORDS = ("Scalable Sparse Robust Adaptive Neural Graph Diffusion Transformers Bayesian Optimal Causal Federated "
         "Contrastive Equivariant Learning Inference Networks Representations Policies Bounds Models Attention "
         "Gradient Stochastic Variational Kernel Latent Generative Reinforcement Meta Structured").split()
NAMES = ("Ada Lovelace, Alan Turing, Grace Hopper, Emmy Noether, Srinivasa Ramanujan, Sofia Kovalevskaya, "
         "Claude Shannon, Barbara Liskov, John von Neumann, Katherine Johnson, Kurt Gödel, Hedy Lamarr").split(", ")

FULLY_VISIBLE_JS = """() => Array.from(document.querySelectorAll('.paper-item')).filter(item => {
  const box = item.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= innerHeight;
}).length"""


def record(number: int) -> dict:
    """A paper as a venue's JSON Lines export has it: a title of 9–12 words, 3–6 authors, PDF and code links,
    an abstract with math."""
    words = [WORDS[(number * 7 + k * 5) % len(WORDS)] for k in range(9 + number % 4)]
    authors = [NAMES[(number + k * 5) % len(NAMES)] for k in range(3 + number % 4)]
    return {"id": f"p{number}", "title": " ".join(words), "authors": authors,
            "abstract": f"We study problem {number} with $O(\\sqrt{{T}})$ regret. " * 6,
            "keywords": ["Learning theory", "Optimization"][: 1 + number % 2],
            "pdf": f"https://example.org/p{number}.pdf", "code": f"https://github.com/example/p{number}",
            "openreview": f"https://openreview.net/forum?id=abcdef{number}"}


@pytest.fixture(scope="module")
def venue_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("density")
    content = root / "content"
    content.mkdir()
    (content / "papers.jsonl").write_text("".join(json.dumps(record(n)) + "\n" for n in range(1, 41)),
                                          encoding="utf-8")
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors
    return root / "site"


@pytest.mark.parametrize("page_name", ["index.html", "tags/learning-theory.html", "authors/ada-lovelace.html"])
def test_a_list_shows_seven_papers_above_the_fold(page, venue_site, page_name):
    page.set_viewport_size(DESKTOP)
    page.goto((venue_site / page_name).as_uri())
    shown = page.evaluate(FULLY_VISIBLE_JS)
    shots = ARTIFACTS / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"list-{page_name.replace('/', '-')}.png"))
    assert shown >= 7, f"{page_name}: {shown} whole papers above the fold at 1280×900"
    first = page.locator(".paper-item").first
    assert [a.inner_text() for a in first.locator(".item-links > a").all()] == ["PDF", "Code", "OpenReview",
                                                                                 "BibTeX"]
    title = first.locator(".paper-item-title a").get_attribute("href")
    assert first.locator(".item-links > a", has_text="BibTeX").get_attribute("href") == title + "#cite-heading"
    authors = first.locator(".item-authors").inner_text().split(", ")
    assert len(authors) >= 3 and set(authors) <= set(NAMES)


def test_the_abstract_opens_in_place_from_file(page, venue_site):
    """The list carries no abstract (issue 29: a volume on one page); opening one loads the paper's block
    (assets/reading/, reading-list.js), from file:// as over http, and shows it typeset."""
    page.set_viewport_size(DESKTOP)
    page.goto((venue_site / "index.html").as_uri())
    item = page.locator(".paper-item").nth(2)
    abstract = item.locator(".item-abstract .abstract")
    assert not abstract.is_visible()
    assert item.locator(".item-links > *").first.evaluate("e => e.matches('details.item-abstract')")  # first in line
    item.locator(".item-abstract summary").click()
    page.wait_for_selector(".paper-item:nth-child(3) .item-abstract[data-loaded] math")
    assert abstract.is_visible() and page.url.endswith("index.html")
    assert abstract.locator("math").count() == 6  # the math is typeset, not half-converted text
    assert "$" not in abstract.inner_text()
    loaded = page.eval_on_selector_all("script[src*='/assets/reading/']", "tags => tags.map(t => t.src)")
    assert len(loaded) == 2 and loaded[0].endswith("/assets/reading/manifest.js"), loaded  # and the paper's block
    plain = page.locator(".paper-item").nth(0)  # an abstract without math: its plain text, as its page has it
    plain.locator(".item-abstract summary").click()
    page.wait_for_selector(".paper-item:nth-child(1) .item-abstract[data-loaded]")
    paper = page.evaluate("document.querySelector('.paper-item .paper-item-title a').href")
    text = plain.locator(".item-abstract .abstract").inner_text()
    page.goto(paper)
    assert text == page.locator("section.abstract > p").first.inner_text()
    assert not page.errors, page.errors


def test_without_javascript_no_abstract_toggle_is_shown_and_the_title_leads_to_it(browser, venue_site):
    """A toggle only a script can fill is made by the script: without it, the title leads to the paper's page."""
    context = browser.new_context(java_script_enabled=False, viewport=DESKTOP)
    page = context.new_page()
    try:
        page.goto((venue_site / "index.html").as_uri())
        item = page.locator(".paper-item").nth(2)
        assert item.locator(".item-abstract").count() == 0
        assert item.get_attribute("data-abstract") == ""
        assert "BibTeX" not in item.locator(".item-links").inner_text()  # made by script too, from the title
        item.locator(".paper-item-title a").click()
        assert page.locator("section.abstract math").count() == 6
    finally:
        context.close()


def test_a_dense_list_stays_readable_on_a_phone(page, venue_site):
    page.set_viewport_size(PHONE)
    page.goto((venue_site / "index.html").as_uri())
    page.locator(".paper-item .item-abstract summary").first.click()
    over, culprits = page.evaluate(OVERFLOW_JS)
    assert over <= 0, culprits
    size = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.item-links a')).fontSize)")
    assert size >= 13  # links stay big enough to read and tap


def pmlr_entry(number: int) -> str:
    """A paper as a PMLR volume's .bib has it: a long title, up to eight authors, a PDF, an abstract."""
    words = [WORDS[(number * 11 + k * 3) % len(WORDS)] for k in range(10 + number % 6)]
    authors = " and ".join(NAMES[(number + k * 7) % len(NAMES)] for k in range(3 + number % 6))
    return (f"@InProceedings{{p{number},\n  title = {{{' '.join(words)}}},\n  author = {{{authors}}},\n"
            f"  pages = {{{number * 10}--{number * 10 + 9}}},\n  section = {{{'main' if number > 1 else 'preface'}}},\n"
            f"  pdf = {{https://proceedings.example.org/v999/p{number}.pdf}},\n"
            f"  abstract = {{We study problem {number} and bound its regret by $O(\\sqrt{{T}})$.}}\n}}\n\n")


@pytest.fixture(scope="module")
def pmlr_site(tmp_path_factory) -> Path:
    """A volume shaped like a PMLR one: an @Proceedings entry with editors and sections, 40 papers."""
    root = tmp_path_factory.mktemp("pmlr-density")
    content = root / "content"
    content.mkdir()
    head = ("@Proceedings{V999,\n  booktitle = {Proceedings of the Thirty-Seventh Conference on Tiny Things},\n"
            "  editor = {Lovelace, Ada and Turing, Alan},\n  volume = {999},\n  year = {2024},\n"
            "  published = {2024-07-01},\n  sections = {preface=Preface|main=Contributed Papers}\n}\n\n")
    (content / "volume.bib").write_text(head + "".join(pmlr_entry(n) for n in range(1, 41)), encoding="utf-8")
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors
    return root / "site"


def test_a_pmlr_volume_shows_what_the_readme_says(page, pmlr_site):
    """The figure docs/site.md gives for a volume with sections, long titles and many authors (PMLR's): its home
    page opens with the volume's heading and its sections' index, and still shows eight (issue 29): the identity
    shares the editors' line, the header's copy of the booktitle keeps to one line, the items are tight."""
    page.set_viewport_size(DESKTOP)
    page.goto((pmlr_site / "index.html").as_uri())
    shown = page.evaluate(FULLY_VISIBLE_JS)
    page.screenshot(path=str(ARTIFACTS / "screenshots" / "list-pmlr-home.png"))
    readme = (Path(__file__).resolve().parents[2] / "docs" / "site.md").read_text(encoding="utf-8")
    assert "and eight on the first screen of a volume like PMLR's" in readme
    assert shown == 8, f"{shown} whole papers at 1280×900: make docs/site.md say so"
