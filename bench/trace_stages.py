"""What the build process holds between its stages, by the line that allocated it (tracemalloc).

    python bench/trace_stages.py CONTENT [--stage "render templates"] [--top 25] [--jobs 1] [--frames 4] [--warm]

Copies CONTENT to bench/out/trace/ without its pages and cache (a cold build; with ``--warm`` built once first
in a subprocess, untraced, and then the warm build with nothing changed traced), builds it in this process
with tracemalloc on, and prints after each stage the Python memory traced and the process's RSS; as the
stage named by ``--stage`` starts (and as it ends), the ``--top`` places holding the most, grouped by a
traceback of ``--frames`` frames. Forked workers inherit tracemalloc (slow, not counted here); ``--jobs 1``
keeps all work in this process. Times under tracemalloc are 2-4 times a plain build's: read the bytes only.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))

from generator.commands.build import build  # noqa: E402
from generator.pipeline import stages  # noqa: E402
from generator.reporter import Reporter  # noqa: E402


def _rss_mb() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) // 1024 for line in status if line.startswith("VmRSS"))


def _report(label: str, top: int, frames: int) -> None:
    gc.collect()
    snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
    stats = snapshot.statistics("traceback")
    total = sum(stat.size for stat in stats)
    print(f"\n== {label}: traced {total / 2**20:,.1f} MB, RSS {_rss_mb():,} MB", flush=True)
    for stat in stats[:top]:
        where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in list(stat.traceback)[:frames])
        print(f"{stat.size / 2**20:8.1f} MB {stat.count:9,}  {where}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--stage", action="append", default=[], help="a stage's name, as `build -v` prints it")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--frames", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--warm", action="store_true", help="trace a second build of the same copy (warm)")
    args = parser.parse_args()
    work = BENCH / "out" / "trace"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(args.content, work / "content", ignore=shutil.ignore_patterns("papers", ".proceedings-cache"))
    if args.warm:
        subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(work / "content"), "--out",
                        str(work / "site")], cwd=BENCH.parent, check=True, stdout=subprocess.DEVNULL)
    watched = set(args.stage or ["render templates"])
    timed = stages.Pipeline.timed

    def traced(self, name, func, *a, **k):  # type: ignore[no-untyped-def]
        if name in watched:
            _report(f"before {name}", args.top, args.frames)
        try:
            return timed(self, name, func, *a, **k)
        finally:
            if name in watched:
                _report(f"after {name}", args.top, args.frames)
            else:
                print(f"-- after {name}: traced {tracemalloc.get_traced_memory()[0] / 2**20:,.1f} MB, "
                      f"RSS {_rss_mb():,} MB", flush=True)

    stages.Pipeline.timed = traced  # type: ignore[method-assign]
    tracemalloc.start(args.frames)
    build(work / "content", work / "site", Reporter(), jobs=args.jobs or None)


if __name__ == "__main__":
    main()
