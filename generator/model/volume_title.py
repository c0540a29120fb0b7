"""A title for a volume that names none: made readable from its source's file name, or its folder's.

A Mini-Conf CSV, a JSON Lines export or a ConfTool sheet carries no proceedings title, but its file
name usually does: ``ismir-2024-papers.csv`` is ISMIR 2024, ``sigdial_2023.csv`` SIGDIAL 2023. The name
is split on ``-``, ``_``, ``.`` and spaces (and a year fused to a word, ``icml2024``, is split off); words
that name the export rather than the meeting (papers, accepted, export, list…) and stamps (``v2``, the
``06`` of a date) are dropped; years are kept. A lower-case word of at most 8 letters in the acronym's
place — the only word left, or the first with a year after it — is the meeting's acronym (``ismir`` → ISMIR,
``acl-2023-long`` → ACL 2023 Long; SIGdial when the papers write it so, never "Colt" from a sentence's start);
another lower-case word is spelt as the papers spell it with a capital (``tiny`` → Tiny), else capitalised
(``interspeech`` → Interspeech).
A file name that leaves no word (``papers.csv``) gives way to the folder's name (``ismir-2024/`` →
ISMIR 2024); a file name with a word but no year takes the folder's year (``2024/ismir-papers.csv``).

``build`` and ``import`` both take the title from here (model/volume.py), so the title ``import`` writes
into a new ``proceedings.yaml`` is the one a build of the folder without it shows.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

# Words that name the export, its tool or its state, not the meeting.
GENERIC = frozenset("""
    papers paper accepted accept acceptance export exported exports list lists abstracts abstract data dataset
    final camera ready cameraready program programme schedule proceedings submissions submission all db dump
    metadata table sheet main content contents copy new old latest full info details titles records entries
    bib bibtex csv tsv jsonl json txt xlsx conftool openreview easychair miniconf mini conf cmt hotcrp
    src source sources input site www download downloads public
""".split())
# Words kept in lower case inside a title ("Workshop on Tiny Things").
MINOR = frozenset("a an and at by de del der for in of on the to with".split())
_SEPARATOR = re.compile(r"[-_.\s+]+")
_YEAR = re.compile(r"(?:19|20)\d\d")
# A year fused to a word, either side: icml2024, 2024icml.
_FUSED = re.compile(r"(?<=[A-Za-z])(?=(?:19|20)\d\d(?!\d))|(?<=(?<!\d)(?:19|20)\d\d)(?=[A-Za-z])")
_STAMP = re.compile(r"v\d{1,2}|\d{1,2}|\d{5,}")  # a version, a month or day of a date stamp, a long number
ACRONYM_LETTERS = 8  # a lower-case word this short is taken for the meeting's acronym (sigdial, neurips)
_TEXTS_READ = 2_000  # entries whose words are searched for a spelling: enough for a venue's name to show


def words_of(name: str) -> list[str]:
    """The words of a file or folder name that may name the meeting, in order."""
    words = []
    for part in _SEPARATOR.split(name):
        for word in _FUSED.split(part):
            if word and word.casefold() not in GENERIC and not _STAMP.fullmatch(word.casefold()):
                words.append(word)
    return words


def derived_title(names: Sequence[str], folder: str = "", texts: Iterable[str] = ()) -> str:
    """A readable title from the sources' file names (``names``, stems or file names, in order) and the
    content folder's name; "" when none of them holds a word that may name the meeting."""
    found = next((words for name in names if (words := words_of(Path(name).stem))), [])
    around = words_of(folder)
    if not any(_alphabetic(word) for word in found):  # "2024.csv" in "ismir/": the folder's words first
        found = [word for word in around if not _YEAR.fullmatch(word)] + found
    if not any(_YEAR.fullmatch(word) for word in found):  # "ismir-papers.csv" in "2024/": the folder's year
        found += [word for word in around if _YEAR.fullmatch(word)][:1]
    found = list(dict.fromkeys(found))  # "ismir-2024/ismir-2024.csv" says it once
    if not found:
        return ""
    spellings = _spellings({word.casefold() for word in found if word.islower()}, texts)
    # The meeting's acronym: the only word, or the first when a year follows it ("acl-2023-long" is ACL 2023 Long).
    lone = sum(_alphabetic(word) for word in found) == 1
    named = lone or (len(found) > 1 and bool(_YEAR.fullmatch(found[1])))
    return " ".join(_spelt(word, n, spellings, lone or (named and n == 0)) for n, word in enumerate(found))


def _alphabetic(word: str) -> bool:
    return any(char.isalpha() for char in word)


def _spelt(word: str, position: int, spellings: dict[str, str], acronym_place: bool) -> str:
    """A word as the title writes it: as the name writes it when that has a capital, else as the papers
    do, else a lone short word as an acronym, a minor word in lower case, any other capitalised."""
    if not word.islower():
        return word
    if word in MINOR and position:
        return word
    spelt = spellings.get(word, "")
    acronym = acronym_place and word.isalpha() and len(word) <= ACRONYM_LETTERS
    # A short word in the acronym's place is the meeting's acronym: the papers' spelling wins only when it is one
    # too (SIGdial, NeurIPS), not a word that begins a sentence ("Colt").
    if spelt and (not acronym or sum(char.isupper() for char in spelt) > 1):
        return spelt
    if acronym:
        return word.upper()
    return word[:1].upper() + word[1:]


def _spellings(wanted: set[str], texts: Iterable[str]) -> dict[str, str]:
    """Each wanted word (folded) → its most common spelling with a capital in the texts, when there is one."""
    wanted -= MINOR
    if not wanted:
        return {}
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(word) for word in sorted(wanted)) + r")(?![\w-])",
                         re.IGNORECASE)
    counts: Counter = Counter()
    for number, text in enumerate(texts):
        if number >= _TEXTS_READ:
            break
        counts.update(match for match in pattern.findall(text) if not match.islower())
    best: dict[str, str] = {}
    for spelling, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        best.setdefault(spelling.casefold(), spelling)
    return best
