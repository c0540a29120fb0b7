#!/usr/bin/env python3
"""Two commits' builds side by side, interleaved, on one corpus: is a change no slower?

    python bench/compare_revs.py BEFORE AFTER [--papers 10000] [--rounds 3]

Each commit's generator/ and themes/ are exported (``run_bench.export_rev``). Every round
builds the same corpus cold, warm and warm with ``--no-cache`` with BEFORE, then with AFTER,
so load from other processes weighs on both alike. Reported per kind of build: the best wall
time, the median CPU time (user + system, workers included: it moves less with load) and the
worst process-tree PSS; and whether both commits wrote the same site, byte for byte.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_corpus  # noqa: E402
import run_bench  # noqa: E402

KINDS = ("cold", "warm", "warm, no cache")


def build_once(kind: str, content: Path, site: Path, log: Path) -> dict:
    if kind == "cold":
        return run_bench.cold_build(0, content, site, log)
    return run_bench.warm_build(0, content, site, log, cache=kind == "warm")


def same_site(a: Path, b: Path) -> bool:
    """Every file of one site is in the other with the same bytes."""
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    others = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    return files == others and all(filecmp.cmp(a / name, b / name, shallow=False) for name in files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = run_bench.OUT / f"revs-{args.papers}"
    corpus = work / "content"
    if not corpus.is_dir():
        make_corpus.make(args.papers, corpus)
    revs = {name: run_bench.export_rev(rev) for name, rev in (("before", args.before), ("after", args.after))}
    runs: dict[tuple[str, str], list[dict]] = {}
    for round_number in range(1, args.rounds + 1):
        print(f"round {round_number}/{args.rounds}", flush=True)
        for name, (source, sha) in revs.items():
            run_bench.SOURCE = source
            content = work / f"content-{name}"
            if not content.exists():
                shutil.copytree(corpus, content)
            for kind in KINDS:
                print(f"  {name} ({sha})", end="", flush=True)
                result = build_once(kind, content, work / f"site-{name}", work / f"{name}.log")
                runs.setdefault((name, kind), []).append(result)
    print(f"\n{args.papers:,} papers; before {revs['before'][1]}, after {revs['after'][1]}; {args.rounds} rounds")
    print(f"{'':>16} {'best wall':>22} {'median CPU':>22} {'worst tree PSS':>22}")
    for kind in KINDS:
        cells = []
        for key, unit, pick in (("wall_s", "s", min), ("cpu_s", "s", statistics.median),
                                ("tree_pss_mb", "MB", max)):
            before, after = (pick(r[key] for r in runs[(name, kind)]) for name in ("before", "after"))
            cells.append(f"{before:.1f} → {after:.1f} {unit} ({after / before:.2f}×)")
        print(f"{kind:>16} " + " ".join(f"{cell:>22}" for cell in cells))
    print("same site, byte for byte:", same_site(work / "site-before", work / "site-after"))


if __name__ == "__main__":
    main()
