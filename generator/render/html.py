"""Rendering the site's pages from templates into an in-memory file tree.

Every link in the site is relative (``root`` is the way back to the site
root from the page being rendered) so one build works from ``file://``,
from a local server and under a GitHub Pages project path.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Iterable, Iterator
from urllib.parse import quote

import jinja2

from generator.model.config import Config
from generator.errors import ThemeError
from generator.render.filters import install_functions
from generator.text.i18n import interface
from generator.publish import Publication, jsonld
from generator.publish.reading_list import reading_files
from generator.render.redirects import redirect_paths
from generator.derive.groups import award_groups, group_index
from generator.render.paginate import list_weight, paginate
from generator.render.records import papers_json, papers_json_chunks
from generator.model.paper import RenderedPaper
from generator.derive.people import People, Person, Rules
from generator.render.people_topics import TagPage, group_authors, group_tags
from generator.render.programme import Programmed, programme_files
from generator.render.site_info import SiteInfo
from generator.render.feed_pages import page_feed
from generator.publish.feeds import forget_entries
from generator.publish.suggest import person_link
from generator.render.map_view import map_context
from generator.render.map_points import MapPlan, file_count, file_path, plan_map
from generator.derive.paper_map import Placed
from generator.render.theme import Theme
from generator.render.outputs import Output, PaperIds, SiteListing, SiteParts, ids_of
from generator.render.page_types import PAGE_TYPES, awards_and_tracks

READING_LIST = "reading-list.html"
MAP = "map.html"
AWARDS = "awards.html"
# The words the search box shows (_search_messages.html), once for the volume rather than in every page's
# search form: about a kilobyte on every page of the volume. A series' own pages keep theirs inline.
SEARCH_MESSAGES = "assets/search-messages.js"
AUTHORS_PER_PAGE = 400  # names on each page of the author index (about 40 KB)


def _shows(papers: Iterable[RenderedPaper], only: frozenset[str] | None) -> bool:
    """Whether a file showing these papers is listed: always (``only`` None), or when it shows one of ``only``."""
    return only is None or any(p.paper.id in only for p in papers)


class SiteRenderer:
    """Lists every output of the site; the Jinja environment is built once."""

    def __init__(self, theme: Theme, config: Config, site: SiteInfo, env: jinja2.Environment | None = None,
                 publication: Publication | None = None, topic_names: dict[str, str] | None = None,
                 people: Rules | None = None, authors: People[RenderedPaper] | None = None,
                 shared: dict[str, Any] | None = None, programme: Programmed | None = None,
                 places: Callable[[list[RenderedPaper]], Placed] | None = None):
        # The environment holds only what never changes between builds (serve reuses it): the catalogue's
        # functions and our filters, installed when it is made. What a build knows (its topics' and
        # authors' pages, its feed) goes into every render's context, where the filters read it.
        self.env = env or install_functions(theme.environment(interface(config.language)))
        self.publication = publication
        self.places = places  # each paper's place on the map (derive/paper_map.py), when the volume has one
        self.config = config
        self.site = site
        self.rules = people or Rules()
        # The author pages: ``authors`` when given (group_authors of the papers ``outputs`` will list), else
        # worked out by ``outputs``.
        self.people: People[RenderedPaper] | None = authors
        # ``shared``: a template worker's, the build's own (pipeline/shares.py).
        self.shared: dict[str, Any] = shared if shared is not None else {
            "topic_names": dict(topic_names or {}),  # the taxonomy's names in the interface language
            "tag_urls": {},
            "author_urls": {},
            "group_links": {},  # a group's name → its heading in the contents, from the root (home_pages)
            "session_names": {},  # a session's id → its words (derive/groups.readable_sessions; home_pages)
            "people_rules": self.rules,
            "programme": programme.shown if programme is not None else None,  # render/programme.py
            **(publication.template_globals() if publication is not None else {}),  # feed_url
        }
        self.programme = programme
        self.pages: list[str] = []  # the page types' files, once ``outputs`` ran (the sitemap's)
        # What ``{% once %}`` rendered in this build (render/fragments.py), and the feeds' entries
        # (render/feed_pages.py); a new renderer starts empty.
        self.fragments: dict[Any, Any] = {}

    def feeds_written(self) -> None:
        """Every person's and topic's feed is written: the entries kept for them go (``feeds.forget_entries``)."""
        forget_entries(self.fragments)

    def render(self, template: str, root: str, **context: Any) -> bytes:
        try:
            html = self.env.get_template(template).render(site=self.site, root=root, **self.shared, **context,
                                                          _fragments=self.fragments)
        except jinja2.TemplateSyntaxError as exc:
            raise ThemeError(f"template syntax error: {exc.message}", path=exc.filename or exc.name,
                             line=exc.lineno) from None
        except jinja2.TemplateNotFound as exc:
            raise ThemeError(f"template not found: {exc.name}") from None
        except jinja2.TemplateError as exc:
            raise ThemeError(f"template {template} failed: {exc}") from None
        return html.encode("utf-8")

    def listing(self, papers: list[RenderedPaper], only: frozenset[str] | None = None,
                pages: list[str] | None = None) -> SiteListing:
        """Every file of the site; or, given ``only`` (paper ids), the files whose deps name one of those
        papers and the files made from the whole volume (deps None): what an edit that moves no list must
        render again (pipeline/listing.py). ``pages`` are then the page types' files of the last whole
        listing (``self.pages``), for the sitemap."""
        if only is not None and pages is None:
            raise TypeError("outputs(only=…) needs the pages of a whole listing")
        if self.people is None:
            self.people = group_authors(papers, self.rules)
        parts = SiteParts(papers, group_tags(papers), self.people.people, only)
        self.fragments = {}
        beyond = []  # what pages show of papers they do not list, as each page type declares it (``PageType.shows``)
        for page_type in PAGE_TYPES:
            if page_type.shows is not None:
                shown = page_type.shows(self, parts)
                self.shared.update(shown.shared)
                beyond.append(shown.beyond)
        outputs = [output for page_type in PAGE_TYPES for output in page_type.outputs(self, parts)]
        # The sitemap's: the old addresses only lead elsewhere.
        self.pages = [output.path for output in outputs] if only is None else list(pages or ())
        if self.publication is not None:
            # .bib, feed and sitemap depend on every paper (deps None); each made when it is written.
            makers, chunks = self.publication.file_makers(self.pages), self.publication.file_chunks()
            outputs += [Output(name, makers[name], chunks=chunks.get(name))
                        for name in self.publication.file_names(self.pages)]
        outputs += self.redirect_pages(papers, only)
        if only is not None:
            outputs = [output for output in outputs if output.deps is None or not output.deps.isdisjoint(only)]
        return SiteListing(outputs, list(self.pages), (self.site, dict(self.shared), beyond))

    def outputs(self, papers: list[RenderedPaper], only: frozenset[str] | None = None,
                pages: list[str] | None = None) -> list[Output]:
        """``listing``'s files alone."""
        return self.listing(papers, only, pages).outputs

    def redirect_pages(self, papers: list[RenderedPaper], only: frozenset[str] | None = None) -> Iterator[Output]:
        """A page at each address a paper had before, leading to it (render/redirects.py)."""
        for path, paper in redirect_paths(papers):
            if only is not None and paper.paper.id not in only:
                continue
            target = quote(f"{paper.paper.slug}.html")
            render = functools.partial(self.render, "redirect.html", "../", paper=paper, target=target,
                                       canonical=self.site.volume.absolute(paper.url) or target)
            yield Output(path, render, ids_of((paper,)))

    def fixed_pages(self, papers: list[RenderedPaper]) -> Iterator[Output]:
        """The pages every site has once: 404.html, search.html, reading-list.html, papers.json and the
        search box's words."""
        yield Output("404.html", lambda: self.render("404.html", self._absolute_root()), PaperIds())
        yield Output("search.html", lambda: self.render("search.html", ""), PaperIds())
        if not self.site.series:  # a series has one reading list, at its root (series/pages.py)
            yield Output(READING_LIST, lambda: self.render("reading-list.html", ""), PaperIds())
        yield Output("papers.json", lambda: papers_json(papers), chunks=lambda: papers_json_chunks(papers))
        yield Output(SEARCH_MESSAGES, self.search_messages, PaperIds())

    def search_messages(self) -> bytes:
        """The script handing search.js, cite.js and reading-list.js their words: ``messages`` of
        _search_messages.html, _cite_messages.html and _reading_messages.html (JSON made safe for HTML by
        ``tojson``, and so for a script too): once for the volume, not in every page (issue 29)."""
        words = {name: self.env.get_template(template).module.messages  # type: ignore[attr-defined]
                 for name, template in (
            ("Search", "_search_messages.html"), ("Cite", "_cite_messages.html"),
            ("ReadingList", "_reading_messages.html"))}
        return "".join(f"globalThis.proceedings{name}Messages = {messages};\n"
                       for name, messages in words.items()).encode("utf-8")

    def home_pages(self, parts: SiteParts) -> Iterator[Output]:
        """The volume's contents (render/contents.py): every paper on the home page, or past
        ``contents.CONTENTS_PAPERS`` papers the home page's list of groups and a contents page for each group (or
        part, or run of small groups)."""
        papers, contents, only = parts.papers, parts.contents, parts.only
        awarded, tracks = awards_and_tracks(papers)
        if not contents.split:
            index = group_index([("index.html", contents.groups)])
            yield Output("index.html", functools.partial(self.render, "index.html", "", papers=papers,
                                                          groups=contents.groups, group_index=index,
                                                          award_count=awarded, tracks=tracks,
                                                          jsonld=jsonld.home(self.site.volume)), ids_of(papers), "list")
            return
        yield Output("index.html", functools.partial(self.render, "index.html", "", papers=(),
                                                      contents=contents.index, award_count=awarded,
                                                      jsonld=jsonld.home(self.site.volume)), PaperIds(),
                     "list")
        urls = [page.url for page in contents.pages]
        for number, page in enumerate(contents.pages):
            if not _shows(page.shown, only):
                continue
            render = functools.partial(self.render, "contents.html", "../", groups=page.groups, papers=page.papers,
                                       previous=urls[number - 1] if number else None,
                                       next=urls[number + 1] if number + 1 < len(urls) else None)
            yield Output(page.url, render, ids_of(page.shown), "list")

    def awards_page(self, papers: list[RenderedPaper]) -> Iterator[Output]:
        """``awards.html``: the papers with an award or a nomination (derive/groups.py); none when no paper has one."""
        awards = award_groups(papers)
        if awards:
            listed = [paper for _, awarded in awards for paper in awarded]
            yield Output(AWARDS, functools.partial(self.render, "awards.html", "", awards=awards, papers=listed),
                         ids_of(listed))

    def map_page(self, papers: list[RenderedPaper]) -> Iterator[Output]:
        """``map.html``: the papers where similar ones lie close (render/map_view.py); made from the whole volume."""
        if self.places is None or not self.site.has_map:
            return
        places, files = self.places, file_count(papers)

        @functools.cache
        def made() -> tuple[MapPlan, bytes]:
            # Made when the page or a points file is first rendered (serve: in the background after an edit).
            context = map_context(papers, places(papers), self.config.map, self.shared["tag_urls"],
                                  self.shared["session_names"])
            return plan_map(papers, context.pop("groups"),
                            lambda plan: self.render(MAP, "", **context, **plan.context()), files)

        yield Output(MAP, lambda: made()[1])
        for number in range(files):
            yield Output(file_path(number), functools.partial(lambda n: made()[0].files[n][1], number))

    def paper_pages(self, papers: list[RenderedPaper], only: frozenset[str] | None = None) -> Iterator[Output]:
        for index in range(len(papers)) if only is None else self._pages_showing(papers, only):
            paper = papers[index]
            previous = papers[index - 1] if index > 0 else None
            following = papers[index + 1] if index + 1 < len(papers) else None
            related = self.publication.related_ids(paper.paper.id) if self.publication else ()
            render = functools.partial(self._paper_page, paper, previous, following)
            yield Output(paper.url, render, PaperIds((*ids_of((previous, paper, following)), *related)), "page", paper)

    def _pages_showing(self, papers: list[RenderedPaper], only: frozenset[str]) -> list[int]:
        """The places of the paper pages that show one of the papers ``only``: theirs, their neighbours', and
        those whose related papers name one."""
        places = {index for index, paper in enumerate(papers) if paper.paper.id in only}
        places |= {index + step for index in places for step in (-1, 1) if 0 <= index + step < len(papers)}
        if self.publication is not None:
            naming = self.publication.naming(only)
            places |= {index for index, paper in enumerate(papers) if paper.paper.id in naming}
        return sorted(places)

    def _paper_page(self, paper: RenderedPaper, previous: RenderedPaper | None,
                    following: RenderedPaper | None) -> bytes:
        # Citations and meta tags are made here, when the page is rendered, not for every paper up front.
        extra = self.publication.paper_context(paper) if self.publication else {}
        return self.render("paper.html", "../", paper=paper, previous=previous, next=following, **extra)

    def citation_files(self, papers: list[RenderedPaper], only: frozenset[str] | None = None) -> Iterator[Output]:
        """Each paper's block (publish/reading_list.py): its citations as the volume's files have them and its
        abstract, which the reading list, the Cite box's downloads and a list's abstract toggles read (its
        manifest depends on the count of papers: deps None)."""
        if self.publication is None:
            return
        for path, held, make in reading_files(papers, self.publication, only):
            yield Output(path, make, ids_of(held) if held else None)

    def tag_pages(self, tag_pages: list[TagPage], only: frozenset[str] | None = None) -> Iterator[Output]:
        # The topic index shows names and counts only: a paper's text never changes it.
        yield Output("tags/index.html", functools.partial(self.render, "tags.html", "../", tags=tag_pages),
                     PaperIds(), "list")
        for page in tag_pages:
            if not _shows(page.papers, only):
                continue
            # "tags/foo.2.html": a dot never occurs in a slug, so page 2 of one tag is never another tag.
            stem = page.url.removesuffix(".html")
            for url, chunk, pagination in paginate(list(page.papers), self.config.papers_per_page, stem, ".",
                                                   weight=list_weight):
                render = functools.partial(self.render, "tag.html", "../", tag=page.tag, papers=chunk,
                                           count=len(page.papers), pagination=pagination,
                                           feed=page_feed(self.site.volume, page.url))
                yield Output(url, render, ids_of(chunk), "list")

    def author_pages(self, author_pages: list[Person[RenderedPaper]],
                     only: frozenset[str] | None = None) -> Iterator[Output]:
        """Only proceedings whose pages name authors have author pages and an author index."""
        if not author_pages:
            return
        for url, chunk, pagination in paginate(author_pages, AUTHORS_PER_PAGE, "authors/index"):
            render = functools.partial(self.render, "authors.html", "../", authors=chunk, pagination=pagination,
                                       count=len(author_pages))
            yield Output(url, render, ids_of(p for page in chunk for p in page.papers), "list")
        for page in author_pages:
            if not _shows(page.papers, only):
                continue
            stem = page.url.removesuffix(".html")
            for url, chunk, pagination in paginate(list(page.papers), self.config.papers_per_page, stem, ".",
                                                   weight=list_weight):
                render = functools.partial(self._author_page, page, url, chunk, pagination,
                                           person_link(page, self.people, self.site.volume))
                yield Output(url, render, ids_of(chunk), "list")

    def _author_page(self, page: Person[RenderedPaper], url: str, chunk: list[RenderedPaper], pagination: dict,
                     correction: str) -> bytes:
        # Its JSON-LD and feed are made here, when the page renders, not for every person while the site is
        # listed; ``correction`` needs the build's people (a template worker has none): made while listing.
        person = jsonld.author_page(page.name, page.orcid, page.affiliations, self.site.volume.absolute(url) or "")
        return self.render("author.html", "../", author=page, papers=chunk, count=len(page.papers),
                           pagination=pagination, jsonld=person, feed=page_feed(self.site.volume, page.url),
                           correction=correction)

    def programme_pages(self, papers: list[RenderedPaper], only: frozenset[str] | None = None) -> Iterator[Output]:
        """``programme.html`` and the calendar files (render/programme.py), when the programme has a time."""
        made = self.programme
        if made is None or made.shown is None:
            return
        for path, render, deps in programme_files(self, papers, made.programme, made.shown, only):
            yield Output(path, render, deps)

    def _absolute_root(self) -> str:
        """404.html is served at any depth, so its links start from the site's path."""
        return self.config.base_path
