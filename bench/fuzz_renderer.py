"""Fuzz the abstract renderer with mutated real abstracts and hostile fragments.

    python bench/fuzz_renderer.py [--examples N] [--seed S] [--jobs J] [--replay I]

Each example is a real abstract from the shared corpora (or, without them, one made of fragments)
cut, spliced and salted with fragments that make abstracts hard or hostile: unbalanced dollars and
braces, half environments, self-referencing macros, raw HTML, javascript: and data: links in every
syntax, control characters, CR line ends, text beyond U+FFFF, Markdown nested past markdown-it's
limit. Every example must pass the checks of tests/test_latex_properties.py:

- ``render`` and ``render_inline`` never raise;
- the HTML is balanced and safe (only our tags, no event handler, style or javascript:/data: URL);
- each problem is shown once, as a tex-error span; the plain text is collapsed;
- every letter and digit of the input, bar the markup the renderer consumed, is on the page in order.

It reports the number of examples, the failures (written with their input to
bench/out/fuzz-failures.txt; ``--replay I`` renders example I again), the slowest examples and
the time. Example I depends only on the seed and I, so any failure can be replayed alone.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from generator.latex import AbstractRenderer, MacroDef  # noqa: E402
from test_latex_properties import (  # noqa: E402  (the checks the property tests make)
    FRAGMENTS, MACROS, check_html, input_letters, kept_in_order, visible_letters)

CORPORA = [REPO.parent / "shared" / "corpora" / name for name in ("neurips-2010-2018.jsonl", "iclr-2020.jsonl")]
OUT = REPO / "bench" / "out"
CHUNK = 1_000  # examples per task

HOSTILE = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", '<iframe src="javascript:alert(1)"></iframe>',
    "<svg onload=alert(1)>", "<a href=javascript:alert(1)>x</a>", "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))", "[x](data:text/html,<script>alert(1)</script>)",
    "[x](data:image/png;base64,iVBORw0KGgo=)", "<data:image/png;base64,iVBORw0KGgo=>", "<javascript:alert(1)>",
    "\\url{javascript:alert(1)}", "\\url{data:image/png;base64,xx}", "\\href{javascript:alert(1)}{x}",
    "\\href{data:image/gif;base64,R0lG}{x}", "$\\href{javascript:alert(1)}{x}$", "$\\text{<script>}$",
    "$\\style{color:red}{x}$", "$\\class{x}{y}$", "$\\mathcolor{red}{x}$", "<!--", "-->", "<!-- note -->",
    "&#106;avascript:", "&lt;script&gt;", "&#0;", "&#x110000;", "\\begin{equation}", "\\end{equation}",
    "\\begin{align}", "\\begin{theorem}", "\\begin{itemize}\\item[(a)] ", "\\end{itemize}", "\\selfref",
    "$\\selfref$", "$\\twice$", "\\left(", "\\right)", "{" * 50, "}" * 50, "$" * 3, "\\(", "\\)", "\\[", "\\]",
    "> " * 25, "- " * 25, "1. " * 25, "*" * 30, "_" * 30, "[" * 30, "`" * 7, "\x00", "\x07", "\x1b[31m",
    "\u202e", "\u2066", "\u200b", "\ufeff", "\r", "\r\n", "\u2028", "😀", "𝔘𝔫𝔦", "עברית", "\U0010ffff",
    "costs $5 and $10", "\\$", "\\\\", "%", "~", "''", "``",
    # nesting past the limits and runs that were quadratic (issue 19; sizes in bench/stress_renderer.py)
    "\\href{http://a.example/}{" * 40, "\\begin{itemize}\\item " * 12, "\\end{itemize}" * 12, "\\emph{" * 30,
    "$\\frac{" * 20, "$" + "{" * 60 + "x" + "}" * 60 + "$", "\\left(" * 30, "$\\par " * 30, "*a " * 40, "{a " * 40,
    "$\\wstar + \\cuF{x}$", "$\\text{a \\foo b}$", "$\\frac{}{2}$",
    "$$\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}$$",
]
RENDERER = AbstractRenderer({**MACROS, "selfref": MacroDef("\\selfref"), "twice": MacroDef("\\twice\\twice"),
                             "inner": MacroDef("x_{#1}", 1), "outer": MacroDef("\\inner{#1} + \\inner{#1}", 1)})


def load_abstracts() -> list[str]:
    abstracts = []
    for path in CORPORA:
        if path.exists():
            for line in path.read_text(encoding="utf-8").split("\n"):
                if line.strip():
                    abstracts.append(json.loads(line).get("abstract") or "")
    return abstracts


def mutate(rng: random.Random, base: str) -> str:
    """``base`` changed one to six times: a fragment inserted, a span cut, doubled or moved, the end cut off."""
    text = base
    for _ in range(rng.randint(1, 6)):
        pos = rng.randint(0, len(text))
        roll = rng.random()
        if roll < 0.45:
            pool = HOSTILE if rng.random() < 0.5 else FRAGMENTS
            text = text[:pos] + rng.choice(pool) + text[pos:]
        elif roll < 0.6:
            text = text[:pos] + text[pos + rng.randint(1, 40):]
        elif roll < 0.7:
            end = min(len(text), pos + rng.randint(1, 60))
            text = text[:pos] + text[pos:end] * rng.randint(2, 4) + text[end:]
        elif roll < 0.8:
            text = text[:pos]  # a list cut mid-abstract
        elif roll < 0.9:
            other = rng.randint(0, len(text))
            a, b = sorted((pos, other))
            text = text[b:] + text[a:b] + text[:a]
        else:
            text = text[:pos] + "".join(chr(rng.choice((rng.randint(0x20, 0x7e), rng.randint(0xa0, 0x2fff),
                                                         rng.randint(0x10000, 0x1ffff))))
                                        for _ in range(rng.randint(1, 8))) + text[pos:]
    return text


def example(seed: int, index: int, abstracts: list[str]) -> str:
    rng = random.Random(seed * 1_000_003 + index)
    if abstracts and rng.random() < 0.9:
        base = rng.choice(abstracts)
    else:
        base = "".join(rng.choice(FRAGMENTS + HOSTILE) for _ in range(rng.randint(1, 60)))
    return mutate(rng, base)


def failures_of(text: str) -> list[str]:
    """What is wrong with the rendering of ``text``; empty when every check holds."""
    problems = []
    try:
        result = RENDERER.render(text)
        inline = RENDERER.render_inline(text)
    except Exception:  # noqa: BLE001 (the point is to find any)
        return ["raised: " + traceback.format_exc(limit=-3)]
    problems += [f"html: {error}" for error in check_html(result.html)]
    problems += [f"inline html: {error}" for error in check_html(inline.html)]
    if "<p>" in inline.html:
        problems.append("inline html has a paragraph")
    if result.html.count(' class="tex-error"') != len(result.problems):
        problems.append("a problem not shown once")
    if result.plain != " ".join(result.plain.split()) or "\u00a0" in result.plain:
        problems.append("plain text not collapsed")
    if not kept_in_order(input_letters(text), visible_letters(text, RENDERER)):
        problems.append("a letter or digit of the input is not on the page")
    return problems


def run_chunk(seed: int, start: int, count: int) -> dict:
    abstracts = load_abstracts()
    failures, slowest = [], []
    began = time.perf_counter()
    for index in range(start, start + count):
        text = example(seed, index, abstracts)
        tick = time.perf_counter()
        problems = failures_of(text)
        took = time.perf_counter() - tick
        slowest = sorted(slowest + [(took, index, len(text))], reverse=True)[:5]
        if problems:
            failures.append({"index": index, "problems": problems, "input": text})
    return {"count": count, "failures": failures, "slowest": slowest, "seconds": time.perf_counter() - began}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--replay", type=int, help="render example I and show what fails")
    args = parser.parse_args()
    if args.replay is not None:
        text = example(args.seed, args.replay, load_abstracts())
        print(repr(text))
        print(failures_of(text) or "no failure")
        return 0
    began = time.perf_counter()
    chunks = [(args.seed, start, min(CHUNK, args.examples - start)) for start in range(0, args.examples, CHUNK)]
    results = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(run_chunk, *zip(*chunks)):
            results.append(result)
            done = sum(r["count"] for r in results)
            print(f"\r{done:,} examples, {sum(len(r['failures']) for r in results)} failing", end="", file=sys.stderr)
    print(file=sys.stderr)
    wall = time.perf_counter() - began
    failures = [f for r in results for f in r["failures"]]
    slowest = sorted((s for r in results for s in r["slowest"]), reverse=True)[:5]
    cpu = sum(r["seconds"] for r in results)
    print(f"examples: {args.examples:,} (seed {args.seed}, {args.jobs} processes)")
    print(f"failures: {len(failures)}")
    per_example = cpu / args.examples * 1000
    print(f"time: {wall:.0f} s wall, {cpu:.0f} s in the renderer checks, {per_example:.2f} ms per example")
    print("slowest examples: " + ", ".join(f"#{i} ({n:,} chars) {t * 1000:.0f} ms" for t, i, n in slowest))
    if failures:
        OUT.mkdir(parents=True, exist_ok=True)
        report = OUT / "fuzz-failures.txt"
        report.write_text("\n\n".join(f"#{f['index']}: {'; '.join(f['problems'])}\n{f['input']!r}" for f in failures),
                          encoding="utf-8")
        kinds: dict[str, int] = {}
        for failure in failures:
            for problem in failure["problems"]:
                kinds[problem.split(":")[0]] = kinds.get(problem.split(":")[0], 0) + 1
        print("kinds: " + ", ".join(f"{kind} ×{count}" for kind, count in sorted(kinds.items())))
        print(f"inputs: {report}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
