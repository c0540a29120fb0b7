"""Property tests: whatever an abstract contains, the renderer returns safe, balanced HTML.

Inputs are built from the fragments that make abstracts hard (dollars,
backslash commands, braces, backticks, emphasis markers, raw HTML) mixed with
arbitrary text, so that Hypothesis finds the awkward combinations.
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.latex import AbstractRenderer, MacroDef

MACROS = {
    "dVC": MacroDef(r"d_{\mathrm{VC}}"),
    "pair": MacroDef(r"\langle #1, #2 \rangle", 2),
    "loop": MacroDef(r"\loop"),
}
RENDERER = AbstractRenderer(MACROS)

FRAGMENTS = [
    "$", "$$", "\\$", "\\(", "\\)", "\\[", "\\]", "\\", "\\\\", "{", "}", "*", "**", "_", "`", "``",
    "'", "''", '"', "-", "--", "---", "~", "%", "&", "&amp;", "<", ">", "[", "](", ")", "!", "#",
    "\n", "\n\n", " ", "    ", "- ", "> ", "1. ", "x", "5", "é", "‘‘", "”",
    "\\emph{", "\\textbf{", "\\texttt{", "\\textsc{", "{\\em ", "{\\bf ", "\\url{", "\\href{",
    "javascript:alert(1)", "https://example.org", "\\'", "\\\"o", "\\c{c}", "\\ss", "\\ldots",
    "\\frac{", "\\left(", "\\right)", "\\alpha", "\\text{", "\\mathrm{", "\\begin{equation}",
    "\\end{equation}", "\\dVC", "\\pair{a}{b}", "\\loop", "\\foo", "\\cite{k}", "<script>",
    "</script>", "<b>", "^", "\\%", "\\&", "\\#", "\\_",
    # damaged LaTeX and structure from real abstract lists
    "\\begin{itemize}", "\\begin{enumerate}", "\\item", "\\end{itemize}", "\\end{enumerate}", "\\par",
    "\\footnote{", "\\citep[", "\\citet{", "^{", "_{", "\\sqrt{", "\\sqrtT", "\\eps", "\\R", "\\log",
    "\\big(", "\\right)", "\\emphfoo", "¥", "\\mathbf{", "\\widehat{", "\\max_", "\\operatorname{",
]

abstracts = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), max_size=40).map("".join)

VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "area", "base", "col", "embed",
                  "source", "track"})
HTML_TAGS = frozenset({"p", "em", "strong", "code", "u", "span", "a", "br", "ul", "ol", "li",
                       "blockquote", "sub", "sup"})
MATHML_TAGS = frozenset("""math mrow mi mn mo mtext mspace ms msub msup msubsup munder mover
    munderover mfrac msqrt mroot mstyle mpadded mphantom menclose mtable mtr mtd mlabeledtr merror
    mmultiscripts mprescripts none semantics annotation""".split())
# A few seconds by default; LATEX_PROPERTY_EXAMPLES=5000 for a longer hunt.
SETTINGS = settings(max_examples=int(os.environ.get("LATEX_PROPERTY_EXAMPLES", 150)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


class TagChecker(HTMLParser):
    """Records problems: unbalanced tags, unknown tags, dangerous attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in HTML_TAGS | MATHML_TAGS:
            self.errors.append(f"unexpected tag <{tag}>")
        for name, value in attrs:
            if name.startswith("on") or name in ("style", "src"):
                self.errors.append(f"attribute {name}")
            if name == "href" and (tag != "a" or re.match(r"\s*(javascript|vbscript|data|file):",
                                                          value or "", re.I)):
                self.errors.append(f"href {value!r} on <{tag}>")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.errors.append(f"self-closing <{tag}/>")

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def check_html(markup: str) -> list[str]:
    checker = TagChecker()
    checker.feed(markup)
    checker.close()
    return checker.errors + [f"<{tag}> never closed" for tag in checker.stack]


@SETTINGS
@given(abstracts)
def test_render_gives_balanced_safe_html(text):
    result = RENDERER.render(text)
    assert check_html(result.html) == [], result.html


@SETTINGS
@given(abstracts)
def test_render_inline_gives_balanced_safe_html(text):
    result = RENDERER.render_inline(text)
    assert check_html(result.html) == [], result.html
    assert "<p>" not in result.html


@SETTINGS
@given(abstracts)
def test_every_problem_is_shown_once(text):
    result = RENDERER.render(text)
    assert result.html.count('<span class="tex-error"') == len(result.problems)
    for problem in result.problems:
        assert problem.message and problem.source


@SETTINGS
@given(abstracts)
def test_plain_is_collapsed_text_without_our_markup(text):
    plain = RENDERER.render(text).plain
    assert plain == plain.strip()
    assert not re.search(r"\s\s|[\n\t\u00a0]", plain)
    # A tag we emit may only show up in plain text if the author typed it (or an entity for `<`).
    for name in re.findall(r"</?([A-Za-z]+)", plain):
        if name.lower() in HTML_TAGS | MATHML_TAGS:
            assert f"<{name}" in text or f"</{name}" in text or "&" in text, \
                f"<{name}> in plain text but not in the input"


@settings(max_examples=50, deadline=None)
@given(abstracts)
def test_render_is_deterministic(text):
    assert RENDERER.render(text) == AbstractRenderer(MACROS).render(text)

