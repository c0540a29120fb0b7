#!/usr/bin/env python3
"""CPU of the search index's term postings made in numpy against entry by entry, interleaved (issue 43).

    python bench/postings_cost.py CONTENT [--rounds 2]

Runs the pipeline up to the rendered papers (jobs 2, the build cache as the content has it), counts their terms once,
then times in turn, ``--rounds`` times each, the process CPU of ``shards.term_postings`` (numpy, a chunk of entries at
a time) and of the postings made one field-vector entry at a time as before session 19, checks that both are equal,
and times the whole index's files (``shard_files``) once.
"""

from __future__ import annotations

import argparse
import sys
import time
from array import array
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from generator.pipeline.sinks import NullSink  # noqa: E402
from generator.pipeline.stages import Options, Pipeline  # noqa: E402
from generator.render.people_topics import tag_urls  # noqa: E402
from generator.reporter import Reporter  # noqa: E402
from generator.search.index import FIELDS, FieldVectors, _Terms, found_terms  # noqa: E402
from generator.search.shards import shard_files, term_postings  # noqa: E402


def one_by_one(found: _Terms, documents: int) -> dict[str, list]:
    """The postings as session 18 made them: each field vector's entries in turn."""
    lists = [[array("i") for _ in FIELDS] for _ in found.postings]
    last = [[0] * len(found.postings) for _ in FIELDS]
    for slot, weights in enumerate(FieldVectors(found, documents).weights()):
        ref, field = divmod(slot, len(FIELDS))
        for number, weight in weights:
            lists[number][field].extend((ref - last[field][number], round(weight * 1000)))
            last[field][number] = ref
    return {term: [posting[0], *lists[posting[0]]] for term, posting in found.postings.items()}


def cpu(work):
    start = time.process_time()
    made = work()
    return time.process_time() - start, made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("content", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    papers = Pipeline(args.content, NullSink(), Options(jobs=2)).run(Reporter(), until="rendered").rendered
    took, found = cpu(lambda: found_terms(papers))
    print(f"{len(papers)} papers: terms counted in {took:.2f} CPU-s")
    for _ in range(args.rounds):
        new, made = cpu(lambda: term_postings(found, len(papers)))
        old, expected = cpu(lambda: one_by_one(found, len(papers)))
        print(f"  postings: numpy {new:.2f} CPU-s, entry by entry {old:.2f} CPU-s, equal: {made == expected}")
    took, size = cpu(lambda: sum(len(data) for _, data in shard_files(papers, tag_urls(papers))))
    print(f"  the whole index's files: {took:.2f} CPU-s, {size:,} bytes")


if __name__ == "__main__":
    main()
