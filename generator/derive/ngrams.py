"""The Latin-script n-grams of many texts at once, counted over integer word ids with numpy (issue 43).

phrases.py cuts each text into words, an empty word ending each clause. Here the words of a whole batch of texts
become one array of ids into the batch's vocabulary; a word that cannot be part of a phrase (``stop``: a stop
word, a number, a letter) and the clause ends break it into stretches. A phrase of n words at position i is
the stretch's words i … i+n-1, the last one singular (``singular``): its code is the id of its first n-1 words
as they are (made dense by ``np.unique``) × the vocabulary's size + the id of the last one's singular. The same
phrase has the same code wherever it occurs, so counting, and keeping one copy per text, is ``np.unique`` over
(text, phrase) codes, in C; a phrase's string is made once per batch, not once per occurrence.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Grams:
    """The phrases of a batch of texts. ``names`` holds each phrase's key by id. ``text``, ``key`` and ``count``
    are the rows of the (text, phrase) pairs found, sorted by text then key, with how often the text uses the
    phrase; ``head_text`` and ``head_key`` the phrases that end a stretch somewhere in the text, sorted alike
    (one that ends a stretch is a head even when it is no candidate: a word of two letters)."""

    names: npt.NDArray[np.object_]
    text: Ints
    key: Ints
    count: Ints
    head_text: Ints
    head_key: Ints
    shapes: Shapes


@dataclass(frozen=True)
class Shapes:
    """What the count knows of each phrase's words, by id: how many (``words``), whether every one is ``generic``
    (the last one singular), and ``parts``, the ids of the phrases one word shorter it holds (its n-1 words from its
    second, and from its first with the last of them made singular: own_topics.py ``_parts``); -1 for none."""

    words: npt.NDArray[np.int8]
    generic: npt.NDArray[np.bool_]
    parts: npt.NDArray[np.int32]  # (phrases, 2)

    @staticmethod
    def unknown(count: int) -> Shapes:
        """The shapes of ``count`` phrases whose words are not known: words 0, no parts."""
        return Shapes(np.zeros(count, dtype=np.int8), np.zeros(count, dtype=bool),
                      np.full((count, 2), -1, dtype=np.int32))

    @staticmethod
    def joined(shapes: list[Shapes]) -> Shapes:
        """The ``shapes`` one after the other (their ids numbered on)."""
        if not shapes:
            return Shapes.unknown(0)
        return Shapes(np.concatenate([s.words for s in shapes]), np.concatenate([s.generic for s in shapes]),
                      np.concatenate([s.parts for s in shapes]))


def count_grams(words: list[str], lengths: list[int], most: int, stop: Callable[[str], bool],
                singular: Callable[[str], str], generic: Callable[[str], bool]) -> Grams:
    """The phrases of 1 to ``most`` words of the texts whose words, one after the other, are ``words``
    (``lengths``: how many are each text's; each clause ends on an empty word). A stretch's phrases of one word
    are those of more than two letters. ``generic``: whether a word (as written, or singular) is one."""
    # Each word's id, in the order first seen, made as the words are read: one pass in C (a word not yet seen is
    # given the next number by the defaultdict); then each one's singular.
    ids: defaultdict[str, int] = defaultdict(itertools.count().__next__)
    token = np.fromiter(map(ids.__getitem__, words), dtype=np.int64, count=len(words))
    distinct = list(ids)
    for word in map(singular, distinct):
        ids[word]  # noqa: B018  (a singular not seen yet gets the next id)
    spelled = np.array(list(ids), dtype=object)
    size, seen = len(spelled), len(distinct)
    free = np.fromiter((not stop(word) for word in distinct), dtype=bool, count=seen)[token]
    long = np.fromiter((len(word) > 2 for word in distinct), dtype=bool, count=seen)[token]
    ends = np.fromiter(map(ids.__getitem__, map(singular, distinct)), dtype=np.int64, count=seen)[token]
    generic_of = np.fromiter(map(generic, ids), dtype=bool, count=size)  # of each id's word, by id
    text = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    # A stretch ends where a free word is followed by one that is not (the last word of all is a clause's end).
    last = free & ~np.append(free[1:], False)
    names: list[npt.NDArray[np.object_]] = []
    found: list[tuple[Ints, Ints]] = []  # (position, key) of each phrase where it starts
    heads: list[tuple[Ints, Ints]] = []
    shapes: list[Shapes] = []
    key_at = token  # the id of the phrase of n-1 words from each position (where there is one)
    offset = 0
    inside = free  # positions that start n free words in a row
    # The dense id of the n-1 words from each position, as they are; each id's words, and whether all are generic.
    prefix, prefix_names, prefix_generic = token, spelled, generic_of
    for n in range(1, most + 1):
        if n > 1:
            inside = inside[:-1] & free[n - 1:]
        where = np.flatnonzero(inside)
        code = ends[where + n - 1] if n == 1 else prefix[where] * size + ends[where + n - 1]
        unique, key = np.unique(code, return_inverse=True)
        key = key.reshape(-1) + offset
        every_generic = generic_of[unique] if n == 1 else prefix_generic[unique // size] & generic_of[unique % size]
        shapes.append(_shapes(n, every_generic, key - offset, where, key_at))
        if n < most:
            key_at = np.full(len(token), -1, dtype=np.int64)
            key_at[where] = key
        names.append(spelled[unique] if n == 1 else prefix_names[unique // size] + " " + spelled[unique % size])
        offset += len(unique)
        candidate = long[where] if n == 1 else np.ones(len(where), dtype=bool)
        found.append((where[candidate], key[candidate]))
        ending = last[where + n - 1]
        heads.append((where[ending], key[ending]))
        if 1 < n < most:  # the next length's prefixes: these n words as they are
            plain = prefix[where] * size + token[where + n - 1]
            seen_prefixes, dense = np.unique(plain, return_inverse=True)
            prefix = np.zeros(len(token), dtype=np.int64)
            prefix[where] = dense.reshape(-1)
            prefix_names = prefix_names[seen_prefixes // size] + " " + spelled[seen_prefixes % size]
            prefix_generic = prefix_generic[seen_prefixes // size] & generic_of[seen_prefixes % size]
    every = np.concatenate(names) if names else np.array([], dtype=object)
    pairs, count = np.unique(_pairs(found, text, offset), return_counts=True)
    head_pairs = _distinct(_pairs(heads, text, offset))
    return Grams(every, pairs // max(offset, 1), pairs % max(offset, 1), count.astype(np.int64),
                 head_pairs // max(offset, 1), head_pairs % max(offset, 1), Shapes.joined(shapes))


def _shapes(n: int, generic: npt.NDArray[np.bool_], key: Ints, where: Ints, key_at: Ints) -> Shapes:
    """The ``Shapes`` of the phrases of ``n`` words (``generic``: whether all of each one's are), each ``key``
    (0 …) found at ``where``; ``key_at``: the id of the phrase of n-1 words at each position. A phrase is the same
    words wherever it is found, so any of its places gives its parts."""
    parts = np.full((len(generic), 2), -1, dtype=np.int32)
    if n > 1:
        parts[key, 0] = key_at[where + 1]
        parts[key, 1] = key_at[where]
    return Shapes(np.full(len(generic), n, dtype=np.int8), generic, parts)


def _pairs(rows: list[tuple[Ints, Ints]], text: Ints, keys: int) -> Ints:
    """Each (position, key) row as the code text × keys + key."""
    if not rows:
        return np.array([], dtype=np.int64)
    where = np.concatenate([position for position, _ in rows])
    key = np.concatenate([key for _, key in rows])
    pairs: Ints = text[where] * keys + key
    return pairs


def _distinct(codes: Ints) -> Ints:
    """``np.unique(codes)`` by a sort (numpy's hash table is slower for millions of codes)."""
    codes = np.sort(codes)
    first: npt.NDArray[np.bool_] = np.append(True, codes[1:] != codes[:-1])
    return codes[first] if len(codes) else codes


def by_paper(grams: Grams) -> tuple[Ints, ...]:
    """Each paper's phrases, those of its title, its heads and those it uses more than once (twice in one text,
    or in the abstract and the title), from the rows of texts 2p (paper p's title) and 2p + 1 (its abstract): each
    as the distinct codes paper × len(names) + key, sorted (``phrase_table.Rows.of_codes``)."""
    paper, in_title = grams.text >> 1, (grams.text & 1) == 0
    size = len(grams.names)
    code = paper * size + grams.key
    repeated = (grams.count > 1) | (~in_title & np.isin(code, code[in_title]))
    return (_distinct(code), code[in_title], _distinct((grams.head_text >> 1) * size + grams.head_key),
            _distinct(code[repeated]))


def by_text(grams: Grams) -> tuple[dict[str, int], set[str]]:
    """The phrases of one text with how often each occurs, and its heads."""
    counts = dict(zip(grams.names[grams.key].tolist(), grams.count.tolist()))
    return counts, set(grams.names[grams.head_key].tolist())
