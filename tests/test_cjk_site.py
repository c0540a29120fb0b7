"""Chinese and Japanese proceedings built end to end: the Japanese interface, readable CJK
addresses that resolve from file:// and over http, derived titles, topics in the interface
language, and author names sorted as written."""

from __future__ import annotations

import contextlib
import functools
import json
import re
import threading
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote, unquote, urljoin, urlsplit

import pytest

from cjk_fixtures import JA_CSV, ZH_LIST, ZH_PAPERS, built

BASE = "https://example.org/proc/"


@pytest.fixture(scope="module")
def ja_site(tmp_path_factory) -> Path:
    return built(tmp_path_factory.mktemp("ja"), [JA_CSV],
                 f"title: 2026年度 人工知能学会全国大会\nlanguage: ja\ndate: 2026-06-09\nbase_url: {BASE}\n")


@pytest.fixture(scope="module")
def zh_site(tmp_path_factory) -> Path:
    return built(tmp_path_factory.mktemp("zh"), [ZH_PAPERS, ZH_LIST],
                 f"title: 第十届全国机器学习会议\nlanguage: zh-CN\ndate: 2026-10-20\nbase_url: {BASE}\n")


def papers(site: Path) -> list[dict]:
    return json.loads((site / "papers.json").read_text(encoding="utf-8"))


def read(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def test_japanese_interface(ja_site):
    home = read(ja_site, "index.html")
    assert home.startswith('<!DOCTYPE html>\n<html lang="ja">')
    assert ">論文一覧</a>" in home and 'placeholder="論文を検索"' in home
    assert "2026年6月9日" in home and "13 件の論文" in home


def test_cjk_titles_get_readable_addresses(ja_site, zh_site):
    for site in (ja_site, zh_site):
        for paper in papers(site):
            assert not re.fullmatch(r"paper(-\d+)?", paper["slug"]), paper
            assert (site / "papers" / f"{paper['slug']}.html").is_file()
            assert paper["url"] == quote(f"papers/{paper['slug']}.html") and paper["url"].isascii()
            assert (site / unquote(paper["url"])).is_file()
    slugs = {p["slug"] for p in papers(ja_site)}
    assert {"拡散モデルを用いた高速な画像生成", "lora-による大規模モデルの効率的な微調整", "要旨のみの投稿"} <= slugs
    assert "扩散模型-diffusion-在分子生成中的应用" in {p["slug"] for p in papers(zh_site)}


def test_derived_titles_of_untitled_chinese_abstracts(zh_site):
    titles = {p["title"] for p in papers(zh_site)}
    assert {"基于动态稀疏注意力的推理加速方法", "融合激光雷达与相机信息的多模态检测框架", "原型校准网络"} <= titles
    for paper in papers(zh_site):
        assert len(paper["title"]) <= 30, paper["title"]


def test_topics_in_the_interface_language_at_english_addresses(ja_site, zh_site):
    ja_other = read(ja_site, "tags/other-topics.html")
    assert "<h1 class=\"page-title\">その他のトピック</h1>" in ja_other
    zh_tags = read(zh_site, "tags/index.html")
    assert ">其他主题</a>" in zh_tags and "Other topics" not in zh_tags
    assert (zh_site / "tags" / "扩散模型.html").is_file()  # a venue's own keyword keeps its characters


def every_link(site: Path):
    for page in site.rglob("*.html"):
        if page.name == "404.html":
            continue
        for href in re.findall(r'href="([^"#]+)', page.read_text(encoding="utf-8")):
            if not urlsplit(href).scheme:
                yield page, href


@pytest.mark.parametrize("name", ["ja_site", "zh_site"])
def test_every_link_resolves_from_file(request, name):
    site = request.getfixturevalue(name)
    base = site.as_uri() + "/"
    missing = []
    for page, href in every_link(site):
        target = urljoin(page.as_uri(), href)
        path = Path(unquote(urlsplit(target).path))
        if not path.is_file():
            missing.append((str(page.relative_to(site)), href))
    assert base and not missing, missing[:5]


def test_sitemap_and_feed_carry_encoded_addresses(ja_site):
    sitemap = read(ja_site, "sitemap.xml")
    locs = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    assert locs and all(loc.isascii() and loc.startswith(BASE) for loc in locs)
    assert BASE + quote("papers/拡散モデルを用いた高速な画像生成.html") in locs
    for loc in locs:
        assert (ja_site / unquote(loc[len(BASE):])).is_file(), loc
    feed = read(ja_site, "feed.xml")
    links = re.findall(r'<link[^>]*href="([^"]+)"', feed)
    assert links and all(link.isascii() for link in links)


@contextlib.contextmanager
def serving(site: Path):
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *args: None
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_encoded_addresses_are_served_over_http(ja_site):
    with serving(ja_site) as url:
        for paper in papers(ja_site)[:5]:
            with urllib.request.urlopen(url + paper["url"]) as response:
                assert response.status == 200
                assert paper["title"] in response.read().decode("utf-8")


def test_author_index_keeps_cjk_names_as_written(ja_site):
    index = read(ja_site, "authors/index.html")
    names = re.findall(r'<li><a href="[^"]+">([^<]+)</a>', index)
    assert "山田 太郎" in names and "Kenji Tanaka" in names
    cjk_names = [n for n in names if not n.isascii()]
    assert cjk_names == sorted(cjk_names)  # family name first, as written: not under 太郎
    assert (ja_site / "authors" / "山田-太郎.html").is_file()


def test_fonts_follow_the_language(ja_site):
    css = read(ja_site, "assets/style.css")
    ja_rule = css[css.index(":lang(ja) {"):]
    ja_rule = ja_rule[: ja_rule.index("}")]
    assert "Hiragino" in ja_rule and "Yu Gothic" in ja_rule and "Noto Sans CJK JP" in ja_rule
    assert "Microsoft YaHei" in css[css.index(":lang(zh)"):css.index(":lang(zh-TW)")]
    assert "@import" not in css and "url(" not in css  # no web fonts


def test_chinese_teasers_are_cut_by_width_at_a_clause():
    from generator.text import cjk
    from generator.render.filters import TEASER_LENGTH, teaser
    text = ("图像超分辨率是计算机视觉中的基础问题。"
            "本文提出了一种基于扩散模型的超分辨率重建方法，通过逐步去噪生成图像。") * 4
    short = teaser(text)
    assert short.endswith("…") and cjk.width(short) <= TEASER_LENGTH + 2
    assert text.startswith(short[:-1]) and short[-2] not in "，。；：、"
    assert teaser("LoRA " + "微调" * 200).startswith("LoRA 微调")


def test_cjk_text_in_a_site_of_another_language_says_its_language(tmp_path, ja_site, zh_site):
    site = built(tmp_path, [JA_CSV, ZH_PAPERS], "title: Mixed\nlanguage: en\n")
    ja_page = read(site, "papers/拡散モデルを用いた高速な画像生成.html")
    assert '<html lang="en">' in ja_page and '<h1 class="page-title" lang="ja">' in ja_page
    assert '<section class="abstract" aria-labelledby="abstract-heading" lang="ja">' in ja_page
    assert '<h2 id="abstract-heading" lang="en">' in ja_page
    # A list's item says its abstract's language, which the toggle reading-list.js makes takes as its lang.
    assert '<li class="paper-item" data-abstract="ja">' in read(site, "index.html")
    assert '<h1 class="page-title" lang="zh">' in read(site, "papers/基于扩散模型的图像超分辨率重建.html")
    # In its own language's site the text needs no attribute of its own.
    assert '<h1 class="page-title">' in read(ja_site, "papers/拡散モデルを用いた高速な画像生成.html")
    assert '<h1 class="page-title">' in read(zh_site, "papers/基于扩散模型的图像超分辨率重建.html")
