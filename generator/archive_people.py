"""People across the volumes of an archive: one page per person, by the rule of people.py.

This is the archive's side only: its papers are ``papers.json`` records, read back from
the volumes, and a person's papers are grouped by volume for ``person.html``.
"""

from __future__ import annotations

from typing import Callable

from generator.archive import Volume
from generator.model import Author
from generator.people import Person, Rules, group


class ArchivePerson(Person):
    """A person whose papers are (volume, papers.json record) pairs, volumes newest first."""

    def by_volume(self) -> list[tuple[Volume, list[dict]]]:
        grouped: dict[str, tuple[Volume, list[dict]]] = {}
        for volume, record in self.papers:
            grouped.setdefault(volume.path, (volume, []))[1].append(record)
        return list(grouped.values())


def group_people(volumes: list[Volume], warn: Callable[..., None], rules: Rules | None = None) -> list[Person]:
    """Every person of the archive, sorted by family name, each with a unique slug; ``volumes`` come
    newest first, and so do each person's papers. What the rule cannot decide is warned about."""
    people = group((((volume, record), [_author(a) for a in record.get("authors", ())])
                    for volume in volumes for record in volume.papers), rules, "people", ArchivePerson)
    people.report(warn)
    return people.people


def _author(fields: dict) -> Author:
    return Author(fields["name"], fields.get("affiliation", ""), fields.get("orcid", ""), fields.get("id", ""))
