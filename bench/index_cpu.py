#!/usr/bin/env python3
"""CPU of cutting the sharded search index against making the whole index it replaced (issue 28), interleaved.

    python bench/index_cpu.py bench/out/search-10000/content [--rounds 3]

Renders the content's papers once (the pipeline up to "rendered", from the build cache when warm), then
times, in turn and ``--rounds`` times each, the process CPU of ``shard_files`` (what a build writes now) and of
``index_script(search_data(…))`` (the single index a build wrote before): on a shared machine CPU time in one
process, interleaved, says more than two wall times.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from generator.reporter import Reporter  # noqa: E402
from generator.pipeline.sinks import NullSink  # noqa: E402
from generator.pipeline.stages import Options, Pipeline  # noqa: E402
from generator.render.people_topics import tag_urls  # noqa: E402
from generator.search.payload import index_script, search_data  # noqa: E402
from generator.search.shards import shard_files  # noqa: E402


def cpu(work) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    papers = Pipeline(args.content, NullSink(), Options(jobs=2)).run(Reporter(), until="rendered").rendered
    urls = tag_urls(papers)
    shards, whole = [], []
    for _ in range(args.rounds):
        shards.append(cpu(lambda: sum(len(data) for _, data in shard_files(papers, urls))))
        whole.append(cpu(lambda: len(index_script(search_data(papers, urls)))))
    print(f"{len(papers)} papers, CPU s, median of {args.rounds} (each round in turn): "
          f"shards {statistics.median(shards):.2f} ({', '.join(f'{t:.2f}' for t in shards)}); "
          f"whole index {statistics.median(whole):.2f} ({', '.join(f'{t:.2f}' for t in whole)}); "
          f"ratio {statistics.median(shards) / statistics.median(whole):.2f}")


if __name__ == "__main__":
    main()
