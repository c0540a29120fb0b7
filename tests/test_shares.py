"""The build's workers hold only their share (pipeline/shares.py, fresh.in_fresh_process):
a template worker is sent the papers whose pages it renders in full and the others as a list shows them,
the search index's job each paper's index record; the site is the same bytes as made in one process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import generator.search as search_package
from generator.commands.build import build
from generator.reporter import Reporter
from generator.model.paper import RenderedPaper
from generator.pipeline import shares
from generator.runtime import background, executor, fresh
from generator.search.payload import IndexRecord

ABSTRACTS = [
    "We learn the edges of a graph with $O(n \\log n)$ memory and show it on ten benchmarks.",
    "本研究では、大規模言語モデルの推論を高速化する手法を提案する。実験により有効性を示した。",
    "我们提出了一种新的图神经网络训练方法，并在多个数据集上验证了其有效性。",
    "우리는 새로운 강화 학습 알고리즘을 제안하고 여러 환경에서 성능을 보인다.",
    "",  # a paper with a title and no abstract
    "A study of how *diffusion* models memorise their training images, and how to stop them -- with $x^2$.",
]


def volume(tmp_path: Path, papers: int = 36) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    (content / "proceedings.yaml").write_text("title: Shares 2026\n", encoding="utf-8")
    records = [{"id": f"p{n}", "title": f"Paper {n} on graphs and images", "abstract": ABSTRACTS[n % len(ABSTRACTS)],
                "authors": [f"Author {n % 5}", f"Writer {n % 7}"], "keywords": [f"Topic {n % 4}", "Graphs"]}
               for n in range(papers)]
    (content / "papers.jsonl").write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n",
                                          encoding="utf-8")
    return content


def site_files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def fresh_jobs(monkeypatch) -> dict:
    """Each job the executor starts in a fresh process, by its function: the items it was sent."""
    sent: dict = {}
    real_start = executor.in_fresh_process

    def start(job, items, *args, **kwargs):
        items = list(items)
        sent.setdefault(job, []).append(items)
        return real_start(job, items, *args, **kwargs)

    monkeypatch.setattr(executor, "in_fresh_process", start)
    return sent


def test_a_site_rendered_by_fresh_workers_is_the_site_made_in_one_process(tmp_path, fresh_jobs, large_sizes):
    content = volume(tmp_path)
    build(content, tmp_path / "one", Reporter(), jobs=1, cache=False)
    build(content, tmp_path / "two", Reporter(), jobs=2, cache=False)  # a large volume's paths (large_sizes)
    sent = fresh_jobs.get(shares.render_share, [])
    assert len(sent) == 1, "the templates were not rendered by a fresh worker"
    assert site_files(tmp_path / "two") == site_files(tmp_path / "one")

    papers = [item for item in sent[0] if isinstance(item, RenderedPaper)]
    assert len(papers) == 36  # every paper whole: those with an abstract (five of six) have it
    assert sum(bool(paper.paper.abstract and paper.abstract_html) for paper in papers) == 30
    # A large volume's papers are sent packed (pipeline/packed.py): their abstracts' texts are one blob each.
    assert not any({"abstract_html", "abstract_plain"} & vars(paper).keys() for paper in papers)


def test_a_themes_list_item_shows_the_abstract_the_paper_page_shows_on_every_path(tmp_path, fresh_jobs, large_sizes):
    """A list rendered by a fresh worker had each paper cut down, its abstract a "\\x01" marker: a theme whose
    list item shows the abstract (docs/themes.md lets it) published the marker on thousands of items."""
    content = volume(tmp_path)
    templates = content / "theme" / "templates"
    templates.mkdir(parents=True)
    (templates / "_paper_list.html").write_text(  # each item with its abstract (no fragment shared between lists)
        '<ol class="paper-list">{% for paper in papers %}<li>{{ paper.title_html }}'
        '<p class="item-abstract">{{ paper.abstract_html }}</p></li>{% endfor %}</ol>', encoding="utf-8")
    build(content, tmp_path / "site", Reporter(), jobs=2, cache=False)
    assert fresh_jobs.get(shares.render_share), "the lists were not rendered by a fresh worker"
    lists = [path.read_text(encoding="utf-8") for folder in ("tags", "authors")
             for path in sorted((tmp_path / "site" / folder).glob("*.html"))]
    assert lists and not any("\x01" in page or "&#1;" in page for page in lists)
    assert any("We learn the edges of a graph" in page for page in lists)
    assert any("本研究では" in page for page in lists)


def test_the_search_index_job_is_sent_each_papers_index_record_only(tmp_path, fresh_jobs, large_sizes):
    content = volume(tmp_path, papers=8)
    build(content, tmp_path / "one", Reporter(), jobs=1, cache=False)
    build(content, tmp_path / "two", Reporter(), jobs=2, cache=False)
    sent = fresh_jobs.get(search_package.index_job, [])
    assert len(sent) == 1 and len(sent[0]) == 8
    assert all(type(item) is IndexRecord for item in sent[0])
    assert site_files(tmp_path / "two") == site_files(tmp_path / "one")


MARK = "set in the build's process"


def _reads_mark(items, suffix: str) -> tuple[bool, list[str]]:
    """A fresh process's job: whether it sees what the test set in its own process, and its items."""
    return hasattr(background, "_test_mark"), [item + suffix for item in items]


def test_a_fresh_process_holds_nothing_of_the_build_but_what_it_is_sent(monkeypatch):
    monkeypatch.setattr(background, "_test_mark", MARK, raising=False)
    items = [f"item {n}" for n in range(2 * fresh.FEED_BATCH + 3)]  # three batches
    sees, got = fresh.in_fresh_process(_reads_mark, iter(items), "!")()
    assert not sees, "the process inherited the build's memory"
    assert got == [item + "!" for item in items]
    # The first items sent by the caller, the rest by the feeding thread: the same items, in order.
    assert fresh.in_fresh_process(_reads_mark, iter(items), "?", now=fresh.FEED_BATCH + 1)()[1] == \
        [item + "?" for item in items]
