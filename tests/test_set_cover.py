"""Issue 43: the own topics' set cover over arrays (derive/set_cover.py) chooses what the lazy heap chose
(tests/own_topics_reference.py), in the same order, ties included: gains drawn from few weights and small
counts tie often, and which of equal gains the heap chose depends on its stale entries."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import own_topics_reference
from generator.derive import own_topics
from generator.derive.phrase_table import PhraseTable
from generator.derive.phrases import phrases_of
from generator.derive.set_cover import greedy_cover
from test_topics_reference import VOLUMES, entries_of

KEYS = [f"{first} {second}" for first in "abcdef" for second in "xyz"]  # string order: the heap's tie-break


@st.composite
def instances(draw: st.DrawFn) -> tuple[dict[str, list[int]], dict[str, float], list[bool]]:
    papers = draw(st.integers(1, 30))
    keys = draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=len(KEYS), unique=True))
    holders = {key: sorted(draw(st.sets(st.integers(0, papers - 1), max_size=papers))) for key in keys}
    weight = {key: draw(st.sampled_from([0.4, 1.0, 1.5, 2.0, 3.0, 0.8])) for key in keys}
    covered = draw(st.lists(st.booleans(), min_size=papers, max_size=papers))
    return holders, weight, covered


@settings(max_examples=400, deadline=None)
@given(instances())
def test_the_cover_is_the_lazy_heaps_choice(instance):
    holders, weight, covered = instance
    assert greedy_cover(holders, weight, covered) == own_topics_reference._cover(holders, weight, covered)


def test_the_cover_of_the_fixture_volumes_candidates_is_the_heaps():
    """On real phrases: each fixture volume's candidates, with nothing covered and with a third covered."""
    for path in VOLUMES:
        entries = entries_of(path)
        table = PhraseTable.of([phrases_of(entry.title, entry.text) for entry in entries])
        holders, weight = own_topics._candidates(own_topics._Volume(table))
        for covered in ([False] * len(entries), [i % 3 == 0 for i in range(len(entries))]):
            chosen = greedy_cover(holders, weight, covered)
            assert chosen and chosen == own_topics_reference._cover(holders, weight, covered)
