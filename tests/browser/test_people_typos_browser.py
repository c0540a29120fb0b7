"""Readers look papers up by their authors, and mistype words: both find the paper, from file:// (issue 38).

A site built from venues' own files (a PMLR .bib, an ISMIR Mini-Conf CSV with affiliations, a Japanese
programme CSV, a hand-written .bib with accented names): ten surnames (one Japanese, one an affiliation,
two typed without their accents) and ten one-letter typos of title words (a letter dropped, changed,
added or two swapped, the first letter too) each find their paper. A typo's results say what was asked
instead, and each result shows its authors.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cjk_fixtures import built
from .helpers import TIMEOUT

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SOURCES = [FIXTURES / "venues" / "colt-2024-theory.bib", FIXTURES / "venues" / "ismir-2024-papers.csv",
           FIXTURES / "search" / "nlp2024-ja.csv", FIXTURES / "search" / "pmlr-people.bib"]

# (what a reader types, the start of the title it must find, the author line's start)
SURNAMES = [
    ("Srebro", "Uniform Convergence of Interpolators", "Nathan Srebro"),
    ("Roth", "Differentially Private Selection", "Aaron Roth"),
    ("Queen Mary", "Hubness Reduction Improves", "Arthur Flexer"),  # an affiliation
    ("高村", "文書要約のための事前学習言語モデルの評価", "高村 大也"),
    ("Telgarsky", "Feature Learning in Two-Layer Networks", "Matus Telgarsky"),
    ("Szepesvari", "A Lower Bound for Linear Bandits", "Tor Lattimore"),  # Szepesvári, typed without accent
    ("Hogsgaard", "Differentially Private Selection", "Aaron Roth"),  # Høgsgaard
    ("Diakonikolas", "Robustly Learning Mixtures of Gaussians", "Ilias Diakonikolas"),
    ("Flexer", "Hubness Reduction Improves", "Arthur Flexer"),
    ("Mackey", "Kernel Thinning for Nonparametric", "Luísa Mendes"),
]
# (typo, the title word it stands for, the start of the title it must find)
TYPOS = [
    ("agnostc", "agnostic", "Optimal Sample Complexity of Agnostic"),
    ("halfspcaes", "halfspaces", "Optimal Sample Complexity of Agnostic"),
    ("multicalibratd", "multicalibrated", "Multicalibrated Predictors"),
    ("tablatre", "tablature", "A Dataset of Guitar Tablature"),
    ("interpolatrs", "interpolators", "Uniform Convergence of Interpolators"),
    ("covarance", "covariance", "Sharp Estimation of Sparse Covariance"),
    ("abstension", "abstention", "Rademacher Complexity Bounds"),
    ("thresholsd", "thresholds", "Private Learning of Thresholds"),
    ("hubnes", "hubness", "Hubness Reduction Improves"),
    ("ademacher", "rademacher", "Rademacher Complexity Bounds"),  # its first letter dropped
]


@pytest.fixture(scope="module")
def people_site(tmp_path_factory) -> Path:
    return built(tmp_path_factory.mktemp("people"), SOURCES, "title: COLT, ISMIR and NLP papers\n")


def answer(page, query: str) -> tuple[str, list[tuple[str, str]]]:
    """The status line and the results (title, author line) the dropdown shows for ``query``, typed."""
    box = page.locator("#search-q")
    box.fill("")
    box.press_sequentially(query)
    page.wait_for_function(
        "q => { const s = document.querySelector('.search-status'); const hits = document.querySelectorAll("
        "'#search-panel .search-hit'); return s && s.textContent.includes(q) && (hits.length || "
        "s.textContent.startsWith('No papers')); }", arg=query, timeout=TIMEOUT)
    status = page.locator(".search-status").inner_text()
    hits = page.locator("#search-panel .search-hit")
    return status, [(hit.locator(".search-hit-title").inner_text(),
                     hit.locator(".search-hit-authors").inner_text() if hit.locator(".search-hit-authors").count()
                     else "") for hit in hits.all()]


def test_surnames_and_typos_find_their_papers_from_file(page, people_site):
    page.goto(people_site.as_uri() + "/index.html")
    found = 0
    missed = []
    for query, title, authors in SURNAMES:
        status, hits = answer(page, query)
        if any(t.startswith(title) and a.startswith(authors) for t, a in hits):
            found += 1
        else:
            missed.append((query, status, hits[:3]))
    for typo, meant, title in TYPOS:
        status, hits = answer(page, typo)
        if any(t.startswith(title) for t, _ in hits) and f"“{meant}”" in status and f"“{typo}”" in status:
            found += 1
        else:
            missed.append((typo, status, hits[:3]))
    assert not missed, f"{found} of 20 found; missed (query, status, first results): {missed}"
    assert not page.errors, page.errors


def test_a_typo_is_marked_and_its_word_highlighted(page, people_site):
    page.goto(people_site.as_uri() + "/index.html")
    status, hits = answer(page, "agnostc")
    assert status.startswith("No paper matches “agnostc”;") and "match “agnostic”" in status, status
    marks = page.locator("#search-panel .search-hit-title mark").all_inner_texts()
    assert marks and all(m.lower() == "agnostic" for m in marks), marks


def test_a_long_author_list_is_cut_with_et_al(page, people_site, tmp_path):
    """Three names, then "et al. (N more)"; names go in as text, never as markup."""
    csv = tmp_path / "many.csv"
    names = ["<b>Ada</b> Lovelace", "Grace Hopper", "Alan Turing", "Kurt Gödel", "Emmy Noether"]
    csv.write_text("title,authors,abstract\nSorting Networks Revisited," + "|".join(names)
                   + ",We revisit sorting networks.\n", encoding="utf-8")
    site = built(tmp_path / "many", [csv], "title: Many authors\n")
    page.goto(site.as_uri() + "/index.html")
    _, hits = answer(page, "Noether")
    assert hits == [("Sorting Networks Revisited", "<b>Ada</b> Lovelace, Grace Hopper, Alan Turing et al. (2 more)")]
    assert page.locator("#search-panel .search-hit-authors b").count() == 0
    assert not page.errors, page.errors


@pytest.fixture(scope="module")
def series(tmp_path_factory) -> Path:
    from series_fixtures import make_series
    from generator.commands.build import build
    from generator.reporter import Reporter

    root = tmp_path_factory.mktemp("people-series")
    reporter = Reporter()
    build(make_series(root), root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


@pytest.mark.parametrize("query, volumes, status", [
    ("Lovelace", {"2023", "2020"}, "2 papers match “Lovelace”."),  # one person, two volumes
    ("Muller", {"2021", "2019"}, "2 papers match “Muller”."),  # Jörg Müller, typed without the umlaut
    ("Lovelaec", {"2023", "2020"}, "No paper matches “Lovelaec”; 2 papers match “Lovelace”."),
])
def test_the_series_search_finds_a_person_in_every_volume(page, series, query, volumes, status):
    page.goto((series / "search.html").as_uri() + "?q=" + query)
    page.wait_for_function("() => document.querySelector('.search-status').textContent.endsWith('Searched 5 volumes.')",
                           timeout=TIMEOUT)
    assert page.locator(".search-status").inner_text().startswith(status)
    found = page.locator(".search-volume:has(.search-hit)").evaluate_all("nodes => nodes.map(n => n.dataset.volume)")
    assert set(found) == volumes
    lines = page.locator(".search-hit-authors").all_inner_texts()
    assert len(lines) == 2 and all(query.lower()[:5] in line.lower() or "Müller" in line for line in lines), lines
    assert not page.errors, page.errors
