"""Related papers: TF-IDF cosine over title and plain abstract, pruned, deterministic."""

from __future__ import annotations

import pytest
import os
import random
import subprocess
import sys
from pathlib import Path

from conftest import REPO
from generator.model.paper import Paper, RenderedPaper
import math
from collections import Counter

from generator.derive.related import (
    CANDIDATES, MAX_POSTINGS, RELATED_COUNT, TOP_TERMS, _candidates, _cosine, nearest, related_papers,
    tfidf_vectors, text_terms,
)
from generator.search.terms import terms
from generator.runtime.executor import Executor

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


@pytest.mark.slow
def test_same_answer_under_every_hash_seed():
    script = ("import sys; sys.path.insert(0, 'tests'); from test_related import synthetic, ids; "
              "from generator.derive.related import related_papers; print(ids(related_papers(synthetic(400))))")
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
    assert all(sum(w * w for w in v.weights) <= 1 + 1e-9 for v in vectors)
    assert all(list(v.terms) == sorted(v.terms) for v in vectors)
    assert all(len(n) <= 4 for n in nearest(vectors, 4))


@pytest.mark.slow
def test_two_cores_give_the_answer_of_one():
    rng = random.Random(7)
    words = [f"w{n}" for n in range(400)]
    documents = [text_terms(" ".join(rng.sample(words, 3)), " ".join(rng.choices(words, k=40)))
                 for _ in range(2_100)]
    vectors = tfidf_vectors(documents)
    assert nearest(vectors, RELATED_COUNT, Executor(2)) == nearest(vectors, RELATED_COUNT, Executor(1))


def _reference_dot(a: dict[int, float], b: dict[int, float]) -> float:
    return sum(w * b.get(t, 0.0) for t, w in a.items())


def test_weights_are_tf_idf_over_the_norm_of_every_term():
    documents = [text_terms(p.title_plain, p.abstract_plain) for p in synthetic(120)]
    frequency = Counter(t for d in documents for t in d)
    names = sorted(frequency)
    for document, vector in zip(documents, tfidf_vectors(documents)):
        weights = {t: (1 + math.log(tf)) * math.log(len(documents) / frequency[t]) for t, tf in document.items()}
        norm = math.sqrt(sum(w * w for w in weights.values()))
        expected = {names.index(t): w / norm for t, w in weights.items() if 1 < frequency[t] < len(documents)}
        assert vector.as_dict() == expected


def test_a_score_is_the_exact_cosine_and_the_same_both_ways():
    vectors = tfidf_vectors([text_terms(p.title_plain, p.abstract_plain) for p in synthetic(60)])
    for a, b in zip(vectors, vectors[1:] + vectors[:1]):
        score = _cosine(a.as_dict(), b)
        assert abs(score - _reference_dot(a.as_dict(), b.as_dict())) < 1e-9
        assert score == _cosine(b.as_dict(), a)


def test_nearest_is_the_best_of_each_papers_candidates_by_exact_cosine():
    # The pairs scored once for both papers, and the topic order, change no list.
    vectors = tfidf_vectors([text_terms(p.title_plain, p.abstract_plain) for p in synthetic(500, seed=3)])
    weights = [v.as_dict() for v in vectors]
    top = [sorted(v, key=lambda t: (-v[t], t))[:TOP_TERMS] for v in weights]
    index: dict[int, list[int]] = {}
    for number, heaviest in enumerate(top):
        for term in heaviest:
            index.setdefault(term, []).append(number)
    index = {term: papers for term, papers in index.items() if len(papers) <= MAX_POSTINGS}
    expected = []
    for number, vector in enumerate(weights):
        candidates = _candidates(number, top[number], index)
        shared = Counter(o for term in top[number] for o in index.get(term, ()) if o != number)
        assert set(candidates) == {o for o, _ in shared.most_common(CANDIDATES)}
        scored = sorted((-round(_reference_dot(vector, weights[o]), 9), o) for o in candidates)
        expected.append([o for _, o in scored[:RELATED_COUNT]])
    assert nearest(vectors, RELATED_COUNT) == expected


def test_terms_are_the_search_terms_less_single_letters_and_numbers():
    title = "Graph Networks in 3 Dimensions: a 2026 Study of 图神经网络"
    abstract = "We train x networks on 10 graphs; see 図 2 and the 2-step networks, α-β pruning (ε = 0.5)."
    def telling(text: str) -> list[str]:
        return [t for t in terms(text) if len(t) > 1 and not t.isdigit()]
    expected = Counter(telling(abstract))
    for word in telling(title):
        expected[word] += 2
    assert text_terms(title, abstract) == expected and "10" not in expected and "x" not in expected


def test_documents_are_read_once_as_they_come():
    # _neighbours hands a generator, so that each paper's Counter is let go once it is compact.
    documents = [text_terms(p.title_plain, p.abstract_plain) for p in synthetic(80)]
    assert tfidf_vectors(iter(documents)) == tfidf_vectors(documents)
