"""Front matter written without PyYAML (text/frontwrite.py): the text libyaml's emitter writes, byte for byte,
and the tool's own pages written that way (not handed back to libyaml)."""

from __future__ import annotations

import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.text import frontwrite, yamlutil

# Strings YAML treats specially, as a whole or by a character in some place.
AWKWARD = ["yes", "No", "ON", "off", "null", "Null", "~", "true", "False", "0x1F", "0o17", "1e3", "1_000", ".5",
           "-.inf", ".NaN", "12:30", "1:20:30", "2026-12-06", "2026-12-06 10:00", "=", "<<", "-", "- x", "-x", "?",
           "? x", "?x", ":", ": x", ":x", "a:", "a: b", "a:b", "a #b", "a#b", "#a", "---", "--- a", "...", "...a",
           "a, b", "[a]", "a]", "{a", "a}", "&a", "*a", "!a", "|a", ">a", "'a", "a'b", "it's", '"a', 'a"b', "%a",
           "@a", "`a", "a?", "a,", "é", "数学", "\ue000", "\uffff", "\ufeffa", "a\u2028b", "a\x85b", "a\tb", "a\nb",
           " a", "a ", "a  b", "😀", "x" * 9_950, "0", "-1", "+1", "012", "1.0", "0b101", "1,000"]
SCALARS = (st.text() | st.sampled_from(AWKWARD) | st.text(alphabet=st.sampled_from("a -:#,?[]{}'\"!&*|>%@`.~é"))
           | st.integers() | st.booleans() | st.none())
FLOWS = st.lists(SCALARS, max_size=4) | st.dictionaries(st.text(max_size=8) | st.sampled_from(["name", "yes", "a b"]),
                                                        SCALARS, max_size=4)
VALUES = SCALARS | FLOWS | st.lists(FLOWS | SCALARS, max_size=4) | st.floats(allow_nan=False)
KEYS = st.text(max_size=10) | st.sampled_from(["id", "title", "tags", "on", "null", "a_b", "x" * 70, "_"])


def libyaml(data: dict) -> str:
    """The page's YAML as libyaml writes it (yamlutil.dump's way before frontwrite)."""
    return yaml.dump(data, Dumper=yamlutil._Dumper, sort_keys=False, allow_unicode=True, width=10_000,
                     default_flow_style=None)


@settings(max_examples=300)
@given(st.dictionaries(KEYS, VALUES, max_size=8))
@example({"k": "x" * 9_950})
@example({"authors": [{"name": "A", "affiliation": "B: C"}, "D"], "tags": []})
def test_front_matter_is_written_as_libyaml_writes_it(meta):
    written = frontwrite.dump(meta)
    assert written is None or written == libyaml(meta)
    assert yamlutil.dump(meta) == libyaml(meta)


@given(st.sampled_from(AWKWARD), st.booleans())
def test_each_awkward_string_is_written_as_libyaml_writes_it_or_left_to_it(text, in_a_list):
    meta = {"k": [text] if in_a_list else text}
    written = frontwrite.dump(meta)
    assert written is None or written == libyaml(meta)


def test_a_list_or_mapping_met_twice_is_left_to_libyaml_which_anchors_it():
    shared, author = ["a", "b"], {"name": "Ada"}
    for meta in ({"tags": shared, "topics": shared}, {"authors": [author, author]}, {"a": [author], "b": author}):
        assert frontwrite.dump(meta) is None
        assert "&id001" in yamlutil.dump(meta) and yamlutil.dump(meta) == libyaml(meta)


def test_the_tools_own_pages_are_written_here():
    """What a created page holds (content/merge.py ``_create``): written without libyaml, as libyaml would."""
    meta = {"id": "12", "title": "Flow matching: a survey (2)", "slug": "flow-matching-a-survey-2",
            "authors": [{"name": "Ada Roe", "affiliation": "Univ. of X, Y"}, "Bo Li", {"name": "Żaneta Ó"}],
            "tags": ["Generative models", "Diffusion & flows"], "pdf": "https://x.org/a.pdf?x=1#p",
            "track": "Main", "order": 12, "source": "papers.jsonl", "entry": 12,
            "generated": {"text": "0a1b2c3d4e5f", "title": "ffeeddccbbaa", "taxonomy": "d40fdfb9905b/missing"}}
    written = frontwrite.dump(meta)
    assert written is not None and written == libyaml(meta)
    assert written.splitlines()[:2] == ["id: '12'", "title: 'Flow matching: a survey (2)'"]
