"""MODS XML and EndNote (issue 42): the volume's ``proceedings.mods.xml`` and ``proceedings.enw``, read back by
Debian's bibutils (``xml2bib``; ``end2xml`` then ``xml2bib``), hold the same entries as ``proceedings.bib``:
titles, authors in order, year, pages and DOI. bibutils is a system package (``apt-get install bibutils``,
which .ci/run does); without it these tests skip and say so, except in CI, where they fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote

import bibtexparser
from bibtexparser.model import DuplicateFieldKeyBlock
import pytest
from lxml import etree
from pylatexenc.latex2text import LatexNodes2Text

from generator.commands.cli import main
from generator.publish.mods import NAMESPACE

HERE = Path(__file__).parent / "fixtures"
SOURCES = (HERE / "venues" / "pmlr-v999.bib", HERE / "venues" / "colt-2024-theory.bib",
           HERE / "citations" / "hostile.jsonl")
CONFIG = "title: Tiny Things 2023\ndate: 2023-10-02\nbase_url: https://proceedings.example.org/tt/\n"


def bibutils(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    if os.environ.get("CI") == "true":
        pytest.fail(f"bibutils' {name} is not installed (apt-get install bibutils)")
    pytest.skip(f"bibutils' {name} is not installed (apt-get install bibutils)")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("mods")
    content = root / "content"
    for source in SOURCES:
        assert main(["import", str(source), "--content", str(content)]) == 0
    (content / "proceedings.yaml").write_text(CONFIG, encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(root / "site")]) == 0
    return root / "site"


def run(*command: str, stdin: bytes) -> bytes:
    result = subprocess.run(command, input=stdin, capture_output=True, check=True)
    return result.stdout


_LATEX = LatexNodes2Text(math_mode="text")
_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "{": None, "}": None})


def plain(text: str) -> str:
    """A BibTeX value as plain text: LaTeX read (bibutils writes "quotes" as ``quotes''), braces gone, white
    space collapsed."""
    return " ".join(_LATEX.latex_to_text(text).translate(_QUOTES).split())


def person(name: str) -> str:
    """A BibTeX name, "Family, Given", "Family, Jr., Given" or "Given Family", as "Given Family[ Jr.]"."""
    # bibutils reads EndNote's "Smith, John, Jr." as "Smith Jr., John," (a comma left at the end).
    parts = [part.strip() for part in plain(name).split(",") if part.strip()]
    if len(parts) == 3:
        return f"{parts[2]} {parts[0]} {parts[1]}"
    return f"{parts[1]} {parts[0]}".strip() if len(parts) == 2 else parts[0]


def bare(value: str) -> str:
    """A field's value without the quotes or braces around it (an entry kept despite a repeated field keeps them)."""
    if len(value) > 1 and (value[0], value[-1]) in (('"', '"'), ("{", "}")):
        return value[1:-1]
    return value


def entries(bib: str) -> dict[str, dict[str, object]]:
    """Each entry of a .bib by key: its title, authors in order, year, pages and DOI, normalised."""
    library = bibtexparser.parse_string(bib.lstrip("\ufeff"))
    # bibutils writes a paper's page and its PDF both as `url`: a repeated field, which is no matter here.
    repeated = [block.ignore_error_block for block in library.failed_blocks
                if isinstance(block, DuplicateFieldKeyBlock)]
    assert len(repeated) == len(library.failed_blocks), [str(block.error) for block in library.failed_blocks]
    found = {}
    for entry in [*library.entries, *repeated]:
        fields = {key.lower(): bare(str(field.value)) for key, field in entry.fields_dict.items()}
        authors = re.split(r"\s+and\s+", fields["author"]) if fields.get("author") else []
        found[entry.key] = {"title": plain(fields.get("title", "")), "authors": [person(a) for a in authors],
                            "year": fields.get("year", ""), "pages": fields.get("pages", "").replace("--", "-"),
                            "doi": plain(unquote(fields.get("doi", ""))).lower()}
    return found


def test_mods_is_well_formed_and_holds_every_paper(site):
    tree = etree.parse(str(site / "proceedings.mods.xml"))
    records = tree.getroot().findall(f"{{{NAMESPACE}}}mods")
    assert len(records) == len(entries((site / "proceedings.bib").read_text(encoding="utf-8")))


def expected(site: Path) -> dict[str, dict[str, object]]:
    """``proceedings.bib``'s entries, each titled as its page (papers.json, in the same order): MODS and EndNote
    carry the title as plain text, as RIS and CSL-JSON do; BibTeX keeps its math as LaTeX."""
    ours = entries((site / "proceedings.bib").read_text(encoding="utf-8"))
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    assert len(papers) == len(ours)
    return {key: {**entry, "title": plain(paper["title"])} for (key, entry), paper in zip(ours.items(), papers)}


def test_bibutils_reads_mods_back_as_proceedings_bib(site):
    ours = expected(site)
    theirs = entries(run(bibutils("xml2bib"), stdin=(site / "proceedings.mods.xml").read_bytes()).decode("utf-8"))
    assert theirs.keys() == ours.keys()
    assert any(entry["doi"] for entry in ours.values()) and any(entry["pages"] for entry in ours.values())
    for key, entry in ours.items():
        assert theirs[key] == entry, key


def test_bibutils_reads_endnote_back_as_proceedings_bib(site):
    ours = expected(site)
    mods = run(bibutils("end2xml"), stdin=(site / "proceedings.enw").read_bytes())
    theirs = entries(run(bibutils("xml2bib"), stdin=mods).decode("utf-8"))
    # bibutils makes its own keys of an EndNote record: matched by title, each once.
    by_title = {entry["title"]: entry for entry in theirs.values()}
    assert len(by_title) == len(theirs) == len(ours)
    for key, entry in ours.items():
        assert by_title[entry["title"]] == entry, key
