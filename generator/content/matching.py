"""Which page each entry of the sources is: by the source's own id, by its text, else by a similar text
(finding the few pages a revised abstract may be a version of, without comparing it with every page)."""

from __future__ import annotations

import difflib
import re
from collections import Counter
from pathlib import Path

from generator.content.pages import PageDoc
from generator.content.fingerprints import digest as fingerprint
from generator.model.paper import Entry


def normalized(text: str) -> str:
    """Text as versions of one abstract are compared: spaces collapsed, lower case."""
    return re.sub(r"\s+", " ", text).strip().lower()


# Two versions of an entry this similar are the same paper (a typo fix, a reworded sentence).
SIMILAR = 0.8
SAME_TITLE = 0.8  # titles this alike (typos, case, punctuation) may be one paper's; less, two papers'


def another_paper(uid: str, title: str, doc: PageDoc) -> bool:
    """Whether the source's own id or title says a page is another paper's, however alike the texts
    (two keynotes whose abstracts are one placeholder, a digit apart): ids and titles outweigh text."""
    page_uid = doc.meta.get("uid")
    if uid and page_uid not in (None, "") and str(page_uid) != uid:
        return True
    page_title = str(doc.meta.get("title") or "")
    made = doc.generated
    if not (title and page_title) or (made is not None and fingerprint(page_title) != made.title):
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


def entry_digest(entry: Entry) -> str:
    """What a page remembers of its entry, to find it again: the abstract; for a paper without one
    (a keynote, a demo), its title. The sync asks three times an entry (pairing it, whether its page is due
    a refresh, updating the page): the entry is frozen, so the digest is kept on it the first time."""
    kept = entry.__dict__
    found: str | None = kept.get(_KEPT_DIGEST)
    if found is None:
        found = kept[_KEPT_DIGEST] = (fingerprint(entry.text) if entry.text.strip()
                                      else fingerprint("\x1ftitle\x1f" + normalized(entry.title)))
    return found


_KEPT_DIGEST = "_entry_digest"  # not a field: equality, repr and replace() never see it


def same_place(candidates: list[PageDoc], entry: Entry) -> int:
    """Of pages with the same text (an abstract listed twice), the one made from this entry, so
    that a second build does not swap their order; else the first."""
    for index, doc in enumerate(candidates):
        if doc.meta.get("source") == entry.source and doc.meta.get("entry") == entry.index:
            return index
    return 0


def text_key(doc: PageDoc) -> str:
    """The fingerprint of the list entry a page came from (as its broken front matter still says it,
    else its body, for a page that does not parse)."""
    made = doc.generated
    return (made.text if made else "") or doc.salvaged.get("text") or fingerprint(doc.body)


def uid_key(doc: PageDoc) -> tuple[str | None, str] | None:
    """(source, the source's id) of a page, also of one whose front matter does not parse."""
    meta = doc.meta if not doc.error else doc.salvaged
    uid = meta.get("uid")
    return (meta.get("source"), str(uid)) if uid not in (None, "") else None


class PageMatcher:
    """The pages not yet paired with an entry, and the pairing (``pairs``) that takes them."""

    def __init__(self, unmatched: dict[Path, PageDoc]):
        self.unmatched = unmatched  # path → page, in name order; taking one is O(1) at 10,000 pages
        self._index: WordIndex | None = None  # the unmatched pages by word, made when first needed

    def pairs(self, entries: list[Entry]) -> tuple[list[tuple[Entry, PageDoc]], list[Entry]]:
        """Pair entries with pages: by the source's own id, then by text, then by similar text; the entries
        no page is made from come second. A page paired is taken out of ``unmatched``."""
        # An id that two records (or two pages) share cannot say which is which: those match by text.
        page_ids = Counter(uid_key(d) for d in self.unmatched.values() if uid_key(d))
        shared = {key for key, count in page_ids.items() if count > 1}
        shared |= {key for key, count in Counter((e.source, e.uid) for e in entries if e.uid).items() if count > 1}
        by_uid = {uid_key(d): d for d in self.unmatched.values() if uid_key(d) and uid_key(d) not in shared}
        by_text: dict[str, list[PageDoc]] = {}
        for page in self.unmatched.values():
            by_text.setdefault(text_key(page), []).append(page)
        pairs, by_text_entries, leftover = [], [], []
        # Every id first: a new entry whose abstract equals another paper's must not take that paper's page.
        for entry in entries:
            doc = by_uid.get((entry.source, entry.uid)) if entry.uid else None  # (a shared id is not in it)
            if doc is None or doc.path not in self.unmatched:  # not found, or a second entry with this id
                by_text_entries.append(entry)
            else:
                by_text[text_key(doc)].remove(doc)
                pairs.append((entry, self._take(doc)))
        for entry in by_text_entries:
            candidates = by_text.get(entry_digest(entry))
            if candidates:
                pairs.append((entry, self._take(candidates.pop(same_place(candidates, entry)))))
            else:
                leftover.append(entry)
        # A page that cannot be read, whose text is not known: it keeps the entry at its place, this build.
        broken = {(d.salvaged.get("source"), d.salvaged.get("entry")): d for d in self.unmatched.values()
                  if d.error and d.salvaged.get("entry")}
        new_entries: list[Entry] = []
        for entry in leftover:
            doc = broken.get((entry.source, str(entry.index)))
            if doc is not None and doc.path in self.unmatched:
                pairs.append((entry, self._take(doc)))
                continue
            doc = self._closest(entry)
            if doc is None:
                new_entries.append(entry)
            else:
                pairs.append((entry, self._take(doc)))
        return pairs, new_entries

    def _take(self, doc: PageDoc) -> PageDoc:
        del self.unmatched[doc.path]
        return doc

    def _closest(self, entry: Entry) -> PageDoc | None:
        """The unmatched page of the same list whose text is nearest, if near enough.

        Only the few pages that share the most distinctive words with the entry are compared
        (``WordIndex``): comparing every changed entry with every page was quadratic (a third of
        2,000 abstracts edited took minutes). The comparison itself is unchanged.
        """
        if not entry.text.strip():
            return None  # a paper without an abstract is found by its id or its title only
        if not self.unmatched:
            return None  # no page left to be a version of it (a first build's every entry): none to compare
        if self._index is None:
            self._index = WordIndex(list(self.unmatched.values()))
        wanted = normalized(entry.text)
        # The likeliest page first: once it is found, the others mostly fail the quick bounds. Ties
        # go to the later page, as they did when every page was compared in order.
        best, best_ratio, best_place = None, SIMILAR, -1
        for place, doc in self._index.candidates(wanted, self.unmatched):
            if doc.meta.get("source") not in (entry.source, None) or another_paper(entry.uid, entry.title, doc):
                continue
            matcher = difflib.SequenceMatcher(None, wanted, normalized(doc.body), autojunk=False)
            if matcher.real_quick_ratio() < best_ratio or matcher.quick_ratio() < best_ratio:
                continue
            ratio = matcher.ratio()
            if ratio > best_ratio or (ratio == best_ratio and place > best_place):
                best, best_ratio, best_place = doc, ratio, place
        return best
