"""The abstracts a list page opens in place (issue 29), kept out of the list pages themselves.

A list item (the home, topic, session and author pages) carries its paper's title, authors and links;
its "Abstract" toggle is filled, when a reader opens it, from a small script under
``assets/abstracts/`` (themes/default/static/contents.js injects it: a script, since fetch() is refused
from file://). So a volume of 1,000 papers fits one contents page, and a paper's abstract is written
once beside its own page, not again on every list that shows it.

A paper's file is chosen by a hash of its id among a number of files that grows in powers of two with
the volume (about ``PER_FILE`` papers each): adding a paper moves no other paper to another file, so
the list pages that show them stay as they were.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Collection, Iterator

from generator.model.paper import RenderedPaper
from generator.search.payload import data_script

FOLDER = "assets/abstracts"
PER_FILE = 8  # papers a file holds on average: opening one abstract loads about 8 (3 KB gzip)
CALLBACK = "proceedingsAbstracts.arrived"


def file_count(papers: int) -> int:
    """How many abstract files a volume of ``papers`` has: a power of two, about ``PER_FILE`` papers each."""
    count = 1
    while count * PER_FILE < papers:
        count *= 2
    return count


def file_of(paper_id: str, count: int, stem: str = "a") -> str:
    """The name of the file (no folder, no suffix) that holds the abstract of the paper ``paper_id``
    (another kind of block, as the reading list's, names its files with another ``stem``)."""
    return f"{stem}{zlib.crc32(paper_id.encode('utf-8')) % count}"


def abstract_files(papers: list[RenderedPaper], only: Collection[str] | None = None
                   ) -> Iterator[tuple[str, list[RenderedPaper], Callable[[], bytes]]]:
    """(path, the papers it holds, a function making its bytes) of every file with an abstract in it; given
    ``only`` (paper ids), of the files that hold one of those papers' abstracts."""
    count = file_count(len(papers))
    wanted = None if only is None else {file_of(paper_id, count) for paper_id in only}
    held: dict[str, list[RenderedPaper]] = {}
    for paper in papers:
        if paper.abstract_html:
            name = file_of(paper.paper.id, count)
            if wanted is None or name in wanted:
                held.setdefault(name, []).append(paper)
    for name in sorted(held, key=lambda n: int(n[1:])):
        yield f"{FOLDER}/{name}.js", held[name], _maker(name, held[name])


def _maker(name: str, papers: list[RenderedPaper]) -> Callable[[], bytes]:
    return lambda: data_script(CALLBACK, name, {p.paper.id: p.abstract_html for p in papers})
