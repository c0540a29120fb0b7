"""Related papers and their vectors as the Python loops before the sparse products worked them out (issue 43):
the reference tests/test_related.py and tests/test_paper_map.py compare today's matrices and lists with.

Kept as it was (less its executor, which split the scoring over processes and changed no list): a paper's
vector as its term numbers and weights; candidates from an inverted index of each paper's heaviest terms,
counted by a ``Counter``; each candidate's exact cosine summed over the shared terms in term order."""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain, compress, islice, repeat
from operator import itemgetter, mul, truediv
from typing import NamedTuple

from generator.derive.related import CANDIDATES, MAX_POSTINGS, TOP_TERMS


class Vector(NamedTuple):
    terms: tuple[int, ...]
    weights: array

    def as_dict(self) -> dict[int, float]:
        return dict(zip(self.terms, self.weights))


def tfidf_vectors(documents: Iterable[Counter[str]]) -> list[Vector]:
    seen: dict[str, int] = {}
    compact = [(array("I", [seen.setdefault(t, len(seen)) for t in d]), array("I", d.values())) for d in documents]
    frequency = Counter(chain.from_iterable(ids for ids, _ in compact))
    idf = [math.log(len(compact) / frequency[n]) for n in range(len(seen))]
    number = [-1] * len(seen)
    for n, term in enumerate(sorted(seen)):
        if 1 < frequency[seen[term]] < len(compact):
            number[seen[term]] = n
    vectors = []
    for ids, counts in compact:
        weights = list(map(mul, (1 + math.log(c) for c in counts), map(idf.__getitem__, ids)))
        norm = math.sqrt(sum(map(mul, weights, weights))) or 1.0
        pairs = sorted(zip(map(number.__getitem__, ids), map(truediv, weights, repeat(norm))))
        kept = list(islice(pairs, bisect_left(pairs, (0,)), None))
        vectors.append(Vector(tuple(map(itemgetter(0), kept)), array("d", map(itemgetter(1), kept))))
    return vectors


def nearest(vectors: Sequence[Vector], k: int) -> list[list[int]]:
    top = [_heaviest(v) for v in vectors]
    index: dict[int, list[int]] = {}
    for number, heaviest in enumerate(top):
        for term in heaviest:
            index.setdefault(term, []).append(number)
    index = {term: papers for term, papers in index.items() if len(papers) <= MAX_POSTINGS}
    found = []
    for number, vector in enumerate(vectors):
        own = vector.as_dict()
        scored = sorted((-cosine(own, vectors[other]), other) for other in candidates(number, top[number], index))
        found.append([other for _, other in scored[:k]])
    return found


def _heaviest(vector: Vector) -> list[int]:
    heaviest = sorted(range(len(vector.terms)), key=vector.weights.__getitem__, reverse=True)
    return list(map(vector.terms.__getitem__, heaviest[:TOP_TERMS]))


def candidates(number: int, query: list[int], index: dict[int, list[int]]) -> list[int]:
    shared = Counter(chain.from_iterable(index[term] for term in query if term in index))
    shared.pop(number, None)
    if len(shared) <= CANDIDATES:
        return list(shared)
    return sorted(shared, key=shared.__getitem__, reverse=True)[:CANDIDATES]


def cosine(a: dict[int, float], b: Vector) -> float:
    common = list(compress(range(len(b.terms)), map(a.__contains__, b.terms)))
    return round(float(sum(map(mul, map(a.__getitem__, map(b.terms.__getitem__, common)),
                               map(b.weights.__getitem__, common)))), 9)
