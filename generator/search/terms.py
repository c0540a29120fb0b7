"""Words as the index and lunr.js both see them: normalised, split, trimmed, stop words out, stemmed
with lunr.js's own Porter rules; CJK runs as overlapping character bigrams.

``search-query.js`` repeats ``normalise``, the separators and the bigrams: change them together. Related
papers (derive/related.py) read papers through the same ``terms``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from lunr.stemmer import PorterStemmer
from lunr.stop_word_filter import WORDS as STOP_WORDS

from generator.text import cjk

# lunr.js splits on /[\s\-]+/; JS's \s and Python's \s differ, so spell it out.
_SPACES = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
# Math punctuation separates words too, so "(2+ε)" is found by "ε" and "SE(3)" by "SE".
_MATH_PUNCTUATION = r"()+/=<>,;:|\[\]{}*"
_SEPARATORS = re.compile(f"[{_SPACES}\\-{_MATH_PUNCTUATION}]+")
_DASHES = re.compile("[\u2010-\u2015\u2212]")  # hyphens, dashes, minus: split like "-"
# lunr's trimmer, Unicode-aware as lunr.py's is (search-query.js uses \p{L}\p{N}_).
_TRIM = re.compile(r"^\W*?(\w+)\W*?$")
_WORD_CHAR = re.compile(r"\w")


class JsPorterStemmer(PorterStemmer):
    """lunr.py's Porter stemmer with lunr.js's step 1c (/^(.+?[^aeiou])y$/ → …i)."""

    b: str  # the word, and the bounds of its part being stemmed (lunr.py's names)
    k0: int
    k: int

    def step1c(self) -> None:
        k = self.k
        if self.b[k] == "y" and k - self.k0 >= 2 and self.b[k - 1] not in "aeiou":
            self.b = self.b[:k] + "i" + self.b[k + 1:]

    def stem(self, p: str, metadata: object = None) -> str:
        # lunr.py's stem() less its length check: lunr.js skips words shorter
        # than 3 UTF-16 code units, not code points.
        if len(p.encode("utf-16-le", "surrogatepass")) < 6:
            return p
        self.b, self.k0, self.k = p, 0, len(p) - 1
        self.step1ab()
        self.step1c()
        self.step2()
        self.step3()
        self.step4()
        self.step5()
        return self.b[: self.k + 1]


_stemmer = JsPorterStemmer()


def normalise(text: str) -> str:
    """What both sides do to text before splitting it into words."""
    return _DASHES.sub("-", unicodedata.normalize("NFKC", text).lower())


# A word longer than any word (the corpora's longest term is 40 characters): a hostile record's megabyte
# "word" would be stored whole in the manifest every page loads when its search box gets focus.
MAX_TERM = 64


@lru_cache(maxsize=None)
def term(word: str) -> str | None:
    """A word's index term (lunr's trimmer, stop word filter, stemmer), or None.

    Cached without bound (a vocabulary is small): a corpus repeats its words,
    and stemming is most of the work.
    """
    match = _TRIM.match(word)
    word = match.group(1) if match else word
    if word in STOP_WORDS or len(word) > MAX_TERM:
        return None
    return _stemmer.stem(word)


def terms(text: str) -> list[str]:
    text = normalise(text)
    words = _SEPARATORS.split(text)
    if not cjk.has_cjk(text):  # most text: one scan, and the words mapped in C, not in a loop
        return list(filter(None, map(term, words)))
    found: list[str] = []
    for word in words:
        if cjk.has_cjk(word):
            found += _mixed_terms(word)
        else:
            t = term(word)
            if t:
                found.append(t)
    return found


# Texts split once a build for every reader of them (``remember``): related papers and the map's vectors
# (derive/related.py) and the search index (index.py) split the same titles and abstracts; a build that forks
# the index's process splits them as it renders them, on every core (pipeline/rendering.py ``render_papers``),
# before the index's child is forked, which inherits the lists. The lists are shared: no reader changes one.
_KNOWN: dict[str, list[str]] = {}


def remember(text: str, found: list[str]) -> None:
    """Keep ``found``, ``terms(text)``, for ``known_terms`` to find (until ``forget_terms``)."""
    _KNOWN[text] = found


def known_terms(text: str) -> list[str]:
    """``terms(text)``, split already when remembered (the list is shared: not to be changed)."""
    found = _KNOWN.get(text)
    return terms(text) if found is None else found


def forget_terms() -> None:
    _KNOWN.clear()


def _mixed_terms(word: str) -> list[str]:
    """A word holding CJK runs: each run's bigrams, each other piece a word of its own
    (a piece of punctuation only, "。" or "「", is nothing)."""
    found: list[str] = []
    for position, piece in enumerate(cjk.split_runs(word)):
        if position % 2:
            found += cjk.bigrams(piece)
        elif _WORD_CHAR.search(piece):
            t = term(piece)
            if t:
                found.append(t)
    return found


# Latin letters that NFKD does not split into a letter and an accent, as names are written without them.
_PLAIN_LETTERS = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe", "ı": "i", "þ": "th",
                                "ð": "d", "ħ": "h"})


def _fold(char: str) -> str:
    """A Latin letter without its accents (é → e, ø → o); any other character as it is (a kana's
    voicing mark is part of the kana, not an accent)."""
    if not ("\u00c0" <= char <= "\u024f" or "\u1e00" <= char <= "\u1eff"):
        return char
    return "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))


class _Folds(dict):
    """``_fold`` of each character, by code point, for ``str.translate``: worked out once a character."""

    def __missing__(self, code: int) -> str:
        self[code] = folded = _fold(chr(code))
        return folded


_FOLDS = _Folds()


def unaccented(text: str) -> str:
    return _unaccented_normal(normalise(text))


def _unaccented_normal(normal: str) -> str:
    """``unaccented`` of text already normalised: ASCII as it is, the rest folded by ``str.translate``."""
    plain = normal.translate(_PLAIN_LETTERS)
    return plain if plain.isascii() else plain.translate(_FOLDS)


def people_terms(authors: Iterable[tuple[str, str]]) -> list[str]:
    """The authors field's terms: each author's name, each affiliation once (five authors of one
    university do not weigh it five times), and each name's word written with accents also as written
    without them, so that `Hogsgaard` finds Høgsgaard and `Gabor` Gábor, as readers type them."""
    if not authors:  # a list without authors: nothing to split
        return []
    affiliations = dict.fromkeys(affiliation for _, affiliation in authors if affiliation)
    text = " ".join([name for name, _ in authors] + list(affiliations))
    found = terms(text)
    normal = normalise(text)
    folded = _unaccented_normal(normal)
    if normalise(folded) == normal:  # no accent to drop (most lists): ``terms`` reads a text only as normalised
        return found
    seen = set(found)
    plain = [t for t in terms(folded) if t not in seen]
    return found + list(dict.fromkeys(plain))
