"""The contents as a reader uses them (issues 29, 30): a paper listed under two sessions is one paper to the
reading list, and a big volume's contents pages (contents/, one folder down) open abstracts in place and lead
back to the home page, from file://."""

from __future__ import annotations

from pathlib import Path

import pytest

from contents_fixtures import colt2020_csv
from generator.commands.build import build
from generator.reporter import Reporter

from .checkers import violations
from .helpers import DESKTOP


def built(root: Path, write) -> Path:
    content = root / "content"
    content.mkdir()
    write(content)
    reporter = Reporter()
    build(content, root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


@pytest.fixture(scope="module")
def colt_site(tmp_path_factory) -> Path:
    return built(tmp_path_factory.mktemp("colt"), lambda content: (content / "papers.csv").write_text(
        colt2020_csv(), encoding="utf-8"))


@pytest.fixture(scope="module")
def split_site(tmp_path_factory) -> Path:
    """The COLT-shaped volume split as a big one is (its contents pages hold 30 papers here, not 1,500)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("generator.render.contents.CONTENTS_PAPERS", 30)
        patch.setattr("generator.render.contents.PAGE_PAPERS", 30)
        return built(tmp_path_factory.mktemp("split"), lambda content: (content / "papers.csv").write_text(
            colt2020_csv(), encoding="utf-8"))


def test_a_paper_in_two_sessions_is_listed_once_and_leads_to_both(page, colt_site):
    """Listed under its first session only (issue 38), its two sessions each a link to its heading."""
    page.set_viewport_size(DESKTOP)
    page.goto((colt_site / "index.html").as_uri())
    href = page.locator(".paper-item-title a").first.get_attribute("href")
    listings = page.locator(".paper-item", has=page.locator(f'.paper-item-title a[href="{href}"]'))
    assert listings.count() == 1
    listings.first.locator("button[data-reading-key]").click()
    assert listings.first.locator("button[data-reading-key]").get_attribute("aria-pressed") == "true"
    sessions = listings.first.locator(".item-sessions a.session")
    assert sessions.count() == 2
    anchor = sessions.nth(1).get_attribute("href").split("#", 1)[1]
    assert page.locator(f"h2#{anchor}").count() == 1  # the second session's heading, on this page
    sessions.nth(1).click()
    assert page.url.endswith(f"#{anchor}")


def test_a_contents_page_opens_abstracts_and_leads_home(page, split_site):
    page.set_viewport_size(DESKTOP)
    page.goto((split_site / "index.html").as_uri())
    groups = page.locator(".contents-groups li > a:first-child")
    assert groups.count() == 20
    groups.nth(4).click()
    assert "/contents/" in page.url and page.url.endswith("#group-session-1e")
    heading = page.locator("#group-session-1e")
    assert heading.inner_text().startswith("Session 1E") and heading.is_visible()
    item = page.locator("#group-session-1e + .paper-list .paper-item").first
    item.locator(".item-abstract summary").click()
    page.wait_for_selector("#group-session-1e + .paper-list .paper-item:first-child .item-abstract[data-loaded]")
    assert "We study" in item.locator(".item-abstract .abstract").inner_text()
    assert item.locator("button[data-reading-key]").count() == 1
    page.locator(".pagination a", has_text="Contents").click()
    assert page.url.endswith("/index.html")


def test_the_contents_pages_are_valid_html_and_pass_axe(page, vnu, axe, colt_site, split_site):
    """The Nu HTML checker and axe-core on the session-grouped home page, a split volume's home page and each
    of its contents pages (a paper twice on one page, its headings and ids unique)."""
    pages = [colt_site / "index.html", split_site / "index.html", *sorted((split_site / "contents").glob("*.html"))]
    messages = [m for m in vnu(pages, "--errors-only") if m["type"] in ("error", "non-document-error")]
    assert not messages, "the Nu HTML checker found:\n" + "\n".join(f"{m.get('url')}: {m['message']}"
                                                                     for m in messages[:10])
    problems = []
    for path in pages[:3]:
        page.goto(path.as_uri())
        problems += violations(axe, page, path.name)
    assert not problems, "axe-core found:\n" + "\n".join(problems)
