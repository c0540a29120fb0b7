"""Stretchy delimiters stretch: the theme names OpenType math fonts for MathML (issue 18).

With the text font, Chromium cannot stretch a fence: ``\\left( \\frac{a}{b} \\right)``, a
``pmatrix``, ``\\binom`` and the ``cases`` brace came out one line high around a formula two
lines tall. A page of such formulas is rendered from LaTeX by our renderer, styled by the
theme's style.css, and drawn by Chromium; each fence must be at least as tall as most of what
it encloses, and well taller than the same fence around a single letter.
"""

from __future__ import annotations

import shutil

import pytest

from generator.latex import AbstractRenderer

from .conftest import REPO
from .helpers import ARTIFACTS

REPO_CSS = REPO / "themes" / "default" / "static" / "style.css"  # tests run in an empty folder of their own
FORMULAS = {
    "left-right": r"$$\left( \frac{a}{b} \right)$$",
    "pmatrix": r"$$\begin{pmatrix} a & b \\ c & d \end{pmatrix}$$",
    "binom": r"$$\binom{n}{k}$$",
    "cases": r"$$f(x) = \begin{cases} 1 & x > 0 \\ 0 & \text{otherwise} \end{cases}$$",
    "inline left-right": r"$\left( \dfrac{a}{b} \right)$",  # displayed size: an inline \frac may be a line tall
}
PLAIN = r"$(x)$"

MEASURE = """(id) => {
  const math = document.getElementById(id).querySelector('math');
  const fences = [...math.querySelectorAll('mo')].filter(mo => /^[(){}\\[\\]]$/.test(mo.textContent.trim()));
  const body = math.querySelector('mfrac, mtable');
  return {fence: Math.max(...fences.map(mo => mo.getBoundingClientRect().height)),
          body: body ? body.getBoundingClientRect().height : 0};
}"""


@pytest.fixture
def math_page(page, tmp_path):
    renderer = AbstractRenderer()
    shutil.copy(REPO_CSS, tmp_path / "style.css")
    items = "".join(f'<div id="{name}">{renderer.render(latex).html}</div>' for name, latex in FORMULAS.items())
    plain = renderer.render(PLAIN).html
    html = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="stylesheet" href="style.css">'
            f'</head><body><main class="abstract">{items}<div id="plain">{plain}</div></main></body></html>')
    (tmp_path / "math.html").write_text(html, encoding="utf-8")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto((tmp_path / "math.html").as_uri())
    shots = ARTIFACTS / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=shots / "stretchy-delimiters.png", full_page=True)  # for people to look at
    return page


@pytest.mark.parametrize("name", list(FORMULAS))
def test_delimiters_stretch_around_tall_content(math_page, name):
    plain = math_page.evaluate(MEASURE, "plain")["fence"]
    measured = math_page.evaluate(MEASURE, name)
    assert measured["body"] > 1.25 * plain, f"the {name} content is not taller than a line: {measured}"
    assert measured["fence"] >= 0.9 * measured["body"], \
        f"the {name} fence is {measured['fence']:.1f} px around content {measured['body']:.1f} px tall"
    assert measured["fence"] > 1.4 * plain, \
        f"the {name} fence did not stretch: {measured['fence']:.1f} px vs {plain:.1f}"


def test_math_is_drawn_with_a_math_font(math_page):
    """The font Chromium drew a fence with has a math table (its name says Math): the text font
    cannot stretch it."""
    session = math_page.context.new_cdp_session(math_page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument")["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": "#left-right mo"})["nodeId"]
    fonts = [font["familyName"] for font in session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]
    assert any("Math" in family for family in fonts), f"formulas drawn with {fonts}"
