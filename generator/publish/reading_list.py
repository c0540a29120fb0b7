"""Each paper's block: what the reading list, the Cite box and a list's abstract toggles read of a volume's
papers (issue 31; themes/default/static/reading-list.js), in small scripts under ``assets/reading/`` loaded
by script tag when a reader shows, exports, downloads or opens one: no fetch(), so that it works from
file://, and no list page carries more than a mark on each item.

A reader's list holds papers by slug (``<volume folder>/<slug>`` in a series: unambiguous across its
volumes), since the slug is what every list item, search result and paper page knows. A paper's block is
chosen by a hash of its slug among a number of files that grows in powers of two with the volume (about
``PER_FILE`` papers each): adding a paper moves no other paper to another file. ``manifest.js`` tells the
script how many files there are and the volume's title.

Each paper's record holds what the list shows (authors, page; the title is the CSL item's), its citations as
the volume's files have them (its BibTeX entry, RIS record and CSL-JSON item: ``b``, ``r``, ``c``) and its
abstract, written once (issue 29): ``p``, the plain text, which the RIS record's ``AB`` line holds as
``ABSTRACT`` when it says the same words (a control character: ris.one_line drops every one, so no RIS value
holds it) and which the script adds to a CSL item it exports (the volume's ``proceedings.csl.json`` has none:
csl.py); ``h``, the abstract's HTML as the paper's page shows it, only when that is more than ``p`` in one
paragraph (math, emphasis, several paragraphs): a list's toggle shows ``h``, else ``p`` as a paragraph.
"""

from __future__ import annotations

import html
import zlib
from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING, Any

from generator.model.paper import RenderedPaper
from generator.search.payload import data_script

from .csl import csl_item
from .ris import one_line, ris_record

if TYPE_CHECKING:
    from . import Publication

FOLDER = "assets/reading"
MANIFEST = f"{FOLDER}/manifest.js"
CALLBACK = "proceedingsReadingList.arrived"
STEM = "r"
PER_FILE = 8  # papers a file holds on average: opening one abstract loads about 8 papers' records
ABSTRACT = "\x01"  # in an RIS record: the record's plain abstract, ``p`` (reading-list.js, recordOf)


def file_count(papers: int) -> int:
    """How many blocks a volume of ``papers`` has: a power of two, about ``PER_FILE`` papers each."""
    count = 1
    while count * PER_FILE < papers:
        count *= 2
    return count


def file_of(slug: str, count: int) -> str:
    """The name of the block (no folder, no suffix) that holds the paper ``slug`` (reading-list.js, crc32)."""
    return f"{STEM}{zlib.crc32(slug.encode('utf-8')) % count}"


def record(paper: RenderedPaper, publication: Publication) -> dict[str, Any]:
    reference = publication.references[paper.paper.id]
    found = {"a": [author.name for author in paper.details.authors], "u": paper.url,
             "b": publication.bibtex[paper.paper.id], "r": _abstract_once(ris_record(reference), reference.abstract),
             "c": csl_item(reference)}
    if reference.abstract:
        found["p"] = reference.abstract
    if paper.abstract_html and not is_plain_paragraph(paper.abstract_html, paper.abstract_plain):
        found["h"] = paper.abstract_html
    return found


def is_plain_paragraph(abstract_html: str, plain: str) -> bool:
    """Whether the abstract's HTML is its plain text in one paragraph, as a browser shows it (white space
    collapsed): then a toggle makes the paragraph from ``p``, and the HTML is not written again."""
    if not (abstract_html.startswith("<p>") and abstract_html.endswith("</p>\n")):
        return False
    inner = abstract_html[3:-5]
    return "<" not in inner and html.unescape(inner).replace("\n", " ") == plain


def _abstract_once(ris: str, abstract: str) -> str:
    """The RIS record with its abstract as ``ABSTRACT`` when the plain abstract is what its ``AB`` line says
    (an abstract of one paragraph: RIS writes every value on one line)."""
    if not abstract or one_line(abstract) != abstract:
        return ris
    return ris.replace(f"\r\nAB  - {abstract}\r\n", f"\r\nAB  - {ABSTRACT}\r\n", 1)


def reading_files(papers: list[RenderedPaper], publication: Publication, only: Collection[str] | None = None
                  ) -> Iterator[tuple[str, list[RenderedPaper], Callable[[], bytes]]]:
    """(path, the papers it holds, a function making its bytes) of every block, then the manifest (no papers);
    given ``only`` (paper ids), of the blocks that hold one of those papers, then the manifest."""
    count = file_count(len(papers))
    wanted = None if only is None else {file_of(p.slug, count) for p in papers if p.paper.id in only}
    held: dict[str, list[RenderedPaper]] = {}
    for paper in papers:
        name = file_of(paper.slug, count)
        if wanted is None or name in wanted:
            held.setdefault(name, []).append(paper)
    for name in sorted(held, key=lambda n: int(n[len(STEM):])):
        yield f"{FOLDER}/{name}.js", held[name], _maker(name, held[name], publication)
    title = publication.volume.title
    yield MANIFEST, [], lambda: data_script(CALLBACK, "manifest", {"files": count, "title": title})


def _maker(name: str, papers: list[RenderedPaper], publication: Publication) -> Callable[[], bytes]:
    return lambda: data_script(CALLBACK, name, {p.slug: record(p, publication) for p in papers})
