"""Files as venues publish them (tests/fixtures/venues/) go from `import` to a publishable site with no hand
fixes: Mini-Conf's escaped line breaks and `|` lists, `Family, Given;` authors, review columns that must stay
private, a PMLR volume's `@Proceedings` entry, sections and trailing-comma names, papers without abstracts,
and repeated records. Each numbered point of issue 15 has its test here."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import cli, write_list
from generator.commands.build import build
from generator.content.pages import read_page
from generator.reporter import Reporter
from generator.commands.cli import main
from generator.sources.escapes import decode_line_breaks
from generator.sources.records import split_list

VENUES = Path(__file__).parent / "fixtures" / "venues"
MINICONF = VENUES / "miniconf-2020-papers.csv"
CONFTOOL = VENUES / "conftool-export.csv"
PMLR = VENUES / "pmlr-v999.bib"


def imported_site(tmp_path: Path, *sources: Path, config: str = "",
                  runner=cli) -> tuple[Path, Path, subprocess.CompletedProcess]:
    content, site = tmp_path / "content", tmp_path / "site"
    for source in sources:
        result = runner("import", str(source), "--content", str(content))
        assert result.returncode == 0, result.stderr
    if config:
        (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    built = runner("build", "--content", str(content), "--out", str(site))
    return content, site, built


def pages_by_uid(content: Path) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for path in sorted((content / "papers").glob("*.md")):
        doc = read_page(path)
        found.setdefault(str(doc.meta.get("uid", "")), []).append({**doc.meta, "_body": doc.body, "_path": path})
    return found


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture(scope="module")
def miniconf(tmp_path_factory):
    """Imported and built as an organiser does it, from the command line."""
    return imported_site(tmp_path_factory.mktemp("miniconf"), MINICONF)


@pytest.fixture(scope="module")
def pmlr(tmp_path_factory):
    return imported_site(tmp_path_factory.mktemp("pmlr"), PMLR)


# -- 1. Mini-Conf line breaks -----------------------------------------------------------------------


@pytest.mark.parametrize("written, expected", [
    (r"graphs.\n\nFurthermore, we", "graphs.\n\nFurthermore, we"),
    (r"one.\nTwo.", "one.\nTwo."),
    (r"end.\n", "end.\n"),
    (r"$\nu$, $\nabla f$, $a \neq b$, $\not\in$, \newline, \noindent",
     r"$\nu$, $\nabla f$, $a \neq b$, $\not\in$, \newline, \noindent"),
    (r"First.\n\noindent Second", "First.\n\\noindent Second"),
    (r"lines\r\nlike Windows", "lines\nlike Windows"),
    (r"an author's \norm alone", r"an author's \norm alone"),  # no escaped breaks elsewhere: TeX
    (r"A.\n\nthe next paragraph starts lower case", "A.\n\nthe next paragraph starts lower case"),
    (r"a TeX break\\next line", r"a TeX break\\next line"),
])
def test_escaped_line_breaks_become_breaks_and_tex_starting_with_n_stays(written, expected):
    assert decode_line_breaks(written) == expected


def test_a_file_that_escapes_its_line_breaks_reads_every_cells_backslash_n_word_as_a_break(tmp_path, capsys):
    """COLT 2020's papers.csv: `best\\nknown` alone in a cell is ambiguous (an author's \\nknown?), but other
    cells of the file write `\\n\\n` and `\\nThe`: the file escapes its breaks, so it is a break everywhere."""
    content = tmp_path / "content"
    content.mkdir()
    rows = ["UID,title,authors,abstract",
            r'c1,Bandits Again,Ann Lee,"We improve the best\nknown bound, firstly,\ninspired by $\nu$-norms."',
            r'c2,Second Paper,Bob Ray,"One paragraph.\n\nThe second one, with $\nabla f$."',
            r'c3,Third Paper,Cy Dee,"Weakly\ncorrelated arms."']
    (content / "papers.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 0
    err = capsys.readouterr().err
    assert "papers.csv:3: warning: this file writes line breaks as \\n (as on this line), so `\\nknown`, " \
           "`\\ninspired`, `\\ncorrelated` were read as a line break before a word" in err, err
    site = tmp_path / "site" / "papers"
    first = (site / "bandits-again.html").read_text(encoding="utf-8")
    assert "tex-error" not in first and "best\nknown" in first and "<mi>ν</mi>" in first
    assert "tex-error" not in (site / "third-paper.html").read_text(encoding="utf-8")


def test_json_lines_decide_the_backslash_n_rule_for_the_whole_file(tmp_path, capsys):
    """The evidence may come after the ambiguous record: the file is read whole before it is decided."""
    content = tmp_path / "content"
    content.mkdir()
    records = [{"id": "j1", "title": "Bandits Again", "abstract": "The best\\nknown bound, with $\\nu$."},
               {"id": "j2", "title": "Second Paper", "abstract": "One paragraph.\\n\\nThe second one."}]
    (content / "papers.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 0
    assert "papers.jsonl:2: warning: this file writes line breaks as \\n (as on this line), so `\\nknown` were " \
           "read as a line break" in capsys.readouterr().err
    first = (tmp_path / "site" / "papers" / "bandits-again.html").read_text(encoding="utf-8")
    assert "tex-error" not in first and "best\nknown" in first and "<mi>ν</mi>" in first


def test_a_table_without_an_abstract_column_says_so_once(tmp_path, capsys):
    content = tmp_path / "content"
    content.mkdir()
    (content / "accepted.csv").write_text("paper_id,Title,Authors,Track\n1,Quasar Kernels,Ann Lee,Main\n"
                                         "2,Sparse Bandits,Bob Ray,Main\n", encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 0
    err = capsys.readouterr().err
    assert err.count("no abstract column") == 1, err
    assert "accepted.csv:1: warning: no abstract column, so no paper of this file has an abstract: the header " \
           "names paper_id, Title, Authors, Track; an abstract column may be named `abstract`" in err, err


def test_a_bibs_proceedings_entry_describes_its_own_papers_only(tmp_path):
    """COLT 2020's papers.csv beside COLT 2024's .bib: the CSV papers never cite volume 247, its editors
    or its place; the .bib's own papers still do (PMLR's entries give none of those themselves)."""
    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(VENUES / "pmlr-v999.bib", content / "pmlr-v999.bib")
    (content / "colt2020.csv").write_text("UID,title,authors,abstract\nc1,Older Bandits,Ann Lee,"
                                          "Regret bounds for older bandits.\n", encoding="utf-8")
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "site")]) == 0
    bib = (tmp_path / "site" / "proceedings.bib").read_text(encoding="utf-8")
    entries = re.split(r"\n(?=@)", bib)
    older = next(block for block in entries if "Older Bandits" in block)
    assert "999" not in older and "Doe" not in older and "Honolulu" not in older, older
    preface = next(block for block in entries if "{Preface}" in block)
    assert "volume = {999}" in preface and "Honolulu" in preface, preface
    page = (tmp_path / "site" / "papers" / "older-bandits.html").read_text(encoding="utf-8")
    assert 'name="citation_volume"' not in page and "Honolulu" not in page


def test_importing_a_second_file_leaves_the_first_files_pages_as_they_are(tmp_path):
    """colt2020.csv sorts before pmlr-v999.bib, yet imported after it: its papers come after, and not one
    byte of the existing pages changes (no order renumbered)."""
    content = tmp_path / "content"
    content.mkdir()
    assert main(["import", str(VENUES / "pmlr-v999.bib"), "--content", str(content)]) == 0
    before = {p.name: p.read_bytes() for p in (content / "papers").glob("*.md")}
    csv = tmp_path / "colt2020.csv"
    csv.write_text("UID,title,authors,abstract\nc1,Older Bandits,Ann Lee,Regret bounds for older bandits.\n",
                   encoding="utf-8")
    assert main(["import", str(csv), "--content", str(content)]) == 0
    after = {p.name: p.read_bytes() for p in (content / "papers").glob("*.md")}
    assert {name: after[name] for name in before} == before
    [new] = [read_page(content / "papers" / name) for name in after if name not in before]
    assert new.meta["order"] == len(before) + 1, new.meta


def test_mini_conf_cells_render_paragraphs_and_tex_starting_with_n(miniconf):
    content, site, built = miniconf
    (page,) = [p for p in pages_by_uid(content)["H1gx1CNKPH"]]
    assert page["_body"].startswith("We study message passing on sparse graphs.\n\nFurthermore, we show")
    html = (site / "papers" / f"{page['slug']}.html").read_text(encoding="utf-8")
    abstract = html.split('class="abstract"')[1].split("</section>")[0]
    assert abstract.count("<p>") == 2  # two paragraphs, not one with \n\n in it
    assert "tex-error" not in abstract and "\\n" not in text_of(abstract)
    assert "Furthermore" in abstract
    assert "<mi>ν</mi>" in abstract and "∇" in abstract and "≠" in abstract


# -- 2. Lists inside cells; Family, Given authors ---------------------------------------------------


def test_a_pipe_list_is_split_on_pipes_only():
    assert split_list("Privacy, fairness|Robustness", commas=True) == ["Privacy, fairness", "Robustness"]
    assert split_list("Studies of society (culture, history, arts) using ML|Vision", commas=True) == [
        "Studies of society (culture, history, arts) using ML", "Vision"]
    assert split_list("attention, efficiency; small models", commas=True) == ["attention", "efficiency",
                                                                              "small models"]


def test_keywords_with_commas_sessions_as_lists_and_one_topic_per_name(miniconf):
    content, site, built = miniconf
    (page,) = pages_by_uid(content)["H1gx1CNKPH"]
    assert page["tags"] == ["Graph neural networks", "Privacy, fairness, and robustness",
                            "Studies of society (culture, history, arts) using ML"]
    assert page["sessions"] == ["Session 3B", "Session 3D"]
    html = (site / "papers" / f"{page['slug']}.html").read_text(encoding="utf-8")
    # each linked to its place in the contents (issue 38)
    assert re.findall(r'<a class="session" href="[^"]+">([^<]+)</a>', html) == ["Session 3B", "Session 3D"]
    # "privacy, fairness, and robustness" on another paper is the same topic: one page lists both papers.
    topics = text_of((site / "tags" / "index.html").read_text(encoding="utf-8"))
    assert topics.lower().count("privacy, fairness, and robustness") == 1
    topic = (site / "tags" / "privacy-fairness-and-robustness.html").read_text(encoding="utf-8")
    assert "Graph Networks Dream" in topic and "Privacy Amplification" in topic


def test_family_given_authors_are_people_named_given_family(tmp_path):
    content, site, built = imported_site(tmp_path, CONFTOOL)
    assert built.returncode == 0, built.stderr
    (page,) = pages_by_uid(content)["101"]
    assert page["authors"] == ["Jane Doe", "Anna Maria van der Berg", "John Smith, Jr."]
    assert page["sessions"] == "Poster Session 1" and page["track"] == "Main"  # one of each: written plainly
    html = (site / "papers" / f"{page['slug']}.html").read_text(encoding="utf-8")
    assert "Doe, Jane" not in html and "*" not in text_of(html.split('class="authors"')[1].split("</ul>")[0])


# -- 3. BibTeX as BibTeX reads it -------------------------------------------------------------------


def test_a_pmlr_volume_imports_every_paper_and_exits_0(pmlr):
    content, site, built = pmlr
    assert built.returncode == 0, built.stderr
    pages = pages_by_uid(content)
    assert set(pages) == {"doe23a", "greenstreet23a", "kumar23b", "lee23demo"}  # the trailing comma lost none
    assert pages["greenstreet23a"][0]["authors"] == ["Laura Greenstreet", "Ravi Kumar", "Jörg Müller"]
    assert "pmlr-v999.bib:69: warning: @inproceedings{nothing23} has neither a title nor an abstract" in built.stderr \
        or "nothing23" not in str(pages)


def test_the_proceedings_entry_names_dates_and_edits_the_volume(pmlr):
    content, site, built = pmlr
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "<h1 class=\"page-title\">Proceedings of the First Workshop on Tiny Things</h1>" in home
    assert "Edited by Jane Doe, Anna van der Berg, John Smith, Jr." in home
    # sections are groups of the list, with an index of them at the top
    assert re.search(r'<h2 class="group-title" id="[^"]+">Contributed Papers</h2>', home)
    index = home.split('class="group-index"')[1].split("</nav>")[0]
    assert [m for m in re.findall(r">([^<>]+)</a>", index)] == ["Preface", "Contributed Papers", "Demonstrations"]
    assert home.index("Preface</h2>") < home.index("Contributed Papers</h2>") < home.index("Demonstrations</h2>")


def test_entry_keys_and_bibliographic_fields_reach_bibtex_meta_tags_and_page(pmlr):
    content, site, built = pmlr
    (page,) = pages_by_uid(content)["greenstreet23a"]
    html = (site / "papers" / f"{page['slug']}.html").read_text(encoding="utf-8")
    bib = (site / "proceedings.bib").read_text(encoding="utf-8")
    entry = bib[bib.index("@inproceedings{greenstreet23a,"):].split("\n}\n")[0]
    for field in ("pages = {3--20}", "year = {2023}", "volume = {999}", "publisher = {PMLR}",
                  "month = {23--24 Jul}", "editor = {Jane Doe and Anna van der Berg and Smith, Jr., John}",
                  "booktitle = {Proceedings of the First Workshop on Tiny Things}"):
        assert field in entry, (field, entry)
    assert "address = {Honolulu, Hawaii, USA}" in entry  # the volume's, as the paper gives none
    assert "@inproceedings{greenstreet23a," in html  # the Cite box uses the venue's key too
    for tag in ('name="citation_firstpage" content="3"', 'name="citation_lastpage" content="20"',
                'name="citation_volume" content="999"', 'name="citation_publication_date" content="2023/10/02"'):
        assert tag in html, tag
    assert "Volume 999, pages 3–20 (2023)" in text_of(html)
    assert "Contributed Papers" in html.split('class="paper-facts"')[1].split("</p>")[0]


def test_case_braces_never_show_in_titles_or_slugs(pmlr):
    content, site, built = pmlr
    (page,) = pages_by_uid(content)["greenstreet23a"]
    assert page["title"] == "Polyak-Łojasiewicz Conditions for Gaussian Bandits with EXP3++"
    assert page["slug"] == "polyak-lojasiewicz-conditions-for-gaussian-bandits-with-exp3"
    (sparse,) = pages_by_uid(content)["kumar23b"]
    assert "{" not in sparse["title"] and "{" not in sparse["slug"]
    html = (site / "papers" / f"{sparse['slug']}.html").read_text(encoding="utf-8")
    title = html.split('<h1 class="page-title">')[1].split("</h1>")[0]
    assert "<math" in title and "{" not in text_of(title)


def test_citation_date_falls_back_to_the_year(tmp_path):
    bib = tmp_path / "v.bib"
    bib.write_text("@inproceedings{k1,\n title = {A Title},\n author = {Doe, Jane},\n year = {2019},\n"
                   " abstract = {We study things that matter.},\n}\n", encoding="utf-8")
    content, site, built = imported_site(tmp_path / "x", bib)
    (page,) = pages_by_uid(content)["k1"]
    html = (site / "papers" / f"{page['slug']}.html").read_text(encoding="utf-8")
    assert 'name="citation_publication_date" content="2019"' in html


# -- 4. Papers without an abstract -------------------------------------------------------------------


def test_papers_without_abstracts_are_papers(miniconf, pmlr):
    content, site, built = miniconf
    (keynote,) = pages_by_uid(content)["keynote-1"]
    html = (site / "papers" / f"{keynote['slug']}.html").read_text(encoding="utf-8")
    assert "Keynote: The Next Ten Years of Learning" in html and "Yoshua Example" in html
    assert "No abstract was given for this paper." in html
    assert "record 'empty-1' has neither a title nor an abstract; skipped it" in built.stderr or \
        "empty-1" in cli("check", "--content", str(content)).stderr
    content, site, built = pmlr
    (preface,) = pages_by_uid(content)["doe23a"]
    html = (site / "papers" / f"{preface['slug']}.html").read_text(encoding="utf-8")
    assert "No abstract was given" in html and "proceedings.example.org/v999/doe23a/doe23a.pdf" in html


def test_a_paper_without_abstract_keeps_its_page_when_its_title_changes_nothing_else(tmp_path):
    content = tmp_path / "c"
    content.mkdir()
    (content / "p.csv").write_text("UID,title,abstract\nk1,Keynote One,\nk2,Keynote Two,\n", encoding="utf-8")
    assert build(content, tmp_path / "s", Reporter()).papers == 2
    first = {uid: p[0]["_path"].name for uid, p in pages_by_uid(content).items()}
    assert build(content, tmp_path / "s", Reporter()).changes == []
    assert {uid: p[0]["_path"].name for uid, p in pages_by_uid(content).items()} == first


# -- 5. Duplicates ------------------------------------------------------------------------------------


def test_the_same_abstract_twice_is_published_once_with_a_warning_naming_both(miniconf):
    content, site, built = miniconf
    assert "S1gEXAMPLE" not in pages_by_uid(content)
    assert re.search(r"miniconf-2020-papers\.csv:\d+: warning: “Graph Networks Dream of Sparse Graphs” repeats "
                     r"the abstract of “Graph Networks Dream of Sparse Graphs” \(line 2\)", built.stderr), built.stderr
    checked = cli("check", "--content", str(content))
    assert "repeats the abstract" in checked.stderr


def test_records_sharing_an_id_never_show_each_other(miniconf, tmp_path):
    content, site, built = miniconf
    pages = pages_by_uid(content)["B1xSperKvH"]
    assert sorted(p["title"] for p in pages) == ["A Different Paper That Reuses an Id",
                                                "Privacy Amplification by Shuffling, Revisited"]
    # Re-import with the rows swapped: every URL still shows its own paper.
    before = {p["slug"]: p["title"] for p in pages}
    copy = tmp_path / "content"
    shutil.copytree(content, copy)
    rows = MINICONF.read_bytes().decode("utf-8").split("\r\n")
    swapped = [rows[0], rows[5], *rows[1:5], *rows[6:]]
    (copy / MINICONF.name).write_text("\r\n".join(swapped), encoding="utf-8")
    reporter = Reporter()
    build(copy, tmp_path / "site", reporter)
    after = {p["slug"]: p["title"] for p in pages_by_uid(copy)["B1xSperKvH"]}
    assert after == before


def test_a_new_export_beside_the_old_one_does_not_double_the_papers(tmp_path):
    content, site, built = imported_site(tmp_path, MINICONF)
    count = len(list((content / "papers").glob("*.md")))
    shutil.copyfile(MINICONF, content / "papers-final.csv")
    again = cli("build", "--content", str(content), "--out", str(site))
    assert again.returncode == 0, again.stderr
    assert len(list((content / "papers").glob("*.md"))) == count
    # papers-final.csv comes after miniconf-2020-papers.csv in name order: its records are the repeats
    assert re.search(r"papers-final\.csv:\d+: warning: 5 records of this file repeat papers of "
                     r"miniconf-2020-papers\.csv", again.stderr), again.stderr
    assert "replace miniconf-2020-papers.csv with it" in again.stderr


# -- 6. Exit codes and messages -----------------------------------------------------------------------


def test_odd_records_are_warnings_summarised_and_exit_0_unless_strict(tmp_path):
    content, site, built = imported_site(tmp_path, MINICONF)
    assert built.returncode == 0
    assert "warnings by file: miniconf-2020-papers.csv" in built.stderr
    strict = cli("build", "--content", str(content), "--out", str(site), "--strict")
    assert strict.returncode == 1


def test_content_given_as_a_file_says_to_import_it(tmp_path):
    result = cli("build", "--content", str(MINICONF), "--out", str(tmp_path / "site"))
    assert result.returncode == 2 and "is a file, not a content folder" in result.stderr
    assert f"proceedings import {MINICONF}" in result.stderr and "Traceback" not in result.stderr


def test_a_failed_import_leaves_no_empty_folder(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("name,notes\nx,y\n", encoding="utf-8")
    target = tmp_path / "new-content"
    result = cli("import", str(bad), "--content", str(target))
    assert result.returncode == 2 and not target.exists()
    assert "accepted names are `title`, `abstract`, `summary`" in result.stderr


# -- 7. Automatic topics ------------------------------------------------------------------------------


def test_keywords_are_the_topics_unless_auto_tags_says_otherwise(tmp_path):
    content, site, built = imported_site(tmp_path, CONFTOOL)
    (page,) = pages_by_uid(content)["101"]
    assert page["tags"] == ["ranking", "semi-supervised learning"]  # no taxonomy tag added
    (content / "proceedings.yaml").write_text("auto_tags: always\n", encoding="utf-8")
    assert cli("build", "--content", str(content), "--out", str(site)).returncode == 0
    (page,) = pages_by_uid(content)["101"]
    assert page["tags"][:2] == ["ranking", "semi-supervised learning"] and len(page["tags"]) > 2


def test_auto_tags_never_switches_the_taxonomy_off(tmp_path):
    content = tmp_path / "c"
    content.mkdir()
    write_list(content / "list.txt", "T", ["We train a diffusion model for image generation with transformers."])
    (content / "proceedings.yaml").write_text("auto_tags: never\n", encoding="utf-8")
    build(content, tmp_path / "s", Reporter())
    (pages,) = pages_by_uid(content).values()
    assert pages[0]["tags"] == []


def test_the_fallback_warning_names_the_taxonomy_in_use(tmp_path):
    content = tmp_path / "c"
    content.mkdir()
    write_list(content / "list.txt", "T", ["Zzz qqq xxx."])
    reporter = Reporter()
    build(content, tmp_path / "s", reporter)
    assert any("no tag of the built-in taxonomy matches" in d.message for d in reporter.warnings)
    (content / "taxonomy.yaml").write_text("tags:\n  Sorting: [sorting]\n", encoding="utf-8")
    (content / "list.txt").write_text("T\n\nYyy www vvv.\n", encoding="utf-8")
    reporter = Reporter()
    build(content, tmp_path / "s", reporter)
    assert any("no tag of taxonomy.yaml matches" in d.message for d in reporter.warnings)


# -- 8. Private columns stay private --------------------------------------------------------------------


def test_review_columns_never_reach_the_site(miniconf):
    content, site, built = miniconf
    for path in site.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert b"SECRET" not in data, path
    for page in (content / "papers").glob("*.md"):
        assert "SECRET" not in page.read_text(encoding="utf-8")
    records = json.loads((site / "papers.json").read_text(encoding="utf-8"))
    assert all(set(r) <= {"id", "slug", "order", "title", "url", "tags", "abstract", "authors", "sessions",
                          "track", "section", "award", "pdf", "code", "openreview", "doi", "pages", "volume",
                          "year", "month", "publisher", "address", "editors"} for r in records)
    assert "ignored column(s) primary_area, review_1, meta_review, decision_notes" in built.stderr
