"""TeX that is no author's macro (issue 30): \\em, the math styles, mleftright's \\mleft/\\mright."""

from __future__ import annotations

import pytest

from generator.latex import AbstractRenderer


@pytest.fixture(scope="module")
def renderer():
    return AbstractRenderer()


def test_em_is_an_emphasis_switch_in_text_and_in_math(renderer):
    result = renderer.render(r"a {\em robust} estimator of $\em x$ with $\text{\em high} p$")
    assert "<em>robust</em>" in result.html
    assert result.problems == ()
    assert "<mtext>high</mtext>" in result.html


@pytest.mark.parametrize("style", ["scriptstyle", "displaystyle", "textstyle", "scriptscriptstyle"])
def test_math_styles_render_in_math_and_are_dropped_in_text(renderer, style):
    math = renderer.render(rf"of $\{style} \sum_i x_i$ size")
    text = renderer.render(rf"the \{style} sum")
    assert math.problems == () and "<mstyle" in math.html
    assert text.problems == () and text.plain == "the sum"


def test_mleft_mright_are_left_and_right(renderer):
    # OpenReview abstracts keep the mleftright package's spelling.
    result = renderer.render(r"with $\mleft( \frac{a}{b} \mright)$ and \mleft\{ x \mright. in text")
    assert result.problems == ()
    assert result.html.count('fence="true"') >= 3
    assert "\\mleft" not in result.plain and "\\mright" not in result.plain
