"""Write a content folder of N papers made from the real abstracts in ../shared/corpora/.

    python bench/make_corpus.py 10000 bench/out/content-10k

Abstracts are sampled with a fixed seed; past the ~5,000 real ones each
repeat gets a light, deterministic variation (a sentence added, words
swapped) so that no two pages are the same. Math is kept as written.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

CORPORA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora"
VARIATIONS = [
    "We further validate the approach on {n} additional benchmarks.",
    "Code and data for experiment {n} are released.",
    "An ablation over {n} settings confirms each component matters.",
    "We also study the regime with $n = {n}$ samples.",
]


def load_records(corpora: Path = CORPORA) -> list[dict]:
    """The corpora's papers (title, authors, abstract), those with an abstract."""
    records = []
    for path in sorted(corpora.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            if not line.strip():
                continue
            record = json.loads(line)
            text = re.sub(r"\s+", " ", record.get("abstract") or "").strip()
            if len(text) > 80:  # placeholders such as "Abstract Unavailable" make no paper
                records.append({"title": record.get("title") or "", "authors": record.get("authors") or [],
                                "abstract": text})
    return records


def load_abstracts(corpora: Path = CORPORA) -> list[str]:
    return [record["abstract"] for record in load_records(corpora)]


def vary(text: str, round_number: int, rng: random.Random) -> str:
    if round_number == 0:
        return text
    sentence = rng.choice(VARIATIONS).format(n=round_number * 7 + rng.randrange(100))
    return f"{text} {sentence}"


def make(count: int, target: Path, seed: int = 2026, corpora: Path = CORPORA, records: bool = False) -> Path:
    """A plain list of ``count`` abstracts; with ``records``, papers.jsonl of the same papers with their
    titles and authors (a search index with its authors field filled, as a venue's export has it)."""
    rng = random.Random(seed)
    pool = load_records(corpora)
    if not pool:
        raise SystemExit(f"no abstracts in {corpora}/*.jsonl: name the corpora's folder with --corpora")
    chosen, papers = [], []
    for index in range(count):
        round_number, position = divmod(index, len(pool))
        if position == 0:
            order = list(range(len(pool)))
            rng.shuffle(order)
        record = pool[order[position]]
        chosen.append(vary(record["abstract"], round_number, rng))
        title = record["title"] + (f" ({round_number + 1})" if round_number else "")
        papers.append({"title": title, "authors": record["authors"], "abstract": chosen[-1]})
    target.mkdir(parents=True, exist_ok=True)
    if records:
        (target / "papers.jsonl").write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in papers),
                                             encoding="utf-8")
        (target / "proceedings.yaml").write_text(f"title: Benchmark Proceedings ({count} papers)\ndate: 2026-12-06\n"
                                                 "papers_per_page: 100\n", encoding="utf-8")
        return target
    (target / "proceedings.txt").write_text(f"Benchmark Proceedings ({count} papers)\n\n" + "\n\n".join(chosen) + "\n",
                                            encoding="utf-8")
    (target / "proceedings.yaml").write_text("date: 2026-12-06\npapers_per_page: 100\n", encoding="utf-8")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("count", type=int)
    parser.add_argument("target", type=Path)
    parser.add_argument("--corpora", type=Path, default=CORPORA,
                        help="the folder of *.jsonl abstracts (default: ../shared/corpora beside the repository; "
                             "a git worktree elsewhere names it, e.g. /work/shared/corpora)")
    parser.add_argument("--records", action="store_true",
                        help="papers.jsonl with the papers' titles and authors, not a plain list of abstracts")
    args = parser.parse_args()
    make(args.count, args.target, corpora=args.corpora, records=args.records)
    print(f"wrote {args.count} abstracts to {args.target}")


if __name__ == "__main__":
    main()
