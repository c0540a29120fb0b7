"""Which processes hold the memory of a build, and when: the process tree's PSS sampled over time.

    python bench/memory_timeline.py CONTENT [--cold | --warm] [--again] [--step 1] [-- extra build arguments]

Copies CONTENT to bench/out/timeline/ (with ``--cold`` or ``--warm`` without its pages and cache, so the
build creates them; ``--warm`` then builds once unobserved, and observes the next build, with the pages,
the cache and the site from that one and nothing changed), runs ``proceedings build -v`` on the copy in a
subprocess and prints,
every ``--step`` seconds, the tree's summed PSS and each process's PSS (the build first, then
its forked workers), then the stage lines, then each stage's peak: the tree's largest sample while the
stage ran (a stage's window is read from its line, which the build prints as the stage ends, and its
length), with each process's share then.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from run_bench import _memory_kb, _tree  # noqa: E402

STAGE = re.compile(r"^  (\S.*?)\s+([\d.]+) ms$")


def stage_peaks(samples: list[tuple[float, list[int]]], ends: list[tuple[str, float, float]]) -> list[str]:
    """Each stage (its name, when its line came, its length): the largest tree sample within it."""
    lines = []
    for name, end, length in ends:
        inside = [(sum(pss), now, pss) for now, pss in samples if end - length - 0.5 <= now <= end + 0.5]
        if inside:
            total, now, pss = max(inside)
            lines.append(f"{name:<18} {length:8.1f} s  peak {total:6,} MB at {now:7.1f} s  "
                         + " + ".join(f"{p:,}" for p in pss))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--cold", action="store_true", help="remove the pages and the cache first")
    parser.add_argument("--warm", action="store_true",
                        help="as --cold, then observe a second build with nothing changed")
    parser.add_argument("--again", action="store_true",
                        help="then observe a second build of the same copy into the same site (warm)")
    parser.add_argument("--step", type=float, default=1.0)
    parser.add_argument("extra", nargs="*", help="more arguments for `proceedings build`")
    args = parser.parse_args()

    work = BENCH / "out" / "timeline"
    if args.content.resolve() != (work / "content").resolve():
        if work.exists():
            shutil.rmtree(work)
        ignore = shutil.ignore_patterns("papers", ".proceedings-cache") if args.cold or args.warm else None
        shutil.copytree(args.content, work / "content", ignore=ignore)
    # (CONTENT the copy an earlier run left, bench/out/timeline/content: built again as it is, into its site)
    cmd = [sys.executable, "-m", "generator", "build", "--content", str(work / "content"),
           "--out", str(work / "site"), "-v", *args.extra]
    if args.warm:
        subprocess.run(cmd, cwd=BENCH.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    observe(cmd, work, args.step)
    if args.again:  # the same content and site again, nothing changed: the warm build
        print("\nagain, warm:")
        observe(cmd, work, args.step)


def observe(cmd: list[str], work: Path, step: float) -> None:
    log = open(work / "build.log", "w+b")
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=BENCH.parent, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})  # each stage's line as the stage ends
    peak = (0, 0.0)
    samples: list[tuple[float, list[int]]] = []
    ends: list[tuple[str, float, float]] = []
    reader, pending = open(work / "build.log", "rb"), b""
    while proc.poll() is None:
        pss = [_memory_kb(pid)[1] // 1024 for pid in _tree(proc.pid)]
        now = time.perf_counter() - start
        peak = max(peak, (sum(pss), now))
        samples.append((now, pss))
        pending += reader.read()
        *lines, pending = pending.split(b"\n")  # the last, not ended yet, waits for the next sample
        for line in lines:
            if match := STAGE.match(line.decode("utf-8", "replace")):
                ends.append((match[1], now, float(match[2]) / 1000))
        print(f"{now:7.1f} s  tree {sum(pss):6,} MB  " + " + ".join(f"{p:,}" for p in pss), flush=True)
        time.sleep(step)
    log.seek(0)
    stages = [line for line in log.read().decode("utf-8", "replace").splitlines() if line.startswith("  ")]
    print(f"exit {proc.returncode} after {time.perf_counter() - start:.1f} s; tree peak {peak[0]:,} MB "
          f"at {peak[1]:.1f} s")
    print("\n".join(stages))
    print("each stage's peak, the tree's PSS (build + its children):")
    print("\n".join(stage_peaks(samples, ends)))


if __name__ == "__main__":
    main()
