"""Finding the few pages a revised abstract may be a version of, without comparing it with every page."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from generator.runtime.cache import digest
from generator.content.pages import PageDoc


def normalized(text: str) -> str:
    """Text as versions of one abstract are compared: spaces collapsed, lower case."""
    return re.sub(r"\s+", " ", text).strip().lower()


SAME_TITLE = 0.8  # titles this alike (typos, case, punctuation) may be one paper's; less, two papers'


def another_paper(uid: str, title: str, doc: PageDoc) -> bool:
    """Whether the source's own id or title says a page is another paper's, however alike the texts
    (two keynotes whose abstracts are one placeholder, a digit apart): ids and titles outweigh text."""
    page_uid = doc.meta.get("uid")
    if uid and page_uid not in (None, "") and str(page_uid) != uid:
        return True
    page_title = str(doc.meta.get("title") or "")
    made = doc.generated
    if not (title and page_title) or (made is not None and digest(page_title) != made.title):
        return False  # a title of a person's own says nothing of the source's
    return difflib.SequenceMatcher(None, normalized(title), normalized(page_title)).ratio() < SAME_TITLE


class WordIndex:
    """Pages by the words of their text, to find the few a changed entry may be a version of.

    Two texts at least ``SIMILAR`` alike share most of their words, and above all their rare
    ones. So a page is a candidate when it shares the entry's rarest words; words in many
    pages ("the", "model") are not looked up (bar the few rarest of a text that has no rarer
    ones), which keeps each look-up short whatever the number of pages. Each candidate comes with
    its place in the pages' order, so that of equally near pages the one a comparison of every
    page would choose is chosen.
    """

    COMMON = 50  # a word in more pages than this says little about which page an entry was
    AT_LEAST = 5  # words looked up per entry even when they are common (a short, plain abstract)
    CANDIDATES = 8  # pages compared in full per entry: the ones sharing the most rare words

    def __init__(self, docs: list[PageDoc]):
        self.docs = docs
        self.postings: dict[str, list[int]] = {}
        for number, doc in enumerate(docs):
            for word in _words(normalized(doc.body)):
                self.postings.setdefault(word, []).append(number)

    def candidates(self, text: str, unmatched: dict[Path, PageDoc]) -> list[tuple[int, PageDoc]]:
        """The unmatched pages sharing the most rare words with ``text``, most first, with their place."""
        shared: dict[int, int] = {}
        found = sorted((self.postings[word] for word in _words(text) if word in self.postings), key=len)
        for rank, pages in enumerate(found):
            if len(pages) > self.COMMON and rank >= self.AT_LEAST:
                break
            for number in pages:
                shared[number] = shared.get(number, 0) + 1
        live = [number for number in shared if self.docs[number].path in unmatched]
        best = sorted(live, key=lambda number: (-shared[number], number))[: self.CANDIDATES]
        return [(number, self.docs[number]) for number in best]


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text))


_WORD = re.compile(r"\w{3,}")
