"""Issue #43: the phrase finder counts its n-grams over word ids with numpy (generator/derive/ngrams.py); the
phrases are those it found before (tests/phrases_reference.py, the old code), on real and generated text, so the
volume's own topics and the pages stay byte-identical."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corpora
import phrases_reference as reference
from generator.derive.phrases import (_ASCII_WORD_OR_BREAK, _LOWERED_IN_CONTEXT, _WORD_OR_BREAK, candidates,
                                      phrases_of, phrases_of_many)
from generator.sources import read_source
from generator.text.cjk import CJK_RANGES

FIXTURES = Path(__file__).parent / "fixtures"
VOLUMES = [FIXTURES / "topics" / "dialogue-volume.csv", FIXTURES / "topics" / "nlp-ja-volume.csv",
           FIXTURES / "venues" / "colt-2024-theory.bib", FIXTURES / "venues" / "ismir-2024-subjects.csv",
           FIXTURES / "corpus" / "abstracts.jsonl"]

# Words and marks of abstracts: stop words, plurals, numbers, letters, hyphens and dashes, markup, CJK text (some
# of it Chinese), Greek capitals (Σ lowers to ς at a word's end) and İ (two characters lowered).
PIECES = ("dialogue state tracking systems models neural networks of the for language generation graph policies "
          "queries analysis bias is us data-to-text low-resource 2 3-4 x a i.e. speech recognition theory species "
          "classes bus ﬁelds ΣΟΦΊΑΣ ıs İstanbul ΑΣ.Β Deep-Learning — – - -- ( ) , . ; : _ $x^2$ \\emph "
          "<b> https://x.org 大規模言語モデル を 用いた 文法誤り訂正 の 性能評価 "
          "本文提出了一种基于大语言模型的对话生成方法 プロンプト 埋め込み Ⅱ ﬀ").split()
texts = st.lists(st.sampled_from(PIECES), max_size=25).map(" ".join)
spaced = st.text(st.sampled_from("aAbB -‐‑—_.,(ΣσİıéÉ2大モの\t\n"), max_size=30)


def same_candidates(text: str) -> bool:
    return candidates(text) == reference.candidates(text)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.one_of(texts, spaced), st.one_of(texts, spaced)), min_size=1, max_size=8))
def test_a_batchs_phrases_are_those_found_one_text_at_a_time(papers):
    assert phrases_of_many(papers) == [reference.phrases_of(title, abstract) for title, abstract in papers]


@settings(max_examples=300, deadline=None)
@given(st.one_of(texts, spaced, st.text(max_size=40)))
def test_a_texts_candidates_are_those_found_before(text):
    assert same_candidates(text)


# ASCII pieces that hold, or nearly hold, what the markup pattern removes: an ASCII text skips NFKC and the
# hyphens' translation, and the pattern where it holds none of "$", "\\", "<" and "://".
MARKUP_PIECES = ("graph neural networks $x$ $$y$$ $ \\emph \\ \\x{a} <b> < > a<b http://x.org https://y.z/q "
                 "://x ftp://w http:/x h ttp dialogue-state x-ray").split()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(MARKUP_PIECES), max_size=20).map(" ".join))
def test_an_ascii_texts_markup_is_dropped_as_before(text):
    assert same_candidates(text)


@pytest.mark.parametrize("name", corpora.NAMES)
def test_the_phrases_of_the_corpora_are_those_found_before(name):
    records = corpora.read(corpora.path(name, "the real abstracts"), 1000)
    papers = [(r.get("title") or "", r.get("abstract") or "") for r in records]
    found = phrases_of_many(papers)
    assert found == [reference.phrases_of(title, abstract) for title, abstract in papers]
    assert sum(len(paper.keys) for paper in found) > 10 * len(papers)


def test_the_fixture_volumes_phrases_are_those_found_before():
    for path in VOLUMES:
        entries = read_source(path, path.name).entries
        papers = [(entry.title, entry.text) for entry in entries]
        assert phrases_of_many(papers) == [reference.phrases_of(title, abstract) for title, abstract in papers]


def test_a_paper_alone_is_the_paper_in_a_batch():
    papers = [("Dialogue state tracking", "We study dialogue state tracking systems."), ("", ""),
              ("大規模言語モデル", "大規模言語モデルを用いた文法誤り訂正の性能評価"),
              ("Graph policies", "Neural networks.")]
    found = phrases_of_many(papers)
    assert found == [phrases_of(title, abstract) for title, abstract in papers]
    assert phrases_of("", "").keys == frozenset()
    # Frozen sets, also where CJK phrases join the Latin-script ones: a PaperPhrases is immutable.
    assert all(type(value) is frozenset for paper in found for value in vars(paper).values())


ASCII_CONTEXTS = ("{c}", "ab{c}cd", "a-{c}-b", "{c}-x", "x-{c}", " -{c}", "{c} -", "{c}{c}--{c}", "9{c}_{c}Z")


def test_an_ascii_texts_words_and_breaks_are_those_the_unicode_finder_finds():
    """An ASCII text's words are found by ASCII sets (a bitmap to the regex engine): every ASCII character,
    in every place a class decides (a word's inside, its hyphen, a break's run, a dash's lookahead)."""
    for point in range(128):
        for context in ASCII_CONTEXTS:
            text = context.format(c=chr(point)).lower()
            assert _ASCII_WORD_OR_BREAK.findall(text) == _WORD_OR_BREAK.findall(text), (hex(point), context)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_a_generated_ascii_texts_words_are_those_the_unicode_finder_finds(text):
    lowered = text.lower()
    assert _ASCII_WORD_OR_BREAK.findall(lowered) == _WORD_OR_BREAK.findall(lowered)


def test_lowering_a_whole_text_changes_no_characters_class_but_where_the_finder_says():
    """The finder lowers a text without CJK as a whole, not a clause at a time: every other character must lower
    to one character of its class, whatever surrounds it (checked over every code point of this Python)."""
    classes = [re.compile(r"\w"), re.compile(r"\s"), re.compile(f"[{CJK_RANGES}]"), re.compile("[-‐‑]")]
    for point in range(sys.maxunicode + 1):
        char = chr(point)
        lowered = char.lower()
        if lowered == char or _LOWERED_IN_CONTEXT.match(char):
            continue
        assert len(lowered) == 1 and char != "Σ", hex(point)
        assert [bool(c.match(char)) for c in classes] == [bool(c.match(lowered)) for c in classes], hex(point)
        assert (char == "-") == (lowered == "-") and char != "_"
    # Why Σ is not lowered with the whole text: before "." and a capital it is no word's end there.
    assert "ΑΣ.Β".lower().split(".")[0] != "ΑΣ".lower()
    assert same_candidates("ΑΣ.Β ΑΣ. Β İstanbul, İSTANBUL")


def test_the_phrase_finder_imports_numpy_only_when_it_finds_phrases():
    """A command's start-up imports phrases.py (through the project's survey) but not numpy: ngrams.py is
    imported inside the functions that count."""
    code = ("import sys; import generator.derive.phrases, generator.derive.volume_topics; "
            "assert 'numpy' not in sys.modules; from generator.derive.phrases import phrases_of; "
            "phrases_of('', 'Dialogue systems.'); assert 'numpy' in sys.modules")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
