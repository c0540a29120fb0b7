"""The generated index as lunr.js and search-query.js (the query code search.js uses) see it, run in node.

Proves in JavaScript what the Python tests can only assume: lunr.js accepts the
index whatever the text (𝒪, ﬁ, full-width forms, emoji, RTL), and the words a
reader types become the terms the index holds.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path


import corpora
from conftest import REPO
from generator import search
from test_search import adversarial_papers, rendered, seed_papers, tag_urls

RUNNER = Path(__file__).parent / "js" / "load_index.mjs"
QUERY_JS = REPO / "themes" / "default" / "static" / "search-query.js"
ADVERSARIAL = json.loads((Path(__file__).parent / "js" / "adversarial.json").read_text(encoding="utf-8"))


def run(node: str, tmp_path: Path, script: bytes, queries: list[dict]) -> dict:
    index = tmp_path / "search-index.js"
    index.write_bytes(script)
    queries_file = tmp_path / "queries.json"
    queries_file.write_text(json.dumps(queries), encoding="utf-8")
    done = subprocess.run([node, str(RUNNER), str(search.lunr_js_path()), str(QUERY_JS), str(index),
                           str(queries_file)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def index_script(papers) -> bytes:
    return search.index_script(search.search_data(papers, tag_urls(papers)))


def longest_word(title: str) -> str:
    return max(re.findall(r"[A-Za-z]{4,}", title), key=len)


def test_seed_index_loads_and_finds_each_paper(node, tmp_path, seed_site):
    papers = seed_papers(seed_site)
    cases = []
    for n, paper in enumerate(papers):
        word = longest_word(paper.title_plain)
        cases += [(n, paper.title_plain), (n, word), (n, word[:4].lower())]
    out = run(node, tmp_path, index_script(papers), [{"query": q} for _, q in cases])
    assert out["loaded"], out.get("error")
    for (n, query), hits in zip(cases, out["results"]):
        assert n in hits, f"searching {query!r} did not find “{papers[n].title_plain}”"
        if query == papers[n].title_plain:
            assert hits[0] == n, f"the full title {query!r} ranked another paper first"


def test_adversarial_text_loads_and_is_found(node, tmp_path):
    papers = adversarial_papers()
    out = run(node, tmp_path, index_script(papers), ADVERSARIAL["queries"])
    assert out["loaded"], out.get("error")
    missed = [(case["query"], papers[case["expect"]].title_plain, hits)
              for case, hits in zip(ADVERSARIAL["queries"], out["results"]) if case["expect"] not in hits]
    assert not missed, "queries that missed their paper (query, paper, found): " + repr(missed)


def test_lunr_py_order_is_refused_by_lunr_js_and_ours_is_not(node, tmp_path):
    """Why we re-sort: the same index in lunr.py's code-point order does not load."""
    data = search.search_data(adversarial_papers(), {})
    data["index"]["invertedIndex"] = sorted(data["index"]["invertedIndex"], key=lambda entry: entry[0])
    out = run(node, tmp_path, search.index_script(data), [])
    assert out == {"loaded": False, "error": "Out of order word insertion"}


def test_a_site_without_papers_has_a_loadable_index(node, tmp_path):
    out = run(node, tmp_path, index_script([]), [{"query": "anything"}])
    assert out == {"loaded": True, "results": [[]]}


def test_tag_filter_keeps_only_that_tags_papers(node, tmp_path):
    papers = adversarial_papers()
    data = search.search_data(papers, {})
    multilingual = [name for name, _ in data["tags"]].index("Multilingual")
    out = run(node, tmp_path, search.index_script(data), [{"query": "", "tag": multilingual},
                                                          {"query": "text", "tag": multilingual},
                                                          {"query": "nothing-like-this"}])
    assert out["results"] == [[2, 4, 6], [2], []]


def corpus_texts(limit: int) -> list[str]:
    """The adversarial texts, then up to ``limit`` corpus records (the fixture's, then the real ones')."""
    return [p["title"] + " " + p["abstract"] for p in ADVERSARIAL["papers"] + corpora.records(limit)]


def test_search_js_makes_the_terms_the_index_holds(node, tmp_path):
    """Normalising, splitting, trimming, stop words and stemming agree, word for word."""
    texts = corpus_texts(1500)
    papers = rendered([{"title": "x", "abstract": "y", "tags": []}])
    out = run(node, tmp_path, index_script(papers), [{"terms": text} for text in texts])
    differ = [(text[:60], [t for t in js if t not in py][:5], [t for t in py if t not in js][:5])
              for text, js, py in zip(texts, out["results"], map(search.terms, texts)) if js != py]
    assert not differ, "texts whose terms differ (text, only in JS, only in Python): " + repr(differ[:5])


def test_a_query_naming_an_object_property_is_a_word_like_any_other(node, tmp_path):
    """``\\constructor`` or ``\\toString`` in a query (read as LaTeX commands, as ``\\alpha`` is) are words."""
    papers = rendered([{"title": "Constructor Kernels", "abstract": "A toString method.", "tags": []}])
    out = run(node, tmp_path, index_script(papers), [{"latex": "\\constructor \\toString \\alpha kernels"},
                                                     {"query": "constructor"}, {"query": "tostring"}])
    assert out["results"] == ["constructor toString α kernels", [0], [0]]


def test_a_paper_whose_text_holds_the_word_comes_before_a_topic_only_match(node, tmp_path):
    """The topic name "Reinforcement learning & bandits" may find a paper, but after every paper that says "bandit"."""
    topic = "Reinforcement learning & bandits"
    papers = rendered([{"title": "Sparse Kernels", "abstract": "Kernels for sparse data.", "tags": [topic]},
                       {"title": "Policy Search", "abstract": "A long abstract about exploration in which we "
                        "study many things at length and once mention a bandit among a great many other words "
                        "that make this field long and its weight per word small.", "tags": ["Optimization"]},
                       {"title": "Quasar Spectra", "abstract": "Nothing of the kind.", "tags": ["Astronomy"]}])
    data = search.search_data(papers, tag_urls(papers))
    out = run(node, tmp_path, search.index_script(data), [{"query": "bandit"}, {"query": "bandits"}])
    assert out["results"] == [[1, 0], [1, 0]]


def test_a_word_matches_as_a_prefix_from_its_fourth_character(node, tmp_path):
    """"grap" finds "Graphon…" while it is typed; "gra" is only the word "gra" (a prefix of three letters
    spans the postings of every word it begins: gradient, graph, grammar…)."""
    papers = rendered([{"title": "Graphon Estimation", "abstract": "Graphons from samples.", "tags": []},
                       {"title": "Gra Lines", "abstract": "A gra is a line.", "tags": []}])
    out = run(node, tmp_path, index_script(papers), [{"query": q} for q in ("gra", "grap", "graphon", "gr")])
    assert out["results"] == [[1], [0], [0], []]


def test_a_lone_last_letter_is_told_apart_from_a_word(node, tmp_path):
    """search.js waits for the reader to pause before asking for "graph n": the "n" is most likely a word's start."""
    cases = {"n": True, "graph n": True, "graph-n": True, "x2 a": True, "graph ne": False, "graph": False,
             "graph n ": False, "扩": False, "扩散 模": False, "": False, "O(N": True, "ℕ": True}
    papers = rendered([{"title": "x", "abstract": "y", "tags": []}])
    out = run(node, tmp_path, index_script(papers), [{"unfinished": text} for text in cases])
    assert dict(zip(cases, out["results"])) == cases


STEPS_JS = """
const Q = require(process.argv[1]);
const [runs, step] = JSON.parse(process.argv[2]);
const steps = [];
for (;;) {  // as the search page takes them: each step goes on from where the last stopped
  const picked = Q.nextStep(runs, step);
  if (!picked.some((refs) => refs.length)) break;
  picked.forEach((refs, n) => { runs[n].shown += refs.length; });
  steps.push(picked);
}
console.log(JSON.stringify(steps));
"""


def steps(node: str, hits: list[list[int]], step: int) -> list[list[list[int]]]:
    """search-query.js nextStep, run step after step over volumes holding ``hits`` (issue 43)."""
    runs = [{"hits": h, "shown": 0} for h in hits]
    done = subprocess.run([node, "-e", STEPS_JS, str(QUERY_JS), json.dumps([runs, step])], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_step_shows_the_next_results_and_loads_no_other(node):
    """The search page's steps of 20: every hit once, in rank order, 20 a step; the dropdown's 8 are the first."""
    hits = [17, 3, 250, 9, *range(100, 166)]  # 70 refs in lunr's order, not sorted
    taken = steps(node, [hits], 20)
    assert [len(s[0]) for s in taken] == [20, 20, 20, 10]
    assert [ref for s in taken for ref in s[0]] == hits
    assert steps(node, [hits], 8)[0] == [hits[:8]]
    assert steps(node, [[]], 20) == []


def test_a_series_step_goes_on_across_its_volumes_in_order(node):
    """A series' page: the step fills the newest volume first and goes on into the next, 20 in all a step."""
    newest, older, oldest = list(range(30)), list(range(15)), list(range(3))
    taken = steps(node, [newest, older, [], oldest], 20)
    assert [[len(refs) for refs in s] for s in taken] == [[20, 0, 0, 0], [10, 10, 0, 0], [0, 5, 0, 3]]
    for volume, hits in enumerate([newest, older, [], oldest]):
        assert [ref for s in taken for ref in s[volume]] == hits
