"""How busy each process of a build is during a stage: the time a process sits idle while another works.

    python bench/balance_bench.py CONTENT [--stage "render templates"] [--work DIR] [-- extra build arguments]

Copies CONTENT without its pages and cache (a cold build, as ``memory_timeline.py --cold``) into
``--work`` (default bench/out/balance), runs ``proceedings build -v`` on it in a subprocess and samples
every process of its tree each 50 ms: its CPU time (user + system, /proc/PID/stat). When the build
has printed the stage's line (``-v``: the stage's name and its time, printed as it ends) the stage's
window is known; for each process alive in it the CPU it spent there (its busy time) is printed beside
the window's length. On two cores a stage that balances its work has its build and its worker each busy
for nearly the whole window; one that splits by count has one of them idle at its end.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from run_bench import _tree  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
STAGE = re.compile(r"^  (\S.*?)\s+([\d.]+) ms$")


def cpu_seconds(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14 and 15 of the whole line)


def at(series: list[tuple[float, float]], moment: float) -> float:
    """The CPU a process had spent by ``moment`` (its last sample before; 0 before its first)."""
    spent = 0.0
    for when, cpu in series:
        if when > moment:
            break
        spent = cpu
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--stage", action="append", help="a stage's name as -v prints it (repeatable)")
    parser.add_argument("--work", type=Path, default=BENCH / "out" / "balance")
    parser.add_argument("extra", nargs="*", help="more arguments for `proceedings build`")
    args = parser.parse_args()
    stages = args.stage or ["render templates"]

    if args.work.exists():
        shutil.rmtree(args.work)
    shutil.copytree(args.content, args.work / "content", ignore=shutil.ignore_patterns("papers", ".proceedings-cache"))
    cmd = [sys.executable, "-m", "generator", "build", "--content", str(args.work / "content"),
           "--out", str(args.work / "site"), "-v", *args.extra]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=BENCH.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})  # each stage's line as the stage ends
    ends: dict[str, tuple[float, float]] = {}  # stage → (when its line came, its length)

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if match := STAGE.match(line.rstrip("\n")):
                ends[match[1]] = (time.perf_counter() - start, float(match[2]) / 1000)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    series: dict[int, list[tuple[float, float]]] = {}
    while proc.poll() is None:
        now = time.perf_counter() - start
        for pid in _tree(proc.pid):
            if (cpu := cpu_seconds(pid)) is not None:
                series.setdefault(pid, []).append((now, cpu))
        time.sleep(0.05)
    reader.join()
    print(f"exit {proc.returncode} after {time.perf_counter() - start:.1f} s; {os.getloadavg()[0]:.1f} load")
    for stage in stages:
        if stage not in ends:
            print(f"{stage}: no such stage line")
            continue
        end, length = ends[stage]
        begin = end - length
        print(f"{stage}: {length:.2f} s (from {begin:.1f} s to {end:.1f} s)")
        for pid, samples in series.items():
            first, last = samples[0][0], samples[-1][0]
            if last < begin or first > end:
                continue
            busy = at(samples, end) - at(samples, begin)
            role = "build" if pid == proc.pid else "child"
            print(f"  {role} {pid}: busy {busy:6.2f} s of {length:.2f} ({busy / length:4.0%}); "
                  f"alive {first:.1f}–{last:.1f} s")


if __name__ == "__main__":
    main()
