"""The citation formats, declared once: each format's name, its files, how it writes one paper (from the
paper's ``Reference``, reading.py) and how a file holds the papers' texts.

Everything that writes citations goes through this table: the volume's files (``proceedings.bib``…,
publish/__init__.py), the paper page's Cite box and the browser's records (reading_list.py), from which the
reading list's exports and the Cite box's downloads are made. A new format is a module that writes a
``Reference`` and one line in ``citation_formats``; the browser learns of it from the volume's manifest.

A text the browser receives is in ``pieces``: literal text and, between each two pieces, the name of a value
of the paper's record that fills the gap (``HOLES``): its key, which a reading list renames when two volumes'
papers share one, its title and abstract, which the record holds once for every format and for showing, and the
proceedings' title, which the volume's manifest holds once for all its papers.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from generator.text.jsontext import compact_text, spaced_text

from .apa import apa_text
from .csl import csl_item
from .endnote import endnote_alone, endnote_record
from .mods import HEAD, TAIL, mods_alone, mods_record, xml_text
from .reading import Reference
from .ris import one_line, ris_record

# Reference attributes a browser's text may leave for its record (the container: its manifest's title) to fill.
HOLES = ("key", "title", "abstract", "container")
_MARKS = range(0xE000, 0xF900)  # private-use characters: one marks each hole while a text is written
_PRIVATE_SPLIT = re.compile("([\ue000-\uf8ff])")
_FIRST_MARKS = tuple(chr(code) for code in _MARKS[:len(HOLES)])


@dataclass(frozen=True)
class FileLayout:
    """How a file holds its papers' texts, in proceedings order: ``head``, the texts with ``between`` between
    them, ``tail``; ``empty`` when there is none. A reading list's export is joined the same way."""

    head: str = ""
    between: str = ""
    tail: str = ""
    empty: str = ""

    def join(self, texts: Iterable[str]) -> bytes:
        return b"".join(self.chunks(texts))

    def chunks(self, texts: Iterable[str]) -> Iterator[bytes]:
        """``join``'s bytes in pieces, a text at a time: a volume's file is written as it is made and never
        exists whole, as one str or as bytes (at 50,000 papers the citation files, 20–75 MB each, were the
        render stage's peak of memory: issues 29 and 43)."""
        any_text = False
        for text in texts:
            yield (self.between if any_text else self.head).encode("utf-8")
            yield text.encode("utf-8")
            any_text = True
        yield (self.tail if any_text else self.empty).encode("utf-8")


def _json_string(value: str) -> str:
    """``value`` as a JSON string's content, as json.dumps and JSON.stringify both write it."""
    return json.dumps(value, ensure_ascii=False)[1:-1]


@dataclass(frozen=True)
class CitationFormat:
    name: str  # what the browser and the reading list's page call it ("bib": data-reading-copy="bib")
    suffix: str  # of its files: proceedings.bib, a paper's <slug>.ris, reading-list.csl.json
    mime: str
    layout: FileLayout
    write: Callable[[Reference], str]  # one paper as the volume's file has it
    # One paper alone (a Cite box's download, a reading list), where it says more than the volume's file.
    alone: Callable[[Reference], str] | None = None
    holes: tuple[str, ...] = ()  # which of HOLES the browser may fill
    written: Callable[[str], str] = str  # how the text holds a value: RIS on one line, CSL-JSON escaped
    json: bool = False  # a JSON text: the browser fills a hole with the value as a JSON string's content
    browser: bool = True  # the browser's records carry it (the reading list exports it)
    kept: bool = False  # a paper's text is kept once written (BibTeX's: the page shows it too)

    def __post_init__(self) -> None:
        if self.kept and self.alone:  # a kept text is the volume file's, and serves the browser too
            raise ValueError(f"the {self.name} format is kept: it has no text of its own for a paper alone")

    @property
    def path(self) -> str:
        return f"proceedings{self.suffix}"

    def filling(self, value: str) -> str:
        """What fills a hole of ``value`` (reading-list.js does the same)."""
        return _json_string(value) if self.json else value

    def pieces(self, ref: Reference, alone: bool = False, marking: Marking | None = None) -> tuple[str, ...]:
        """The paper's text as literal pieces with a hole's name between each two: a hole for each of
        ``holes`` that the paper has and the format writes as the browser fills it (RIS writes an abstract
        of two paragraphs on one line: that one stays in the text). ``marking``: the paper's, shared by the
        formats of its record (``browser_pieces``)."""
        write = (self.alone or self.write) if alone else self.write
        marking = marking or Marking(ref)
        holes = marking.holes(self)
        if not holes:
            return (write(ref),)
        marked, named, split = marking.marked(holes)
        pieces = split(write(marked))
        pieces[1::2] = map(named.__getitem__, pieces[1::2])  # each mark the split kept, as its hole's name
        return tuple(pieces)

    def text(self, ref: Reference, alone: bool = False) -> str:
        """The paper's text (``pieces`` filled from the reference, as the browser fills them)."""
        return self.fill(self.pieces(ref, alone), {name: getattr(ref, name) for name in HOLES})

    def fill(self, pieces: tuple[str, ...], values: Mapping[str, str]) -> str:
        return "".join(self.filling(values[piece]) if n % 2 else piece for n, piece in enumerate(pieces))

    def _fills(self, value: str) -> bool:
        # An empty value is no hole: a format leaves out the line or key of a value it does not have. A JSON
        # text writes a value as the browser fills it (both JSON string content): no need to write it twice.
        if not value:
            return False
        if self.json:
            return self.written is _json_string or self.written(value) == _json_string(value)
        return self.written(value) == value


def citation_formats(bibtex: Callable[[Reference], str]) -> tuple[CitationFormat, ...]:
    """Every format, in the order the volume's files are listed; ``bibtex`` is the volume's BibTeX writer
    (it knows the site's macros and warns about the page)."""
    return (
        CitationFormat("bib", ".bib", "application/x-bibtex", FileLayout(between="\n"), bibtex, holes=("key",),
                       kept=True),
        CitationFormat("ris", ".ris", "application/x-research-info-systems", FileLayout(between="\r\n"), ris_record,
                       holes=HOLES, written=one_line),
        CitationFormat("csl", ".csl.json", "application/vnd.citationstyles.csl+json",
                       FileLayout("[\n", ",\n", "\n]\n", "[]\n"), _csl, _csl_alone, holes=HOLES, written=_json_string,
                       json=True),
        CitationFormat("mods", ".mods.xml", "application/mods+xml", FileLayout(HEAD, "", TAIL, HEAD + TAIL),
                       mods_record, mods_alone, holes=HOLES, written=xml_text),
        CitationFormat("enw", ".enw", "application/x-endnote-refer", FileLayout(between="\n"), endnote_record,
                       endnote_alone, holes=HOLES, written=one_line),
        CitationFormat("apa", ".apa.txt", "text/plain", FileLayout(between="\n", tail="\n"), apa_text,
                       browser=False),
    )


def browser_formats(formats: Iterable[CitationFormat]) -> list[dict[str, Any]]:
    """What reading-list.js needs to know of each format the records carry (the volume's manifest)."""
    return [{"name": f.name, "suffix": f.suffix, "type": f.mime, "json": f.json,
             **dataclasses.asdict(f.layout)} for f in formats if f.browser]


def _csl(ref: Reference) -> str:
    return spaced_text(csl_item(ref))


def _csl_alone(ref: Reference) -> str:
    """A paper's own item has its abstract, which the volume's file leaves out (csl.py); written without
    spaces (as JSON.stringify writes it: a reading list's export and a Cite box's download were so written)."""
    return compact_text(csl_item(ref, abstract=True))


def browser_pieces(formats: Iterable[CitationFormat], ref: Reference) -> dict[str, tuple[str, ...]]:
    """Each format's ``pieces`` of the paper alone, by name, as a browser's record holds them: one marking for
    all, so that the formats whose holes are the same write one marked copy, and the values are checked once for
    the formats that write them alike (RIS and EndNote: one line)."""
    marking = Marking(ref)
    return {citation.name: citation.pieces(ref, alone=True, marking=marking) for citation in formats}


class Marking:
    """A paper's holes, by how a format writes values, and its marked copies, by the holes they mark; each made when
    first asked, for the formats of one paper's record (a copy, a check of a long abstract, for each format: issue
    43)."""

    def __init__(self, ref: Reference):
        self.ref = ref
        self._holes: dict[tuple[Any, ...], tuple[str, ...]] = {}
        self._marked: dict[tuple[str, ...], tuple[Reference, dict[str, str], Callable[[str], list[str]]]] = {}

    def holes(self, citation: CitationFormat) -> tuple[str, ...]:
        """Which of ``citation``'s holes the paper's text leaves for the browser to fill (``_fills``): the same for
        the formats with the same holes that write values alike."""
        how = (citation.holes, citation.written, citation.json)
        found = self._holes.get(how)
        if found is None:
            ref = self.ref
            found = self._holes[how] = tuple(name for name in citation.holes if citation._fills(getattr(ref, name)))
        return found

    def marked(self, holes: tuple[str, ...]) -> tuple[Reference, dict[str, str], Callable[[str], list[str]]]:
        """The paper with a mark for each of ``holes``, the hole each mark stands for, and a split of a text at
        the marks (keeping them)."""
        made = self._marked.get(holes)
        if made is None:
            ref = self.ref
            marks = _free_marks(ref, len(holes))
            # No private-use character in the reference (as nearly always): none but a mark is in the text, and
            # one compiled pattern splits at them all.
            split = re.compile(f"({'|'.join(marks)})").split if ref.private_use else _PRIVATE_SPLIT.split
            made = self._marked[holes] = (_marked(ref, dict(zip(holes, marks))), dict(zip(marks, holes)), split)
        return made


def _free_marks(ref: Reference, count: int) -> list[str]:
    """``count`` marks, none a character of the reference (a text pasted from a PDF may hold private-use ones)."""
    private = ref.private_use
    if not private:  # as nearly always: the first ones
        return list(_FIRST_MARKS[:count])
    return list(itertools.islice((mark for mark in map(chr, _MARKS) if mark not in private), count))


def _marked(ref: Reference, marks: dict[str, str]) -> Reference:
    """``ref`` with a mark for each of its values named in ``marks`` (dataclasses.replace's result, without its
    per-call work: a reference has no __post_init__ and is marked for each format of every paper)."""
    ref.author_names, ref.editor_names, ref.pages  # noqa: B018 (made once on the reference, not on each copy)
    copy = object.__new__(Reference)
    copy.__dict__.update(vars(ref), **marks)
    return copy
