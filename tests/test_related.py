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

import related_reference as reference
from generator.derive import related
from generator.derive.related import RELATED_COUNT, nearest, related_papers, text_terms
from generator.derive.space import tfidf_matrix
from generator.search.terms import terms

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


def rows(matrix) -> list[dict[int, float]]:
    """Each row of a CSR matrix as term number → weight, in its stored (column) order."""
    return [dict(zip(matrix.indices[a:b].tolist(), matrix.data[a:b].tolist()))
            for a, b in zip(matrix.indptr[:-1].tolist(), matrix.indptr[1:].tolist())]


def test_vectors_are_unit_length_before_pruning():
    documents = [text_terms(p.title_plain, p.abstract_plain) for p in synthetic(50)]
    matrix = tfidf_matrix(documents)
    assert all(sum(w * w for w in row.values()) <= 1 + 1e-9 for row in rows(matrix))
    assert all(list(row) == sorted(row) for row in rows(matrix))
    assert all(len(n) <= 4 for n in nearest(matrix, 4))


def _reference_dot(a: dict[int, float], b: dict[int, float]) -> float:
    return sum(w * b.get(t, 0.0) for t, w in a.items())


def test_weights_are_tf_idf_over_the_norm_of_every_term():
    documents = [text_terms(p.title_plain, p.abstract_plain) for p in synthetic(120)]
    frequency = Counter(t for d in documents for t in d)
    names = sorted(frequency)
    for document, row in zip(documents, rows(tfidf_matrix(documents))):
        weights = {t: (1 + math.log(tf)) * math.log(len(documents) / frequency[t]) for t, tf in document.items()}
        norm = math.sqrt(sum(w * w for w in weights.values()))
        expected = {names.index(t): w / norm for t, w in weights.items() if 1 < frequency[t] < len(documents)}
        assert row == expected


def tie_heavy(count: int, vocabulary: int, seed: int = 7) -> list[Counter[str]]:
    """Documents of few distinct words: many equal weights, equal shared counts and equal scores."""
    rng = random.Random(seed)
    words = [f"w{n}" for n in range(vocabulary)]
    return [text_terms(" ".join(rng.sample(words, 3)), " ".join(rng.choices(words, k=rng.randrange(1, 40))))
            for _ in range(count)]


FIXTURES = {
    "topics": lambda: [text_terms(p.title_plain, p.abstract_plain) for p in synthetic(500, seed=3)],
    "ties": lambda: tie_heavy(700, 60),
    "long postings": lambda: tie_heavy(2_100, 400),  # terms among more than MAX_POSTINGS papers' heaviest
    "empty papers": lambda: [Counter(), *tie_heavy(50, 30), Counter(), Counter({"only": 1})],
}


@pytest.mark.parametrize("fixture", sorted(FIXTURES))
def test_the_matrix_holds_the_old_vectors_floats(fixture):
    # The very floats the Python loops made: the map's layout and every score read them.
    documents = FIXTURES[fixture]()
    old = reference.tfidf_vectors(documents)
    matrix = tfidf_matrix(iter(documents))
    assert matrix.shape[0] == len(old) and matrix.has_sorted_indices
    assert rows(matrix) == [v.as_dict() for v in old]
    assert all(list(row) == list(v.terms) for row, v in zip(rows(matrix), old))
    assert matrix.shape[1] == max((max(v.terms) for v in old if v.terms), default=0) + 1  # the map's SVD reads it


@pytest.mark.parametrize("fixture", sorted(FIXTURES))
def test_nearest_gives_the_old_algorithms_lists(fixture):
    documents = FIXTURES[fixture]()
    for k in (1, RELATED_COUNT, 7):
        assert nearest(tfidf_matrix(documents), k) == reference.nearest(reference.tfidf_vectors(documents), k)


def test_related_lists_of_real_abstracts_are_the_old_ones(seed_site):
    import json
    records = json.loads((seed_site / "papers.json").read_text(encoding="utf-8"))
    documents = [text_terms(r["title"], r["abstract"]) for r in records]
    assert nearest(tfidf_matrix(documents), RELATED_COUNT) == reference.nearest(reference.tfidf_vectors(documents),
                                                                                RELATED_COUNT)


def test_candidates_are_those_sharing_the_most_top_terms(monkeypatch):
    # Few candidates a paper: the count of shared top terms, then the first met, decides which are scored.
    monkeypatch.setattr(related, "CANDIDATES", 3)
    monkeypatch.setattr(reference, "CANDIDATES", 3)
    documents = tie_heavy(300, 40, seed=11)
    assert nearest(tfidf_matrix(documents), 2) == reference.nearest(reference.tfidf_vectors(documents), 2)


def test_the_volume_is_tokenised_once_for_related_papers_and_the_map(monkeypatch):
    # The relate stage's matrix is the map's: each paper's title and abstract are tokenised once.
    from generator.derive import paper_map
    calls = Counter()
    real = related.text_terms
    monkeypatch.setattr(related, "text_terms", lambda title, abstract: calls.update([title]) or real(title, abstract))
    papers = synthetic(120)
    related.forget_vectors()
    paper_map._LAST.clear()
    related.related_ids(papers)
    paper_map.paper_places(papers, related=None)
    related.forget_vectors()
    paper_map._LAST.clear()
    assert sum(calls.values()) == len(papers)


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
    # _matrix hands a generator, so that each paper's Counter is let go once its numbers are taken.
    documents = [text_terms(p.title_plain, p.abstract_plain) for p in synthetic(80)]
    assert rows(tfidf_matrix(iter(documents))) == rows(tfidf_matrix(documents))


def test_scores_are_rounded_as_python_rounds(seed_site):
    # The numpy rounding is held to round(): the real volume's cosines, and values a hair off a half.
    import json
    import numpy as np
    records = json.loads((seed_site / "papers.json").read_text(encoding="utf-8"))
    matrix = tfidf_matrix(text_terms(r["title"], r["abstract"]) for r in records)
    cosines = (matrix @ matrix.T).data
    halves = (np.arange(0, 10**9, 9_973) + 0.5) / 1e9
    near = [halves, np.nextafter(halves, 2), np.nextafter(halves, -1), -halves, np.random.default_rng(3).random(50_000)]
    odd = np.array([0.0, -0.0, 1.0, 1 + 2**-52, 5e-10, 1.5e-9, 2.5e-9, 2.0**60, 1e300, np.inf, -np.inf])
    for values in (cosines, *near, odd):
        expected = np.array([round(v, 9) for v in values.tolist()])
        assert related.rounded_as_python(np, values, 9).view(np.int64).tolist() == expected.view(np.int64).tolist()
    assert np.isnan(related.rounded_as_python(np, np.array([np.nan]), 9)).all()


@pytest.mark.parametrize("rows_", [1, 3, 9_000, 70_000])
def test_heaviest_first_is_the_lexsort_order(rows_):
    # Equal weights in column order, rows past 65,536 (a second radix pass): the order numpy.lexsort gave.
    import numpy as np
    rng = np.random.default_rng(rows_)
    row_of = np.sort(rng.integers(0, rows_, 200_000))
    weights = rng.integers(1, 40, len(row_of)) / 7.0  # many ties
    expected = np.lexsort((-weights, row_of))
    assert (related._by_row_heaviest_first(np, weights, row_of) == expected).all()


@pytest.mark.parametrize("rows_", [5, 9_000, 70_000])
def test_best_first_is_the_lexsort_order(rows_):
    # Scores of 9 digits with many ties, by paper; past 65,536 papers the key would not fit: lexsort itself.
    import numpy as np
    rng = np.random.default_rng(rows_)
    pairs = np.unique(rng.integers(0, rows_, 100_000) * rows_ + rng.integers(0, rows_, 100_000))  # distinct
    first, second = np.divmod(pairs, rows_)
    scores = related.rounded_as_python(np, rng.integers(0, 2_000, len(first)) / 1_999 * rng.choice([1, 0.5]), 9)
    expected = np.lexsort((second, -scores, first))
    assert (related._best_first(np, first, second, scores, rows_) == expected).all()
