"""Layout as a reader sees it: on a phone, in dark mode, and on paper.

- At 375 px wide (a small phone) no page, and no open search, scrolls sideways.
- In light and dark mode every piece of text keeps a WCAG contrast of 4.5:1
  against what is behind it (3:1 for large text).
- Printed, a page is its content: the header, the search box and the
  previous/next links are left out.
"""

from __future__ import annotations

import pytest

from .crawl import OVERFLOW_JS
from .helpers import DESCRIBE_JS, PHONE, TIMEOUT, a_tag_page, long_math, open_results, papers, stlc


def sideways(where: str, over: int, culprits: list[str]) -> str:
    return f"{where} at {PHONE['width']}px the page scrolls sideways by {over}px (too wide: {culprits})"


def test_no_page_scrolls_sideways_on_a_phone(crawled):
    """Every page, as the crawl (at 375 px) saw it."""
    wide = [sideways(f"on {rel}", *visit.overflow) for rel, visit in crawled.visits.items() if visit.overflow[0] > 0]
    assert not wide, "\n".join(wide)


def test_open_search_does_not_scroll_sideways_on_a_phone(page, site_url, search_site):
    page.set_viewport_size(PHONE)
    problems = []
    for rel in ("index.html", stlc(search_site), "search.html?q=learning"):
        if "?q=" in rel:
            page.goto(site_url + rel)
            page.wait_for_selector(".search-hit-title", timeout=TIMEOUT)
        else:
            open_results(page, site_url + rel)
        over, culprits = page.evaluate(OVERFLOW_JS)
        if over > 0:
            problems.append(sideways(f"on {rel} with search results open", over, culprits))
    assert not problems, "\n".join(problems)
    assert not page.errors, page.errors


def test_the_search_dropdown_holds_its_contents_on_a_phone(page, site_url):
    page.set_viewport_size(PHONE)
    open_results(page, site_url + "index.html", "learning")
    outside = page.evaluate("""() => {
      %s
      // Its padding box, less a little: result titles reach 0.25rem into the padding on purpose.
      const panel = document.querySelector("#search-panel"), box = panel.getBoundingClientRect();
      const style = getComputedStyle(panel), slack = 5;
      const left = box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft) - slack;
      const right = box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight) + slack;
      return Array.from(panel.querySelectorAll("*"))
        .filter(node => node.checkVisibility())
        .filter(node => {
          const r = node.getBoundingClientRect();
          return r.width && (r.left < left || r.right > right);
        })
        .map(describe).slice(0, 5);
    }""" % DESCRIBE_JS)
    assert not outside, f"at {PHONE['width']}px these stick out of the search dropdown: {outside}"


def test_long_formulas_stay_inside_the_page_on_a_phone(page, site_url, search_site):
    """The formulas themselves must fit or scroll inside their own box, not stick out."""
    page.set_viewport_size(PHONE)
    for rel in (stlc(search_site), long_math(search_site)):
        page.goto(site_url + rel)
        outside = page.evaluate("""() => Array.from(document.querySelectorAll("math"))
            .filter(m => { const r = m.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth; })
            .map(m => (m.getAttribute("alttext") || m.textContent).slice(0, 60))""")
        assert not outside, f"on {rel} at {PHONE['width']}px these formulas stick out of the screen: {outside}"


# Contrast ---------------------------------------------------------------------------------

CONTRAST_JS = """() => {
  %s
  const parse = colour => {
    const m = /rgba?\\(([^)]+)\\)/.exec(colour);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3])).concat(1);
  const behind = node => {
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    return layers.reduceRight((under, top) => over(top, under), [255, 255, 255, 1]);
  };
  const lum = c => {
    const linear = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    const [r, g, b] = c.slice(0, 3).map(linear);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const hex = c => "#" + c.slice(0, 3).map(v => Math.round(v).toString(16).padStart(2, "0")).join("");
  const check = (node, colour, text) => {
    const style = getComputedStyle(node);
    const bg = behind(node), fg = over(parse(colour) || [0, 0, 0, 1], bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const need = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
    return ratio + 0.005 < need ? [text, hex(fg), hex(bg), ratio.toFixed(2), need] : null;
  };
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const done = new Set();
  for (let text; (text = walker.nextNode());) {
    const node = text.parentElement;
    if (!text.data.trim() || done.has(node)) continue;
    if (!node.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    const box = node.getBoundingClientRect();
    if (box.right <= 0 || box.bottom <= 0 || !box.width) continue;  // off-screen, like the skip link until focused
    done.add(node);
    const bad = check(node, getComputedStyle(node).color, describe(node));
    if (bad) found.push(bad);
  }
  for (const input of document.querySelectorAll("input[placeholder]")) {
    if (!input.checkVisibility() || input.value) continue;
    const bad = check(input, getComputedStyle(input, "::placeholder").color, `the placeholder “${input.placeholder}”`);
    if (bad) found.push(bad);
  }
  return found;
}""" % DESCRIBE_JS


def contrast_pages(site) -> list[tuple[str, str]]:
    """(page, query): what to check, the query's results open when there is one."""
    return [("index.html", ""), ("index.html", "diffusion"), (stlc(site), ""), ("tags/index.html", ""),
            (a_tag_page(site), ""), ("search.html?q=learning", "")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_keeps_its_contrast(page, site_url, search_site, scheme):
    page.emulate_media(color_scheme=scheme)
    problems = []
    for rel, query in contrast_pages(search_site):
        if query:
            open_results(page, site_url + rel, query)
        else:
            page.goto(site_url + rel)
            if "?q=" in rel:
                page.wait_for_selector(".search-hit-title")
        where = f"on {rel}" + (f" with results for “{query}”" if query else "")
        problems += [f"{where} in {scheme} mode, {text} is {fg} on {bg}: contrast {ratio}, below {need}"
                     for text, fg, bg, ratio, need in page.evaluate(CONTRAST_JS)]
    assert not problems, "text too faint to read:\n" + "\n".join(problems)


def test_dark_mode_is_dark(page, site_url):
    """The contrast test could pass on a light page: make sure dark mode is applied at all."""
    page.emulate_media(color_scheme="dark")
    page.goto(site_url + "index.html")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    channels = [int(c) for c in background[background.index("(") + 1:background.index(")")].split(",")[:3]]
    assert max(channels) < 80, f"in dark mode the page background is {background}"


# Print ------------------------------------------------------------------------------------

def test_print_leaves_out_navigation(page, site_url, search_site):
    paper = papers(search_site)[1]  # one with both a previous and a next paper
    page.goto(site_url + paper["url"])
    page.emulate_media(media="print")
    shown = [what for what, selector in [("the header's navigation", ".site-nav"), ("the search box", "#search-form"),
                                         ("the site header", ".site-header"),
                                         ("the previous/next links", ".prev-next"), ("the skip link", ".skip-link")]
             if page.locator(selector).is_visible()]
    assert not shown, f"printing {paper['url']} prints {shown}"
    assert page.locator(".abstract").is_visible(), "printing a paper leaves out its abstract"
    assert page.locator("h1").is_visible(), "printing a paper leaves out its title"
