"""A source's entries kept by the build cache (generator/sources/kept.py): read back exactly as the file reads,
taken on a warm build, read again when the file or what its reading depends on changes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import orjson
import pytest

from generator.commands.build import build
from generator.errors import ContentError
from generator.model.paper import VolumeInfo
from generator.reporter import Reporter
from generator.runtime.cache import CACHE_DIR
from generator.sources import kept as kept_module
from generator.sources import read_source
from generator.sources.kept import from_record, to_record
from generator.sources.relative import RelativeLinks
from spies import Counting

FIXTURES = Path(__file__).parent / "fixtures"
SOURCES = sorted(path for folder in ("venues", "sources", "corpus", "cjk", "hostile")
                 for path in (FIXTURES / folder).glob("*") if path.suffix in (".txt", ".csv", ".tsv", ".jsonl", ".bib"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_kept_source_reads_back_as_the_file_reads(path):
    try:
        source = read_source(path, path.name, RelativeLinks(None, "https://venue.example/"))
    except ContentError:
        pytest.skip("a file no reader takes")
    if source.volume != VolumeInfo():
        pytest.skip("a source with facts about the volume is not kept")
    again = from_record(orjson.loads(orjson.dumps(to_record(source))), path)
    assert again == source
    assert [type(d.path) for d in again.diagnostics] == [type(d.path) for d in source.diagnostics]


def test_the_fixtures_cover_details_authors_and_diagnostics():
    """The round trip above is worth something only if the files hold what a record must carry."""
    read = [read_source(path, path.name) for path in SOURCES if path.suffix in (".csv", ".jsonl")]
    entries = [entry for source in read for entry in source.entries]
    assert any(entry.details.authors for entry in entries) and any(entry.details.more_links or entry.details.pdf
                                                                   for entry in entries)
    assert any(source.diagnostics for source in read)


def _records(count: int = 6) -> list[dict]:
    return [{"id": f"p{n}", "title": f"Paper number {n} on sparse models",
             "authors": [{"name": f"Ada Person{n}", "affiliation": "Somewhere"}],
             "abstract": f"We study sparse models, case {n}, and show that they learn faster than dense ones."}
            for n in range(1, count + 1)]


def _content(tmp_path: Path, records: list[dict]) -> Path:
    content = tmp_path / "content"
    content.mkdir(exist_ok=True)
    (content / "proceedings.yaml").write_text("title: Kept 2026\n", encoding="utf-8")
    (content / "papers.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return content


def test_a_warm_build_reads_no_unchanged_source_and_an_edited_one_again(tmp_path, monkeypatch):
    content = _content(tmp_path, _records())
    build(content, tmp_path / "site", Reporter(), jobs=1)
    first = {p.relative_to(tmp_path / "site"): p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file()}
    reads = Counting(kept_module.read_source)
    monkeypatch.setattr(kept_module, "read_source", reads)
    build(content, tmp_path / "site", Reporter(), jobs=1)
    assert reads.calls == 0
    again = {p.relative_to(tmp_path / "site"): p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file()}
    assert again == first
    changed = _records()
    changed[2]["authors"] = [{"name": "Grace Other", "affiliation": "Elsewhere"}]
    _content(tmp_path, changed)
    build(content, tmp_path / "site", Reporter(), jobs=1)
    assert reads.calls == 1
    assert b"Grace Other" in (tmp_path / "site" / "authors" / "grace-other.html").read_bytes()


def test_a_reading_that_looked_for_a_linked_file_is_not_kept(tmp_path, monkeypatch):
    """Whether ``files/a.pdf`` is in the content folder decides the link, and can change while the list does not."""
    records = _records(2)
    records[0]["pdf"] = "files/a.pdf"
    content = _content(tmp_path, records)
    build(content, tmp_path / "site", Reporter(), jobs=1)
    assert b"files/a.pdf" not in (tmp_path / "site" / "papers.json").read_bytes()
    (content / "files").mkdir()
    (content / "files" / "a.pdf").write_bytes(b"%PDF-1.4\n")
    reads = Counting(kept_module.read_source)
    monkeypatch.setattr(kept_module, "read_source", reads)
    build(content, tmp_path / "site", Reporter(), jobs=1)
    assert reads.calls == 1
    assert b"files/a.pdf" in (tmp_path / "site" / "papers.json").read_bytes()


def test_a_kept_record_of_another_shape_is_read_from_the_file(tmp_path, monkeypatch):
    content = _content(tmp_path, _records())
    build(content, tmp_path / "site", Reporter(), jobs=1)
    (folder,) = (content / CACHE_DIR).glob(f"{kept_module.KIND}-*")
    assert any(folder.iterdir())
    monkeypatch.setattr(kept_module, "from_record", lambda record, path: None)
    reads = Counting(kept_module.read_source)
    monkeypatch.setattr(kept_module, "read_source", reads)
    build(content, tmp_path / "site", Reporter(), jobs=1)
    assert reads.calls == 1
    shutil.rmtree(tmp_path / "site")


def test_a_source_whose_text_json_cannot_hold_is_read_not_kept(tmp_path, monkeypatch):
    """A lone surrogate (no UTF-8 for it): the cache's JSON would refuse the record at save; it is not kept."""
    from generator.model.paper import Entry, SourceList
    from generator.runtime.cache import BuildCache, EntryCache

    path = tmp_path / "list.txt"
    path.write_text("Title\n\nAn abstract.\n", encoding="utf-8")
    odd = SourceList(path, "Title", (Entry("An abstract \ud800.", "list.txt", 1, 3),))
    monkeypatch.setattr(kept_module, "read_source", lambda *args: odd)
    known = EntryCache(BuildCache(tmp_path / "cache"), kept_module.KIND, plain=True)
    assert kept_module.read_kept(path, "list.txt", None, known) is odd
    known.save()
    again = EntryCache(BuildCache(tmp_path / "cache"), kept_module.KIND, plain=True)
    assert kept_module.read_kept(path, "list.txt", None, again) is odd  # read again: nothing was kept


def test_a_warm_build_says_the_repeats_again_without_comparing_the_abstracts(tmp_path, monkeypatch):
    """Which records repeat others is kept under the sources' key (sources/duplicates.py): the same warnings, the
    same papers, no abstract compared; an edited source, or a kept record of another shape, compares again."""
    from generator.sources import duplicates

    records = _records()
    records.append(dict(records[1]))  # the same record twice in one file
    content = _content(tmp_path, records)
    (content / "again.jsonl").write_text(json.dumps(records[3]) + "\n", encoding="utf-8")  # and in another
    reporters = [Reporter(), Reporter()]
    compares = Counting(duplicates.drop_duplicates)
    monkeypatch.setattr(duplicates, "drop_duplicates", compares)
    build(content, tmp_path / "site", reporters[0], jobs=1)
    first = {p.relative_to(tmp_path / "site"): p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file()}
    build(content, tmp_path / "site", reporters[1], jobs=1)
    assert compares.calls == 1
    said = [[(d.code, str(d.path), d.line, d.count, d.message) for d in reporter.diagnostics
             if d.code == "record-repeat"] for reporter in reporters]
    assert len(said[0]) == 2 and said[1] == said[0]
    again = {p.relative_to(tmp_path / "site"): p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file()}
    assert again == first
    monkeypatch.setattr(duplicates, "_repeats_of", lambda record, sources: None)
    build(content, tmp_path / "site", Reporter(), jobs=1)
    assert compares.calls == 2
    monkeypatch.undo()
    monkeypatch.setattr(duplicates, "drop_duplicates", compares)
    (content / "again.jsonl").write_text(json.dumps(records[4]) + "\n", encoding="utf-8")
    build(content, tmp_path / "site", Reporter(), jobs=1)
    assert compares.calls == 3
