"""What the cyclic garbage collector costs a build: its collections by generation and their seconds.

    python bench/gc_pace.py CONTENT OUT [--pace default|build|off]

Runs ``proceedings build --content CONTENT --out OUT`` in this process (its workers are forked and inherit the
pace) with the collector at CPython's pace (``default``: 700, 10, 10), at the build's own (``build``, what
``proceedings build`` sets: runtime/collector.py) or off, and prints each generation's collections and the
seconds spent in them (``gc.callbacks``; this process only). CPU time: run it under ``/usr/bin/time``.
Measured in issue 43's session 19 (bench/RESULTS.md) on a warm build of /work/corp/c10k.
"""

from __future__ import annotations

import argparse
import gc
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
    parser.add_argument("--pace", choices=["default", "build", "off"], default="build")
    args = parser.parse_args()
    if args.pace == "default":  # the build would set its own: keep CPython's
        collector.PACE = gc.get_threshold()
    elif args.pace == "off":
        gc.disable()
    spent: dict[int, list[float]] = {}
    started = [0.0]

    def watch(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            spent.setdefault(info["generation"], []).append(time.perf_counter() - started[0])

    gc.callbacks.append(watch)
    start = time.perf_counter()
    build_module.build(args.content, args.out, Reporter())
    wall = time.perf_counter() - start
    gc.callbacks.remove(watch)
    counts = ", ".join(f"generation {g}: {len(s)} collections, {sum(s):.3f} s" for g, s in sorted(spent.items()))
    print(f"pace {args.pace} {collector.PACE if args.pace != 'off' else 'off'}: build {wall:.2f} s wall; "
          f"{counts or 'no collection'}")


if __name__ == "__main__":
    main()
