"""One citation model (issue 39): every format writes the one ``Reference`` read from the schema, and what the
browser receives of a paper (its texts in pieces around holes, publish/formats.py) is filled by reading-list.js
into exactly the texts the build writes, whatever the paper holds."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.commands.cli import main
from generator.model.paper import DETAILS, Author, Details, Paper, RenderedPaper
from generator.model.schema import Cite, Field
from generator.publish.bibtex import BibTeX
from generator.publish.formats import HOLES, FileLayout, browser_pieces, citation_formats
from generator.publish.reading import CITED, Reference, reference_of
from generator.model.volume import Volume

REPO = Path(__file__).resolve().parent.parent
RUNNER = REPO / "tests" / "js" / "reading_list.mjs"
READING_LIST_JS = REPO / "themes" / "default" / "static" / "reading-list.js"
PMLR = REPO / "tests" / "fixtures" / "venues" / "pmlr-v999.bib"
HOSTILE = REPO / "tests" / "fixtures" / "citations" / "hostile.jsonl"

# Text as venues' files hold it at worst: quotes, backslashes, braces, line breaks, control and private-use
# characters (text pasted from a PDF), the characters that mark holes while a text is written among them.
TEXT = st.text(st.sampled_from(list('ab "\\{}%$\n\r\t\x01\u2028\ue000\ue001\ue002é山🦆-,.')), max_size=12)
FORMATS = citation_formats(BibTeX(Volume("V")).text)


def reference(key: str, title: str, abstract: str, names: list[str], pages: str, doi: str,
              container: str = "Proc. \ue000") -> Reference:
    details = {field.name: () if field.kind in ("authors", "names") else "" for field in CITED}
    details.update(authors=tuple(Author(name) for name in names), pages=pages, doi=doi, year="2023",
                   volume="7", editors=("Ed Itor",))
    return Reference(key, title, title, container, dt.date(2023, 5, 1), "https://x.org/p.html", abstract,
                     ("kw",), "", "", "", "", "papers/p.md", details)


@settings(max_examples=300, deadline=None)
@given(key=st.from_regex(r"[a-z]{1,5}(-[0-9]{1,3})?", fullmatch=True), title=TEXT, abstract=TEXT,
       names=st.lists(TEXT, max_size=3), pages=TEXT, doi=TEXT)
def test_a_texts_pieces_filled_are_the_text_the_format_writes(key, title, abstract, names, pages, doi):
    ref = reference(key, title, abstract, names, pages, doi)
    values = {name: getattr(ref, name) for name in HOLES}
    for format_ in FORMATS:
        for alone in (False, True):
            pieces = format_.pieces(ref, alone)
            assert len(pieces) % 2 == 1 and set(pieces[1::2]) <= set(format_.holes)
            write = format_.alone if alone and format_.alone else format_.write
            assert format_.fill(pieces, values) == write(ref), (format_.name, alone)


@settings(max_examples=300, deadline=None)
@given(title=TEXT, abstract=TEXT, names=st.lists(TEXT, max_size=3), container=TEXT)
def test_pieces_skip_the_private_use_characters_a_reference_holds(title, abstract, names, container):
    """The marks of the holes are characters the reference does not hold: a private-use character of the
    text (U+E001 with U+E000 free, say) stays text, never taken for a hole."""
    ref = reference("k", title, abstract, names, "3--9", "10.1/x", container)
    values = {name: getattr(ref, name) for name in HOLES}
    for format_ in FORMATS:
        pieces = format_.pieces(ref, alone=True)
        write = format_.alone or format_.write
        assert format_.fill(pieces, values) == write(ref), format_.name
    # A record's formats share one marking: each gives the pieces it gives alone.
    assert browser_pieces(FORMATS, ref) == {f.name: f.pieces(ref, alone=True) for f in FORMATS}


@pytest.fixture(scope="module")
def cited_site(tmp_path_factory):
    """A PMLR volume and hostile papers built into a site (test_citation_formats.py's)."""
    root = tmp_path_factory.mktemp("model")
    content, site = root / "content", root / "site"
    for source in (PMLR, HOSTILE):
        assert main(["import", str(source), "--content", str(content)]) == 0
    (content / "proceedings.yaml").write_text("base_url: https://proceedings.example.org/v999/\ndate: 2023-10-02\n",
                                              encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(site)]) == 0
    return site, json.loads((site / "papers.json").read_text(encoding="utf-8"))


def test_every_cited_detail_of_the_schema_is_in_the_reference():
    """The Reference is read from the schema: a detail declared with ``cite=Cite(...)`` is in it and in the
    BibTeX entry, with no list of fields to keep beside the schema's."""
    details = Details(pages="3--9", volume="12", doi="10.1/x", authors=(Author("Ada Lovelace"),))
    paper = RenderedPaper(Paper("1", "s", "A *title*", "", ("kw",), 1, "a.bib", 1, Path("papers/s.md"), details),
                          "", "A title", "", "")
    volume = Volume("V")
    ref = reference_of(paper, volume, "k")
    assert set(ref.details) == {field.name for field in DETAILS if field.cite.bibtex or field.cite.meta}
    extra = Field("text", cite=Cite("howpublished", bibtex_at=40), name="howpublished")
    with mock.patch("generator.publish.reading.CITED", (*CITED, extra)), \
            mock.patch("generator.publish.bibtex.CITED", (*[f for f in CITED if f.cite.bibtex], extra)), \
            mock.patch.object(type(paper.details), "howpublished", "Online", create=True):
        ref = reference_of(paper, volume, "k")
        assert ref["howpublished"] == "Online"
        assert "  howpublished = {Online},\n" in BibTeX(volume).text(ref)


def test_a_layout_joins_as_the_volumes_files_do():
    assert FileLayout("[\n", ",\n", "\n]\n", "[]\n").join(["{}", "{}"]) == b"[\n{},\n{}\n]\n"
    assert FileLayout("[\n", ",\n", "\n]\n", "[]\n").join([]) == b"[]\n"
    assert FileLayout(between="\n", tail="\n").join(["a", "b"]) == b"a\nb\n"
    assert FileLayout(between="\n").join([]) == b""


def test_reading_list_js_downloads_each_paper_as_the_volumes_files_have_it(node, tmp_path, cited_site):
    """The Cite box's downloads, made by reading-list.js itself in node from the site's blocks: the RIS
    record is the volume's, the BibTeX entry the volume's, the CSL-JSON item the volume's with its abstract,
    for hostile papers too (quotes, backslashes, tabs, U+2028, private-use characters, line breaks)."""
    site, papers = cited_site
    pages = [paper["url"] for paper in papers]
    (tmp_path / "pages.json").write_text(json.dumps(pages), encoding="utf-8")
    done = subprocess.run([node, str(RUNNER), str(READING_LIST_JS), str(site), str(tmp_path / "pages.json")],
                          capture_output=True, text=True, timeout=120, check=True)
    found = json.loads(done.stdout)
    texts = [found[paper["url"]]["texts"] for paper in sorted(papers, key=lambda paper: paper["order"])]
    # Each paper's file holds its one text: joined in the volume's order they are the volume's files.
    assert "\n".join(text["bib"] for text in texts) == (site / "proceedings.bib").read_text(encoding="utf-8")
    assert "\r\n".join(text["ris"] for text in texts).encode() == (site / "proceedings.ris").read_bytes()
    items = json.loads((site / "proceedings.csl.json").read_text(encoding="utf-8"))
    assert len(items) == len(papers) and any("\ue000" in paper["abstract"] for paper in papers)
    for paper in papers:
        item = items[paper["order"] - 1]
        item = {**item, "abstract": paper["abstract"]} if paper["abstract"] else item
        own = found[paper["url"]]["texts"]["csl"]
        assert own == "[\n" + json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n]\n"
    formats = found[pages[0]]["formats"]
    assert [(f["name"], f["suffix"], f["type"]) for f in formats] == [
        (f.name, f.suffix, f.mime) for f in FORMATS if f.browser]
