#!/usr/bin/env python3
"""The dev server's rebuild after a one-paper edit, in process, for one generator tree.

    python bench/serve_rebuild.py CONTENT [--source TREE] [--edits 6]

Copies CONTENT (a built content folder, e.g. bench/out/revs-10000/content-after) without its
build cache, makes a ``LiveSite`` of the generator in TREE (default: this repository; an export
such as bench/out/src-0c518b0 measures an older commit), runs its first build, then edits one
paper's title ``--edits`` times and reports the median time of ``rebuild`` (no watcher, no HTTP:
only the work a rebuild does). Run it for two trees one after the other to compare them.

``--break N`` also breaks that page's front matter N times (``order: [``, as a half-typed edit leaves it)
and mends it, and reports each rebuild's time and the files it rendered (issue 29: a page broken and mended
should re-render only what shows it).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--source", type=Path, default=REPO)
    parser.add_argument("--edits", type=int, default=6)
    parser.add_argument("--break", dest="breaks", type=int, default=0, help="times to break and mend a page")
    args = parser.parse_args()
    sys.path.insert(0, str(args.source.resolve()))
    from generator.pipeline.live import LiveSite

    with tempfile.TemporaryDirectory() as work:
        content = Path(work) / "content"
        shutil.copytree(args.content, content, ignore=shutil.ignore_patterns(".proceedings-cache"))
        live = LiveSite(content, Path(work) / "site")
        start = time.perf_counter()
        live.build_all()
        print(f"first build {time.perf_counter() - start:.1f} s ({args.source})")
        live.wait_for_search()
        page = sorted((content / "papers").glob("*.md"))[5]
        times = []
        for number in range(args.edits):
            page.write_text(page.read_text(encoding="utf-8").replace("title: ", f"title: X{number} ", 1),
                            encoding="utf-8")
            start = time.perf_counter()
            result = live.rebuild({page.resolve()})
            times.append(time.perf_counter() - start)
            live.wait_for_search()
        for _ in range(args.breaks):
            good = page.read_text(encoding="utf-8")
            for text, what in ((good.replace("order:", "order: [", 1), "broken"), (good, "mended")):
                page.write_text(text, encoding="utf-8")
                start = time.perf_counter()
                result = live.rebuild({page.resolve()})
                print(f"{what}: {(time.perf_counter() - start) * 1000:.0f} ms, {result.summary()}")
                live.wait_for_search()
        live.close()
    if times:
        print(f"rebuild after a title edit: median {statistics.median(times) * 1000:.0f} ms "
              f"({', '.join(f'{t * 1000:.0f}' for t in times)} ms)")


if __name__ == "__main__":
    main()
