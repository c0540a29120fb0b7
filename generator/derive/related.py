"""Related papers: TF-IDF cosine similarity over each paper's title and plain abstract.

The papers' vectors are the rows of one sparse matrix (derive/space.py), which the map reads too; every
step over the whole volume is a sparse or array operation in C (scipy, numpy), not a Python loop a paper:

* top-terms pruning: each paper is indexed under its ``TOP_TERMS`` heaviest terms (a term among the
  heaviest of more than ``MAX_POSTINGS`` papers tells little, and is left out);
* candidates: one sparse product of the papers' top terms with the index's counts, for every pair of
  papers, the top terms they share; each paper keeps the ``CANDIDATES`` sharing the most;
* scores: the exact cosine of each candidate pair, once a pair, as the rows' elementwise product
  summed in term order (a sparse matrix-vector product), rounded to ``_SCORE_DIGITS`` digits;
* each paper's ``k`` best candidates, by one sort of all the pairs.

Few telling terms find better candidates than many, since a count does not weigh terms. On the 5,083
real abstracts of the shared corpora (bench/related_bench.py --papers 5083 --exact 300) the best match
is the exact cosine's for 92.3% of papers and 86.1% of the top 4 agree, in a small fraction of the time
that scoring every pair takes; bench/RESULTS.md has the measurements.

The lists are those the Python loops before this one made (tests/test_related.py keeps that algorithm
and compares): among candidates sharing as many top terms, the one met first (by its first shared
term, heaviest first, then in paper order) is kept; a score is summed in term-number order, the same
for both papers of a pair and on every run, and rounded as Python rounds; ties go to the paper that
comes first in the proceedings.

Words are the search index's terms (``search.terms``: lower case, stop words dropped, Porter stems),
so "networks" relates to "network" as search finds it.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import chain
from typing import Any

from generator.derive.map_layout import load_numpy
from generator.derive.space import tfidf_matrix
from generator.runtime.cache import BuildCache, digest_of
from generator.model.paper import RenderedPaper
from generator.search.terms import forget_terms, known_terms

RELATED_COUNT = 4
TITLE_WEIGHT = 2  # a title word counts as much as two words of the abstract
TOP_TERMS = 12
CANDIDATES = 40
# A term among the heaviest of this many papers is no longer telling, and its long posting
# list would make candidate search quadratic in the volume's size: it is left out of the lookup.
MAX_POSTINGS = 400
_SCORE_DIGITS = 9  # scores equal to 9 digits are a tie
_BLOCK = 256  # papers whose candidates are found in one sparse product (tens of MB at most, however large the volume)
_PAIRS = 16_384  # candidate pairs scored in one elementwise product


def related_papers(papers: Sequence[RenderedPaper], k: int = RELATED_COUNT) -> dict[str, tuple[RenderedPaper, ...]]:
    """Paper id → its ``k`` most similar papers, most similar first (never itself)."""
    return {
        paper.paper.id: tuple(papers[j] for j in neighbours)
        for paper, neighbours in zip(papers, _neighbours(papers, texts_digest(papers), k))
    }


def related_ids(papers: Sequence[RenderedPaper], k: int = RELATED_COUNT, cache: BuildCache | None = None,
                vectors: Callable[[], None] | None = None) -> dict[str, tuple[str, ...]]:
    """Paper id → the ids of its ``k`` most similar papers; kept in ``cache`` for a build with the same texts.
    ``vectors``: called once the papers' vectors are made (``matrix_for`` hands them over), before the neighbours
    are worked out from them; not when none are made (the answer found in the cache, or the last one's)."""
    texts = texts_digest(papers)
    key = cache.key("related", str(k), texts) if cache and cache.enabled else ""
    found: Any = cache.load_json("related", key) if key and cache else None
    if _fits(found, len(papers), k):
        neighbours = found
    else:
        neighbours = _neighbours(papers, texts, k, vectors)
        if key and cache:
            cache.store_json("related", key, neighbours)
    forget_terms()  # the words its texts were split into, if the rendered stage kept them (search/terms.py)
    return {paper.paper.id: tuple(papers[j].paper.id for j in near) for paper, near in zip(papers, neighbours)}


def texts_digest(papers: Sequence[RenderedPaper]) -> str:
    """What related papers and the vectors are made of, the papers' titles and plain abstracts in order, as a
    digest read a paper at a time: a large volume's texts (packed, pipeline/packed.py) are never all held."""
    return digest_of(texts(papers))


def texts(papers: Sequence[RenderedPaper]) -> Iterator[str]:
    """Each paper's title and abstract as related papers read them (plain): the texts its words are split from."""
    return chain.from_iterable((p.title_plain, p.abstract_plain) for p in papers)


def _fits(found: object, count: int, k: int) -> bool:
    """A cached answer has the right shape: ``count`` lists of at most ``k`` other papers' indexes."""
    return isinstance(found, list) and len(found) == count and all(
        isinstance(near, list) and len(near) <= k
        and all(type(j) is int and 0 <= j < count and j != n for j in near)
        for n, near in enumerate(found))


# The last answer and the last vectors, by the digest of the texts they were worked out from (one entry each): the
# dev server rebuilds after template and config edits too, the same texts, no new work; the map reads the vectors.
_LAST_NEIGHBOURS: dict[tuple[str, int], tuple[tuple[int, ...], ...]] = {}
_LAST_MATRIX: dict[str, Any] = {}


def _neighbours(papers: Sequence[RenderedPaper], texts: str, k: int,
                vectors: Callable[[], None] | None = None) -> tuple[tuple[int, ...], ...]:
    found = _LAST_NEIGHBOURS.get((texts, k))
    if found is None:
        matrix = _matrix(papers, texts)
        if vectors is not None:
            vectors()
        found = tuple(map(tuple, nearest(matrix, k)))
        _LAST_NEIGHBOURS.clear()
        _LAST_NEIGHBOURS[(texts, k)] = found
    return found


def matrix_for(papers: Sequence[RenderedPaper], texts: str | None = None) -> Any:
    """The papers' TF-IDF matrix (derive/space.py), as related papers are worked out from: the map of the papers
    (derive/paper_map.py) lays out its rows. The one just made for related papers is handed over, not made again.
    ``texts``: ``texts_digest(papers)``, when the caller has it."""
    return _matrix(papers, texts_digest(papers) if texts is None else texts)


def _matrix(papers: Sequence[RenderedPaper], texts: str) -> Any:
    if texts not in _LAST_MATRIX:
        _LAST_MATRIX.clear()
        # A generator: each paper's texts (and Counter of words) let go once its numbers are taken.
        _LAST_MATRIX[texts] = tfidf_matrix(text_terms(p.title_plain, p.abstract_plain) for p in papers)
    return _LAST_MATRIX[texts]


def forget_vectors() -> None:
    """Let the last matrix go (a large volume's is tens of MB) once related papers and the map have it."""
    _LAST_MATRIX.clear()


def forget_texts() -> None:
    """Let go the last answer (kept for the dev server's next pass): a build asks no second time."""
    _LAST_NEIGHBOURS.clear()


def text_terms(title: str, abstract: str) -> Counter[str]:
    counts = Counter(filter(_TELLING.__getitem__, known_terms(abstract)))
    for word in filter(_TELLING.__getitem__, known_terms(title)):
        counts[word] += TITLE_WEIGHT
    return counts


class _Telling(dict[str, bool]):
    """Term → whether it says something about a topic, decided once a term (then a lookup in C)."""

    def __missing__(self, term: str) -> bool:
        # One-letter words and bare numbers ("2", "2026") say little about a topic.
        telling = self[term] = len(term) > 1 and not term.isdigit()
        return telling


_TELLING = _Telling()


def nearest(matrix: Any, k: int) -> list[list[int]]:
    """For each row of the TF-IDF ``matrix``, the indexes of its ``k`` most similar other rows."""
    np = load_numpy()
    rows = matrix.shape[0]
    if not rows:
        return []
    first, second = _candidates(matrix)
    scores = _scores(matrix, first, second)
    order = _best_first(np, first, second, scores, rows)
    first, second = first[order], second[order]
    chosen = _rank(first, rows) < k
    return _lists(first[chosen], second[chosen], rows)


def _best_first(np: Any, first: Any, second: Any, scores: Any, rows: int) -> Any:
    """The (distinct) pairs' order by paper, best first, ties to the earlier paper: ``numpy.lexsort((second, -scores,
    first))``, as one sort of an integer key a pair where it fits (a volume of at most 65,536 papers, scores of
    ``_SCORE_DIGITS`` digits in [0, 1]: each a whole number of steps), six times as fast."""
    steps = np.rint(scores * 10.0 ** _SCORE_DIGITS)  # (a score is the float nearest its steps: exact)
    if rows > 1 << 16 or 10 ** _SCORE_DIGITS >= 1 << 30 or len(steps) and not 0 <= steps.min() <= steps.max() < 1 << 30:
        return np.lexsort((second, -scores, first))
    return np.argsort(first << 46 | ((1 << 30) - 1 - steps.astype(np.int64)) << 16 | second)


def _heaviest(matrix: Any) -> tuple[Any, Any, Any]:
    """Each row's ``TOP_TERMS`` heaviest terms: (row, column, place among them, heaviest first) of each;
    equal weights in column order, as a stable sort of the sorted terms gives them."""
    np = load_numpy()
    row_of = np.repeat(np.arange(matrix.shape[0]), np.diff(matrix.indptr))
    order = _by_row_heaviest_first(np, matrix.data, row_of)
    row_of = row_of[order]  # (still by row: the sort is by row first)
    place = _rank(row_of, matrix.shape[0])
    kept = place < TOP_TERMS
    return row_of[kept], matrix.indices[order[kept]].astype(np.int64), place[kept]


def _by_row_heaviest_first(np: Any, weights: Any, row_of: Any) -> Any:
    """The order ``numpy.lexsort((-weights, row_of))`` gives (``weights`` positive, ``row_of`` in order), in half its
    time: one stable sort by weight, then a stable radix sort by row, 16 bits a pass (numpy sorts 16-bit integers
    by radix)."""
    # Positive floats' bits, read as integers, order as the floats do, and integers sort faster.
    order = np.argsort(-weights.view(np.int64), kind="stable")  # equal weights stay in column order
    for shift in range(0, int(row_of.max(initial=0)).bit_length(), 16):  # (one row: no pass)
        digits = ((row_of >> shift) & 0xFFFF).astype(np.uint16)
        order = order[np.argsort(digits[order], kind="stable")]
    return order


@functools.cache  # the same 4,096 numbers for every build: made once a process, not once a volume
def _rank_of_mask() -> Any:
    """Each mask of shared top terms (a bit each, the heaviest highest) → its part of a pair's sort key: fewer
    shared terms sort later, and among equals a later first one."""
    np = load_numpy()
    rank = np.array([((15 - bin(n).count("1")) << 4 | (15 - n.bit_length())) << 32 for n in range(1 << TOP_TERMS)])
    rank.flags.writeable = False  # shared by every build of the process
    return rank


def _candidates(matrix: Any) -> tuple[Any, Any]:
    """Every (paper, candidate) pair, by paper: the ``CANDIDATES`` papers that share the most of its heaviest
    terms; among equal counts, the one met first by its heaviest shared term, then the earlier paper.

    One product a block of papers: the query's terms weigh 2^(TOP_TERMS - 1 - place), the index's 1, so a
    pair's sum holds a bit for each top term they share: how many is its bits, which one first its highest."""
    np = load_numpy()
    from scipy import sparse

    rows, width = matrix.shape
    row_of, column, place = _heaviest(matrix)
    indexed = np.bincount(column, minlength=width)[column] <= MAX_POSTINGS
    row_of, column, place = row_of[indexed], column[indexed], place[indexed]
    query = sparse.csr_matrix((np.left_shift(1, TOP_TERMS - 1 - place).astype(np.int64), (row_of, column)),
                              shape=(rows, width))
    index = sparse.csr_matrix((np.ones(len(column), dtype=np.int64), (column, row_of)), shape=(width, rows))
    # A pair's sort key in one int64: paper in the block, fewer shared terms, a later first one, the other paper.
    rank_of_mask = _rank_of_mask()
    firsts, seconds = [], []
    for start in range(0, rows, _BLOCK):
        shared = query[start:start + _BLOCK] @ index
        paper = np.repeat(np.arange(shared.shape[0], dtype=np.int64), np.diff(shared.indptr))
        other = shared.indices.astype(np.int64)
        rank = rank_of_mask[shared.data]
        # Only the pairs that can be among a paper's first CANDIDATES are sorted (most share one term: a tenth).
        kept = (other != paper + start) & _within_reach(np, paper, rank >> 32, shared.shape[0])
        key = np.sort((paper << 40 | rank | other)[kept])
        paper, other = key >> 40, key & 0xFFFFFFFF
        kept = _rank(paper, shared.shape[0]) < CANDIDATES
        firsts.append(paper[kept] + start)
        seconds.append(other[kept])
    return np.concatenate(firsts), np.concatenate(seconds)


def _within_reach(np: Any, paper: Any, rank: Any, papers: int) -> Any:
    """Whether each pair (``paper``'s, ``rank``: its shared terms' part of the sort key, 0-255) sorts among the
    paper's first ``CANDIDATES`` or ties with the last of them on rank: the pairs ranked no later than the rank at
    which the paper's count reaches ``CANDIDATES`` (all of a paper's pairs when they are fewer). The paper's pair
    with itself, left out afterwards, may be among those counted: hence one more, which keeps no pair too few."""
    counts = np.bincount(paper * 256 + rank, minlength=papers * 256).reshape(papers, 256)
    enough = np.cumsum(counts, axis=1) >= CANDIDATES + 1
    last = np.where(enough[:, -1], enough.argmax(1), 255)
    return rank <= last[paper]


def _scores(matrix: Any, first: Any, second: Any) -> Any:
    """Each pair's exact cosine, rounded: a pair that are each other's candidates is scored once; the shared
    terms' products summed in term order (csr_matvec), the same for (a, b) and (b, a) and on every run."""
    np = load_numpy()
    rows = matrix.shape[0]
    pairs, which = np.unique(np.minimum(first, second) * rows + np.maximum(first, second), return_inverse=True)
    ones = np.ones(matrix.shape[1])
    sums = []
    for start in range(0, len(pairs), _PAIRS):
        low, high = np.divmod(pairs[start:start + _PAIRS], rows)
        left, right = matrix[low], matrix[high]
        summed = left.multiply(right).tocsr() @ ones
        sums.append(rounded_as_python(np, summed, _SCORE_DIGITS))
    rounded = np.concatenate(sums) if sums else np.zeros(0)
    return rounded[which.reshape(-1)]


def rounded_as_python(np: Any, values: Any, digits: int) -> Any:
    """``round(value, digits)`` of each of ``values`` (float64), the very floats Python's ``round`` gives, in numpy.

    Python rounds the exact binary value to ``digits`` decimals and takes the float nearest that decimal. Here
    ``value · 10^digits`` is rounded to a whole number and divided by ``10^digits``: the division is exactly
    rounded, so it gives the float nearest the same decimal whenever the product, which may be off by half its
    ulp, lies on the same side of a half as the exact value does. A product within an ulp of a half (or too large
    to tell) is handed to ``round`` itself: a few in a million."""
    scale = 10.0 ** digits  # exact for up to 22 digits
    with np.errstate(over="ignore", invalid="ignore"):  # (a huge value, inf and nan are left to round)
        scaled = values * scale
        rounded = np.rint(scaled) / scale
        size = np.abs(scaled)  # (its fraction, size - floor(size), is exact; a negative value rounds as its size)
        doubtful = ~(np.abs(size - np.floor(size) - 0.5) > np.spacing(size)) | ~(size < 2.0 ** 52)
    if doubtful.any():
        rounded[doubtful] = [round(value, digits) for value in values[doubtful].tolist()]
    return rounded


def _rank(grouped: Any, groups: int) -> Any:
    """Each item's place in its group, for ``grouped`` (group numbers) in increasing order."""
    np = load_numpy()
    sizes = np.bincount(grouped, minlength=groups)
    starts = np.cumsum(sizes) - sizes
    return np.arange(len(grouped)) - np.repeat(starts, sizes)


def _lists(first: Any, second: Any, rows: int) -> list[list[int]]:
    """The pairs (by ``first``, in order) as one list of ``second`` a row."""
    np = load_numpy()
    ends = np.cumsum(np.bincount(first, minlength=rows)).tolist()
    others = second.tolist()
    return [others[start:end] for start, end in zip([0, *ends], ends)]
