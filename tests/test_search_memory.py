"""What the search index's process holds at a large size (issue 43): each term's counts rather than its
postings as lists, each result's display record as JSON text, each file written as it is made and the cache's
bundle read back from them — and the same files, byte for byte, as the index made whole."""

from __future__ import annotations

import json
from pathlib import Path

from test_search import adversarial_papers, seed_papers, tag_urls

from generator import search
from generator.latex.abstract_renderer import AbstractRenderer
from generator.model.paper import RenderedPaper
from generator.runtime.cache import BuildCache
from generator.search import shards
from generator.search.index import found_terms
from generator.search.payload import data_script, display_records, index_record


def papers_of_every_kind(seed_site: Path) -> list[RenderedPaper]:
    """The bundled volume's papers, the adversarial ones and one whose title has math (a record with a tree)."""
    papers = seed_papers(seed_site) + adversarial_papers()
    title = AbstractRenderer().render(r"Bounds in $\frac{1}{2}$ of $O(n \log n)$ steps")
    last = papers[-1]
    papers.append(RenderedPaper(last.paper, title.html, title.plain, last.abstract_html, last.abstract_plain))
    return papers


def test_each_term_counts_the_slots_and_documents_its_postings_would_list(seed_site):
    found = found_terms(papers_of_every_kind(seed_site), {"learning": "Lernen"})
    refs = found.refs()
    slots, documents = found.with_term(), found.documents_with()
    assert len(refs) == len(found.numbers) == len(slots) == len(documents) > 100
    for number in found.numbers.values():
        assert slots[number] == sum(map(len, refs[number])), "lunr's idf counts (document, field) slots"
        assert documents[number] == len(set().union(*refs[number])), "the fuzzy buckets count documents"
        assert all(list(field) == sorted(set(field)) for field in refs[number])
    assert any(d < s for d, s in zip(documents, slots))


def test_display_blocks_and_tags_are_those_of_the_records_made_whole(seed_site):
    papers = papers_of_every_kind(seed_site)
    urls, names = tag_urls(papers), {"learning": "Lernen"}
    files = dict(shards.shard_files(papers, urls, names))
    tags, docs = display_records(papers, urls, names)
    assert len(docs[-1]) == 7, "the math title's tree"
    blocks = [name for name in files if name.startswith(f"{shards.FOLDER}/d")]
    assert len(blocks) == -(-len(papers) // shards.BLOCK)
    for number, start in enumerate(range(0, len(docs), shards.BLOCK)):
        assert files[f"{shards.FOLDER}/d{number}.js"] == data_script(shards.CALLBACK, f"d{number}",
                                                                       docs[start:start + shards.BLOCK])
    assert files[f"{shards.FOLDER}/tags.js"] == data_script(shards.CALLBACK, "tags", [doc[2] for doc in docs])
    text = files[search.MANIFEST_JS].decode("ascii")
    prefix = f'{shards.CALLBACK}("manifest",JSON.parse('
    assert text.startswith(prefix) and text.endswith("));\n")
    assert json.loads(json.loads(text[len(prefix):-4]))["tags"] == tags


def test_the_index_job_writes_each_file_before_it_makes_the_next_and_caches_the_bundle(seed_site, tmp_path,
                                                                                         monkeypatch):
    papers = papers_of_every_kind(seed_site)
    urls = tag_urls(papers)
    events: list[tuple[str, str]] = []
    made_whole = search.record_files

    def record_files(*args, **kwargs):
        for name, data in made_whole(*args, **kwargs):
            events.append(("made", name))
            yield name, data

    def write_chunks(path, chunks):
        events.append(("written", path.relative_to(tmp_path / "site").as_posix()))
        search.payload.write_chunks(path, chunks)

    monkeypatch.setattr(search, "record_files", record_files)
    monkeypatch.setattr(search, "write_chunks", write_chunks)
    store = BuildCache(tmp_path / "cache")
    names = search.index_job(map(index_record, papers), urls, None, tmp_path / "site", store, "key")

    files = search.index_files(papers, urls)
    assert names == [search.LUNR_JS, *files]
    assert events == [(kind, name) for name in files for kind in ("made", "written")]
    assert {name: (tmp_path / "site" / name).read_bytes() for name in files} == files
    assert store.load_bytes("search", "key") == search.bundle(files)
    assert search.unbundle(search.bundle(files)) == files


def test_an_entry_written_in_pieces_is_one_written_whole_and_a_short_one_is_none(tmp_path):
    store = BuildCache(tmp_path / "cache")
    store.store_pieces("search", "k1", iter([b"abc", b"", b"defg"]), 7)
    store.store_bytes("other", "k1", b"abcdefg")
    folder = tmp_path / "cache"
    assert (folder / "search-k1").read_bytes() == (folder / "other-k1").read_bytes()
    assert store.load_bytes("search", "k1") == b"abcdefg"
    store.store_pieces("search", "k2", iter([b"abc"]), 4)  # a piece short of what was announced
    assert store.load_bytes("search", "k2") is None
    assert store.load_bytes("search", "k1") == b"abcdefg", "a failed entry drops none of its kind"
    assert not list(folder.glob(".*.tmp")), "no temporary file left"
