"""A series archive at scale: V volumes, N papers in all, built cold and warm, with memory.

    python bench/series_bench.py --volumes 30 --papers 50000 [--workdir bench/out/archive]

The corpus comes from bench/make_corpus.py's machinery (the real abstracts of
../shared/corpora/, varied past the ~5,000 real ones), written as one JSON Lines
volume per year with authors drawn from a fixed pool of names (some with an ORCID),
so that people recur across volumes as in a real series. Each build runs in a
subprocess (`python -m generator build`) measured by run_bench.run_measured: wall
time, CPU, the largest process's peak RSS and the whole tree's peak PSS. Then the
output: files, the archive's own pages (home, people), and the search payload a
reader downloads: each volume's index (what the volume filter loads) and all of them
(a query across the archive), gzip, per paper.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from make_corpus import load_abstracts, vary  # noqa: E402
from run_bench import REPO, gz, run_measured  # noqa: E402

GIVEN = ("Ada Alan Ana Anna Ben Carla Chen Dana Elena Emil Fatima Grace Hana Ivan Jane Jian Jorge Kai Lena Li "
         "Marta Mei Mohammed Nadia Omar Pedro Priya Ravi Sara Tomas Wei Yuki Zoe Ahmed Bruno Chloe David Eva "
         "Felix Gina Hugo Ines Jonas Kiran Lucas Maya Nico Olga Paul Rosa").split()
FAMILY = [f"{stem}{suffix}" for stem in ("Tan Roe Doe Kim Lee Park Silva Rossi Novak Sato Khan Meyer Costa Weber "
                                         "Dubois Moreau Nagy Horvat Popescu Ivanov").split()
          for suffix in ("", "son", "er", "ini", "ova", "escu", "berg", "ford", "ley", "mann")]


def person(rng: random.Random) -> dict | str:
    name = f"{rng.choice(GIVEN)} {rng.choice(FAMILY)}"
    if rng.random() < 0.2:  # some give an ORCID, always the same one for the same name
        digits = str(int(hashlib.sha256(name.encode()).hexdigest(), 16))[:15]
        return {"name": name, "orcid": f"0000-{digits[0:4]}-{digits[4:8]}-{digits[8:12]}"}
    return name


def make_series(volumes: int, papers: int, target: Path, seed: int = 2026) -> Path:
    """``volumes`` folders named by year, ``papers`` split evenly, and the series' proceedings.yaml."""
    rng = random.Random(seed)
    pool = load_abstracts()
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    (target / "proceedings.yaml").write_text("title: Benchmark Series\ndescription: Every volume.\n"
                                             "base_url: https://example.org/series/\n", encoding="utf-8")
    first_year = 2026 - volumes + 1
    made, order = 0, []
    for number in range(volumes):
        year = first_year + number
        count = papers // volumes + (1 if number < papers % volumes else 0)
        folder = target / str(year)
        folder.mkdir()
        (folder / "proceedings.yaml").write_text(f"title: Benchmark Workshop {year}\ndate: {year}-12-06\n",
                                                 encoding="utf-8")
        lines = []
        for index in range(count):
            round_number, position = divmod(made + index, len(pool))
            if position == 0:  # each real abstract once per round, as make_corpus.make does
                order = list(range(len(pool)))
                rng.shuffle(order)
            authors = [person(rng) for _ in range(rng.randint(1, 6))]
            lines.append(json.dumps({"id": f"{year}-{index + 1}", "authors": authors,
                                     "abstract": vary(pool[order[position]], round_number, rng)}))
        made += count
        (folder / "papers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def series_build(content: Path, site: Path, log: Path) -> dict:
    cmd = [sys.executable, "-m", "generator", "build", "--content", str(content), "--out", str(site)]
    result = run_measured(cmd, cwd=REPO, log=log, timeout=7200)
    text = result.pop("output")
    if result["exit"] not in (0, 1):
        sys.exit(f"build failed (exit {result['exit']}), see {log}:\n{text[-3000:]}")
    return result


def output_stats(site: Path) -> dict:
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    volumes = sorted({r["volume_path"] for r in records})
    # A volume's index is its files under assets/search/ (each gzipped on its own, as a server sends them).
    gzipped = {v: sum(gz(path.read_bytes()) for path in (site / v / "assets" / "search").glob("*.js"))
               for v in volumes}
    counts = {v: sum(r["volume_path"] == v for r in records) for v in volumes}
    people = [p for p in (site / "people").glob("*.html")]
    shell = sum(gz((site / "assets" / name).read_bytes()) for name in ("lunr.js", "search-query.js",
                                                                       "search.js"))
    return {
        "papers": len(records),
        "volumes": len(volumes),
        "files": sum(1 for p in site.rglob("*") if p.is_file()),
        "bytes": sum(p.stat().st_size for p in site.rglob("*") if p.is_file()),
        "home_bytes": (site / "index.html").stat().st_size,
        "people_pages": len(people),
        "largest_person_bytes": max(p.stat().st_size for p in people),
        "search_shell_gzip": shell,
        "volume_index_gzip_max": max(gzipped.values()),
        "volume_index_gzip_per_paper": max(gzipped[v] / counts[v] for v in volumes),
        "all_indexes_gzip": sum(gzipped.values()),
        "all_indexes_gzip_per_paper": sum(gzipped.values()) / len(records),
    }


def first_results(site: Path, query: str = "learning", volume: str = "") -> dict:
    """In Debian's chromium from file://: ms from opening search.html?q=… to the first result, and
    to the last volume searched; and how many volume indexes were downloaded."""
    from playwright.sync_api import sync_playwright

    url = (site / "search.html").as_uri() + f"?q={query}" + (f"&volume={volume}" if volume else "")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        loaded = []
        page.on("request", lambda r: r.url.endswith("/assets/search/manifest.js") and loaded.append(r.url))
        start = time.perf_counter()
        page.goto(url)
        page.wait_for_selector(".search-hit", timeout=120_000)
        first = time.perf_counter() - start
        # search.js's last word once every volume wanted has answered: "Searched N volumes."
        page.wait_for_function("() => /Searched \\d+ volumes?\\.$/.test(document.querySelector('.search-status')"
                               ".textContent)", timeout=600_000)
        done = time.perf_counter() - start
        status = page.locator(".search-status").inner_text()
        browser.close()
    return {"query": query, "volume": volume, "first_results_ms": first * 1000, "all_done_ms": done * 1000,
            "indexes_loaded": len(loaded), "status": status}


def browser_timings(site: Path) -> list[dict]:
    newest = max(p.name for p in site.iterdir() if (p / "papers.json").is_file())
    timings = [first_results(site), first_results(site, volume=newest)]
    for timing in timings:
        print(f"search {timing['query']!r} {'in ' + timing['volume'] if timing['volume'] else 'in all volumes'}: "
              f"first results {timing['first_results_ms']:.0f} ms, all {timing['all_done_ms']:.0f} ms, "
              f"{timing['indexes_loaded']} indexes loaded ({timing['status']})", flush=True)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--volumes", type=int, default=30)
    parser.add_argument("--papers", type=int, default=50_000)
    parser.add_argument("--workdir", type=Path, default=BENCH / "out" / "archive")
    parser.add_argument("--browser-only", action="store_true", help="only the browser timings, on the last build")
    args = parser.parse_args()
    if args.browser_only:
        browser_timings(args.workdir / "site")
        return
    content, site = args.workdir / "content", args.workdir / "site"
    make_series(args.volumes, args.papers, content)
    print(f"archive of {args.volumes} volumes, {args.papers} papers in {content}", flush=True)
    runs = {}
    for kind in ("cold", "warm"):
        runs[kind] = series_build(content, site, args.workdir / f"{kind}.log")
        run = runs[kind]
        print(f"{kind}: {run['wall_s']:.1f} s wall, {run['cpu_s']:.1f} s CPU, largest process "
              f"{run['maxrss_mb']:.0f} MB RSS, tree {run['tree_pss_mb']:.0f} MB PSS", flush=True)
    stats = output_stats(site)
    print(json.dumps(stats, indent=1))
    browser = browser_timings(site)
    (args.workdir / "results.json").write_text(json.dumps({"runs": runs, "output": stats, "browser": browser,
                                                           "command": " ".join(sys.argv)}, indent=1))


if __name__ == "__main__":
    main()
