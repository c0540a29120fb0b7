"""Each page's Paper kept by the build cache (generator/pipeline/parsed.py, model/paper_codec.py): read back
exactly as the page parses, taken on a warm build, parsed again when the page changes or its record is bad."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from generator.commands.build import build
from generator.content.pages import read_page, to_paper
from generator.model.paper_codec import paper_of, paper_record
from generator.pipeline import parsed as parsed_module
from generator.reporter import Reporter
from generator.runtime.cache import CACHE_DIR
from generator.runtime.cache_records import paper_key
from spies import Counting

BUNDLED = Path(__file__).parent.parent / "content" / "papers"
FULL = """---
id: '7'
title: 'A paper with every kind of detail'
slug: a-paper-with-every-kind-of-detail
old_slugs: [an-older-address]
authors:
- {name: Ada Lovelace, affiliation: Analytical Engines, orcid: 0000-0002-1825-0097}
- {name: 李 明}
tags: [optimization, 拡散モデル]
track: [Main]
day: Tuesday
pdf: https://example.org/a.pdf
more_links: [{label: Talk, link: 'https://slideslive.com/1'}]
pages: 13--24
retracted: {date: 2026-05-01, note: Retracted at the authors' request.}
erratum: {note: Table 2 corrected., link: https://example.org/erratum.pdf}
versions:
- {version: v2, date: 2026-02-01, note: Camera-ready.}
uid: P-7
order: 3
source: list.txt
entry: 2
my_own_key: kept
generated: {text: c65fb173cb04, title: 7e58fefd65eb, tags: 8b85cc33ed6e, body: c65fb173cb04, taxonomy: x/y}
---

We study $x^2$ and *emphasis*, with a line
that wraps.
"""


def _pages(tmp_path: Path) -> list[Path]:
    full = tmp_path / "papers" / "a-paper-with-every-kind-of-detail.md"
    full.parent.mkdir()
    full.write_text(FULL, encoding="utf-8")
    return sorted(BUNDLED.glob("*.md")) + [full]


def test_a_kept_paper_reads_back_as_its_page_parses(tmp_path):
    docs = [read_page(path) for path in _pages(tmp_path)]
    papers = [to_paper(doc, doc.path.name) for doc in docs]
    full = papers[-1]
    assert full.details.authors and full.details.more_links and full.corrections.retracted and full.old_slugs
    assert full.corrections.versions and full.corrections.erratum and full.uid
    for doc, paper in zip(docs, papers):
        again = paper_of(orjson.loads(orjson.dumps(paper_record(paper))), paper.path)
        assert again == paper
        assert repr(again) == repr(paper)  # the same types all the way down (tuples, dates, Paths)
        record = paper_record(paper, doc.body)  # an abstract that is the page's body is left to the page
        assert (record[3] is None) == (paper.abstract == doc.body)
        assert repr(paper_of(orjson.loads(orjson.dumps(record)), paper.path, doc.body)) == repr(paper)
    assert paper_record(full, docs[-1].body)[3] is None


def test_an_abstract_cleaned_from_its_page_is_kept_whole(tmp_path):
    page = tmp_path / "odd.md"
    page.write_text(FULL.replace("We study", "We\u200b study"), encoding="utf-8")  # an invisible space, dropped
    doc = read_page(page)
    paper = to_paper(doc, page.name)
    assert paper.abstract != doc.body
    assert paper_of(orjson.loads(orjson.dumps(paper_record(paper, doc.body))), page, doc.body) == paper


def test_a_value_the_record_would_not_give_back_is_refused(tmp_path):
    import dataclasses
    import datetime as dt

    paper = to_paper(read_page(_pages(tmp_path)[-1]), "full.md")
    moved = dataclasses.replace(paper.corrections.retracted, date=dt.datetime(2026, 5, 1, 12, 0))
    odd = dataclasses.replace(paper, corrections=dataclasses.replace(paper.corrections, retracted=moved))
    with pytest.raises(TypeError):
        paper_record(odd)
    with pytest.raises(TypeError):
        paper_record(dataclasses.replace(paper, tags=["a list"]))


def _site(site: Path) -> dict[Path, bytes]:
    return {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def _build(content: Path, site: Path) -> Reporter:
    reporter = Reporter()
    build(content, site, reporter, jobs=1)
    return reporter


def test_a_warm_build_parses_no_unchanged_page_and_an_edited_one_again(seed_content, tmp_path, monkeypatch):
    site = tmp_path / "site"
    own = FULL.replace("order: 3", "order: 300").replace("'7'", "'700'")
    (seed_content / "papers" / "own.md").write_text(own, encoding="utf-8")
    cold = _build(seed_content, site)
    first = _site(site)
    parses = Counting(parsed_module.parse_page)
    monkeypatch.setattr(parsed_module, "parse_page", parses)
    warm = _build(seed_content, site)
    assert parses.calls == 0
    assert _site(site) == first
    # What parsing said is said again: the page's own key, its old slug (a warning of settle_old_slugs' own)
    said = [(d.code, str(d.path), d.line, d.message) for d in cold.diagnostics if "papers/" in str(d.path)]
    assert any("my_own_key" in message for *_, message in said)
    assert [(d.code, str(d.path), d.line, d.message) for d in warm.diagnostics if "papers/" in str(d.path)] == said
    page = next(path for path in sorted((seed_content / "papers").glob("*.md")) if path.name != "own.md")
    page.write_text(page.read_text(encoding="utf-8") + "\nAn edited sentence.\n", encoding="utf-8")
    _build(seed_content, site)
    assert parses.calls == 1
    slug = read_page(page).meta["slug"]
    assert b"An edited sentence." in (site / "papers" / f"{slug}.html").read_bytes()


def _papers_entry(content: Path) -> Path:
    (folder,) = (content / CACHE_DIR).glob(f"{parsed_module.KIND}-*")
    return folder


def test_a_damaged_or_odd_record_is_parsed_again(seed_content, tmp_path, monkeypatch):
    site = tmp_path / "site"
    _build(seed_content, site)
    first = _site(site)
    shards = sorted(_papers_entry(seed_content).iterdir())
    assert shards
    shards[0].write_bytes(shards[0].read_bytes()[:-20])  # a truncated shard: its digest fails, its pages parse
    parses = Counting(parsed_module.parse_page)
    monkeypatch.setattr(parsed_module, "parse_page", parses)
    _build(seed_content, site)
    assert 0 < parses.calls < len(list((seed_content / "papers").glob("*.md")))
    assert _site(site) == first
    monkeypatch.setattr(parsed_module, "paper_of", lambda record, path: [][0])  # a record of another shape
    parses.calls = 0
    _build(seed_content, site)
    assert parses.calls == len(list((seed_content / "papers").glob("*.md")))
    assert _site(site) == first


def test_a_page_that_does_not_parse_is_never_kept(seed_content, tmp_path):
    site = tmp_path / "site"
    page = sorted((seed_content / "papers").glob("*.md"))[0]
    page.write_text(page.read_text(encoding="utf-8").replace("slug: ", "slug: Not A Slug ", 1), encoding="utf-8")
    for _ in range(2):  # the error is said by the warm build too
        reporter = _build(seed_content, site)
        assert [d.code for d in reporter.diagnostics if d.level == "error" and page.name in str(d.path)]


def test_a_kept_paper_has_its_pages_record_key(seed_content, tmp_path, monkeypatch):
    """The rendered abstracts and the pages' inputs are kept under the Paper's key: the page's text and name."""
    _build(seed_content, tmp_path / "site")
    page = sorted((seed_content / "papers").glob("*.md"))[0]
    parsed = parsed_module.parse_pages({page: read_page(page)}, seed_content, {},
                                       parsed_module.BuildCache.for_content(seed_content))
    assert paper_key(parsed[page].paper) == paper_key(to_paper(read_page(page), page.name))


def test_a_warm_build_reads_no_front_matter_and_keeps_it_for_the_next(seed_content, tmp_path, monkeypatch):
    """The sync's outcome and every Paper kept: no page's front matter is asked for (content/page_doc.py), and
    the front matter entry keeps its records, so that a build whose sync must run again parses no YAML."""
    from generator.content import page_doc

    site = tmp_path / "site"
    _build(seed_content, site)
    _build(seed_content, site)  # (the first one's sync wrote pages: this one's is kept)
    reads = Counting(page_doc.KnownPage._read)
    monkeypatch.setattr(page_doc.KnownPage, "_read", lambda self: reads(self))
    first = _site(site)
    _build(seed_content, site)
    assert reads.calls == 0 and _site(site) == first
    parses = Counting(page_doc.parse_front)
    monkeypatch.setattr(page_doc, "parse_front", parses)
    source = seed_content / "neurips-2026.txt"
    source.write_text(source.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # the same entries: sync again
    _build(seed_content, site)
    assert reads.calls >= len(list((seed_content / "papers").glob("*.md")))  # the sync asked for every page's
    assert parses.calls == 0  # and each came from the cache's record
    assert _site(site) == first


def test_a_known_page_reads_as_read_page_reads(seed_content):
    """Its record missing, damaged or there, a KnownPage's fields are read_page's, and it pickles as a PageDoc."""
    import pickle

    from generator.content.page_doc import KnownPage, PageDoc
    from generator.content.pages import read_pages
    from generator.runtime.cache import BuildCache, EntryCache

    def fields(doc):
        return (doc.path, doc.meta, doc.body, doc.lines, doc.body_line, str(doc.error), doc.salvaged, doc.text_digest)

    broken = sorted((seed_content / "papers").glob("*.md"))[1]
    broken.write_text(broken.read_text(encoding="utf-8").replace("slug:", "slug: [", 1), encoding="utf-8")
    plain = {path: fields(doc) for path, doc in read_pages(seed_content).items()}
    for _ in range(2):  # records missing (parsed and put), then there
        known = EntryCache(BuildCache.for_content(seed_content), "front-matter")
        docs = read_pages(seed_content, known=known)
        assert all(type(doc) is KnownPage for doc in docs.values())
        assert {path: fields(doc) for path, doc in docs.items()} == plain
        known.save()
        again = pickle.loads(pickle.dumps(docs[broken]))
        assert type(again) is PageDoc and fields(again) == plain[broken] and again.error is not None


FIXTURES = Path(__file__).parent / "fixtures"
VOLUMES = sorted(path for folder in ("venues", "sources", "corpus", "cjk/ja", "cjk/zh")
                 for path in (FIXTURES / folder).glob("*") if path.suffix in (".txt", ".csv", ".tsv", ".jsonl", ".bib")
                 and "programme" not in path.name)


@pytest.mark.parametrize("source", VOLUMES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_first_builds_pages_synced_again_change_nothing(source, tmp_path):
    """What pipeline/synced.py keeps of a first build's sync for the next build: that syncing the pages it made
    again changes nothing and says nothing. Held here for every fixture volume, by syncing them again."""
    import shutil

    from generator.content.merge import plan_sync
    from generator.content.pages import read_pages
    from generator.content.project import load_project, placeholder_deriver
    from generator.pipeline.sinks import NullSink
    from generator.pipeline.stages import Pipeline
    from generator.pipeline.state import Options
    from generator.pipeline.synced import KIND

    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(source, content / source.name)
    pipeline = Pipeline(content, NullSink(), Options(jobs=1))
    try:
        run = pipeline.run(Reporter(), until="pages")
    except Exception as exc:  # a fixture no build takes (a bad file on purpose)
        pytest.skip(f"does not build: {exc}")
    assert run.changes and pipeline.store.enabled
    if not list((content / CACHE_DIR).glob(f"{KIND}-*")):
        pytest.skip("the first sync said something: not kept")
    project = load_project(content, Reporter())
    docs = read_pages(content)
    again = plan_sync(content, project.sources, list(docs.values()), placeholder_deriver, project.tags_version())
    assert again.changes == [] and again.diagnostics == []


def test_a_first_build_keeps_its_sync_when_a_page_holds_an_invisible_mark(tmp_path, monkeypatch):
    """A real export's invisible mark after an author's name (ICLR 2020's "Marcin Michalski\u200e") is not
    printable, so the sync does not hand that page on as read (``pages.written_page``); its outcome is kept all
    the same, digested from the text written, and the next build does not sync again."""
    import json

    from generator.pipeline import synced

    content = tmp_path / "content"
    content.mkdir()
    rows = [{"title": "Scalable inference with central accelerators", "authors": ["Ann Lee", "Marcin Michalski\u200e"],
             "abstract": "We present a scalable agent that trains on accelerators at a lower cost."},
            {"title": "Sparse graphs and their spectra", "authors": ["Bo Chen"],
             "abstract": "We bound the spectra of sparse random graphs and give an algorithm."}]
    (content / "papers.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    site = tmp_path / "site"
    _build(content, site)
    assert "\u200e" in "".join(path.read_text(encoding="utf-8") for path in (content / "papers").glob("*.md"))
    assert list((content / CACHE_DIR).glob(f"{synced.KIND}-*"))
    first = _site(site)
    syncs = Counting(synced.sync_pages)
    monkeypatch.setattr(synced, "sync_pages", syncs)
    _build(content, site)
    assert syncs.calls == 0
    assert _site(site) == first
