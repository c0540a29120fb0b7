"""Chinese and Japanese text in the search index: CJK runs become character bigrams.

The JavaScript side (the same bigrams from what a reader types, highlighting) is
tested in node by tests/test_search_cjk_js.py.
"""

from __future__ import annotations

import gzip

import pytest

from cjk_fixtures import search_records
from generator import search
from generator.text import cjk
from test_search import load_script, rendered, tag_urls


def cjk_substrings(text: str, shortest: int = 2, longest: int = 6):
    """Every run of 2–6 CJK characters inside ``text``: the words a reader may look for."""
    for run in cjk.split_runs(search.normalise(text))[1::2]:
        for size in range(shortest, min(longest, len(run)) + 1):
            for start in range(len(run) - size + 1):
                yield run[start : start + size]


@pytest.mark.parametrize("text, expected", [
    ("扩散模型", ["扩散", "散模", "模型"]),
    ("扩散模型 diffusion models", ["扩散", "散模", "模型", "diffus", "model"]),
    ("基于LoRA微调的方法", ["基于", "lora", "微调", "调的", "的方", "方法"]),
    ("拡散モデルを用いた", ["拡散", "散モ", "モデ", "デル", "ルを", "を用", "用い", "いた"]),
    ("ｶﾀｶﾅ・ひらがな", ["カタ", "タカ", "カナ", "ひら", "らが", "がな"]),  # half-width folded; ・ separates
    ("用CNN做", ["用", "cnn", "做"]),  # a lone character is a term of its own
    ("「扩散」。（模型）", ["扩散", "模型"]),  # CJK punctuation is never a term
    ("𠀀𠀁𠀂", ["𠀀𠀁", "𠀁𠀂"]),  # beyond U+FFFF: a character is one code point
    ("딥러닝 모델", ["딥러", "러닝", "모델"]),
])
def test_cjk_runs_are_indexed_as_bigrams(text, expected):
    assert search.terms(text) == expected


def test_english_terms_do_not_change():
    assert search.terms("Efficient fine-tuning of diffusion models, (revisited)") == \
        ["effici", "fine", "tune", "diffus", "model", "revisit"]


def test_every_word_inside_a_title_is_in_its_index_terms():
    """Whatever 2–6 characters a reader takes from a title, each of their bigrams is a title term."""
    papers = rendered(search_records())
    data = search.search_data(papers, tag_urls(papers))
    titles: dict[str, set[int]] = {}
    for term, posting in data["index"]["invertedIndex"]:
        titles[term] = {int(ref) for ref in posting["title"]}
    for n, paper in enumerate(papers):
        words = list(cjk_substrings(paper.title_plain))
        assert words, paper.title_plain
        for word in words:
            assert all(n in titles.get(gram, ()) for gram in search.terms(word)), (word, paper.title_plain)


def test_cjk_index_loads_as_ascii_script_in_javascript_order():
    papers = rendered(search_records())
    script = search.index_script(search.search_data(papers, tag_urls(papers)))
    assert script.isascii()
    data = load_script(script)
    terms = [term for term, _ in data["index"]["invertedIndex"]]
    assert terms == sorted(terms, key=search.utf16_key)
    assert data["docs"][0][0] == "基于扩散模型的图像超分辨率重建"


def test_a_cjk_snippet_is_as_wide_as_an_english_one_and_ends_at_a_clause():
    abstract = search_records()[0]["abstract"] * 3
    short = search.snippet(abstract)
    assert short.endswith("…") and cjk.width(short) <= search.SNIPPET_LENGTH + 2
    assert abstract.startswith(short[:-1])
    assert abstract[len(short) - 1] in cjk.CLAUSE_ENDS, short  # cut at a clause (its mark left before the …)


def test_snippet_never_cuts_a_latin_word_in_mixed_text():
    text = "我们" * 100 + "LoRA" + "微调" * 100
    for length in range(200, 212):
        short = search.snippet(text, length)[:-1]
        assert not short.endswith(("L", "Lo", "LoR")), short


def test_chinese_payload_per_paper_is_measured_and_bounded():
    """bench/cjk_payload.py measures it at scale; here a ceiling that catches a blow-up
    (positions or metadata per bigram would multiply it)."""
    papers = rendered(search_records() * 4)
    script = search.index_script(search.search_data(papers, tag_urls(papers)))
    per_paper = len(gzip.compress(script)) / len(papers)
    assert per_paper < 3000, f"{per_paper:.0f} bytes gzip per paper"
