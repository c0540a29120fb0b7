"""The volume's vector space: each paper's TF-IDF vector, a row of one sparse matrix (scipy's CSR).

Made once a build from the papers' words (``related.text_terms``: the search index's terms) and read by
related papers (derive/related.py: candidates and exact cosines as sparse products) and the map
(derive/map_layout.py: its SVD), so that the two agree on what "similar" means and neither tokenises again.

Weights are (1 + ln tf) · ln(N / df), each row divided by the norm of all its terms; a term no other paper
has, or every paper has, is left out afterwards (it cannot add to a similarity). A column is a term's place
in the sorted vocabulary, so that a row's terms come in the same order on every run (strings would follow
the per-process hash seed).

The numbers are the very floats the Python loops before this gave (tests/test_related.py compares them):
logarithms from ``math.log`` (numpy's SIMD ``log`` may round otherwise), products elementwise, and each norm
summed in the paper's own order, one term after the other, by a sparse matrix-vector product (scipy's
``csr_matvec``), where ``numpy.sum`` would add pairwise.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable
from typing import Any

from generator.derive.map_layout import load_numpy


def tfidf_matrix(documents: Iterable[Counter[str]]) -> Any:
    """A CSR matrix of unit TF-IDF rows, one a document, columns in sorted-vocabulary order, indices sorted.

    ``documents`` is read once: each Counter is kept only as its terms' first-seen numbers and counts.
    """
    np = load_numpy()
    from scipy import sparse

    seen = _Numbering()
    # Machine ints, not lists of Python ints: a large volume's millions of (term, count) pairs cost a third
    # as much, and numpy reads them in place (no copy).
    ids, counts, lengths = array("i"), array("i"), array("q")
    for document in documents:
        ids.extend(map(seen.__getitem__, document))  # a known term's number in C; a new one's from __missing__
        counts.extend(document.values())
        lengths.append(len(document))
    rows = len(lengths)
    if not rows:
        return sparse.csr_matrix((0, 1))
    first, sizes = np.frombuffer(ids, dtype=np.intc), np.frombuffer(lengths, dtype=np.int64)
    indptr = np.zeros(rows + 1, dtype=np.int64)
    np.cumsum(sizes, out=indptr[1:])
    frequency = np.bincount(first, minlength=len(seen))
    weights = _weights(np, first, np.frombuffer(counts, dtype=np.intc), frequency, rows)
    del counts
    # Each row's sum of squares in its own order: weights · weights as a CSR matrix-vector product.
    squares = sparse.csr_matrix((weights, np.arange(len(weights)), indptr), shape=(rows, len(weights))) @ weights
    norms = np.sqrt(squares)
    norms[norms == 0] = 1.0
    weights /= np.repeat(norms, sizes)  # (in place: one array of the volume's size fewer at this peak)
    columns = _columns(np, seen, first, frequency, rows)
    del ids, first
    kept = columns >= 0
    # Rows stay in order and a row's terms are distinct: the CSR arrays are the kept entries as they come, a
    # row starting where as many were kept before it as before its first entry.
    before = np.zeros(len(kept) + 1, dtype=np.int64)
    np.cumsum(kept, out=before[1:])
    indptr = before[indptr]
    data, indices = weights[kept], columns[kept]
    del weights, columns, kept, before
    width = int(indices.max()) + 1 if len(indices) else 1
    index = np.intc if len(data) <= np.iinfo(np.intc).max else np.int64  # as scipy makes them
    matrix = sparse.csr_matrix((data, indices.astype(index, copy=False), indptr.astype(index)), shape=(rows, width))
    matrix.sort_indices()
    return matrix


def _weights(np: Any, first: Any, counts: Any, frequency: Any, rows: int) -> Any:
    """Each entry's (1 + ln tf) · ln(N / df), by ``math.log`` per term and per count (a few tens of thousands
    of calls, the same floats as the Python loops gave)."""
    idf = np.array([math.log(rows / int(df)) for df in frequency.tolist()], dtype=np.float64)
    tf_weight = np.array([0.0] + [1 + math.log(c) for c in range(1, int(counts.max(initial=1)) + 1)])
    weights = tf_weight[counts]
    weights *= idf[first]
    return weights


def _columns(np: Any, seen: dict[str, int], first: Any, frequency: Any, rows: int) -> Any:
    """Each entry's column: its term's place in the sorted vocabulary, for the terms in another document
    too and not in all (-1: left out)."""
    vocabulary = sorted(seen)
    place = np.full(len(seen), -1, dtype=np.intc)
    place[[seen[t] for t in vocabulary]] = np.arange(len(vocabulary), dtype=np.intc)
    place[(frequency <= 1) | (frequency >= rows)] = -1
    return place[first]


class _Numbering(dict[str, int]):
    """Term → its number, in the order terms are first met: a term met first is given the next one."""

    def __missing__(self, term: str) -> int:
        number = self[term] = len(self)
        return number
