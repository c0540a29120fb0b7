"""A feed beside every person's and every topic's page (issue 42): ``authors/<slug>.xml`` and
``tags/<slug>.xml``, the Atom feed of their papers in the volume (publish/feeds.py), linked from their pages
with ``<link rel="alternate">``. Written only when the volume has a date, as its own feed: a feed is dated by
the volume, never the clock.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from generator.derive.people import Person
from generator.model.paper import RenderedPaper
from generator.model.volume import Volume
from generator.publish.feeds import FeedOf, atom_feed, feed_path
from generator.render.people_topics import TagPage

from generator.render.outputs import Output, SiteParts, ids_of

if TYPE_CHECKING:
    from generator.render.html import SiteRenderer


def has_feeds(volume: Volume) -> bool:
    return volume.date is not None


def page_feed(volume: Volume, page: str) -> str:
    """The feed a person's or topic's page links to (from the root), or "" when the volume has none."""
    return feed_path(page) if has_feeds(volume) else ""


def feed_outputs(renderer: SiteRenderer, parts: SiteParts) -> Iterator[Output]:
    """Each person's and topic's feed; given ``parts.only``, those that list one of those papers."""
    volume = renderer.site.volume
    if not has_feeds(volume):
        return
    people: Sequence[Person[RenderedPaper]] = parts.authors
    listed = [(person.name, person.url, tuple(person.papers)) for person in people]
    listed += [(_topic_name(renderer, page), page.url, page.papers) for page in parts.tags]
    for title, page, papers in listed:
        if parts.only is not None and not any(p.paper.id in parts.only for p in papers):
            continue
        of = FeedOf(title, feed_path(page), page)
        yield Output(of.path, functools.partial(_feed, papers, volume, of, renderer),
                     ids_of(papers))


def _feed(papers: Sequence[RenderedPaper], volume: Volume, of: FeedOf, renderer: SiteRenderer) -> bytes:
    # A paper's entry is the same in every person's and topic's feed that lists it: kept with the build's
    # fragments (render/fragments.py), which a new listing starts afresh.
    return atom_feed(papers, volume, of=of, entries=renderer.fragments) or b""


def _topic_name(renderer: SiteRenderer, page: TagPage) -> str:
    """The topic as its page names it: the taxonomy's name in the interface language, else its own."""
    names: dict[str, str] = renderer.shared.get("topic_names", {})
    return names.get(page.tag.name, page.tag.name)
