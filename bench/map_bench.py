"""The map of the papers against its budgets (issue 41): a cold build's time with the map on and off, side by
side in one run, the map's own time, and map.html's size gzipped per 1,000 papers.

    python bench/map_bench.py --papers 1000 10000 [--rounds 3]

For each N: a corpus of N real abstracts (bench/make_corpus.py), one cold build not counted (the first build of
a new corpus is slower, whatever it builds), then ``--rounds`` pairs of cold builds
(no pages, no site, no build cache: run_bench.cold_build), one with the map (the default) and one with
``map: off`` in proceedings.yaml, in alternating order, so that the machine's load falls on both alike.
Reported: the best wall time of each and their ratio (the budget: at most 1.10), the "map papers" stage of
the build with the map (``-v``; the layout, in the build's process) and its share of that build's wall time (on
a machine others load, the figure two builds cannot skew), and map.html's bytes, raw and gzipped, and the map's
in all with the points files beside it (map/points-N.js, issue 43; the budget: at most 60 KB gzipped per 1,000
papers). bench/map_page.py times the page in a browser.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import make_corpus  # noqa: E402
import run_bench  # noqa: E402

BUDGET_RATIO = 1.10
BUDGET_GZIP_PER_1000 = 60_000


def with_map(content: Path, on: bool) -> None:
    """proceedings.yaml as make_corpus wrote it, with ``map: off`` added when ``on`` is False."""
    config = content / "proceedings.yaml"
    lines = [line for line in config.read_text(encoding="utf-8").splitlines() if not line.startswith("map:")]
    config.write_text("\n".join(lines + ([] if on else ["map: off"])) + "\n", encoding="utf-8")


def bench(n: int, rounds: int, workdir: Path) -> dict:
    content, site = workdir / f"content-{n}", workdir / f"site-{n}"
    shutil.rmtree(content, ignore_errors=True)
    make_corpus.make(n, content)
    runs: dict[bool, list[dict]] = {True: [], False: []}
    # The first build of a new corpus is slower whatever it builds (files and caches cold): not counted.
    with_map(content, False)
    run_bench.cold_build(n, content, site, workdir / f"log-{n}-warmup.txt")
    for number in range(rounds):
        for on in ((True, False) if number % 2 == 0 else (False, True)):
            with_map(content, on)
            runs[on].append(run_bench.cold_build(n, content, site, workdir / f"log-{n}-{on}.txt"))
            if on:  # the page and, past its budget, the points files map.js loads (issue 43)
                page = (site / "map.html").read_bytes()
                points = [path.read_bytes() for path in sorted((site / "map").glob("*.js"))]
    best = {on: min(found, key=lambda run: run["wall_s"]) for on, found in runs.items()}
    map_ms = min(run["stages_ms"].get("map papers", 0.0) for run in runs[True])
    # The stage's share of its own build: on a machine others load, the one figure two builds cannot skew.
    share = min(run["stages_ms"].get("map papers", 0.0) / 1000 / run["wall_s"] for run in runs[True])
    return {"papers": n, "on_s": best[True]["wall_s"], "off_s": best[False]["wall_s"],
            "ratio": best[True]["wall_s"] / best[False]["wall_s"], "map_ms": map_ms, "share": share,
            # CPU-seconds of the build's process tree (user + system): less at the mercy of the load than the wall
            "cpu_on": min(r["cpu_s"] for r in runs[True]), "cpu_off": min(r["cpu_s"] for r in runs[False]),
            "walls_on": [r["wall_s"] for r in runs[True]], "walls_off": [r["wall_s"] for r in runs[False]],
            "map_raw": len(page), "map_gzip": run_bench.gz(page), "files": len(points),
            "all_raw": len(page) + sum(map(len, points)),
            "gzip_per_1000": (run_bench.gz(page) + sum(map(run_bench.gz, points))) * 1000 / n}


def report(result: dict) -> str:
    ratio_ok = "within" if result["ratio"] <= BUDGET_RATIO else "OVER"
    size_ok = "within" if result["gzip_per_1000"] <= BUDGET_GZIP_PER_1000 else "OVER"
    return (f"{result['papers']:>6} papers: cold build {result['on_s']:.2f} s with the map, {result['off_s']:.2f} s "
            f"without ({result['ratio']:.3f}×, {ratio_ok} the 1.10 budget); map papers stage "
            f"{result['map_ms'] / 1000:.2f} s ({result['share']:.1%} of its build); "
            f"map.html {result['map_raw'] / 1000:.1f} KB, {result['map_gzip'] / 1000:.1f} KB gzip; with its "
            f"{result['files']} points files {result['all_raw'] / 1000:.1f} KB, "
            f"{result['gzip_per_1000'] / 1000:.1f} KB gzip per 1,000 papers ({size_ok} the 60 KB budget); "
            f"CPU {result['cpu_on']:.1f} s with, {result['cpu_off']:.1f} s "
            f"without ({result['cpu_on'] / result['cpu_off']:.3f}×)\n        walls with: {result['walls_on']}, "
            f"without: {result['walls_off']} (load {run_bench.loadavg()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=run_bench.OUT / "map")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    results = [bench(n, args.rounds, args.workdir) for n in args.papers]
    print("\n".join(report(result) for result in results))


if __name__ == "__main__":
    main()
