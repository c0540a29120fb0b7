"""Authors' conventional macros rendered by a guess (guesses.py), each guess reported to be pinned."""

from __future__ import annotations

import json

import pytest

from generator.commands.build import build
from generator.reporter import Reporter
from generator.latex import AbstractRenderer, MacroDef
from generator.latex.guesses import advice, guess, guess_argument, pin_line


@pytest.mark.parametrize("name, body", [
    ("vx", r"\mathbf{x}"), ("ve", r"\mathbf{e}"), ("vtheta", r"\boldsymbol{\theta}"),
    ("fhat", r"\hat{f}"), ("thetahat", r"\hat{\theta}"), ("Xbar", r"\bar{X}"), ("ytilde", r"\tilde{y}"),
    ("fstar", r"{f}^{\star}"), ("wstar", r"{w}^{\star}"), ("xprime", r"{x}'"),
    ("cuF", r"\mathcal{F}"), ("X", r"\mathcal{X}"),
    ("spn", r"\operatorname{span}"), ("hyp", r"\mathcal{H}"), ("e", r"\epsilon"),
    ("din", r"d_{\mathrm{in}}"), ("dout", r"d_{\mathrm{out}}"), ("effdim", r"d_{\mathrm{eff}}"),
])
def test_a_conventional_name_has_its_guess(name, body):
    assert guess(name) == body


# From PMLR's COLT and ALT volumes (2018-2025), where nothing defined them.
@pytest.mark.parametrize("name, body", [
    ("kappax", r"\kappa_{x}"), ("lambdamin", r"\lambda_{\min}"), ("gapmin", r"\mathrm{gap}_{\min}"),
    ("sumt", r"\sum_{t}"), ("Rd", r"\mathbb{R}^{d}"), ("mX", r"\boldsymbol{X}"), ("gO", r"\mathcal{O}"),
    ("bigo", "O"), ("bigomega", r"\Omega"), ("lp", r"\left("), ("rp", r"\right)"), ("PTF", r"\mathrm{PTF}"),
    ("ReLU", r"\mathrm{ReLU}"), ("w", r"\mathbf{w}"), ("epilon", r"\epsilon"), ("mathb", r"\mathbb"),
    ("minf", r"m_{\inf}"), ("xmax", r"x_{\max}"),
])
def test_more_conventions_of_real_volumes(name, body):
    assert guess(name) == body


@pytest.mark.parametrize("name, body", [
    ("rbr", r"\left( #1 \right)"), ("Paren", r"\left( #1 \right)"), ("lprp", r"\left( #1 \right)"),
    ("sbr", r"\left[ #1 \right]"), ("cbr", r"\left\{ #1 \right\}"), ("mc", r"\mathcal{#1}"), ("mb", r"\mathbb{#1}"),
])
def test_a_name_with_a_braced_argument_is_a_delimiter_pair_or_a_font(name, body):
    assert guess_argument(name) == body
    assert guess(name) is None  # without its argument it is no guess


def test_a_guess_with_an_argument_renders_and_pins_with_args(renderer):
    result = renderer.render(r"error $O\rbr{\frac{d}{n}}$ over $\mb{R}^d$")
    assert result.problems == () and "<mfrac>" in result.html and "ℝ" in result.html
    pinned = {problem.source: advice(problem) for problem in result.guesses}
    assert pinned["\\rbr"].endswith(r"rbr: {body: '\left( #1 \right)', args: 1}")


def test_two_braced_arguments_make_an_inner_product(renderer):
    result = renderer.render(r"$\abs{\inp{X - \mu}{v}}$")
    assert result.problems == () and "⟨ X - μ, v ⟩" in result.plain
    assert advice(result.guesses[0]).endswith(r"inp: {body: '\langle #1, #2 \rangle', args: 2}")


def test_a_guess_that_breaks_its_formula_is_dropped(renderer):
    """\\lp without its \\rp would leave a \\left unmatched: the formula renders without the guess."""
    result = renderer.render(r"cost $\lp x$ here")
    assert "<math" in result.html and result.guesses == ()
    assert [problem.message for problem in result.problems] == ["undefined macro \\lp"]


@pytest.mark.parametrize("name", ["rsvrg", "errnoise", "atk", "hset", "newtron", "cuf", "vxy", "xyhat"])
def test_a_name_of_its_own_is_not_guessed(name):
    assert guess(name) is None


@pytest.fixture(scope="module")
def renderer():
    return AbstractRenderer()


def test_pmlr_abstract_renders_guesses_and_reports_each_once(renderer):
    text = (r"We show that the estimator $\fhat$ converges to $\fstar$ at rate $O(\sqrt{\effdim / n})$, "
            r"where $\fhat \in \cF$ and $\cuF \subseteq \spn(\vx_1, \dots, \vx_n)$; the class \hyp of "
            r"depth-2 networks with $\din$ inputs.")
    result = renderer.render(text)
    assert result.problems == ()
    assert "tex-error" not in result.html
    assert "f̂" in result.plain and "span" in result.plain and "d_in" in result.plain
    names = [guessed.source for guessed in result.guesses]
    assert names == ["\\fhat", "\\fstar", "\\effdim", "\\cuF", "\\spn", "\\vx", "\\hyp", "\\din"]


def test_a_config_macro_wins_over_a_guess():
    renderer = AbstractRenderer({"fhat": MacroDef(r"\widehat{f}_n"), "X": MacroDef(r"\mathbb{X}")})
    result = renderer.render(r"the $\fhat$ on $\X$")
    assert result.guesses == ()
    assert "<msub>" in result.html and "𝕏" in result.html


def test_a_built_in_macro_is_no_guess(renderer):
    assert renderer.render(r"$\bx + \cA + \bbR$").guesses == ()


def test_a_guess_comes_with_the_line_that_pins_it(renderer):
    (guessed,) = renderer.render(r"$\xprime$").guesses
    assert guessed.message == "guessed \\xprime as {x}'"
    assert pin_line("xprime", "{x}'") == "xprime: '{x}'''"  # YAML doubles a single quote
    assert advice(guessed) == "to pin or correct it, add under macros: xprime: '{x}'''"


def test_a_guess_in_a_title_is_reported(renderer):
    assert [g.source for g in renderer.render_inline(r"Learning \wstar fast").guesses] == ["\\wstar"]


def test_a_build_warns_of_each_guess_with_the_line_that_pins_it(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "proceedings.yaml").write_text("title: Guesses 2026\n", encoding="utf-8")
    records = [{"id": "p1", "title": "Estimating fast",
                "abstract": r"We show $\fhat \to \fstar$ and $\fhat = \fhat$ on every instance of the problem."}]
    (content / "papers.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    guessed = [d.message for d in reporter.warnings if d.message.startswith("guessed")]
    assert guessed == [
        "guessed \\fhat as \\hat{f} in “Estimating fast”; to pin or correct it, add under macros: fhat: '\\hat{f}'",
        "guessed \\fstar as {f}^{\\star} in “Estimating fast”; to pin or correct it, add under macros: "
        "fstar: '{f}^{\\star}'",
    ]
    assert all(str(d.path).startswith("papers/") for d in reporter.warnings if d.message.startswith("guessed"))
