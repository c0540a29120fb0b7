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

Also the index's bytes on disk and the time to cut the shards. Figures go to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
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

from generator.commands.reporter import Reporter  # noqa: E402
from generator.pipeline.sinks import NullSink  # noqa: E402
from generator.pipeline.stages import Options, Pipeline  # noqa: E402
from generator.render.html import tag_urls  # noqa: E402
from generator.search import lunr_js_path  # noqa: E402
from generator.search.shards import FOLDER, shard_files  # noqa: E402
from run_bench import gz  # noqa: E402  (gzip -6, as the other benches count it)

OUT = REPO / "bench" / "out"
STATIC = REPO / "themes" / "default" / "static"
QUERIES = ("learning", "bandit", "graph neural networks", "wasserstein", "reinforcement learning for robots")
SHOWN = 8


def make_site(n: int) -> tuple[Path, Path]:
    work = OUT / f"search-{n}"
    content, site = work / "content", work / "site"
    if not (site / "index.html").is_file():
        shutil.rmtree(work, ignore_errors=True)
        subprocess.run([sys.executable, str(REPO / "bench" / "make_corpus.py"), str(n), str(content)], check=True)
        subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(content), "--out", str(site)],
                       check=True, cwd=REPO, stdout=subprocess.DEVNULL)
    return content, site


def write_shards(content: Path, site: Path) -> tuple[float, int]:
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
    return time.perf_counter() - start, size


def ours_sharded(site: Path, queries: list[str]) -> list[dict]:
    asked = site.parent / "queries.json"
    asked.write_text(json.dumps(queries), encoding="utf-8")
    done = subprocess.run(["node", str(REPO / "bench" / "shard_bytes.mjs"), str(lunr_js_path()),
                           str(STATIC / "search-query.js"), str(STATIC / "search-shards.js"), str(site / FOLDER),
                           str(asked), str(SHOWN)], capture_output=True, text=True, check=True)
    rows = json.loads(done.stdout)["queries"]
    for row in rows:
        files = [site / FOLDER / f"{name}.js" for name in row["files"]]
        row["terms"] = sum(gz(f.read_bytes()) for f in files if f.name.startswith(("t", "manifest")))
        row["gzip"] = sum(gz(f.read_bytes()) for f in files) + gz(lunr_js_path().read_bytes())
        row["requests"] = len(files) + 1
    return rows


class Counting(http.server.SimpleHTTPRequestHandler):
    served = 0

    def copyfile(self, source, outputfile):
        data = source.read()
        Counting.served += len(data)
        outputfile.write(data)

    def log_message(self, *args):
        pass


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


def pagefind(site: Path, queries: list[str]) -> tuple[list[dict], float, int]:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pagefind", "--site", str(site), "--glob", "papers/*.html"], check=True,
                   stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    on_disk = sum(p.stat().st_size for p in (site / "pagefind").rglob("*") if p.is_file())
    (site / "pagefind-bench.html").write_text("<!doctype html><title>bench</title>", encoding="utf-8")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(Counting, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    from playwright.sync_api import sync_playwright

    rows = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            for query in queries:
                context = browser.new_context()  # nothing cached
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{server.server_port}/pagefind-bench.html")
                Counting.served = 0
                hits = page.evaluate(PAGEFIND_SEARCH, [query, SHOWN])
                rows.append({"query": query, "hits": hits, "bytes": Counting.served})
                context.close()
            browser.close()
    finally:
        server.shutdown()
    return rows, seconds, on_disk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("papers", type=int)
    parser.add_argument("--queries", nargs="+", default=list(QUERIES))
    parser.add_argument("--no-pagefind", action="store_true")
    args = parser.parse_args()
    content, site = make_site(args.papers)
    cut, shard_bytes = write_shards(content, site)
    whole = (site / "assets" / "search-index.js").read_bytes()
    whole_gz = gz(whole) + gz(lunr_js_path().read_bytes())
    ours = ours_sharded(site, args.queries)
    theirs, pf_seconds, pf_disk = ([], 0.0, 0) if args.no_pagefind else pagefind(site, args.queries)
    print(f"{args.papers} papers: whole index {len(whole) / 1e6:.1f} MB on disk ({whole_gz / 1e3:,.0f} KB gzip with "
          f"lunr.js, fetched by every first query); shards {shard_bytes / 1e6:.1f} MB on disk, cut in {cut:.1f} s"
          + (f"; Pagefind {pf_disk / 1e6:.1f} MB on disk, indexed in {pf_seconds:.1f} s" if theirs else ""))
    print("| query | ours, whole index | ours, sharded | of which terms | requests | Pagefind | ours ÷ Pagefind |")
    print("|---|---|---|---|---|---|---|")
    for n, row in enumerate(ours):
        other = theirs[n]["bytes"] if theirs else 0
        ratio = f"{row['gzip'] / other:.2f}" if other else "–"
        print(f"| {row['query']} | {whole_gz / 1e3:,.0f} KB | {row['gzip'] / 1e3:,.0f} KB | "
              f"{row['terms'] / 1e3:,.0f} KB | {row['requests']} | "
              f"{other / 1e3:,.0f} KB | {ratio} |")


if __name__ == "__main__":
    main()
