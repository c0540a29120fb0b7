"""The context each page template gets, one TypedDict per template (as MkDocs' ``TemplateContext``).

Each field says what it holds (``Annotated[type, description]``); docs/themes.md's variable tables are made
from these (``python -m generator.render.contexts`` writes them in), and tests/test_contexts.py keeps the two
equal and checks that every page type hands its template exactly the variables its TypedDict names.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NotRequired, TypedDict, get_origin, get_type_hints

from markupsafe import Markup

from generator.derive.people import Person
from generator.model.paper import RenderedPaper, Tag
from generator.render.partials import (
    PaperPartial,
    PaperDetailsPartial,
    PaperItemPartial,
    PaperListPartial,
    PaginationPartial,
    GroupsPartial,
    ContentsGroupsPartial,
    ProgrammePartial,
    ReadingListPartial,
    WhenPartial,
    SearchPartial,
    ChartPartial,
    RootPartial,
)
from generator.render.people_topics import TagPage
from generator.render.site_info import SiteInfo


class PageContext(TypedDict):
    """What every template sees."""

    site: Annotated[SiteInfo, (
        "the proceedings: `site.title`, `site.description` (may be empty), `site.language` (the config's "
        'tag, for `lang`), `site.base_url` (may be empty), `site.date` (`YYYY-MM-DD` or empty), '
        '`site.paper_count`, `site.author_count` (people with an author page; 0 when no page names its '
        "authors), `site.version` (of Proceedings), `site.short_title` (the header's name: the config's "
        "`short_title`, else the @proceedings' short name and year, else the title), `site.volume` (the "
        "Volume: `.number`, `.venue` — empty when it is the title —, `.place`, `.days` — the meeting's "
        'first and last days, or none —, `.editors`, `.source`), `site.series` (in a volume of an '
        "series: the series' title, whose home is `{{ root }}../index.html`; else empty)")]
    root: Annotated[str, (
        'the way back to the site\'s root from this page: `""`, `"../"`, or on `404.html` the absolute '
        'path of the site (`/repo/`). Write every link as `{{ root }}path`, so the site works from disk, '
        'from a server and under a GitHub Pages project path')]
    feed_url: Annotated[str, (
        '`"feed.xml"` when the site has a feed (the config has a `date`), else `""`')]
    interface_language: Annotated[str, (
        "the language of the interface text: `en`, or the catalogue's (`zh-Hans-CN`)")]
    programme: NotRequired[Annotated[Any, (
        "the volume's programme when a session has a time, else none (render/programme.py): `days` (each "
        "`date`, `label`, `anchor`, `sessions`), `sessions` (key → session), `zone` (IANA), `zone_name`, "
        "`of_paper(id)` (a paper's sessions), `calendars` (paper id → its .ics), `by_name` (a session's name as "
        "the papers write it → its key). A session has `key` (its anchor on programme.html), `title`, `room`, "
        "`chair`, `category`, `description`, `papers` (ids), `start`/`end` (ISO 8601 for `<time datetime>`), "
        "`date`, `start_clock`, `end_clock`, `zone`, `zone_name` (the venue's clock), `instant`, `day`/`time` "
        "(untimed, as written) and `calendar` (its .ics)")]]


class IndexContext(TypedDict):
    """What ``index.html`` sees beside every template's."""

    papers: Annotated[Sequence[RenderedPaper], (
        'every paper on the page, in proceedings order (none when the volume is split)')]
    groups: NotRequired[Annotated[list[Any], (
        'the groups on the page, in the programme\'s order: each has `name` (`""` for the papers that name'
        ' no group, shown as "Other papers"), `kind` (`section`, `sessions`, `track` or `topic`), '
        "`anchor` (its heading's id), `papers` (listed here: a paper in several sessions is listed once, "
        'under its first), `also` (the papers in it listed under an earlier group), `count` (both), '
        '`when` (the `(field, value)` pairs of `day`, `time`, `room` that all its papers share), `start` '
        "(its first paper's number), and `part`, `parts` (a group cut into parts: 2 of 3)")]]
    group_index: NotRequired[Annotated[list[tuple[str, str]], (
        '`(name, link)` of each group, for the index at the top (shown when there are two or more)')]]
    contents: NotRequired[Annotated[list[Any], (
        'only when the volume is split: each group as `name`, `kind`, `count` (its papers) and `links` '
        '(where each of its parts is, from the root: `contents/<page>.html#<anchor>`)')]]
    award_count: Annotated[int, (
        'the papers with an award or a nomination (the count line links `awards.html` when there is one)')]
    jsonld: NotRequired[Annotated[Markup, (
        'the proceedings (a `PublicationVolume`) and their meeting (an `Event`, `recordedAt`) as schema.org '
        'JSON-LD (publish/jsonld.py), ready for a `<script type="application/ld+json">`')]]
    tracks: NotRequired[Annotated[list[str], (
        "the papers' tracks, in the order the volume names them: with two or more, a hidden "
        '`.track-filter` `<select>` that `assets/track-filter.js` shows and applies (an item names its '
        'tracks in `data-track`, `a\\|b`)')]]


class ContentsContext(TypedDict):
    """What ``contents.html`` sees beside every template's."""

    groups: Annotated[list[Any], (
        "the groups (or parts) on this page, as `index.html`'s")]
    papers: Annotated[Sequence[RenderedPaper], (
        'the papers it lists, in order (a paper in two sessions once, under its first)')]
    previous: Annotated[Any, (
        'the paths of the contents pages before and after it, or `none`')]
    next: Annotated[Any, (
        'the paths of the contents pages before and after it, or `none`')]


class PaperContext(TypedDict):
    """What ``paper.html`` sees beside every template's."""

    paper: Annotated[RenderedPaper, (
        'the paper')]
    previous: Annotated[Any, (
        'the papers before and after it in the proceedings, or `none` at either end')]
    next: Annotated[Any, (
        'the papers before and after it in the proceedings, or `none` at either end')]
    meta: Annotated[list[Any], (
        'its Google Scholar (`citation_*`) and Open Graph meta tags: each has `attribute` (`name` or '
        '`property`), `key` and `content`; `og:description` is not among them: `base.html` gives the '
        'page\'s description tag both names (`name="description" property="og:description"`) when `meta` '
        'is defined')]
    bibtex: Annotated[str, (
        'its BibTeX entry, as text')]
    apa: Annotated[Markup, (
        "its reference in APA style, as HTML (the proceedings' title in `<i>`, everything else escaped "
        'text)')]
    related: Annotated[Sequence[RenderedPaper], (
        'a few papers with similar titles and abstracts (may be empty)')]
    jsonld: Annotated[Markup, (
        'the paper (a `ScholarlyArticle`: its authors, date, DOI, and the proceedings it is part of) as '
        'schema.org JSON-LD (publish/jsonld.py), ready for a `<script type="application/ld+json">`: no `<` or '
        '`&` in it, so it cannot end the script')]
    correction: Annotated[str, (
        '"Suggest a correction": the address of an issue form in the site\'s `repository`, filled with the '
        "paper's record, else a `mailto:` to the volume's `contact`, else `\"\"` (publish/suggest.py)")]


class TagContext(TypedDict):
    """What ``tag.html`` sees beside every template's."""

    tag: Annotated[Tag, (
        'the topic: `tag.name`, `tag.slug`')]
    papers: Annotated[Sequence[RenderedPaper], (
        "the topic's papers on this page")]
    count: Annotated[int, (
        'how many papers the topic has in all')]
    pagination: Annotated[dict[str, Any], (
        'as above')]
    feed: Annotated[str, (
        "the topic's Atom feed from the root (`tags/<slug>.xml`), or `\"\"` when the volume has no date")]


class TagsContext(TypedDict):
    """What ``tags.html`` sees beside every template's."""

    tags: Annotated[list[TagPage], (
        'every topic, by name; each has `tag` (`name`, `slug`), `papers` (all its papers) and `url`')]


class AuthorContext(TypedDict):
    """What ``author.html`` sees beside every template's."""

    author: Annotated[Person[RenderedPaper], (
        'the person: `name` (as most often written), `names` (every spelling, with counts), `slug`, '
        '`url`, `affiliations` (as the papers give them), `orcid` (may be empty), `papers` (all of them)')]
    papers: Annotated[Sequence[RenderedPaper], (
        "the author's papers on this page, in proceedings order")]
    count: Annotated[int, (
        'how many papers the author has in all')]
    pagination: Annotated[dict[str, Any], (
        'as above')]
    jsonld: Annotated[Markup, (
        'the person (a `Person`: name, affiliations, ORCID as `sameAs`) as schema.org JSON-LD '
        '(publish/jsonld.py), ready for a `<script type="application/ld+json">`')]
    feed: Annotated[str, (
        "the author's Atom feed from the root (`authors/<slug>.xml`), or `\"\"` when the volume has no date")]
    correction: Annotated[str, (
        '"Suggest a correction": as on `paper.html`, with the person\'s name and ORCID in each of their papers')]


class AuthorsContext(TypedDict):
    """What ``authors.html`` sees beside every template's."""

    authors: Annotated[list[Person[RenderedPaper]], (
        'the authors on this page, each as `author` above')]
    count: Annotated[int, (
        'how many authors there are in all')]
    pagination: Annotated[dict[str, Any], (
        'as above')]


class AwardsContext(TypedDict):
    """What ``awards.html`` sees beside every template's."""

    awards: Annotated[list[Any], "(heading, papers) of each award and nomination, awards first"]
    papers: Annotated[Sequence[RenderedPaper], "every paper on the page, in the order listed"]


class ProgrammeContext(TypedDict):
    """What ``programme.html`` sees beside every template's (and ``programme``, which every template sees)."""

    papers_by_id: Annotated[dict[str, RenderedPaper], (
        "every paper by its id: `programme.papers_of(session, papers_by_id)` gives a session's papers in its "
        "order")]
class MapContext(TypedDict):
    """What ``map.html`` sees beside every template's (render/map_view.py)."""

    map_width: Annotated[int, "the drawing's width in its own units (the SVG's `viewBox`; places are whole units)"]
    map_height: Annotated[int, "the drawing's height, in the same units"]
    colour_by: Annotated[str, '`"topics"`, `"sessions"` or `""` (one colour): what the marks\' colours say']
    groups: Annotated[list[Any], (
        "the legend's groups, the most common first: each has `number` (1–9, the class `m1`…`m9`; 0 for the "
        "papers of no listed group, last), `name` (the topic or session; empty for the rest), `url` (a "
        "topic's page, or empty), `marks`, each with `x`, `y`, `url` (the paper's page) and `title` (plain), and "
        "`drawn`: the marks the page draws itself (render/map_points.py; map.js draws the others)")]
    clusters: Annotated[list[Any], (
        "the drawing's clusters, largest first: each has `label` (its most telling topic, else two words of "
        "its titles), `url` (the label's topic page, or empty), `x`, `y` (its centre), `count` and `papers` "
        "(its most central three)")]
    unplaced: Annotated[Sequence[RenderedPaper], (
        "the papers a venue's `papers_projection.json` leaves out and nothing placed (listed under the map), "
        "the first 100 of them")]
    unplaced_count: Annotated[int, "how many papers are not on the map (the contents list them all)"]
    map_drawn: Annotated[int, "how many marks the page draws itself: all that fit its 100 KB"]
    map_count: Annotated[int, "how many marks the map has in all"]
    map_files: Annotated[list[str], (
        "the points files holding every mark (`map/points-N.js`, from the volume's root; map.js draws from them "
        "the marks the page does not); empty when the page draws every mark")]


class RedirectContext(TypedDict):
    """What ``redirect.html`` sees beside every template's."""

    paper: Annotated[RenderedPaper, "the paper it leads to"]
    target: Annotated[str, "its page, relative to this one, encoded"]
    canonical: Annotated[str, "its absolute address with a base URL, else `target`"]


class SeriesContext(TypedDict):
    """What every page of a series sees beside every template's (``site`` is the series)."""

    series: Annotated[SiteInfo, "the series, as `site` (the name themes written before gave it)"]
    volumes: Annotated[list[Any], "the volumes, newest first (series/layout.py's SeriesVolume)"]
    search_volumes: Annotated[list[dict[str, str]], "each volume's `path` and `title`, for the search box"]


class PeopleContext(SeriesContext):
    """What ``people.html`` sees."""

    people: Annotated[list[Person], "this page's people"]
    count: Annotated[int, "every person of the series"]
    pagination: Annotated[dict[str, Any], "this page's place among the index's pages"]


class PersonContext(SeriesContext):
    """What ``person.html`` sees."""

    person: Annotated[Person, "the person across volumes"]
    jsonld: Annotated[Markup, (
        'the person (a `Person`: name, affiliations, ORCID as `sameAs`) as schema.org JSON-LD '
        '(publish/jsonld.py), ready for a `<script type="application/ld+json">`')]
    feed: Annotated[str, "the person's Atom feed across the volumes (`people/<slug>.xml`), or `\"\"` when no volume of "
                         "theirs has a date"]
    correction: Annotated[str, '"Suggest a correction": as on an author page, naming each paper by its volume\'s '
                               "folder, or `\"\"` without the series' `repository` or `contact`"]



class GlanceContext(TypedDict):
    """What ``glance.html`` sees beside every template's."""

    charts: Annotated[list[Any], (
        "the charts of categories the papers carry, in this order: `topics`, `sections`, `sessions`, `tracks`, "
        "`days`, `affiliations` (render/glance.py's BarChart): each has `kind`, `linked` (a bar leads to a page), "
        "`height` (px), `bars` (each with `count` — `name` as written, `value` papers, `link` from the root or "
        '`""` —, `width` in %, and `label_y`, `bar_y`, `value_y` in px) and `tally` (`shown`, `categories`, '
        "`hidden` and `others`: the categories not shown and their papers, `without`: the papers naming none, "
        "`ordered`: in the programme's order, `largest`)")]
    histogram: Annotated[Any, (
        "authors per paper (render/glance.py's ColumnChart), or `none` when no paper names an author: `columns` "
        "(each with `label` — `3`, `12+` —, `value` papers, `x`, `width`, `middle` in %, `top`, `height` in "
        "px), `baseline`, `height`, `median`, `mean`")]


class SeriesGlanceContext(SeriesContext):
    """What ``series-glance.html`` sees."""

    charts: Annotated[list[Any], "papers per volume (`volumes`), then the people in two volumes or more "
                                 "(`people`: `value` their volumes, `extra` their papers), as `glance.html`'s"]
    people_count: Annotated[int, "every person of the series"]


class EmptyContext(TypedDict):
    """A page that sees only what every template sees."""


# The partials' contexts are in partials.py: what each needs of the template that includes it.
PARTIALS: dict[str, type] = {
    "_authors_line.html": PaperPartial, "_paper_details.html": PaperDetailsPartial,
    "_corrections.html": PaperDetailsPartial, "_paper_item.html": PaperItemPartial,
    "_paper_list.html": PaperListPartial, "_pagination.html": PaginationPartial,
    "_contents_title.html": GroupsPartial, "_contents_groups.html": ContentsGroupsPartial,
    "_programme.html": ProgrammePartial, "_search.html": SearchPartial, "_volume_cite.html": RootPartial,
    "_chart.html": ChartPartial,
    "_when.html": WhenPartial,
    # Words only: they read nothing of the page.
    "_cite_messages.html": EmptyContext, "_link_labels.html": EmptyContext, "_reading_list.html": ReadingListPartial,
    "_reading_messages.html": EmptyContext, "_search_messages.html": EmptyContext,
}

# Each page template → its context beside ``PageContext``.
CONTEXTS: dict[str, type] = {
    "index.html": IndexContext, "contents.html": ContentsContext, "paper.html": PaperContext,
    "tag.html": TagContext, "tags.html": TagsContext, "author.html": AuthorContext, "authors.html": AuthorsContext,
    "awards.html": AwardsContext, "redirect.html": RedirectContext, "404.html": EmptyContext,
    "programme.html": ProgrammeContext,
    "search.html": EmptyContext, "reading-list.html": EmptyContext, "series.html": SeriesContext,
    "series-search.html": SeriesContext, "series-reading-list.html": SeriesContext, "people.html": PeopleContext,
    "person.html": PersonContext, "glance.html": GlanceContext, "series-glance.html": SeriesGlanceContext,
    "map.html": MapContext,
}
# The tables of docs/themes.md: its heading → the context and the table's first column's name.
DOCUMENTED: dict[str, tuple[type, str]] = {
    "Every template": (PageContext, "name"), "`index.html`": (IndexContext, "variable"),
    "`contents.html`": (ContentsContext, "variable"), "`paper.html`": (PaperContext, "variable"),
    "`tag.html`": (TagContext, "variable"), "`tags.html`": (TagsContext, "variable"),
    "`author.html`": (AuthorContext, "variable"), "`authors.html`": (AuthorsContext, "variable"),
    "`glance.html`": (GlanceContext, "variable"), "`series-glance.html`": (SeriesGlanceContext, "variable"),
    "`programme.html`": (ProgrammeContext, "variable"),
    "`map.html`": (MapContext, "variable"),
}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "themes.md"


def variables(context: type) -> dict[str, str]:
    """Each variable of a context → what it holds."""
    hints = get_type_hints(context, include_extras=True)
    return {name: _description(hint) for name, hint in hints.items()}


def required(context: type) -> set[str]:
    """The variables a context always holds (not ``NotRequired``: this module's annotations are strings, which
    ``__required_keys__`` cannot read)."""
    hints = get_type_hints(context, include_extras=True)
    return {name for name, hint in hints.items() if get_origin(hint) is not NotRequired}


def _description(hint: Any) -> str:
    while not hasattr(hint, "__metadata__"):  # NotRequired[Annotated[…]]
        hint = hint.__args__[0]
    return str(hint.__metadata__[0])


def table(context: type, first: str) -> str:
    """The context as docs/themes.md's table: one row per variable, those with one description on one row."""
    rows: list[tuple[list[str], str]] = []
    for name, description in variables(context).items():
        if rows and rows[-1][1] == description:
            rows[-1][0].append(name)
        else:
            rows.append(([name], description))
    lines = [f"| {first} | what it is |", "|---|---|"]
    lines += [f"| {', '.join(f'`{name}`' for name in names)} | {description} |" for names, description in rows]
    return "\n".join(lines) + "\n"


def documented(text: str) -> str:
    """docs/themes.md's text with each table of ``DOCUMENTED`` made from its context."""
    for heading, (context, first) in DOCUMENTED.items():
        section = re.compile(rf"(^### {re.escape(heading)}\n(?:(?!^#).*\n)*?)"  # the heading, then prose
                             rf"^\| {first} \| what it is \|\n(?:^\|.*\n)+", re.M)  # the table, to its end
        match = section.search(text)
        if match is None:
            raise ValueError(f"docs/themes.md has no table under {heading}")
        text = text[:match.start()] + match.group(1) + table(context, first) + text[match.end():]
    return text


if __name__ == "__main__":  # python -m generator.render.contexts: write the tables into docs/themes.md
    docs = Path(sys.argv[1]) if len(sys.argv) > 1 else DOCS
    docs.write_text(documented(docs.read_text(encoding="utf-8")), encoding="utf-8")
