"""Edit-to-served latency of `proceedings serve`.

    python bench/serve_latency.py content            # the bundled seed
    python bench/serve_latency.py bench/out/content-10k

Copies the content folder, starts the server, then several times: rewrites
one paper's title and times from the save to the moment the served page
shows it. Reports the median and worst latency, the rebuild line (files
rendered and written) and the search index lag printed by the server.

Meanwhile a reader keeps asking for another page (one no edit changes) every
20 ms: the slowest answer is how long the server kept a reader waiting while
it rebuilt. ``--config-edits N`` also edits ``proceedings.yaml`` N times, the
edit that rebuilds the whole volume. ``--break N`` also breaks that paper's front
matter N times (an unclosed quote), waits for the server to report it, then mends
it with a new title: recovery is from the mend's save to the page served with it
(issue 29: ≤ 2 s at 10,000 papers, the slowest answer meanwhile ≤ 0.5 s).
``--repo DIR`` runs another checkout's generator (an A/B of two commits in one run).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import site
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8")
    except OSError:
        return ""


def wait(predicate, timeout: float = 120.0, step: float = 0.01) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if predicate():
            return time.perf_counter() - start
        time.sleep(step)
    raise TimeoutError("the server did not show the change")


class Reader(threading.Thread):
    """Asks for one page again and again; keeps the slowest answer."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url, self.slowest, self.asked = url, 0.0, 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            start = time.perf_counter()
            fetch(self.url)
            self.slowest = max(self.slowest, time.perf_counter() - start)
            self.asked += 1
            time.sleep(0.02)


def break_and_mend(page: Path, url: str, log: Path, number: int) -> tuple[float, float]:
    """Break the page's front matter, wait for the server to say so, mend it: (seconds to the report, recovery)."""
    said = log.read_text(encoding="utf-8").count(page.name)
    text = page.read_text(encoding="utf-8")
    page.write_text(re.sub(r"^title: .*$", "title: 'Broken, never closed", text, count=1, flags=re.M), encoding="utf-8")
    reported = wait(lambda: log.read_text(encoding="utf-8").count(page.name) > said, timeout=120)
    marker = f"Bench mended {number}"
    page.write_text(re.sub(r"^title: .*$", f"title: '{marker}'", text, count=1, flags=re.M), encoding="utf-8")
    return reported, wait(lambda: marker in fetch(url))


def measure(content: Path, rounds: int, pause: float, config_edits: int = 0, repo: Path = REPO,
            breaks: int = 0) -> dict:
    work = Path(tempfile.mkdtemp(prefix="serve-bench-"))
    shutil.copytree(content, work / "content")
    port = free_port()
    log = work / "serve.log"
    # -S: no site hooks, so an editable install of another checkout cannot stand in for ``repo``'s generator.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(repo), *site.getsitepackages()])}
    server = subprocess.Popen([sys.executable, "-S", "-m", "generator", "serve", "--content", str(work / "content"),
                               "--out", str(work / "site"), "--port", str(port)],
                              stdout=log.open("w"), stderr=subprocess.STDOUT, env=env)
    try:
        wait(lambda: fetch(f"http://127.0.0.1:{port}/index.html"), timeout=600, step=0.2)
        pages = sorted((work / "content" / "papers").glob("*.md"))
        page = pages[len(pages) // 2]
        url = f"http://127.0.0.1:{port}/papers/{page.stem}.html"
        latencies, whole = [], []
        reader = Reader(f"http://127.0.0.1:{port}/404.html")
        reader.start()
        for number in range(rounds):
            time.sleep(pause)  # let the previous search index settle, as between two real edits
            marker = f"Bench edit {number}"
            text = re.sub(r"^title: .*$", f"title: '{marker}'", page.read_text(encoding="utf-8"), count=1, flags=re.M)
            page.write_text(text, encoding="utf-8")
            latencies.append(wait(lambda marker=marker: marker in fetch(url)))
        mended = []
        for number in range(breaks):
            time.sleep(pause)
            mended.append(break_and_mend(page, url, log, number))
        config = work / "content" / "proceedings.yaml"
        original = config.read_text(encoding="utf-8") if config.exists() else ""
        for number in range(config_edits):
            time.sleep(pause)
            marker = f"Bench description {number}"
            config.write_text(re.sub(r"^description:.*\n", "", original, flags=re.M) + f"description: {marker}\n",
                              encoding="utf-8")
            whole.append(wait(lambda marker=marker: marker in fetch(f"http://127.0.0.1:{port}/index.html"),
                              timeout=600))
        time.sleep(pause)
        reader.done.set()
        reader.join(15)
        output = log.read_text(encoding="utf-8")
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(work, ignore_errors=True)
    rebuilds = re.findall(r"rebuilt \(paper page\): .*", output)
    lags = [float(x) for x in re.findall(r"search index ready (\d+) ms", output)]
    return {"median": statistics.median(latencies), "worst": max(latencies), "whole": whole, "mended": mended,
            "reader_slowest": reader.slowest, "reader_asked": reader.asked,
            "rebuild": rebuilds[-1] if rebuilds else "", "search_lag_ms": statistics.median(lags) if lags else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pause", type=float, default=8.0, help="seconds between edits (default 8)")
    parser.add_argument("--config-edits", type=int, default=0, help="edits of proceedings.yaml (whole rebuilds)")
    parser.add_argument("--break", dest="breaks", type=int, default=0,
                        help="times to break the paper's front matter and mend it")
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose generator serves")
    args = parser.parse_args()
    result = measure(args.content, args.rounds, args.pause, args.config_edits, args.repo.resolve(), args.breaks)
    papers = len(list((args.content / "papers").glob("*.md")))
    print(f"{args.content} ({papers} papers): save → served page median {result['median'] * 1000:.0f} ms, "
          f"worst {result['worst'] * 1000:.0f} ms over {args.rounds} edits")
    print(f"  last rebuild: {result['rebuild']}")
    print(f"  search index lag (median): {result['search_lag_ms']} ms")
    if result["whole"]:
        print(f"  proceedings.yaml edit → served home page: worst {max(result['whole']) * 1000:.0f} ms "
              f"over {len(result['whole'])} edits")
    for reported, recovery in result["mended"]:
        print(f"  page broken: reported after {reported * 1000:.0f} ms; mended → served {recovery * 1000:.0f} ms")
    print(f"  a reader meanwhile ({result['reader_asked']} requests): slowest answer "
          f"{result['reader_slowest'] * 1000:.0f} ms  [{args.repo}]")


if __name__ == "__main__":
    main()
