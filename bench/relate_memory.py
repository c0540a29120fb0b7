"""Related papers alone over a corpus's papers (``papers.jsonl``): each step's RSS peak and what it leaves.

    python bench/relate_memory.py /work/corp/r50k/papers.jsonl [--trim]

Reads each record's title and abstract (as plain text: no rendering), then runs ``related.related_ids`` with
its steps (the TF-IDF matrix, the heaviest terms, the candidates, the scores, the lists) each wrapped: a thread
samples the process's RSS every 20 ms, and each step prints its RSS before, its peak and its RSS after, and its
time. ``--trim`` gives the C heap's free pages back after each step, as a large volume's build does after
relating (``background.release_free_memory``), to tell what a step holds from what it left free.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.derive import related  # noqa: E402
from generator.derive.map_layout import load_numpy  # noqa: E402
from generator.runtime.background import release_free_memory  # noqa: E402

STEPS = ("tfidf_matrix", "_heaviest", "_candidates", "_scores", "_lists")


def rss_mb() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) // 1024 for line in status if line.startswith("VmRSS"))


class Sampler:
    def __init__(self) -> None:
        self.peak = 0
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while True:
            self.peak = max(self.peak, rss_mb())
            time.sleep(0.02)


def wrapped(name: str, sampler: Sampler, trim: bool) -> Callable[..., Any]:
    real = getattr(related, name)

    def step(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.05)
        sampler.peak, before, start = 0, rss_mb(), time.perf_counter()
        result = real(*args, **kwargs)
        time.sleep(0.05)
        if trim:
            release_free_memory()
        print(f"{name:14} before {before:5,} MB  peak {sampler.peak:5,} MB  after {rss_mb():5,} MB  "
              f"{time.perf_counter() - start:6.1f} s", flush=True)
        return result

    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("papers", type=Path, help="a papers.jsonl (title, abstract a line)")
    parser.add_argument("--trim", action="store_true")
    args = parser.parse_args()
    papers = []
    with open(args.papers, encoding="utf-8") as lines:
        for number, line in enumerate(lines):
            record = json.loads(line)
            papers.append(SimpleNamespace(title_plain=record.get("title", ""),
                                          abstract_plain=record.get("abstract", ""),
                                          paper=SimpleNamespace(id=f"p{number}")))
    load_numpy()
    import scipy.sparse  # noqa: F401  (imported before the first step, as the relate stage finds it)

    sampler = Sampler()
    for name in STEPS:
        setattr(related, name, wrapped(name, sampler, args.trim))
    print(f"{len(papers):,} papers; RSS {rss_mb():,} MB before relating", flush=True)
    start = time.perf_counter()
    related.related_ids(papers)
    print(f"related papers: {time.perf_counter() - start:.1f} s, RSS {rss_mb():,} MB after "
          f"(the lists and the last answer kept)")


if __name__ == "__main__":
    main()
