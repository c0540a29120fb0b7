"""What the reading list (issue 31; themes/default/static/reading-list.js) needs of a volume's papers, in
small scripts under ``assets/reading/`` that it loads by script tag when it shows or exports a paper: no
fetch(), so that it works from file://, and no list page carries more than each item's slug.

A reader's list holds papers by slug (``<volume folder>/<slug>`` in a series: unambiguous across its
volumes), since the slug is what every list item, search result and paper page knows. A paper's block is
chosen as a list's abstracts are (render/abstracts.py: a hash among a power of two of files, about 8
papers each), by its slug; ``manifest.js`` tells the script how many files there are and the volume's title.
Each paper's record holds what the list shows (title, authors, page) and its citations as the volume's
files have them (its BibTeX entry, RIS record and CSL-JSON item), so that an export says what
``proceedings.bib``, ``.ris`` and ``.csl.json`` say. The abstract, the bulk of a record, is written once: an
RIS ``AB`` line that says what the CSL item's ``abstract`` says holds ``ABSTRACT`` in its place, which
the script puts back (a control character: ris.one_line drops every one, so no RIS value holds it).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING, Any

from generator.model.paper import RenderedPaper
from generator.render.abstracts import file_count, file_of
from generator.search.payload import data_script

from .csl import csl_item
from .ris import one_line, ris_record

if TYPE_CHECKING:
    from . import Publication

FOLDER = "assets/reading"
MANIFEST = f"{FOLDER}/manifest.js"
CALLBACK = "proceedingsReadingList.arrived"
STEM = "r"
ABSTRACT = "\x01"  # in an RIS record: the CSL item's abstract (reading-list.js, recordOf)


def record(paper: RenderedPaper, publication: Publication) -> dict[str, Any]:
    reference = publication.references[paper.paper.id]
    item = csl_item(reference)
    return {"t": paper.title_plain, "a": [author.name for author in paper.details.authors], "u": paper.url,
            "b": publication.bibtex[paper.paper.id], "r": _abstract_once(ris_record(reference), item), "c": item}


def _abstract_once(ris: str, item: dict[str, Any]) -> str:
    """The RIS record with its abstract as ``ABSTRACT`` when the CSL item holds the same words (an
    abstract of one paragraph: RIS writes every value on one line)."""
    abstract = item.get("abstract", "")
    if not abstract or one_line(abstract) != abstract:
        return ris
    return ris.replace(f"\r\nAB  - {abstract}\r\n", f"\r\nAB  - {ABSTRACT}\r\n", 1)


def reading_files(papers: list[RenderedPaper], publication: Publication, only: Collection[str] | None = None
                  ) -> Iterator[tuple[str, list[RenderedPaper], Callable[[], bytes]]]:
    """(path, the papers it holds, a function making its bytes) of every block, then the manifest (no papers);
    given ``only`` (paper ids), of the blocks that hold one of those papers, then the manifest."""
    count = file_count(len(papers))
    wanted = None if only is None else {file_of(p.slug, count, STEM) for p in papers if p.paper.id in only}
    held: dict[str, list[RenderedPaper]] = {}
    for paper in papers:
        name = file_of(paper.slug, count, STEM)
        if wanted is None or name in wanted:
            held.setdefault(name, []).append(paper)
    for name in sorted(held, key=lambda n: int(n[len(STEM):])):
        yield f"{FOLDER}/{name}.js", held[name], _maker(name, held[name], publication)
    title = publication.volume.title
    yield MANIFEST, [], lambda: data_script(CALLBACK, "manifest", {"files": count, "title": title})


def _maker(name: str, papers: list[RenderedPaper], publication: Publication) -> Callable[[], bytes]:
    return lambda: data_script(CALLBACK, name, {p.slug: record(p, publication) for p in papers})
