"""How close derived titles come to the authors' own, and how often one is not a title at all.

    python bench/titles_report.py FILE [FILE …] [--lang zh|ja|en] [--limit N] [--rev main] [--show 10]

FILE is JSON Lines with ``title`` and ``abstract`` (the real corpora in ../shared/corpora), a
Mini-Conf ``papers.json`` (NLP2025's, github:yuji96/miniconf ``data/nlp_2025/data/papers.json``), or a
tab-separated file of ``prompt<TAB>abstract<TAB>title`` rows (the CSL title-prediction set,
``benchmark/ts/*.tsv`` of github:ydli-ai/CSL). ``--lang`` keeps the abstracts written in that
language. Each abstract is rendered to plain text as the build does, its title derived as for an
untitled list, and compared with the title the authors gave:

- ROUGE-L F1 of the longest common subsequence: of characters (punctuation and spaces left out) for
  Chinese and Japanese, of lower-case words for English;
- dates and numbers: a title that is only a date or a number ("1964年1月27日", "21世纪", "2004年度");
- cut mid-clause: a title ending on a clause mark, an open bracket, 的/の or another particle or
  preposition, with unbalanced brackets, or stopping inside a list the abstract goes on with (…、);
- English: a title starting inside a parenthesis or a citation ("2014), we showed…") or ending on a
  function word (an article, a preposition, a conjunction, a determiner…);
- the CPU time deriving takes per abstract (rendering excluded; the best of three runs).

``--rev REV`` derives the same titles with REV's generator too (exported with ``git archive``), and
prints both columns: before (REV) and after (this tree). ``--show N`` prints N titles that fail a check.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PUNCT = re.compile(r"[\s\W_]", re.UNICODE)
_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")
# A date or a number and nothing else: digits, numerals and the units that make them a date.
_DATE_OR_NUMBER = re.compile(
    r"^(?:[\d０-９〇零一二三四五六七八九十百千万亿億兩两.．,，%％~～\-–—/年月日号號世纪紀年度代期届屆时時分秒"
    r"第個个次季旬初末中上下半前后後\s]|century|centur(?:y|ies)|years?|months?|days?|th|st|nd|rd|s)+$",
    re.IGNORECASE,
)
_CUT_END = {
    "zh": re.compile(r"[，,、；;：:（(「『《“‘\-—–/的之及和与與或并並且而在对對将將把被从從以为為由于於向至]$"),
    "ja": re.compile(r"(?:[，,、；;：:（(「『《“‘\-—–/のをにでがはともへや]|より|から|まで|および|並びに|ならびに"
                     r"|による|における|を用いた|ための)$"),
}
# A title that starts on a particle or a dependent noun is the tail of a clause (…ための, ように…).
_JA_CUT_START = re.compile(r"^(?:ため|ように|こと|いる|[のをにがはでへ])")
# Words that end on such a character and are no fragment (行为 "behaviour", 走向 "trend").
_CJK_WORDS = frozenset("行为 行為 目的 存在 潜在 内在 所在 饱和 中和 自由 理由 走向 方向 面向 倾向 取向"
                       " 导向 动向 意向 去向 流向 转向 趋向 指向 应对 相对 绝对".split())
_EN_FUNCTION = frozenset(
    "a an the and or nor but yet so of for with to in on at by via from into onto over under as upon about "
    "against among amongst between across through throughout toward towards within without during before after "
    "than versus vs this that these those its their our his her my your whose which who whom what where when "
    "while whether if because although though since unless each every some any both either neither no not such "
    "is are was were be been being has have had can may will would should could must do does did it we they "
    "using based".split()
)
_EN_INSIDE = re.compile(r"^(?:[^()]*\)|(?:\d{4}[a-z]?|et al\.?|al\.)[),;]|[a-z]+\s+et\s+al\b)", re.IGNORECASE)


def read(path: Path, limit: int | None, lang: str | None = None) -> list[dict]:
    """The records with a title and an abstract (only those in ``lang`` when given: a file may mix languages)."""
    rows = [r for r in _records(path) if not lang or _language_of(r["abstract"]) == lang]
    return rows[:limit] if limit else rows


def _language_of(text: str) -> str:
    from generator.text import cjk

    return cjk.language_of(text) or "en"


def _records(path: Path) -> list[dict]:
    if path.suffix == ".json":  # a Mini-Conf papers.json: a list of records, or records under their ids
        data = json.loads(path.read_text(encoding="utf-8"))
        return [{"abstract": r["abstract"], "title": r["title"]} for r in (data.values() if isinstance(data, dict)
                else data) if r.get("abstract") and r.get("title")]
    rows: list[dict] = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if path.suffix == ".tsv":
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3:
                    rows.append({"abstract": parts[1], "title": parts[2]})
            elif line.strip():
                record = json.loads(line)
                if record.get("abstract") and record.get("title"):
                    rows.append({"abstract": record["abstract"], "title": record["title"]})
    return rows


def derive(abstracts: list[str]) -> tuple[list[str], float]:
    """Titles as the build derives them for an untitled list (unique in list order), and seconds spent."""
    from generator.derive.titles import pick_title, title_candidates
    from generator.latex import AbstractRenderer

    renderer = AbstractRenderer()
    plains = [renderer.render(text).plain for text in abstracts]
    seconds = float("inf")
    for _ in range(3):  # the best of three, in CPU time: the machine may be busy with other work
        start = time.process_time()
        candidates = [title_candidates(plain) for plain in plains]
        seconds = min(seconds, time.process_time() - start)
    taken: set[str] = set()
    titles = []
    for options in candidates:
        title = pick_title(options, taken)
        taken.add(title)
        titles.append(title)
    return titles, seconds


def derive_at(rev: str, abstracts: list[str]) -> tuple[list[str], float]:
    """``derive`` run by REV's generator in a child process."""
    sys.path.insert(0, str(ROOT / "bench"))
    import run_bench

    source, _ = run_bench.export_rev(rev)
    env = {**os.environ, "PYTHONPATH": str(source)}
    result = subprocess.run([sys.executable, __file__, "--derive-stdin"], input=json.dumps(abstracts), env=env,
                            cwd=source, capture_output=True, text=True, check=True)
    answer = json.loads(result.stdout)
    return answer["titles"], answer["seconds"]


def lcs(a: list[str] | str, b: list[str] | str) -> int:
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def units(text: str, lang: str) -> list[str] | str:
    return _PUNCT.sub("", text) if lang in ("zh", "ja") else [w.lower() for w in _WORD.findall(text)]


def rouge_l(derived: str, reference: str, lang: str) -> float:
    a, b = units(derived, lang), units(reference, lang)
    common = lcs(a, b)
    return 0.0 if not common else 2 * common / (len(a) + len(b))


def is_date_or_number(title: str) -> bool:
    return bool(_DATE_OR_NUMBER.match(title.strip()))


def cut_mid_clause(title: str, abstract: str, lang: str) -> bool:
    """Ends where no title can end, has unbalanced brackets, or stops inside a list that goes on."""
    if _CUT_END[lang].search(title) and title[-2:] not in _CJK_WORDS:
        return True
    if lang == "ja" and _JA_CUT_START.match(title):
        return True
    for open_, close in ("()", "（）", "「」", "《》", "“”"):
        if title.count(open_) != title.count(close):
            return True
    at = abstract.find(title)
    return at >= 0 and abstract[at + len(title) : at + len(title) + 1] in ("、",)


def starts_inside(title: str) -> bool:
    return bool(_EN_INSIDE.match(title))


def ends_on_function_word(title: str) -> bool:
    words = _WORD.findall(title)
    return len(words) > 1 and not words[-1].isupper() and words[-1].lower() in _EN_FUNCTION


def checks(lang: str) -> dict:
    if lang in ("zh", "ja"):
        return {"date or number only": lambda t, a: is_date_or_number(t),
                "cut mid-clause": lambda t, a: cut_mid_clause(t, a, lang)}
    return {"date or number only": lambda t, a: is_date_or_number(t),
            "starts inside a parenthesis or citation": lambda t, a: starts_inside(t),
            "ends on a function word": lambda t, a: ends_on_function_word(t)}


def report(name: str, rows: list[dict], titles: list[str], seconds: float, lang: str) -> dict:
    plains = [" ".join(r["abstract"].split()) for r in rows]
    scores = [rouge_l(t, r["title"], lang) for t, r in zip(titles, rows)]
    failed = {check: [(t, r["title"]) for t, r, p in zip(titles, rows, plains) if test(t, p)]
              for check, test in checks(lang).items()}
    return {"name": name, "rouge": sum(scores) / len(scores), "failed": failed,
            "ms": 1000 * seconds / len(rows)}


def language(rows: list[dict]) -> str:
    from generator.text import cjk

    return cjk.language_of(" ".join(r["abstract"] for r in rows[:50])) if cjk.has_cjk(rows[0]["abstract"]) else "en"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--lang", choices=("zh", "ja", "en"),
                        help="only the abstracts in this language (default: all, the language guessed)")
    parser.add_argument("--limit", type=int, help="the first N records of each file")
    parser.add_argument("--rev", help="also derive with this commit's generator (before), e.g. main")
    parser.add_argument("--show", type=int, default=0, help="print up to N failing titles of each check")
    parser.add_argument("--derive-stdin", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.derive_stdin:  # the child of --rev: abstracts on stdin, titles on stdout
        titles, seconds = derive(json.load(sys.stdin))
        print(json.dumps({"titles": titles, "seconds": seconds}))
        return
    sys.path.insert(0, str(ROOT))
    for path in args.files:
        rows = read(path, args.limit, args.lang)
        lang = args.lang or language(rows)
        abstracts = [r["abstract"] for r in rows]
        columns = []
        if args.rev:
            columns.append(report(f"before ({args.rev})", rows, *derive_at(args.rev, abstracts), lang))
        columns.append(report("after (this tree)", rows, *derive(abstracts), lang))
        print_report(path, len(rows), lang, columns, args.show)


def print_report(path: Path, count: int, lang: str, columns: list[dict], show: int) -> None:
    print(f"\n{path.name}: {count} abstracts with their titles, language {lang}")
    print(f"  {'':42}" + "".join(f"{c['name']:>22}" for c in columns))
    kind = "character" if lang in ("zh", "ja") else "word"
    print(f"  {kind + ' ROUGE-L F1':42}" + "".join(f"{c['rouge']:>22.3f}" for c in columns))
    for check in columns[-1]["failed"]:
        print(f"  {check:42}" + "".join(f"{len(c['failed'][check]):>22}" for c in columns))
    print(f"  {'ms per abstract (deriving only)':42}" + "".join(f"{c['ms']:>22.3f}" for c in columns))
    for check, failures in columns[-1]["failed"].items():
        for title, reference in failures[:show]:
            print(f"    {check}: {title!r}   (authors: {reference!r})")


if __name__ == "__main__":
    main()
