"""How long related papers take for a large proceedings, and how good the pruning is.

    python bench/related_bench.py [--papers 10000] [--exact 300]

Papers are the shared NeurIPS and ICLR corpora (5,083 real abstracts), topped
up to ``--papers`` with synthetic abstracts that splice sentences of real ones
(seeded, so every run measures the same input). Abstracts are used as their
plain text: this measures ``related_papers``, not the LaTeX renderer.

``--exact N`` compares the pruned result for the first N papers with an exact
TF-IDF cosine over full vectors and prints how many of the top picks agree.
``--stages`` then times each stage again on its own (CPU seconds, one core; the
stemmer's cache is warm by then, so ``text_terms`` is a little cheaper than cold).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.model.paper import Paper, RenderedPaper  # noqa: E402
from generator.derive.related import RELATED_COUNT, nearest, related_papers, text_terms  # noqa: E402
from generator.derive.space import tfidf_matrix  # noqa: E402

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
FILES = [CORPORA / "neurips-2010-2018.jsonl", CORPORA / "iclr-2020.jsonl"]


def load_records() -> list[dict]:
    records = []
    for path in FILES:
        with path.open(encoding="utf-8") as lines:
            records.extend(json.loads(line) for line in lines if line.strip())
    return records


def synthetic(records: list[dict], count: int, seed: int = 2026) -> list[dict]:
    """Abstracts spliced from the sentences of 2–3 real ones, titled after the first."""
    rng = random.Random(seed)
    made = []
    for _ in range(count):
        parents = rng.sample(records, rng.choice((2, 3)))
        sentences = [s for p in parents for s in p["abstract"].split(". ") if s.strip()]
        rng.shuffle(sentences)
        made.append({"title": parents[0]["title"], "abstract": ". ".join(sentences[:8])})
    return made


def as_papers(records: list[dict]) -> list[RenderedPaper]:
    papers = []
    for n, record in enumerate(records):
        title, abstract = " ".join(record["title"].split()), " ".join(record["abstract"].split())
        paper = Paper(str(n + 1), f"p{n + 1}", title, abstract, (), n + 1, "bench.txt", n + 1, Path(f"p{n + 1}.md"))
        papers.append(RenderedPaper(paper, title, title, abstract, abstract))
    return papers


def exact_neighbours(papers: list[RenderedPaper], first: int, k: int) -> list[list[int]]:
    """Brute-force cosine over full TF-IDF vectors (slow; for a sample)."""
    documents = [text_terms(p.title_plain, p.abstract_plain) for p in papers]
    frequency = Counter(t for d in documents for t in d)
    idf = {t: math.log(len(documents) / df) for t, df in frequency.items()}
    vectors = []
    for document in documents:
        weights = {t: (1 + math.log(tf)) * idf[t] for t, tf in document.items()}
        norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
        vectors.append({t: w / norm for t, w in weights.items()})
    result = []
    for i in range(first):
        scores = [(sum(w * vectors[j].get(t, 0.0) for t, w in vectors[i].items()), j)
                  for j in range(len(vectors)) if j != i]
        result.append([j for _, j in sorted(scores, key=lambda s: (-s[0], s[1]))[:k]])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--exact", type=int, default=0, metavar="N")
    parser.add_argument("--stages", action="store_true", help="CPU seconds of each stage, run again")
    parser.add_argument("--reference", type=int, default=0, metavar="ROUNDS",
                        help="A/B: the Python loops before the sparse products (tests/related_reference.py) "
                             "against today's, interleaved, CPU seconds, and whether their lists are the same")
    args = parser.parse_args()
    records = load_records()
    records = (records + synthetic(records, max(0, args.papers - len(records))))[: args.papers]
    papers = as_papers(records)
    start, cpu = time.perf_counter(), time.process_time()
    related = related_papers(papers)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    sizes = Counter(len(v) for v in related.values())
    print(f"{len(papers)} papers: related_papers in {seconds:.2f} s ({cpu:.2f} s CPU, "
          f"{seconds / len(papers) * 1000:.3f} ms per paper); list sizes {dict(sorted(sizes.items()))}")
    if args.exact:
        exact = exact_neighbours(papers, args.exact, RELATED_COUNT)
        index = {p.paper.id: n for n, p in enumerate(papers)}
        agree = sum(len(set(exact[i]) & {index[r.paper.id] for r in related[papers[i].paper.id]})
                    for i in range(args.exact))
        first = sum(bool(exact[i]) and related[papers[i].paper.id][:1] == (papers[exact[i][0]],)
                    for i in range(args.exact))
        print(f"against exact cosine for {args.exact} papers: {agree / (args.exact * RELATED_COUNT):.1%} of the "
              f"top {RELATED_COUNT} agree; the best match agrees for {first / args.exact:.1%}")
    if args.stages:
        print_stages(papers)
    if args.reference:
        print_reference(papers, args.reference)


def print_stages(papers: list[RenderedPaper]) -> None:
    cpu = time.process_time()
    documents = [text_terms(p.title_plain, p.abstract_plain) for p in papers]
    cpu, terms_cpu = time.process_time(), time.process_time() - cpu
    vectors = tfidf_matrix(documents)
    cpu, vectors_cpu = time.process_time(), time.process_time() - cpu
    nearest(vectors, RELATED_COUNT)
    nearest_cpu = time.process_time() - cpu
    print(f"stages (CPU s): text_terms {terms_cpu:.2f}, tfidf_matrix {vectors_cpu:.2f}, nearest {nearest_cpu:.2f}")


def print_reference(papers: list[RenderedPaper], rounds: int) -> None:
    """The loops (issue 43's "before") and the sparse products, over the same Counters, in this process."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import related_reference as reference

    documents = [text_terms(p.title_plain, p.abstract_plain) for p in papers]
    for number in range(1, rounds + 1):
        cpu = time.process_time()
        old = reference.nearest(reference.tfidf_vectors(documents), RELATED_COUNT)
        cpu, loops = time.process_time(), time.process_time() - cpu
        new = nearest(tfidf_matrix(documents), RELATED_COUNT)
        products = time.process_time() - cpu
        print(f"round {number}: vectors + nearest, loops {loops:.2f} s CPU, sparse products {products:.2f} s CPU "
              f"({loops / products:.1f}x); the same lists: {old == new}")


if __name__ == "__main__":
    main()
