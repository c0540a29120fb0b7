"""The search index's child made with less CPU (issue 43, session 23): each shortcut writes exactly the text the
general path writes, for any text a venue's file may hold."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.search.payload import compact_json
from generator.search.shards import _Shown

TEXT = st.text(st.sampled_from(list('ab "\\/<>&\n\t\x00\x1f\u2028é山\U0001f600\ud800')), max_size=20)
TREE = st.recursive(st.one_of(TEXT, st.integers(-5, 5)), lambda inner: st.lists(inner, max_size=3), max_leaves=6)


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT, st.lists(TEXT, max_size=3, unique=True), TEXT, st.lists(TEXT, max_size=3), st.integers(0, 99),
       st.lists(TREE, max_size=1))
def test_a_display_record_is_written_as_compact_json_writes_it(title, url, tags, text, names, more, tree) -> None:
    number = {tag: position for position, tag in enumerate(tags)}
    doc = [title, url, tags, text, names, more, *tree]
    assert _Shown.of(doc).json(number) == compact_json([title, url, [number[t] for t in tags], text, names, more,
                                                        *tree])
