"""axe-core (from the PyPI package axe-playwright-python, which bundles it) on the seed site.

No serious or critical violation on the home page, a paper, the topic pages, the
search page and the open search dropdown, in light and in dark mode. Over http,
where the site is served as it would be (and where 404.html can be shown).
"""

from __future__ import annotations

import pytest

from .helpers import TIMEOUT, a_tag_page, open_results, stlc

IMPACTS = {"serious", "critical"}


@pytest.fixture(scope="module")
def axe():
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        from .conftest import unavailable
        unavailable("axe-playwright-python is not installed (pip install -e '.[test]')")
    return Axe()


def violations(axe, page, where: str) -> list[str]:
    found = axe.run(page, options={"resultTypes": ["violations"]}).response["violations"]
    return [f"{where}: {v['id']} ({v['impact']}) {v['help']} — " + "; ".join(
                f"{' '.join(node['target'])}: {node['failureSummary'].splitlines()[-1].strip()}"
                for node in v["nodes"][:3]) + (f" (and {len(v['nodes']) - 3} more)" if len(v["nodes"]) > 3 else "")
            for v in found if v["impact"] in IMPACTS]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation(page, http_root, search_site, axe, scheme):
    page.emulate_media(color_scheme=scheme)
    problems = []
    for rel in ("index.html", stlc(search_site), "tags/index.html", a_tag_page(search_site),
                "search.html?q=learning", "papers/no-such-paper.html"):
        page.goto(http_root + rel)
        if "?q=" in rel:
            page.wait_for_selector(".search-hit-title", timeout=TIMEOUT)
        problems += violations(axe, page, f"{rel} ({scheme})")
    open_results(page, http_root + "index.html", "diffusion")
    problems += violations(axe, page, f"index.html with search results open ({scheme})")
    assert not problems, "axe-core found:\n" + "\n".join(problems)
