"""Hostile sizes: nesting and runs that crashed the renderer or made it quadratic (issue 19).

Each input here raised RecursionError or took from 30 s to over two minutes before the limits
and single-pass scans; now each renders well inside a generous time budget (the exact figures
come from ``bench/stress_renderer.py``, not from these tests), shows the excess as a tex-error
and never raises.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager

import pytest

from generator.latex import AbstractRenderer
from generator.latex.math import MATH_BUDGET, MAX_FORMULA
from generator.latex.structure import LIST_DEPTH_MESSAGE, MAX_LIST_DEPTH
from generator.latex.textgroups import INLINE_DEPTH_MESSAGE, MAX_INLINE_DEPTH
from conftest import derive_title

# Twenty times what these inputs take now on a loaded two-core machine; each took longer before.
BUDGET = 20


@contextmanager
def within(seconds: int):
    def stall(signum, frame):  # noqa: ANN001 (signal handler signature)
        raise TimeoutError(f"took over {seconds} s")

    old = signal.signal(signal.SIGALRM, stall)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture(scope="module")
def renderer():
    return AbstractRenderer()


def test_href_nested_thousands_deep_is_shown_as_an_error_not_a_crash(renderer):
    text = "see \\href{http://a.example/}{" * 3000 + "x" + "}" * 3000 + " and $x$"
    result = renderer.render(text)  # RecursionError before
    assert [p.message for p in result.problems] == [INLINE_DEPTH_MESSAGE]
    assert result.html.count("<a href") == 1 and "<math" in result.html
    assert renderer.render_inline(text).problems


@pytest.mark.parametrize("opening, closing", [("\\emph{", "}"), ("\\footnote{", "}"), ("{\\em ", "}"),
                                              ("\\textbf{x ", "}"), ("x^{", "}")])
def test_arguments_nested_past_the_limit_are_marked_not_shown_silently(renderer, opening, closing):
    result = renderer.render(opening * (MAX_INLINE_DEPTH + 10) + "deep" + closing * (MAX_INLINE_DEPTH + 10))
    assert [p.message for p in result.problems] == [INLINE_DEPTH_MESSAGE]
    assert "deep" in result.problems[0].source


def test_lists_nested_past_the_limit_are_shown_as_written(renderer):
    deep = MAX_LIST_DEPTH + 3
    text = "Intro " + "\\begin{itemize}\\item a " * deep + "x" + " \\end{itemize}" * deep + " after $y$."
    result = renderer.render(text)
    assert result.html.count("<ul>") == MAX_LIST_DEPTH
    assert [p.message for p in result.problems] == [LIST_DEPTH_MESSAGE]
    assert result.problems[0].source.count("\\begin{itemize}") == 3
    assert result.html.rstrip().endswith("<p>after <math xmlns=\"http://www.w3.org/1998/Math/MathML\" "
                                         "display=\"inline\"><mrow><mi>y</mi></mrow></math>.</p>")


@pytest.mark.slow  # each input is tens of thousands of runs long
@pytest.mark.parametrize("text", [
    pytest.param("\\begin{itemize}\\item a " * 3000 + "x" + "\\end{itemize}" * 3000,
                 id="itemize 3000 deep (108 s at 40 KB)"),
    pytest.param("\\begin{itemize}\\item a \\item b " * 3000, id="run of items"),
    pytest.param("$\\par " * 40_000, id="$ and \\par (over 120 s at 1 MB)"),
    pytest.param("a \\par " * 40_000, id="\\par"),
    pytest.param("{a " * 30_000 + "x" + "}" * 30_000, id="nested braces"),
    pytest.param("\\left( " * 30_000, id="unclosed \\left("),
    pytest.param("\\sqrt{a " * 30_000, id="unclosed \\sqrt{"),
    pytest.param("$$ a " * 40_000, id="unclosed $$"),
    pytest.param("\\( a " * 40_000, id="unclosed \\("),
    pytest.param("\\begin{equation} a " * 20_000, id="unclosed equation"),
])
def test_runs_that_were_quadratic_render_in_linear_time(renderer, text):
    with within(BUDGET):
        result = renderer.render(text)
    assert result.html


@pytest.mark.slow  # 100,000 words each
@pytest.mark.parametrize("text", ["*a " * 100_000, "a " * 100_000, "{a " * 100_000])
def test_title_tidying_is_linear(text):
    with within(BUDGET):  # over 120 s at 1 MB before: one split and join per dangling word
        assert derive_title(text)


def test_a_formula_past_the_length_limit_is_shown_as_written(renderer):
    long = "$" + "x_{1}+" * (MAX_FORMULA // 6 + 1) + "y$"
    result = renderer.render(f"short $a$ then {long}")
    assert result.html.count("<math") == 1
    assert [p.message for p in result.problems] == [
        f"formula too long ({len(long) - 2:,} characters); shown as written"]


def test_math_past_the_budget_of_one_abstract_is_shown_as_written(renderer):
    spans = MATH_BUDGET // 20 + 50
    repeated = "$O(\\sqrt{T})$ and " * 5_000  # a repeated formula is converted once: it costs its length once
    text = repeated + " ".join(f"$x_{{{i}}} + y_{{{i}}} + z$" for i in range(spans))
    with within(BUDGET):
        result = renderer.render(text)
    assert 5_000 < result.html.count("<math") < 5_000 + spans
    assert {p.message for p in result.problems} == {"too much math in one abstract; shown as written"}
