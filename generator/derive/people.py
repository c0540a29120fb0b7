"""One model of a person, for a volume's author pages and a series' people pages alike.

A person is known by an ORCID, else by an explicit ``id`` given in front matter
(``{name: Jane Doe, id: jdoe-mit}``), else by the name compared without case,
punctuation, spacing and diacritics (``Simon S Du`` is ``Simon S. Du``, ``Jörg`` is
``Jorg``). Chinese, Japanese and Korean characters are compared as written: two
different Han characters are never one. A name written without an ORCID or id joins
the person of that name who has one, when exactly one does; two ORCIDs are two people.
``people.yaml`` (derive/people_file.py) joins spellings the rule keeps apart, or splits ones it joins.

Spellings that may be one person but that the rule cannot decide (``J. Doe`` and
``Jane Doe``, ``Jane Doe`` and ``Jane M. Doe``) are never merged: ``People.report``
names each pair with the line of ``people.yaml`` that would join them.

The core knows nothing of pages: each paper is an opaque payload beside its authors.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Generic, Iterable, Sequence, TypeVar

import yaml

from generator.derive.names import odd_one, placeholder, positions, reversed_pairs
from generator.text.cjk import has_cjk
from generator.model.paper import Author
from generator.derive.people_file import PEOPLE_FILE, Rules, fold
from generator.text.slugs import list_page_name, slug_or_digest, unique
from generator import diagnostics as codes

T = TypeVar("T")
_EDGE_MARKS = "\"'“”„«»‘’()[]{}*,;:.!?-"

__all__ = ["People", "Person", "Rules", "fold", "group", "variants"]


@dataclass
class Person(Generic[T]):
    key: str  # "orcid:…", "id:…" or "name:…"
    folder: str = "people"  # where its page is: people/ (series) or authors/ (a volume)
    names: dict[str, int] = field(default_factory=dict)  # each spelling → how many papers use it, first seen first
    affiliations: dict = field(default_factory=dict)  # in order of appearance, as a set
    papers: list = field(default_factory=list)  # the payloads, in the order given, each once
    slug: str = ""

    @property
    def name(self) -> str:
        """The name it is most often written with (the first seen, on a tie: ``max`` keeps the first)."""
        return max(self.names, key=self.names.__getitem__)

    @property
    def orcid(self) -> str:
        return self.key.removeprefix("orcid:") if self.key.startswith("orcid:") else ""

    @property
    def explicit(self) -> bool:
        """Known by an ORCID or an id, not by the name alone."""
        return not self.key.startswith("name:")

    @property
    def url(self) -> str:
        return f"{self.folder}/{self.slug}.html"


@dataclass
class People(Generic[T]):
    """Everyone of some papers, sorted by family name, each with a unique slug."""

    people: list[Person[T]]
    rules: Rules
    by_own_key: dict[str, Person[T]]  # an author's own key (own_key) → the person it belongs to
    unclear: Counter  # names written without ORCID or id where several people of that name have one
    known: dict[str, dict[str, None]]  # name key → the ORCIDs and ids written with it

    def of(self, author: Author) -> Person[T] | None:
        return self.by_own_key.get(own_key(author, self.rules))

    def report(self, warn: Callable[..., None]) -> None:
        """A warning for each name the rule cannot place, and each likely variant of a name (naming
        people.yaml, where the line it gives goes)."""
        for name, count in sorted(self.unclear.items()):
            warn(unclear_message(name, count, len(self.known[name_key(name, self.rules)])), code=codes.NAME_UNCLEAR,
                 subject=name)
        # One warning per pair of spellings: three people written "Jane Doe" are one line to add, not three.
        pairs: dict[tuple[str, str], tuple[dict[str, None], dict[str, None]]] = {}
        for first, second in variant_pairs(self.people, self.rules):
            urls = pairs.setdefault((first.name, second.name), ({}, {}))
            urls[0][first.url] = urls[1][second.url] = None
        for (one, other), (first_urls, second_urls) in pairs.items():
            warn(variant_message(one, list(first_urls), other, list(second_urls)), PEOPLE_FILE,
                 code=codes.NAME_VARIANT, subject=one, value=other)


def unclear_message(name: str, count: int, people: int) -> str:
    return (f"a name written without an ORCID or id that several people have: “{name}” ({count} paper(s); "
            f"{people} people of that name have one) is listed under the name alone; give the ORCID or id in "
            f"those papers' front matter to place them")


def explicit_key(author: Author) -> str:
    if author.orcid:
        return f"orcid:{author.orcid.strip().upper()}"
    return f"id:{author.id.strip()}" if author.id.strip() else ""


def name_key(name: str, rules: Rules) -> str:
    """The name as the rule compares it, after people.yaml's merges and splits."""
    return f"name:{rules.key(name)}"


def own_key(author: Author, rules: Rules) -> str:
    """What one occurrence of an author says of itself: its ORCID, its id, else its name."""
    return explicit_key(author) or name_key(author.name, rules)


def group(papers: Iterable[tuple[T, Sequence[Author]]], rules: Rules | None = None, folder: str = "people",
          kind: type[Person] = Person) -> People[T]:
    """Everyone the papers name (payload, authors), each person's papers in the order given."""
    rules = rules or Rules()
    listed = [(payload, tuple(authors)) for payload, authors in papers]
    known: dict[str, dict[str, None]] = {}
    for _, authors in listed:
        for author in authors:
            if explicit_key(author):
                known.setdefault(name_key(author.name, rules), {})[explicit_key(author)] = None
    people: dict[str, Person[T]] = {}
    by_own_key: dict[str, Person[T]] = {}
    unclear: Counter = Counter()
    for payload, authors in listed:
        seen: set[str] = set()
        for author in authors:
            explicit = explicit_key(author)
            own = explicit or name_key(author.name, rules)
            others = {} if explicit else known.get(own, {})
            key = next(iter(others)) if len(others) == 1 else own
            if len(others) > 1:
                unclear[author.name] += 1
            person = people.get(key) or people.setdefault(key, kind(key, folder))
            by_own_key[own] = person
            if key in seen:  # a name listed twice on one paper counts once
                continue
            seen.add(key)
            person.names[author.name] = person.names.get(author.name, 0) + 1
            if author.affiliation:
                person.affiliations[author.affiliation] = None
            person.papers.append(payload)
    turned = _turned_families(people.values())
    ordered = sorted(people.values(), key=lambda person: _sort_key(person, turned.get(person.key)))
    taken: set[str] = set()
    prefix = "author" if folder == "authors" else "person"
    for person in ordered:
        slug = slug_or_digest(person.name, prefix)
        if list_page_name(slug):  # "Index 2" would be page 2 of the index of everyone
            slug = f"{prefix}-{slug}"
        person.slug = unique(slug, taken)
        taken.add(person.slug)
    return People(ordered, rules, by_own_key, unclear, known)


def _sort_key(person: Person, family: str | None = None) -> tuple[bool, str, str, str]:
    """By family name; a template's text kept as a name (``Firstnames" format…``, warned about by
    derive/sanity.py) after every person, so that it never heads the index."""
    name = person.name
    return placeholder(name), family or family_name(name), spaced_key(name), person.key


def _turned_families(people: Iterable[Person]) -> dict[str, str]:
    """A person written family name first where another writes the name given name first ("Sidford Aaron" beside
    "Aaron Sidford", warned about by derive/sanity.py) → the family name to sort by: the usual spelling's, so
    that "Sidford Aaron" is listed under S beside Aaron Sidford, not under A."""
    by_name = {person.name: person for person in people}
    families, evidence = {}, None
    for first, second in reversed_pairs(by_name):
        evidence = evidence if evidence is not None else positions(by_name)
        odd, usual = odd_one(first, second, lambda name: len(by_name[name].papers), evidence=evidence)
        families[by_name[odd].key] = family_name(usual)
    return families


def spaced_key(name: str) -> str:
    """A name as the lists sort it: spacing and case aside."""
    return " ".join(name.split()).casefold()


def family_name(name: str) -> str:
    """The last word of a name, for sorting ("Ada Lovelace" under L); a name in one word sorts as is.
    A Chinese, Japanese or Korean name is written family name first ("山田 太郎", "张伟"): as written."""
    key = spaced_key(name)
    # A stray quote or bracket around the word ("Nicolas "Gast") does not sort it before every letter.
    return key if has_cjk(key) else key.rsplit(" ", 1)[-1].strip(_EDGE_MARKS) or key


@functools.lru_cache(maxsize=1 << 16)
def _words(name: str) -> tuple[str, ...]:
    """The words of a name, each folded (``J.`` → ``j``, ``Müller`` → ``muller``), empty ones dropped."""
    return tuple(word for part in name.replace(".", " ").split() if (word := fold(part)))


def variants(a: str, b: str) -> bool:
    """Two spellings that may be one person: the same family name, and given names that agree
    where both are written in full and otherwise by initial (``J. Doe``, ``Jane Doe``, ``Jane M. Doe``)."""
    if fold(a) == fold(b) or has_cjk(a + b):
        return False
    first, second = _words(a), _words(b)
    if len(first) < 2 or len(second) < 2 or first[-1] != second[-1]:
        return False
    for x, y in zip(first[:-1], second[:-1]):
        if x[0] != y[0] or (len(x) > 1 and len(y) > 1 and x != y):
            return False
    return True


# A name is paired with at most this many others: "J. Doe" beside a hundred J-names of the family
# is one doubt, shown by its first few, and a hostile list of names stays linear.
PARTNERS = 3
# Given names compared: the first few words; a name that differs only after them is a variant.
_GIVEN = 4


def variant_pairs(people: list[Person], rules: Rules) -> Iterable[tuple[Person, Person]]:
    """Pairs of people whose names may be one person's (``variants``), unless ORCIDs or ids already say
    they are two, or people.yaml does. Each name with at most ``PARTNERS`` others, found through an index
    (``_VariantIndex``), never pair by pair: the work grows with the names, not with their pairs."""
    index = _VariantIndex()
    for person in people:
        if len(_words(person.name)) > 1 and not has_cjk(person.name):
            index.add(person)
    seen: set[tuple[int, int]] = set()
    paired: Counter = Counter()  # each name's pairs so far, on either side
    for number, first in enumerate(index.people):
        for other in index.partners(number):
            if paired[number] >= PARTNERS:
                break
            second = index.people[other]
            pair = (min(number, other), max(number, other))
            if pair in seen or paired[other] >= PARTNERS or (first.explicit and second.explicit):
                continue
            if rules.apart(first.name, second.name) or not variants(first.name, second.name):
                continue
            seen.add(pair)
            paired.update(pair)
            yield (first, second) if number < other else (second, first)


class _VariantIndex:
    """Names by what a variant must share with them. Two names are variants when their family names are
    equal and their given names agree word by word, up to the shorter, by initial where either is one
    letter and in full where both are full. So a name is filed under every (length, which words are full,
    compared length, which of those to compare in full) it could meet another name at; a name looks its
    partners up under each such key it could meet: a fixed number of lookups per name."""

    def __init__(self) -> None:
        self.people: list[Person] = []
        self._shapes: list[tuple[str, tuple[str, ...], frozenset[int]]] = []
        self._filed: dict[tuple, list[int]] = {}

    def add(self, person: Person) -> None:
        words = _words(person.name)
        family, given = words[-1], words[:-1][:_GIVEN]
        full = frozenset(i for i, word in enumerate(given) if len(word) > 1)
        number = len(self.people)
        self.people.append(person)
        self._shapes.append((family, given, full))
        for compared in range(1, len(given) + 1):
            for in_full in _subsets(full & frozenset(range(compared))):
                self._filed.setdefault(_key(family, given, len(given), full, compared, in_full), []).append(number)

    def partners(self, number: int) -> Iterable[int]:
        """The names filed under a key this one could meet them at (each may come more than once)."""
        family, given, full = self._shapes[number]
        for length in range(1, _GIVEN + 1):
            compared = min(len(given), length)
            for theirs in _subsets(frozenset(range(length))):
                in_full = theirs & full & frozenset(range(compared))
                for other in self._filed.get(_key(family, given, length, theirs, compared, in_full), ())[:PARTNERS + 2]:
                    if other != number:
                        yield other


def _key(family: str, given: tuple[str, ...], length: int, full: frozenset[int], compared: int,
         in_full: frozenset[int]) -> tuple:
    initials = tuple(word[0] for word in given[:compared])
    return (family, length, full, compared, initials, tuple(given[i] for i in sorted(in_full)))


@functools.lru_cache(maxsize=64)
def _subsets(items: frozenset[int]) -> tuple[frozenset[int], ...]:
    found: list[frozenset[int]] = [frozenset()]
    for item in sorted(items):
        found += [subset | {item} for subset in found]
    return tuple(found)


def yaml_line(names: Sequence[str]) -> str:
    """``- [J. Doe, Jane Doe]``: one item of people.yaml's lists, quoted where YAML needs it."""
    flow = yaml.safe_dump(list(names), default_flow_style=True, allow_unicode=True, width=10_000).strip()
    return f"  - {flow}"


def variant_message(first: str, first_urls: list[str], second: str, second_urls: list[str]) -> str:
    return (f"names that may be one person: “{first}” ({', '.join(first_urls)}) and “{second}” "
            f"({', '.join(second_urls)}) are kept apart; to join them, add this line under `same:` in {PEOPLE_FILE} "
            f"(under `different:` to say they are two people and stop this warning):\n{yaml_line([first, second])}")
