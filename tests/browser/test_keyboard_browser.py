"""The site with a keyboard only: every stop of Tab shows where focus is, search works without a mouse.

test_search_browser.py covers /, the arrow keys and Enter on a result; this adds
what a keyboard reader meets on every page: a visible focus indicator at each
Tab stop, the skip link, and Enter in the search box.
"""

from __future__ import annotations

from .helpers import DESCRIBE_JS, TIMEOUT, a_tag_page, open_results, search_for, stlc

# The focused element, whether a reader can see that it is focused, and whether it is on screen.
FOCUS_JS = """() => {
  %s
  const node = document.activeElement;
  if (!node || node === document.body) return null;
  const style = getComputedStyle(node);
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0
    && !/rgba\\([^)]*,\\s*0\\)|transparent/.test(style.outlineColor);
  const shadow = style.boxShadow !== "none";
  const box = node.getBoundingClientRect();
  const onScreen = box.width > 0 && box.height > 0 && box.right > 0 && box.bottom > 0
    && box.left < innerWidth && box.top < innerHeight;
  return {what: describe(node), visible: outline || shadow, onScreen};
}""" % DESCRIBE_JS

MAX_STOPS = 120


def tab_through(page) -> list[dict]:
    """Every stop of Tab from the top of the page, until focus leaves the page or comes round again."""
    stops = []
    for _ in range(MAX_STOPS):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUS_JS)
        if stop is None or (stops and stop["what"] == stops[0]["what"]):
            break
        stops.append(stop)
    return stops


def hidden_focus(page, where: str) -> list[str]:
    stops = tab_through(page)
    assert len(stops) > 3, f"on {where} Tab reached only {[s['what'] for s in stops]}"
    return [f"on {where}, Tab stop {n} ({stop['what']}) " + ("shows no focus outline" if not stop["visible"]
                                                            else "is off the screen")
            for n, stop in enumerate(stops, 1) if not (stop["visible"] and stop["onScreen"])]


def test_every_tab_stop_shows_where_focus_is(page, site_url, search_site):
    problems = []
    for rel in ("index.html", stlc(search_site), "tags/index.html", a_tag_page(search_site),
                "search.html?q=learning"):
        page.goto(site_url + rel)
        if "?q=" in rel:
            page.wait_for_selector(".search-hit-title", timeout=TIMEOUT)
        problems += hidden_focus(page, rel)
    open_results(page, site_url + "index.html", "diffusion")
    page.locator("body").evaluate("() => document.activeElement.blur()")
    problems += hidden_focus(page, "index.html with search results open")
    assert not problems, "\n".join(problems)
    assert not page.errors, page.errors


def test_skip_link_is_first_and_jumps_to_the_content(page, site_url, search_site):
    page.goto(site_url + stlc(search_site))
    page.keyboard.press("Tab")
    first = page.evaluate(FOCUS_JS)
    assert first["what"].startswith("a.skip-link"), f"the first Tab stop is {first['what']}, not “Skip to content”"
    assert first["onScreen"], "the focused skip link stays off the screen"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    inside_main = page.evaluate("() => !!document.activeElement.closest('main')")
    assert inside_main, f"after “Skip to content”, Tab goes to {page.evaluate(FOCUS_JS)['what']}"


def test_slash_focuses_the_box_with_a_visible_outline(page, site_url, search_site):
    page.goto(site_url + stlc(search_site))
    page.keyboard.press("/")
    focus = page.evaluate(FOCUS_JS)
    assert focus["what"].startswith("input#search-q"), f"pressing / focused {focus['what']}"
    assert focus["visible"], "the search box focused by / shows no focus outline"
    page.keyboard.type("a/b")  # once in the box, / is a character like any other
    assert page.locator("#search-q").input_value() == "a/b"


def test_enter_in_the_box_opens_every_result_on_the_search_page(page, site_url):
    page.goto(site_url + "index.html")
    page.keyboard.press("/")
    page.keyboard.type("learning")
    page.wait_for_selector(".search-hit-title", timeout=TIMEOUT)
    page.keyboard.press("Enter")
    page.wait_for_url("**/search.html?q=learning", timeout=TIMEOUT)
    page.wait_for_selector(".search-page-results .search-hit-title", timeout=TIMEOUT)
    assert page.locator("#search-q").input_value() == "learning"


def test_arrows_then_enter_on_the_search_page(page, site_url, search_site):
    page.goto(site_url + "search.html")
    page.keyboard.press("/")
    search_for(page, "diffusion")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    focus = page.evaluate(FOCUS_JS)
    assert focus["what"].startswith("a.search-hit-title") and focus["visible"], \
        f"two ArrowDowns on the search page focused {focus['what']} (visible outline: {focus['visible']})"
    target = page.evaluate("document.activeElement.href")
    page.keyboard.press("Enter")
    page.wait_for_url(target, timeout=TIMEOUT)
