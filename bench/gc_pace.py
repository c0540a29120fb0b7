"""What the cyclic garbage collector costs a build: its collections by generation and their seconds.

    python bench/gc_pace.py CONTENT OUT [--pace default|build|off]

Runs ``proceedings build --content CONTENT --out OUT`` in this process (its workers are forked and inherit the
pace) with the collector at CPython's pace (``default``: 700, 10, 10), at the build's own (``build``, what
``proceedings build`` sets: runtime/collector.py), at ``YOUNG,MIDDLE,OLD`` (``--pace 50000,20,20``) or off,
and prints each generation's collections and the CPU seconds spent in them (``gc.callbacks``, the collecting
thread's time), in this process and in its forked workers (which inherit the callback: each appends its
collections to a file beside OUT). CPU time of the whole build: run it under ``/usr/bin/time``.
Measured in issue 43's session 19 (bench/RESULTS.md) on a warm build of /work/corp/c10k, in session 26 on a cold
one.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))

from generator.commands import build as build_module  # noqa: E402
from generator.reporter import Reporter  # noqa: E402
from generator.runtime import collector  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--pace", default="build", help="default, build, off or YOUNG,MIDDLE,OLD")
    args = parser.parse_args()
    if args.pace == "default":  # the build would set its own: keep CPython's
        collector.PACE = gc.get_threshold()
    elif args.pace == "off":
        gc.disable()
    elif args.pace != "build":
        young, middle, old = (int(part) for part in args.pace.split(","))
        collector.PACE = (young, middle, old)
    workers_log = args.out.with_name(f".{args.out.name}.gc-{os.getpid()}")
    me, started = os.getpid(), [0.0]
    spent: dict[int, list[float]] = {}

    def watch(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.thread_time()
            return
        seconds = time.thread_time() - started[0]
        if os.getpid() == me:
            spent.setdefault(info["generation"], []).append(seconds)
        else:  # a forked worker: its own collections, appended (a line is written whole)
            with open(workers_log, "a", encoding="utf-8") as log:
                log.write(f"{info['generation']} {seconds:.6f}\n")

    gc.callbacks.append(watch)
    start = time.perf_counter()
    build_module.build(args.content, args.out, Reporter())
    wall = time.perf_counter() - start
    gc.callbacks.remove(watch)
    workers: dict[int, list[float]] = {}
    if workers_log.exists():
        for line in workers_log.read_text(encoding="utf-8").splitlines():
            generation, seconds = line.split()
            workers.setdefault(int(generation), []).append(float(seconds))
        workers_log.unlink()
    print(f"pace {args.pace} {collector.PACE if args.pace != 'off' else 'off'}: build {wall:.2f} s wall")
    for who, found in (("this process", spent), ("its workers", workers)):
        counts = ", ".join(f"generation {generation}: {len(times)} collections, {sum(times):.3f} CPU-s"
                           for generation, times in sorted(found.items()))
        print(f"  {who}: {counts or 'no collection'}")


if __name__ == "__main__":
    main()
