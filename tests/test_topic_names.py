"""Topic names per interface language: the taxonomy's ``names`` block, the built-in translations,
and what the site and its search show."""

from __future__ import annotations

import pytest

from generator import search
from generator.errors import ContentError
from generator.derive.tagging import default_taxonomy, parse_taxonomy
from test_search import load_script, rendered, tag_urls

TAXONOMY = """fallback: Other topics
tags:
  Optimization: [gradient descent]
  Graph learning: [graph]
names:
  zh-CN: {Optimization: 优化方法}
  ja: {Optimization: 最適化手法, Other topics: その他}
"""


def test_every_builtin_topic_and_the_fallback_has_a_chinese_and_a_japanese_name():
    taxonomy = default_taxonomy()
    for language in ("zh-CN", "ja"):
        names = taxonomy.names_for(language)
        assert set(names) == {rule.name for rule in taxonomy.tags} | {taxonomy.fallback}, language
        assert all(name != names[name] for name in names)


@pytest.mark.parametrize("language", ["zh-CN", "zh-Hans", "zh"])
def test_a_file_names_its_topics_and_keeps_the_builtin_ones_it_shares(language):
    names = parse_taxonomy(TAXONOMY, "taxonomy.yaml").names_for(language)
    assert names["Optimization"] == "优化方法"  # the file's own wins
    assert names["Graph learning"] == "图学习"  # the built-in name of a tag it shares
    assert names["Other topics"] == "其他主题"


def test_names_do_not_change_the_taxonomy_version():
    plain = TAXONOMY.split("names:")[0]
    assert parse_taxonomy(TAXONOMY, "t.yaml").version == parse_taxonomy(plain, "t.yaml").version
    assert parse_taxonomy(plain, "t.yaml").names_for("en") == {}


@pytest.mark.parametrize("names, message", [
    ("names: [zh-CN]", "must map a language"),
    ("names:\n  ja: 最適化", "must map tag names"),
    ("names:\n  ja: {Optimisation: 最適化}", "does not have: Optimisation"),
])
def test_bad_names_are_errors_naming_the_line(names, message):
    with pytest.raises(ContentError, match=message) as raised:
        parse_taxonomy(TAXONOMY.split("names:")[0] + names + "\n", "taxonomy.yaml")
    assert raised.value.line == 5


def test_search_shows_the_translated_name_and_finds_both():
    papers = rendered([{"title": "梯度下降", "abstract": "收敛。", "tags": ["Optimization"]}])
    data = load_script(search.index_script(search.search_data(papers, tag_urls(papers), {"Optimization": "优化方法"})))
    assert data["tags"][0][0] == "优化方法" and data["tags"][0][1].endswith(".html")
    terms = {term for term, _ in data["index"]["invertedIndex"]}
    assert {"optim", "优化", "化方", "方法"} <= terms


@pytest.mark.parametrize("title, abstract, expected", [
    ("基于扩散模型的图像超分辨率重建", "本文提出了一种方法。", "Diffusion & generative models"),
    ("自监督学习的视频表示方法", "", "Clustering & unsupervised learning"),
    ("基于LoRA微调的代码生成模型", "", "Fine-tuning & continual learning"),  # LoRA: an English keyword in Chinese text
    ("拡散モデルを用いた高速な画像生成", "", "Diffusion & generative models"),
    ("連合学習におけるプライバシー保護", "", "Privacy & fairness"),
])
def test_chinese_and_japanese_keywords_tag_cjk_papers(title, abstract, expected):
    assert expected in default_taxonomy().tags_for(title, abstract)


def test_the_longest_cjk_keyword_wins_its_characters():
    tags = default_taxonomy().tags_for("自监督学习的视频表示方法", "")
    assert "Supervised learning" not in tags  # 监督学习 is inside 自监督学习
    assert "Diffusion & generative models" not in default_taxonomy().tags_for("基于LoRA微调的代码生成模型", "")
