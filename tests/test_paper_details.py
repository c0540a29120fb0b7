"""Paper details on the site: authors, affiliations, ORCID, track, award and links on paper pages,
author pages and the author index, and in papers.json, BibTeX, meta tags and the feed."""

import json
from pathlib import Path

import bibtexparser
import pytest

from generator.commands.build import build
from generator.reporter import Reporter
from record_fixtures import warnings

RECORDS = [
    {"id": "p1", "title": "Graphs That Learn Their Own Edges",
     "authors": [{"name": "Ada Lovelace", "affiliation": "Analytical Engine Society",
                  "orcid": "https://orcid.org/0000-0002-1825-0097"}, "Charles Babbage"],
     "abstract": "We learn the edges of a graph with $O(n)$ memory.",
     "keywords": ["graphs"], "track": "Main track", "award": "Outstanding paper",
     "pdf": "pdfs/p1.pdf", "code": "https://github.com/example/edges", "openreview": "AbCdEf123",
     "doi": "https://doi.org/10.5555/p.1"},
    {"id": "p2", "title": "Counting <script>alert(1)</script> Things",
     "authors": [{"name": "Ada Lovelace"}, {"name": "Mallory <img src=x onerror=alert(1)>",
                                             "affiliation": "\"Quotes\" & <Co>"}],
     "abstract": "We count things in images of cluttered rooms."},
    {"id": "p3", "title": "张伟的论文", "authors": ["张伟", "Jörg Müller"],
     "abstract": "A paper by an author whose name has no ASCII letters."},
]


def make_content(tmp_path: Path, records=RECORDS, config: str = "title: Details Test 2026\ndate: 2026-12-06\n"
                                                                    "base_url: https://example.org/proc/\n") -> Path:
    content = tmp_path / "content"
    content.mkdir()
    (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    (content / "papers.jsonl").write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n",
                                          encoding="utf-8")
    return content


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("details")
    content = make_content(tmp)
    (content / "pdfs").mkdir()
    (content / "pdfs" / "p1.pdf").write_bytes(b"%PDF-1.4 paper one")  # a path names a file of the folder
    reporter = Reporter()
    build(content, tmp / "site", reporter)
    assert not reporter.errors, reporter.errors
    return tmp / "site"


def page_of(site: Path, title_word: str) -> str:
    matches = [p.read_text(encoding="utf-8") for p in (site / "papers").glob("*.html")
               if title_word in p.read_text(encoding="utf-8").split("<title>")[1].split("</title>")[0]]
    assert len(matches) == 1, title_word
    return matches[0]


def test_paper_page_shows_authors_facts_and_links(site):
    html = page_of(site, "Graphs")
    assert '<a href="../authors/ada-lovelace.html">Ada Lovelace</a>' in html
    assert '<span class="affiliation">Analytical Engine Society</span>' in html
    assert 'href="https://orcid.org/0000-0002-1825-0097"' in html
    assert '<span class="track">Main track</span>' in html and '<span class="award">Outstanding paper</span>' in html
    assert 'href="../pdfs/p1.pdf"' in html  # a path inside the site, relative to the page
    assert 'href="https://github.com/example/edges"' in html
    assert 'href="https://openreview.net/forum?id=AbCdEf123"' in html
    assert 'href="https://doi.org/10.5555/p.1"' in html


def test_meta_tags_carry_authors_affiliations_orcid_doi_and_pdf(site):
    html = page_of(site, "Graphs")
    expected = [
        '<meta name="citation_author" content="Ada Lovelace">',
        '<meta name="citation_author_institution" content="Analytical Engine Society">',
        '<meta name="citation_author_orcid" content="https://orcid.org/0000-0002-1825-0097">',
        '<meta name="citation_author" content="Charles Babbage">',
        '<meta name="citation_doi" content="10.5555/p.1">',
        '<meta name="citation_pdf_url" content="https://example.org/proc/pdfs/p1.pdf">',
    ]
    positions = [html.index(tag) for tag in expected]
    assert positions[:4] == sorted(positions[:4])  # an institution follows its author


def test_author_pages_and_index(site):
    ada = (site / "authors" / "ada-lovelace.html").read_text(encoding="utf-8")
    assert "Analytical Engine Society" in ada and "0000-0002-1825-0097" in ada
    assert ada.count('class="paper-item"') == 2
    index = (site / "authors" / "index.html").read_text(encoding="utf-8")
    names = [line.split('">')[1].split("</a>")[0] for line in index.splitlines() if '<li><a href="../authors/' in line]
    # by family name: Babbage, Lovelace, Mallory…, Müller, 张伟
    assert names[:2] == ["Charles Babbage", "Ada Lovelace"]
    assert "5 authors" in index
    # A Chinese name keeps its characters in the address (docs/languages.md, "Chinese and Japanese proceedings").
    assert "张伟" in (site / "authors" / "张伟.html").read_text(encoding="utf-8")
    assert not list((site / "authors").glob("author-*.html"))
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="authors/index.html"' in home
    assert '<p class="item-authors">Ada Lovelace, Charles Babbage</p>' in home


def test_content_from_sources_is_escaped(site):
    html = page_of(site, "Counting")
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "Mallory &lt;img src=x onerror=alert(1)&gt;" in html
    assert "&#34;Quotes&#34; &amp; &lt;Co&gt;" in html
    for page in (site / "authors").glob("*.html"):
        assert "<img src=x" not in page.read_text(encoding="utf-8")


def test_papers_json_bibtex_and_feed_include_details(site):
    records = {r["title"]: r for r in json.loads((site / "papers.json").read_text(encoding="utf-8"))}
    first = records["Graphs That Learn Their Own Edges"]
    assert first["authors"][0] == {"name": "Ada Lovelace", "affiliation": "Analytical Engine Society",
                                   "orcid": "0000-0002-1825-0097"}
    assert first["authors"][1] == {"name": "Charles Babbage"}
    assert (first["track"], first["award"], first["doi"]) == (["Main track"], "Outstanding paper", "10.5555/p.1")
    assert first["openreview"] == "https://openreview.net/forum?id=AbCdEf123"

    library = bibtexparser.parse_string((site / "proceedings.bib").read_text(encoding="utf-8"))
    entry = {e["title"]: e for e in library.entries}["Graphs That Learn Their Own Edges"]
    assert entry["author"] == "Ada Lovelace and Charles Babbage"
    assert entry["doi"] == "10.5555/p.1"
    assert entry["pdf"] == "https://example.org/proc/pdfs/p1.pdf"

    feed = (site / "feed.xml").read_text(encoding="utf-8")
    import xml.etree.ElementTree as ET
    atom = "{http://www.w3.org/2005/Atom}"
    entries = ET.fromstring(feed.encode("utf-8")).findall(f"{atom}entry")
    by_title = {e.findtext(f"{atom}title"): [a.findtext(f"{atom}name") for a in e.findall(f"{atom}author")]
                for e in entries}
    assert by_title["Graphs That Learn Their Own Edges"] == ["Ada Lovelace", "Charles Babbage"]


def test_bare_abstracts_have_no_author_pages(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "list.txt").write_text("Bare 2026\n\nWe introduce Alpha, a method for sorting.\n\n"
                                      "We present Beta, a benchmark for counting.\n", encoding="utf-8")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    assert not reporter.errors
    assert not (tmp_path / "site" / "authors").exists()
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "authors/index.html" not in home and "item-authors" not in home
    records = json.loads((tmp_path / "site" / "papers.json").read_text(encoding="utf-8"))
    assert all(r["authors"] == [] and "pdf" not in r for r in records)


def test_a_bad_detail_is_warned_about_and_left_out(tmp_path):
    records = [dict(RECORDS[0], code="javascript:alert(1)", doi="not a doi")]
    content = make_content(tmp_path, records)
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    assert not reporter.errors
    messages = [str(w) for w in reporter.warnings]
    assert any("papers.jsonl:1" in m and "`code`" in m for m in messages), messages
    assert any("`doi`" in m for m in messages), messages
    html = next((tmp_path / "site" / "papers").glob("*.html")).read_text(encoding="utf-8")
    assert "javascript:" not in html and "doi.org" not in html
    assert "https://github.com" not in html


def test_an_edited_author_list_in_a_page_wins_and_shows(tmp_path):
    content = make_content(tmp_path, RECORDS[:1])
    build(content, tmp_path / "site", Reporter())
    page = next((content / "papers").glob("*.md"))
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("- Charles Babbage", "- {name: Grace Hopper, affiliation: Navy}"), encoding="utf-8")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    assert not reporter.errors
    html = next((tmp_path / "site" / "papers").glob("*.html")).read_text(encoding="utf-8")
    assert "Grace Hopper" in html and "Charles Babbage" not in html
    assert (tmp_path / "site" / "authors" / "grace-hopper.html").is_file()


def test_files_linked_by_a_path_are_published_from_the_content_folder(tmp_path):
    records = [dict(RECORDS[0], pdf="pdfs/p1.pdf", code="../outside.zip"),
               dict(RECORDS[1], pdf="pdfs/missing.pdf", code=".proceedings-cache/x")]
    content = make_content(tmp_path, records)
    (content / "pdfs").mkdir()
    (content / "pdfs" / "p1.pdf").write_bytes(b"%PDF-1.4 paper one")
    (tmp_path / "outside.zip").write_bytes(b"secret")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    assert (tmp_path / "site" / "pdfs" / "p1.pdf").read_bytes() == b"%PDF-1.4 paper one"
    assert not list((tmp_path / "site").rglob("outside.zip"))
    assert not (tmp_path / "site" / ".proceedings-cache").exists()
    warned = " ".join(str(w) for w in reporter.warnings)
    assert "pdfs/missing.pdf" in warned and "../outside.zip" in warned and ".proceedings-cache/x" in warned
    assert "pdfs/p1.pdf" not in warned


def test_marks_of_equal_contribution_are_not_part_of_a_name(tmp_path):
    records = [dict(RECORDS[2], authors=["Abhinav Gupta*", "Jörg Müller†"]),
               dict(RECORDS[1], authors=["Abhinav Gupta"])]
    content = make_content(tmp_path, records)
    build(content, tmp_path / "site", Reporter())
    assert sorted(p.name for p in (tmp_path / "site" / "authors").glob("*.html")) == [
        "abhinav-gupta.html", "index.html", "jorg-muller.html"]


# -- ORCID check digit --------------------------------------------------------------------------------

def test_an_orcid_with_a_bad_check_digit_is_warned_about_and_left_out():
    import json

    from generator.sources import jsonlines

    authors = [{"name": "Jane Doe", "orcid": "0000-0002-1825-0097"},  # ORCID's own example: valid
               {"name": "Josiah Carberry", "orcid": "https://orcid.org/0000-0002-1825-0096"},  # one digit off
               {"name": "Ann Ex", "orcid": "0000-0002-9079-593x"}]  # X: a check digit of 10
    lines = [json.dumps({"title": "One", "abstract": "x"}), json.dumps({"title": "Two", "authors": authors})]
    source = jsonlines.parse("\n".join(lines) + "\n", "p.jsonl")
    orcids = [author.orcid for author in source.entries[1].details.authors]
    assert orcids == ["0000-0002-1825-0097", "", "0000-0002-9079-593X"]
    assert warnings(source) == [(2, "“Two”: `authors` author 2 (Josiah Carberry): ORCID '0000-0002-1825-0096' has a "
                                    "wrong check digit (a typo?); left out")]


def test_a_detail_not_given_is_its_default_without_a_problem_whatever_its_kind():
    """parse_details reads only the fields a page or record gives (model/details.py): that holds because each
    kind's reader makes the field's default, and says nothing, of a mapping without it."""
    import dataclasses

    from generator.model.details import _PARSE, parse_details
    from generator.model.paper import DETAILS, Details

    defaults = {field.name: field.default for field in dataclasses.fields(Details)}
    problems: list = []
    for field in DETAILS:
        made = _PARSE[field.kind]({"other": "x"}, field.name, lambda *args: problems.append(args))
        assert (made, problems) == (defaults[field.name], []), field.name
    given = parse_details({"pdf": "https://example.org/a.pdf", "track": "Main", "doi": "not one"},
                          lambda *args: problems.append(args))
    assert given == Details(pdf="https://example.org/a.pdf", track=("Main",))
    assert [key for key, _ in problems] == ["doi"]
