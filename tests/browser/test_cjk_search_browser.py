"""Searching Chinese and Japanese proceedings in Chromium, from file:// and over http.

A word from inside a title (no spaces around it) finds the paper, the result links
to its page at a CJK address that opens, and the matched characters are marked.
"""

from __future__ import annotations

from pathlib import Path

import pytest


from cjk_fixtures import JA_CSV, ZH_LIST, ZH_PAPERS, built
from .checkers import report
from .conftest import served
from .helpers import TIMEOUT, search_for

SITES = {
    "zh": ([ZH_PAPERS, ZH_LIST], "title: 第十届全国机器学习会议\nlanguage: zh-CN\n"),
    "ja": ([JA_CSV], "title: 2026年度 人工知能学会全国大会\nlanguage: ja\n"),
}
# (site, query, the title it must find, what the title's <mark> holds)
CASES = [
    ("zh", "扩散模型", "基于扩散模型的图像超分辨率重建", "扩散模型"),
    ("zh", "超分辨率", "基于扩散模型的图像超分辨率重建", "超分辨率"),
    ("zh", "LoRA微调", "基于LoRA微调的代码生成模型", "LoRA微调"),
    ("ja", "画像生成", "拡散モデルを用いた高速な画像生成", "画像生成"),
    ("ja", "思考の連鎖", "大規模言語モデルにおける思考の連鎖の分析", "思考の連鎖"),
]


@pytest.fixture(scope="module")
def cjk_sites(tmp_path_factory) -> dict[str, Path]:
    sites = {}
    for name, (sources, config) in SITES.items():
        sites[name] = built(tmp_path_factory.mktemp(name), sources, config)
    return sites


@pytest.fixture(params=["file", "http"])
def roots(request, cjk_sites):
    if request.param == "file":
        yield {name: site.as_uri() + "/" for name, site in cjk_sites.items()}
        return
    with served(cjk_sites["zh"]) as zh, served(cjk_sites["ja"]) as ja:
        yield {"zh": zh, "ja": ja}


@pytest.mark.parametrize("site, query, title, marked", CASES)
def test_a_word_inside_a_title_finds_the_paper(page, roots, site, query, title, marked):
    page.goto(roots[site] + "index.html")
    assert page.locator("html").get_attribute("lang") == ("zh-CN" if site == "zh" else "ja")
    search_for(page, query)
    page.wait_for_selector(".search-hit-title", timeout=TIMEOUT)
    hit = page.locator(".search-hit-title", has_text=title).first
    assert hit.count() == 1, page.locator(".search-results").inner_text()
    assert marked in hit.locator("mark").all_inner_texts()
    hit.click()
    page.wait_for_load_state()
    assert page.locator("h1").first.inner_text() == title
    assert not page.errors and not page.failed, (page.errors, page.failed)


def test_chinese_and_japanese_pages_are_valid_html(vnu, cjk_sites):
    """CJK characters in links and lang attributes on a paper's text are valid HTML."""
    for site in cjk_sites.values():
        pages = sorted(site.rglob("*.html"))
        messages = [m for m in vnu(pages, "--errors-only") if m["type"] in ("error", "non-document-error")]
        assert not messages, "the Nu HTML checker found:\n" + "\n".join(report(messages, site))
