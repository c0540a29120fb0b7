"""The memory two whole-corpus steps add, each on its own: related papers and the search index's files.

    python bench/stage_memory.py {related,index} [--papers 20000] [--corpora DIR]

Papers are related_bench.py's (the shared corpora's real abstracts, topped up with spliced ones,
seeded). For the step named, one a run (memory the first frees would be reused by the second
unseen): the peak resident memory it adds (VmHWM, reset before it starts, less the memory
before) and a digest of its result, so that two versions of the generator (PYTHONPATH) are
compared on the same input and shown to give the same answer.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import related_bench  # noqa: E402
from generator import search  # noqa: E402
from generator.derive import related  # noqa: E402


def _status_mb(key: str) -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) // 1024 for line in status if line.startswith(key))


def measured(name: str, step) -> None:
    gc.collect()
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # the peak (VmHWM) starts again from now
    before = _status_mb("VmRSS")
    digest = step()
    print(f"{name:>14}: peak +{_status_mb('VmHWM') - before:,} MB, {digest}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("step", choices=("related", "index"))
    parser.add_argument("--papers", type=int, default=20_000)
    parser.add_argument("--corpora", type=Path, default=related_bench.CORPORA)
    args = parser.parse_args()
    related_bench.FILES = [args.corpora / path.name for path in related_bench.FILES]
    records = related_bench.load_records()
    records = (records + related_bench.synthetic(records, max(0, args.papers - len(records))))[:args.papers]
    papers = related_bench.as_papers(records)
    del records
    texts = tuple((p.title_plain, p.abstract_plain) for p in papers)
    print(f"{len(papers):,} papers, generator from {Path(related.__file__).parents[2]}")

    def relate() -> str:
        return hashlib.sha256(json.dumps(related._neighbours(texts, related.RELATED_COUNT)).encode()).hexdigest()[:16]

    def index() -> str:
        digest = hashlib.sha256()
        for name, data in dict(search.index_files(papers, {})).items():
            digest.update(name.encode() + b"\0" + data)
        return digest.hexdigest()[:16]

    measured("related papers" if args.step == "related" else "search index",
             relate if args.step == "related" else index)


if __name__ == "__main__":
    main()
