"""Search at size, side by side with Pagefind (issue 28): bytes a reader fetches to see results.

    python bench/search_bench.py 10000                 # make, build and index a 10,000-paper site
    python bench/search_bench.py 10000 --queries "learning" "bandit" "graph neural networks"

Makes a content folder of N papers from the real corpora (make_corpus.py), builds it, cuts its
search index into shards (generator/search/shards.py) beside the site, and indexes the same paper
pages with Pagefind (``pip install 'pagefind[extended]'``). For each query, typed a key at a time
by a reader with nothing cached, it reports:

* ours, whole index: lunr.js and search-index.js, gzip-compressed as GitHub Pages serves them;
* ours, sharded: lunr.js, the manifest and term shards search-shards.js loads for every prefix of
  the query, and the display blocks of the first 8 results (bench/shard_bytes.mjs, in node),
  gzip-compressed; "of which terms" is the manifest and term shards alone;
* Pagefind: the bytes its pagefind.js fetches (its own files are compressed already) in Chromium,
  over a local HTTP server, searching every prefix and loading the first 8 results' data.

It also times, in Chromium over a local HTTP server that gzips as GitHub Pages does, the time from
a cold reader entering the query to the first results shown: on localhost and on a throttled link
(``--link``, by default 4 Mbit/s down and up with 150 ms added to every request, Chrome's own
network emulation). Ours: the site's own search box on its home page, the clock started as the box
is focused (which loads lunr.js and the manifest) and the query entered whole, stopped when the
dropdown shows its results. Pagefind: its pagefind.js imported, initialised and searched, and the
first 8 results' data asked for, the clock started before the import and stopped when the first
result's data has come. Both sides show results as they come (ours: the run of top results whose
display blocks have come, in rank order). Median of ``--rounds``.

With ``--page``, also what the search page loads for its first screen of 20 results and for one more
(bench/search_page.py, issue 43). Also the index's bytes on disk and the time to cut the shards.
Figures go to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import json
import shutil
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from generator.reporter import Reporter  # noqa: E402
from generator.pipeline.sinks import NullSink  # noqa: E402
from generator.pipeline.stages import Options, Pipeline  # noqa: E402
from generator.render.people_topics import tag_urls  # noqa: E402
from generator.search import lunr_js_path  # noqa: E402
from generator.search.payload import index_script, search_data  # noqa: E402
from generator.search.shards import FOLDER, shard_files  # noqa: E402
from series_bench import make_series  # noqa: E402
from generator.search.series import series_index_files  # noqa: E402
from run_bench import gz  # noqa: E402  (gzip -6, as the other benches count it)

OUT = REPO / "bench" / "out"
STATIC = REPO / "themes" / "default" / "static"
# The last two: a typo the box tries again within one edit (issue 38), and an author's surname (make_corpus.py's).
QUERIES = ("learning", "bandit", "graph neural networks", "wasserstein", "reinforcement learning for robots",
           "reinforcment learning", "bengio")
SHOWN = 8


def make_site(n: int, volumes: int = 0, authors: bool = False) -> tuple[Path, Path]:
    """A volume of n papers, or (``volumes``) a series of that many volumes holding n in all
    (series_bench.make_series), built once and kept under bench/out/; with ``authors``, the volume's
    papers with their titles and authors (make_corpus.py --records)."""
    work = OUT / (f"search-series-{volumes}x{n}" if volumes else f"search-authors-{n}" if authors else f"search-{n}")
    content, site = work / "content", work / "site"
    if not (site / "index.html").is_file():
        shutil.rmtree(work, ignore_errors=True)
        if volumes:
            make_series(volumes, n, content)
        else:
            subprocess.run([sys.executable, str(REPO / "bench" / "make_corpus.py"), str(n), str(content),
                            *(["--records"] if authors else [])], check=True)
        subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(content), "--out", str(site)],
                       check=True, cwd=REPO, stdout=subprocess.DEVNULL)
    return content, site


def series_index(site: Path) -> tuple[float, int]:
    """A series' index cut again from its papers.json (timed), and its bytes on disk."""
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    runs: dict[str, list[dict]] = {}
    for record in records:
        runs.setdefault(record["volume_path"], []).append(record)
    start = time.perf_counter()
    size = sum(len(data) for _, data in series_index_files(runs.items()))
    return time.perf_counter() - start, size


def write_shards(content: Path, site: Path) -> tuple[float, int, bytes, float]:
    """Cut the shards again (timed) into the site; also the whole index as the site shipped it before
    the shards (payload.index_script: one script of lunr's index and every display record), timed too."""
    run = Pipeline(content, NullSink(), Options(jobs=2)).run(Reporter(), until="rendered")
    urls = tag_urls(run.rendered)  # the tag pages the site links, as the build makes them
    folder = site / FOLDER
    shutil.rmtree(folder, ignore_errors=True)
    start = time.perf_counter()
    size = 0
    for name, data in shard_files(run.rendered, urls):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_bytes(data)
        size += len(data)
    cut = time.perf_counter() - start
    start = time.perf_counter()
    whole = index_script(search_data(run.rendered, urls))
    return cut, size, whole, time.perf_counter() - start


def ours_sharded(site: Path, queries: list[str]) -> list[dict]:
    asked = site.parent / "queries.json"
    asked.write_text(json.dumps(queries), encoding="utf-8")
    done = subprocess.run(["node", str(REPO / "bench" / "shard_bytes.mjs"), str(lunr_js_path()),
                           str(STATIC / "search-query.js"), str(STATIC / "search-shards.js"), str(site),
                           str(asked), str(SHOWN)], capture_output=True, text=True, check=True)
    rows = json.loads(done.stdout)["queries"]
    for row in rows:
        files = [site / name for name in row["files"]]
        # "terms": the index's manifest and term shards at the site's root (a series' own index)
        row["terms"] = sum(gz((site / n).read_bytes()) for n in row["files"]
                           if n.startswith(FOLDER + "/") and not n.startswith(FOLDER + "/d"))
        row["gzip"] = sum(gz(f.read_bytes()) for f in files) + gz(lunr_js_path().read_bytes())
        row["requests"] = len(files) + 1
        bounds = [*row["words"], row["typed"]]  # the files each further word loaded (records aside)
        row["further"] = [sum(gz(f.read_bytes()) for f in files[a:b]) for a, b in zip(bounds, bounds[1:])]
    return rows


class Counting(http.server.SimpleHTTPRequestHandler):
    """Serves the site as GitHub Pages does: text gzip-compressed for a client that accepts it (Pagefind's
    own files are compressed already and go as they are). Counts the bytes sent."""

    protocol_version = "HTTP/1.1"  # connections kept alive, as a host's are (GitHub Pages: HTTP/2)
    served = 0
    compressed: dict[str, bytes] = {}
    TEXT = (".html", ".js", ".css", ".json", ".svg")

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if not (path.suffix in self.TEXT and path.is_file() and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        body = self.compressed.get(str(path))
        if body is None:
            body = self.compressed[str(path)] = gzip.compress(path.read_bytes(), 6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return _Body(body)

    def copyfile(self, source, outputfile):
        data = source.read()
        Counting.served += len(data)
        outputfile.write(data)

    def log_message(self, *args):
        pass


class _Body:
    def __init__(self, data: bytes):
        self.data = data

    def read(self) -> bytes:
        return self.data

    def close(self) -> None:
        pass


class Server:
    """The site on 127.0.0.1 (Counting), in a thread, for as long as the with block lasts."""

    def __init__(self, site: Path):
        self.http = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(Counting, directory=str(site)))

    def __enter__(self) -> str:
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.http.server_port}"

    def __exit__(self, *exc) -> None:
        self.http.shutdown()


PAGEFIND_SEARCH = """async ([query, shown]) => {
  const pagefind = await import("/pagefind/pagefind.js");
  await pagefind.init();
  let found = null;
  for (let end = 1; end <= query.length; end++) {
    found = await pagefind.search(query.slice(0, end));
  }
  await Promise.all(found.results.slice(0, shown).map((r) => r.data()));
  return found.results.length;
}"""


PAGEFIND_TIMED = """async ([query, shown]) => {
  const start = performance.now();
  const pagefind = await import("/pagefind/pagefind.js");
  await pagefind.init();
  const found = await pagefind.search(query);
  const data = found.results.slice(0, shown).map((r) => r.data());  // all asked for, as its UI does
  if (data.length) await data[0];  // the first result can be shown (the clock ours stops at, too)
  return performance.now() - start;
}"""

# The site's own box: focused (lunr.js and the manifest start loading), the query entered whole, the
# clock stopped when the dropdown lists results for it.
OURS_TIMED = """async (query) => {
  const box = document.querySelector("#search-q");
  const start = performance.now();
  box.focus();
  box.value = query;
  box.dispatchEvent(new Event("input", { bubbles: true }));
  await new Promise((resolve) => {
    const shown = () => {
      const status = (document.querySelector(".search-status") || {}).textContent || "";
      if (status.includes(query) && document.querySelector("#search-panel .search-hit-title")) resolve();
      else requestAnimationFrame(shown);
    };
    shown();
  });
  return performance.now() - start;
}"""


def index_pagefind(site: Path, glob: str = "papers/*.html") -> tuple[float, int]:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pagefind", "--site", str(site), "--glob", glob], check=True,
                   stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    on_disk = sum(p.stat().st_size for p in (site / "pagefind").rglob("*") if p.is_file())
    (site / "pagefind-bench.html").write_text("<!doctype html><title>bench</title>", encoding="utf-8")
    return seconds, on_disk


def pagefind_bytes(site: Path, queries: list[str]) -> list[dict]:
    from playwright.sync_api import sync_playwright

    rows = []
    with Server(site) as root, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for query in queries:
            context = browser.new_context()  # nothing cached
            page = context.new_page()
            page.goto(f"{root}/pagefind-bench.html")
            Counting.served = 0
            hits = page.evaluate(PAGEFIND_SEARCH, [query, SHOWN])
            rows.append({"query": query, "hits": hits, "bytes": Counting.served})
            context.close()
        browser.close()
    return rows


def times(site: Path, queries: list[str], link: tuple[float, float] | None, rounds: int,
          pagefind: bool) -> dict[str, list[float]]:
    """query → [ours median ms, Pagefind median ms (or 0)], each a cold reader; ``link`` is
    (Mbit/s, ms added per request), or None for localhost as it is."""
    from playwright.sync_api import sync_playwright

    found: dict[str, list[float]] = {}
    with Server(site) as root, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])

        def one(url: str, script: str, arg) -> float:
            context = browser.new_context()  # nothing cached
            page = context.new_page()
            page.goto(url)
            if link:
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                rate = link[0] * 1e6 / 8
                cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": link[1],
                                                              "downloadThroughput": rate, "uploadThroughput": rate})
            took = page.evaluate(script, arg)
            context.close()
            return took

        for query in queries:
            ours = sorted(one(f"{root}/index.html", OURS_TIMED, query) for _ in range(rounds))
            theirs = sorted(one(f"{root}/pagefind-bench.html", PAGEFIND_TIMED, [query, SHOWN])
                            for _ in range(rounds)) if pagefind else [0.0]
            found[query] = [ours[len(ours) // 2], theirs[len(theirs) // 2]]
        browser.close()
    return found


def further(sizes: list[int]) -> str:
    return ", ".join(f"{size / 1e3:,.0f}" for size in sizes) + " KB" if sizes else "–"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("papers", type=int)
    parser.add_argument("--queries", nargs="+", default=list(QUERIES))
    parser.add_argument("--no-pagefind", action="store_true")
    parser.add_argument("--rounds", type=int, default=3, help="cold readers timed per query (median)")
    parser.add_argument("--link", nargs=2, type=float, default=[4, 150], metavar=("MBIT", "MS"),
                        help="the throttled link: megabits a second, milliseconds added per request")
    parser.add_argument("--no-times", action="store_true", help="bytes only, no browser timing")
    parser.add_argument("--series", type=int, default=0, metavar="VOLUMES",
                        help="a series of that many volumes holding the papers, searched across all of them")
    parser.add_argument("--page", action="store_true",
                        help="also the search page's first screen and one more, beside Pagefind (search_page.py)")
    parser.add_argument("--authors", action="store_true",
                        help="the papers with their titles and authors (a JSON Lines source), not abstracts alone")
    args = parser.parse_args()
    content, site = make_site(args.papers, args.series, args.authors)
    if args.series:
        cut, shard_bytes = series_index(site)
        whole_gz, whole_cut = 0, 0.0
    else:
        cut, shard_bytes, whole, whole_cut = write_shards(content, site)
        whole_gz = gz(whole) + gz(lunr_js_path().read_bytes())
    ours = ours_sharded(site, args.queries)
    glob = "*/papers/*.html" if args.series else "papers/*.html"
    pf_seconds, pf_disk = (0.0, 0) if args.no_pagefind else index_pagefind(site, glob)
    theirs = [] if args.no_pagefind else pagefind_bytes(site, args.queries)
    whole_text = ("a series: its own index over every volume, beside each volume's" if args.series else
                  f"whole index {len(whole) / 1e6:.1f} MB on disk ({whole_gz / 1e3:,.0f} KB gzip with lunr.js, "
                  f"fetched by every first query), made in {whole_cut:.1f} s")
    print(f"{args.papers} papers{f' in {args.series} volumes' if args.series else ''}: {whole_text}; shards "
          f"{shard_bytes / 1e6:.1f} MB on disk, cut in {cut:.1f} s"
          + (f"; Pagefind {pf_disk / 1e6:.1f} MB on disk, indexed in {pf_seconds:.1f} s" if theirs else ""))
    print("| query | ours, whole index | ours, sharded | of which terms | each further word | requests | Pagefind "
          "| ours ÷ Pagefind |")
    print("|---|---|---|---|---|---|---|---|")
    for n, row in enumerate(ours):
        other = theirs[n]["bytes"] if theirs else 0
        ratio = f"{row['gzip'] / other:.2f}" if other else "–"
        print(f"| {row['query']} | {whole_gz / 1e3:,.0f} KB | {row['gzip'] / 1e3:,.0f} KB | "
              f"{row['terms'] / 1e3:,.0f} KB | {further(row['further'])} | "
              f"{row['requests']} | "
              f"{other / 1e3:,.0f} KB | {ratio} |")
    if args.page and not args.series:
        import search_page

        print("\nThe search page (search.html?q=…), a cold reader, over HTTP with gzip:")
        shown = search_page.measure([site], ["ours"], args.queries, None if args.no_pagefind else site)
        search_page.report(shown, ["ours"], args.queries, [site])
    if args.no_times:
        return
    local = times(site, args.queries, None, args.rounds, not args.no_pagefind)
    slow = times(site, args.queries, tuple(args.link), args.rounds, not args.no_pagefind)
    print(f"\nTime to results, cold reader, median of {args.rounds} (ms): localhost; "
          f"{args.link[0]:g} Mbit/s with {args.link[1]:g} ms a request")
    print("| query | ours, localhost | Pagefind, localhost | ours, throttled | Pagefind, throttled |")
    print("|---|---|---|---|---|")
    for query in args.queries:
        print(f"| {query} | {local[query][0]:,.0f} | {local[query][1]:,.0f} | "
              f"{slow[query][0]:,.0f} | {slow[query][1]:,.0f} |")


if __name__ == "__main__":
    main()
