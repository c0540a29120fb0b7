"""What a pipeline is run with and what it keeps: the ``Options`` of a command, the ``Run`` the stages fill
(``serve`` keeps it between passes) and the ``Pass``, what changed since the last one (stages.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from generator.content.merge import Change
from generator.content.pages import PageDoc
from generator.content.project import Project
from generator.derive.paper_map import Placed
from generator.derive.people_file import Rules
from generator.model.paper import Paper, RenderedPaper
from generator.pipeline.listing import Listing
from generator.render.outputs import Ids
from generator.pipeline.rendering import Parsed, Rendered
from generator.programme.model import Programme


@dataclass(frozen=True)
class Options:
    base_url: str | None = None  # instead of the config's
    jobs: int = 0  # cores to use; 0: all
    cache: bool = True  # reuse what an earlier build worked out (abstracts, related papers, search index)
    series: str = ""  # the series this volume is built into (series/layout.py)
    people: Rules = Rules()  # the series' people.yaml (series/layout.py), applied beside the volume's own
    write_pages: bool = True  # False (check): say what the sync would change, change nothing
    derive: bool = True  # False (check): new entries get placeholder titles, not derived ones
    sample: bool = False  # True (check): render the templates for a sample of the papers only
    keep: bool = False  # True (serve, check): keep every page as read, for the next pass or a later look
    search: bool = True  # False (check): make no search index
    # True (serve): after a small edit, the search index, the whole-volume files and related papers worked
    # out again follow the published site in the background, so that the edited page is served at once.
    background_search: bool = False

    @property
    def cores(self) -> int:
        return self.jobs or os.cpu_count() or 1


DEFAULT_OPTIONS = Options()  # a command's that names none


@dataclass
class Run:
    """What the stages made. ``serve`` keeps it between passes; a failed pass starts afresh."""

    project: Project | None = None
    changes: list[Change] = field(default_factory=list)  # what the sync did (or would do) to the pages
    docs: dict[Path, PageDoc] | None = None  # every page on disk, read
    parsed: dict[Path, Parsed] = field(default_factory=dict)
    # serve: the last paper each page parsed to, which a page that stops parsing keeps standing for it
    last_good: dict[Path, Paper] = field(default_factory=dict)
    papers: list[Paper] = field(default_factory=list)  # the pages that parse, in proceedings order
    rendered: list[RenderedPaper] = field(default_factory=list)
    renders: dict[Path, Rendered] = field(default_factory=dict)  # the last rendering of each page
    changed_ids: set[str] | None = None  # papers whose pages show something new this pass; None: all of them
    env: object | None = None  # the compiled templates, while the theme does not change
    related: dict[str, tuple[str, ...]] | None = None
    # The map's places, when the relate stage left them for map.html's render (derive/paper_map.py: map_later)
    places: Callable[[list[RenderedPaper]], Placed] | None = None
    shape: dict[str, Ids | None] = field(default_factory=dict)  # files and what each shows
    listing: Listing | None = None  # what the last listing of every file found (pipeline/listing.py)
    listed: int = 0  # files the last pass listed: every one, or those that show what an edit changed
    files: list[str] = field(default_factory=list)  # the names the last pass published
    programme: tuple[Programme, str] | None = None  # the volume's programme and its calendars' digest


@dataclass
class Pass:
    """One run of some stages: what is known to have changed since the last pass."""

    pages: set[Path] | None = None  # pages to read again; None: all of them
    loaded: bool = False  # the project stage ran: the pages must be synced to it
    everything: bool = False  # render every output (templates, static files or the config changed)
    templates: bool = False  # the theme's templates changed: compile them again
    related: dict[str, tuple[str, ...]] | None = None  # related papers worked out after the last pass (serve)
