"""Issue 30: everything a venue's export carries reaches the site. Materials (PDF, video, poster, slides,
thumbnail, code, data, the publisher's page) under the names ISMIR 2024 (Mini-Conf), ICWSM 2021,
SIGDIAL/INLG 2023 and PMLR use, with paths into the venue's old site resolved against `venue_base_url`
or left out with one warning; each test imports a fixture of tests/fixtures/venues/ and builds it with
the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import cli
from test_venue_exports import PMLR, VENUES, imported_site, pages_by_uid

ISMIR = VENUES / "ismir-2024-papers.csv"
ICWSM = VENUES / "icwsm-2021-papers.csv"
SIGDIAL = VENUES / "sigdial-2023-papers.csv"
ISMIR_SITE = "https://ismir2024program.ismir.net/"
HUBNESS = "Hubness Reduction Improves Sentence-BERT Semantic Spaces, Revisited for Music"


def papers_json(site: Path) -> dict[str, dict]:
    return {record["title"]: record for record in json.loads((site / "papers.json").read_text(encoding="utf-8"))}


def page(site: Path, record: dict) -> str:
    return (site / record["url"]).read_text(encoding="utf-8")


def links_of(html: str) -> dict[str, str]:
    """The paper page's own links (its `paper-links` list): label → href."""
    block = html.split('<ul class="paper-links"', 1)[1].split("</ul>", 1)[0]
    return {label: href for href, label in re.findall(r'<a href="([^"]*)">([^<]*)</a>', block)}


def every_html(site: Path) -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(site.rglob("*.html")))


@pytest.fixture(scope="module")
def ismir(tmp_path_factory):
    return imported_site(tmp_path_factory.mktemp("ismir"), ISMIR, config=f"venue_base_url: {ISMIR_SITE}\n")


@pytest.fixture(scope="module")
def ismir_without_base(tmp_path_factory):
    return imported_site(tmp_path_factory.mktemp("ismir-bare"), ISMIR)


def test_ismir_materials_reach_the_paper_page_the_lists_and_papers_json(ismir):
    _, site, built = ismir
    assert built.returncode == 0, built.stderr
    record = papers_json(site)[HUBNESS]
    assert record["pdf"] == f"{ISMIR_SITE}static/pdfs/000012.pdf"
    assert record["poster"] == f"{ISMIR_SITE}static/posters/000012.pdf"
    assert record["thumbnail"] == f"{ISMIR_SITE}static/thumbnails/000012.png"
    assert record["video"] == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    assert "slides" not in record  # an empty cell is no link
    assert links_of(page(site, record)) == {
        "PDF": f"{ISMIR_SITE}static/pdfs/000012.pdf", "Video": "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "Poster": f"{ISMIR_SITE}static/posters/000012.pdf", "Thumbnail": f"{ISMIR_SITE}static/thumbnails/000012.png"}
    home = (site / "index.html").read_text(encoding="utf-8")
    assert f'<a href="{ISMIR_SITE}static/posters/000012.pdf">Poster</a>' in home
    tablature = papers_json(site)["A Dataset of Guitar Tablature With Expressive Techniques"]
    assert tablature["pdf"] == f"{ISMIR_SITE}static/pdfs/000045.pdf"  # the cell's spaces are not the path's
    assert tablature["slides"] == f"{ISMIR_SITE}static/slides/000045.pdf"
    assert f'<a href="{ISMIR_SITE}static/slides/000045.pdf">Slides</a>' in home


def test_the_pdf_is_the_citation_pdf_url_and_the_others_are_no_citation_tags(ismir):
    _, site, _ = ismir
    html = page(site, papers_json(site)["A Dataset of Guitar Tablature With Expressive Techniques"])
    assert f'<meta name="citation_pdf_url" content="{ISMIR_SITE}static/pdfs/000045.pdf">' in html
    assert html.count("citation_pdf_url") == 1 and "slides/000045" not in html.split("</head>")[0]


def test_a_javascript_link_is_refused_and_the_paper_still_published(ismir):
    _, site, built = ismir
    assert "`slides` 'javascript:alert(1)' is not an http(s) URL" in built.stderr
    keynote = papers_json(site)["Keynote: Listening Machines"]
    assert "slides" not in keynote and keynote["pdf"] == "https://zenodo.org/records/1234567/files/000077.pdf"
    assert "javascript:" not in every_html(site) and "javascript:" not in (site / "papers.json").read_text()


def test_the_front_matter_keeps_the_materials_under_their_own_names(ismir):
    content, _, _ = ismir
    (meta,) = pages_by_uid(content)["12"]
    assert meta["poster"] == f"{ISMIR_SITE}static/posters/000012.pdf"
    assert meta["thumbnail"] == f"{ISMIR_SITE}static/thumbnails/000012.png"


def test_without_a_base_paths_into_the_old_site_are_left_out_with_one_warning(ismir_without_base):
    _, site, built = ismir_without_base
    assert built.returncode == 0, built.stderr
    warnings = [line for line in built.stderr.splitlines() if "paths into the venue's own site" in line]
    assert len(warnings) == 1, built.stderr
    (warning,) = warnings
    assert warning.startswith("ismir-2024-papers.csv:2: warning: ")
    assert "5 links in columns `pdf_path`, `poster_pdf`, `thumbnail`, `slides_pdf`" in warning
    assert "'static/pdfs/000012.pdf'" in warning
    assert "venue_base_url" in warning
    assert "static/" not in every_html(site) and "static/" not in (site / "papers.json").read_text()
    keynote = papers_json(site)["Keynote: Listening Machines"]
    assert keynote["pdf"] == "https://zenodo.org/records/1234567/files/000077.pdf"  # an address needs no base


def test_a_file_the_content_folder_has_is_published_from_it_not_from_the_venue(tmp_path):
    content = tmp_path / "content"
    (content / "static" / "pdfs").mkdir(parents=True)
    (content / "static" / "pdfs" / "000012.pdf").write_bytes(b"%PDF-1.4 copied in")
    (content / "proceedings.yaml").write_text(f"venue_base_url: {ISMIR_SITE}\n", encoding="utf-8")
    assert cli("import", str(ISMIR), "--content", str(content)).returncode == 0
    built = cli("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert built.returncode == 0, built.stderr
    record = papers_json(tmp_path / "site")[HUBNESS]
    assert record["pdf"] == "static/pdfs/000012.pdf" and record["poster"].startswith(ISMIR_SITE)
    assert (tmp_path / "site" / "static" / "pdfs" / "000012.pdf").read_bytes() == b"%PDF-1.4 copied in"


def test_icwsm_gives_the_pdf_and_the_publishers_page(tmp_path):
    _, site, built = imported_site(tmp_path, ICWSM, config="venue_base_url: https://ojs.aaai.org\n")
    assert built.returncode == 0, built.stderr
    record = papers_json(site)["Partisan Asymmetries in Exposure to Misinformation"]
    assert record["pdf"] == "https://ojs.aaai.org/index.php/ICWSM/article/download/18035/17838"
    assert record["publisher_page"] == "https://ojs.aaai.org/index.php/ICWSM/article/view/18035"  # /… from the base
    assert links_of(page(site, record))["Publisher's page"] == record["publisher_page"]
    other = papers_json(site)["Who Moderates the Moderators?"]
    assert "pdf" not in other and other["publisher_page"] == "https://ojs.aaai.org/index.php/ICWSM/article/view/18036"


def test_sigdial_paper_poster_and_full_video(tmp_path):
    _, site, built = imported_site(tmp_path, SIGDIAL)
    assert built.returncode == 0, built.stderr
    record = papers_json(site)["Grounding Dialogue in Shared Visual Context"]
    assert record["pdf"] == "https://aclanthology.org/2023.sigdial-1.14.pdf"
    assert record["poster"] == "https://underline.io/lecture/000014-poster.pdf"
    assert record["video"] == "https://underline.io/lecture/000014"
    assert "video" not in papers_json(site)["Data-to-Text Without Hallucinated Numbers"]  # N/A: none
    assert "ignored column" not in built.stderr


def test_pmlrs_url_is_the_publishers_page_beside_the_pdf(tmp_path):
    _, site, built = imported_site(tmp_path, PMLR)
    assert built.returncode == 0, built.stderr
    record = papers_json(site)["Preface"]
    assert record["pdf"] == "https://proceedings.example.org/v999/doe23a/doe23a.pdf"
    assert record["publisher_page"] == "https://proceedings.example.org/v999/doe23a.html"


def test_the_labels_speak_the_interface_language(tmp_path):
    _, site, built = imported_site(tmp_path, ISMIR, config=f"venue_base_url: {ISMIR_SITE}\nlanguage: ja\n")
    assert built.returncode == 0, built.stderr
    html = page(site, papers_json(site)["A Dataset of Guitar Tablature With Expressive Techniques"])
    assert ">スライド</a>" in html and ">Slides</a>" not in html


def test_a_venue_base_url_that_is_no_address_is_an_error_naming_the_line(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "proceedings.yaml").write_text("title: T\nvenue_base_url: static/\n", encoding="utf-8")
    built = cli("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert built.returncode != 0 and "Traceback" not in built.stderr
    assert "proceedings.yaml:2: venue_base_url must be an http(s) URL" in built.stderr


# -- affiliations ------------------------------------------------------------------------------------


def test_ismirs_authors_and_affil_give_each_author_an_affiliation(ismir):
    _, site, built = ismir
    record = papers_json(site)["A Dataset of Guitar Tablature With Expressive Techniques"]
    assert record["authors"] == [
        {"name": "Kenji Sato",
         "affiliation": "National Institute of Advanced Industrial Science and Technology (AIST)"},
        {"name": "María José García", "affiliation": "Universitat Pompeu Fabra, Music Technology Group"},
        {"name": "Lee Min-jun", "affiliation": "KAIST"}]
    html = page(site, record)
    assert ('<a href="../authors/maria-jose-garcia.html">María José García</a> '
            '<span class="affiliation">Universitat Pompeu Fabra, Music Technology Group</span>') in html
    assert ('<meta name="citation_author" content="María José García">\n<meta name="citation_author_institution" '
            'content="Universitat Pompeu Fabra, Music Technology Group">') in html
    author = (site / "authors" / "arthur-flexer.html").read_text(encoding="utf-8")
    assert '<p class="lead">Johannes Kepler University Linz</p>' in author
    assert "Flexer*" not in every_html(site) and "(Johannes" not in every_html(site)
    assert "authors_and_affil" not in built.stderr  # read, not ignored


def test_the_front_matter_keeps_name_and_affiliation_apart(ismir):
    content, _, _ = ismir
    (meta,) = pages_by_uid(content)["12"]
    assert meta["authors"] == [{"name": "Arthur Flexer", "affiliation": "Johannes Kepler University Linz"},
                               {"name": "Jane Roe", "affiliation": "Queen Mary University of London, Centre for "
                                                                   "Digital Music"}]


@pytest.mark.parametrize("written, expected", [
    ("Arthur Flexer (Johannes Kepler University Linz)*; Jane Roe (QMUL, C4DM)",
     [("Arthur Flexer", "Johannes Kepler University Linz"), ("Jane Roe", "QMUL, C4DM")]),
    ("Jane Doe (Centre for Music and Technology) and John Roe (X)",
     [("Jane Doe", "Centre for Music and Technology"), ("John Roe", "X")]),
    ("Doe, Jane (MIT); Smith, Jr., John*", [("Jane Doe", "MIT"), ("John Smith, Jr.", "")]),
    ("Ana (Ani) Souza and Bo Li", [("Ana (Ani) Souza", ""), ("Bo Li", "")]),
    ("A Bee (unclosed, Cee Dee", [("A Bee (unclosed", ""), ("Cee Dee", "")]),
    ("  Lee Min-jun   ( KAIST )  † ", [("Lee Min-jun", "KAIST")]),
])
def test_name_affiliation_strings(written, expected):
    from generator.model.details import parse_authors

    problems: list = []
    authors = parse_authors(written, lambda *problem: problems.append(problem))
    assert [(author.name, author.affiliation) for author in authors] == expected and not problems


def test_author_objects_spell_affiliation_several_ways(tmp_path):
    lines = [{"title": "One", "abstract": "First abstract of the file.",
              "authors": [{"name": "Ada Lovelace", "affiliations": ["Analytical Society", "Royal Institution"]},
                          {"name": "Grace Hopper", "institution": "Yale University"},
                          {"name": "Alan Turing", "affiliation": {"name": "not text"}},
                          "Edsger Dijkstra (TU Eindhoven)"]}]
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    built = cli("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert built.returncode == 0, built.stderr
    assert papers_json(tmp_path / "site")["One"]["authors"] == [
        {"name": "Ada Lovelace", "affiliation": "Analytical Society; Royal Institution"},
        {"name": "Grace Hopper", "affiliation": "Yale University"}, {"name": "Alan Turing"},
        {"name": "Edsger Dijkstra", "affiliation": "TU Eindhoven"}]


# -- programme data ----------------------------------------------------------------------------------


def test_ismirs_day_session_and_position_are_kept(ismir):
    content, site, built = ismir
    record = papers_json(site)["A Dataset of Guitar Tablature With Expressive Techniques"]
    assert (record["day"], record["sessions"], record["position"]) == ("2", ["4"], "11")
    (meta,) = pages_by_uid(content)["45"]
    assert (meta["day"], meta["sessions"], meta["position"]) == ("2", "4", "11")  # strings, as the source wrote them
    assert "time" not in record and "room" not in record
    assert "ignored column(s) channel_url, slack_channel" in built.stderr  # day and position are read now


def test_icwsms_date_time_and_room_are_kept_and_a_rebuild_changes_nothing(tmp_path):
    content, site, built = imported_site(tmp_path, ICWSM)
    assert built.returncode == 0, built.stderr
    record = papers_json(site)["Who Moderates the Moderators?"]
    assert (record["day"], record["time"], record["room"]) == ("2021-06-08", "10:00-11:30 EDT", "Room 1")
    again = cli("build", "--content", str(content), "--out", str(site))
    assert "pages: no changes" in again.stderr, again.stderr


def test_a_time_typed_into_a_page_stays_a_time(tmp_path):
    content, site, _ = imported_site(tmp_path, ICWSM)
    (meta,) = pages_by_uid(content)["18036"]
    text = meta["_path"].read_text(encoding="utf-8")
    assert "time: 10:00-11:30 EDT\n" in text
    meta["_path"].write_text(text.replace("time: 10:00-11:30 EDT\n", "time: 14:30\n"), encoding="utf-8")
    built = cli("build", "--content", str(content), "--out", str(site))
    assert built.returncode == 0, built.stderr
    assert papers_json(site)["Who Moderates the Moderators?"]["time"] == "14:30"  # YAML 1.1 would read 870


def test_a_bibs_date_is_not_a_programme_day(tmp_path):
    bib = tmp_path / "talks.bib"
    bib.write_text("@inproceedings{k1,\n  title = {A Title},\n  date = {2023-07-23},\n  abstract = {Text.}\n}\n",
                   encoding="utf-8")
    _, site, built = imported_site(tmp_path, bib)
    assert built.returncode == 0, built.stderr
    assert "day" not in papers_json(site)["A Title"]


# -- links from a pattern ----------------------------------------------------------------------------

PMLR_247 = VENUES / "pmlr-v247.bib"
PATTERNS = ('links:\n  pdf: "https://proceedings.mlr.press/v247/{key}/{key}.pdf"\n'
            '  code: "https://github.com/colt/{key}"\n')


def test_pmlrs_pdfs_come_from_the_entry_key(tmp_path):
    content, site, built = imported_site(tmp_path, PMLR_247, config=PATTERNS)
    assert built.returncode == 0, built.stderr
    record = papers_json(site)["Sharp Rates for Learning Parities With SGD"]
    assert record["pdf"] == "https://proceedings.mlr.press/v247/abbe24a/abbe24a.pdf"
    assert record["code"] == "https://github.com/example/parities"  # the paper's own link wins
    assert papers_json(site)["Conference on Learning Theory 2024: Preface"]["code"] == \
        "https://github.com/colt/agrawal24a"
    html = page(site, record)
    assert links_of(html)["PDF"] == record["pdf"]
    assert '<meta name="citation_pdf_url" content="https://proceedings.mlr.press/v247/abbe24a/abbe24a.pdf">' in html
    assert "pdf = {https://proceedings.mlr.press/v247/abbe24a/abbe24a.pdf}" in (site / "proceedings.bib").read_text()
    assert '<a href="https://proceedings.mlr.press/v247/abbe24a/abbe24a.pdf">PDF</a>' in \
        (site / "index.html").read_text(encoding="utf-8")
    (meta,) = pages_by_uid(content)["abbe24a"]
    assert "pdf" not in meta  # the page keeps what the source says; the pattern is the config's


def test_without_the_pattern_pmlrs_papers_have_no_pdf(tmp_path):
    _, site, built = imported_site(tmp_path, PMLR_247)
    assert built.returncode == 0, built.stderr
    assert "pdf" not in papers_json(site)["Sharp Rates for Learning Parities With SGD"]


def test_a_placeholder_is_filled_in_as_part_of_an_address(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "papers.jsonl").write_text(json.dumps({"id": "a b/c?d", "title": "Odd Id", "abstract": "Text."}) + "\n",
                                          encoding="utf-8")
    (content / "proceedings.yaml").write_text('links: {slides: "https://example.org/{key}.pdf"}\n', encoding="utf-8")
    assert cli("build", "--content", str(content), "--out", str(tmp_path / "site")).returncode == 0
    assert papers_json(tmp_path / "site")["Odd Id"]["slides"] == "https://example.org/a%20b%2Fc%3Fd.pdf"


@pytest.mark.parametrize("entry, message", [
    ('  pdf: "https://proceedings.mlr.press/v247/{kee}/{kee}.pdf"',
     "proceedings.yaml:3: links: pdf: 'https://proceedings.mlr.press/v247/{kee}/{kee}.pdf' has the placeholder "
     "{kee}, which is not one (known: {key}, {id}, {slug})"),
    ('  pfd: "https://proceedings.mlr.press/v247/{key}/{key}.pdf"',
     "proceedings.yaml:3: links: 'pfd' is not a kind of link (known: pdf, code, openreview, video, poster, slides, "
     "thumbnail, data, publisher_page)"),
    ('  pdf: "javascript:alert({key})"', "proceedings.yaml:3: links: pdf: 'javascript:alert({key})' must be an "
                                         "http(s) address"),
    ('  pdf: "https://example.org/all.pdf"', "has no placeholder, so every paper would get the same link"),
])
def test_a_bad_pattern_is_an_error_naming_proceedings_yaml_and_its_line(tmp_path, entry, message):
    content = tmp_path / "content"
    content.mkdir()
    # The bad entry on line 3, a good one after it: the line named is the entry's, not the key's.
    (content / "proceedings.yaml").write_text(f"title: T\nlinks:\n{entry}\n  code: \"https://github.com/x/{{key}}\"\n",
                                              encoding="utf-8")
    built = cli("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert built.returncode != 0 and "Traceback" not in built.stderr
    assert message in built.stderr, built.stderr
