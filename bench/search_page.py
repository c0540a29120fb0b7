"""The search page's first screen (issue 43): what a reader downloads to see the first results of a query on
``search.html``, and to see one more screen, side by side with Pagefind on the same paper pages.

    python bench/search_page.py SITE [SITE …] --queries learning wasserstein submodular
    python bench/search_page.py /tmp/a/site /tmp/b/site --names main ours --pagefind-from /tmp/b/site

Each SITE is a built volume (an A/B: the same content built from two revisions). In Chromium, over a local
HTTP server that gzips text as GitHub Pages does (search_bench.Counting), with nothing cached, a reader opens
``search.html?q=QUERY``: counted are the bytes and requests (the page, its CSS and scripts, lunr.js, the
index's manifest and term shards, the display blocks) until the first screen of results is shown and nothing
more is loading; then the reader scrolls to the end of the list and the next screen's bytes are counted.
Pagefind (``python -m pagefind``; indexed over the first SITE's or ``--pagefind-from``'s paper pages): its
pagefind.js imported, the whole query searched, and the data (its fragment files) of the first 20 results
loaded, then of the next 20; and, as the issue quoted it, of the first 10. Ours shows at most 20 results a
screen (search.js PAGE_STEP), so 20 is the like-for-like figure.
"""

from __future__ import annotations

import argparse
import gzip
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_bench import Counting, Server, index_pagefind  # noqa: E402

SCREEN = 20  # results a screen of ours shows (search.js PAGE_STEP)
QUERIES = ("learning", "wasserstein", "submodular")

# Resolves when the page shows `n` results (or all there are) and no script has been added for `quiet` ms.
SETTLED = """async ([n, quiet]) => {
  const scripts = () => document.querySelectorAll("script").length;
  for (;;) {
    const status = (document.querySelector(".search-status") || {}).textContent || "";
    const count = Number((status.match(/^([\\d,]+) paper/) || ["", "-1"])[1].replace(/,/g, ""));
    const hits = document.querySelectorAll(".search-hit-title").length;
    if (status.startsWith("No paper") || (count >= 0 && hits >= Math.min(n, count))) {
      const before = scripts();
      await new Promise((resolve) => setTimeout(resolve, quiet));
      if (scripts() === before) return [Math.max(count, 0), hits];
    } else {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}"""

PAGEFIND_SCREENS = """async ([query, first, second]) => {
  const pagefind = await import("/pagefind/pagefind.js");
  await pagefind.init();
  const found = await pagefind.search(query);
  await Promise.all(found.results.slice(0, first).map((r) => r.data()));
  window.__firstDone = true;
  return [found.results.length, found.results.slice(first, second).length];
}"""


def ours(root: str, site: Path, browser, query: str) -> dict:
    """Bytes and requests to the first screen of ``query`` on the site's search page, and to one more."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # nothing cached
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    Counting.served = 0
    page.goto(f"{root}/search.html?q={query}")
    count, hits = page.evaluate(SETTLED, [SCREEN, 400])
    first = {"bytes": Counting.served, "requests": len(requests), "shown": hits,
             "blocks": sum(gz_of(site, url) for url in requests if "/assets/search/d" in url),
             "hrefs": page.eval_on_selector_all(".search-hit-title", "links => links.map(a => a.href)")}
    Counting.served, requests[:] = 0, []
    more = page.locator(".search-more-button")
    if count > hits and more.count():
        more.scroll_into_view_if_needed()  # the reader scrolls to the end of the list
        _, after = page.evaluate(SETTLED, [hits + SCREEN, 400])
    else:
        after = hits
    context.close()
    return {"count": count, "first": first, "next": {"bytes": Counting.served, "requests": len(requests),
                                                     "shown": after - hits}}


def gz_of(site: Path, url: str) -> int:
    """The bytes a file of the site takes sent gzip-compressed, as the server sends it."""
    return len(gzip.compress((site / url.split("/", 3)[3]).read_bytes(), 6, mtime=0))


def reading_alternative(site: Path, hrefs: list[str]) -> tuple[int, int]:
    """What the first screen's records would cost read from the reading list's blocks (assets/reading/,
    one record per paper, chosen by a hash of the slug) instead of the search's display blocks: the
    gzip bytes and number of the reading files holding the papers shown (issue 43's "one record per paper")."""
    from generator.publish.reading_list import file_count, file_of
    from run_bench import gz

    count = file_count(len(list((site / "papers").glob("*.html"))))
    names = {file_of(href.rsplit("/", 1)[-1].removesuffix(".html"), count) for href in hrefs}
    return sum(gz((site / "assets" / "reading" / f"{name}.js").read_bytes()) for name in names), len(names)


def pagefind(root: str, browser, query: str, first: int) -> dict:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{root}/pagefind-bench.html")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    Counting.served = 0
    count, _ = page.evaluate(PAGEFIND_SCREENS, [query, first, first])
    got = {"count": count, "bytes": Counting.served, "requests": len(requests)}
    Counting.served, requests[:] = 0, []
    page.evaluate("""async ([query, a, b]) => {
      const pagefind = await import("/pagefind/pagefind.js");
      const found = await pagefind.search(query);
      await Promise.all(found.results.slice(a, b).map((r) => r.data()));
    }""", [query, first, first + SCREEN])
    got["next"] = {"bytes": Counting.served, "requests": len(requests)}
    context.close()
    return got


def measure(sites: list[Path], names: list[str], queries: list[str], pagefind_site: Path | None) -> dict:
    from playwright.sync_api import sync_playwright

    found: dict = {"ours": {}, "pagefind": {}}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for name, site in zip(names, sites):
            with Server(site) as root:
                found["ours"][name] = {query: ours(root, site, browser, query) for query in queries}
        if pagefind_site:
            with Server(pagefind_site) as root:
                found["pagefind"] = {query: {shown: pagefind(root, browser, query, shown) for shown in (10, SCREEN)}
                                     for query in queries}
        browser.close()
    return found


def disk(site: Path) -> tuple[int, int]:
    """assets/ as ``du -sb`` (bytes) and ``du -s`` (KB the file system holds) report it."""
    def du(*flags: str) -> int:
        done = subprocess.run(["du", *flags, str(site / "assets")], capture_output=True, text=True, check=True)
        return int(done.stdout.split()[0])
    return du("-sb"), du("-sk")


def report(found: dict, names: list[str], queries: list[str], sites: list[Path]) -> None:
    print("| query | matches | site | first screen | requests | one more screen | requests |")
    print("|---|---|---|---|---|---|---|")
    for query in queries:
        for name in names:
            row = found["ours"][name][query]
            print(f"| {query} | {row['count']:,} | {name} ({row['first']['shown']} shown) | "
                  f"{row['first']['bytes'] / 1e3:,.0f} KB | {row['first']['requests']} | "
                  f"{row['next']['bytes'] / 1e3:,.0f} KB | {row['next']['requests']} |")
        for shown, row in sorted(found["pagefind"].get(query, {}).items()):
            print(f"| {query} | {row['count']:,} | Pagefind ({shown} results' data) | {row['bytes'] / 1e3:,.0f} KB | "
                  f"{row['requests']} | {row['next']['bytes'] / 1e3:,.0f} KB | {row['next']['requests']} |")
    print("\nThe first screen's records, from the search's display blocks (as built) or, if results read them, "
          "from the reading list's blocks (one record per paper):")
    print("| query | site | display blocks (gzip) | reading blocks (gzip) | files |")
    print("|---|---|---|---|---|")
    for query in queries:
        for name, site in zip(names, sites):
            row = found["ours"][name][query]["first"]
            size, files = reading_alternative(site, row["hrefs"])
            print(f"| {query} | {name} | {row['blocks'] / 1e3:,.1f} KB | {size / 1e3:,.1f} KB | {files} |")
    for name, site in zip(names, sites):
        size, blocks = disk(site)
        print(f"{name}: assets/ {size / 1e6:,.1f} MB (du -sb), {blocks / 1e3:,.1f} MB (du -s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sites", nargs="+", type=Path)
    parser.add_argument("--names", nargs="+", help="a name for each site (default: its folder's)")
    parser.add_argument("--queries", nargs="+", default=list(QUERIES))
    parser.add_argument("--pagefind-from", type=Path, help="the site Pagefind indexes (default: the first)")
    parser.add_argument("--no-pagefind", action="store_true")
    args = parser.parse_args()
    names = args.names or [site.parent.name for site in args.sites]
    pagefind_site = None if args.no_pagefind else (args.pagefind_from or args.sites[0])
    if pagefind_site and not (pagefind_site / "pagefind" / "pagefind.js").is_file():
        index_pagefind(pagefind_site)
    elif pagefind_site:
        (pagefind_site / "pagefind-bench.html").write_text("<!doctype html><title>bench</title>", encoding="utf-8")
    report(measure(args.sites, names, args.queries, pagefind_site), names, args.queries, args.sites)


if __name__ == "__main__":
    main()
