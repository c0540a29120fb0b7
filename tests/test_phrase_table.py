"""Issue #43: a volume's key phrases as one table of ids (derive/phrase_table.py), the phrases the sets were.

The table a survey's worker makes of its chunk (``phrase_table``), the chunks' tables joined, and a table made of
each paper's sets (``PhraseTable.of``) all hold the same phrases as ``PaperPhrases``; and the own topics chosen
from the joined table are those ``own_topics_reference`` chooses from the sets."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import own_topics_reference
from generator.derive import own_topics as fast
from generator.derive.phrase_table import PhraseTable
from generator.derive.phrases import PaperPhrases, phrase_table, phrases_of
from generator.model.paper import Entry
from generator.sources import read_source

FIXTURES = Path(__file__).parent / "fixtures"
VOLUMES = [FIXTURES / "topics" / "dialogue-volume.csv", FIXTURES / "topics" / "nlp-ja-volume.csv",
           FIXTURES / "venues" / "colt-2024-theory.bib", FIXTURES / "venues" / "ismir-2024-subjects.csv"]
# Latin-script words and plurals, Japanese and Chinese runs, punctuation: phrases of every kind in one volume.
PIECES = ("dialogue state tracking systems models of the for language generation low-resource data-to-text "
          "大規模言語モデル を 用いた 文法誤り訂正 の 性能評価 本文提出了一种基于大语言模型的对话生成方法 "
          ". , 2").split()


def entries_of(path: Path) -> list[Entry]:
    return list(read_source(path, path.name).entries)


def pairs_of(entries: list[Entry]) -> list[tuple[str, str]]:
    return [(entry.title, entry.text) for entry in entries]


def joined(pairs: list[tuple[str, str]], size: int) -> PhraseTable:
    """The table of the papers as the survey makes it: a table a chunk, joined."""
    return PhraseTable.join(phrase_table(pairs[i : i + size]) for i in range(0, len(pairs), size))


def one_by_one(pairs: list[tuple[str, str]]) -> list[PaperPhrases]:
    return [phrases_of(title, abstract) for title, abstract in pairs]


@pytest.mark.parametrize("path", VOLUMES, ids=lambda path: path.name)
@pytest.mark.parametrize("size", [1, 7, 1000])
def test_the_chunks_tables_joined_hold_each_papers_phrases(path, size):
    pairs = pairs_of(entries_of(path))
    table = joined(pairs, size)
    assert len(table) == len(pairs) and len(set(table.names)) == len(table.names)
    assert table.rows() == one_by_one(pairs) == [table.row(i) for i in range(len(pairs))]
    assert PhraseTable.of(table.rows()).rows() == table.rows()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from(PIECES), max_size=6),
                          st.lists(st.sampled_from(PIECES), max_size=30)), min_size=1, max_size=12), st.integers(1, 5))
def test_a_generated_volumes_table_holds_each_papers_phrases(papers, size):
    pairs = [(" ".join(title), " ".join(abstract)) for title, abstract in papers]
    table = joined(pairs, size)
    assert table.rows() == one_by_one(pairs)
    assert fast.own_topics(table, [f"{t}\n{a}" for t, a in pairs]) == fast.own_topics(table.rows(), [
        f"{t}\n{a}" for t, a in pairs])


@pytest.mark.parametrize("path", VOLUMES, ids=lambda path: path.name)
def test_own_topics_of_the_joined_table_are_the_references(path):
    entries = entries_of(path)
    pairs = pairs_of(entries)
    texts = [unicodedata.normalize("NFKC", f"{title}\n{text}") for title, text in pairs]
    found = fast.own_topics(joined(pairs, 5), texts)
    reference = own_topics_reference.own_topics(one_by_one(pairs), texts)
    assert found.names and (found.names, found.per_paper) == (reference.names, reference.per_paper)


def test_a_table_of_no_papers_and_of_papers_without_phrases():
    assert len(phrase_table([])) == 0 and phrase_table([]).rows() == []
    empty = joined([("", ""), ("", "of the."), ("2", "")], 2)
    assert empty.rows() == one_by_one([("", ""), ("", "of the."), ("2", "")])
    assert fast.own_topics(empty, ["", "", ""]).per_paper == ((), (), ())
