"""The page sync alone, when revised abstracts must be matched to their pages by similarity.

    python bench/merge_bench.py [--repo PATH] [--papers N] [--edited N ...]

Makes ``--papers`` pages (real abstracts, titles left to a stand-in deriver so only the merge is
timed), then revises ``--edited`` of them (every tenth word changed, a sentence added, no source id,
as in a plain list) and times ``plan_sync`` in CPU seconds. ``--repo`` measures another checkout.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=REPO)
    parser.add_argument("--papers", type=int, default=2_000)
    parser.add_argument("--edited", type=int, nargs="+", default=[150, 300, 666])
    args = parser.parse_args()
    sys.path[:0] = [str(args.repo.resolve()), str(REPO / "bench")]
    from fuzz_build import corpus
    from generator.content.merge import Derived, plan_sync
    from generator.content.pages import read_page
    from generator.sources import read_source

    def derive(entries):
        return [Derived(f"Paper {entry.index}", ("topic",)) for entry in entries]

    for edited in args.edited:
        records = corpus(args.papers)
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            source = root / "papers.jsonl"
            source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
            plan_sync(root, [read_source(source, source.name)], [], derive).apply()
            for record in records[:: max(1, args.papers // edited)][:edited]:
                words = record["abstract"].split()
                for i in range(0, len(words) - 3, 10):
                    words[i] = words[i + 3]
                record["abstract"] = " ".join(words) + " We revised this abstract."
                del record["id"]
            source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
            docs = [read_page(path) for path in sorted((root / "papers").glob("*.md"))]
            start = time.process_time()
            plan = plan_sync(root, [read_source(source, source.name)], docs, derive)
            seconds = time.process_time() - start
        updates = sum(change.action == "update" for change in plan.changes)
        created = sum(change.action == "create" for change in plan.changes)
        print(f"{args.papers:,} pages, {edited:,} revised: sync {seconds:.1f} CPU s "
              f"({updates} updated in place, {created} created)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
