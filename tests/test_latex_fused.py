"""Names fused by a conversion that lost their braces (PMLR's abstracts): repair.py's general rules."""

from __future__ import annotations

import pytest

from generator.latex import AbstractRenderer, MacroDef
from generator.latex.repair import repair_math, split_fused_operator, unfuse


@pytest.mark.parametrize("name, latex", [
    ("mathrmpoly", r"\mathrm{poly}"), ("mathrmopt", r"\mathrm{opt}"), ("mathbfeta", r"\mathbf{\eta}"),
    ("textpoly", r"\text{poly}"), ("textnnz", r"\text{nnz}"), ("mathsfKL", r"\mathsf{K}L"),
    ("logN", r"\log N"), ("logn", r"\log n"), ("expx", r"\exp x"), ("logdet", r"\log \det"),
    ("maxeps", r"\max \eps"), ("sinX", r"\sin X"),
])
def test_a_fused_name_is_split_at_its_known_command(name, latex):
    assert unfuse(name, {"eps": MacroDef(r"\epsilon")}) == latex


@pytest.mark.parametrize("name", [
    "sinc", "sech", "minimize", "logit",   # a function's own name, or a word: no operator plus letter
    "info", "kern", "mini",                # a lower-case letter after inf, ker, min makes a word or a primitive
    "texttimes", "textonehalf",            # textcomp symbols, not \text{times}
    "limsup", "argmax", "textbf",          # known commands
])
def test_a_name_that_means_something_else_is_not_split(name):
    assert unfuse(name, {}) is None


def test_a_brace_after_a_word_font_keeps_the_command():
    assert unfuse("textcolor", {}, "{") is None
    assert repair_math(r"\textcolor{red}{x}", {}) == r"\textcolor{red}{x}"


def test_a_user_macro_is_never_split():
    macros = {"logN": MacroDef(r"\log_2 N"), "mathrmopt": MacroDef(r"\mathsf{OPT}")}
    assert unfuse("logN", macros) is None and unfuse("mathrmopt", macros) is None
    rendered = AbstractRenderer(macros).render(r"depth $\logN$ and $\mathrmopt$")
    assert "<msub><mi>log</mi><mn>2</mn></msub>" in rendered.html
    assert "<mi>𝖮</mi>" in rendered.html


def test_split_operator_needs_one_letter_or_a_command():
    assert split_fused_operator("logNM", {}) is None
    assert split_fused_operator("logpi", {}) == ("log", r"\pi")


@pytest.fixture(scope="module")
def renderer():
    return AbstractRenderer()


def test_pmlr_abstract_with_fused_names_renders_without_problems(renderer):
    # Shaped like PMLR's: braces lost in math, in text, and at an environment's edges.
    text = (r"We give a $\mathrmpoly(n)$-time algorithm whose regret is $O(\sqrt{T\logN})$, "
            r"in \textnnz$(A)$ time, against $\mathrmopt$; the estimator "
            r"$\beginpmatrix a & b \endpmatrix$ is \beginequation \expx \endequation")
    result = renderer.render(text)
    assert result.problems == ()
    assert "poly(n)-time" in result.plain and "log N" in result.plain and "nnz" in result.plain
    assert "<mtable" in result.html and "exp" in result.html


def test_unsplittable_fused_name_is_still_reported(renderer):
    assert [p.source for p in renderer.render(r"$\minimize f$").problems] == [r"\minimize"]


def test_fused_edges_of_rewritten_and_starred_environments(renderer):
    result = renderer.render(r"$\beginaligned a &= b \\ c &= d \endaligned$ and $\beginalign* x &= y \endalign*$")
    assert result.problems == ()
    assert result.html.count("<mtable") == 2 and "&amp;" not in result.html


def test_pmlr_fused_forms_render():
    """The forms issue 38 names: a citation fused with its key, \\textmax, \\frac12 and {a \\over b}."""
    result = AbstractRenderer().render(r"as in \citeProc and \citepSmith2020, $\textmax_x f$, $\frac12 + {a \over b}$")
    assert result.problems == ()
    assert "as in [1] and [Smith 2020]," in result.plain
    assert "<msub><mtext>max</mtext><mi>x</mi></msub>" in result.html
    assert "<mfrac><mn>1</mn><mn>2</mn></mfrac>" in result.html and "<mfrac><mi>a</mi><mi>b</mi></mfrac>" in result.html


def test_an_operator_name_after_a_word_font_is_its_word():
    assert unfuse("textmax", {}) == r"\text{max}" and unfuse("textrmmin", {}) == r"\textrm{min}"
    assert unfuse("textbf", {}) is None  # a known command stays itself
