"""Plain text rendered without the engine (latex/abstract_renderer.py ``_is_plain``): for text no rule of
markdown-it or of the LaTeX plugins acts on, the HTML and plain text are the engine's, byte for byte."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.latex import AbstractRenderer
from generator.latex.abstract_renderer import _is_plain
from generator.latex.renderer import Engine

from tests import corpora

ENGINE = Engine()
# The characters the shortcut allows, and words that mean something at some place: a list's marker, a dash,
# an ellipsis, a web address, a colon's label, a parenthesised number; quotes, a percentage, an equation, an address.
WORDS = st.sampled_from(["1.", "1)", "2020.", "-", "-x", "x-y", "a--b", "...", "http://x.org/a", "(1)", "Note:",
                         "e.g.", "i.e.,", "a/b", ";", ":", "(", ")", "a", "Z9", "0", "x.", "IV.", "+", "+x", "a+b",
                         "it's", "'a'", "''", "a''", "'", "50%", "%", "why?", "!", "![x]", "a=b", "==", "a@b.org",
                         "|", "a|b", "`a'", "+ "])
TEXT = st.lists(WORDS | st.text(alphabet="abcXYZ019,.;:()/-'%?!=+@|", min_size=1, max_size=6), min_size=1,
                max_size=12).map(" ".join) | st.text(alphabet="ab1,.;:()/- \n\t*_`'\"$\\~%{}<>&![]#^?=+@|", max_size=30)


@settings(max_examples=250)
@given(TEXT, st.sampled_from(["", " ", "\n", "  \n"]))
@example("1. First we show", "")
@example("- a list", "")
@example("A--B", "")
@example("+ a list", "")
@example("It''s", "")
@example("It's 50% better, isn't it? Yes! a=b+c, me@x.org | y", "")
@example("Speed: 10 km/h (about 3.1 m/s).", "\n")
def test_plain_text_renders_as_the_engine_renders_it(text, edge):
    renderer = AbstractRenderer()
    assert renderer.render(edge + text + edge) == ENGINE.render(edge + text + edge)
    assert renderer.render_inline(text) == ENGINE.render_inline(text)


@pytest.mark.parametrize("name", corpora.FAST_FIXTURE)
def test_real_abstracts_and_titles_without_markup_take_the_shortcut_and_match_the_engine(name):
    renderer = AbstractRenderer()
    records = corpora.read(corpora.path(name))
    abstracts, titles = [r.get("abstract", "") for r in records], [r.get("title", "") for r in records]
    assert sum(map(_is_plain, abstracts + titles)) >= 5
    for text in abstracts:
        assert renderer.render(text) == ENGINE.render(text)
    for text in titles:
        assert renderer.render_inline(text) == ENGINE.render_inline(text)
