"""The lunr index cut into small files, so that a query fetches only the terms it can match (issue 28).

lunr.js scores a document by the dot product of the query's vector with the document's field vectors,
over the query's terms only. So each term's postings can carry the weight the term has in each
document's field vector (index.FieldVectors' BM25 weight, rounded as lunr rounds it), and a reader's
browser rebuilds, from the few term shards a query needs, a small ``lunr.Index`` that holds every term
the query can expand to and, for every document they name, exactly the field-vector entries of those
terms: lunr.js then gives the same results, in the same order, as over the whole index
(search-shards.js; tests/test_search_shards.py proves it against lunr.js over the whole index).

Files, under ``assets/search/`` (scripts, not JSON, because fetch() is refused from file://; each
calls ``proceedingsShards.arrived(name, data)``):

* ``manifest.js``: the fields, the number of documents, the first term of every term shard, the
  size of a block of documents;
* ``t<n>.js``: terms in UTF-16 order, each ``[term, term number, [ref step, weight×1000, …] per field]``
  (refs as steps from the previous ref of that field, ascending);
* ``d<n>.js``: what a result shows for ``block`` documents in a row (payload's display records);
* ``tags.js``: the tag numbers of every document, in ref order (loaded only for a topic filter, so
  that a topic's papers are found without loading every display block);
* ``f<n>.js``: the terms in buckets (fuzzy.py; the manifest's ``fuzzy`` says how many), loaded only when
  a word finds nothing and is tried again within one edit.

A shard is cut after the term that takes it past ``SHARD_BYTES`` of JSON; a term whose postings
alone pass it is a shard of its own.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

import numpy as np

from generator.model.paper import RenderedPaper
from generator.search import fuzzy
from generator.search.index import FIELDS, FieldVectors, _Terms, paper_terms, utf16_key
from generator.search.payload import (IndexRecord, compact_json, data_script, display_record, index_record, json_script,
                                     tag_numbers)

SHARD_BYTES = 24_000  # JSON text per term shard before gzip (about 8 KB over the wire)
BLOCK = 8  # documents per display block: the 8 results a dropdown shows touch at most 8 small files
CALLBACK = "proceedingsShards.arrived"
_INT_MAX = 2**31 - 1  # what a posting's array("i") holds
FOLDER = "assets/search"


def term_postings(found: _Terms, documents: int) -> dict[str, list]:
    """term → [term number, array of ref step, weight×1000, … per field]: every field vector spread over
    its terms."""
    # Arrays, not lists: 4 bytes a number where a list held a pointer and most often an int of its
    # own (a weight over 256), 36 bytes: there are a few hundred numbers a paper, in the index's child.
    lists = [[array("i") for _ in FIELDS] for _ in found.numbers]  # by term number, field
    last = np.zeros(len(found.numbers) * len(FIELDS), dtype=np.int64)  # by term and field: the last ref listed
    for numbers, slots, weights in FieldVectors(found, documents).thousandth_entries():  # a chunk of entries at a time
        _spread(lists, last, numbers, slots, weights)
    return {term: [number, *lists[number]] for term, number in found.numbers.items()}


def _spread(lists: list[list[array]], last: np.ndarray, numbers: np.ndarray, slots: np.ndarray,
            weights: np.ndarray) -> None:
    """Field-vector entries (in slot order) added to their terms' arrays: each term's entries field by field,
    refs ascending (a stable sort keeps the slot order), a ref as its step from the last one listed for the
    term in that field, the weight×1000 rounded as Python rounds (half to even of the same double: np.rint)."""
    if not len(numbers):  # a chunk of empty fields only
        return
    group = numbers * len(FIELDS) + slots % len(FIELDS)
    order = np.argsort(group, kind="stable")
    group, refs = group[order], slots[order] // len(FIELDS)
    first = np.ones(len(group), dtype=bool)
    first[1:] = group[1:] != group[:-1]
    before = np.empty_like(refs)
    before[1:] = refs[:-1]
    before[first] = last[group[first]]
    starts = np.flatnonzero(first)
    ends = np.append(starts[1:], len(group))
    last[group[starts]] = refs[ends - 1]
    pairs = np.empty(2 * len(refs), dtype=np.int64)
    pairs[0::2], pairs[1::2] = refs - before, weights[order]
    if len(pairs) and pairs.max() > _INT_MAX:  # a weight×1000 is under 400,000 even for a million papers
        raise OverflowError("a search posting does not fit in 4 bytes")
    data = memoryview(pairs.astype(np.intc).tobytes())
    item = array("i").itemsize * 2
    for key, start, end in zip(group[starts].tolist(), starts.tolist(), ends.tolist()):
        lists[key // len(FIELDS)][key % len(FIELDS)].frombytes(data[start * item:end * item])


def term_shards(postings: dict[str, list], limit: int = SHARD_BYTES) -> list[list[tuple[str, str]]]:
    """The terms in UTF-16 order, cut into shards of about ``limit`` bytes of JSON: each entry as
    (term, its JSON text), encoded once for both the cut and the shard's file."""
    shards: list[list[tuple[str, str]]] = [[]]
    size = 0
    for term in sorted(postings, key=utf16_key):
        number, *fields = postings[term]
        text = compact_json([term, number, *map(list, fields)])
        cost = len(text) + 1
        if shards[-1] and size + cost > limit:
            shards.append([])
            size = 0
        shards[-1].append((term, text))
        size += cost
    return shards


def shard_files(papers: list[RenderedPaper], tag_urls: dict[str, str], names: dict[str, str] | None = None,
                shard_bytes: int = SHARD_BYTES) -> Iterator[tuple[str, bytes]]:
    """(path under the site root, script) for the manifest, every term shard and every display block."""
    return record_files(map(index_record, papers), tag_urls, names, shard_bytes)


def record_files(records: Iterable[IndexRecord], tag_urls: dict[str, str], names: dict[str, str] | None = None,
                 shard_bytes: int = SHARD_BYTES) -> Iterator[tuple[str, bytes]]:
    """``shard_files`` from each paper's ``IndexRecord``, read once, in order: each record's words are
    counted and its display record made as it comes, so that its texts need not outlive it; the display
    record is kept as its JSON text (``_Shown``) until the blocks are written."""
    found, docs = _Terms(), []
    for ref, record in enumerate(records):
        found.add(ref, paper_terms(record.title_plain, record.tags, record.abstract_plain, names or {},
                                   record.authors))
        docs.append(_Shown.of(display_record(record)))
    tags, number = tag_numbers((doc.tags for doc in docs), tag_urls, names)
    yield from term_files(found, len(docs), {"block": BLOCK, "tags": tags}, shard_bytes)
    del found
    for block, start in enumerate(range(0, len(docs), BLOCK)):
        text = "[" + ",".join(doc.json(number) for doc in docs[start:start + BLOCK]) + "]"
        yield f"{FOLDER}/d{block}.js", json_script(CALLBACK, f"d{block}", text)
    text = "[" + ",".join(compact_json([number[t] for t in doc.tags]) for doc in docs) + "]"
    yield f"{FOLDER}/tags.js", json_script(CALLBACK, "tags", text)


class _Shown(NamedTuple):
    """A display record (payload.display_record) as JSON text around its tags, which are numbered only once
    every paper's are known: a large volume's records as lists of strings were tens of MB more."""

    head: str  # the items before the tags, as JSON, without the brackets
    tags: tuple[str, ...]
    tail: str  # those after them

    @classmethod
    def of(cls, doc: list) -> _Shown:
        return cls(compact_json(doc[:2])[1:-1], tuple(doc[2]), compact_json(doc[3:])[1:-1])

    def json(self, number: dict[str, int]) -> str:
        """``compact_json`` of the record with its tags as their numbers."""
        return f"[{self.head},{compact_json([number[t] for t in self.tags])},{self.tail}]"


def term_files(found: _Terms, documents: int, described: dict,
               shard_bytes: int = SHARD_BYTES) -> Iterator[tuple[str, bytes]]:
    """The manifest (with ``described``: what else the index's reader needs) and every term shard."""
    shards = term_shards(term_postings(found, documents), shard_bytes) if found.numbers else []
    listed = fuzzy.buckets(dict(zip(found.numbers, found.documents_with())))
    manifest = {"version": 1, "fields": list(FIELDS), "documents": documents, **described,
                "shards": [shard[0][0] for shard in shards], "fuzzy": len(listed)}
    yield f"{FOLDER}/manifest.js", _script("manifest", manifest)
    for number, shard in enumerate(shards):
        text = "[" + ",".join(entry for _, entry in shard) + "]"
        yield f"{FOLDER}/t{number}.js", json_script(CALLBACK, f"t{number}", text)
    for number, bucket in enumerate(listed):
        yield f"{FOLDER}/f{number}.js", _script(f"f{number}", bucket)


def _script(name: str, value: Any) -> bytes:
    return data_script(CALLBACK, name, value)
