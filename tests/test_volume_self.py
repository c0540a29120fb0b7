"""A volume that knows itself (issue 38, part 2), through the command line: ``import`` into a new folder writes a
proceedings.yaml titled from the source (its @proceedings, else its file or folder name), a build shows the same
title without it, a build with no date says once that citations will say "n.d.", and the sanity checks PMLR's
pmlint makes (dates against the year, names that are template text or hold quotes, one name in two orders,
titles in capitals) are warnings naming their file and line, counted by build and listed by check."""

from __future__ import annotations

import re
import shutil
from html import unescape
from pathlib import Path

import pytest
import yaml

from generator.commands.cli import main
from generator.model.volume_title import derived_title

VENUES = Path(__file__).parent / "fixtures" / "venues"
QUIRKS = VENUES / "pmlr-v247-quirks.bib"
BOOKTITLE = "Proceedings of Thirty Seventh Conference on Learning Theory"


def run(capsys, *args: str) -> tuple[int, str]:
    status = main(list(args))
    return status, capsys.readouterr().err


def page_title(site: Path) -> str:
    return unescape(re.search(r"<title>([^<]*)</title>", (site / "index.html").read_text(encoding="utf-8")).group(1))


# -- the title ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("names", "folder", "texts", "title"), [
    (["ismir-2024-papers.csv"], "content", [], "ISMIR 2024"),
    (["sigdial_2023.csv"], "site-src", [], "SIGDIAL 2023"),
    (["sigdial_2023.csv"], "", ["Accepted at SIGdial 2023.", "SIGdial and INLG"], "SIGdial 2023"),  # as the papers
    (["icwsm-2021-papers.csv"], "", [], "ICWSM 2021"),
    (["colt-2020-papers.csv"], "", ["Colt is a horse; COLT a meeting.", "Colt again."], "COLT 2020"),
    (["accepted_papers.csv"], "ismir-2024", [], "ISMIR 2024"),  # nothing in the file's name: the folder's
    (["ismir-papers.csv"], "2024", [], "ISMIR 2024"),  # a word but no year: the folder's year
    (["2024.csv"], "ismir", [], "ISMIR 2024"),
    (["interspeech_2024_abstracts.csv"], "", [], "Interspeech 2024"),  # a long word is a word, not an acronym
    (["icml2024-export-v2.jsonl"], "", [], "ICML 2024"),  # a fused year split off, a version dropped
    (["acl-2023-06-01-export.csv"], "", ["ACL rolling review", "the ACL anthology"], "ACL 2023"),  # a date stamp
    (["workshop-on-tiny-things.tsv"], "", [], "Workshop on Tiny Things"),
    (["tiny-things-2025.jsonl"], "", [], "Tiny Things 2025"),
    (["emnlp-2023-findings.csv"], "", [], "EMNLP 2023 Findings"),  # the first word, a year after it: the acronym
    (["NeurIPS-2026-accepted.csv"], "", [], "NeurIPS 2026"),  # a name's own capitals are kept
    (["papers.csv"], "content", [], ""),  # nothing to take a title from
])
def test_a_title_is_made_readable_from_the_file_or_folder_name(names, folder, texts, title):
    assert derived_title(names, folder, texts) == title


def test_import_of_a_csv_into_a_new_folder_writes_its_title_and_the_keys_to_fill(tmp_path, capsys):
    content = tmp_path / "ismir"
    status, err = run(capsys, "import", str(VENUES / "ismir-2024-papers.csv"), "--content", str(content))
    assert status == 0
    text = (content / "proceedings.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(text) == {"title": "ISMIR 2024"}  # the title alone is set: the rest is to fill
    for key in ("date", "editors", "publisher", "volume", "venue", "place", "base_url", "venue_base_url"):
        assert re.search(rf"^# {key}: ", text, re.MULTILINE), key
    assert "ismir-2024-papers.csv" in text and f"wrote {content / 'proceedings.yaml'}" in err
    # Filled in as the comments show, every key is one the config reads without a warning.
    filled = re.sub(r"^# (date|editors|publisher|volume|place): ", r"\1: ", text, flags=re.MULTILINE)
    (content / "proceedings.yaml").write_text(filled, encoding="utf-8")
    status, err = run(capsys, "build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert status == 0 and "unknown config key" not in err
    bib = (tmp_path / "site" / "proceedings.bib").read_text(encoding="utf-8")
    assert "editor = {Jane Doe and John Smith}" in bib and "publisher = {Tiny Things Society}" in bib


def test_a_build_without_proceedings_yaml_shows_the_title_import_writes(tmp_path, capsys):
    imported, bare = tmp_path / "imported", tmp_path / "bare"
    assert run(capsys, "import", str(VENUES / "sigdial-2023-papers.csv"), "--content", str(imported))[0] == 0
    bare.mkdir()
    shutil.copy(VENUES / "sigdial-2023-papers.csv", bare)
    for content in (imported, bare):
        assert run(capsys, "build", "--content", str(content), "--out", str(content) + "-site")[0] == 0
    assert page_title(Path(f"{imported}-site")) == page_title(Path(f"{bare}-site")) == "SIGDIAL 2023"
    bib = Path(f"{bare}-site", "proceedings.bib").read_text(encoding="utf-8")
    assert "booktitle = {SIGDIAL 2023}" in bib and "{sigdial2023-1," in bib  # not "Proceedings", not "paper-1"


def test_import_of_a_bib_takes_its_proceedings_title(tmp_path, capsys):
    content = tmp_path / "colt"
    assert run(capsys, "import", str(VENUES / "pmlr-v247.bib"), "--content", str(content))[0] == 0
    text = (content / "proceedings.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(text) == {"title": BOOKTITLE}
    assert "@proceedings entry of pmlr-v247.bib" in text


def test_import_never_overwrites_a_config_and_a_dry_run_writes_none(tmp_path, capsys):
    content = tmp_path / "mine"
    content.mkdir()
    (content / "proceedings.yaml").write_text("title: My Own Title\n", encoding="utf-8")
    assert run(capsys, "import", str(VENUES / "icwsm-2021-papers.csv"), "--content", str(content))[0] == 0
    assert (content / "proceedings.yaml").read_text(encoding="utf-8") == "title: My Own Title\n"
    fresh = tmp_path / "fresh"
    status, err = run(capsys, "import", str(VENUES / "icwsm-2021-papers.csv"), "--content", str(fresh), "--dry-run")
    assert status == 0 and not fresh.exists() and "would write" in err and "ICWSM 2021" in err


# -- no date --------------------------------------------------------------------------------------


def test_a_build_with_no_date_says_once_in_its_summary_that_citations_say_nd(tmp_path, capsys):
    content = tmp_path / "icwsm"
    content.mkdir()
    shutil.copy(VENUES / "icwsm-2021-papers.csv", content)
    status, err = run(capsys, "build", "--content", str(content), "--out", str(tmp_path / "site"))
    notes = [line for line in err.splitlines() if "n.d." in line]
    assert status == 0 and len(notes) == 1
    assert "date: YYYY-MM-DD" in notes[0] and "proceedings.yaml" in notes[0]
    lines = err.splitlines()
    assert lines.index(notes[0]) >= len(lines) - 3  # beside the summary, not among the warnings
    assert "(n.d.)" in (tmp_path / "site" / "proceedings.apa.txt").read_text(encoding="utf-8")
    (content / "proceedings.yaml").write_text("date: 2021-06-07\n", encoding="utf-8")
    status, err = run(capsys, "build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert status == 0 and "n.d." not in err


def test_a_bib_whose_proceedings_give_the_year_needs_no_note(tmp_path, capsys):
    content = tmp_path / "colt"
    content.mkdir()
    shutil.copy(VENUES / "pmlr-v999.bib", content)
    status, err = run(capsys, "build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert status == 0 and "n.d." not in err


# -- sanity checks ---------------------------------------------------------------------------------


def quirks_folder(tmp_path: Path) -> Path:
    content = tmp_path / "colt"
    content.mkdir()
    shutil.copy(QUIRKS, content)
    return content


def line_of(text: str, pattern: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if re.search(pattern, line))


def test_each_sanity_check_is_a_warning_with_file_and_line_in_build_and_check(tmp_path, capsys):
    content = quirks_folder(tmp_path)
    source = QUIRKS.read_text(encoding="utf-8")
    name = QUIRKS.name
    expected = {
        f"{name}:{line_of(source, r'^    start = ')}: warning: @proceedings `start = 2023-06-30` is in 2023, but the "
        "volume's year is 2024",
        f"{name}:{line_of(source, r'^    end = ')}: warning: @proceedings `end = 2023-07-03` is in 2023",
        f"{name}:{line_of(source, r'InProceedings.smith24')}: warning: 1 paper(s) give a `year` other than the "
        "volume's 2024",
        f"{name}:{line_of(source, r'InProceedings.gast24')}: warning: the name “Nicolas \" Gast” holds a quote mark",
        f"{name}:{line_of(source, r'InProceedings.smith24')}: warning: the name “Firstnames\" format separated by "
        "\"and\"” looks like a template's placeholder",
        f"{name}:{line_of(source, r'InProceedings.gast24')}: warning: the title “MEAN FIELD ANALYSIS OF TWO-CHOICE "
        "LOAD BALANCING” is in capitals only",
        f"{name}:{line_of(source, r'InProceedings.jin24')}: warning: one name in two orders: “Sidford Aaron” here "
        f"and “Aaron Sidford” in 1 paper(s) ({name}:{line_of(source, r'InProceedings.jambulapati24')})",
    }
    status, checked = run(capsys, "check", "--content", str(content))
    assert status == 0
    for warning in expected:
        assert warning in checked, warning
    status, built = run(capsys, "build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert status == 0
    for warning in expected:
        assert warning in built, warning
    assert re.search(r"\(0 errors, (\d+) warnings\)", built.splitlines()[-1])
    assert int(re.search(r"(\d+) warnings\)", built.splitlines()[-1]).group(1)) >= len(expected)
    assert run(capsys, "build", "--content", str(content), "--out", str(tmp_path / "site"), "--strict")[0] == 1


def test_junk_names_are_kept_but_never_head_the_people_index(tmp_path, capsys):
    content = quirks_folder(tmp_path)
    assert run(capsys, "build", "--content", str(content), "--out", str(tmp_path / "site"))[0] == 0
    index = (tmp_path / "site" / "authors" / "index.html").read_text(encoding="utf-8")
    names = [unescape(name) for _, name in re.findall(r'<a href="\.\./authors/([^"]+)\.html">([^<]+)</a>', index)
             if _ != "index"]
    assert names[-1] == 'Firstnames" format separated by "and"'  # kept (its paper names it), listed last
    assert names[0] == "Shipra Agrawal"  # a person heads the index
    assert names.index('Nicolas " Gast') == 1  # under G, after Agrawal: the stray quote does not sort first
    assert names.index("Sidford Aaron") == names.index("Aaron Sidford") + 1  # under S beside the usual spelling


def test_a_person_listed_as_two_spellings_in_people_yaml_stops_the_order_warning(tmp_path, capsys):
    content = quirks_folder(tmp_path)
    (content / "people.yaml").write_text("different:\n  - [Sidford Aaron, Aaron Sidford]\n", encoding="utf-8")
    status, err = run(capsys, "check", "--content", str(content))
    assert status == 0 and "two orders" not in err


def test_the_meeting_in_the_volumes_year_passes(tmp_path, capsys):
    content = tmp_path / "colt"
    content.mkdir()
    shutil.copy(VENUES / "pmlr-v247.bib", content)  # start, end and published all in 2024
    status, err = run(capsys, "check", "--content", str(content))
    assert status == 0 and "the volume's year" not in err


def test_a_config_date_of_another_year_than_the_proceedings_is_named_at_its_line(tmp_path, capsys):
    content = tmp_path / "colt"
    content.mkdir()
    shutil.copy(VENUES / "pmlr-v247.bib", content)
    (content / "proceedings.yaml").write_text("title: COLT 2024\nstart_date: 2023-06-30\n", encoding="utf-8")
    status, err = run(capsys, "check", "--content", str(content))
    assert status == 0
    assert "proceedings.yaml:2: warning: `start_date: 2023-06-30` is in 2023, but the volume's year is 2024" in err


# -- a series ------------------------------------------------------------------------------------

COLT_2023 = """UID,title,authors,abstract
1,Faster Spectral Density Estimation,Arun Jambulapati|Aaron Sidford,We estimate spectral densities fast.
2,Mean Field Limits of Queues,Nicolas Gast|Benny Van Houdt,The mean field limit of a queue is accurate to order 1/N.
3,Private Learning of Halfspaces,Aaron Roth|Adam Smith,We learn halfspaces privately from few samples.
"""
COLT_2024 = """UID,title,authors,abstract
1,Randomized Methods for Linear Programs,Yujia Jin|Sidford Aaron,We solve linear programs by random walks.
2,Parallel Sampling Under Isoperimetry,Nima Anari,We sample in parallel from log-concave distributions.
"""


def series(tmp_path: Path) -> Path:
    """Two Mini-Conf volumes of one series, each a `colt-<year>-papers.csv`, with no date; Aaron Sidford written
    given name first in 2023 and family name first in 2024."""
    content = tmp_path / "colt"
    for year, table in (("2023", COLT_2023), ("2024", COLT_2024)):
        (content / year).mkdir(parents=True)
        (content / year / f"colt-{year}-papers.csv").write_text(table, encoding="utf-8")
    (content / "proceedings.yaml").write_text("title: COLT\n", encoding="utf-8")
    return content


def test_a_series_names_its_undated_volumes_once_and_keys_never_repeat_across_it(tmp_path, capsys):
    content = series(tmp_path)
    (content / "2024" / "proceedings.yaml").write_text("date: 2024-06-30\n", encoding="utf-8")
    status, err = run(capsys, "build", "--content", str(content), "--out", str(tmp_path / "site"))
    notes = [line for line in err.splitlines() if "n.d." in line]
    assert status == 0 and notes == [notes[0]] and "1 of 2 volumes have no date (2023)" in notes[0]
    keys = {year: re.findall(r"@inproceedings\{([^,]+),",
                             (tmp_path / "site" / year / "proceedings.bib").read_text(encoding="utf-8"))
            for year in ("2023", "2024")}
    assert keys == {"2023": ["colt2023-1", "colt2023-2", "colt2023-3"], "2024": ["colt2024-1", "colt2024-2"]}
    # A volume carried over unchanged says it again.
    status, err = run(capsys, "build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert "1 of 2 volumes have no date (2023)" in err


def test_one_name_in_two_orders_across_a_series_is_warned_at_a_page_by_build_and_check(tmp_path, capsys):
    content = series(tmp_path)
    status, built = run(capsys, "build", "--content", str(content), "--out", str(tmp_path / "site"))
    warning = ("2024/papers/randomized-methods-for-linear-programs.md: warning: one name in two orders: “Sidford "
               "Aaron” here and “Aaron Sidford” in 1 paper(s) (2023/papers/faster-spectral-density-estimation.md)")
    assert status == 0 and built.count(warning) == 1
    status, checked = run(capsys, "check", "--content", str(content))
    assert status == 0 and checked.count(warning) == 1
    index = (tmp_path / "site" / "people" / "index.html").read_text(encoding="utf-8")
    people = re.findall(r'<a href="\.\./people/(?!index)[^"]+\.html">([^<]+)</a>', index)
    assert people[0] == "Nima Anari"  # "Sidford Aaron" does not head the index under A
    assert people.index("Sidford Aaron") == people.index("Aaron Sidford") + 1  # under S, beside the usual spelling
