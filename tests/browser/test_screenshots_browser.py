"""Screenshots of the seed site for people to look at: tests/artifacts/screenshots/ (gitignored).

Home, a paper, a topic and a search, on a desktop (1280×900) and a phone (375×812), in light
mode, and the home page with results in dark mode. Nothing is compared: the other
browser tests assert; these are for review (docs/screenshot.png is one of them).
"""

from __future__ import annotations

import pytest

from .helpers import ARTIFACTS, DESKTOP, PHONE, a_tag_page, open_results, stlc

SHOTS = ARTIFACTS / "screenshots"


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_screenshots(page, http_root, search_site, device):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(DESKTOP if device == "desktop" else PHONE)

    def shoot(name: str, *, full_page: bool = False):
        page.evaluate("document.fonts.ready")
        path = SHOTS / f"{device}-{name}.png"
        page.screenshot(path=path, full_page=full_page)
        assert path.stat().st_size > 1000, f"the screenshot {path} is empty"

    page.goto(http_root + "index.html")
    shoot("home")
    page.goto(http_root + stlc(search_site))
    shoot("paper", full_page=True)
    page.goto(http_root + a_tag_page(search_site))
    shoot("topic")
    open_results(page, http_root + "index.html", "diffusion")
    shoot("home-search")
    page.goto(http_root + "search.html?q=learning")
    page.wait_for_selector(".search-hit-title")
    shoot("search-page")
    page.emulate_media(color_scheme="dark")
    open_results(page, http_root + "index.html", "diffusion")
    shoot("home-search-dark")
    assert not page.errors, page.errors
