"""What every template sees as ``site``: a volume (or a series, series/pages.py) and what the build counted."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from generator import __version__
from generator.model.volume import Volume


@dataclass(frozen=True)
class SiteInfo:
    """What every template sees as ``site``: the volume, and what the build counted of it."""

    volume: Volume
    paper_count: int
    author_count: int = 0  # people with an author page (derive/people.py); 0: no author pages, no "Authors" link
    has_map: bool = False  # the volume has map.html (the config's ``map`` is not off): the header links it
    version: str = __version__

    @property
    def title(self) -> str:
        return self.volume.title

    @property
    def short_title(self) -> str:
        return self.volume.short_title

    @property
    def description(self) -> str:
        return self.volume.description

    @property
    def language(self) -> str:
        return self.volume.language

    @property
    def base_url(self) -> str:
        return self.volume.base_url

    @property
    def date(self) -> dt.date | None:
        return self.volume.date

    @property
    def editors(self) -> tuple[str, ...]:
        return self.volume.editors

    @property
    def series(self) -> str:
        return self.volume.series
