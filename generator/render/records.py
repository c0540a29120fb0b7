"""papers.json: the machine-readable list of papers, one record a paper (a series' index is made from it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

from generator.model.details import author_fields
from generator.model.paper import DETAILS, RenderedPaper
from generator.text.jsontext import spaced_text


def papers_json(papers: list[RenderedPaper]) -> bytes:
    """The machine-readable list of papers, in proceedings order."""
    return b"".join(papers_json_chunks(papers))


def papers_json_chunks(papers: list[RenderedPaper]) -> Iterator[bytes]:
    """``papers_json``'s bytes a paper at a time, as the build writes them: at 50,000 papers the file is 75 MB,
    which made whole (its lines, then the joined bytes) was the render stage's peak of memory (issue 43)."""
    # One paper per line: readable in a diff. Each line is encoded on its own, so that the papers
    # never exist as one str (4 bytes a character once a single one lies beyond U+FFFF).
    before = b"[\n"
    for paper in papers:
        yield before + json_line(paper_record(paper))
        before = b",\n"
    yield b"\n]\n" if papers else b"[\n\n]\n"


def paper_record(p: RenderedPaper) -> dict[str, Any]:
    """A paper as papers.json holds it."""
    return {
        "id": p.paper.id,
        "slug": p.paper.slug,
        "order": p.paper.order,
        "title": p.title_plain,
        "url": quote(p.url),  # a URL: a CJK slug percent-encoded, as sitemap.xml and the feed have it
        "tags": list(p.paper.tags),
        "abstract": p.abstract_plain,
        **_details_json(p),
        **p.paper.corrections.as_json(),  # retracted, erratum, versions: only those the paper has
    }


def json_line(record: dict[str, Any]) -> bytes:
    return spaced_text(record).encode("utf-8")


def _details_json(paper: RenderedPaper) -> dict[str, Any]:
    """Authors always (a list, maybe empty); the other details only when the paper has them."""
    details = paper.details
    record: dict[str, Any] = {"authors": [author_fields(author) for author in details.authors]}
    for field in PUBLIC_DETAILS:
        value = getattr(details, field.name)
        if value and field.kind == "labelled":
            record[field.name] = [{"label": label, "link": link} for label, link in value]
        elif value:
            record[field.name] = list(value) if isinstance(value, tuple) else value
    return record


# What papers.json carries beside the authors, in the schema's order.
PUBLIC_DETAILS = tuple(field for field in DETAILS if field.public and field.kind != "authors")
