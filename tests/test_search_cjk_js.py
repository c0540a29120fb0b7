"""Chinese and Japanese search in JavaScript: lunr.js and search.js against the index built in Python.

Any 2–4 characters taken from inside a Chinese or Japanese title find the paper,
mixed queries (扩散模型 diffusion, LoRA微调) find theirs, search.js turns text
into the very terms the index holds, and highlighting marks the characters matched.
"""

from __future__ import annotations

from cjk_fixtures import search_records
from generator import search
from test_search import rendered
from test_search_cjk import cjk_substrings
from test_search_js import index_script, run


def papers():
    return rendered(search_records())


def test_every_word_inside_a_chinese_or_japanese_title_finds_its_paper(node, tmp_path):  # noqa: F811
    found = papers()
    cases = [(n, word) for n, paper in enumerate(found) for word in cjk_substrings(paper.title_plain, 2, 4)]
    cases += [(n, paper.title_plain) for n, paper in enumerate(found)]
    out = run(node, tmp_path, index_script(found), [{"query": q} for _, q in cases])
    assert out["loaded"], out.get("error")
    missed = [(q, found[n].title_plain) for (n, q), hits in zip(cases, out["results"]) if n not in hits]
    assert not missed, f"{len(missed)} of {len(cases)} words missed their paper: {missed[:10]}"
    for (n, q), hits in zip(cases, out["results"]):
        if q == found[n].title_plain:
            assert hits[0] == n, f"the full title {q!r} ranked another paper first"


def titled(found, title: str) -> int:
    return next(n for n, p in enumerate(found) if p.title_plain == title)


def test_mixed_and_japanese_queries(node, tmp_path):  # noqa: F811
    found = papers()
    molecules = titled(found, "扩散模型 diffusion 在分子生成中的应用")
    code = titled(found, "基于LoRA微调的代码生成模型")
    ja_lora = titled(found, "LoRAによる大規模モデルの効率的な微調整")
    ja_diffusion = titled(found, "拡散モデルを用いた高速な画像生成")
    queries = {
        "扩散模型 diffusion": {molecules},  # both words required: the other 扩散模型 paper has no "diffusion"
        "LoRA微调": {code, titled(found, "面向中文的大语言模型指令微调")},  # LoRA and 微调 in its abstract
        "lora": {code, ja_lora, titled(found, "面向中文的大语言模型指令微调")},
        "微调": {code, titled(found, "面向中文的大语言模型指令微调")},  # not 微調整: 調 is not 调
        "微調整": {ja_lora},
        "拡散モデル": {ja_diffusion},
        "ｶﾞｿﾞｳ": set(),  # half-width katakana is normalised, and nothing says ガゾウ
        "モデル": {ja_diffusion, ja_lora, titled(found, "日本語テキストの感情分析のための事前学習")},
        "扩": {titled(found, "基于扩散模型的图像超分辨率重建"), molecules},  # one character: any pair it starts
        "「知识蒸馏」": {titled(found, "知识蒸馏与模型压缩综述")},
        "不存在的词": set(),
    }
    out = run(node, tmp_path, index_script(found), [{"query": q} for q in queries])
    for (query, expected), hits in zip(queries.items(), out["results"]):
        assert expected <= set(hits), (query, [found[n].title_plain for n in hits])
        if query in ("扩散模型 diffusion", "拡散モデル", "ｶﾞｿﾞｳ", "不存在的词", "「知识蒸馏」", "微调", "微調整"):
            assert set(hits) == expected, (query, [found[n].title_plain for n in hits])


def test_search_js_makes_the_terms_the_index_holds_for_cjk_text(node, tmp_path):  # noqa: F811
    records = search_records()
    texts = [r["title"] + " " + r["abstract"] for r in records] + [
        "ｶﾀｶﾅ・ひらがな 𠀀𠀁𠀂 딥러닝 모델 用CNN做 「扩散」。（模型） LoRA微调。a的b",
    ]
    out = run(node, tmp_path, index_script(papers()), [{"terms": text} for text in texts])
    differ = [(text[:30], js, py) for text, js, py in zip(texts, out["results"], map(search.terms, texts)) if js != py]
    assert not differ, differ[:3]


def test_highlighting_marks_the_matched_characters(node, tmp_path):  # noqa: F811
    cases = [
        ("扩散模型", "基于扩散模型的图像超分辨率重建", ["扩散模型"]),
        ("扩散 重建", "基于扩散模型的图像超分辨率重建", ["扩散", "重建"]),
        ("扩", "基于扩散模型", ["扩"]),
        ("LoRA微调", "基于LoRA微调的代码生成模型", ["LoRA微调"]),  # neighbouring marks join
        ("LoRA", "基于LoRA微调的代码", ["LoRA"]),
        ("扩散模型 diffusion", "扩散模型 diffusion 在分子生成中的应用", ["扩散模型", "diffusion"]),
        ("カタカナ", "全角 ｶﾀｶﾅ と カタカナ", ["ｶﾀｶﾅ", "カタカナ"]),  # displayed as written, matched normalised
        ("モデル", "拡散モデルを用いた", ["モデル"]),
        ("learning", "(learning), 学习", ["learning"]),
    ]
    out = run(node, tmp_path, index_script(papers()), [{"query": q, "mark": text} for q, text, _ in cases])
    assert out["results"] == [expected for _, _, expected in cases]
