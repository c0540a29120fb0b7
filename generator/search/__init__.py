"""The search index: a lunr index prebuilt here, loaded by lunr.js in the browser.

The site ships two scripts beside the theme's ``search.js`` and ``search-query.js``: ``assets/lunr.js``
(copied from the mkdocs package, lunr 2.3.9) and ``assets/search-index.js``,
which sets ``globalThis.proceedingsSearchData`` to the serialized index plus
what a result needs for display. A script file rather than JSON fetched at run
time, because fetch() is refused from file://.

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

from generator.pipeline.background import Pending, in_parallel
from generator.pipeline.cache import BuildCache
from generator.model.paper import RenderedPaper
from generator.search.index import FIELDS, build_index, utf16_key
from generator.search.lunrjs import lunr_js, lunr_js_path
from generator.search.payload import (FORMAT_VERSION, GLOBAL_NAME, SNIPPET_LENGTH, index_script,
                                      index_script_chunks, search_data, snippet, write_chunks)
from generator.search.terms import JsPorterStemmer, normalise, term, terms

__all__ = ["FIELDS", "FORMAT_VERSION", "GLOBAL_NAME", "INDEX_JS", "LUNR_JS", "SNIPPET_LENGTH", "JsPorterStemmer",
           "build_index", "index_script", "index_script_chunks", "lunr_js", "lunr_js_path",
           "normalise", "search_data", "search_files", "search_key", "snippet", "start_search_files", "term",
           "terms", "utf16_key", "write_chunks"]

LUNR_JS = "assets/lunr.js"
INDEX_JS = "assets/search-index.js"


def search_files(papers: list[RenderedPaper], tag_urls: dict[str, str],
                 names: dict[str, str] | None = None) -> dict[str, bytes]:
    """The files search adds to the site, by path relative to the site root."""
    return {
        LUNR_JS: lunr_js(),
        INDEX_JS: index_script(search_data(papers, tag_urls, names)),
    }



def search_key(cache: BuildCache, papers: list[RenderedPaper], tag_urls: dict[str, str],
               names: dict[str, str] | None = None) -> str:
    """Everything the index script is made of: each paper's title, URL, tags and abstract, the tag pages
    and their names."""
    parts = [str(FORMAT_VERSION), json.dumps(sorted(tag_urls.items()), ensure_ascii=False),
             json.dumps(sorted((names or {}).items()), ensure_ascii=False)]
    for paper in papers:
        parts += [paper.title_plain, paper.url, "\x1f".join(paper.paper.tags), paper.abstract_plain,
                  paper.abstract_html]  # the result's preview is made from the HTML (its math)
    return cache.key("search", *parts)


def start_search_files(papers: list[RenderedPaper], tag_urls: dict[str, str], sink, cache: BuildCache,
                       parallel: bool = True, names: dict[str, str] | None = None) -> Pending:
    """Write the search files into ``sink`` (``sinks.Sink``); the result names them.

    An index the cache holds for these papers is copied at once. Otherwise it is built
    in a forked process (``parallel``) that writes the file itself into the sink's folder
    (``Sink.target``), so that the index, tens of MB at 10,000 papers, never travels back
    through a pipe, and stored in the cache for the next build. The script is written,
    cached and copied in chunks, never held whole (it is not hard-linked from the previous
    site). A sink without a folder (memory, nowhere) is given the script whole.
    """
    sink.write(LUNR_JS, lunr_js())
    target = sink.target(INDEX_JS)
    if target is None:
        return _start_script(papers, tag_urls, sink, parallel, names)
    key = search_key(cache, papers, tag_urls, names) if cache.enabled else ""
    if cache.enabled and cache.copy_out("search", key, target):  # in chunks: ≈ 120 MB at 50,000 papers
        return Pending(lambda: [LUNR_JS, INDEX_JS])

    def job() -> list[str]:
        write_chunks(target, index_script_chunks(search_data(papers, tag_urls, names)))
        cache.store_file("search", key, target)
        return [LUNR_JS, INDEX_JS]

    return in_parallel(job) if parallel else Pending(job)


def _start_script(papers: list[RenderedPaper], tag_urls: dict[str, str], sink, parallel: bool,
                  names: dict[str, str] | None) -> Pending:
    """The index script made (in a forked process when ``parallel``) and given to the sink whole."""
    def script() -> bytes:
        return index_script(search_data(papers, tag_urls, names))

    def written(data: bytes) -> list[str]:
        sink.write(INDEX_JS, data)
        return [LUNR_JS, INDEX_JS]

    return (in_parallel(script) if parallel else Pending(script)).then(written)
