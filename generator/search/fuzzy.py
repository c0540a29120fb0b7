"""The index's terms in small buckets, for a word that finds nothing to be tried again within one edit
(search-query.js ``oneEditAway``): the box makes every word one edit from the one typed, stems each, and
needs to know which of those stems the index holds without loading every term shard (an edit to the first
letter moves a word to another shard: `lerning` → `learning`, `agnostc` → `agnostic`).

Each term of three or more UTF-16 code units is listed in two buckets: the one of its first three code
units (``<`` and them) and the one of the rest (``>`` and it). A word one edit from the typed one either
keeps its first three code units (the edit is further on) or keeps what follows them up to a shift of one,
so the stems of all its variants fall in about six buckets (measured on the corpora: 5.9 on average, at
most 9), a few kilobytes each; their terms tell exactly which stems exist, and how many papers hold each:
the box keeps the most common (`lerning` is `learning`, not the surname `Leoning`), and only its term
shard is then loaded. A bucket is ``f<n>.js``: the terms whose key hashes to n (FNV-1a over the key's code
units, modulo the number of buckets, which the manifest gives as ``fuzzy``), in UTF-16 order, each followed
by the number of documents holding it (a flat list: term, count, term, count…).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

KEY_FROM = 3  # code units: the first three are one key, the rest the other
BUCKET_BYTES = 8_000  # JSON text per bucket before gzip (about 3 KB over the wire)


def _units(text: str) -> list[int]:
    data = text.encode("utf-16-le", "surrogatepass")
    return [data[i] | data[i + 1] << 8 for i in range(0, len(data), 2)]


def key_hash(kind: str, units: list[int]) -> int:
    """FNV-1a (32 bits) of ``kind`` and the code units: search-shards.js ``keyHash`` computes the same."""
    h = 0x811C9DC5
    for unit in [ord(kind), *units]:
        h = ((h ^ unit) * 0x01000193) & 0xFFFFFFFF
    return h


def buckets(counts: Mapping[str, int], limit: int = BUCKET_BYTES) -> list[list]:
    """The buckets (term, documents holding it, term…), each in UTF-16 order; none when no term is long
    enough to be listed. ``counts``: term → the number of documents holding it."""
    listed = [term for term in counts if len(term.encode("utf-16-le", "surrogatepass")) >= 2 * KEY_FROM]
    if not listed:
        return []
    size = sum(2 * (len(term) + 8) for term in listed)  # each term twice, quoted, its count, commas
    count = max(1, math.ceil(size / limit))
    listed.sort(key=lambda t: t.encode("utf-16-be", "surrogatepass"))
    firsts, rests = key_hashes(listed)
    made: list[list] = [[] for _ in range(count)]
    for term, first, rest in zip(listed, (firsts % count).tolist(), (rests % count).tolist()):
        made[first] += (term, counts[term])  # each bucket filled in UTF-16 order
        if rest != first:
            made[rest] += (term, counts[term])
    return made


def key_hashes(terms: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``key_hash`` of each term's two keys ("<" and its first three code units, ">" and the rest), for every
    term at once in numpy: a code unit position at a time over all the terms."""
    encoded = [term.encode("utf-16-le", "surrogatepass") for term in terms]
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)) // 2
    units = np.frombuffer(b"".join(encoded), dtype="<u2").astype(np.uint64)
    starts = np.zeros(len(terms), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    firsts = np.full(len(terms), _step(0x811C9DC5, ord("<")), dtype=np.uint64)
    rests = np.full(len(terms), _step(0x811C9DC5, ord(">")), dtype=np.uint64)
    for at in range(int(lengths.max()) if len(terms) else 0):
        within = at < lengths
        unit = units[starts[within] + at]
        if at < KEY_FROM:
            firsts[within] = ((firsts[within] ^ unit) * _PRIME) & _MASK
        else:
            rests[within] = ((rests[within] ^ unit) * _PRIME) & _MASK
    return firsts, rests


_PRIME, _MASK = np.uint64(0x01000193), np.uint64(0xFFFFFFFF)


def _step(h: int, unit: int) -> int:
    return ((h ^ unit) * 0x01000193) & 0xFFFFFFFF
