"""The lunr index, built here as lunr.js would build it, ready for ``lunr.Index.load``.

The JSON is what lunr.py's ``Builder().build().serialize()`` gives for the same
terms (tests/test_search.py compares the two), with the inverted index in
UTF-16 order as lunr.js wants it. lunr.py keeps a dict per posting, every
document's term counts and a serialized copy of it all, many times the
index's own size. Here a posting is a list of document numbers per field, a
document's counts are (term number, count) in numpy arrays, a batch of
documents at a time, and both parts of the index are JSON-encoded a batch at a time as the script is written
(``pieces``): the BM25 field vectors are worked out only then.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Iterator
from typing import NamedTuple

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
    the order the documents met them. The terms are numbered and counted a batch of documents at a time, in C
    and numpy (``_count``): each batch kept as three arrays (``Counted``), a slot's entries (term number,
    count) in term-number order. A term's documents are read off the counts when asked for (``postings`` for
    the whole inverted index; ``with_term`` and ``documents_with`` for the weights and the fuzzy buckets)."""

    def __init__(self) -> None:
        self._numbers: dict[str, int] = {}  # term → its number (first met, first numbered)
        self.lengths: list[int] = []  # per document and field: how many terms (repeats included)
        self._parts: list[Counted] = []
        self._waiting: list[str] = []  # the terms of the documents not yet counted, in order
        self._counted = 0  # the slots counted

    def add(self, ref: int, fields: list[list[str]]) -> None:
        """Document ``ref``'s terms per field (``ref`` is the next document's: refs come in order from 0)."""
        for field_terms in fields:
            self._waiting += field_terms
            self.lengths.append(len(field_terms))
        if len(self._waiting) >= _BATCH_TERMS:
            self._count()

    def _count(self) -> None:
        """The waiting documents' terms numbered (``setdefault`` hands back a term's number, or gives a term met
        first the next one: ``len`` read as each term is reached, all in C) and counted per slot."""
        waiting, numbers = self._waiting, self._numbers
        self._waiting = []
        lengths = np.asarray(self.lengths[self._counted:], dtype=np.int64)
        if not len(lengths):
            return
        found = np.fromiter(map(numbers.setdefault, waiting, map(len, itertools.repeat(numbers))),
                            dtype=np.int64, count=len(waiting))
        del waiting
        width = max(1, len(numbers))
        keys = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths) * width + found
        keys.sort()
        starts = np.flatnonzero(np.append(True, keys[1:] != keys[:-1])) if len(keys) else keys
        tfs = np.diff(np.append(starts, len(keys)))
        slots, terms_ = np.divmod(keys[starts], width)
        self._parts.append(Counted(self._counted, np.bincount(slots, minlength=len(lengths)).astype(np.uint32),
                                   terms_.astype(np.uint32), tfs.astype(np.uint32)))
        self._counted += len(lengths)

    @property
    def numbers(self) -> dict[str, int]:
        """term → its number (first met, first numbered), every document's counted."""
        self.parts()
        return self._numbers

    def parts(self) -> list[Counted]:
        """Every slot's entries, a batch of whole documents at a time, in slot order."""
        if self._counted < len(self.lengths):
            self._count()
        return self._parts

    def refs(self) -> list[list[list[int]]]:
        """By term number, the documents holding it per field, ascending."""
        made: list[list[list[int]]] = [[[] for _ in FIELDS] for _ in self.numbers]
        for part in self.parts():
            for number, slot in zip(part.terms.tolist(), part.slots().tolist()):
                made[number][slot % len(FIELDS)].append(slot // len(FIELDS))
        return made

    @property
    def postings(self) -> dict[str, tuple[int, list[list[int]]]]:
        """term → (its number, its documents in each field, ascending): the inverted index whole."""
        refs = self.refs()
        return {term: (number, refs[number]) for term, number in self.numbers.items()}

    def with_term(self) -> list[int]:
        """By term number, the fields of documents that hold it (a document's title and abstract: two)."""
        found = np.zeros(len(self.numbers), dtype=np.int64)
        for part in self.parts():
            found += np.bincount(part.terms, minlength=len(self.numbers))
        return found.tolist()

    def documents_with(self) -> list[int]:
        """By term number, the documents that hold it in any field (a batch holds whole documents)."""
        found = np.zeros(len(self.numbers), dtype=np.int64)
        width = max(1, len(self.numbers))
        for part in self.parts():
            keys = part.slots() // len(FIELDS) * width + part.terms
            keys.sort()
            distinct = keys[np.append(True, keys[1:] != keys[:-1])] if len(keys) else keys
            found += np.bincount(distinct % width, minlength=len(self.numbers))
        return found.tolist()


class Counted(NamedTuple):
    """A batch's entries: each slot's (from ``first``) number of entries, and each entry's term number and count."""

    first: int
    sizes: np.ndarray
    terms: np.ndarray
    tfs: np.ndarray

    def slots(self) -> np.ndarray:
        """Each entry's slot."""
        return np.repeat(np.arange(self.first, self.first + len(self.sizes), dtype=np.int64), self.sizes)


_BATCH_TERMS = 1 << 18  # terms counted at a time (a few MB of arrays)


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
        return len(self._found.lengths)

    def __iter__(self) -> Iterator[list]:
        names = list(FIELDS)
        for slot, weights in enumerate(self.weights()):
            ref, field = divmod(slot, len(FIELDS))
            yield [f"{names[field]}/{ref}", [x for pair in sorted(weights) for x in pair]]

    def weights(self) -> Iterator[list[tuple[int, float]]]:
        """Each document's and field's (term number, weight) pairs, in slot order (ref × fields + field),
        term numbers ascending: what a vector holds, before lunr's sort."""
        boosts = list(FIELDS.values())
        idf = self._idf
        for part in self._found.parts():
            entries = zip(part.terms.tolist(), part.tfs.tolist())
            for slot, size in enumerate(part.sizes.tolist(), part.first):
                counted = list(itertools.islice(entries, size))
                if not counted:  # an empty field: lunr never divides by its zero average
                    yield []
                    continue
                field = slot % len(FIELDS)
                norm = _K1 * (1 - _B + _B * (self._found.lengths[slot] / self._average[field]))
                boost = boosts[field]
                yield [(number, round(idf[number] * ((_K1 + 1) * tf) / (norm + tf) * boost, 3))
                       for number, tf in counted]

    def entries(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """``weights`` of every slot, as arrays of the same length (term number, slot, weight), about
        ``ENTRIES_CHUNK`` entries at a time (whole slots). The same doubles, each made by the same operations
        in the same order, rounded by Python's ``round`` (numpy's rounds a scaled copy, which may differ in the
        last place)."""
        for numbers, slots, raw in self._raw():
            yield numbers, slots, np.fromiter(map(round, raw.tolist(), itertools.repeat(3)), dtype=np.float64,
                                              count=len(raw))

    def thousandth_entries(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """``entries`` with each weight as the integer ``round(weight × 1000)`` of its rounded weight (what a
        posting holds): the exact decimal rounding of raw × 1000, half to even, which numpy's ``rint`` of the
        product gives unless the product lies within a hair of a half (its own rounding may cross it): those
        few are rounded by Python's ``round`` as ``entries`` rounds them."""
        for numbers, slots, raw in self._raw():
            yield numbers, slots, thousandths(raw)

    def _raw(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Every entry's term number, slot and weight before lunr's rounding, whole slots at a time."""
        lengths = np.asarray(self._found.lengths, dtype=np.float64)
        average = np.asarray(self._average, dtype=np.float64)
        boosts_of = np.asarray(list(FIELDS.values()), dtype=np.float64)
        idf = np.asarray(self._idf, dtype=np.float64)
        for part in self._found.parts():
            bounds = np.cumsum(part.sizes.astype(np.int64))
            start = 0
            while start < len(part.sizes):  # slots from start to end: about ENTRIES_CHUNK entries, at least one slot
                before = bounds[start - 1] if start else 0
                end = max(start + 1, int(np.searchsorted(bounds, before + ENTRIES_CHUNK, side="right")))
                low, high = int(before), int(bounds[end - 1])
                numbers = part.terms[low:high].astype(np.int64)
                tfs = part.tfs[low:high].astype(np.float64)
                slots = np.repeat(np.arange(part.first + start, part.first + end, dtype=np.int64),
                                  part.sizes[start:end])
                fields = slots % len(FIELDS)
                norm = _K1 * (1 - _B + _B * (lengths[slots] / average[fields]))
                yield numbers, slots, idf[numbers] * ((_K1 + 1) * tfs) / (norm + tfs) * boosts_of[fields]
                start = end

    def pieces(self) -> Iterator[str]:
        yield from _list_pieces(iter(self))


def thousandths(raw: np.ndarray) -> np.ndarray:
    """``round(round(x, 3) * 1000)`` of each double, as doubles: the exact decimal rounding of x × 1000, half to
    even, which numpy's ``rint`` of the product gives unless the product lies within a hair of a half (its own
    rounding may cross it) or is too large to tell: those few are rounded by Python's ``round``."""
    scaled = raw * 1000
    made: np.ndarray = np.rint(scaled)
    close = ~(np.abs(scaled - np.floor(scaled) - 0.5) > 1e-6) | ~(np.abs(scaled) < 2.0 ** 30)
    if close.any():
        made[close] = np.rint(np.array([round(x, 3) for x in raw[close].tolist()], dtype=np.float64) * 1000)
    return made


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
    return [known_terms(title), _topic_terms(tags + shown), known_terms(abstract), people_terms(authors)]


@functools.lru_cache(maxsize=4_096)
def _topic_terms(topics: tuple[str, ...]) -> list[str]:
    """The tags field's terms (``field_terms``'): a volume's papers share a few sets of topics (the list is
    shared: not to be changed)."""
    return terms(" ".join(topics))


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
