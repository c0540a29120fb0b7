"""Issue #43: the abstracts' rendering and the titles' rules made cheaper render and derive what the plain versions
did, byte for byte: each faster form is checked here against the form it replaced."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_core.normalize import normalize as markdown_normalize

from generator.derive import titles
from generator.latex import AbstractRenderer, renderer, structure, textgroups, typography
from generator.latex.abstract_renderer import _is_plain, _is_plain_line
from generator.latex.spaces import collapse
from test_latex_properties import FRAGMENTS

# The text rule's stops before a lone hyphen was let through (a hyphen starts a rule only as ``--``).
OLD_TERMINATOR = re.compile(r"[\n$&*\-<\[\\\]^_`{}~]")
HYPHENS = ["-", "--", "---", "----", "a-b", "-$x$-", "x-", "-}", "{-", "\\-", "-\\emph{a}-", "<!--", "-->", "*-*"]
abstracts = st.lists(st.one_of(st.sampled_from(FRAGMENTS + HYPHENS), st.text(max_size=4)), max_size=40).map("".join)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def rendered(text: str) -> tuple:
    renderer = AbstractRenderer()
    block, inline = renderer.render(text, remember=False), renderer.render_inline(text)
    return block, inline


@SETTINGS
@given(text=abstracts)
def test_hyphens_render_as_when_each_stopped_the_text(text):
    new = rendered(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(textgroups, "_TERMINATOR", OLD_TERMINATOR)
        old = rendered(text)
    assert new == old


# The plain text's rule written plainly: words of these characters, one space between them, not starting with a
# digit, a hyphen or a plus, no dash and no closing double quote.
PLAIN_WORDS = re.compile(r"(?![0-9+-])[A-Za-z0-9,.;:()/'%?!=+@|-]+(?: [A-Za-z0-9,.;:()/'%?!=+@|-]+)*")
PLAIN_LIKE = st.text(alphabet="aZ09,.;:()/- \n\t*'é%?!=+@|\"", max_size=30)


def plain_by_words(text: str) -> bool:
    return bool(PLAIN_WORDS.fullmatch(text)) and "--" not in text and "''" not in text


@SETTINGS
@given(text=PLAIN_LIKE | st.lists(st.sampled_from(["a", "1.", "-x", "--", " ", "  ", "\t", "b/c", "é", "+", "''", "'"])
                                  ).map("".join))
def test_plain_text_is_told_as_the_plain_rule_tells_it(text):
    assert _is_plain(text) == plain_by_words(text.strip())
    assert _is_plain_line(text) == plain_by_words(text)


MARKS = st.text(alphabet="ab '‘’“”\"`\\<>/pPlLiIuU\n\r\0{}", max_size=30) | st.lists(
    st.sampled_from(["''", "‘‘", "’’", "a'b", "\\begin{itemize}", "\\par", "\\item", "<ul>", "</p>", "<li>", "x"])
).map("".join)


@SETTINGS
@given(text=MARKS)
def test_the_substring_scans_miss_no_text_a_pattern_acts_on(text):
    assert typography._QUOTES.search(text) is None or any(mark in text for mark in typography._QUOTE_MARKS)
    assert structure._SPLIT.search(text) is None or "\\" in text or "<" in text


@SETTINGS
@given(text=MARKS)
def test_normalize_gives_markdown_its_own_normalized_text(text):
    md = MarkdownIt()
    ours, theirs = StateCore(text, md, {}), StateCore(text, md, {})
    renderer.normalize(ours)
    markdown_normalize(theirs)
    assert ours.src == theirs.src


# The titles' cleaning before: its patterns as alternations, every text split on spaces and joined again.
OLD_MARKUP = re.compile(r"[$*\\{}`#~^]|_(?<!\w_)|_(?!\w)")
OLD_QUOTES = re.compile(r"[\"“”«»]|['‘’](?<!\w['‘’])|['‘’](?!\w)")
SPACES = " \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u1680\u2002\u200b\u2028\u2029\u202f\u3000"
DIRTY = st.text(alphabet="ab_'‘’\"“”«»é1$\\{}`#~^*" + SPACES, max_size=40)


def clean_before(plain: str) -> str:
    return " ".join(OLD_QUOTES.sub("", OLD_MARKUP.sub("", titles._COMMAND.sub(" ", plain))).split())


@SETTINGS
@given(text=DIRTY | st.text(max_size=40))
def test_titles_clean_text_as_before(text):
    assert titles._clean(text) == clean_before(text)
    assert titles._MARKUP.sub("", text) == OLD_MARKUP.sub("", text)
    assert titles._QUOTES.sub("", text) == OLD_QUOTES.sub("", text)


def test_every_space_but_the_plain_one_is_unprintable():
    """What ``collapse`` stands on: a printable text holds no whitespace but the space."""
    assert all(not char.isprintable() for code in range(sys.maxunicode + 1)
               if (char := chr(code)).isspace() and char != " ")


@SETTINGS
@given(text=DIRTY | st.text(max_size=40))
def test_collapse_is_a_split_and_join(text):
    assert collapse(text) == " ".join(text.split())


OLD_ACRONYM_USE = re.compile(r"\b[A-Z][A-Za-z0-9]*[A-Z]s?\b")


@SETTINGS
@given(text=st.text(alphabet="aAZz09s_ -(é", max_size=40) | st.text(max_size=30))
def test_acronyms_are_found_where_they_were(text):
    assert [m.span() for m in titles._ACRONYM_USE.finditer(text)] == [m.span() for m in OLD_ACRONYM_USE.finditer(text)]
    assert titles._CLOSED_EARLY.sub("", text) == text or ")" in text


OLD_QUOTES_PAIRED = re.compile(r"''|‘‘|’’|(?P<apostrophe>'(?<=\w')(?=\w))|[“”\"‘']")


@SETTINGS
@given(text=st.text(alphabet="a1_ '‘’“”\"`.", max_size=40))
def test_quote_marks_are_found_where_they_were(text):
    def found(pattern: re.Pattern[str]) -> list[tuple[tuple[int, int], bool]]:
        return [(m.span(), m.group("apostrophe") is not None) for m in pattern.finditer(text)]

    assert found(typography._QUOTES) == found(OLD_QUOTES_PAIRED)
