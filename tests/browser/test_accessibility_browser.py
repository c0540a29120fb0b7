"""axe-core (from the PyPI package axe-playwright-python, which bundles it) on the seed site.

No serious or critical violation on the home page, a paper, the topic pages, the charts page, the
search page and the open search dropdown, in light and in dark mode. Over http,
where the site is served as it would be (and where 404.html can be shown).
"""

from __future__ import annotations

import pytest

from .checkers import violations
from .helpers import TIMEOUT, a_tag_page, open_results, stlc

@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation(page, http_root, search_site, axe, scheme):
    page.emulate_media(color_scheme=scheme)
    problems = []
    for rel in ("index.html", stlc(search_site), "tags/index.html", a_tag_page(search_site), "glance.html",
                "search.html?q=learning", "papers/no-such-paper.html", "map.html"):
        page.goto(http_root + rel)
        if "?q=" in rel:
            page.wait_for_selector(".search-hit-title", timeout=TIMEOUT)
        problems += violations(axe, page, f"{rel} ({scheme})")
    open_results(page, http_root + "index.html", "diffusion")
    problems += violations(axe, page, f"index.html with search results open ({scheme})")
    assert not problems, "axe-core found:\n" + "\n".join(problems)
