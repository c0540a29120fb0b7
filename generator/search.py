"""The search index: a lunr index prebuilt here, loaded by lunr.js in the browser.

The site ships two scripts beside the theme's ``search.js``: ``assets/lunr.js``
(copied from the mkdocs package, lunr 2.3.9) and ``assets/search-index.js``,
which sets ``globalThis.proceedingsSearchData`` to the serialized index plus
what a result needs for display. A script file rather than JSON fetched at run
time, because fetch() is refused from file://.

Everything here must agree with what lunr.js does at query time, or a search
misses papers it should find. Where lunr.py and lunr.js differ we follow lunr.js:

* words: both sides normalise (NFKC, lower case, dashes and every space to a
  separator) before splitting; search.js repeats ``normalise`` and ``_SPACES``;
* stems: lunr.py's Porter stemmer turns a final y into i where lunr.js does not
  (``array``: ``arrai`` against ``array``), so we use lunr.js's rule;
* order: lunr.js inserts index terms into its token set in UTF-16 code-unit
  order and refuses the whole index otherwise; lunr.py sorts by code point;
* CJK: a run of Han, Kana or Hangul inside a word is indexed as its
  overlapping character bigrams (``generator.cjk``), and search.js turns the
  query into the same bigrams, all required: any word of two or more
  characters inside a Chinese or Japanese title is found, without a
  dictionary on either side. The rest of such a word ("LoRA" in "LoRA微调")
  is a word of its own.
"""

from __future__ import annotations

import importlib.util
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path

import lunr
from lunr.builder import Builder
from lunr.idf import idf as Idf
from lunr.stemmer import PorterStemmer
from lunr.stemmer import stemmer as lunr_stemmer
from lunr.stop_word_filter import WORDS as STOP_WORDS
from lunr.vector import Vector

from generator import cjk
from generator.background import Pending, in_parallel
from generator.cache import BuildCache
from generator.errors import ThemeError
from generator.latex.tree import math_tree
from generator.model import RenderedPaper

LUNR_JS = "assets/lunr.js"
INDEX_JS = "assets/search-index.js"
GLOBAL_NAME = "proceedingsSearchData"
FORMAT_VERSION = 1
# name → boost; a title word weighs most, a topic more than a word of the abstract.
FIELDS = {"title": 10, "tags": 5, "abstract": 1}
SNIPPET_LENGTH = 240

# lunr.js splits on /[\s\-]+/; JS's \s and Python's \s differ, so spell it out.
_SPACES = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
# Math punctuation separates words too, so "(2+ε)" is found by "ε" and "SE(3)" by "SE".
_MATH_PUNCTUATION = r"()+/=<>,;:|\[\]{}"
_SEPARATORS = re.compile(f"[{_SPACES}\\-{_MATH_PUNCTUATION}]+")
_DASHES = re.compile("[\u2010-\u2015\u2212]")  # hyphens, dashes, minus: split like "-"
# lunr's trimmer, Unicode-aware as lunr.py's is (search.js uses \p{L}\p{N}_).
_TRIM = re.compile(r"^\W*?(\w+)\W*?$")
_WORD_CHAR = re.compile(r"\w")
_MKDOCS_LUNR = ("contrib", "search", "templates", "search", "lunr.js")


class JsPorterStemmer(PorterStemmer):
    """lunr.py's Porter stemmer with lunr.js's step 1c (/^(.+?[^aeiou])y$/ → …i)."""

    def step1c(self):
        k = self.k
        if self.b[k] == "y" and k - self.k0 >= 2 and self.b[k - 1] not in "aeiou":
            self.b = self.b[:k] + "i" + self.b[k + 1:]

    def stem(self, p, metadata=None):
        # lunr.py's stem() less its length check: lunr.js skips words shorter
        # than 3 UTF-16 code units, not code points.
        if len(p.encode("utf-16-le", "surrogatepass")) < 6:
            return p
        self.b, self.k0, self.k = p, 0, len(p) - 1
        self.step1ab()
        self.step1c()
        self.step2()
        self.step3()
        self.step4()
        self.step5()
        return self.b[: self.k + 1]


_stemmer = JsPorterStemmer()


def normalise(text: str) -> str:
    """What both sides do to text before splitting it into words."""
    return _DASHES.sub("-", unicodedata.normalize("NFKC", text).lower())


@lru_cache(maxsize=None)
def term(word: str) -> str | None:
    """A word's index term (lunr's trimmer, stop word filter, stemmer), or None.

    Cached without bound (a vocabulary is small): a corpus repeats its words,
    and stemming is most of the work.
    """
    match = _TRIM.match(word)
    word = match.group(1) if match else word
    if word in STOP_WORDS:
        return None
    return _stemmer.stem(word)


def terms(text: str) -> list[str]:
    found: list[str] = []
    for word in _SEPARATORS.split(normalise(text)):
        if cjk.has_cjk(word):
            found += _mixed_terms(word)
        else:
            t = term(word)
            if t:
                found.append(t)
    return found


def _mixed_terms(word: str) -> list[str]:
    """A word holding CJK runs: each run's bigrams, each other piece a word of its own
    (a piece of punctuation only, "。" or "「", is nothing)."""
    found: list[str] = []
    for position, piece in enumerate(cjk.split_runs(word)):
        if position % 2:
            found += cjk.bigrams(piece)
        elif _WORD_CHAR.search(piece):
            t = term(piece)
            if t:
                found.append(t)
    return found


class TermBuilder(Builder):
    """A lunr Builder fed terms we made, skipping its tokenizer and pipeline.

    lunr's own ``add`` deep-copies a metadata dict per token and runs the
    pipeline token by token; we keep no token metadata, so neither is needed.
    Scoring (``build``) is lunr's.
    """

    def __init__(self):
        super().__init__()
        # The query pipeline lunr.js rebuilds from the index: stemming only.
        self.search_pipeline.add(lunr_stemmer)
        for name, boost in FIELDS.items():
            self.field(name, boost=boost)

    def add_terms(self, ref: str, fields: dict[str, list[str]]) -> None:
        self._documents[ref] = {}
        self.document_count += 1
        for name, field_terms in fields.items():
            field_ref = f"{name}/{ref}"
            counts = Counter(field_terms)
            self.field_term_frequencies[field_ref] = counts
            self.field_lengths[field_ref] = len(field_terms)
            for t in counts:
                self._posting(t)[name][ref] = {}

    def _posting(self, t: str) -> dict:
        posting = self.inverted_index.get(t)
        if posting is None:
            posting = {name: {} for name in self._fields}
            posting["_index"] = self.term_index
            self.term_index += 1
            self.inverted_index[t] = posting
        return posting

    def _calculate_average_field_lengths(self):
        if not self.document_count:  # a site with no papers: lunr would divide by zero
            self.average_field_length = dict.fromkeys(self._fields, 0)
            return
        super()._calculate_average_field_lengths()

    def _create_field_vectors(self):
        """lunr's BM25 field vectors, same arithmetic in the same order, but each
        vector made sorted at once: lunr inserts element by element with a
        binary search, which was most of the build at 10,000 papers."""
        k1, b = self._k1, self._b
        idf_cache: dict[str, float] = {}
        self.field_vectors = {}
        for field_ref, frequencies in self.field_term_frequencies.items():
            name = field_ref.split("/", 1)[0]
            if not frequencies:  # an empty field: lunr never divides by its zero average
                self.field_vectors[field_ref] = Vector()
                continue
            norm = k1 * (1 - b + b * (self.field_lengths[field_ref] / self.average_field_length[name]))
            boost = self._fields[name].boost
            pairs = []
            for t, tf in frequencies.items():
                posting = self.inverted_index[t]
                idf = idf_cache.get(t)
                if idf is None:
                    idf = idf_cache[t] = Idf(posting, self.document_count)
                pairs.append((posting["_index"], round(idf * ((k1 + 1) * tf) / (norm + tf) * boost, 3)))
            pairs.sort()
            self.field_vectors[field_ref] = Vector([x for pair in pairs for x in pair])

    def _create_token_set(self):
        """Not built: the serialized index has no token set; lunr.js makes its own."""
        self.token_set = None


def utf16_key(text: str) -> bytes:
    """Sort key matching JavaScript's string comparison (UTF-16 code units)."""
    return text.encode("utf-16-be", "surrogatepass")


def build_index(papers: list[RenderedPaper], names: dict[str, str] | None = None) -> dict:
    """The serialized lunr index; document refs are positions in ``papers``."""
    builder = TermBuilder()
    names = names or {}
    for ref, paper in enumerate(papers):
        builder.add_terms(str(ref), {
            "title": terms(paper.title_plain),
            "tags": terms(" ".join(paper.paper.tags + tuple(names[t] for t in paper.paper.tags if t in names))),
            "abstract": terms(paper.abstract_plain),
        })
    index = builder.build()
    del builder  # its per-field term counts are not in the index: free them before serialising
    serialized = index.serialize()
    # Only the insertion order changes: each posting keeps its _index, which
    # is what the field vectors point at.
    serialized["invertedIndex"].sort(key=lambda entry: utf16_key(entry[0]))
    return serialized


def snippet(plain: str, length: int = SNIPPET_LENGTH) -> str:
    """The start of the abstract for a result (cjk.excerpt, as a page's description is made)."""
    return cjk.excerpt(plain, length)


def search_data(papers: list[RenderedPaper], tag_urls: dict[str, str], names: dict[str, str] | None = None) -> dict:
    """Index plus display records: [title, url, tag numbers, snippet] per paper, and for a title
    with math a fifth item, the title's MathML as a tree (latex/tree.py) that search.js typesets;
    a tag is shown by its name in ``names`` (the interface language's) and is indexed by both names."""
    shown = names or {}
    ordered = sorted(set(tag_urls) | {t for p in papers for t in p.paper.tags}, key=lambda n: (n.casefold(), n))
    number = {name: i for i, name in enumerate(ordered)}
    docs = [
        [p.title_plain, p.url, [number[t] for t in p.paper.tags], snippet(p.abstract_plain)]
        + ([tree] if (tree := math_tree(p.title_html)) else [])
        for p in papers
    ]
    return {
        "version": FORMAT_VERSION,
        "tags": [[shown.get(name, name), tag_urls.get(name)] for name in ordered],
        "docs": docs,
        "index": build_index(papers, shown),
    }


def index_script(data: dict) -> bytes:
    """The data as a script that hands JSON text to JSON.parse: a browser parses
    that several times faster than the same object literal (0.6 s against 2.4 s
    at 10,000 papers). ASCII only, so no charset guess by a server or file://
    can garble it, and no ``<`` (no ``</script>`` or ``<!--`` if ever inlined).
    """
    return b"".join(index_script_chunks(data))


def index_script_chunks(data: dict) -> Iterator[bytes]:
    """``index_script`` piece by piece, so that the whole script (≈ 120 MB at 50,000 papers)
    never exists as one string. The same bytes: JSON of the data with sorted keys, quoted
    as a JSON string literal; both escapes act on one character at a time, so escaping each
    piece on its own gives what escaping the whole would."""
    yield f"globalThis.{GLOBAL_NAME}=JSON.parse(\"".encode("ascii")
    for piece in _json_pieces(data):
        yield json.dumps(piece.replace("<", "\\u003c"))[1:-1].encode("ascii")
    yield b"\");\n"


def _json_pieces(value, batch: int = 2_000) -> Iterator[str]:
    """``json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))`` in pieces:
    dicts key by key, long lists ``batch`` items at a time."""
    if isinstance(value, dict):
        yield "{"
        for number, (key, item) in enumerate(sorted(value.items())):
            yield ("," if number else "") + _dumps(key) + ":"
            yield from _json_pieces(item, batch)
        yield "}"
    elif isinstance(value, list) and len(value) > batch:
        yield "["
        for start in range(0, len(value), batch):
            yield ("," if start else "") + _dumps(value[start : start + batch])[1:-1]
        yield "]"
    else:
        yield _dumps(value)


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))


def write_chunks(path: Path, chunks: Iterable[bytes]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        for chunk in chunks:
            handle.write(chunk)


def lunr_js_path() -> Path:
    """lunr.js as the mkdocs package distributes it, matching lunr.py's format."""
    spec = importlib.util.find_spec("mkdocs")
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = Path(location).joinpath(*_MKDOCS_LUNR)
        if path.is_file():
            return path
    raise ThemeError("search needs lunr.js from the mkdocs package, which is not installed "
                     "(pip install 'mkdocs>=1.5,<2')")


def lunr_js() -> bytes:
    path = lunr_js_path()
    source = path.read_bytes()
    expected = f"- {lunr.__TARGET_JS_VERSION__}\n".encode()
    if expected not in source[:400]:
        raise ThemeError(f"lunr.js is not version {lunr.__TARGET_JS_VERSION__}, which the "
                         "index is built for", path=path)
    return source


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
        parts += [paper.title_plain, paper.url, "\x1f".join(paper.paper.tags), paper.abstract_plain]
    return cache.key("search", *parts)


def start_search_files(papers: list[RenderedPaper], tag_urls: dict[str, str], staging, cache: BuildCache,
                       parallel: bool = True, names: dict[str, str] | None = None) -> Pending:
    """Write the search files into ``staging`` (an ``output.Staging``); the result names them.

    An index the cache holds for these papers is copied at once. Otherwise it is built
    in a forked process (``parallel``) that writes the file itself, so that the
    index, tens of MB at 10,000 papers, never travels back through a pipe, and
    stored in the cache for the next build. The script is written, cached and copied
    in chunks, never held whole (it is not hard-linked from the previous site).
    """
    staging.write(LUNR_JS, lunr_js())
    target = staging.path / INDEX_JS
    key = search_key(cache, papers, tag_urls, names) if cache.enabled else ""
    if cache.enabled and cache.copy_out("search", key, target):  # in chunks: ≈ 120 MB at 50,000 papers
        return Pending(lambda: [LUNR_JS, INDEX_JS])

    def job() -> list[str]:
        write_chunks(target, index_script_chunks(search_data(papers, tag_urls, names)))
        cache.store_file("search", key, target)
        return [LUNR_JS, INDEX_JS]

    return in_parallel(job) if parallel else Pending(job)
