"""Diagnostics as data (issue 39, part 5): every warning and error carries a code from one registry
(generator/diagnostics.py) and fields naming what it is about; the console groups by code, `check`
reads codes and never the wording, and docs/diagnostics.md lists every code."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest

from conftest import REPO
from generator import diagnostics as codes
from generator.commands.check import undefined_macros
from generator.commands.cli import main
from generator.reporter import ConsoleReporter, Reporter
from generator.diagnostics import REGISTRY, UnknownCode, markdown
from generator.errors import ContentError, Diagnostic, ProceedingsError
from test_bad_input import hostile_content

VENUES = Path(__file__).parent / "fixtures" / "venues"
KEBAB = re.compile(r"[a-z]+(?:-[a-z]+)+")


def test_every_code_is_kebab_case_with_a_level_and_a_one_line_meaning():
    assert len(REGISTRY) >= 60
    for name, code in REGISTRY.items():
        assert KEBAB.fullmatch(name) and code.name == name, name
        assert code.level in ("error", "warning", "info") and code.meaning and "\n" not in code.meaning, name


def test_a_diagnostic_cannot_be_made_without_a_registered_code_at_its_level():
    with pytest.raises(UnknownCode, match="needs a code"):
        Diagnostic("warning", "undefined macro \\foo", "papers/a.md")
    with pytest.raises(UnknownCode, match="not in generator/diagnostics.py"):
        Diagnostic("warning", "undefined macro \\foo", "papers/a.md", code="latex-undefined")
    with pytest.raises(UnknownCode, match="registered as warning"):
        Diagnostic("error", "undefined macro \\foo", "papers/a.md", code=codes.LATEX_UNKNOWN_MACRO)
    with pytest.raises(TypeError):
        Reporter().warn("undefined macro \\foo", "papers/a.md")  # noqa  (a warning without its code)
    with pytest.raises(UnknownCode):
        ProceedingsError("bad", code="no-such-code")


def test_an_error_carries_its_class_code_or_its_own_into_its_diagnostic():
    assert Diagnostic.from_error(ContentError("bad page", path="papers/a.md")).code == codes.CONTENT_INVALID
    assert Diagnostic.from_error(ProceedingsError("--jobs must be at least 1")).code == codes.COMMAND_INVALID
    own = ContentError("clash", code=codes.PAGE_ID_CLASH)
    assert Diagnostic.from_error(own).code == codes.PAGE_ID_CLASH


def test_a_diagnostic_kept_in_a_cache_comes_back_whole_and_an_older_record_without_a_code_does_not():
    said = Diagnostic("warning", "guessed \\fhat as \\hat{f}", "papers/a.md", 3, codes.LATEX_MACRO_GUESSED,
                      paper="12", subject="fhat", value="\\hat{f}")
    assert Diagnostic.from_record(said.to_record()) == said
    with pytest.raises(UnknownCode):
        Diagnostic.from_record(["warning", "undefined macro \\foo", "papers/a.md", 3])


def test_docs_list_every_code_as_the_registry_does():
    """docs/diagnostics.md is made by `python -m generator.diagnostics > docs/diagnostics.md`."""
    assert (REPO / "docs" / "diagnostics.md").read_text(encoding="utf-8") == markdown()
    assert all(f"| `{name}` |" in markdown() for name in REGISTRY)


def test_every_registered_code_is_reported_somewhere_in_the_generator():
    """No code in the registry that nothing reports (a code renamed in one place only)."""
    source = "\n".join(path.read_text(encoding="utf-8") for path in (REPO / "generator").rglob("*.py")
                       if path.name != "diagnostics.py")
    constants = {name: value for name, value in vars(codes).items() if isinstance(value, str) and value in REGISTRY}
    # A name stands between word boundaries (as rf"\b{name}\b" finds it) where it is a whole run of word
    # characters: every run found once, not the whole source searched again for each of the codes.
    words = set(re.findall(r"\w+", source))
    unused = [value for name, value in constants.items() if name not in words]
    assert not unused and set(constants.values()) == set(REGISTRY)


# -- what real builds, checks and imports report ----------------------------------------------------


@pytest.fixture(scope="module")
def reported(tmp_path_factory) -> list[Diagnostic]:
    """Every diagnostic of building and checking the bundled volume, a series of one volume per venue file
    (PMLR, Mini-Conf, ConfTool, a programme table that is no list of papers) and the hostile folder, and of
    importing each venue file: collected where every reporter collects them."""
    root = tmp_path_factory.mktemp("diagnostics")
    seen: list[Diagnostic] = []
    real = Reporter.report
    patch = pytest.MonkeyPatch()
    patch.setattr(Reporter, "report", lambda self, diagnostic: (seen.append(diagnostic), real(self, diagnostic)))
    try:
        bundled = root / "bundled"
        shutil.copytree(REPO / "content", bundled)
        series = root / "series"
        for number, source in enumerate(sorted(VENUES.iterdir())):
            (series / f"{2001 + number}").mkdir(parents=True)
            shutil.copyfile(source, series / f"{2001 + number}" / source.name)
        (series / "proceedings.yaml").write_text("title: Every Venue\n", encoding="utf-8")
        hostile = hostile_content(root / "hostile")
        for content in (bundled, series, hostile):
            main(["build", "--content", str(content), "--out", str(root / f"site-{content.name}")])
            main(["check", "--content", str(content)])
        for source in sorted(VENUES.glob("*papers.csv")) + sorted(VENUES.glob("*.bib")):
            main(["import", str(source), "--content", str(root / "imported" / source.stem)])
    finally:
        patch.undo()
    return seen


@pytest.mark.slow  # builds, checks and imports every venue file of the tests
def test_every_diagnostic_of_real_content_has_a_registered_code_and_names_its_file(reported):
    assert len(reported) > 200
    for diagnostic in reported:
        assert REGISTRY[diagnostic.code].level == diagnostic.level, diagnostic
        if diagnostic.code not in (codes.NAME_UNCLEAR, codes.COMMAND_INVALID):  # of no one file
            assert diagnostic.path is not None, diagnostic
    kinds = {diagnostic.code for diagnostic in reported}
    assert {codes.LATEX_UNKNOWN_MACRO, codes.BIB_REPEATED_FIELD, codes.RECORD_SKIPPED, codes.RECORD_REPEAT,
            codes.NAME_NOT_A_NAME, codes.PAGE_UNKNOWN_KEY, codes.ENTRY_REFUSED_LINK} <= kinds, sorted(kinds)
    assert len(kinds) >= 20, sorted(kinds)


@pytest.mark.slow  # the same diagnostics
def test_diagnostics_name_their_subject(reported):
    """The macro, the field: what a tool reads instead of the message."""
    macros = [d for d in reported if d.code == codes.LATEX_UNKNOWN_MACRO]
    assert macros and all(re.fullmatch(r"[A-Za-z@]+", d.subject) for d in macros), macros[:3]
    assert all(f"\\{d.subject}" in d.message for d in macros)
    repeated = [d for d in reported if d.code == codes.BIB_REPEATED_FIELD]
    assert repeated and all(d.subject and d.paper and f"`{d.subject}`" in d.message.lower() for d in repeated)


# -- check and the console read codes ----------------------------------------------------------------


def test_check_finds_undefined_macros_by_code_whatever_the_wording():
    """A translated or reworded message is still an undefined macro; the words alone are not."""
    diagnostics = [
        Diagnostic("warning", "マクロ \\foo は定義されていません", "papers/a.md", None, codes.LATEX_UNKNOWN_MACRO,
                   subject="foo"),
        Diagnostic("warning", "the macro is not defined", "list.txt", 7, codes.LATEX_UNKNOWN_MACRO, subject="foo"),
        Diagnostic("warning", "undefined macro \\bar in “A title”", "papers/b.md", None, codes.LATEX_MATH_ERROR),
        Diagnostic("warning", "推测 \\fhat", "papers/c.md", None, codes.LATEX_MACRO_GUESSED, subject="fhat",
                   value="\\hat{f}"),
    ]
    assert undefined_macros(diagnostics) == {"foo": ["papers/a.md", "list.txt:7"]}
    assert undefined_macros(diagnostics, codes.LATEX_MACRO_GUESSED) == {"fhat as \\hat{f}": ["papers/c.md"]}


def test_check_and_the_reporter_read_no_diagnostic_message():
    """Neither check nor the console looks into a diagnostic's words: they read its code and fields."""
    for module in ("commands/check.py", "reporter.py"):
        text = (REPO / "generator" / module).read_text(encoding="utf-8")
        assert not re.search(r"\b(?:d|diagnostic|diagnostics\[\w+\])\.message\b", text), module
        assert not re.search(r"(?<!\w)(?:_kind\(|_UNDEFINED\b|_GUESSED\b)", text), module  # the regexes it had


def test_warnings_not_shown_are_summarised_one_line_per_code_with_count_and_first_places():
    stream = io.StringIO()
    reporter = ConsoleReporter(stream)
    for number in range(30):
        reporter.warn(f"the name “X{number}” has digits", f"v{number}.bib", number + 1, code=codes.NAME_NOT_A_NAME)
    for number in range(12):
        reporter.warn(f"undefined macro \\m{number}", f"papers/p{number}.md", code=codes.LATEX_UNKNOWN_MACRO,
                      subject=f"m{number}")
    for number in range(4):
        reporter.warn(f"@x{{k{number}}} gives `title` again", "a.bib", 10 * number + 1, code=codes.BIB_REPEATED_FIELD)
    reporter.warn("kept the previous build", "papers/z.md", code=codes.PAGE_KEPT_PREVIOUS)
    assert reporter.summary().splitlines() == [
        "17 more warnings not shown (-v shows all):",
        f"  12 × latex-unknown-macro: {REGISTRY['latex-unknown-macro'].meaning} (papers/p0.md, papers/p1.md, "
        "papers/p2.md, …)",
        f"  4 × bib-repeated-field: {REGISTRY['bib-repeated-field'].meaning} (a.bib:1, a.bib:11, a.bib:21, …)",
        f"  1 × page-kept-previous: {REGISTRY['page-kept-previous'].meaning} (papers/z.md)",
    ]


def test_past_five_kinds_the_summary_counts_the_others():
    reporter = ConsoleReporter(io.StringIO())
    kinds = [codes.NAME_NOT_A_NAME] * 30 + [codes.TITLE_CAPITALS, codes.DATE_ORDER, codes.DATE_PUBLISHED,
                                            codes.TABLE_EXTRA_CELLS, codes.BIB_UNCLOSED_ENTRY, codes.BIB_STRING_BOMB,
                                            codes.BIB_STRING_BOMB, codes.BIB_UNCLOSED_BRACE]
    for number, code in enumerate(kinds):
        reporter.warn("a warning", "a.bib", number + 1, code=code)
    lines = reporter.summary().splitlines()
    assert len(lines) == 1 + ConsoleReporter.KINDS_SHOWN + 1 and lines[1].startswith("  2 × bib-string-bomb")
    assert lines[-1].startswith("  and 2 of 2 other kind(s)")
