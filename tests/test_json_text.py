"""text/jsontext.py: orjson's compact text is json's, for the values citations and JSON-LD hold."""

from __future__ import annotations

import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.text.jsontext import compact_text

TEXT = st.text(st.sampled_from(list('aZ "\\/<>&\x00\x08\x0b\x1a\x1f\x7f\x80\u2028\u2029\ud800\ue000\uffff山é🦆𠀀')),
               max_size=8)
SCALAR = st.one_of(TEXT, st.integers(-2**70, 2**70), st.booleans(), st.none())
VALUE = st.recursive(SCALAR, lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
                     | st.dictionaries(TEXT, inner, max_size=3), max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(VALUE)
@example({"a": "\ud800"})
@example([2**64, -2**63 - 1, 2**63 - 1])
@example({1: "a"})
def test_compact_text_is_what_json_writes(value: object) -> None:
    assert compact_text(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
