"""The prebuilt search index: fields, refs, determinism, JS ordering, payload."""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from lunr.builder import Builder
from lunr.stemmer import stemmer as lunr_stemmer

import corpora
from generator import search
from generator.errors import ThemeError
from generator.model.paper import Author, Details, Paper, RenderedPaper
from generator.search.index import people
from generator.search.terms import people_terms
from generator.render.theme import Theme

ADVERSARIAL = Path(__file__).parent / "js" / "adversarial.json"


def rendered(records: list[dict]) -> list[RenderedPaper]:
    """RenderedPapers from dicts with title, abstract, tags (and maybe slug, and authors: names, or
    {name, affiliation} as papers.json has them)."""
    papers = []
    for n, record in enumerate(records):
        slug = record.get("slug") or f"paper-{n}"
        authors = tuple(Author(a) if isinstance(a, str) else Author(a["name"], a.get("affiliation", ""))
                        for a in record.get("authors", ()))
        paper = Paper(str(n), slug, record["title"], record["abstract"], tuple(record["tags"]), n,
                      "list.txt", n + 1, Path(f"papers/{slug}.md"), Details(authors=authors))
        papers.append(RenderedPaper(paper, record["title"], record["title"], record["abstract"], record["abstract"]))
    return papers


def seed_papers(seed_site: Path) -> list[RenderedPaper]:
    return rendered(json.loads((seed_site / "papers.json").read_text(encoding="utf-8")))


def adversarial_papers() -> list[RenderedPaper]:
    return rendered(json.loads(ADVERSARIAL.read_text(encoding="utf-8"))["papers"])


def tag_urls(papers: list[RenderedPaper]) -> dict[str, str]:
    return {t: f"tags/t{n}.html" for n, t in enumerate(sorted({t for p in papers for t in p.paper.tags}))}


def load_script(data: bytes) -> dict:
    """The data that ``index_script`` (the whole index as one script) assigns, read back as JSON."""
    text = data.decode("ascii")
    prefix = f"globalThis.{search.GLOBAL_NAME}=JSON.parse("
    assert text.startswith(prefix) and text.endswith(");\n")
    return json.loads(json.loads(text[len(prefix):-3]))


def corpus(limit: int) -> list[RenderedPaper]:
    """The first ``limit`` corpus records (the fixture's, then the real ones' when they are there)."""
    records = corpora.records(limit)
    topics = ["Deep learning", "Optimization", "Theory", "Vision", "Language", "Reinforcement learning"]
    return rendered([
        {"title": r["title"], "abstract": " ".join(r["abstract"].split()), "tags": [topics[n % 6], topics[n * 5 % 6]],
         "slug": f"p{n}-" + "-".join(r["title"].lower().split()[:6]), "authors": r.get("authors", [])}
        for n, r in enumerate(records[:limit])
    ])


def load_shard(data: bytes) -> tuple[str, object]:
    """A file under assets/search/: the name it hands ``proceedingsShards.arrived`` and its data."""
    text = data.decode("ascii")
    match = re.fullmatch(r'proceedingsShards\.arrived\("(\w+)",JSON\.parse\((".*")\)\);\n', text, re.S)
    assert match, text[:80]
    return match.group(1), json.loads(json.loads(match.group(2)))


def shipped_docs(files: dict[str, bytes]) -> list:
    """Every display record, from the display blocks in order."""
    blocks = sorted((int(name[len("assets/search/d"):-3]), load_shard(data)[1]) for name, data in files.items()
                    if re.fullmatch(r"assets/search/d\d+\.js", name))
    return [doc for _, block in blocks for doc in block]


def test_files_are_lunr_and_the_sharded_index(seed_site):
    papers = seed_papers(seed_site)
    files = search.search_files(papers, tag_urls(papers))
    assert "assets/search-index.js" not in files
    assert list(files)[:2] == ["assets/lunr.js", "assets/search/manifest.js"]
    assert all(re.fullmatch(r"assets/search/(manifest|tags|t\d+|d\d+|f\d+)\.js", name) for name in list(files)[1:])
    assert b"lunr - http://lunrjs.com" in files["assets/lunr.js"][:200]
    name, manifest = load_shard(files["assets/search/manifest.js"])
    assert name == "manifest" and manifest["documents"] == len(papers)
    assert manifest["fields"] == ["title", "tags", "abstract", "authors"]
    assert {n for n in files if "/t" in n and n != "assets/search/tags.js"} == \
        {f"assets/search/t{n}.js" for n in range(len(manifest["shards"]))}
    docs = search.search_data(papers, tag_urls(papers))["docs"]
    assert shipped_docs(files) == docs
    assert load_shard(files["assets/search/tags.js"]) == ("tags", [doc[2] for doc in docs])
    for name, data in files.items():  # each file names itself
        if name.startswith("assets/search/"):
            assert load_shard(data)[0] == name[len("assets/search/"):-3]
    # The whole index as one script is still made for node (tests, benchmarks), only no longer shipped.
    data = load_script(search.index_script(search.search_data(papers, tag_urls(papers))))
    assert data["index"]["version"] == "2.3.9"
    assert data["index"]["fields"] == ["title", "tags", "abstract", "authors"]
    assert data["index"]["pipeline"] == ["stemmer"]


def test_refs_are_positions_and_docs_carry_display_fields_only(seed_site):
    papers = seed_papers(seed_site)
    data = search.search_data(papers, tag_urls(papers))
    refs = {ref.split("/", 1)[1] for ref, _ in data["index"]["fieldVectors"]}
    assert refs == {str(n) for n in range(len(papers))}
    names = [name for name, _ in data["tags"]]
    for paper, (title, url, tags, snippet, authors, more, *_) in zip(papers, data["docs"]):
        assert (title, url) == (paper.title_plain, paper.url)
        written = [author.name for author in paper.details.authors]
        assert (authors, more) == (written[:3], max(0, len(written) - 3))
        assert [names[t] for t in tags] == list(paper.paper.tags)
        assert len(snippet) <= search.SNIPPET_LENGTH + 1
        assert paper.abstract_plain.startswith(snippet.rstrip("…"))
    # No token positions or other metadata: every posting is an empty object.
    for _, posting in data["index"]["invertedIndex"]:
        assert all(meta == {} for field in data["index"]["fields"] for meta in posting[field].values())


def test_title_and_tags_are_indexed_with_their_boosts():
    [paper] = rendered([{"title": "Gadgets", "abstract": "Widgets.", "tags": ["Doohickeys"]}])
    data = search.search_data([paper], {})
    terms = {term for term, _ in data["index"]["invertedIndex"]}
    assert {"gadget", "widget", "doohickey"} <= terms
    vectors = dict(data["index"]["fieldVectors"])
    assert vectors["title/0"][1] == pytest.approx(10 * vectors["abstract/0"][1], rel=0.01)


def test_same_input_gives_identical_bytes(seed_site):
    papers = seed_papers(seed_site)
    first = search.search_files(papers, tag_urls(papers))
    search.term.cache_clear()
    second = search.search_files(list(papers), dict(reversed(tag_urls(papers).items())))
    assert first == second


def test_terms_are_in_javascript_string_order():
    """lunr.js refuses an index whose terms are not in UTF-16 code-unit order."""
    data = search.search_data(adversarial_papers(), {})
    terms = [term for term, _ in data["index"]["invertedIndex"]]
    assert terms == sorted(terms, key=search.utf16_key)
    # The case this guards against is really there: a term beyond U+FFFF and one
    # in U+E000–U+FFFF, which code-point order puts the other way round.
    assert any(ord(c) > 0xFFFF for t in terms for c in t)
    assert any(0xE000 <= ord(c) <= 0xFFFF for t in terms for c in t)
    assert terms != sorted(terms)


def test_text_is_normalised_as_search_js_does():
    assert search.terms("Eﬃcient ﬁne-tuning") == ["effici", "fine", "tune"]
    assert search.terms("ＦＵＬＬ－ｗｉｄｔｈ") == ["full", "width"]
    assert search.terms("thin\u2009spaced en–dash") == ["thin", "space", "en", "dash"]
    assert search.terms("(diffusion), the") == ["diffus"]


@pytest.mark.parametrize("word, stem", [
    ("array", "array"), ("keys", "key"), ("delayed", "delay"), ("try", "tri"), ("flying", "fli"),
    ("theory", "theori"), ("networks", "network"), ("🙂s", "🙂"),
])
def test_stems_follow_lunr_js_not_lunr_py(word, stem):
    assert search.JsPorterStemmer().stem(word) == stem


class LunrBuilder(Builder):
    """lunr.py's own Builder, fed the same terms (its tokenizer and pipeline skipped): the reference."""

    def __init__(self):
        super().__init__()
        self.search_pipeline.add(lunr_stemmer)
        for name, boost in search.FIELDS.items():
            self.field(name, boost=boost)

    def add_terms(self, ref: str, fields: dict[str, list[str]]) -> None:
        self._documents[ref] = {}
        self.document_count += 1
        for name, field_terms in fields.items():
            counts = Counter(field_terms)
            self.field_term_frequencies[f"{name}/{ref}"] = counts
            self.field_lengths[f"{name}/{ref}"] = len(field_terms)
            for t in counts:
                if t not in self.inverted_index:
                    self.inverted_index[t] = {name: {} for name in self._fields}
                    self.inverted_index[t]["_index"] = self.term_index
                    self.term_index += 1
                self.inverted_index[t][name][ref] = {}


def test_the_index_is_lunrs_own(seed_site, monkeypatch):
    """The index, made from document numbers and counts and encoded in batches, is exactly what
    lunr.py's Builder serializes for the same terms (its inverted index in lunr.js's term order)."""
    monkeypatch.setattr(search.index, "_BATCH", 500)  # several batches, whichever corpus is at hand
    papers = seed_papers(seed_site) + adversarial_papers() + corpus(300)
    builder = LunrBuilder()
    for ref, paper in enumerate(papers):
        builder.add_terms(str(ref), {"title": search.terms(paper.title_plain),
                                     "tags": search.terms(" ".join(paper.paper.tags)),
                                     "abstract": search.terms(paper.abstract_plain),
                                     "authors": people_terms(people(paper))})
    theirs = builder.build().serialize()
    theirs["invertedIndex"].sort(key=lambda entry: search.utf16_key(entry[0]))
    ours = load_script(search.index_script(search.search_data(papers, tag_urls(papers))))["index"]
    assert ours == json.loads(json.dumps(theirs))
    assert len(ours["invertedIndex"]) > search.index._BATCH, "more than one batch of terms is encoded"


def test_an_index_of_no_papers_loads():
    assert load_script(search.index_script(search.search_data([], {})))["index"] == {
        "version": "2.3.9", "fields": ["title", "tags", "abstract", "authors"], "fieldVectors": [], "invertedIndex": [],
        "pipeline": ["stemmer"]}


def test_script_cannot_close_a_script_element():
    papers = adversarial_papers()
    script = search.index_script(search.search_data(papers, tag_urls(papers)))
    assert b"<" not in script and b"\xe2\x80\xa8" not in script
    assert script.isascii()
    data = load_script(script)
    assert data["docs"][5][0] == "Escaping </script><!-- in a title"
    files = search.search_files(papers, tag_urls(papers))
    for name, script in files.items():
        if name.startswith("assets/search/"):
            assert b"<" not in script and b"\xe2\x80\xa8" not in script and script.isascii(), name
    assert shipped_docs(files)[5][0] == "Escaping </script><!-- in a title"


def test_the_shipped_index_takes_no_more_disk_than_the_whole_index_script(seed_site):
    papers = seed_papers(seed_site)
    shipped = sum(len(data) for name, data in search.search_files(papers, tag_urls(papers)).items()
                  if name.startswith("assets/search/"))
    assert shipped <= len(search.index_script(search.search_data(papers, tag_urls(papers))))


def test_missing_lunr_js_is_a_theme_error(monkeypatch):
    from generator.search import lunrjs

    monkeypatch.setattr(lunrjs.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ThemeError, match="mkdocs"):
        search.search_files([], {})


def test_seed_payload_per_paper(seed_site):
    papers = seed_papers(seed_site)
    script = search.index_script(search.search_data(papers, tag_urls(papers)))
    per_paper = len(gzip.compress(script)) / len(papers)
    # A small corpus pays for its vocabulary; see the next test for the target.
    assert per_paper < 2000, f"{per_paper:.0f} bytes gzip per paper"


@pytest.mark.slow
def test_payload_at_scale_stays_under_800_bytes_gzip_per_paper():
    if not corpora.have_real():
        pytest.skip(f"{corpora.NEEDS_REAL}: 5,000 real abstracts, as the payload per paper falls with size")
    papers = corpus(5000)
    script = search.index_script(search.search_data(papers, tag_urls(papers)))
    per_paper = len(gzip.compress(script)) / len(papers)
    assert per_paper <= 800, f"{per_paper:.0f} bytes gzip per paper (raw {len(script) / len(papers):.0f})"


def test_search_box_partial_has_relative_links_and_no_inline_script(tmp_path):
    html = Theme.for_content(tmp_path).environment().get_template("_search.html").render(root="../")
    assert 'action="../search.html"' in html
    assert '<label class="search-label" for="search-q">' in html
    assert "<script" not in html and not re.search(r"\son[a-z]+=", html), "CSP script-src 'self' forbids inline script"


def test_a_result_preview_never_shows_half_converted_math():
    """Issue 18: a one-line formula reads as text; one that needs layout is left out, never "x_0 ∈ℝ^N"."""
    from generator.latex import AbstractRenderer
    from generator.search.payload import preview

    html = AbstractRenderer().render(r"Memory drops by $k$ with $x_0 \in \mathbb{R}^N$ in $O(n \log n)$ time, "
                                     r"$a+b \le c$, and $\frac{1}{2}$ of \emph{the} cost.").html
    text = preview(html)
    assert text.strip() == "Memory drops by k with … in O(n log n) time, a + b ≤ c, and … of the cost."
    assert not any(mark in text for mark in ("^", "_", "\\", "<"))


def test_the_cache_bundle_gives_back_the_index_files_and_refuses_a_damaged_one(seed_site):
    papers = seed_papers(seed_site)
    files = search.index_files(papers, tag_urls(papers))
    data = search.bundle(files)
    assert search.unbundle(data) == files
    assert search.unbundle(data[:-1]) is None  # a file cut short
    assert search.unbundle(data + b"x") is None
    assert search.unbundle(b"not json\n") is None
    assert search.unbundle(search.bundle({"../escape.js": b"x", **files})) is None  # only files under assets/search/
    views = search.unbundle(data, copy=False)  # (a large volume's: views into the one entry, not copies)
    assert views is not None and all(isinstance(view, memoryview) for view in views.values())
    assert {name: bytes(view) for name, view in views.items()} == files
