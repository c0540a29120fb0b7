"""What each partial template needs of the template that includes it (its context is the includer's): one
TypedDict per partial, beside the pages' in contexts.py, which lists them in ``PARTIALS``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, NotRequired, TypedDict

from generator.model.paper import RenderedPaper
from generator.render.site_info import SiteInfo


class PaperPartial(TypedDict):
    """``_authors_line.html``: the names under a title in a list."""

    paper: Annotated[RenderedPaper, "the paper"]


class PaperDetailsPartial(PaperPartial):
    """``_paper_details.html`` and ``_corrections.html``: on a paper's page."""

    root: Annotated[str, "the way back to the site's root"]


class PaperItemPartial(PaperDetailsPartial):
    """``_paper_item.html``: a paper in a list."""

    heading: NotRequired[Annotated[str, "the tag of its title (`h3` under a group's heading), else `h2`"]]
    show_tags: NotRequired[Annotated[bool, "whether it shows its topics"]]


class PaperListPartial(TypedDict):
    """``_paper_list.html``: the numbered list of the topic and author pages."""

    papers: Annotated[Sequence[RenderedPaper], "the papers on the page"]
    pagination: Annotated[dict[str, Any], "the page's place among the list's pages"]
    root: Annotated[str, "the way back to the site's root"]
    heading: NotRequired[Annotated[str, "the tag of each title"]]
    show_tags: NotRequired[Annotated[bool, "whether each paper shows its topics"]]


class PaginationPartial(TypedDict):
    """``_pagination.html``: the links to a list's other pages."""

    pagination: Annotated[dict[str, Any], "the page's place among the list's pages"]
    root: Annotated[str, "the way back to the site's root"]


class GroupsPartial(TypedDict):
    """``_contents_title.html``: the contents' groups."""

    groups: Annotated[list[Any], "the groups on the page"]


class ContentsGroupsPartial(GroupsPartial):
    """``_contents_groups.html``: the papers of a contents page under their groups."""

    grouped: Annotated[bool, "whether the groups have headings"]
    root: Annotated[str, "the way back to the site's root"]


class ProgrammePartial(TypedDict):
    """``_programme.html``: a group's and a session's names, times and rooms."""

    root: Annotated[str, "the way back to the site's root"]
    group_links: Annotated[dict[str, str], "a group's name → its heading in the contents"]
    session_names: Annotated[dict[str, str], "a session's id → its words"]
    programme: Annotated[Any, "the volume's programme, or none: where a session's name links to"]


class ReadingListPartial(TypedDict):
    """``_reading_list.html``: the reading list's page body, with "My programme" when there is one."""

    site: Annotated[SiteInfo, "the volume or series (its title names the reader's calendar)"]
    programme: Annotated[Any, "the volume's programme, or none"]
    schedule: NotRequired[Annotated[bool, "true on a series' page: its volumes may have programmes"]]


class WhenPartial(TypedDict):
    """``_when.html``: a session's time (`span(session)`) and the choice of clock (`choice(zone)`); it reads
    nothing of the page but what the macros are given."""


class SearchPartial(TypedDict):
    """``_search.html``: the search box of every page's header."""

    root: Annotated[str, "the way back to the site's root"]
    volumes: NotRequired[Annotated[list[Any], "a series' volumes (its box's filter)"]]
    search_volumes: NotRequired[Annotated[list[dict[str, str]], "a series' volumes, for `data-volumes`"]]


class ChartPartial(TypedDict):
    """``_chart.html``: the charts' macros (imported with the page's context)."""

    root: Annotated[str, "the way back to the site's root"]


class RootPartial(TypedDict):
    """``_volume_cite.html``: the volume's citation files."""

    root: Annotated[str, "the way back to the site's root"]
