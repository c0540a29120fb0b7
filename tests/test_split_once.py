"""Titles and abstracts split into words once a build (search/terms.py ``remember``): split as they are rendered, on
every core, then read by related papers' vectors and by the search index's forked child; the site is the one a
build splitting them twice makes. And the map left for map.html's render when the render stage forks workers."""

from __future__ import annotations

import filecmp
import sys
from pathlib import Path

import corpora
from conftest import copy_content, write_list
from generator.commands.build import build
from generator.derive import paper_map, related
from generator.pipeline import rendering
from generator.pipeline.sinks import NullSink
from generator.pipeline.stages import Options, Pipeline
from generator.reporter import Reporter
from generator.runtime.cache import CACHE_DIR
from generator.runtime.executor import Executor
from generator.runtime.sizes import SizePolicy
from generator.search.index import found_terms
from generator.search.terms import forget_terms, known_terms, remember, terms
from test_citation_cost import slot_counts

TERMS = sys.modules["generator.search.terms"]


def test_a_remembered_text_is_split_as_terms_splits_it():
    texts = [record["abstract"] for record in corpora.read(corpora.FIXTURE)]
    try:
        for text in texts:
            remember(text, terms(text))
        for text in texts:
            assert known_terms(text) == terms(text) and known_terms(text) is known_terms(text)
    finally:
        forget_terms()
    assert known_terms(texts[0]) == terms(texts[0]) and known_terms(texts[0]) is not known_terms(texts[0])


def test_remembered_titles_and_abstracts_are_not_split_again(tmp_path, monkeypatch):
    run = Pipeline(copy_content(tmp_path / "content"), NullSink(), Options(jobs=1)).run(Reporter(), until="rendered")
    papers = run.rendered
    index_before = found_terms(papers)
    vectors_before = [related.text_terms(p.title_plain, p.abstract_plain) for p in papers]
    split: list[str] = []
    splitting = TERMS.terms

    def counted(text: str) -> list[str]:
        split.append(text)
        return splitting(text)

    # Wherever a module holds ``terms`` under its own name, that name splits through the counter too.
    for module in (TERMS, sys.modules["generator.search.index"], related):
        monkeypatch.setattr(module, "terms", counted, raising=False)
    sys.modules["generator.search.index"]._topic_terms.cache_clear()  # the topics split again, through the counter
    try:
        for text in related.texts(papers):
            remember(text, splitting(text))
        index_after = found_terms(papers)
        vectors_after = [related.text_terms(p.title_plain, p.abstract_plain) for p in papers]
    finally:
        forget_terms()
    assert split and not set(related.texts(papers)) & set(split), "a title or abstract split again"
    assert vectors_after == vectors_before
    assert (index_after.postings, slot_counts(index_after), index_after.lengths) == \
        (index_before.postings, slot_counts(index_before), index_before.lengths)


def _abstracts(count: int) -> list[str]:
    records = corpora.read(corpora.FIXTURE)
    topics = ["graphs", "kernels", "bandits", "proteins", "robots", "language", "images", "markets"]
    return [f"{records[n % len(records)]['abstract']} We study {topics[n % len(topics)]} in setting {n}."
            for n in range(count)]


def _built(content: Path, site: Path, jobs: int, monkeypatch) -> tuple[Reporter, list[str]]:
    """The build's reporter, and the texts the build's process was handed split as they were rendered."""
    paper_map._LAST.clear()  # as a new process would: nothing remembered from the last build
    related.forget_texts()
    related.forget_vectors()
    remembered: list[str] = []

    def kept(text: str, found: list[str]) -> None:
        assert found == terms(text)
        remembered.append(text)
        remember(text, found)

    monkeypatch.setattr(rendering, "remember", kept)
    reporter = Reporter()
    build(content, site, reporter, jobs=jobs)
    assert not reporter.errors, reporter.errors
    return reporter, remembered


def test_the_map_is_left_for_its_page_when_the_render_stage_forks(tmp_path):
    content = copy_content(tmp_path / "content")
    assert paper_map.map_later(True, Executor(2), 19, content)
    assert not paper_map.map_later(True, Executor(1), 19, content)  # one core: made in the relate stage
    assert not paper_map.map_later(False, Executor(2), 19, content)  # serve's and check's sinks: no workers
    assert not paper_map.map_later(True, Executor(2, SizePolicy(fresh_from=10)), 19, content)  # fresh processes
    (content / paper_map.PROJECTION).write_text("[]", encoding="utf-8")  # a venue's: read (and warned of) at once
    assert not paper_map.map_later(True, Executor(2), 19, content)


def test_a_forked_build_splits_once_and_makes_the_same_site(tmp_path, monkeypatch):
    # 120 papers: the search index gets a forked process of its own (SizePolicy.beside_from)
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        write_list(tmp_path / name / "papers.txt", "A volume", _abstracts(120))
    one, split_one = _built(tmp_path / "one", tmp_path / "site-one", 1, monkeypatch)
    two, split_two = _built(tmp_path / "two", tmp_path / "site-two", 2, monkeypatch)
    assert not split_one  # one process: nothing to share
    assert len(split_two) == 2 * 120 and len(set(split_two)) > 200  # each paper's title and abstract
    assert "map papers" in one.timings and "map papers" in two.timings  # (two's: as map.html rendered)
    files = sorted(p.relative_to(tmp_path / "site-one") for p in (tmp_path / "site-one").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "site-two") for p in (tmp_path / "site-two").rglob("*")
                           if p.is_file())
    assert any(str(f).startswith("assets/search/") for f in files) and Path("map.html") in files
    _, differ, errors = filecmp.cmpfiles(tmp_path / "site-one", tmp_path / "site-two", files, shallow=False)
    assert not differ and not errors, differ[:5]
    # The map made as map.html rendered kept its places for the next build, as the relate stage's does.
    assert list((tmp_path / "two" / CACHE_DIR).glob("map-*"))
    # A warm build renders no abstract (the cache has them): nothing split.
    again, split_again = _built(tmp_path / "two", tmp_path / "site-two", 2, monkeypatch)
    assert not split_again and "relate papers" in again.timings
