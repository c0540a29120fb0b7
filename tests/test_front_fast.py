"""The fast reader of front matter in the tool's shape (generator/text/frontfast.py) gives what libyaml gives
(yamlutil.load_mapping), or nothing: on what the tool writes, on hand-typed lines, and on lines YAML refuses."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import ContentError
from generator.text.frontfast import read_front
from generator.text.yamlutil import dump, load_mapping

_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
_TRICKY = st.sampled_from(["yes", "No", "null", "~", "1.0", "0x1F", "012", "1_000", "-7", "+3", "=", "1:30",
                           "2026-12-06", ".inf", "C#", "a #b", "a: b", "a:b", "'", "''", "-x", "- x", "?x", "[x]",
                           "{x}", "x, y", "&a", "*a", "!x", "|", ">", "%x", "@x", "`x`", "don't", 'say "hi"',
                           "über", "日本語 の タイトル", "tab\there", "two\nlines", " lead", "trail ", "\ufeffbom",
                           "nel\x85x", "ls\u2028x", "\x00", "0", "10000000000000000000000"])
_SCALAR = st.one_of(_TEXT, _TRICKY, st.integers(-10**20, 10**20), st.booleans(), st.none(), st.floats())
# Keys: the words r"[a-z_]{1,8}" and r"[A-Za-z_][A-Za-z0-9_]{0,10}" match, drawn as text of those letters
# (st.from_regex drew the same words at several times the cost: most of this file's time).
_LOWER = string.ascii_lowercase + "_"
_FIRST = string.ascii_letters + "_"
_VALUE = st.one_of(_SCALAR, st.lists(_SCALAR, max_size=4),
                   st.dictionaries(st.text(_LOWER, min_size=1, max_size=8), _SCALAR, max_size=4))
_META = st.dictionaries(st.tuples(st.sampled_from(_FIRST), st.text(_FIRST + string.digits, max_size=10)).map("".join),
                        _VALUE, min_size=1, max_size=8)


def libyaml(text: str):
    try:
        return load_mapping(text, "page.md", ContentError, first_line=2)
    except ContentError:
        return "error"


@settings(max_examples=300, deadline=None)
@given(meta=_META)
def test_what_the_tool_writes_reads_as_libyaml_reads_it(meta):
    text = dump(meta).rstrip("\n")
    fast = read_front(text, first_line=2)
    if fast is not None:
        expected = libyaml(text)
        assert fast == expected
        assert list(fast[0]) == list(expected[0])


_LINE = st.tuples(st.sampled_from(["id", "title", "tags", "generated", "x"]),
                  st.one_of(_TRICKY, _TEXT, st.lists(st.one_of(_TRICKY, _TEXT), max_size=3).map(", ".join),
                            st.lists(st.one_of(_TRICKY, _TEXT), max_size=3).map(lambda i: f"[{', '.join(i)}]"),
                            st.lists(st.tuples(st.sampled_from(["text", "k"]), _TRICKY), max_size=3)
                            .map(lambda i: "{" + ", ".join(f"{k}: {v}" for k, v in i) + "}")))


@settings(max_examples=500, deadline=None)
@given(lines=st.lists(_LINE, min_size=1, max_size=6))
def test_hand_typed_lines_read_as_libyaml_reads_them_or_go_to_libyaml(lines):
    text = "\n".join(f"{key}: {value}" for key, value in lines)
    fast = read_front(text, first_line=2)
    if fast is not None:
        assert fast == libyaml(text), text


def test_the_tools_pages_take_the_fast_path():
    page = ("id: '13'\ntitle: 'D2C: Differentiable Diffusion Conditioning'\nslug: d2c\n"
            "tags: [Diffusion & generative models, Optimization, 'Physics, ML']\norder: 13\nsource: neurips-2026.txt\n"
            "entry: 13\ngenerated: {text: 2b6e62023a4b, title: b133e6cc8a8e, taxonomy: d40fdfb9905b/missing}")
    fast = read_front(page, first_line=2)
    assert fast is not None and fast == libyaml(page)
    assert fast[0]["tags"] == ["Diffusion & generative models", "Optimization", "Physics, ML"]
    assert fast[1]["generated"] == 9 and fast[0]["order"] == 13 and fast[0]["id"] == "13"
    title = "title: 0-1 loss, which has a monotonic relationship [between] risk (2)"
    assert read_front(title) == ({"title": "0-1 loss, which has a monotonic relationship [between] risk (2)"},
                                 {"title": 1})


def test_what_it_is_not_sure_of_goes_to_libyaml():
    for text in ("title: x # a comment", "# note\nid: '1'", "tags:\n  - a", 'title: "double"', "order: 012",
                 "order: -7", "flag: yes", "x: ~", "x: 1.5", "a: 1\na: 2", "title: a: b", "x: &a 1", "x: !!str 1",
                 "title: 'open", "tags: [a, [b]]", "x: [a,b]", "x:  two spaces", ""):
        assert read_front(text) is None, text
