"""Issue #43: the shapes the n-grams' count gives its phrases (ngrams.Shapes), and the own topics' candidates told by
them (own_topics._candidates), are what the phrases' strings say.

Each Latin-script key's words, whether all are generic and its parts (``own_topics._parts``) as the count made them
are those of its string; the candidates and weights ``_candidates`` finds from them are those it finds from the
strings alone (the same table, its shapes not known: the path of a table made of sets and of CJK keys)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.derive import own_topics
from generator.derive.phrase_table import PhraseTable, with_unknown
from generator.derive.phrases import GENERIC, phrase_table
from generator.sources import read_source

FIXTURES = Path(__file__).parent / "fixtures"
VOLUMES = [FIXTURES / "topics" / "dialogue-volume.csv", FIXTURES / "topics" / "nlp-ja-volume.csv",
           FIXTURES / "venues" / "colt-2024-theory.bib", FIXTURES / "venues" / "ismir-2024-subjects.csv"]
# Words that make shared phrases, plurals (ies, s, ss, us), generic nouns, stop words, a hyphen, CJK, a clause end.
PIECES = ("dialogue dialogues state states tracking systems system models model theory theories analysis "
          "process processes bus data-to-text low-resource language of the for method methods 学習 大規模言語モデル . ,"
          ).split()


def pairs_of(path: Path) -> list[tuple[str, str]]:
    return [(entry.title, entry.text) for entry in read_source(path, path.name).entries]


def joined(pairs: list[tuple[str, str]], size: int) -> PhraseTable:
    return PhraseTable.join(phrase_table(pairs[i : i + size]) for i in range(0, len(pairs), size))


def check_shapes(table: PhraseTable) -> None:
    ids = {name: i for i, name in enumerate(table.names)}
    shapes = table.shapes
    assert len(shapes.words) == len(shapes.generic) == len(shapes.parts) == len(table.names)
    for i, name in enumerate(table.names):
        words = int(shapes.words[i])
        if words == 0:  # not counted as an n-gram: a CJK key
            assert own_topics._cjk(name) and shapes.parts[i].tolist() == [-1, -1]
            continue
        assert words == len(name.split(" ")) and not own_topics._cjk(name)
        assert bool(shapes.generic[i]) == all(word in GENERIC for word in name.split(" "))
        parts = [int(part) for part in shapes.parts[i] if part >= 0]
        assert [table.names[part] for part in parts] == [part for part in own_topics._parts(name)]
        assert all(ids[table.names[part]] == part for part in parts)


def by_strings(table: PhraseTable) -> PhraseTable:
    """The same table, no key's shape known: ``_candidates`` tells each by its string."""
    return dataclasses.replace(table, shapes=with_unknown(None, len(table.names)))


def check_candidates(table: PhraseTable) -> None:
    found = own_topics._candidates(own_topics._Volume(table))
    expected = own_topics._candidates(own_topics._Volume(by_strings(table)))
    assert list(found[0].items()) == list(expected[0].items())
    assert list(found[1].items()) == list(expected[1].items())  # the same keys in order, the same doubles


@pytest.mark.parametrize("path", VOLUMES, ids=lambda path: path.name)
@pytest.mark.parametrize("size", [3, 1000])
def test_a_volumes_shapes_and_candidates_are_its_strings(path, size):
    table = joined(pairs_of(path), size)
    check_shapes(table)
    check_candidates(table)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from(PIECES), max_size=5),
                          st.lists(st.sampled_from(PIECES), max_size=40)), min_size=1, max_size=30), st.integers(1, 7))
def test_a_generated_volumes_shapes_and_candidates_are_its_strings(papers, size):
    table = joined([(" ".join(title), " ".join(abstract)) for title, abstract in papers], size)
    check_shapes(table)
    check_candidates(table)


def test_the_sets_table_knows_no_shape():
    table = joined(pairs_of(VOLUMES[0]), 10)
    assert not PhraseTable.of(table.rows()).shapes.words.any()
