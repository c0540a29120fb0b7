"""What a person's name should not look like, and names written in two orders.

Venues' files carry template text and typing slips in their author lists, as PMLR's own checker
(pmlint) finds them: a template's instructions kept as a name (``Firstnames" format separated by
"and"``), a stray quote (``Nicolas "Gast``), a list not split (``Jane Doe and John Smith`` as one name),
and a name written family name first in one place and given name first in another (``Sidford Aaron``,
``Aaron Sidford``). These rules say so; they never drop or change a name (sanity.py and the people
pages decide what to do with one).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

from generator.text.cjk import has_cjk

_QUOTES = re.compile(r"[\"“”„«»]")
# A template's words, or a placeholder for a name ("Author 1", "Your Name", "Firstname Lastname").
_PLACEHOLDER = re.compile(
    r"\b(?:first|last|sur|given|family|middle|full|author|your)[\s_-]?names?\b|\bformat\b|\bseparated\b|"
    r"\bauthor\s*\d+\b|\bname\s*\d+\b|\bet\s+al\b|\bplaceholder\b|\btbd\b|\btba\b", re.IGNORECASE)
_AND = re.compile(r"(?<!\S)(?:and|&)(?!\S)", re.IGNORECASE)
_ADDRESS = re.compile(r"@|https?:|www\.", re.IGNORECASE)
_TEX = re.compile(r"[{}\\$]")
_DIGIT = re.compile(r"\d")


# What any rule below looks for, as characters and as words: most names hold none, and are let go at once.
_SUSPECT_CHARACTERS = re.compile(r"[\"“”„«»@{}\\$&\d]")
_SUSPECT_WORDS = ("name", "format", "separated", "author", "and", "http", "www", "tbd", "tba", "et al", "placeholder")


def name_problem(name: str) -> str:
    """What is wrong with a name as a person's name ("" when nothing is)."""
    folded = name.casefold()
    if not _SUSPECT_CHARACTERS.search(name) and not any(word in folded for word in _SUSPECT_WORDS):
        return ""
    if _PLACEHOLDER.search(name):
        return "looks like a template's placeholder or instructions, not a name"
    if _QUOTES.search(name):
        return "holds a quote mark (a stray \" from the source?)"
    if _AND.search(name):
        return "holds “and”: two names not split apart?"
    if _ADDRESS.search(name):
        return "holds an e-mail or web address"
    if _TEX.search(name):
        return "holds TeX markup ({, }, \\ or $)"
    if _DIGIT.search(name):
        return "holds a digit"
    return ""


def placeholder(name: str) -> bool:
    """A name that is a template's text: no person's; the people index lists it last, not first."""
    return bool(_PLACEHOLDER.search(name))


def words(name: str) -> tuple[str, ...]:
    """The words of a name without case or full stops (``J.`` → ``j``): enough to see one name in two orders,
    and cheap for the hundreds of thousands of names of a big series (people_file.fold, which also drops
    diacritics, is not needed to compare a name with itself)."""
    return tuple(name.casefold().replace(".", " ").replace(",", " ").split())


def turned(name: str) -> tuple[str, ...]:
    """The name's words with its last moved to the front: "Aaron Sidford" as written family name first."""
    found = words(name)
    return found[-1:] + found[:-1]


def reversed_pairs(names: Iterable[str]) -> list[tuple[str, str]]:
    """Pairs of spellings that are one name in two orders ("Aaron Sidford" and "Sidford Aaron"; "John A. Smith"
    and "Smith John A."), each pair once, in the order first seen. A CJK name (written family name first by
    rule) and a name of one word are never paired."""
    by_words: dict[tuple[str, ...], str] = {}
    for name in names:
        found = words(name)
        if len(found) > 1 and not has_cjk(name):
            by_words.setdefault(found, name)
    pairs, seen = [], set()
    for found, name in by_words.items():
        other = by_words.get(found[-1:] + found[:-1])
        if other is None or other == name or words(other) == found or frozenset((name, other)) in seen:
            continue
        seen.add(frozenset((name, other)))
        pairs.append((name, other))
    return pairs


def odd_one(first: str, second: str, count: Callable[[str], int], names: Iterable[str] = (),
            evidence: tuple[Counter, Counter] | None = None) -> tuple[str, str]:
    """Of a pair of ``reversed_pairs`` (in the order found), the odd spelling and the usual one: the one fewer
    papers write is odd; on a tie, the one whose words stand where the other ``names`` seldom put them (in
    "Aaron Roth", "Aaron" comes first: "Sidford Aaron" is the odd one); then the one found second.
    ``evidence``: ``positions(names)``, made once by a caller asking of many pairs (a walk of every name: at
    10,000 papers, a tenth of a second a pair)."""
    evidence = evidence if evidence is not None else positions(names)

    def given_first(name: str) -> int:
        found = words(name)
        return evidence[0][found[0]] + evidence[1][found[-1]]

    odd, usual = sorted((first, second), key=lambda name: (count(name), given_first(name), name == first))
    return odd, usual


def positions(names: Iterable[str]) -> tuple[Counter, Counter]:
    """How often each word begins a name, and how often it ends one."""
    firsts, lasts = Counter[str](), Counter[str]()
    for name in names:
        found = words(name)
        if len(found) > 1 and not has_cjk(name):
            firsts[found[0]] += 1
            lasts[found[-1]] += 1
    return firsts, lasts
