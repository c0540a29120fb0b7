"""The page types of a volume: each a function listing its outputs, the paper fields that place papers on its
pages, and what its pages show of papers they do not list. A new page type is one entry in ``PAGE_TYPES``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable

from generator.derive.groups import group_index, readable_sessions
from generator.model.paper import RenderedPaper
from generator.render.feed_pages import feed_outputs
from generator.render.glance import glance_files
from generator.render.outputs import Output, Shown, SiteParts, ids_of
from generator.render.people_topics import author_urls, group_authors

if TYPE_CHECKING:
    from generator.render.html import SiteRenderer


def awards_and_tracks(papers: list[RenderedPaper]) -> tuple[int, list[str]]:
    """The papers with an award (the home page links awards.html), and their tracks in the order the volume
    first names them (the home page's filter, when there are two)."""
    awarded = sum(1 for paper in papers if paper.details.award)
    return awarded, list(dict.fromkeys(track for paper in papers for track in paper.details.track))


def home_shows(renderer: SiteRenderer, parts: SiteParts) -> Shown:
    """The sessions' words and where each group's heading is (a paper's page links its sessions there), and the
    home page's index of groups, counts and places."""
    papers, contents = parts.papers, parts.contents
    names = readable_sessions([name for paper in papers for name in paper.details.sessions])
    if not contents.split:
        index: Any = group_index([("index.html", contents.groups)])
        links = {name: link for name, link in index if name}
    else:
        index = contents.index
        links = {entry.name: entry.links[0] for entry in contents.index if entry.name}
    return Shown({"session_names": names, "group_links": links}, (awards_and_tracks(papers), index))


def topics_shows(renderer: SiteRenderer, parts: SiteParts) -> Shown:
    """Every page links a topic to its page (``tag_url``); a topic's name, as its first paper spells it, heads
    each of its pages, those that do not list it too."""
    return Shown({"tag_urls": {page.tag.name.casefold(): page.url for page in parts.tags}},
                 [page.tag for page in parts.tags])


def authors_shows(renderer: SiteRenderer, parts: SiteParts) -> Shown:
    """Every page links an author to their page (``author_url``); nothing else of a paper it does not list."""
    people = renderer.people or group_authors(parts.papers, renderer.rules)  # ``listing`` grouped them already
    return Shown({"author_urls": author_urls(people)}, None)


@dataclass(frozen=True)
class PageType:
    """A page type of a volume: the function listing its outputs (each naming the papers it shows, ``deps``),
    and the fields of a paper that decide which of its files show the paper and where (``places_by``, paths
    of ``Paper`` attributes). An edit to a paper that moves none of those fields re-renders only the files
    that name the paper (pipeline/listing.py); one that moves one lists every file again."""

    name: str
    outputs: Callable[[SiteRenderer, SiteParts], Iterable[Output]]
    places_by: tuple[str, ...]
    shows: Callable[[SiteRenderer, SiteParts], Shown] | None = None  # what its pages show beyond their papers


# The page types of a volume, in the order their outputs are listed: each takes the renderer and the
# volume's parts and yields its outputs; given ``parts.only``, at least those whose deps name one of those
# papers, skipping what cannot (``SiteRenderer.listing`` drops the rest). A new page type is one method
# and one entry here.
PAGE_TYPES: tuple[PageType, ...] = (
    # The contents: the papers in order, under their groups, with their sessions' times and rooms and awards.
    PageType("home", lambda renderer, parts: renderer.home_pages(parts),
             ("order", "details.track", "details.sessions", "details.day", "details.time", "details.room",
              "details.section", "details.award"), home_shows),
    # A paper's own page, between its neighbours, and a redirect from each address it had (``redirect_pages``).
    PageType("paper", lambda renderer, parts: renderer.paper_pages(parts.papers, parts.only),
             ("slug", "old_slugs", "order")),
    PageType("topics", lambda renderer, parts: renderer.tag_pages(parts.tags, parts.only), ("tags",), topics_shows),
    PageType("authors", lambda renderer, parts: renderer.author_pages(parts.authors, parts.only),
             ("details.authors",), authors_shows),
    # A feed beside each person's and topic's page (render/feed_pages.py).
    PageType("feeds", feed_outputs, ("tags", "details.authors")),
    PageType("fixed", lambda renderer, parts: renderer.fixed_pages(parts.papers), ()),
    PageType("awards", lambda renderer, parts: renderer.awards_page(parts.papers), ("details.award",)),
    # The programme (render/programme.py) and its calendar files, when a session has a time.
    PageType("programme", lambda renderer, parts: renderer.programme_pages(parts.papers, parts.only),
             ("details.sessions", "details.day", "details.time", "details.room", "slug")),
    # Every paper placed by its likeness to the others, coloured by its topic or session.
    PageType("map", lambda renderer, parts: renderer.map_page(parts.papers), ("tags", "details.sessions")),
    # Each paper's citations, whose key is made of where its entry came from.
    PageType("citations", lambda renderer, parts: renderer.citation_files(parts.papers, parts.only),
             ("source", "entry", "uid", "path")),
    # The volume at a glance (render/glance.py): counts of every paper, so it shows every paper (made again on any
    # edit, and at once: serve defers only the whole-volume files that are not pages).
    PageType("glance", lambda renderer, parts: (Output(*file, ids_of(parts.papers))
                                                 for file in glance_files(renderer, parts)), ()),
)


def placing_fields() -> tuple[str, ...]:
    """Every field a page type places papers by, once each, in the registry's order."""
    return tuple(dict.fromkeys(field for page_type in PAGE_TYPES for field in page_type.places_by))
