"""Which files of the site a pass lists: all of them, or, after an edit that moves no list, those that show
the edited papers.

A site has more files than papers. Listing them all (each an ``Output`` with the set of papers it
shows) to pick the few whose deps name an edited paper was half of serve's one-page rebuild. So a
pass that lists every file keeps what it found in the ``Run`` (a ``Listing``: the papers in their order, the
pages for the sitemap, what every page shows beyond its own papers). The next pass, when it changed a few
papers and each keeps its place (``placing``: the fields the page types place papers by), asks
the page types for the files that show those papers only (``SiteRenderer.outputs(only=…)``), and takes them
if they are the files the last listing had showing them, each showing the same papers, and nothing every
page shows moved. Otherwise it lists every file, as a paper added, removed, moved or retitled into another
list needs. (A list is cut into pages greedily: a page that keeps its papers keeps the pages after it too.)
"""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from generator.model.paper import Paper, RenderedPaper
from generator.pipeline.rendering import site_renderer
from generator.render.html import SiteRenderer
from generator.render.outputs import Output, SiteListing
from generator.render.page_types import placing_fields
from generator.render.theme import Theme
from generator.model.config import config_digest
from generator.pipeline.reuse import Inputs, input_digests, site_digest, theme_digest

if TYPE_CHECKING:
    from generator.pipeline.stages import Pipeline, Run

FEW = 200  # papers a pass may change and still list their files alone; more, and every file is listed


@dataclass(frozen=True)
class Listing:
    """What the last listing of every file found, beside ``Run.shape`` (each file and the papers it shows)."""

    papers: list[RenderedPaper]  # in proceedings order
    pages: list[str]  # the page types' files: what the sitemap lists
    context: tuple  # what every page may show beyond its own papers (``SiteListing.context``)
    related: dict[str, tuple[str, ...]] | None  # the related papers the paper pages were listed with


def site_outputs(p: Pipeline, papers: list[RenderedPaper], everything: bool
                 ) -> tuple[list[Output], bool, Callable[[], str], SiteRenderer]:
    """The files of the site to render on demand: every one, or those that show the papers the pass changed;
    whether every one must be rendered (the site's shape moved); what every page may show beyond its own
    papers, when asked (``SiteListing.fingerprint``, for the build cache); and the renderer."""
    state = p.state
    assert state.project is not None
    # check warns of every paper's citation itself; its sample's would be said twice
    warn = None if p.options.sample else p.reporter.warn
    renderer = site_renderer(state.project, papers, env=None if p.now.templates else state.env, warn=warn,
                             related=state.related, programme=state.programme, places=state.places)
    if warn is not None and not state.project.volume.series and renderer.people is not None:
        renderer.people.report(warn)  # in a series, the series' own pages report its people once, for every volume
    state.env = renderer.env
    settled = p.now.related is not None
    only = None if everything else edited(state, papers, settled)
    few = None if only is None else listed_for(state, renderer, papers, only, settled)
    if few is not None:
        assert state.listing is not None
        state.listing = dataclasses.replace(state.listing, papers=papers, related=state.related)
        return few.outputs, False, few.fingerprint, renderer
    listed = renderer.listing(papers)
    outputs, context = listed.outputs, listed.context
    shape = {output.path: output.deps for output in outputs}
    # A paper came or went, or a list moved: every page may show it. Related papers settled after an edit
    # move only the deps of their papers' own pages (render_stage renders those), not the files there are.
    moved = shape != state.shape and (not settled or list(shape) != list(state.shape))
    # What every page shows beyond its own papers moved (a topic respelled by its first paper heads pages
    # that do not list it, and the topic index): every page may show it.
    moved = moved or (state.listing is not None and context != state.listing.context)
    state.shape = shape
    state.listing = Listing(papers, listed.pages, context, state.related)
    return outputs, everything or moved, listed.fingerprint, renderer


def edited(state: Run, papers: list[RenderedPaper], settled: bool) -> frozenset[str] | None:
    """The papers whose files are all this pass must list (``state.changed_ids``), or None: list every file.
    ``settled``: the pass shows related papers worked out after the last one, and nothing else."""
    last, changed = state.listing, state.changed_ids
    if last is None or changed is None or len(changed) > FEW:
        return None
    if not settled and state.related is not last.related:  # worked out again: any paper page's list may move
        return None
    if len(papers) != len(last.papers) or any(a.paper.id != b.paper.id for a, b in zip(papers, last.papers)):
        return None  # a paper came, went or moved
    before = {paper.paper.id: paper.paper for paper in last.papers if paper.paper.id in changed}
    after = {paper.paper.id: paper.paper for paper in papers if paper.paper.id in changed}
    if before.keys() != changed or any(placing(before[key]) != placing(after[key]) for key in changed):
        return None
    return frozenset(changed)


def placing(paper: Paper) -> tuple:
    """What decides which files show a paper, and where: the fields the page types declare they place papers
    by (``PageType.places_by``, render/html.py)."""
    return tuple(getter(paper) for getter in _PLACING)


_PLACING = tuple(operator.attrgetter(field) for field in placing_fields())


def listed_for(state: Run, renderer: SiteRenderer, papers: list[RenderedPaper], only: frozenset[str],
               settled: bool) -> SiteListing | None:
    """The files that show the papers ``only`` and those made from the whole volume, if they are the files
    the last listing had, each showing the same papers (bar the own pages of papers whose related papers were
    ``settled``: those move), and nothing every page shows moved; else None."""
    assert state.listing is not None
    listed = renderer.listing(papers, only, state.listing.pages)
    if listed.context != state.listing.context:
        return None
    now = {output.path: output.deps for output in listed.outputs}
    before = {path: deps for path, deps in state.shape.items() if deps is None or not deps.isdisjoint(only)}
    own = {paper.url for paper in papers if paper.paper.id in only} if settled else set()
    if now.keys() != before.keys() or any(deps != before[path] and path not in own for path, deps in now.items()):
        return None
    if own:  # their related papers moved: so did what their pages show
        state.shape = {**state.shape, **{path: now[path] for path in own}}
    return listed


def moved_lists(before: dict[str, tuple[str, ...]], after: dict[str, tuple[str, ...]]) -> set[str]:
    """The papers whose related papers are not the same now."""
    return {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}


def output_inputs(p: Pipeline, shared: str, outputs: list, papers: list[RenderedPaper]) -> Inputs:
    """Each output's digest of its inputs (pipeline/reuse.py): what a build compares with the last site's."""
    project = p.state.project
    assert project is not None
    site = site_digest(theme_digest(Theme.for_content(p.content_dir)), config_digest(project.config, "pages"),
                       repr(project.volume), shared, shape=p.state.shape, papers=papers)
    return input_digests(site, outputs, papers, p.state.related or {})
