"""Issue #30: a volume whose proceedings.yaml names no language speaks its papers' language when they are mostly
Japanese or Chinese (NLP2024's 599 Japanese papers), with the catalogue's word for "Proceedings" as the default
title; `language:` in the config still wins, and an English volume is as it was."""

from __future__ import annotations

import pytest
import json
import re
import shutil
from pathlib import Path

from cjk_fixtures import JA_CSV, ZH_LIST, ZH_PAPERS
from conftest import cli
from generator.model.volume import Volume
from generator.text.cjk import written_language


def build(tmp_path: Path, sources: list[Path], config: str | None = None) -> tuple[Path, str]:
    content, site = tmp_path / "content", tmp_path / "site"
    content.mkdir()
    for source in sources:
        shutil.copy(source, content / source.name)
    if config is not None:
        (content / "proceedings.yaml").write_text(config, encoding="utf-8")
    result = cli("build", "--content", str(content), "--out", str(site))
    assert result.returncode == 0, result.stderr
    return site, result.stdout + result.stderr


def home(site: Path) -> str:
    return (site / "index.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_japanese_papers_make_a_japanese_site_titled_in_japanese(tmp_path):
    site, output = build(tmp_path, [JA_CSV])
    page = home(site)
    assert '<html lang="ja">' in page and "論文一覧" in page and "Papers ·" not in page
    assert re.search(r"<title>[^<]*論文集[^<]*</title>", page) and "<title>Proceedings" not in page
    assert "most papers are written in Japanese, so the pages speak it (`language: ja`)" in output
    assert json.loads((site / "papers.json").read_text(encoding="utf-8"))  # the rest of the site as ever


@pytest.mark.slow
def test_the_configs_language_wins(tmp_path):
    site, output = build(tmp_path, [JA_CSV], config="language: en\n")
    page = home(site)
    assert '<html lang="en">' in page and "<title>Proceedings" in page and "論文一覧" not in page
    assert "most papers are written in" not in output


@pytest.mark.slow
def test_chinese_papers_make_a_chinese_site_and_keep_their_own_title(tmp_path):
    site, output = build(tmp_path, [ZH_LIST, ZH_PAPERS], config="description: 论文摘要\n")
    page = home(site)
    assert '<html lang="zh-CN">' in page and "论文列表" in page
    assert "第十届全国机器学习会议论文摘要集" in page  # the list's own first line is the title, as ever


def test_a_volume_is_in_the_language_most_of_its_papers_are_in():
    japanese = "本論文では、拡散モデルのサンプリングを高速化する手法を提案する。"
    kanji_heavy = "大規模言語模型的推論能力を分析する。"  # a little kana is enough to tell Japanese from Chinese
    chinese = "本文提出了一种基于动态稀疏注意力的推理加速方法。"
    english = "We study sparse attention for long documents."
    assert written_language([japanese] * 6 + [english] * 2 + [kanji_heavy]) == "ja"
    assert written_language([chinese] * 3 + [english]) == "zh"
    assert written_language([japanese] * 2 + [english] * 3) == ""  # a few Japanese papers in English proceedings
    assert written_language([japanese, chinese, english]) == ""  # no language has most of them
    assert written_language([]) == ""


def test_a_volume_titled_only_by_its_languages_default_is_untitled():
    assert not Volume("論文集", language="ja").titled and not Volume("Proceedings").titled
    assert Volume("言語処理学会 第30回年次大会", language="ja").titled and Volume("論文集").titled


@pytest.mark.slow
def test_in_an_series_a_japanese_volume_without_a_title_is_named_by_its_folder(tmp_path):
    content, site = tmp_path / "series", tmp_path / "site"
    for name, source in (("2024", JA_CSV), ("2025", ZH_PAPERS)):
        (content / name).mkdir(parents=True)
        shutil.copy(source, content / name / source.name)
    (content / "proceedings.yaml").write_text("title: Example Series\n", encoding="utf-8")
    result = cli("build", "--content", str(content), "--out", str(site))
    assert result.returncode == 0, result.stderr
    archive = (site / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in archive  # the series' own pages: its config names no language, it has no papers
    assert "論文集" not in archive and "论文集" not in archive  # a card is named by its folder, as in English
    assert '<html lang="ja">' in (site / "2024" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in (site / "2025" / "index.html").read_text(encoding="utf-8")


def test_the_language_vote_counts_pages_not_only_sources(tmp_path):
    """Pages whose source is gone (or written by hand) are papers too: a volume of Japanese pages speaks
    Japanese, with no source left to say so (it was `lang="en"` and "Proceedings")."""
    site, _ = build(tmp_path, [JA_CSV])
    content = tmp_path / "content"
    (content / JA_CSV.name).unlink()
    for page in sorted((content / "papers").glob("*.md"))[:3]:  # hand-written: no source, no entry
        text = page.read_text(encoding="utf-8")
        page.write_text(re.sub(r"(?m)^(source|entry|generated):.*\n", "", text), encoding="utf-8")
    again = cli("build", "--content", str(content), "--out", str(site))
    page = home(site)
    assert '<html lang="ja">' in page and "<title>Proceedings" not in page, again.stderr


def _votes_and_reads(content: Path, monkeypatch) -> tuple[dict, list[str]]:
    """The vote's view of the pages (content/page_language.py) and the pages it opened to get it."""
    from generator.content import page_language
    from generator.runtime.cache import BuildCache

    opened: list[str] = []
    real_vote = page_language._vote
    monkeypatch.setattr(page_language, "_vote", lambda path: opened.append(path.name) or real_vote(path))
    votes = page_language.page_languages(content / "papers", BuildCache.for_content(content))
    monkeypatch.setattr(page_language, "_vote", real_vote)
    return votes, opened


def test_the_language_vote_opens_only_the_pages_that_changed_since_the_last_build(tmp_path, monkeypatch):
    """The build cache keeps each page's vote under its identity on disk: a warm build opens no page (it
    read 8 KB of each), an edited one is read again and its new language counts; --no-cache reads them all."""
    from generator.content import page_language

    site, _ = build(tmp_path, [JA_CSV])  # the pages are written after the vote: the next build reads them
    content = tmp_path / "content"
    assert cli("build", "--content", str(content), "--out", str(site)).returncode == 0
    pages = sorted((content / "papers").glob("*.md"))
    first, opened = _votes_and_reads(content, monkeypatch)
    assert opened == [] and set(first.values()) == {"ja"} and len(first) == len(pages)
    front = pages[0].read_text(encoding="utf-8").split("\n---\n")[0]
    english = front + "\n---\n\nAn abstract in English, a long one.\n"
    english = re.sub(r"(?m)^title:.*$", "title: A title in English", english)
    pages[0].write_text(english, encoding="utf-8")
    again, opened = _votes_and_reads(content, monkeypatch)
    assert opened == [pages[0].name] and sorted(again.values()).count("") == 1
    assert page_language.page_languages(content / "papers") == again  # without the cache: the same vote


def test_the_language_vote_spread_over_processes_is_the_same(tmp_path):
    """Without the cache every page is read: by the executor's processes (a policy that splits a few pages
    here), each page's vote the one this process reads."""
    from generator.content import page_language
    from generator.runtime.executor import Executor
    from generator.runtime.sizes import SizePolicy

    site, _ = build(tmp_path, [JA_CSV])
    content = tmp_path / "content"
    assert cli("build", "--content", str(content), "--out", str(site)).returncode == 0
    pages = sorted((content / "papers").glob("*.md"))
    spread = page_language.page_languages(content / "papers", None, Executor(2, SizePolicy(light_split=2)))
    assert spread == page_language.page_languages(content / "papers") and len(spread) == len(pages)
