"""Search across the volumes of an archive, in Chromium, from file:// (issues 21 and 28).

The archive has one index of its own, over every volume's papers (generator/search/series.py): a
query loads its manifest and the term shards its words need, never a volume's term shards; a volume's
manifest and display blocks load only for the results of that volume shown."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from .helpers import TIMEOUT

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from series_fixtures import make_series  # noqa: E402


@pytest.fixture(scope="module")
def series_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("archive-browser")
    reporter = Reporter()
    build(make_series(root), root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


@pytest.fixture(autouse=True)
def no_script_errors(page):
    yield
    assert not page.errors, f"the browser reported script errors: {page.errors}"
    assert not page.failed, f"requests failed: {page.failed}"


def indexes_loaded(page) -> list[str]:
    """The folders whose index's manifest the page loaded ("site": the archive's own)."""
    return sorted(url.split("/")[-4] for url in page.requests if url.endswith("/assets/search/manifest.js"))


def volume_term_shards(page) -> list[str]:
    return [url for url in page.requests if "/site/assets/search/" not in url and "/assets/search/t" in url]


def wait_done(page, volumes: int) -> str:
    status = page.locator(".search-status")
    page.wait_for_function("text => document.querySelector('.search-status').textContent.endsWith(text)",
                           arg=f"Searched {volumes} volume{'s' if volumes > 1 else ''}.", timeout=TIMEOUT)
    return status.inner_text()


def test_a_query_finds_papers_in_several_volumes(page, series_site):
    page.goto((series_site / "index.html").as_uri())
    assert indexes_loaded(page) == []  # the home page loads no index
    page.fill("#search-q", "sparse")
    page.press("#search-q", "Enter")  # the header's box goes to the search page
    page.wait_for_url("**/search.html?q=sparse")
    text = wait_done(page, 5)
    sections = page.locator(".search-page-results .search-volume:has(.search-hit)")
    volumes = sections.evaluate_all("nodes => nodes.map(n => n.dataset.volume)")
    assert "2023" in volumes and "2019" in volumes, (text, volumes)
    assert volumes == sorted(volumes, key=["2023", "2021", "2022", "2020", "2019"].index)  # newest first
    titles = page.locator(".search-hit-title").all_inner_texts()
    assert "Sparse Kernels for Quasar Spectra" in titles and "Sparse Attention, Revisited" in titles
    # The archive's index, and the manifest of each volume whose results are shown; no volume's terms.
    assert sorted(set(indexes_loaded(page))) == sorted({"site", *volumes}), volumes
    assert volume_term_shards(page) == []
    # A result opens the paper's page in its volume.
    page.locator(".search-hit-title", has_text="Sparse Kernels for Quasar Spectra").click()
    page.wait_for_url("**/2023/papers/*.html")
    assert "Sparse Kernels for Quasar Spectra" in page.locator("h1").inner_text()


def test_the_volume_filter_loads_only_that_volume(page, series_site):
    page.goto((series_site / "search.html").as_uri() + "?q=zeppelinoid&volume=2023")
    text = wait_done(page, 1)
    assert text.startswith("1 paper matches “zeppelinoid”."), text
    assert page.locator(".search-hit-title").all_inner_texts() == ["Initials in Author Lists"]
    assert indexes_loaded(page) == ["2023", "site"]
    # Another volume without a match for it loads nothing of that volume.
    page.select_option("#search-volume", "2019")
    page.wait_for_function("text => document.querySelector('.search-status').textContent.startsWith(text)",
                           arg="No papers match", timeout=TIMEOUT)
    assert indexes_loaded(page) == ["2023", "site"] and volume_term_shards(page) == []


def test_a_volume_page_links_to_the_series_and_its_search(page, series_site):
    page.goto((series_site / "2020" / "index.html").as_uri())
    page.click("a.series-title")
    page.wait_for_url("**/site/index.html")
    assert page.locator("h1").inner_text() == "Tiny Things Series"
    page.goto((series_site / "2020" / "index.html").as_uri())
    page.click("text=Search all volumes")
    page.wait_for_url("**/site/search.html")
    page.fill("#search-q", "quasar")
    wait_done(page, 5)
    assert page.locator(".search-hit-title").all_inner_texts() == ["Sparse Kernels for Quasar Spectra"]


def test_a_volumes_list_opens_an_abstract_from_its_own_block(page, series_site):
    """In a series the reading list's key is "<volume>/<slug>": a volume's toggle loads that volume's block
    (assets/reading/ under its folder, issue 29) and its BibTeX link leads to the paper's Cite box."""
    page.goto((series_site / "2023" / "index.html").as_uri())
    item = page.locator(".paper-item[data-abstract]").first
    item.locator(".item-abstract summary").click()
    page.wait_for_selector(".paper-item .item-abstract[data-loaded]")
    assert item.locator(".item-abstract .abstract").inner_text().strip()
    loaded = page.eval_on_selector_all("script[src*='/assets/reading/']", "tags => tags.map(t => t.src)")
    assert loaded and all("/2023/assets/reading/" in src for src in loaded), loaded
    assert item.locator(".item-links > a", has_text="BibTeX").get_attribute("href").endswith(".html#cite-heading")
