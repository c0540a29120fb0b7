"""Related papers: TF-IDF cosine over title and plain abstract, pruned, deterministic."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from conftest import REPO
from generator.model import Paper, RenderedPaper
from generator.related import RELATED_COUNT, nearest, related_papers, tfidf_vectors, text_terms

WORDS = ("graph neural network kernel bayesian inference diffusion model policy reinforcement robot "
         "protein molecule language token attention sparse convex gradient privacy federated causal "
         "quantum physics climate forecast vision image video segmentation speech audio").split()


def paper(number: int, title: str, abstract: str) -> RenderedPaper:
    record = Paper(str(number), f"p{number}", title, abstract, (), number, "list.txt", number, Path(f"p{number}.md"))
    return RenderedPaper(record, title, title, abstract, abstract)


def synthetic(count: int, seed: int = 7) -> list[RenderedPaper]:
    rng = random.Random(seed)
    papers = []
    for n in range(1, count + 1):
        topic = rng.sample(WORDS, 4)
        words = [rng.choice(topic if rng.random() < 0.6 else WORDS) for _ in range(60)]
        papers.append(paper(n, " ".join(topic[:2]).title(), "We study " + " ".join(words) + "."))
    return papers


def ids(related: dict[str, tuple[RenderedPaper, ...]]) -> dict[str, list[str]]:
    return {key: [p.paper.id for p in value] for key, value in related.items()}


def test_never_the_paper_itself_and_at_most_k(seed_site):
    import json
    records = json.loads((seed_site / "papers.json").read_text(encoding="utf-8"))
    papers = [paper(int(r["id"]), r["title"], r["abstract"]) for r in records]
    related = related_papers(papers)
    assert set(related) == {p.paper.id for p in papers}
    for key, others in ids(related).items():
        assert key not in others and len(others) == len(set(others)) <= RELATED_COUNT
        assert others, f"paper {key} has no related paper"


def test_same_input_same_answer():
    papers = synthetic(300)
    assert ids(related_papers(papers)) == ids(related_papers(list(papers)))


def test_same_answer_under_every_hash_seed():
    script = ("import sys; sys.path.insert(0, 'tests'); from test_related import synthetic, ids; "
              "from generator.related import related_papers; print(ids(related_papers(synthetic(400))))")
    outputs = {
        subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO)}).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1


def test_ties_go_to_the_earlier_paper():
    text = "Sparse attention for long documents with learned routing and memory."
    papers = [paper(1, "Routing", text), paper(2, "Other", "Protein folding with diffusion."),
              paper(3, "Routing", text), paper(4, "Routing", text), paper(5, "Routing", text)]
    assert ids(related_papers(papers, k=3))["1"] == ["3", "4", "5"]
    assert ids(related_papers(papers, k=3))["4"] == ["1", "3", "5"]


def test_most_similar_first():
    papers = [
        paper(1, "Graph kernels", "Graph kernels compare graphs through random walks and subtree patterns."),
        paper(2, "Protein design", "We design proteins with diffusion over backbone frames."),
        paper(3, "Walk kernels", "Random walk graph kernels, faster: subtree patterns and graph walks."),
        paper(4, "Graph learning", "Graph neural networks learn on graphs."),
    ]
    assert ids(related_papers(papers))["1"][:2] == ["3", "4"]


def test_papers_with_nothing_in_common_relate_to_nothing():
    papers = [paper(1, "Alpha", "Quantum chromodynamics lattice."), paper(2, "Beta", "Medieval poetry manuscripts.")]
    assert ids(related_papers(papers)) == {"1": [], "2": []}


def test_empty_and_single():
    assert related_papers([]) == {}
    assert ids(related_papers([paper(1, "Only", "Just one paper.")])) == {"1": []}


def test_vectors_are_unit_length_before_pruning():
    documents = [text_terms(p.title_plain, p.abstract_plain) for p in synthetic(50)]
    vectors = tfidf_vectors(documents)
    assert all(sum(w * w for w in v.values()) <= 1 + 1e-9 for v in vectors)
    assert all(len(n) <= 4 for n in nearest(vectors, 4))


def test_two_cores_give_the_answer_of_one():
    rng = random.Random(7)
    words = [f"w{n}" for n in range(400)]
    documents = [text_terms(" ".join(rng.sample(words, 3)), " ".join(rng.choices(words, k=40)))
                 for _ in range(2_100)]
    vectors = tfidf_vectors(documents)
    assert nearest(vectors, RELATED_COUNT, jobs=2) == nearest(vectors, RELATED_COUNT, jobs=1)
