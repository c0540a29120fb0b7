"""The home page's track filter (issue 38): SIGDIAL/INLG 2023's joint programme, whose `conference` column is a
track. Choosing a track keeps its papers and the sessions that hold them; without scripts every paper is listed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.commands.build import build
from generator.reporter import Reporter

from .helpers import DESKTOP

SIGDIAL = Path(__file__).resolve().parents[1] / "fixtures" / "venues" / "sigdial-2023-programme.csv"


@pytest.fixture(scope="module")
def sigdial_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("sigdial")
    (root / "content").mkdir()
    shutil.copy(SIGDIAL, root / "content" / SIGDIAL.name)
    reporter = Reporter()
    build(root / "content", root / "site", reporter)
    assert not reporter.errors, reporter.errors
    return root / "site"


def visible_titles(page) -> list[str]:
    return [title for title, shown in page.locator(".paper-item-title a").evaluate_all(
        "links => links.map(a => [a.textContent, a.offsetParent !== null])") if shown]


def test_a_track_keeps_its_papers_and_their_sessions(page, sigdial_site):
    page.set_viewport_size(DESKTOP)
    page.goto((sigdial_site / "index.html").as_uri())
    select = page.locator(".track-filter select")
    assert select.is_visible()
    assert len(visible_titles(page)) == 8
    select.select_option("inlg")
    shown = visible_titles(page)
    assert len(shown) == 4 and "Guided Beam Search to Improve Generalization in Low-Resource Data-to-Text " \
                                 "Generation" in shown
    headings = [h for h, visible in page.locator(".group-title").evaluate_all(
        "hs => hs.map(h => [h.textContent, h.offsetParent !== null])") if visible]
    assert headings == ["Genchal Poster Session + Demos", "Inlg Oral Session 2"]
    select.select_option("")
    assert len(visible_titles(page)) == 8


def test_without_scripts_there_is_no_filter_and_every_paper_is_listed(browser, sigdial_site):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto((sigdial_site / "index.html").as_uri())
        assert not page.locator(".track-filter").is_visible()
        assert len(visible_titles(page)) == 8
    finally:
        context.close()
