"""The Nu HTML Checker (vnu.jar, the W3C validator) on every page of the seed site
(vnu.jar and Java: see checkers.py; without them the test skips, except under CI=true)."""

from __future__ import annotations

from .checkers import report
from .helpers import html_pages


def test_every_page_is_valid_html(vnu, search_site):
    pages = [search_site / p for p in html_pages(search_site)]
    messages = [m for m in vnu(pages, "--errors-only") if m["type"] in ("error", "non-document-error")]
    assert not messages, "the Nu HTML checker found:\n" + "\n".join(report(messages, search_site))


def test_the_stylesheets_are_valid_css(vnu, search_site):
    sheets = sorted((search_site / "assets").glob("*.css"))
    assert sheets, "the site has no stylesheet"
    messages = [m for m in vnu(sheets, "--css", "--errors-only") if m["type"] in ("error", "non-document-error")]
    assert not messages, "the Nu CSS checker found:\n" + "\n".join(report(messages, search_site))
