"""The sharded index (generator/search/shards.py, search-shards.js) answers as the whole index does:
lunr.js in node over the unsharded index is the oracle, for a thousand queries drawn from real titles
(the box's words as typed, and lunr's own query language: fields, presence, typos, boosts, wildcards)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from lunr.stop_word_filter import WORDS as STOP_WORDS

import corpora
from conftest import REPO
from generator import search
from generator.search.shards import BLOCK, shard_files
from test_search import rendered, tag_urls

RUNNER = Path(__file__).parent / "js" / "shards_equal.mjs"
STATIC = REPO / "themes" / "default" / "static"
TOPICS = ("Reinforcement learning & bandits", "Optimization", "Graph learning", "Theory")
QUERIES = 1000


def corpus_papers(limit: int = 1500, real: bool = True):
    records = corpora.records(limit) if real else corpora.read(corpora.FIXTURE, limit)
    return rendered([{"title": r["title"], "abstract": r["abstract"], "authors": r.get("authors", []),
                      "tags": [TOPICS[n % len(TOPICS)]] + ([TOPICS[(n + 1) % 4]] if n % 3 == 0 else [])}
                     for n, r in enumerate(records)])


def queries(papers, count: int = QUERIES) -> list[dict]:
    """Queries as readers write them, from the papers' own titles."""
    made = []
    for n, paper in enumerate(papers):
        words = re.findall(r"[a-z]{3,}", paper.title_plain.lower()) or ["graph"]
        w1, w2 = words[n % len(words)], words[(n + 1) % len(words)]
        made.append([
            {"box": paper.title_plain}, {"box": w1[:3 + n % 3]}, {"box": f"{w1} {w2}"}, {"box": w1},
            {"lunr": f"title:{w1}"}, {"lunr": f"+{w1} -{w2}"}, {"lunr": f"{w1}^10 {w2[:4]}*"},
            {"lunr": f"abstract:{w2} tags:graph"}, {"lunr": f"-{w1}" if n % 50 == 0 else f"{w1}~1" if n % 25 == 0
                                                    else f"+{w2[:3]}*"},
        ][n % 9])
        if len(made) == count:
            break
    return made


@pytest.fixture(scope="module", params=["fixture", pytest.param("real", marks=pytest.mark.slow)])
def sharded(tmp_path_factory, request):
    """The index of the corpus fixture's papers, and (slow: 1,500 of them) of the real corpora's, cut in shards."""
    if request.param == "real" and not corpora.have_real():
        pytest.skip(f"{corpora.NEEDS_REAL}: 1,500 real titles to ask the shards")
    papers = corpus_papers(real=request.param == "real")
    folder = tmp_path_factory.mktemp("shards")
    (folder / "search-index.js").write_bytes(search.index_script(search.search_data(papers, tag_urls(papers))))
    # Shards as small as the papers at hand need to make many (the fixture's 39 papers without ../shared).
    for name, data in shard_files(papers, tag_urls(papers), shard_bytes=24_000 if len(papers) >= 1000 else 1_500):
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return papers, folder


def ask(node: str, folder: Path, asked: list[dict]) -> list:
    queries_file = folder / "queries.json"
    queries_file.write_text(json.dumps(asked), encoding="utf-8")
    done = subprocess.run([node, str(RUNNER), str(search.lunr_js_path()), str(STATIC / "search-query.js"),
                           str(STATIC / "search-shards.js"), str(folder / "search-index.js"),
                           str(folder / "assets" / "search"), str(queries_file)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["results"]


@pytest.mark.slow
def test_the_shards_answer_every_query_as_the_whole_index_does(node, sharded):
    papers, folder = sharded
    asked = queries(papers)
    assert len(asked) >= min(QUERIES, len(papers))
    answers = ask(node, folder, asked)
    assert sum(1 for whole, _, _, _ in answers if whole) > 0.8 * len(asked), "most queries must find papers"
    differ = [(query, whole[:3], shards[:3]) for query, (whole, shards, _, _) in zip(asked, answers) if whole != shards]
    assert not differ, f"{len(differ)} of {len(asked)} queries differ (query, whole, shards): {differ[:3]}"


@pytest.mark.slow
def test_the_box_keeps_the_same_results_when_the_shards_leave_out_documents_missing_a_word(node, sharded):
    """The box asks the shards with a test per required word, and documents holding no term that passes
    one are left out before lunr.js scores: the results the box keeps are those of the whole index, with
    the same scores, in the same order; and a query of several words scores fewer documents."""
    papers, folder = sharded
    asked = [query for query in queries(papers) if "box" in query]
    answers = ask(node, folder, asked)
    differ = [(query, whole[:3], pruned[:3]) for query, (_, _, _, (whole, pruned, _)) in zip(asked, answers)
              if whole != pruned]
    assert not differ, f"{len(differ)} of {len(asked)} box queries differ (query, whole, pruned): {differ[:3]}"
    fewer = sum(1 for _, (everything, _, _, (_, _, scored)) in zip(asked, answers) if scored < len(everything))
    several = sum(1 for query in asked if len(query["box"].split()) > 1)
    assert fewer >= several // 2, f"only {fewer} of {several} queries of several words scored fewer documents"


def test_a_query_loads_only_the_shards_it_can_match(node, sharded):
    papers, folder = sharded
    shard_count = len(list((folder / "assets" / "search").glob("t*.js")))
    assert shard_count >= 8, "too few shards for the test to show anything"
    words = [w for w in re.findall(r"[a-z]{4,}", " ".join(p.title_plain.lower() for p in papers[:3]))
             if w not in STOP_WORDS]
    asked = [{"box": words[0]}, {"box": f"{words[1]} {words[2]}"}, {"lunr": f"title:{words[3]}"}]
    for query, (whole, _, loaded, _) in zip(asked, ask(node, folder, asked)):
        assert whole, f"{query} finds nothing: the test shows nothing"
        terms = [name for name in loaded if name.startswith("t")]
        assert loaded[0] == "manifest" and 1 <= len(terms) <= 4, (query, loaded, shard_count)


def test_a_star_inside_a_word_is_text_not_a_wildcard_over_every_shard(node, sharded):
    """The box offers no wildcard: `dif*ion` (or a link's `?q=a*b`) is two words, and loads their shards,
    not all of them (lunr reads a `*` inside a term as "any letters": 13 of 14 shards, and no result)."""
    papers, folder = sharded
    word = next(w for w in re.findall(r"[a-z]{8,}", " ".join(p.title_plain.lower() for p in papers))
                if w not in STOP_WORDS)
    starred = f"{word[:3]}*{word[-3:]}"
    (whole, _, loaded, _), = ask(node, folder, [{"box": starred}])
    assert 1 <= len([name for name in loaded if name.startswith("t")]) <= 3, (starred, loaded)


def test_a_word_past_the_term_cap_is_not_indexed():
    from generator.search.terms import MAX_TERM, terms
    assert terms("a " + "x" * (MAX_TERM + 1) + " graph") == ["graph"]
    assert terms("dif*ion A* search") == ["dif", "ion", "search"]


def test_a_display_block_holds_the_records_of_its_documents(sharded):
    papers, folder = sharded
    text = (folder / "assets" / "search" / "d1.js").read_text(encoding="ascii")
    name, payload = re.fullmatch(r'proceedingsShards\.arrived\("(\w+)",JSON\.parse\((".*")\)\);\n', text).groups()
    records = json.loads(json.loads(payload))
    assert name == "d1" and [r[0] for r in records] == [p.title_plain for p in papers[BLOCK:2 * BLOCK]]


LETTERS = "etaoinsrhl"


def one_edit(word: str, n: int) -> str:
    """A one-letter typo of ``word``, of the n-th kind in turn: a letter dropped, changed, added, or two
    swapped, anywhere in the word (the first letter too, which moves the word to another shard)."""
    at = n * 7 % len(word)
    kind = n % 4
    if kind == 0:
        return word[:at] + word[at + 1:]
    if kind == 1:
        letter = next(c for c in LETTERS[n % 10:] + LETTERS if c != word[at])
        return word[:at] + letter + word[at + 1:]
    if kind == 2:
        return word[:at] + LETTERS[n % 10] + word[at:]
    at = min(at, len(word) - 2)
    return word[:at] + word[at + 1] + word[at] + word[at + 2:]


def typo_queries(papers, count: int = 300) -> list[tuple[int, str]]:
    """(paper, query) pairs: one word of its title (5 letters or more) mistyped, alone or beside another."""
    made = []
    for n, paper in enumerate(papers):
        words = [w for w in re.findall(r"[a-z]{5,}", paper.title_plain.lower()) if w not in STOP_WORDS]
        if not words:
            continue
        typo = one_edit(words[n % len(words)], n)
        other = [w for w in words if w != words[n % len(words)]]
        made.append((n, f"{typo} {other[0]}" if n % 3 == 0 and other else typo))
        if len(made) == count:
            break
    return made


@pytest.mark.slow
def test_a_mistyped_word_is_tried_again_and_the_shards_answer_as_the_whole_index(node, sharded):
    """The box's whole search (search-query.js `search`): a word of 5+ letters that finds nothing is tried
    again as the words one edit from it that the index holds. Over the shards (its buckets telling which
    exist) the answer is the whole index's: the same words tried, the same results and scores."""
    papers, folder = sharded
    asked = typo_queries(papers)
    answers = ask(node, folder, [{"typo": query} for _, query in asked])
    differ = [(query, whole, shards) for (_, query), (whole, shards, _, _) in zip(asked, answers) if whole != shards]
    assert not differ, f"{len(differ)} of {len(asked)} typo queries differ (query, whole, shards): {differ[:2]}"
    fixed = [(n, query, whole) for (n, query), (whole, _, _, _) in zip(asked, answers) if whole[2]]
    assert len(fixed) > 0.6 * len(asked), "most typos find nothing as typed: the test shows the retry"
    missed = [(query, papers[n].title_plain) for n, query, whole in fixed if n not in whole[0]]
    assert not missed, f"{len(missed)} of {len(fixed)} typos tried again missed their paper: {missed[:5]}"


def test_a_word_tried_again_loads_a_few_buckets_not_every_shard(node, sharded):
    papers, folder = sharded
    asked = typo_queries(papers, 60)
    answers = ask(node, folder, [{"typo": query} for _, query in asked])
    shard_count = len(list((folder / "assets" / "search").glob("t*.js")))
    for (_, query), (whole, _, loaded, _) in zip(asked, answers):
        if not whole[2]:
            continue
        buckets = [name for name in loaded if name.startswith("f")]
        terms = [name for name in loaded if name.startswith("t")]
        assert 1 <= len(buckets) <= 12 and len(terms) < shard_count / 2, (query, loaded, shard_count)
