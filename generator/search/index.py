"""The lunr index, built here as lunr.js would build it, ready for ``lunr.Index.load``.

The JSON is what lunr.py's ``Builder().build().serialize()`` gives for the same
terms (tests/test_search.py compares the two), with the inverted index in
UTF-16 order as lunr.js wants it. lunr.py keeps a dict per posting, every
document's term counts and a serialized copy of it all, many times the
index's own size. Here a posting is a list of document numbers per field, a
document's counts are a flat array of (term number, count), and both parts
of the index are JSON-encoded a batch at a time as the script is written
(``pieces``): the BM25 field vectors are worked out only then.
"""

from __future__ import annotations

import itertools
import json
import math
from array import array
from collections import Counter
from collections.abc import Iterator

import numpy as np
from lunr import __TARGET_JS_VERSION__
from lunr.stemmer import stemmer as lunr_stemmer

from generator.model.paper import RenderedPaper
from generator.search.terms import known_terms, people_terms, terms

# name → boost; a title word weighs most, a topic more than a word of the abstract. The authors' names and
# affiliations (3) rank a paper by its author above one whose abstract cites them, below a title or topic
# that holds the word: an affiliation's words ("Machine Learning Department") do not outrank a title's.
FIELDS = {"title": 10, "tags": 5, "abstract": 1, "authors": 3}
_K1, _B = 1.2, 0.75  # lunr's BM25 parameters (Builder._k1, Builder._b)
_BATCH = 2_000  # entries JSON-encoded at a time
# Field-vector entries weighed at a time in numpy (FieldVectors.entries): about 13 MB of arrays beside the index's
# child, where a large volume's tens of millions at once would be gigabytes (r10k: 0.75 CPU-s at 1 << 18, 0.81 here).
ENTRIES_CHUNK = 1 << 16


def utf16_key(text: str) -> bytes:
    """Sort key matching JavaScript's string comparison (UTF-16 code units)."""
    return text.encode("utf-16-be", "surrogatepass")


class _Terms:
    """Every document's terms per field, as lunr's builder would count them: a term's number is its place in
    the order the documents met them; a term's documents are read off the counts when asked for (``postings``
    for the whole inverted index; ``with_term`` and ``documents_with`` for the weights and the fuzzy buckets)."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}  # term → its number (first met, first numbered)
        self.counts: list[array] = []  # per document and field: term number, count, term number, count…
        self.lengths: list[int] = []  # per document and field: how many terms (repeats included)

    def add(self, ref: int, fields: list[list[str]]) -> None:
        """Document ``ref``'s terms per field (``ref`` is the next document's: refs come in order from 0)."""
        numbers = self.numbers
        for field_terms in fields:
            counted = Counter(field_terms)
            # Term → its number, in C: setdefault hands back the number a term already has, and the next one
            # to a term met first here (the generator is read as each term is reached: ``len`` is the next).
            found = map(numbers.setdefault, counted, (len(numbers) for _ in counted))
            self.counts.append(array("I", itertools.chain.from_iterable(zip(found, counted.values()))))
            self.lengths.append(len(field_terms))

    def refs(self) -> list[list[list[int]]]:
        """By term number, the documents holding it per field, ascending: made from the documents' counts (a
        large volume's postings kept as lists of refs were most of the index's process)."""
        made: list[list[list[int]]] = [[[] for _ in FIELDS] for _ in self.numbers]
        for slot, counted in enumerate(self.counts):
            ref, field = divmod(slot, len(FIELDS))
            for number in counted[::2]:
                made[number][field].append(ref)
        return made

    @property
    def postings(self) -> dict[str, tuple[int, list[list[int]]]]:
        """term → (its number, its documents in each field, ascending): the inverted index whole."""
        refs = self.refs()
        return {term: (number, refs[number]) for term, number in self.numbers.items()}

    def with_term(self) -> list[int]:
        """By term number, the fields of documents that hold it (a document's title and abstract: two)."""
        found = np.zeros(len(self.numbers), dtype=np.int64)
        for start in range(0, len(self.counts), _SLOTS):
            found += np.bincount(self._numbers(start)[0], minlength=len(self.numbers))
        return found.tolist()

    def documents_with(self) -> list[int]:
        """By term number, the documents that hold it in any field."""
        found = np.zeros(len(self.numbers), dtype=np.int64)
        for start in range(0, len(self.counts), _SLOTS):
            numbers, slots = self._numbers(start)
            pairs = np.unique(numbers * (len(self.counts) // len(FIELDS) + 1) + slots // len(FIELDS))
            found += np.bincount(pairs // (len(self.counts) // len(FIELDS) + 1), minlength=len(self.numbers))
        return found.tolist()

    def _numbers(self, start: int) -> tuple[np.ndarray, np.ndarray]:
        """The term numbers of the ``_SLOTS`` slots from ``start`` (whole documents), and the slot of each."""
        counts = self.counts[start:start + _SLOTS]
        numbers = np.frombuffer(b"".join(counts), dtype=np.uint32)[0::2].astype(np.int64)
        slots = np.repeat(np.arange(start, start + len(counts), dtype=np.int64), [len(c) // 2 for c in counts])
        return numbers, slots


_SLOTS = 4_096 * len(FIELDS)  # documents' slots whose term numbers are read at a time (a few MB of arrays)


class InvertedIndex:
    """``invertedIndex``: [term, {"_index": n, field: {ref: {}}…}] in UTF-16 order, made as it is read."""

    def __init__(self, found: _Terms):
        self._numbers = found.numbers
        self._refs = found.refs()
        self._order = sorted(found.numbers, key=utf16_key)

    def __len__(self) -> int:
        return len(self._order)

    def __iter__(self) -> Iterator[list]:
        for term in self._order:
            number = self._numbers[term]
            refs = self._refs[number]
            entry: dict = {name: {str(ref): {} for ref in documents} for name, documents in zip(FIELDS, refs)}
            entry["_index"] = number
            yield [term, entry]

    def pieces(self) -> Iterator[str]:
        yield from _list_pieces(iter(self))


class FieldVectors:
    """``fieldVectors``: ["field/ref", [term number, BM25 weight, …]] per document and field, as
    lunr's ``Builder._create_field_vectors`` computes them, worked out as they are read."""

    def __init__(self, found: _Terms, documents: int):
        self._found, self._documents = found, documents
        average = [sum(found.lengths[field::len(FIELDS)]) / documents if documents else 0
                   for field in range(len(FIELDS))]
        self._average = average
        self._idf = [math.log(1 + abs((documents - with_term + 0.5) / (with_term + 0.5)))
                     for with_term in found.with_term()]

    def __len__(self) -> int:
        return len(self._found.counts)

    def __iter__(self) -> Iterator[list]:
        names = list(FIELDS)
        for slot, weights in enumerate(self.weights()):
            ref, field = divmod(slot, len(FIELDS))
            yield [f"{names[field]}/{ref}", [x for pair in sorted(weights) for x in pair]]

    def weights(self) -> Iterator[list[tuple[int, float]]]:
        """Each document's and field's (term number, weight) pairs, in slot order (ref × fields + field),
        the terms in the order the document met them: what a vector holds, before lunr's sort."""
        boosts = list(FIELDS.values())
        idf = self._idf
        for slot, counted in enumerate(self._found.counts):
            if not counted:  # an empty field: lunr never divides by its zero average
                yield []
                continue
            field = slot % len(FIELDS)
            norm = _K1 * (1 - _B + _B * (self._found.lengths[slot] / self._average[field]))
            boost = boosts[field]
            yield [(number, round(idf[number] * ((_K1 + 1) * tf) / (norm + tf) * boost, 3))
                   for number, tf in zip(counted[::2], counted[1::2])]

    def entries(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """``weights`` of every slot, as arrays of the same length (term number, slot, weight), about
        ``ENTRIES_CHUNK`` entries at a time (a whole slot in one; its arrays made and let go a chunk at a time).
        The same doubles, each made by the same operations in the same order, rounded by Python's ``round``
        (numpy's rounds a scaled copy, which may differ in the last place)."""
        counts, chunk = self._found.counts, ENTRIES_CHUNK
        start = 0
        while start < len(counts):
            end, size = start, 0
            while end < len(counts) and (not size or size + len(counts[end]) // 2 <= chunk):
                size, end = size + len(counts[end]) // 2, end + 1
            yield self._entries(start, end)
            start = end

    def _entries(self, start: int, end: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``entries`` of the slots from ``start`` to ``end``."""
        counts = self._found.counts[start:end]
        flat = np.frombuffer(b"".join(counts), dtype=np.uint32).astype(np.int64)
        numbers, tfs = flat[0::2], flat[1::2].astype(np.float64)
        slots = np.repeat(np.arange(start, end, dtype=np.int64), [len(counted) // 2 for counted in counts])
        fields = slots % len(FIELDS)
        lengths = np.asarray(self._found.lengths, dtype=np.float64)[slots]
        norm = _K1 * (1 - _B + _B * (lengths / np.asarray(self._average, dtype=np.float64)[fields]))
        boosts = np.asarray(list(FIELDS.values()), dtype=np.float64)[fields]
        raw = np.asarray(self._idf, dtype=np.float64)[numbers] * ((_K1 + 1) * tfs) / (norm + tfs) * boosts
        weights = np.fromiter(map(round, raw.tolist(), itertools.repeat(3)), dtype=np.float64, count=len(raw))
        return numbers, slots, weights

    def pieces(self) -> Iterator[str]:
        yield from _list_pieces(iter(self))


def _list_pieces(items: Iterator) -> Iterator[str]:
    """A JSON list (sorted keys, no spaces, ASCII), ``_BATCH`` items at a time."""
    yield "["
    first = True
    while True:
        batch = [item for _, item in zip(range(_BATCH), items)]
        if not batch:
            break
        yield ("" if first else ",") + json.dumps(batch, ensure_ascii=True, sort_keys=True,
                                                  separators=(",", ":"))[1:-1]
        first = False
    yield "]"


People = tuple[tuple[str, str], ...]  # (name, affiliation) of each author


def people(paper: RenderedPaper) -> People:
    return tuple((author.name, author.affiliation) for author in paper.details.authors)


def found_terms(papers: list[RenderedPaper], names: dict[str, str] | None = None) -> _Terms:
    """Every paper's terms per field (a tag indexed by its name and its shown name)."""
    found = _Terms()
    for ref, paper in enumerate(papers):
        found.add(ref, paper_terms(paper.title_plain, paper.paper.tags, paper.abstract_plain, names or {},
                                   people(paper)))
    return found


def paper_terms(title: str, tags: tuple[str, ...], abstract: str, names: dict[str, str],
                authors: People = ()) -> list[list[str]]:
    """A volume's paper's terms per field: a tag is indexed by its name and its name in ``names``."""
    shown = tuple(names[t] for t in tags if t in names)
    return field_terms(title, tags + shown, abstract, authors)


def field_terms(title: str, topics: tuple[str, ...] | list[str], abstract: str,
                authors: People = ()) -> list[list[str]]:
    """A document's terms per field of ``FIELDS``, in their order: a volume's and a series' index alike."""
    return [known_terms(title), terms(" ".join(topics)), known_terms(abstract), people_terms(authors)]


def build_index(papers: list[RenderedPaper], names: dict[str, str] | None = None) -> dict:
    """The serialized lunr index; document refs are positions in ``papers``. Its two large parts are
    ``InvertedIndex`` and ``FieldVectors``: iterable, and written by ``payload`` with their ``pieces``."""
    found = found_terms(papers, names)
    return {
        "version": __TARGET_JS_VERSION__,
        "fields": list(FIELDS),
        "fieldVectors": FieldVectors(found, len(papers)),
        "invertedIndex": InvertedIndex(found),
        # The query pipeline lunr.js rebuilds from the index: stemming only.
        "pipeline": [lunr_stemmer.label],
    }
