"""Property tests: whatever an abstract contains, the renderer returns safe, balanced HTML, and
keeps every letter and digit of it on the page except the markup it consumed.

Inputs are built from the fragments that make abstracts hard (dollars,
backslash commands, braces, backticks, emphasis markers, raw HTML) mixed with
arbitrary text, so that Hypothesis finds the awkward combinations.
"""

from __future__ import annotations

import os
import re
import unicodedata
from html.parser import HTMLParser

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from generator.latex import AbstractRenderer, MacroDef
from generator.latex.htmltags import ALLOWED, ATTRIBUTES
from generator.latex.plaintext import collapse
from generator.latex.symbols import IGNORED
from generator.latex.texscan import find_group_end

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
    "</script>", "<b>", "^", "</b>", "<em>", "</em>", "<i>", "<ul>", "</ul>", "<ol>", "<li>", "</li>", "<p>",
    "</p>", "<br>", "<br/>", "<sub>", "<img src=x onerror=alert(1)>", '<b onclick="x">', "<!--", "-->",
    "\\%", "\\&", "\\#", "\\_",
    # damaged LaTeX and structure from real abstract lists
    "\\begin{itemize}", "\\begin{enumerate}", "\\item", "\\end{itemize}", "\\end{enumerate}", "\\par",
    "\\footnote{", "\\citep[", "\\citet{", "^{", "_{", "\\sqrt{", "\\sqrtT", "\\eps", "\\R", "\\log",
    "\\big(", "\\right)", "\\emphfoo", "¥", "\\mathbf{", "\\widehat{", "\\max_", "\\operatorname{",
]

abstracts = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), max_size=40).map("".join)

VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "area", "base", "col", "embed",
                  "source", "track"})
HTML_TAGS = frozenset({"p", "em", "strong", "code", "u", "span", "a", "br", "ul", "ol", "li",
                       "blockquote", "sub", "sup", "b", "i"})
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
@example("$\\max_\\max_$")  # a double script in a formula that does not render: shown, and counted once
def test_every_problem_is_shown_once(text):
    """Each problem has one mark on the page (an error shown as written, or an unknown macro as its name),
    except an environment's edge (shown as nothing) and a double script whose formula renders (one that does
    not, ``$\\max_\\max_$``, is shown as written under the double script's name)."""
    result = RENDERER.render(text)
    shown = result.html.count(' class="tex-error"') + result.html.count(' class="tex-unknown"')

    def double_script_rendered(problem) -> bool:
        return (problem.message in ("double subscript", "double superscript")
                and f'class="tex-error" title="{problem.message}"' not in result.html)

    unmarked = [problem for problem in result.problems if problem.source.startswith(("\\begin", "\\end"))
                and "macro" not in problem.message or double_script_rendered(problem)]
    assert shown + len(unmarked) == len(result.problems)
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



# -- nothing visible is lost -------------------------------------------------------------------

# Text with no markup at all: letters and digits of any script, blanks and punctuation that means
# nothing to Markdown or LaTeX. Its plain text must be the text itself, blanks collapsed.
markup_free = st.text(st.one_of(st.characters(categories=["L", "Nd"]), st.sampled_from(list(" \n\t.,;:?!()/"))),
                      max_size=200)
_LIST_MARKER = re.compile(r"(?m)^[ \t]*\d{1,9}[.)](?=[ \t]|$)")  # "1. " starts a list: that is markup


@SETTINGS
@given(markup_free)
def test_markup_free_text_is_kept_exactly(text):
    assume(not _LIST_MARKER.search(text))
    for result in (RENDERER.render(text), RENDERER.render_inline(text)):
        assert result.plain == collapse(text)
        assert result.problems == ()
    assert collapse(html_text(RENDERER.render(text).html)) == collapse(text)


# What the renderer may consume without showing it: \item labels, the target of a link, the arguments
# of layout commands, environment names, command names, character references and list markers; and
# what it shows elsewhere: the page note of a citation comes after its mark ([Smith 2020, p. 2]); and
# what it shows in another form: a citation's keys, as authors and year or a number.
_MOVED_OR_DROPPED = re.compile(r"\\item\s*\[[^\]]*\]|(?<=\\)cite[A-Za-z]*\s*(?:\[[^\]]*\](?!\()\s*){0,2}\{[^{}]*\}"
                               r"|(?<=\\)cite[A-Za-z]*\s*(?:\[[^\]]*\](?!\()\s*){1,2}")
_IGNORED_WITH_ARGUMENT = "|".join(name for name, count in IGNORED.items() if count)
CONSUMED = [
    re.compile(rf"\\(?:{_IGNORED_WITH_ARGUMENT})\s*\{{[^{{}}]*\}}"),
    re.compile(r"\\(?:begin|end)\s*\{[A-Za-z*]*\}"),
    re.compile(r"\\[A-Za-z]+"),
    re.compile(r"&#?[A-Za-z0-9]+;"),
    re.compile(r"</?(?:" + "|".join(ALLOWED) + ")" + ATTRIBUTES + "/?>", re.IGNORECASE),  # the HTML subset
    re.compile(r"(?m)^(?:[ \t]*(?:>|[*+-](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))+"),
]


class VisibleText(HTMLParser):
    """The text a reader sees, with each <math> element replaced by the LaTeX it was made from."""

    def __init__(self, math_sources: list[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.sources = iter(math_sources)
        self.parts: list[str] = []
        self.math_depth = 0

    def handle_starttag(self, tag, attrs):
        if tag == "math":
            if self.math_depth == 0:
                self.parts.append(f" {next(self.sources)} ")
            self.math_depth += 1

    def handle_endtag(self, tag):
        if tag == "math":
            self.math_depth -= 1

    def handle_data(self, data):
        if self.math_depth == 0:
            self.parts.append(data)


def html_text(markup: str, math_sources: tuple[str, ...] = ()) -> str:
    parser = VisibleText(list(math_sources))
    parser.feed(markup)
    parser.close()
    return "".join(parser.parts)


def math_sources(text: str, renderer: AbstractRenderer = RENDERER) -> tuple[str, ...]:
    """The LaTeX of each formula of the rendered abstract, in document order."""
    tokens = renderer._md.parse(text.strip(), {})
    return tuple(child.meta["source"] for token in tokens for child in token.children or ()
                 if child.type in ("math_inline", "math_display"))


def letters_and_digits(text: str) -> list[str]:
    return [char for char in unicodedata.normalize("NFKD", text) if char.isalnum()]


def kept_in_order(wanted: list[str], shown: list[str]) -> bool:
    remaining = iter(shown)
    return all(char in remaining for char in wanted)


def visible_letters(text: str, renderer: AbstractRenderer = RENDERER) -> list[str]:
    html = renderer.render(text).html
    sources = math_sources(text, renderer)
    assert html.count("<math ") == len(sources)
    return letters_and_digits(html_text(html, sources))


_HREF = re.compile(r"\\href\s*(?=\{)")
_DESTINATION = re.compile(r"\]\(")


def without_link_targets(text: str) -> str:
    """``text`` without the target of each ``\\href{…}`` and ``[…](…)``: it is in the href, not on the page."""
    parts, pos = [], 0
    for found in _HREF.finditer(text):
        if found.start() >= pos:
            close = find_group_end(text, found.end())
            parts.append(text[pos : found.start()] + " ")
            pos = close + 1 if close >= 0 else found.end()
    text, parts, pos = "".join(parts) + text[pos:], [], 0
    for found in _DESTINATION.finditer(text):
        if found.start() >= pos:  # a Markdown destination may hold balanced and escaped parentheses
            parts.append(text[pos : found.start()] + " ")
            depth, pos = 1, found.end()
            while pos < len(text) and depth:
                depth += (text[pos] == "(") - (text[pos] == ")")
                pos += 2 if text[pos] == "\\" else 1
    return "".join(parts) + text[pos:]


def input_letters(text: str) -> list[str]:
    text = text.strip().replace("\r\n", "\n").replace("\r", "\n")  # as the renderer reads it
    text = without_link_targets(_MOVED_OR_DROPPED.sub(" ", text))
    for pattern in CONSUMED:
        text = pattern.sub(" ", text)
    return letters_and_digits(text)


@SETTINGS
@given(abstracts)
def test_every_letter_and_digit_stays_visible_in_order(text):
    """Whatever the markup, every letter and digit of the input (bar the markup the renderer
    consumed) is on the page in the same order: as text, or as the source of a formula."""
    assert kept_in_order(input_letters(text), visible_letters(text))


def test_the_visibility_check_finds_a_lost_word():
    """The property above is not vacuous: it sees a word that a rule drops, and one shown out of order."""
    assert visible_letters(r"Our \emph{bold} claim at $x^2$ and \foo{bar}") == \
        list("Ourboldclaimatx2andbar")
    assert kept_in_order(input_letters("a b c"), list("abc"))
    assert not kept_in_order(input_letters("a b c"), list("ab"))
    assert not kept_in_order(input_letters("a b c"), list("acb"))
    assert input_letters(r"\vspace{2mm}\emph{x} [t](https://a.org/(b)) &amp; \item[(a)] \href{{u}}{y} \cite[p]{k} z") \
        == ["x", "t", "y", "z"]
