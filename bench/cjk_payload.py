"""Search payload per paper for an English corpus and a Chinese corpus of the same size.

    python bench/cjk_payload.py 5000 [--write bench/out/content-zh-5000] [--node]

The English corpus is the first N real papers of ../shared/corpora/ (titles and
abstracts). The Chinese corpus is *derived* from the same papers, word for word,
so that both have the same number of papers, words per abstract and a real
vocabulary's frequencies: each English word becomes a fixed Chinese word of one
to three characters (drawn from 3,500 characters, about the common set of
Chinese text), English function words become Chinese ones (的, 了, 和…),
punctuation becomes full-width, and acronyms, numbers and math stay Latin, as in
real Chinese abstracts ("在ImageNet上", "LoRA微调"). Characters are not spaced,
so the index holds a run's bigrams, across word boundaries too, as it would for
real text. ``--write`` also saves the Chinese corpus as a content folder to build
with ``proceedings build`` (not committed: it is made in seconds).

Both indexes are made by ``generator.search.search_data`` exactly as a build
makes them; sizes are gzip level 6 of ``assets/search-index.js`` and of its parts.
``--node`` also loads each index in node (bench/time_queries.mjs: the script, its
JSON.parse and lunr.Index.load) and times search.js's find() for a word of one,
two and four characters (letters in English) and a whole title.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator import search  # noqa: E402
from generator.model.paper import Paper, RenderedPaper  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"
TOPICS = ["Deep learning", "Optimization", "Theory", "Vision", "Language", "Reinforcement learning"]
TOPICS_ZH = ["深度学习", "优化", "理论", "计算机视觉", "自然语言处理", "强化学习"]
FUNCTION_WORDS = {
    "the": "", "a": "", "an": "", "of": "的", "and": "和", "or": "或", "in": "在", "on": "在", "to": "到",
    "for": "为", "with": "与", "by": "由", "is": "是", "are": "是", "we": "我们", "our": "我们的",
    "this": "本", "that": "该", "these": "这些", "it": "它", "as": "作为", "from": "从", "which": "其",
    "be": "为", "can": "可以", "not": "不", "than": "比", "also": "也", "has": "有", "have": "有",
}
PUNCTUATION = {",": "，", ".": "。", ";": "；", ":": "：", "?": "？", "!": "！"}
_TOKEN = re.compile(r"\$[^$]*\$|[A-Za-z]+|\d[\d.]*%?|[,.;:?!]|\S")


def alphabet(size: int = 3500, seed: int = 2026) -> list[str]:
    return [chr(c) for c in sorted(random.Random(seed).sample(range(0x4E00, 0x9FA6), size))]


class Translator:
    """A fixed English → pseudo-Chinese word map: the same word is always the same characters."""

    def __init__(self):
        self.chars = alphabet()
        self.words: dict[str, str] = {}

    def word(self, english: str) -> str:
        lower = english.lower()
        if lower in FUNCTION_WORDS:
            return FUNCTION_WORDS[lower]
        if any(c.isupper() for c in english[1:]):  # an acronym or a name (CNN, ImageNet) stays Latin
            return english
        found = self.words.get(lower)
        if found is None:
            digest = hashlib.sha256(lower.encode()).digest()
            size = 1 if len(lower) <= 3 else 2 if len(lower) <= 7 or digest[0] < 160 else 3
            found = self.words[lower] = "".join(self.chars[int.from_bytes(digest[1 + 2 * i: 3 + 2 * i], "big")
                                                           % len(self.chars)] for i in range(size))
        return found

    def text(self, english: str) -> str:
        out: list[str] = []
        for token in _TOKEN.findall(english):
            if token[0].isalpha():
                piece = self.word(token)
                latin = piece.isascii()
                if latin and out and out[-1][-1:].isascii() and out[-1][-1:].isalnum():
                    out.append(" ")
                out.append(piece)
            elif token in PUNCTUATION:
                out.append(PUNCTUATION[token])
            else:  # numbers, math, symbols: as written, spaced from Latin words
                out.append(token)
        return "".join(out)


def english_records(count: int) -> list[dict]:
    records = []
    for path in sorted(CORPORA.glob("*.jsonl")):
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                abstract = " ".join((record.get("abstract") or "").split())
                if len(abstract) > 80 and record.get("title"):
                    records.append({"title": record["title"], "abstract": abstract})
    if len(records) < count:
        raise SystemExit(f"only {len(records)} papers in {CORPORA}")
    return records[:count]


def rendered(records: list[dict], topics: list[str]) -> list[RenderedPaper]:
    papers = []
    for n, r in enumerate(records):
        paper = Paper(str(n + 1), f"p{n + 1}", r["title"], r["abstract"], (topics[n % 6], topics[n * 5 % 6]), n,
                      "list.txt", n + 1, Path(f"papers/p{n + 1}.md"))
        papers.append(RenderedPaper(paper, r["title"], r["title"], r["abstract"], r["abstract"]))
    return papers


def measure(papers: list[RenderedPaper]) -> dict:
    data = search.search_data(papers, {t: f"tags/t{n}.html" for n, t in enumerate(sorted({t for p in papers
                                                                                         for t in p.paper.tags}))})
    script = search.index_script(data)
    count = len(papers)
    # The index's large parts are made as they are written (search/index.py): encode them that way.
    gz = lambda value: len(gzip.compress("".join(search.payload._json_pieces(value)).encode(), 6))  # noqa: E731
    return {
        "raw": len(script) / count,
        "gzip": len(gzip.compress(script, 6)) / count,
        "index": gz(data["index"]) / count,
        "docs": gz(data["docs"]) / count,
        "terms": len(data["index"]["invertedIndex"]),
    }


def node_timing(papers: list[RenderedPaper], queries: list[str]) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        index, asked = Path(tmp, "search-index.js"), Path(tmp, "queries.json")
        index.write_bytes(search.index_script(search.search_data(papers, {})))
        asked.write_text(json.dumps(queries), encoding="utf-8")
        done = subprocess.run(["node", str(ROOT / "bench" / "time_queries.mjs"), str(search.lunr_js_path()),
                               str(ROOT / "themes" / "default" / "static" / "search.js"), str(index), str(asked)],
                              capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def sample_queries(records: list[dict], chinese: bool) -> list[str]:
    title = records[10]["title"]
    if chinese:
        run = max(re.findall(r"[\u4e00-\u9fff]+", title), key=len)
        return [run[:1], run[:2], run[:4], title]
    word = max(title.split(), key=len).lower()
    return [word[:3], word[:4], word, title]


def write_content(records: list[dict], target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    with open(target / "papers.jsonl", "w", encoding="utf-8") as out:
        for n, r in enumerate(records):
            out.write(json.dumps({"id": f"zh-{n + 1}", **r}, ensure_ascii=False) + "\n")
    (target / "proceedings.yaml").write_text(f"title: 基准论文集（{len(records)}篇）\nlanguage: zh-CN\n",
                                             encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("count", type=int, nargs="?", default=5000)
    parser.add_argument("--write", type=Path, help="also write the Chinese corpus as a content folder here")
    parser.add_argument("--node", action="store_true", help="also time loading the index and queries in node")
    args = parser.parse_args()
    english = english_records(args.count)
    translator = Translator()
    chinese = [{"title": translator.text(r["title"]), "abstract": translator.text(r["abstract"])} for r in english]
    if args.write:
        write_content(chinese, args.write)
    print(f"example: {chinese[0]['title']} — {chinese[0]['abstract'][:80]}…")
    print(f"{'corpus':10} {'papers':>6} {'chars/abstract':>14} {'terms':>8} {'raw B/paper':>11} "
          f"{'gzip B/paper':>12} {'index':>6} {'docs':>5}")
    corpora = (("English", english, TOPICS), ("Chinese", chinese, TOPICS_ZH))
    for name, records, topics in corpora:
        m = measure(rendered(records, topics))
        chars = sum(len(r["abstract"]) for r in records) / len(records)
        print(f"{name:10} {len(records):>6} {chars:>14.0f} {m['terms']:>8} {m['raw']:>11.0f} {m['gzip']:>12.0f} "
              f"{m['index']:>6.0f} {m['docs']:>5.0f}")
    if args.node:
        for name, records, topics in corpora:
            timing = node_timing(rendered(records, topics), sample_queries(records, name == "Chinese"))
            asked = ", ".join(f"{q[:12]!r} {hits} hits {ms} ms" for q, hits, ms in timing["queries"])
            print(f"{name}: index loaded in {timing['load_ms']} ms; {asked}")


if __name__ == "__main__":
    main()
