"""Issue 38, part 1: no record is dropped silently. Every record not published is counted on the last line a
command prints, without -v, with its first places (file:line); -v prints every warning and --help says so; a
long series' build stays within a screen; a content folder with nothing to read is refused (exit 2)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from series_fixtures import make_long_series
from conftest import REPO
from generator.commands.cli import main
from generator.reporter import ConsoleReporter, not_published
from generator.diagnostics import RECORD_REPEAT as REPEAT, RECORD_SKIPPED as SKIPPED
from generator.errors import Diagnostic

UNKNOWN = "latex-unknown-macro"

pytestmark = pytest.mark.slow  # starts whole processes: CI runs it, the fast lane does not

VENUES = Path(__file__).parent / "fixtures" / "venues"


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "generator", *args], env=env, capture_output=True, text=True,
                          timeout=600)


def lossy_content(folder: Path) -> Path:
    """A volume whose sources each hold a record that cannot be published, among good ones."""
    folder.mkdir()
    (folder / "a.bib").write_text("@inproceedings{good, title = {Good}, abstract = {Kept.}}\n"
                                  "@inproceedings{x title = {No comma after the key}}\n", encoding="utf-8")
    (folder / "b.csv").write_text('UID,title,abstract\n1,One,Fine\n,,\n3,Three,Fine too\n4,,\n', encoding="utf-8")
    lines = [json.dumps({"id": "j1", "title": "Jay", "abstract": "Kept too."}), "{not json", json.dumps({"id": "j2"})]
    (folder / "c.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_the_summary_line_counts_every_record_not_published_with_its_place(tmp_path):
    content = lossy_content(tmp_path / "content")
    for command in (["build", "--out", str(tmp_path / "site")], ["check"]):
        result = run(command[0], "--content", str(content), *command[1:])
        assert result.returncode == 0, result.stderr
        last = result.stderr.strip().splitlines()[-1]
        assert last.endswith("; 4 records not published (a.bib:2, b.csv:5, c.jsonl:2, c.jsonl:3)"), last
    built = run("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert "built 4 papers" in built.stderr  # Good, One, Three, Jay
    assert run("build", "--strict", "--content", str(content), "--out", str(tmp_path / "site")).returncode == 1


def test_records_not_published_are_printed_past_the_cap_and_counted_past_the_places_shown():
    stream = io.StringIO()
    reporter = ConsoleReporter(stream)
    for number in range(40):
        reporter.report(Diagnostic("warning", f"undefined macro \\m{number}", "papers/x.md", code=UNKNOWN))
    for line in range(1, 13):
        reporter.report(Diagnostic("warning", "row cannot be read; skipped it", "p.csv", line, SKIPPED))
    reporter.report(Diagnostic("warning", "3 records repeat papers of p.csv", "q.csv", 1, REPEAT, 3))
    printed = stream.getvalue()
    assert printed.count("undefined macro") == ConsoleReporter.WARNINGS_SHOWN
    assert printed.count("skipped it") == ConsoleReporter.NOT_PUBLISHED_SHOWN
    assert not_published(reporter.not_published) == "15 records not published (p.csv:1, p.csv:2, p.csv:3, " \
                                                     "p.csv:4, p.csv:5, …)"
    assert reporter.summary().startswith("18 more warnings not shown (-v shows all)")


def test_v_prints_every_warning():
    stream = io.StringIO()
    reporter = ConsoleReporter(stream, verbose=True)
    for number in range(80):
        reporter.report(Diagnostic("warning", f"undefined macro \\m{number}", "papers/x.md", code=UNKNOWN))
    assert stream.getvalue().count("warning:") == 80 and reporter.summary() == ""


@pytest.mark.parametrize("command", ["build", "check", "import"])
def test_help_says_what_v_prints(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "print every warning" in text and "record not published" in text
    assert ("each stage's time" in text) == (command == "build")


def test_a_long_series_prints_at_most_sixty_lines_without_v_and_names_what_it_did_not_publish(tmp_path):
    content = make_long_series(tmp_path, volumes=16)
    out = tmp_path / "site"
    for attempt in range(2):  # the first build (pages created) and the next (volumes carried over)
        result = run("build", "--content", str(content), "--out", str(out))
        assert result.returncode == 0, result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) <= 60, (attempt, len(lines), result.stderr)
        assert "2001/pmlr-quirks.bib" in result.stderr
        assert lines[-1].endswith("; 6 records not published (2004/miniconf-2020-papers.csv:8, "
                                  "2004/miniconf-2020-papers.csv:5, 2007/pmlr-v999.bib:69, "
                                  "2013/miniconf-2020-papers.csv:8, 2013/miniconf-2020-papers.csv:5, …)")
    verbose = run("build", "-v", "--content", str(content), "--out", str(out))
    warnings = int(verbose.stderr.strip().splitlines()[-1].split(" warnings)")[0].rsplit(" ", 1)[1])
    assert verbose.stderr.count(": warning: ") == warnings  # every one printed


def test_the_quirks_of_a_pmlr_file_cost_no_paper_end_to_end(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    shutil.copyfile(VENUES / "pmlr-quirks.bib", content / "pmlr-quirks.bib")
    result = run("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert result.returncode == 0 and "built 9 papers" in result.stderr, result.stderr
    assert "not published" not in result.stderr


@pytest.mark.parametrize("holds", [(), ("abstracts.docx",), ("abstracts.docx", "proceedings.yaml", "notes/")])
@pytest.mark.parametrize("command", ["build", "check"])
def test_a_content_folder_with_nothing_to_read_is_exit_2_naming_what_it_holds(tmp_path, command, holds):
    content = tmp_path / "content"
    content.mkdir()
    for name in holds:
        (content / name.rstrip("/")).mkdir() if name.endswith("/") else (content / name).write_text("title: X\n")
    result = run(command, "--content", str(content), *(["--out", str(tmp_path / "site")] if command == "build" else []))
    assert result.returncode == 2
    said = result.stderr.strip()
    assert said.startswith(f"error: {content}: no source of abstracts to read: ")
    assert ("it is empty" in said) == (not holds)
    assert all(name in said for name in holds)
    assert "The formats read are .txt .bib .csv .tsv .jsonl" in said
    assert not (tmp_path / "site").exists()


def test_importing_a_format_it_does_not_read_is_exit_2_naming_the_formats(tmp_path):
    (tmp_path / "abstracts.docx").write_bytes(b"PK\x03\x04")
    result = run("import", str(tmp_path / "abstracts.docx"), "--content", str(tmp_path / "content"))
    assert result.returncode == 2 and ".txt, .bib, .csv, .tsv, .jsonl" in result.stderr
    assert not (tmp_path / "content").exists()


def test_a_folder_of_hand_written_pages_and_no_source_still_builds(tmp_path):
    content = tmp_path / "content"
    (content / "papers").mkdir(parents=True)
    (content / "papers" / "talk.md").write_text("---\nid: talk-1\ntitle: A Talk Written by Hand\nslug: a-talk\n---\n\n"
                                                 "We wrote this abstract by hand.\n", encoding="utf-8")
    result = run("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert result.returncode == 0 and "built 1 papers" in result.stderr, result.stderr
