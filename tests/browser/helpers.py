"""What the browser tests share: the seed site's pages, and a reader's actions on them."""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"
TIMEOUT = 10_000  # ms; the index is small, this is only for slow machines
PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}


def watch(page):
    """Record on the page what a reader would not see: script errors, requests, failed requests."""
    page.errors, page.requests, page.failed = [], [], []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))
    page.on("request", lambda request: page.requests.append(request.url))
    # net::ERR_ABORTED is a request the page dropped by moving on (the favicon, when a test navigates
    # at once); a missing file is ERR_FILE_NOT_FOUND, or an HTTP status below.
    page.on("requestfailed", lambda request: request.failure != "net::ERR_ABORTED" and page.failed.append(
        f"{request.url} ({request.failure})"))
    page.on("response", lambda response: response.status >= 400 and page.failed.append(
        f"{response.url} (HTTP {response.status})"))
    return page


def papers(site: Path) -> list[dict]:
    return json.loads((site / "papers.json").read_text(encoding="utf-8"))


def html_pages(site: Path) -> list[str]:
    """Every page of the built site, relative to its root ("papers/x.html")."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def paper_url(site: Path, *, title_starts: str = "", abstract_has: str = "") -> str:
    """The address (relative to the site root) of the one seed paper that fits."""
    found = [p["url"] for p in papers(site)
             if p["title"].startswith(title_starts) and abstract_has in p["abstract"]]
    assert len(found) == 1, f"expected one seed paper titled {title_starts!r}… with {abstract_has!r}, found {found}"
    return found[0]


def stlc(site: Path) -> str:
    """The paper with the most inline math (the STLC bound)."""
    return paper_url(site, title_starts="STLC")


def long_math(site: Path) -> str:
    """The paper with (9.390 ± 6.290) × 10⁻⁵ in its abstract."""
    return paper_url(site, abstract_has="9.390")


def a_tag_page(site: Path) -> str:
    return next(p for p in html_pages(site) if p.startswith("tags/") and p != "tags/index.html")


def search_for(page, text: str):
    """Type into the header's search box, as a reader does, and wait for the answer."""
    box = page.locator("#search-q")
    box.fill("")
    box.press_sequentially(text)
    page.wait_for_function("text => (document.querySelector('.search-status') || {}).textContent.includes(text)",
                           arg=text, timeout=TIMEOUT)


def open_results(page, url: str, query: str = "learning"):
    """The page at url with the search dropdown showing results for query."""
    page.goto(url)
    search_for(page, query)
    page.wait_for_selector("#search-panel .search-hit-title", timeout=TIMEOUT)


# describe(node): an element as a reader would point at it (tag, id, class, the start of its
# text); pasted into the page scripts below.
DESCRIBE_JS = """
function describe(node) {
  const cls = typeof node.className === "string" && node.className.trim()
    ? "." + node.className.trim().split(/\\s+/).join(".") : "";
  const id = node.id ? "#" + node.id : "";
  const text = (node.innerText || node.textContent || "").trim().replace(/\\s+/g, " ");
  return node.tagName.toLowerCase() + id + cls + (text ? ` “${text.slice(0, 50)}${text.length > 50 ? "…" : ""}”` : "");
}
"""
