"""The ``meta_tags`` filter (render/filters.py): the same text a ``{% for %}`` over a paper's meta tags printed."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from generator.publish.meta import MetaTag
from generator.render.filters import install_functions
from generator.render.theme import Theme

LOOP = """{% for tag in meta %}
<meta {{ tag.attribute }}="{{ tag.key }}" content="{{ tag.content }}">
{% endfor %}
"""
FILTER = "{{ meta | meta_tags }}"

_tags = st.lists(st.builds(MetaTag, st.sampled_from(["name", "property"]), st.text(max_size=12), st.text(max_size=40)),
                 max_size=6)


@given(_tags)
def test_the_filter_prints_what_the_loop_printed(tags: list[MetaTag]) -> None:
    tmp_path = Path("/nonexistent-content")  # the bundled theme alone
    env = install_functions(Theme.for_content(tmp_path).environment())
    loop, filtered = env.from_string(LOOP), env.from_string(FILTER)
    assert filtered.render(meta=tags) == loop.render(meta=tags)


def test_each_value_is_escaped_and_the_result_is_markup(tmp_path) -> None:
    env = install_functions(Theme.for_content(tmp_path).environment())
    made = env.filters["meta_tags"]([MetaTag("name", "citation_title", 'A <b>"bold"</b> & \'quoted\' title')])
    assert isinstance(made, Markup)
    assert made == ('<meta name="citation_title" content="A &lt;b&gt;&#34;bold&#34;&lt;/b&gt; &amp; '
                    '&#39;quoted&#39; title">\n')
    assert env.filters["meta_tags"](()) == ""


def test_a_paper_pages_head_has_each_tag_on_its_line(tmp_path) -> None:
    """paper.html prints the tags as its loop did: one a line, after the feed's link, before the JSON-LD."""
    env = install_functions(Theme.for_content(tmp_path).environment())
    head = env.from_string('{% if meta is defined %}\n{{ meta | meta_tags }}{% endif %}\n<script>')
    tags = [MetaTag("name", "citation_title", "T"), MetaTag("property", "og:type", "article")]
    assert head.render(meta=tags) == ('<meta name="citation_title" content="T">\n'
                                      '<meta property="og:type" content="article">\n<script>')
    assert head.render() == "<script>"


def test_a_key_given_as_markup_and_as_text_each_print_as_the_loop_prints_them(tmp_path) -> None:
    """The filter keeps each attribute's and key's escaped opening: a key given as Markup is not escaped, the same
    text given as a str is (the kept openings are told apart by type, not only by text)."""
    env = install_functions(Theme.for_content(tmp_path).environment())
    loop, filtered = env.from_string(LOOP), env.from_string(FILTER)
    for key in (Markup("a&amp;b"), "a&amp;b", Markup("a&amp;b")):
        tags = [MetaTag("name", key, "c")]
        assert filtered.render(meta=tags) == loop.render(meta=tags)
    assert 'name="a&amp;amp;b"' in filtered.render(meta=[MetaTag("name", "a&amp;b", "c")])
