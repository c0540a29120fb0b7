"""The command line, run as a user runs it: ``python -m generator`` in a process of its own (``process``) for
the entry point, the rest through the same ``main`` in this process (``cli``), which skips only the
interpreter's start-up."""

import json
import os
import subprocess
import sys

from conftest import REPO, cli, process, write_list


def test_version_and_help():
    assert process("--version").stdout.startswith("proceedings ")
    for command in ("build", "import"):
        result = cli(command, "--help")
        assert result.returncode == 0 and "--content" in result.stdout


# ``run`` (``python -m generator``) as a command that printed, with a handler the interpreter's exit would run.
LEAVING = """
import atexit, sys
import generator.commands.cli as cli
atexit.register(lambda: print("torn down", file=sys.stderr))
def main():
    print("said", end="")
    print("warned", end="", file=sys.stderr)
    return int(sys.argv[1])
cli.main = main
cli.run()
"""


def test_the_process_ends_with_the_commands_code_and_output_without_the_interpreters_teardown():
    for code in (0, 1, 2):
        ended = subprocess.run([sys.executable, "-c", LEAVING, str(code)], capture_output=True, text=True, timeout=60,
                               env={**os.environ, "PYTHONPATH": str(REPO)})
        assert (ended.returncode, ended.stdout, ended.stderr) == (code, "said", "warned")


def test_build_with_defaults_from_a_project_folder(tmp_path, seed_content):
    result = process("build", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "built 19 papers" in result.stderr
    assert (tmp_path / "site" / "index.html").is_file()


def test_import_dry_run_reports_and_writes_nothing(tmp_path):
    content = tmp_path / "ws"
    content.mkdir()
    outside = write_list(tmp_path / "talks.txt", "Workshop",
                         ["We introduce Foo, a model of bars.", "Second talk about baz."])
    result = cli("import", str(outside), "--content", str(content), "--dry-run")
    assert result.returncode == 0, result.stderr
    assert "would create" in result.stderr and "would copy" in result.stderr
    assert list(content.iterdir()) == []


def test_import_copies_the_list_and_creates_pages(tmp_path):
    content = tmp_path / "ws"
    content.mkdir()
    outside = write_list(tmp_path / "talks.txt", "Workshop",
                         ["We introduce Foo, a model of bars.", "Second talk about baz."])
    result = cli("import", str(outside), "--content", str(content))
    assert result.returncode == 0, result.stderr
    assert (content / "talks.txt").read_bytes() == outside.read_bytes()
    assert len(list((content / "papers").glob("*.md"))) == 2
    again = cli("build", "--content", str(content), "--out", str(tmp_path / "out"))
    assert again.returncode == 0, again.stderr
    assert "pages: no changes" in again.stderr


def test_bad_page_is_reported_others_still_build(tmp_path, seed_content):
    page = sorted((seed_content / "papers").glob("*.md"))[3]
    text = page.read_text(encoding="utf-8").replace("order:", "order: [", 1)
    page.write_text(text, encoding="utf-8")
    result = cli("build", "--content", str(seed_content), "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert f"papers/{page.name}:" in result.stderr and "invalid YAML" in result.stderr
    assert "Traceback" not in result.stderr
    papers = json.loads((tmp_path / "out" / "papers.json").read_text(encoding="utf-8"))
    assert len(papers) == 18


def test_bad_page_keeps_its_last_good_html(tmp_path, seed_content):
    out = tmp_path / "out"
    assert cli("build", "--content", str(seed_content), "--out", str(out)).returncode == 0
    page = sorted((seed_content / "papers").glob("*.md"))[3]
    before = (out / "papers" / f"{page.stem}.html").read_bytes()
    page.write_text(page.read_text(encoding="utf-8").replace("slug:", "slug: [", 1), encoding="utf-8")
    result = cli("build", "--content", str(seed_content), "--out", str(out))
    assert result.returncode == 1 and "kept the previous build" in result.stderr
    assert (out / "papers" / f"{page.stem}.html").read_bytes() == before


def test_bad_config_fails_and_keeps_the_previous_site(tmp_path, seed_content):
    out = tmp_path / "out"
    assert cli("build", "--content", str(seed_content), "--out", str(out)).returncode == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (seed_content / "proceedings.yaml").write_text("papers_per_page: many\n", encoding="utf-8")
    result = cli("build", "--content", str(seed_content), "--out", str(out))
    assert result.returncode == 2
    assert "proceedings.yaml:1: papers_per_page" in result.stderr and "Traceback" not in result.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_broken_template_fails_and_keeps_the_previous_site(tmp_path, seed_content):
    out = tmp_path / "out"
    assert cli("build", "--content", str(seed_content), "--out", str(out)).returncode == 0
    before = (out / "index.html").read_bytes()
    templates = seed_content / "theme" / "templates"
    templates.mkdir(parents=True)
    (templates / "paper.html").write_text(
        '{% extends "default/paper.html" %}\n{% block content %}{% if %}{% endblock %}\n')
    result = cli("build", "--content", str(seed_content), "--out", str(out))
    assert result.returncode == 2
    assert "paper.html:2" in result.stderr and "Traceback" not in result.stderr
    assert (out / "index.html").read_bytes() == before


def test_refuses_to_replace_a_folder_it_did_not_build(tmp_path, seed_content):
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.tex").write_text("do not delete")
    result = cli("build", "--content", str(seed_content), "--out", str(precious))
    assert result.returncode == 2 and "refusing" in result.stderr
    assert (precious / "thesis.tex").exists()


def test_undefined_macro_is_a_warning_naming_the_paper(tmp_path):
    content = tmp_path / "c"
    content.mkdir()
    write_list(content / "list.txt", "T", ["We bound the error by $\\foo(n)$ for all inputs."])
    result = cli("build", "--content", str(content), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "\\foo" in result.stderr and "papers/" in result.stderr
    page = next((tmp_path / "out" / "papers").glob("*.html")).read_text(encoding="utf-8")
    # on the page the macro is its name, no error box (issue 38)
    assert 'class="tex-unknown" title="undefined macro \\foo">foo</mi>' in page and 'class="tex-error"' not in page


def test_progress_only_on_a_terminal_and_warnings_summarised():
    import io

    from generator.errors import Diagnostic
    from generator.reporter import ConsoleReporter

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    piped, terminal = io.StringIO(), Terminal()
    for stream in (piped, terminal):
        reporter = ConsoleReporter(stream)
        reporter.progress("render templates", 10, 10)
        for number in range(60):
            reporter.report(Diagnostic("warning", f"undefined macro \\m{number % 3}", "papers/x.md",
                                       code="latex-unknown-macro"))
        assert "30 more warnings not shown" in reporter.summary()
    assert "\r" not in piped.getvalue() and "render templates: 10/10" in terminal.getvalue()
    assert piped.getvalue().count("warning:") == 30
