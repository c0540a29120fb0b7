"""Issue 31: a paper's old address leads a browser to its new page, from file:// and over http; a retraction
is the first thing its page shows, and its list item says so."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from .checkers import report, violations
from .conftest import REPO, served


@pytest.fixture(scope="module")
def moved_site(tmp_path_factory) -> tuple[Path, str, str]:
    """The bundled content with one paper's slug changed (built once before, once after) and retracted."""
    root = tmp_path_factory.mktemp("corrections")
    content, site = root / "content", root / "site"
    shutil.copytree(REPO / "content", content)
    build(content, site, Reporter())
    page = sorted((content / "papers").glob("*.md"))[0]
    old = page.stem
    text = page.read_text(encoding="utf-8").replace(f"slug: {old}\n", "slug: moved-here\n", 1)
    text = text.replace("\ntags:", "\nretracted: {date: 2026-05-01, note: The data were flawed.}\ntags:", 1)
    page.write_text(text, encoding="utf-8")
    reporter = Reporter()
    build(content, site, reporter)
    assert not reporter.errors, reporter.errors
    return site, old, "moved-here"


@pytest.mark.parametrize("scheme", ["file", "http"])
def test_an_old_address_leads_to_the_new_page(page, moved_site, scheme):
    site, old, new = moved_site
    if scheme == "file":
        page.goto(f"{site.as_uri()}/papers/{old}.html")
        page.wait_for_url(f"**/papers/{new}.html")
    else:
        with served(site) as root:
            page.goto(f"{root}papers/{old}.html")
            page.wait_for_url(f"**/papers/{new}.html")
            assert page.locator("h1.page-title").is_visible()
    assert page.url.endswith(f"/papers/{new}.html")
    assert not page.errors and not page.failed


def test_an_old_address_names_the_sites_icon_so_a_browser_asks_for_no_missing_favicon(moved_site):
    site, old, _ = moved_site
    html = (site / "papers" / f"{old}.html").read_text(encoding="utf-8")
    assert '<link rel="icon" href="../assets/favicon.svg"' in html
    assert (site / "assets" / "favicon.svg").is_file()


def test_a_retraction_comes_first_on_the_page_and_marks_its_list_item(page, moved_site):
    site, _, new = moved_site
    page.goto(f"{site.as_uri()}/papers/{new}.html")
    notice = page.locator(".notice-retracted")
    assert notice.is_visible() and "The data were flawed." in notice.inner_text()
    # Above the abstract, within the first screen.
    assert notice.bounding_box()["y"] < page.locator("#abstract-heading").bounding_box()["y"]
    page.goto(f"{site.as_uri()}/index.html")
    badge = page.locator(f'.paper-item:has(a[href="papers/{new}.html"]) .badge-retracted')
    assert badge.count() == 1 and badge.is_visible() and badge.inner_text() == "Retracted"
    assert page.locator(".badge-retracted").count() == 1


def test_the_redirect_and_the_notices_are_valid_html_and_accessible(vnu, axe, page, moved_site):
    site, old, new = moved_site
    files = [site / "papers" / f"{old}.html", site / "papers" / f"{new}.html", site / "index.html"]
    messages = [m for m in vnu(files, "--errors-only") if m["type"] in ("error", "non-document-error")]
    assert not messages, "the Nu HTML checker found:\n" + "\n".join(report(messages, site))
    page.goto(f"{site.as_uri()}/papers/{new}.html")
    assert not violations(axe, page, f"papers/{new}.html")
