"""People across the volumes of a series: one page per person, by the rule of derive/people.py.

This is the series' side only: its papers are the volumes' ``SeriesPaper``s, and a person's papers
are grouped by volume for ``person.html``.
"""

from __future__ import annotations

from typing import Callable

from generator.derive.people import Person, Rules, group
from generator.derive.sanity import Place, orders_across
from generator.series.layout import SeriesPaper, SeriesVolume


class SeriesPerson(Person):
    """A person whose papers are (volume, SeriesPaper) pairs, volumes newest first."""

    def by_volume(self) -> list[tuple[SeriesVolume, list[SeriesPaper]]]:
        grouped: dict[str, tuple[SeriesVolume, list[SeriesPaper]]] = {}
        for volume, paper in self.papers:
            grouped.setdefault(volume.path, (volume, []))[1].append(paper)
        return list(grouped.values())


def group_people(volumes: list[SeriesVolume], warn: Callable[..., None], rules: Rules | None = None) -> list[Person]:
    """Every person of the series, sorted by family name, each with a unique slug; ``volumes`` come
    newest first, and so do each person's papers. What the rule cannot decide is warned about."""
    people = group((((volume, paper), paper.authors) for volume in volumes for paper in volume.papers), rules,
                   "people", SeriesPerson)
    people.report(warn)
    report_orders_across(volumes, people.rules, warn)
    return people.people


def report_orders_across(volumes: list[SeriesVolume], rules: Rules, warn: Callable[..., None]) -> None:
    """One name written family name first in one volume and given name first in another, named at a page of
    the order fewer papers use (oldest volume first)."""
    orders_across(((volume.path, author.name, Place(paper.page or volume.path, None))
                   for volume in reversed(volumes) for paper in volume.papers for author in paper.authors),
                  rules, warn)
