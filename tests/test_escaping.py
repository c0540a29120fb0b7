"""The templates' escaping (render/escaping.py) against markupsafe's and Jinja's own: the same text and type."""

from __future__ import annotations

import jinja2
import markupsafe
import pytest
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from generator.render import escaping
from generator.render.theme import Theme


class _Html:
    def __init__(self, text: str):
        self.text = text

    def __html__(self) -> str:
        return self.text


class _Text(str):
    """A str of another type: not the fast path's."""


@given(st.text())
def test_escape_of_any_text_is_markupsafes(text: str) -> None:
    for value in (text, Markup(text), _Text(text), _Html(text)):
        got, want = escaping.escape(value), markupsafe.escape(value)
        assert (got, type(got)) == (want, type(want))


@given(st.text())
def test_safe_of_any_text_is_jinjas(text: str) -> None:
    for value in (text, Markup(text), _Text(text), _Html(text)):
        got, want = escaping.mark_safe(value), jinja2.filters.do_mark_safe(value)
        assert (got, type(got)) == (want, type(want))


@pytest.mark.parametrize("value", [3, 2.5, None, True, ("<a>", "&")])
def test_escape_and_safe_of_other_values_are_markupsafes(value: object) -> None:
    assert escaping.escape(value) == markupsafe.escape(value)
    assert escaping.mark_safe(value) == Markup(value)


@given(st.text())
def test_the_spelled_out_escaping_is_markupsafes(text: str) -> None:
    """What escapes a str where markupsafe does not name its escaping (``_replaced``)."""
    assert escaping._replaced(text) == str(markupsafe.escape(text))


def test_the_five_characters_are_escaped_as_markupsafe_escapes_them() -> None:
    assert escaping.escape("<a href=\"x\" title='y'>&</a>") == (
        "&lt;a href=&#34;x&#34; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;")


def test_a_theme_template_prints_with_the_fast_escape_and_the_same_text(tmp_path) -> None:
    env = Theme.for_content(tmp_path).environment()
    template = env.from_string("{{ a }}|{{ b | safe }}|{{ c }}|{{ d }}|{{ e | safe }}")
    assert template.root_render_func.__globals__["escape"] is escaping.escape
    assert env.filters["safe"] is escaping.mark_safe
    text = "<i>\"it's\" & more</i>"
    got = template.render(a=text, b=text, c=Markup(text), d=7, e=_Html("<b>"))
    assert got == f"{markupsafe.escape(text)}|{text}|{text}|7|<b>"


def test_an_undefined_value_still_fails_when_printed_or_marked_safe(tmp_path) -> None:
    env = Theme.for_content(tmp_path).environment()
    for source in ("{{ missing }}", "{{ missing | safe }}"):
        with pytest.raises(jinja2.TemplateError, match="'missing' is undefined"):
            env.from_string(source).render()
