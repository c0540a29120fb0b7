"""What a small edit costs the dev server's process, in-process: the rebuild, the related papers settled after
it, and the garbage collector's pauses (each holds the GIL: the server, in the same process, answers no one).

    python bench/serve_pauses.py bench/out/search-10000/content --edits 3

Copies the content folder, builds it as ``serve`` does (``LiveSite``), then edits one paper's title
``--edits`` times; after each, waits for the background job and settles its related papers.
"""

from __future__ import annotations

import argparse
import gc
import re
import shutil
import tempfile
import time
from pathlib import Path

from generator.pipeline.live import LiveSite


class Pauses:
    """The collector's pauses, by generation, as gc.callbacks reports them."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, float]] = []
        self._start = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.seen.append((info["generation"], time.perf_counter() - self._start))

    def summary(self) -> str:
        full = sorted((seconds for generation, seconds in self.seen if generation == 2), reverse=True)
        total = sum(seconds for _, seconds in self.seen)
        return (f"gc {len(self.seen)} collections, {total * 1000:.0f} ms in all; full ones: "
                f"{', '.join(f'{s * 1000:.0f}' for s in full) or 'none'} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--edits", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="serve-pauses-"))
    try:
        shutil.copytree(args.content, work / "content")
        pauses = Pauses()
        site = LiveSite(work / "content", work / "site")
        print(site.build_all().summary())
        site.wait_for_search()
        pages = sorted((work / "content" / "papers").glob("*.md"))
        page = pages[len(pages) // 2]
        text = page.read_text(encoding="utf-8")
        for number in range(args.edits):
            pauses.seen.clear()
            page.write_text(re.sub(r"^title: .*$", f"title: 'Pause edit {number}'", text, count=1, flags=re.M),
                            encoding="utf-8")
            print(f"edit {number}: {site.rebuild({page}).summary()}")
            site.wait_for_search()
            settled = site.settle()
            print(f"  settled: {settled.summary() if settled else 'nothing to show'}")
            print(f"  {pauses.summary()}")
        site.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
