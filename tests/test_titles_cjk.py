"""Derived titles for untitled Chinese and Japanese abstracts: short, the stated contribution,
cut at a clause, never inside a Latin word."""

from __future__ import annotations

import re

import pytest

from cjk_fixtures import ja_records, zh_records, zh_untitled
from generator.text import cjk
from conftest import derive_title
from generator.derive.titles_cjk import MAX_CHARS


def abstracts() -> list[str]:
    return zh_untitled() + [r["abstract"] for r in zh_records()] + [r["abstract"] for r in ja_records()]


@pytest.mark.parametrize("abstract, title", [
    ("近年来，大语言模型在多个领域取得了突破，但其推理成本高昂。本文提出了一种基于动态稀疏注意力的推理加速方法，"
     "在保持生成质量的同时将推理速度提高了2.3倍。", "基于动态稀疏注意力的推理加速方法"),
    ("随着自动驾驶技术的发展，三维点云目标检测受到广泛关注。我们提出了一种融合激光雷达与相机信息的多模态检测框架，"
     "在KITTI数据集上的平均精度提高了4.1%。", "融合激光雷达与相机信息的多模态检测框架"),
    ("图像分割是医学影像分析的关键步骤。本文提出了一种轻量级U-Net结构，参数量减少了70%。", "轻量级U-Net结构"),
    ("本文研究视频的自监督表示学习。我们提出了一种时空对比学习框架，无需人工标注。", "时空对比学习框架"),
    ("本论文では、拡散モデルのサンプリングを高速化する手法を提案する。提案手法は従来より10倍高速である。",
     "拡散モデルのサンプリングを高速化する手法"),
    ("医療画像のセグメンテーションにおいて、予測の不確実性を推定する手法を提案する。",
     "予測の不確実性を推定する手法"),
    ("日本語のSNS投稿を対象とした感情分析のために、ドメイン適応した事前学習モデルを構築する。",
     "ドメイン適応した事前学習モデル"),
    ("本研究では、深層強化学習を用いて四足歩行ロボットの歩行制御方策を学習する。実機で検証した。",
     "深層強化学習を用いて四足歩行ロボットの歩行制御方策"),
    ("本文提出了一種基於圖神經網路的推薦方法，在三個資料集上取得最佳效果。", "基於圖神經網路的推薦方法"),  # traditional
    ("本稿では、大規模言語モデルを用いた対話システムについて述べる。", "大規模言語モデルを用いた対話システム"),
    ("隨著深度學習的發展，影像辨識的準確率大幅提升。",
     "影像辨識的準確率大幅提升"),  # no claim: the first clause past the lead-in
    ("这是一个很短的摘要。", "这是一个很短的摘要"),
])
def test_the_title_is_the_stated_contribution(abstract, title):
    assert derive_title(abstract) == title


def test_titles_are_short_and_end_at_a_clause_or_phrase():
    for abstract in abstracts():
        title = derive_title(abstract)
        assert 4 <= len(title) and cjk.width(title) <= 2 * MAX_CHARS, (title, abstract[:40])
        assert not re.search(r"[，。；：、,.;:（(]$", title), title
        assert title in abstract.replace("（", "(").replace("）", ")") or _without_parentheticals(title, abstract)


def _without_parentheticals(title: str, abstract: str) -> bool:
    return title in re.sub(r"\s*[（(][^（）()]*[）)]", "", abstract)


def test_a_long_phrase_drops_its_leading_modifiers_not_its_head():
    abstract = ("本文提出了一种面向大规模多语言预训练语言模型在低资源少样本跨领域场景下的"
                "持续知识迁移与参数高效微调的统一框架，"
                "实验表明其有效。")
    title = derive_title(abstract)
    assert title.endswith("统一框架") and len(title) <= MAX_CHARS, title


def test_never_cut_inside_a_latin_word_in_mixed_text():
    abstract = "本文提出了" + "超" * 27 + "TransformerXL结构改进方法。"
    title = derive_title(abstract)
    assert not re.search(r"[A-Za-z]$", title) or title.endswith("TransformerXL"), title
    assert "Transforme" not in title or "TransformerXL" in title, title


def test_untitled_fixture_rows_get_titles_and_english_is_unchanged():
    assert derive_title("要旨のみの投稿：タイトルが未定の発表。") == "要旨のみの投稿"
    english = "We introduce FreeDave, a training-free method for fast decoding of diffusion language models."
    assert derive_title(english).startswith("FreeDave: ")


def test_titles_stay_distinct():
    abstract = zh_untitled()[0]
    first = derive_title(abstract)
    assert derive_title(abstract, {first}) != first
