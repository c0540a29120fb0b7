"""The search index: a lunr index prebuilt here, loaded by lunr.js in the browser.

The site ships, beside the theme's ``search.js``, ``search-query.js`` and ``search-shards.js``,
``assets/lunr.js`` (copied from the mkdocs package, lunr 2.3.9) and the index cut into small scripts
under ``assets/search/`` (shards.py: a manifest, term shards, display blocks and every document's
tags), of which a query loads only those it needs. Scripts rather than JSON fetched at run time,
because fetch() is refused from file://. ``index_script`` (the whole index as one script setting
``globalThis.proceedingsSearchData``) is kept for tests and benchmarks that load lunr's index in
node; the site no longer ships it.

Everything here must agree with what lunr.js does at query time, or a search
misses papers it should find. Where lunr.py and lunr.js differ we follow lunr.js:

* words: both sides normalise (NFKC, lower case, dashes and every space to a
  separator) before splitting; search-query.js repeats ``normalise`` and ``_SPACES``;
* stems: lunr.py's Porter stemmer turns a final y into i where lunr.js does not
  (``array``: ``arrai`` against ``array``), so we use lunr.js's rule;
* order: lunr.js inserts index terms into its token set in UTF-16 code-unit
  order and refuses the whole index otherwise; lunr.py sorts by code point;
* CJK: a run of Han, Kana or Hangul inside a word is indexed as its
  overlapping character bigrams (``generator.text.cjk``), and search-query.js turns the
  query into the same bigrams, all required: any word of two or more
  characters inside a Chinese or Japanese title is found, without a
  dictionary on either side. The rest of such a word ("LoRA" in "LoRA微调")
  is a word of its own.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import Any

from generator.runtime.background import Pending
from generator.runtime.cache import BuildCache
from generator.runtime.cache_records import texts_key
from generator.runtime.executor import INLINE, Executor
from generator.model.paper import RenderedPaper
from generator.search.index import FIELDS, build_index, people, utf16_key
from generator.search.lunrjs import lunr_js, lunr_js_path
from generator.search.payload import (FORMAT_VERSION, GLOBAL_NAME, SNIPPET_LENGTH, IndexRecord, index_record,
                                      index_script, index_script_chunks, search_data, snippet, write_chunks)
from generator.search.shards import FOLDER, record_files, shard_files
from generator.search.terms import JsPorterStemmer, normalise, term, terms

__all__ = ["FIELDS", "FORMAT_VERSION", "GLOBAL_NAME", "LUNR_JS", "MANIFEST_JS", "SNIPPET_LENGTH",
           "JsPorterStemmer", "build_index", "bundle", "index_script", "index_script_chunks", "lunr_js",
           "lunr_js_path", "normalise", "search_data", "search_files", "search_key", "snippet",
           "start_search_files", "term", "terms", "unbundle", "utf16_key", "write_chunks"]

LUNR_JS = "assets/lunr.js"
MANIFEST_JS = f"{FOLDER}/manifest.js"


def index_files(papers: list[RenderedPaper], tag_urls: dict[str, str],
                names: dict[str, str] | None = None) -> dict[str, bytes]:
    """The index's files under assets/search/ (shards.shard_files), by path relative to the site root."""
    return dict(shard_files(papers, tag_urls, names))


def search_files(papers: list[RenderedPaper], tag_urls: dict[str, str],
                 names: dict[str, str] | None = None) -> dict[str, bytes]:
    """The files search adds to the site, by path relative to the site root: lunr.js and the index's."""
    return {LUNR_JS: lunr_js(), **index_files(papers, tag_urls, names)}


def bundle(files: dict[str, bytes]) -> bytes:
    """The index's files as one cache entry: a line of JSON naming each file and its length, then
    their bytes one after another."""
    return b"".join([bundle_table([(name, len(data)) for name, data in files.items()]), *files.values()])


def bundle_table(sizes: list[tuple[str, int]]) -> bytes:
    """``bundle``'s first line: each file's name and length."""
    return json.dumps([[name, size] for name, size in sizes], ensure_ascii=True).encode("ascii") + b"\n"


def bundle_pieces(root: Path, sizes: list[tuple[str, int]]) -> Iterator[bytes]:
    """``bundle`` of the files ``sizes`` names under ``root``, read back from there a chunk at a time."""
    yield bundle_table(sizes)
    for name, _ in sizes:
        with open(root / name, "rb") as handle:
            while chunk := handle.read(_CHUNK):
                yield chunk


_CHUNK = 1 << 20


def unbundle(data: bytes, copy: bool = True) -> dict[str, Any] | None:
    """``bundle``'s files again; None when the entry does not read as one (then it is made afresh).
    ``copy`` False: each file a ``memoryview`` into ``data`` (a large volume's bundle is a hundred MB: its
    files as copies held it twice)."""
    end = data.find(b"\n")
    try:
        table = json.loads(data[:end]) if end >= 0 else None
    except ValueError:
        return None
    if not isinstance(table, list):
        return None
    files, at, whole = {}, end + 1, data if copy else memoryview(data)
    for entry in table:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)
                and entry[0].startswith(FOLDER + "/") and isinstance(entry[1], int) and entry[1] >= 0):
            return None
        files[entry[0]] = whole[at:at + entry[1]]
        at += entry[1]
    return files if at == len(data) and MANIFEST_JS in files else None


def search_key(cache: BuildCache, papers: list[RenderedPaper], tag_urls: dict[str, str],
               names: dict[str, str] | None = None) -> str:
    """Everything the index's files are made of: each paper's title, URL, tags and abstract, the tag
    pages and their names, and its authors (names and affiliations: indexed, and shown). A paper's texts
    count by their digest (``texts_key``: kept with its rendering in the build cache, so that a warm build
    digests no text)."""
    head = ["search", "shards", str(FORMAT_VERSION), json.dumps(sorted(tag_urls.items()), ensure_ascii=False),
            json.dumps(sorted((names or {}).items()), ensure_ascii=False)]
    # Read a paper at a time: a large volume's texts (packed, pipeline/packed.py) are never all held at once.
    parts = (part for paper in papers for part in (
        paper.url, "\x1f".join(paper.paper.tags), texts_key(paper),
        "\x1f".join(f"{name}\x1e{affiliation}" for name, affiliation in people(paper))))
    return cache.key_of(chain(head, parts))


def start_search_files(papers: list[RenderedPaper], tag_urls: dict[str, str], sink: Any, cache: BuildCache,
                       executor: Executor = INLINE, names: dict[str, str] | None = None) -> Pending:
    """Write the search files into ``sink`` (``sinks.Sink``); the result names them (lunr.js first).

    The index's files the cache holds for these papers (one entry, ``bundle``) are written at
    once. Otherwise they are made from each paper's ``IndexRecord`` by a job the ``executor`` runs
    beside the render stage (forked, or for a large volume a fresh process that is sent the records and
    holds nothing else of this one's; in this process on one core), which writes them itself into the
    sink's folder (``Sink.target``), so that the index never travels back through a pipe, and stores
    them in the cache for the next build. A sink without a folder (memory, nowhere) is given the files'
    bytes.
    """
    sink.write(LUNR_JS, lunr_js())
    if sink.target(MANIFEST_JS) is None:
        return _start_bytes(papers, tag_urls, sink, executor, names)
    key = search_key(cache, papers, tag_urls, names) if cache.enabled else ""
    cached = cache.load_bytes("search", key) if cache.enabled else None
    files = unbundle(cached, copy=False) if cached is not None else None
    del cached  # a large volume's index is a hundred MB: held once (its files are views into it), until written
    if files is not None:
        written = list(files)
        for name in written:
            sink.write(name, bytes(files.pop(name)))
        return Pending(lambda: [LUNR_JS, *written])

    root = sink.target(MANIFEST_JS).parents[len(MANIFEST_JS.split("/")) - 1]
    args = (tag_urls, names, root, cache if cache.enabled else None, key)
    return executor.feed(index_job, map(index_record, papers), *args, papers=len(papers))


def index_job(records: Iterable[IndexRecord], tag_urls: dict[str, str], names: dict[str, str] | None, root: Path,
              cache: BuildCache | None, key: str) -> list[str]:
    """The index's files made from ``records`` and written under ``root`` (the site's folder), each as it is
    made (a large volume's are a hundred MB), then stored in the ``cache`` under ``key``, read back a chunk at
    a time; their names (lunr.js first)."""
    sizes = []
    for name, data in record_files(records, tag_urls, names):
        write_chunks(root / name, [data])
        sizes.append((name, len(data)))
        del data
    if cache is not None:
        size = len(bundle_table(sizes)) + sum(size for _, size in sizes)
        cache.store_pieces("search", key, bundle_pieces(root, sizes), size)
    return [LUNR_JS, *(name for name, _ in sizes)]


def _start_bytes(papers: list[RenderedPaper], tag_urls: dict[str, str], sink: Any, executor: Executor,
                 names: dict[str, str] | None) -> Pending:
    """The index's files made (in a forked process, unless on one core) and given to the sink."""
    def made() -> dict[str, bytes]:
        return index_files(papers, tag_urls, names)

    def written(files: dict[str, bytes]) -> list[str]:
        for name, data in files.items():
            sink.write(name, data)
        return [LUNR_JS, *files]

    return executor.start(made).then(written)
