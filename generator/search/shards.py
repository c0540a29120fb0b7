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
from json.encoder import encode_basestring_ascii as _quoted  # json.dumps's, ensure_ascii
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

import numpy as np
import orjson

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


class Postings(NamedTuple):
    """Every term's postings in one array: by term and field (term number × fields + field), its entries from
    ``starts[group]`` to ``starts[group + 1]`` of ``pairs``, each a ref step and a weight×1000."""

    starts: np.ndarray
    pairs: np.ndarray  # (entries, 2) of int32


def postings(found: _Terms, documents: int) -> Postings:
    """Every field vector spread over its terms, in place: each term's and field's share of the array is
    counted first (numpy's counting sort), then the field vectors' entries are put there a chunk at a time."""
    groups = len(found.numbers) * len(FIELDS)
    sizes = np.zeros(groups, dtype=np.int64)
    for part in found.parts():
        sizes += np.bincount(part.terms.astype(np.int64) * len(FIELDS) + part.slots() % len(FIELDS),
                             minlength=groups)
    starts = np.zeros(groups + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    pairs = np.empty((int(starts[-1]), 2), dtype=np.int32)
    cursor, last = starts[:-1].copy(), np.zeros(groups, dtype=np.int64)  # by group: next place, last ref listed
    for numbers, slots, weights in FieldVectors(found, documents).thousandth_entries():  # a chunk at a time
        _spread(pairs, cursor, last, numbers, slots, weights)
    return Postings(starts, pairs)


def _spread(pairs: np.ndarray, cursor: np.ndarray, last: np.ndarray, numbers: np.ndarray, slots: np.ndarray,
            weights: np.ndarray) -> None:
    """Field-vector entries (in slot order) put in their terms' places: each term's entries field by field,
    refs ascending (a stable sort keeps the slot order), a ref as its step from the last one listed for the
    term in that field, the weight×1000 (FieldVectors.thousandth_entries)."""
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
    sizes = np.diff(np.append(starts, len(group)))
    heads = group[starts]
    last[heads] = refs[starts + sizes - 1]
    places = cursor[group] + np.arange(len(group)) - np.repeat(starts, sizes)
    cursor[heads] += sizes
    scaled = weights[order]
    if len(scaled) and scaled.max() > _INT_MAX:  # a weight×1000 is under 400,000 even for a million papers
        raise OverflowError("a search posting does not fit in 4 bytes")
    pairs[places, 0], pairs[places, 1] = refs - before, scaled


def term_postings(found: _Terms, documents: int) -> dict[str, list]:
    """term → [term number, array of ref step, weight×1000, … per field] (``postings`` term by term)."""
    made, width = postings(found, documents), len(FIELDS)
    return {term: [number, *(array("i", made.pairs[made.starts[group]:made.starts[group + 1]].tobytes())
                             for group in range(number * width, (number + 1) * width))]
            for term, number in found.numbers.items()}


def term_shards(found: _Terms, made: Postings, limit: int = SHARD_BYTES) -> list[list[tuple[str, str]]]:
    """The terms in UTF-16 order, cut into shards of about ``limit`` bytes of JSON: each entry as
    (term, its JSON text: ``compact_json`` of [term, number, [step, weight, …] per field]), encoded once for
    both the cut and the shard's file, its numbers by orjson from the array."""
    shards: list[list[tuple[str, str]]] = [[]]
    size, numbers, starts, flat = 0, found.numbers, made.starts.tolist(), made.pairs.reshape(-1)
    width = len(FIELDS)
    for term in sorted(numbers, key=utf16_key):
        number = numbers[term]
        group = number * width
        fields = [flat[2 * starts[group + field]:2 * starts[group + field + 1]] for field in range(width)]
        text = f"[{_quoted(term)},{number},{orjson.dumps(fields, option=orjson.OPT_SERIALIZE_NUMPY)[1:-1].decode()}]"
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
    text = "[" + ",".join(doc.numbers(number) for doc in docs) + "]"
    yield f"{FOLDER}/tags.js", json_script(CALLBACK, "tags", text)


class _Shown(NamedTuple):
    """A display record (payload.display_record) as JSON text around its tags, which are numbered only once
    every paper's are known: a large volume's records as lists of strings were tens of MB more."""

    head: str  # the items before the tags, as JSON, without the brackets
    tags: tuple[str, ...]
    tail: str  # those after them

    @classmethod
    def of(cls, doc: list) -> _Shown:
        """``doc``'s strings quoted by json's own C function, its author names' list and count written out:
        ``compact_json``'s text, without a ``json.dumps`` call for each part (the title's tree still takes one)."""
        title, url, tags, text, names, more, *tree = doc
        tail = f"{_quoted(text)},[{','.join(map(_quoted, names))}],{more:d}"
        return cls(f"{_quoted(title)},{_quoted(url)}", tuple(tags), tail + "".join(f",{compact_json(t)}" for t in tree))

    def json(self, number: dict[str, int]) -> str:
        """``compact_json`` of the record with its tags as their numbers."""
        return f"[{self.head},{self.numbers(number)},{self.tail}]"

    def numbers(self, number: dict[str, int]) -> str:
        """``compact_json`` of the tags' numbers."""
        return f"[{','.join([str(number[t]) for t in self.tags])}]"


def term_files(found: _Terms, documents: int, described: dict,
               shard_bytes: int = SHARD_BYTES) -> Iterator[tuple[str, bytes]]:
    """The manifest (with ``described``: what else the index's reader needs) and every term shard."""
    shards = term_shards(found, postings(found, documents), shard_bytes) if found.numbers else []
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
