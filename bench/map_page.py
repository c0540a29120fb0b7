"""The map page at any size (issue 43): its bytes and the time to its first drawing, side by side for built sites.

    python bench/map_page.py SITE [SITE …] [--names before after] [--rounds 5]

Each SITE is a built volume (an A/B: the same content built from two revisions). Reported for each: map.html's
bytes, raw and gzipped, and the map's files in all (map.html and map/*.js); then in Chromium (Debian's
/usr/bin/chromium), with nothing cached, from file:// and over a local HTTP server that gzips as GitHub Pages
does (search_bench.Counting): the first contentful paint, DOMContentLoaded (the page parsed: its landmarks and
its own dots drawn, the first drawing of the map), the time until every paper's dot is drawn (map.js's
data-complete, or the whole page for one that draws every dot itself), the dots at the end and, over HTTP, the
bytes sent. Medians of ``--rounds`` loads; the machine's load moves them, so compare sites in one run.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_bench import Counting, Server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
# Resolves when every dot is drawn: at once for a page that draws them all, else when map.js says so.
DRAWN = """() => {
  const svg = document.querySelector("svg.paper-map");
  return svg && (!svg.hasAttribute("data-files") || svg.hasAttribute("data-complete"));
}"""
TIMES = """() => [
  (performance.getEntriesByName("first-contentful-paint")[0] || {startTime: NaN}).startTime,
  performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
  performance.now(),
  document.querySelectorAll(".paper-map a").length]"""


def sizes(site: Path) -> dict[str, int]:
    page = (site / "map.html").read_bytes()
    files = sorted((site / "map").glob("*.js")) if (site / "map").is_dir() else []
    rest = [path.read_bytes() for path in files]
    return {"page": len(page), "page_gz": len(gzip.compress(page, 6, mtime=0)), "files": len(files),
            "all": len(page) + sum(map(len, rest)),
            "all_gz": len(gzip.compress(page, 6, mtime=0)) + sum(len(gzip.compress(r, 6, mtime=0)) for r in rest)}


def load(browser, url: str) -> tuple[float, float, float, int]:
    """(first contentful paint, the page parsed with its own dots, every dot drawn, dots) in ms from the
    navigation's start, in a fresh context."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(url, wait_until="commit")
        page.wait_for_function(DRAWN, polling="raf", timeout=120_000)
        page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0",
                               timeout=60_000)
        paint, parsed, drawn, dots = page.evaluate(TIMES)
        return paint, parsed, drawn, dots
    finally:
        context.close()


def measure(browser, site: Path, rounds: int) -> dict[str, object]:
    found: dict[str, object] = {}
    for scheme in ("file", "http"):
        runs = []
        served = 0
        with Server(site) as root:
            url = (site / "map.html").as_uri() if scheme == "file" else root + "/map.html"
            for _ in range(rounds):
                Counting.served = 0
                runs.append(load(browser, url))
                served = Counting.served
        found[scheme] = {"paint": statistics.median(r[0] for r in runs),
                         "parsed": statistics.median(r[1] for r in runs),
                         "drawn": statistics.median(r[2] for r in runs), "dots": runs[-1][3],
                         "bytes": served if scheme == "http" else None}
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sites", type=Path, nargs="+")
    parser.add_argument("--names", nargs="*")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    names = args.names or [str(site) for site in args.sites]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for name, site in zip(names, args.sites):
            size, timed = sizes(site), measure(browser, site, args.rounds)
            print(f"{name}: map.html {size['page'] / 1000:.1f} KB ({size['page_gz'] / 1000:.1f} KB gzip); "
                  f"the map in all {size['all'] / 1000:.1f} KB ({size['all_gz'] / 1000:.1f} KB gzip), "
                  f"{size['files']} points files")
            for scheme, figures in timed.items():
                sent = f", {figures['bytes'] / 1000:.1f} KB sent" if figures["bytes"] is not None else ""
                print(f"  {scheme}: first paint {figures['paint']:.0f} ms, the page and its own dots "
                      f"{figures['parsed']:.0f} ms (DOMContentLoaded), every dot drawn {figures['drawn']:.0f} ms "
                      f"({figures['dots']} dots{sent}); median of {args.rounds}")
        browser.close()


if __name__ == "__main__":
    main()
