"""Edit-to-served latency of `proceedings serve`.

    python bench/serve_latency.py content            # the bundled seed
    python bench/serve_latency.py bench/out/content-10k

Copies the content folder, starts the server, then several times: rewrites
one paper's title and times from the save to the moment the served page
shows it. Reports the median and worst latency, the rebuild line (files
rendered and written) and the search index lag printed by the server.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
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


def measure(content: Path, rounds: int, pause: float) -> dict:
    work = Path(tempfile.mkdtemp(prefix="serve-bench-"))
    shutil.copytree(content, work / "content")
    port = free_port()
    log = work / "serve.log"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    server = subprocess.Popen([sys.executable, "-m", "generator", "serve", "--content", str(work / "content"),
                               "--out", str(work / "site"), "--port", str(port)],
                              stdout=log.open("w"), stderr=subprocess.STDOUT, env=env)
    try:
        wait(lambda: fetch(f"http://127.0.0.1:{port}/index.html"), timeout=600, step=0.2)
        pages = sorted((work / "content" / "papers").glob("*.md"))
        page = pages[len(pages) // 2]
        url = f"http://127.0.0.1:{port}/papers/{page.stem}.html"
        latencies = []
        for number in range(rounds):
            time.sleep(pause)  # let the previous search index settle, as between two real edits
            marker = f"Bench edit {number}"
            text = re.sub(r"^title: .*$", f"title: '{marker}'", page.read_text(encoding="utf-8"), count=1, flags=re.M)
            page.write_text(text, encoding="utf-8")
            latencies.append(wait(lambda marker=marker: marker in fetch(url)))
        time.sleep(pause)
        output = log.read_text(encoding="utf-8")
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(work, ignore_errors=True)
    rebuilds = re.findall(r"rebuilt \(paper page\): .*", output)
    lags = [float(x) for x in re.findall(r"search index ready (\d+) ms", output)]
    return {"median": statistics.median(latencies), "worst": max(latencies),
            "rebuild": rebuilds[-1] if rebuilds else "", "search_lag_ms": statistics.median(lags) if lags else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pause", type=float, default=8.0, help="seconds between edits (default 8)")
    args = parser.parse_args()
    result = measure(args.content, args.rounds, args.pause)
    papers = len(list((args.content / "papers").glob("*.md")))
    print(f"{args.content} ({papers} papers): save → served page median {result['median'] * 1000:.0f} ms, "
          f"worst {result['worst'] * 1000:.0f} ms over {args.rounds} edits")
    print(f"  last rebuild: {result['rebuild']}")
    print(f"  search index lag (median): {result['search_lag_ms']} ms")


if __name__ == "__main__":
    main()
