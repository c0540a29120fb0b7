"""The display records a search result shows (shipped in the sharded index's blocks, shards.py), and the
whole index as one script (no longer shipped; for node tests and benchmarks): the index and, per
paper, what a result shows, encoded as a script that hands JSON text to ``JSON.parse``."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from generator.text import cjk
from generator.latex.tree import math_tree
from generator.model.paper import RenderedPaper
from generator.search.index import People, build_index, people

GLOBAL_NAME = "proceedingsSearchData"
FORMAT_VERSION = 2  # 2: the authors field, and authors in a result (issue 38)
SNIPPET_LENGTH = 240
RESULT_AUTHORS = 3  # names a result shows before "et al. (N more)": one line under the title


def snippet(plain: str, length: int = SNIPPET_LENGTH) -> str:
    """The start of the abstract for a result (cjk.excerpt, as a page's description is made)."""
    return cjk.excerpt(plain, length)


# Math that needs layout to be read (scripts, fractions, roots, accents over, tables): as plain text it
# would be half-converted ("x_0 ∈ℝ^N"), so a preview leaves it out.
_LAID_OUT = re.compile(r"<(?:msub|msup|msubsup|mfrac|msqrt|mroot|mover|munder|munderover|mtable|menclose|"
                       r"mmultiscripts)\b")
_MATH = re.compile(r"<math\b.*?</math>", re.S)
_BLOCK_END = re.compile(r"</(?:p|li|blockquote|h\d)>|<br\s*/?>")
_TAG = re.compile(r"<[^>]+>")


_TOKEN = re.compile(r"<(mi|mn|mo|mtext)\b[^>]*>(.*?)</\1>", re.S)
_INVISIBLE = re.compile("[\u2061-\u2064]")  # function application, invisible times: nothing to read
_CLOSE_UP = set("()[]{}⟨⟩|‖,.;:!/'′″")


def _linear(mathml: str) -> str:
    """A one-line formula as text: "O(n log n)", "a + b ≤ c" (MathML drops the spaces TeX would set)."""
    words: list[str] = []
    for kind, text in _TOKEN.findall(mathml):
        text = _INVISIBLE.sub("", html.unescape(text)).strip()
        if not text:
            continue
        if kind == "mo" and text not in _CLOSE_UP:
            words.append(f" {text} ")
        elif words and (len(text) > 1 or len(words[-1]) > 1) and words[-1][-1:].isalnum() and text[0].isalnum():
            words.append(f" {text}")  # "n log n": a function name is a word
        else:
            words.append(text)
    return " ".join("".join(words).split())


def preview(abstract_html: str) -> str:
    """An abstract's text for a search result: a formula that reads on one line (k, ×, O(n log n)) as
    its text, one that needs layout left out as "…" — never half-converted."""
    def formula(match: re.Match) -> str:
        source = match.group()
        return "…" if _LAID_OUT.search(source) else _linear(source)

    text = _BLOCK_END.sub(" ", _MATH.sub(formula, abstract_html))
    return html.unescape(_TAG.sub("", text))


def search_data(papers: list[RenderedPaper], tag_urls: dict[str, str], names: dict[str, str] | None = None) -> dict:
    """Index plus display records: [title, url, tag numbers, snippet, first authors, how many more] per
    paper, and for a title with math a seventh item, the title's MathML as a tree (latex/tree.py) that
    search.js typesets; a tag is shown by its name in ``names`` (the interface language's) and is indexed
    by both names."""
    tags, docs = display_records(papers, tag_urls, names)
    return {"version": FORMAT_VERSION, "tags": tags, "docs": docs, "index": build_index(papers, names or {})}


class IndexRecord(NamedTuple):
    """What the search index reads of a paper: its words and what a result shows. The index's job is
    sent these alone (issue 29), not the paper, its details and its citations."""

    title_plain: str
    url: str
    tags: tuple[str, ...]
    abstract_plain: str
    abstract_html: str  # for the result's preview, which keeps formulas that read on one line
    title_html: str  # for a title with math: its tree
    authors: People = ()  # (name, affiliation) each: indexed, and the first names shown


def index_record(paper: RenderedPaper) -> IndexRecord:
    return IndexRecord(paper.title_plain, paper.url, paper.paper.tags, paper.abstract_plain, paper.abstract_html,
                       paper.title_html, people(paper))


def display_records(papers: list[RenderedPaper], tag_urls: dict[str, str],
                    names: dict[str, str] | None = None) -> tuple[list, list]:
    """The tags ([shown name, url] each) and the display record of each paper."""
    return numbered_tags([display_record(index_record(p)) for p in papers], tag_urls, names)


def display_record(record: IndexRecord) -> list:
    """[title, url, tag names, snippet, the first ``RESULT_AUTHORS`` names, how many more] and, for a title
    with math, its tree: what a result shows (the tag names become numbers in ``numbered_tags``, once every
    paper's are known)."""
    tree = math_tree(record.title_html)
    names = [name for name, _ in record.authors]
    return ([record.title_plain, record.url, list(record.tags), snippet(preview(record.abstract_html)),
             names[:RESULT_AUTHORS], max(0, len(names) - RESULT_AUTHORS)] + ([tree] if tree else []))


def numbered_tags(docs: list[list], tag_urls: dict[str, str], names: dict[str, str] | None = None
                  ) -> tuple[list, list]:
    """The tags ([shown name, url] each, in name order) and ``docs`` with each tag name as its number there."""
    tags, number = tag_numbers([doc[2] for doc in docs], tag_urls, names)
    for doc in docs:
        doc[2] = [number[t] for t in doc[2]]
    return tags, docs


def tag_numbers(tagged: Iterable[Iterable[str]], tag_urls: dict[str, str], names: dict[str, str] | None = None
                ) -> tuple[list, dict[str, int]]:
    """The tags ([shown name, url] each, in name order) of ``tag_urls`` and of every paper's in ``tagged``, and
    each tag name's number among them."""
    shown = names or {}
    ordered = sorted(set(tag_urls).union(*tagged), key=lambda n: (n.casefold(), n))
    return [[shown.get(name, name), tag_urls.get(name)] for name in ordered], {n: i for i, n in enumerate(ordered)}


def index_script(data: dict) -> bytes:
    """The data as a script that hands JSON text to JSON.parse: a browser parses
    that several times faster than the same object literal. ASCII only, so no charset guess by a server or file://
    can garble it, and no ``<`` (no ``</script>`` or ``<!--`` if ever inlined).
    """
    return b"".join(index_script_chunks(data))


def index_script_chunks(data: dict) -> Iterator[bytes]:
    """``index_script`` piece by piece, so that the whole script (which grows with every paper)
    never exists as one string. The same bytes: JSON of the data with sorted keys, quoted
    as a JSON string literal; both escapes act on one character at a time, so escaping each
    piece on its own gives what escaping the whole would."""
    yield f"globalThis.{GLOBAL_NAME}=JSON.parse(\"".encode("ascii")
    for piece in _json_pieces(data):
        yield json.dumps(piece.replace("<", "\\u003c"))[1:-1].encode("ascii")
    yield b"\");\n"


def _json_pieces(value: Any, batch: int = 2_000) -> Iterator[str]:
    """``json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))`` in pieces:
    dicts key by key, long lists ``batch`` items at a time, the index's parts by their ``pieces``."""
    if isinstance(value, dict):
        yield "{"
        for number, (key, item) in enumerate(sorted(value.items())):
            yield ("," if number else "") + compact_json(key) + ":"
            yield from _json_pieces(item, batch)
        yield "}"
    elif hasattr(value, "pieces"):  # index.InvertedIndex, index.FieldVectors: made as they are written
        yield from value.pieces()
    elif isinstance(value, list) and len(value) > batch:
        yield "["
        for start in range(0, len(value), batch):
            yield ("," if start else "") + compact_json(value[start : start + batch])[1:-1]
        yield "]"
    else:
        yield compact_json(value)


def compact_json(value: Any) -> str:
    """JSON as every search file writes it: ASCII, sorted keys, no spaces."""
    return json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))


def data_script(callback: str, name: str, value: Any) -> bytes:
    """A script handing ``value`` to ``callback(name, value)``: JSON text given to JSON.parse
    (index_script's reasons: faster to parse, ASCII, no "<"). The site's files loaded on demand
    (the index's shards, the lists' abstracts) are such scripts, since fetch() is refused from file://."""
    return json_script(callback, name, compact_json(value))


def json_script(callback: str, name: str, json_text: str) -> bytes:
    """``data_script`` of a value already written as compact JSON text."""
    text = json.dumps(json_text).replace("<", "\\u003c")
    return f'{callback}("{name}",JSON.parse({text}));\n'.encode("ascii")


def write_chunks(path: Path, chunks: Iterable[bytes]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        for chunk in chunks:
            handle.write(chunk)
