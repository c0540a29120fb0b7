"""The abstract renderer: fixture cases, problems, and the NeurIPS 2026 seed.

Fixture files (tests/fixtures/latex/*.txt) use markdown-it-py's format: a case
name line, ``.``, the input lines, ``.``, the expected output lines, ``.``, and a
blank line between cases. ``plain.txt`` holds ``RenderedAbstract.plain``,
``inline.txt`` holds ``render_inline`` HTML, every other file ``render`` HTML.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator import diagnostics as codes
from generator.latex import AbstractRenderer, MacroDef, RenderedAbstract, TexProblem

UNKNOWN = codes.LATEX_UNKNOWN_MACRO

FIXTURES = Path(__file__).parent / "fixtures" / "latex"
# The bundled list (the same file as ../shared/seed/neurips-2026.txt), so that a fresh clone renders it too.
SEED = Path(__file__).resolve().parents[1] / "content" / "neurips-2026.txt"

MACROS = {
    "dVC": MacroDef(r"d_{\mathrm{VC}}"),
    "pair": MacroDef(r"\langle #1, #2 \rangle", 2),
    "lp": MacroDef(r"\left("),
    "rp": MacroDef(r"\right)"),
    "loop": MacroDef(r"\loop"),
    "bomb": MacroDef(r"\bomb\bomb"),
}


def read_fixtures(path: Path) -> list[tuple[str, str, str, str]]:
    """(id, name, input, expected) for each case of a fixture file."""
    lines = path.read_text(encoding="utf-8").split("\n")
    cases, i = [], 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        name, start = lines[i], i
        assert lines[i + 1] == ".", f"{path.name}:{i + 2}: expected '.' after the case name"
        i += 2
        parts = []
        for _ in range(2):
            end = lines.index(".", i)
            parts.append("\n".join(lines[i:end]))
            i = end + 1
        cases.append((f"{path.name}:{start + 1} {name}", name, *parts))
    return cases


def fixture_cases() -> list:
    return [pytest.param(path, source, expected, id=case_id)
            for path in sorted(FIXTURES.glob("*.txt"))
            for case_id, _name, source, expected in read_fixtures(path)]


def render_for(path: Path, renderer: AbstractRenderer, source: str) -> str:
    """What a fixture file compares: plain text, inline HTML or block HTML."""
    if path.stem == "plain":
        return renderer.render(source).plain
    if path.stem == "inline":
        return renderer.render_inline(source).html
    return renderer.render(source).html


@pytest.fixture(scope="module")
def renderer() -> AbstractRenderer:
    return AbstractRenderer(MACROS)


@pytest.mark.parametrize("path, source, expected", fixture_cases())
def test_fixture(renderer, path, source, expected):
    assert render_for(path, renderer, source).rstrip("\n") == expected.rstrip("\n")


# -- problems ---------------------------------------------------------------------

@pytest.mark.parametrize("source, name, shown", [
    (r"The \Atk loss", "Atk", "Atk"),
    (r"as in \rn{1} and", "rn", "1"),
    (r"as in \hl[y]{AND} and", "hl", "AND"),
    (r"the \textsc{\algName} method", "algName", "algName"),
])
def test_an_unknown_text_macro_is_its_name_or_its_argument(renderer, source, name, shown):
    """Never an error box in the reader's sentence: the name (or the argument) in the text's style, reported."""
    result = renderer.render(source)
    assert result.problems == (TexProblem(f"undefined macro \\{name}", f"\\{name}", UNKNOWN, name),)
    assert f'<span class="tex-unknown" title="undefined macro \\{name}">{shown}</span>' in result.html
    assert "tex-error" not in result.html and "\\" not in re.sub(r'title="[^"]*"', "", result.html)
    assert shown in result.plain and "\\" not in result.plain


@pytest.mark.parametrize("source, name, body, html", [
    (r"complexity of \nnc in", "nnc", r"\textsc{nnc}", '<span class="smallcaps">nnc</span> in'),
    (r"algorithm (\appr{}), by", "appr", r"\textsc{appr}", '(<span class="smallcaps">appr</span>), by'),
    (r"learning of \snew{nearly} homogeneous", "snew", r"\text{#1}", "of nearly homogeneous"),
    (r"a \red{\emph{new}} bound", "red", r"\text{#1}", "a <em>new</em> bound"),
])
def test_an_authors_text_macro_is_guessed_by_convention(renderer, source, name, body, html):
    """A lower-case word names the paper's method (set in small capitals); a wrapper of words shows its
    words. Both are guesses, reported with the line that pins them, never an unknown mark."""
    result = renderer.render(source)
    assert result.problems == () and "tex-unknown" not in result.html
    assert result.guesses == (TexProblem(f"guessed \\{name} as {body}", f"\\{name}", codes.LATEX_MACRO_GUESSED, name,
                                         body),)
    assert html in result.html


@pytest.mark.parametrize("source, shown, label", [
    (r"Figure~\ref{fig_frontier} presents", "Figure\xa0<span", "fig_frontier"),
    (r"by \eqref{eq:main}.", "(??)", "eq:main"),
    (r"Section \cref{sec:exp}", "??", "sec:exp"),
])
def test_a_reference_into_the_paper_shows_as_latex_shows_a_missing_label(renderer, source, shown, label):
    result = renderer.render(source)
    assert result.problems == () and result.guesses == ()
    assert shown in result.html and f"a reference to “{label}” in the paper" in result.html
    assert label not in result.plain and "??" in result.plain


@pytest.mark.parametrize("source, message, snippet, code", [
    (r"(LRR)~\cite{tpami", r"missing argument for \cite", r"\cite{tpami", codes.LATEX_MISSING_ARGUMENT),
    (r"at most (O\left(\alpha", r"\left without a matching \right", r"\left", codes.LATEX_MISSING_ARGUMENT),
    (r"ratio \frac{a}", r"missing argument for \frac", r"\frac", codes.LATEX_MISSING_ARGUMENT),
    (r"$\loop + 1$", r"macro \loop expands without end (does it use itself?)", r"$\loop + 1$", codes.LATEX_MATH_ERROR),
    (r"$\bomb$", r"macro \bomb expands without end (does it use itself?)", r"$\bomb$", codes.LATEX_MATH_ERROR),
    (r"$\pair{a}$", r"macro \pair expects 2 arguments", r"$\pair{a}$", codes.LATEX_MATH_ERROR),
    (r"$\left( x$", r"\left without a matching \right", r"$\left( x$", codes.LATEX_MATH_ERROR),
    (r"$\frac{a}{$", "incomplete math (a command is missing its argument)", r"$\frac{a}{$", codes.LATEX_MATH_ERROR),
    (r"an \emph, alone", r"missing argument for \emph", r"\emph", codes.LATEX_MISSING_ARGUMENT),
])
def test_problem_is_reported(renderer, source, message, snippet, code):
    result = renderer.render(source)
    assert [(p.message, p.source, p.code) for p in result.problems] == [(message, snippet, code)]
    shown = f'<span class="tex-error" title="{html.escape(message)}">{html.escape(snippet, quote=False)}</span>'
    assert shown in result.html


def test_problems_come_in_document_order(renderer):
    result = renderer.render("\\Foo and $\\bar{x}+\\baz$\n\nthen \\Qux")
    assert [p.source for p in result.problems] == ["\\Foo", "\\baz", "\\Qux"]


@pytest.mark.parametrize("source, names, kept", [
    (r"a fixed value $\errnoise$.", ["errnoise"], ""),
    (r"$\rsvrg + \atk{x}_1 \le \alpha$", ["rsvrg", "atk"], "<mi>α</mi>"),
    (r"$\mathq{R}^d$", ["mathq"], "<mi>d</mi>"),  # latex2mathml dropped \mathb without a trace
    (r"$\text{a \foo b}$", ["foo"], "<mtext> b</mtext>"),
])
def test_undefined_macro_in_math_is_marked_in_place(renderer, source, names, kept):
    """One author macro no longer sinks its formula: the rest renders, the macro is its name, an identifier
    with a class (MathJax's noundefined, without the error box)."""
    result = renderer.render(source)
    assert "<math" in result.html and "tex-error" not in result.html and kept in result.html
    for name in names:
        assert (f'<mi mathvariant="normal" class="tex-unknown" title="undefined macro \\{name}">{name}</mi>'
                in result.html)
        assert name in result.plain and f"\\{name}" not in result.plain
    assert result.problems == tuple(TexProblem(f"undefined macro \\{name}", f"\\{name}", UNKNOWN, name)
                                    for name in names)


def test_problems_do_not_leak_between_renders(renderer):
    assert renderer.render(r"\Foo").problems
    assert renderer.render("fine").problems == ()


def test_config_macros_override_builtin_macros():
    builtin = AbstractRenderer().render(r"$\eps$ and \eps").html
    assert builtin.count("<mi>ϵ</mi>") == 2
    configured = AbstractRenderer({"eps": MacroDef(r"\varepsilon")}).render(r"$\eps$ and \eps").html
    assert configured.count("<mi>ε</mi>") == 2 and "ϵ" not in configured


def test_config_macro_beats_a_text_command():
    assert "<math" in AbstractRenderer({"O": MacroDef(r"\mathcal{O}")}).render(r"\O(n)").html
    assert AbstractRenderer().render(r"Bj\O rn").html == "<p>BjØrn</p>\n"


def test_renderer_without_macros_reports_config_macros():
    assert AbstractRenderer().render(r"$\dVC$").problems == (
        TexProblem(r"undefined macro \dVC", r"\dVC", UNKNOWN, "dVC"),)


def test_render_returns_the_public_type(renderer):
    result = renderer.render("x")
    assert isinstance(result, RenderedAbstract)
    assert result == RenderedAbstract("<p>x</p>\n", "x", ())


def test_render_is_deterministic(renderer):
    text = SEED.read_text(encoding="utf-8")
    assert renderer.render(text) == renderer.render(text)
    assert AbstractRenderer(MACROS).render(text) == renderer.render(text)


def test_tie_is_a_no_break_space(renderer):
    assert renderer.render("Fig.~3").html == "<p>Fig.\u00a03</p>\n"
    assert renderer.render("Fig.~3").plain == "Fig. 3"


def test_windows_line_endings_and_outer_whitespace(renderer):
    assert renderer.render("  one\r\n  two  \r\n").html == "<p>one\ntwo</p>\n"


# -- the seed -------------------------------------------------------------------

def seed_abstracts() -> list[str]:
    """The seed list: a title line, then abstracts separated by blank lines."""
    _title, _, body = SEED.read_text(encoding="utf-8").partition("\n")
    return [block.strip() for block in body.split("\n\n") if block.strip()]


class _TextOutsideMath(HTMLParser):
    """Visible text of rendered HTML, without MathML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.depth += tag == "math"

    def handle_endtag(self, tag):
        self.depth -= tag == "math"

    def handle_data(self, data):
        if not self.depth:
            self.text.append(data)


def visible_text(markup: str) -> str:
    parser = _TextOutsideMath()
    parser.feed(markup)
    parser.close()
    return "".join(parser.text)


def test_seed_has_abstracts():
    assert len(seed_abstracts()) >= 15


@pytest.mark.parametrize("index", range(len(seed_abstracts())))
def test_seed_abstract_renders_cleanly(index):
    source = seed_abstracts()[index]
    result = AbstractRenderer({"dVC": MacroDef(r"d_{\mathrm{VC}}")}).render(source)
    assert result.problems == ()
    for text in (visible_text(result.html), result.plain):
        assert "$" not in text
        assert not re.search(r"\\[A-Za-z]", text)
        assert "``" not in text and "''" not in text
    assert result.html.count("<math ") == len(re.findall(r"\$[^$]+\$", source))
    assert "  " not in result.plain and result.plain == result.plain.strip()


def test_a_macro_bomb_blames_the_macro_the_text_used():
    """Each macro doubles the next: the budget runs out deep inside, but the one to fix is the one used
    (the warning named the innermost, where the budget happened to end)."""
    from generator.latex.macros import MacroError, expand
    names = "abcdefghijkl"
    tower = {name: MacroDef(f"\\{after}\\{after}") for name, after in zip(names, names[1:])}
    tower["l"] = MacroDef("x")
    with pytest.raises(MacroError) as raised:
        expand(r"y + \a", tower)
    assert str(raised.value).startswith(r"macro \a expands without end, through \a → \b → \c → … → ")
