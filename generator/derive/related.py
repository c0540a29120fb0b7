"""Related papers: TF-IDF cosine similarity over each paper's title and plain abstract.

Standard library only, and built to stay fast however large the volume:

* sparse, compact vectors: a paper is its terms' numbers and an array of their
  weights (``Vector``), never a vocabulary-sized row nor a dict (which held
  several times the memory, beside the search index's child); weights are
  worked out term by term in C (``map``, ``zip``), not in a loop;
* top-terms pruning and an inverted index: each paper is indexed under its
  ``TOP_TERMS`` heaviest terms and looks up the papers indexed under those
  same terms, so it meets only papers that share a telling word with it,
  never all of them;
* ``Counter`` counts the shared terms per candidate in C and a stable C sort
  keeps the ``CANDIDATES`` sharing the most; only they are scored, with the
  exact cosine of the full vectors;
* a pair that are each other's candidates (60% of the candidate slots) is scored once, and
  papers are scored topic by topic (by their heaviest term), so the vectors
  their candidates read are still in the CPU cache.

Few telling terms find better candidates than many, since a count does not
weigh terms. On the 5,083 real abstracts of the shared corpora
(bench/related_bench.py --papers 5083 --exact 300) the best match is the
exact cosine's for 92.3% of papers and 86.1% of the top 4 agree, in a small
fraction of the time that scoring every pair takes; bench/RESULTS.md has
the measurements at larger sizes, against the dict-and-frozenset version
before this one, with the same lists. What is left is Python's cost per
candidate pair (an intersection of two top-term sets and the sums over the
few terms they share) and the tokenising, which is the search index's (``search.terms``).

Words are the search index's terms (``search.terms``: lower case, stop words
dropped, Porter stems), so "networks" relates to "network" as search finds it.
A score is summed in term-number order (the same for both papers of a pair,
whatever the hash seed), scores are rounded, and ties go to the paper that
comes first in the proceedings, so the result is the same on every run.
"""

from __future__ import annotations

import functools
import math
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, compress, islice, repeat
from operator import itemgetter, mul, truediv
from typing import Any, NamedTuple

from generator.runtime.executor import INLINE, Executor
from generator.runtime.cache import BuildCache
from generator.runtime.sizes import Cost
from generator.model.paper import RenderedPaper
from generator.search.terms import terms

RELATED_COUNT = 4
TITLE_WEIGHT = 2  # a title word counts as much as two words of the abstract
TOP_TERMS = 12
CANDIDATES = 40
# A term among the heaviest of this many papers is no longer telling, and its long posting
# list would make candidate search quadratic in the volume's size: it is left out of the lookup.
MAX_POSTINGS = 400
_SCORE_DIGITS = 9  # scores equal to 9 digits are a tie



class Vector(NamedTuple):
    """A paper's weights, compact: its term numbers in increasing order and, in the same order,
    each one's weight (about 20 bytes a term, where a dict of floats took about 80, beside the
    search index's child)."""

    terms: tuple[int, ...]  # the ints are the numbering's own, shared by every paper: none is made
    weights: array  # of doubles ("d")

    def as_dict(self) -> dict[int, float]:
        return dict(zip(self.terms, self.weights))


def related_papers(papers: Sequence[RenderedPaper], k: int = RELATED_COUNT) -> dict[str, tuple[RenderedPaper, ...]]:
    """Paper id → its ``k`` most similar papers, most similar first (never itself)."""
    texts = tuple((p.title_plain, p.abstract_plain) for p in papers)
    return {
        paper.paper.id: tuple(papers[j] for j in neighbours)
        for paper, neighbours in zip(papers, _neighbours(texts, k))
    }


def related_ids(papers: Sequence[RenderedPaper], k: int = RELATED_COUNT,
                cache: BuildCache | None = None, executor: Executor = INLINE) -> dict[str, tuple[str, ...]]:
    """Paper id → the ids of its ``k`` most similar papers; kept in ``cache`` for a build with the same texts."""
    texts = tuple((p.title_plain, p.abstract_plain) for p in papers)
    key = cache.key("related", str(k), *chain.from_iterable(texts)) if cache and cache.enabled else ""
    found: Any = cache.load_json("related", key) if key and cache else None
    if _fits(found, len(papers), k):
        neighbours = found
    else:
        neighbours = _neighbours(texts, k, executor)
        if key and cache:
            cache.store_json("related", key, neighbours)
    return {paper.paper.id: tuple(papers[j].paper.id for j in near) for paper, near in zip(papers, neighbours)}


def _fits(found: object, count: int, k: int) -> bool:
    """A cached answer has the right shape: ``count`` lists of at most ``k`` other papers' indexes."""
    return isinstance(found, list) and len(found) == count and all(
        isinstance(near, list) and len(near) <= k
        and all(type(j) is int and 0 <= j < count and j != n for j in near)
        for n, near in enumerate(found))


@functools.lru_cache(maxsize=1)
def _neighbours(texts: tuple[tuple[str, str], ...], k: int, executor: Executor = INLINE) -> tuple[tuple[int, ...], ...]:
    # The dev server rebuilds after template and config edits too: the same texts, no new work.
    return tuple(map(tuple, nearest(_vectors(texts), k, executor)))


def vectors_for(papers: Sequence[RenderedPaper]) -> list[Vector]:
    """The papers' TF-IDF vectors, as related papers are worked out from: the map of the papers
    (derive/paper_map.py) lays them out. Those just made for related papers are handed over, not made again."""
    return _vectors(tuple((p.title_plain, p.abstract_plain) for p in papers))


@functools.lru_cache(maxsize=1)
def _vectors(texts: tuple[tuple[str, str], ...]) -> list[Vector]:
    # A generator: each paper's Counter of words is let go once it is made compact.
    return tfidf_vectors(text_terms(title, abstract) for title, abstract in texts)


def forget_vectors() -> None:
    """Let the last vectors go (a large volume's are tens of MB) once related papers and the map have them."""
    _vectors.cache_clear()


def text_terms(title: str, abstract: str) -> Counter[str]:
    counts = Counter(filter(_TELLING.__getitem__, terms(abstract)))
    for word in filter(_TELLING.__getitem__, terms(title)):
        counts[word] += TITLE_WEIGHT
    return counts


class _Telling(dict[str, bool]):
    """Term → whether it says something about a topic, decided once a term (then a lookup in C)."""

    def __missing__(self, term: str) -> bool:
        # One-letter words and bare numbers ("2", "2026") say little about a topic.
        telling = self[term] = len(term) > 1 and not term.isdigit()
        return telling


_TELLING = _Telling()


def tfidf_vectors(documents: Iterable[Counter[str]]) -> list[Vector]:
    """Unit vectors weighted (1 + ln tf) · ln(N / df), less the terms no other document has.

    Those terms still count in the norm; they are dropped only because they
    cannot add to any similarity. Terms become numbers (their place in the
    sorted vocabulary), so a score can add its terms in number order: the
    same order on every run, where strings would follow the per-process hash
    seed. ``documents`` is read once: each is kept only as arrays of its
    terms' first-seen numbers and counts.
    """
    seen = _Numbering()
    compact: list = [(array("I", map(seen.__getitem__, d)), array("I", d.values())) for d in documents]
    frequency = Counter(chain.from_iterable(ids for ids, _ in compact))
    idf = [math.log(len(compact) / frequency[n]) for n in range(len(seen))]
    # The terms that can add to a similarity: in another document too, and not in all (idf 0);
    # -1 for the others, which sort first and are cut off below.
    number = [-1] * len(seen)
    for n, term in enumerate(sorted(seen)):
        if 1 < frequency[seen[term]] < len(compact):
            number[seen[term]] = n
    numbers = list(range(len(seen)))  # one int object per number, shared by every vector's terms
    vectors = []
    for at, (ids, counts) in enumerate(compact):
        compact[at] = None  # let go as it is made a vector
        # Term by term in C (map, zip), not in a comprehension: some hundred terms a paper;
        # the norm is summed in the document's own order, as its Counter was.
        weights = list(map(mul, map(_TF_WEIGHT.__getitem__, counts), map(idf.__getitem__, ids)))
        norm = math.sqrt(sum(map(mul, weights, weights))) or 1.0
        pairs = sorted(zip(map(number.__getitem__, ids), map(truediv, weights, repeat(norm))))
        kept = list(islice(pairs, bisect_left(pairs, (0,)), None))
        vectors.append(Vector(tuple(map(numbers.__getitem__, map(itemgetter(0), kept))),
                              array("d", map(itemgetter(1), kept))))
    return vectors


class _Numbering(dict[str, int]):
    """Term → a number, in the order terms are first met (the next one for a new term)."""

    def __missing__(self, term: str) -> int:
        number = self[term] = len(self)
        return number


class _TfWeight(dict[int, float]):
    """Term count → 1 + ln count, worked out once a count."""

    def __missing__(self, count: int) -> float:
        weight = self[count] = 1 + math.log(count)
        return weight


_TF_WEIGHT = _TfWeight()


def nearest(vectors: Sequence[Vector], k: int, executor: Executor = INLINE) -> list[list[int]]:
    """For each vector, the indexes of its ``k`` most similar others; scored by the ``executor`` (on
    every core, forked processes share the vectors and the index; each scores a share of the papers)."""
    top = [_heaviest(v) for v in vectors]
    index: dict[int, list[int]] = {}
    for number, heaviest in enumerate(top):
        for term in heaviest:
            index.setdefault(term, []).append(number)
    index = {term: papers for term, papers in index.items() if len(papers) <= MAX_POSTINGS}

    def best_of(numbers: list[int]) -> list[list[int]]:
        candidates = {n: _candidates(n, top[n], index) for n in numbers}
        return list(_best(numbers, candidates, vectors, k))

    # Papers on one topic, one after the other: they are each other's candidates, so the vectors
    # they read are still in the CPU cache (in paper order, each read comes from memory).
    order = sorted(range(len(vectors)), key=lambda n: (top[n][:1], n))
    found = executor.map(best_of, order, Cost.LIGHT)
    result: list[list[int]] = [[]] * len(vectors)
    for number, near in zip(order, found):
        result[number] = near
    return result


def _heaviest(vector: Vector) -> list[int]:
    """The ``TOP_TERMS`` heaviest terms; equal weights in term order (a stable sort of the sorted
    terms), the same every time."""
    heaviest = sorted(range(len(vector.terms)), key=vector.weights.__getitem__, reverse=True)
    return list(map(vector.terms.__getitem__, heaviest[:TOP_TERMS]))


def _candidates(number: int, query: list[int], index: dict[int, list[int]]) -> list[int]:
    """The ``CANDIDATES`` papers that share the most of ``query``'s heaviest terms; among equal
    counts, the first met (the index lists are in paper order, the query heaviest term first)."""
    shared = Counter(chain.from_iterable(index[term] for term in query if term in index))
    shared.pop(number, None)
    if len(shared) <= CANDIDATES:
        return list(shared)
    # sorted is stable with reverse=True too, and does in C what most_common's nlargest does in Python.
    return sorted(shared, key=shared.__getitem__, reverse=True)[:CANDIDATES]


def _best(numbers: list[int], candidates: dict[int, list[int]], vectors: Sequence[Vector],
          k: int) -> Iterator[list[int]]:
    """Each paper's ``k`` best candidates by exact cosine. A pair that are each other's candidates
    is scored once: the score waits in ``mutual`` for the one of them that comes later in ``numbers``."""
    mutual: dict[tuple[int, int], float] = {}
    done: set[int] = set()
    for number in numbers:
        own = vectors[number].as_dict()  # the query's weights by term, while its candidates are scored
        scored = []
        for other in candidates[number]:
            pair = (other, number) if other < number else (number, other)
            score = mutual.pop(pair, None) if other in done else None
            if score is None:
                score = _cosine(own, vectors[other])
                if other not in done and number in candidates.get(other, ()):
                    mutual[pair] = score
            scored.append((-score, other))
        done.add(number)
        yield [other for _, other in sorted(scored)[:k]]


def _cosine(a: dict[int, float], b: Vector) -> float:
    """a · b, rounded: summed in term order, so the same for (a, b) and (b, a) and on every run."""
    common = list(compress(range(len(b.terms)), map(a.__contains__, b.terms)))  # b's places of shared terms
    return round(float(sum(map(mul, map(a.__getitem__, map(b.terms.__getitem__, common)),
                               map(b.weights.__getitem__, common)))), _SCORE_DIGITS)
