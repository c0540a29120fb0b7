"""A volume's topic pages and author pages: which there are, and where each is (``SiteRenderer`` lists them)."""

from __future__ import annotations

from dataclasses import dataclass

from generator.derive.people import People, Rules, group, name_key
from generator.model.paper import RenderedPaper, Tag
from generator.text.slugs import list_page_name, slugify, unique


@dataclass(frozen=True)
class TagPage:
    tag: Tag
    papers: tuple[RenderedPaper, ...]

    @property
    def url(self) -> str:
        return f"tags/{self.tag.slug}.html"


def group_tags(papers: list[RenderedPaper]) -> list[TagPage]:
    """One page per tag, in name order, papers in proceedings order. Names that differ only in case
    ("Privacy", "privacy") are one topic, named as the first paper spells it."""
    members: dict[str, list[RenderedPaper]] = {}
    spelling: dict[str, str] = {}
    for paper in papers:
        for name in paper.paper.tags:
            listed = members.setdefault(name.casefold(), [])
            if not listed or listed[-1] is not paper:  # "Privacy" and "privacy" on one paper: listed once
                listed.append(paper)
            spelling.setdefault(name.casefold(), name)
    taken: set[str] = set()
    pages = []
    for key in sorted(members, key=lambda k: (k, spelling[k])):
        slug = slugify(spelling[key])
        if list_page_name(slug):  # tags/index.html is the topic index
            slug = f"topic-{slug}"
        slug = unique(slug, taken)
        taken.add(slug)
        pages.append(TagPage(Tag(spelling[key], slug), tuple(members[key])))
    return pages


def group_authors(papers: list[RenderedPaper], rules: Rules | None = None) -> People[RenderedPaper]:
    """One page per person (derive/people.py: ORCID, then id, then the name), sorted by family name; each
    person's papers in proceedings order."""
    return group(((paper, paper.details.authors) for paper in papers), rules, "authors")


def author_urls(people: People) -> dict[str, str]:
    """Each author's own key (people.own_key) → the page of the person it belongs to; each spelling's
    name key too, for ``author_url(name)``, to the first person written so."""
    urls = {key: person.url for key, person in people.by_own_key.items()}
    for person in people.people:
        for name in person.names:
            urls.setdefault(name_key(name, people.rules), person.url)
    return urls


def tag_urls(papers: list[RenderedPaper]) -> dict[str, str]:
    """Every spelling of a topic name the papers use → its page."""
    urls = {page.tag.name.casefold(): page.url for page in group_tags(papers)}
    return {name: urls[name.casefold()] for paper in papers for name in paper.paper.tags}
