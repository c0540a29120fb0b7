"""People across the volumes of an archive: one page per person.

A person is known by an ORCID or an explicit ``id`` given in front matter
(``{name: Jane Doe, id: jdoe-mit}``), else by the name (spacing and case aside).
A name written without ORCID joins the person of that name who has one, when
exactly one does (ORCID wins); two people of one name stay two when their ORCIDs
or ids differ. Names that look like one person written two ways (``J. Doe`` and
``Jane Doe``) are warned about, never merged: only an ORCID or id merges them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from generator.series import SeriesVolume as Volume
from generator.cjk import has_cjk
from generator.model import Author
from generator.slugs import slug_or_digest, unique


@dataclass
class Person:
    key: str  # "orcid:…", "id:…" or "name:…"
    names: Counter = field(default_factory=Counter)
    affiliations: dict = field(default_factory=dict)  # in order of appearance, as a set
    papers: list = field(default_factory=list)  # (volume, Listing), volumes newest first
    slug: str = ""

    @property
    def name(self) -> str:
        """The name it is most often written with (the first, on a tie)."""
        return self.names.most_common(1)[0][0]

    @property
    def orcid(self) -> str:
        return self.key.removeprefix("orcid:") if self.key.startswith("orcid:") else ""

    @property
    def url(self) -> str:
        return f"people/{self.slug}.html"

    def by_volume(self) -> list[tuple[Volume, list]]:
        grouped: dict[str, tuple[Volume, list]] = {}
        for volume, record in self.papers:
            grouped.setdefault(volume.path, (volume, []))[1].append(record)
        return list(grouped.values())


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _explicit(author: Author) -> str:
    if author.orcid:
        return f"orcid:{author.orcid}"
    return f"id:{author.id}" if author.id else ""


def group_people(volumes: list[Volume], warn: Callable[..., None]) -> list[Person]:
    """Every person of the archive, sorted by family name, each with a unique slug;
    ``volumes`` come newest first, and so do each person's papers."""
    known: dict[str, set[str]] = {}  # name → the ORCIDs and ids written with it
    for volume in volumes:
        for record in volume.papers:
            for author in record.authors:
                explicit = _explicit(author)
                if explicit:
                    known.setdefault(name_key(author.name), set()).add(explicit)
    people: dict[str, Person] = {}
    unclear: Counter = Counter()
    for volume in volumes:
        for record in volume.papers:
            seen = set()
            for author in record.authors:
                key = _person_key(author, known)
                if key.startswith("name:") and len(known.get(key[5:], ())) > 1:
                    unclear[author.name] += 1
                if key in seen:
                    continue
                seen.add(key)
                person = people.setdefault(key, Person(key))
                person.names[author.name] += 1
                if author.affiliation:
                    person.affiliations[author.affiliation] = None
                person.papers.append((volume, record))
    for name, count in sorted(unclear.items()):
        warn(f"{count} paper(s) name {name!r} without an ORCID or id, and {len(known[name_key(name)])} people of "
             f"that name have one: those papers are listed under the name alone (give the ORCID or id to place them)")
    ordered = sorted(people.values(), key=lambda p: (_family_name(p.name), name_key(p.name), p.key))
    taken = {"index"}
    for person in ordered:
        person.slug = unique(slug_or_digest(person.name, "person"), taken)
        taken.add(person.slug)
    warn_variants(ordered, warn)
    return ordered


def _person_key(author: Author, known: dict[str, set[str]]) -> str:
    explicit = _explicit(author)
    if explicit:
        return explicit
    others = known.get(name_key(author.name), set())
    return next(iter(others)) if len(others) == 1 else f"name:{name_key(author.name)}"


def _family_name(name: str) -> str:
    key = name_key(name)
    return key if has_cjk(key) else key.rsplit(" ", 1)[-1]


_INITIAL = re.compile(r"^(\w)\.?$")


def _given(name: str) -> list[str]:
    return [part.strip(".").casefold() for part in re.split(r"[\s.]+", name.strip()) if part.strip(".")][:-1]


def variants(a: str, b: str) -> bool:
    """Two spellings that may be one person: the same family name, and given names that agree
    where both are written in full and otherwise by initial (``J. Doe``, ``Jane Doe``, ``Jane M. Doe``)."""
    if name_key(a) == name_key(b) or _family_name(a) != _family_name(b) or has_cjk(a + b):
        return False
    first, second = _given(a), _given(b)
    if not first or not second:
        return False
    for x, y in zip(first, second):
        if x[0] != y[0] or (len(x) > 1 and len(y) > 1 and x != y):
            return False
    return True


def warn_variants(people: list[Person], warn: Callable[..., None]) -> None:
    """One warning per pair of people whose names may be one person's, unless ORCIDs or ids
    already say they are two."""
    # Only names of one family name and one first initial can be variants: compare within those
    # groups, so that ten thousand people named Wang are not compared pair by pair.
    by_family: dict[tuple[str, str], list[Person]] = {}
    for person in people:
        given = _given(person.name)
        if given:
            by_family.setdefault((_family_name(person.name), given[0][0]), []).append(person)
    for group in by_family.values():
        for i, first in enumerate(group):
            for second in group[i + 1:]:
                both_known = not first.key.startswith("name:") and not second.key.startswith("name:")
                if not both_known and variants(first.name, second.name):
                    warn(f"{first.name!r} ({first.url}) and {second.name!r} ({second.url}) may be one person: "
                         f"they are kept apart; give both the same ORCID or `id` in the papers' front matter "
                         f"to join them")
