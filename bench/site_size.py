"""A built site's size as its host stores it (issue 43), by top-level part and by kind of file.

    python bench/site_size.py SITE [--papers N] [--top 20]
    python bench/site_size.py BEFORE AFTER --papers N       # the two side by side

On disk is what ``du -s --block-size=1`` reports (the blocks allocated, every small file at least one
block); apparent is what ``du -sb`` reports less the folders' own entries (the bytes the files hold).
Both come from generator/pipeline/hosting.site_size, the accounting the build's size warning uses.
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

from generator.pipeline.hosting import SiteSize, site_size


def du(folder: Path, *flags: str) -> int:
    """``du -s`` of ``folder`` with ``flags``, to check the accounting against the tool."""
    return int(subprocess.run(["du", "-s", *flags, str(folder)], capture_output=True, text=True,
                              check=True).stdout.split()[0])


def table(title: str, sizes: list[SiteSize], rows: list[str], pick, top: int) -> list[str]:
    counted = pick(sizes[0], rows[0])[1] is not None if rows else False
    lines = [f"| {title} | " + " | ".join("on disk | files" if counted else "on disk" for _ in sizes) + " |",
             "|---|" + ("---:|---:|" if counted else "---:|") * len(sizes)]
    for name in rows[:top]:
        cells = []
        for size in sizes:
            weight, count = pick(size, name)
            cells.append(f"{weight / 1e6:,.1f} MB" + (f" | {count:,}" if counted else ""))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sites", nargs="+", type=Path)
    parser.add_argument("--papers", type=int, default=0, help="papers in the site, for the bytes a paper")
    parser.add_argument("--top", type=int, default=20, help="kinds of file listed")
    args = parser.parse_args()
    sizes = [site_size(site) for site in args.sites]
    for site, size in zip(args.sites, sizes):
        each = f", {size.bytes / args.papers:,.0f} B a paper on disk" if args.papers else ""
        print(f"{site}: {size.bytes:,} B on disk (du -s --block-size=1: {du(site, '--block-size=1'):,}), "
              f"{size.apparent:,} B apparent (du -sb: {du(site, '-b'):,}), {size.files:,} files{each}")
    first = sizes[-1]
    kinds = sorted(set().union(*(s.kinds for s in sizes)), key=lambda k: -first.kinds[k])
    parts = sorted(set().union(*(s.parts for s in sizes)), key=lambda k: -first.parts[k])
    print()
    print("\n".join(table("part", sizes, parts, lambda s, n: (s.parts[n], None), len(parts))))
    print()
    print("\n".join(table("kind", sizes, kinds, lambda s, n: (s.kinds[n], s.counts[n]), args.top)))


if __name__ == "__main__":
    main()
