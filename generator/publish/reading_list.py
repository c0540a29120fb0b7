"""Each paper's block: what the reading list, the Cite box and a list's abstract toggles read of a volume's
papers (issue 31; themes/default/static/reading-list.js), in small scripts under ``assets/reading/`` loaded
by script tag when a reader shows, exports, downloads or opens one: no fetch(), so that it works from
file://, and no list page carries more than a mark on each item.

A reader's list holds papers by slug (``<volume folder>/<slug>`` in a series: unambiguous across its
volumes), since the slug is what every list item, search result and paper page knows. A paper's block is
chosen by a hash of its slug among a number of files that grows in powers of two with the volume (about
``PER_FILE`` papers each): adding a paper moves no other paper to another file. ``manifest.js`` tells the
script how many files there are and the volume's title.

Each paper's record (``KEYS``) holds what the list shows (authors, page, title), its key, its plain abstract,
the abstract's HTML as the paper's page shows it (only when that is more than the plain text in one paragraph:
math, emphasis, several paragraphs; a list's toggle shows it, else the plain text as a paragraph) and its
citation in each format the browser gets (formats.py), as pieces around holes that the key, title and abstract
fill: each is written once (issue 29), and a reading list renames a key by filling its hole. The manifest
gives the script the record's keys and the formats (names, suffixes, types, how a file joins them), so that
neither is written by hand in the script.
"""

from __future__ import annotations

import codecs
import html
import zlib
from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING, Any

import orjson

from generator.model.paper import RenderedPaper
from generator.search.payload import data_script

from .formats import HOLES, browser_formats

if TYPE_CHECKING:
    from . import Publication

FOLDER = "assets/reading"
MANIFEST = f"{FOLDER}/manifest.js"
CALLBACK = "proceedingsReadingList.arrived"
STEM = "r"
PER_FILE = 8  # papers a file holds on average: opening one abstract loads about 8 papers' records
# What a paper's record holds, by name → the key it is written under (short: a volume has a record per paper).
# reading-list.js reads them from the manifest: the names are the script's, the keys are written here only.
KEYS = {"authors": "a", "url": "u", "key": "k", "title": "t", "abstract": "p", "html": "h", "texts": "x",
        "sessions": "s"}
CONTAINER = "container"  # the hole the manifest's title fills
assert set(HOLES) <= {*KEYS, CONTAINER}, "a hole is filled from the record's value of its name"


def file_count(papers: int) -> int:
    """How many blocks a volume of ``papers`` has: a power of two, about ``PER_FILE`` papers each."""
    count = 1
    while count * PER_FILE < papers:
        count *= 2
    return count


def file_of(slug: str, count: int) -> str:
    """The name of the block (no folder, no suffix) that holds the paper ``slug`` (reading-list.js, crc32)."""
    return f"{STEM}{zlib.crc32(slug.encode('utf-8')) % count}"


def block_path(slug: str, count: int) -> str:
    """The path of the block that holds the paper ``slug`` among ``count`` blocks (``reading_files``' paths)."""
    return _block(file_of(slug, count))


def _block(name: str) -> str:
    return f"{FOLDER}/{name}.js"


def record(paper: RenderedPaper, publication: Publication) -> dict[str, Any]:
    """The paper's record: its names (``KEYS``) as keys, an empty abstract or HTML left out."""
    paper_id = paper.paper.id
    ref = publication.references[paper_id]
    html = paper.abstract_html if not is_plain_paragraph(paper.abstract_html, paper.abstract_plain) else ""
    found = {"authors": [author.name for author in ref.authors], "url": paper.url, "key": ref.key,
             "title": ref.title, "abstract": ref.abstract, "html": html,
             "texts": publication.browser_texts(paper_id),
             # its timed sessions ([session, start, end, zone, room, UID, key]): "My programme" and its .ics
             "sessions": publication.schedules.get(paper_id, [])}
    return {KEYS[name]: value for name, value in found.items()
            if value or name not in ("abstract", "html", "sessions")}


def is_plain_paragraph(abstract_html: str, plain: str) -> bool:
    """Whether the abstract's HTML is its plain text in one paragraph, as a browser shows it (white space
    collapsed): then a toggle makes the paragraph from ``p``, and the HTML is not written again."""
    if not (abstract_html.startswith("<p>") and abstract_html.endswith("</p>\n")):
        return False
    inner = abstract_html[3:-5]
    return "<" not in inner and html.unescape(inner).replace("\n", " ") == plain


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
        yield _block(name), held[name], _maker(name, held[name], publication)
    manifest = {"files": count, "title": publication.volume.title, "keys": KEYS,
                "formats": browser_formats(publication.formats)}
    yield MANIFEST, [], lambda: data_script(CALLBACK, "manifest", manifest)


def _maker(name: str, papers: list[RenderedPaper], publication: Publication) -> Callable[[], bytes]:
    return lambda: block_script(name, {p.slug: record(p, publication) for p in papers})


def block_script(name: str, value: dict[str, Any]) -> bytes:
    """``data_script(CALLBACK, name, value)``, its JSON written by orjson (in C, several times faster than
    ``json``'s with sorted keys: issue 43), made ASCII as ``json`` writes it (``_JSON_ASCII``), then written as the
    script's string as ``json_script`` writes it: the same bytes. A value orjson refuses (a lone surrogate) is
    written by ``data_script``."""
    try:
        body = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        return data_script(CALLBACK, name, value)
    if not body.isascii():  # (most blocks of an English volume are)
        body = body.decode().encode("ascii", _JSON_ASCII)
    # The JSON text, printable ASCII now but for U+007F, as json.dumps writes it in a string: U+007F escaped, each
    # backslash and quote escaped; then "<" (json_script's). A replace each, in C, rather than a scan in Python.
    body = body.replace(b"\x7f", b"\\u007f").replace(b"\\", b"\\\\").replace(b'"', b'\\"')
    return b'%s("%s",JSON.parse("%s"));\n' % (_CALLBACK, name.encode("ascii"), body.replace(b"<", b"\\u003c"))


_CALLBACK = CALLBACK.encode("ascii")
_JSON_ASCII = "proceedings-json-ascii"  # the codec error handler below, by name


def _escaped(error: UnicodeError) -> tuple[str | bytes, int]:
    """The characters past ASCII of a run the encoder could not write, as ``json`` escapes them: ``\\u`` and four
    lower-case hex digits, a surrogate pair beyond U+FFFF (a run at a time: the encoder scans the rest in C)."""
    assert isinstance(error, UnicodeEncodeError)  # (registered for encoding only)
    escaped = []
    for char in error.object[error.start:error.end]:
        code = ord(char)
        if code < 0x10000:
            escaped.append(f"\\u{code:04x}")
        else:
            code -= 0x10000
            escaped.append(f"\\u{0xd800 | code >> 10:04x}\\u{0xdc00 | code & 0x3ff:04x}")
    return "".join(escaped), error.end


codecs.register_error(_JSON_ASCII, _escaped)
