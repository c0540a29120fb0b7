"""Hostile-size inputs for the abstract renderer and title tidying: time and memory per class.

    python bench/stress_renderer.py [--sizes 10000,100000,1000000] [--timeout 120] [--only NAME] [--repo DIR]

Each class is a construct repeated or nested until the input reaches a size: LaTeX nested deep
(``\\href`` in ``\\href``, ``itemize`` in ``itemize``, braces, ``\\frac``, ``\\emph``), runs that
made the renderer quadratic (``$``, ``\\par``, ``\\item``, unclosed groups) and the ``*a `` runs
that made title tidying quadratic. Every case runs in a fresh process (so a stall is cut off at
``--timeout`` and a crash does not stop the others) that renders the input as an abstract and as a
title, then derives a title from it, and reports seconds, peak memory (max RSS) and whether it
raised. The target (issue 19): any input up to 1 MB in under 10 s per MB, memory bounded.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def nested(opening: str, middle: str, closing: str):
    """``opening`` n times, ``middle``, ``closing`` n times: n chosen to reach the size."""
    return lambda size: opening * (size // (len(opening) + len(closing))) + middle + \
        closing * (size // (len(opening) + len(closing)))


def repeated(unit: str):
    return lambda size: unit * (size // len(unit))


CLASSES = {
    # deep nesting (RecursionError before)
    "nested \\href": nested("\\href{http://a.example/}{", "x", "}"),
    "nested itemize": nested("\\begin{itemize}\\item a ", "x", "\\end{itemize}"),
    "nested enumerate, items": nested("\\begin{enumerate}\\item a \\item b ", "x", " \\end{enumerate}"),
    "nested \\emph": nested("\\emph{", "x", "}"),
    "nested braces in text": nested("{a ", "x", "}"),
    "nested braces in math": lambda size: "$" + nested("{", "x", "}")(size - 2) + "$",
    "nested \\frac in math": lambda size: "$" + nested("\\frac{", "x", "}{2}")(size - 2) + "$",
    "nested \\sqrt in math": lambda size: "$" + nested("\\sqrt{", "x", "}")(size - 2) + "$",
    "nested \\left( in math": lambda size: "$" + nested("\\left(", "x", "\\right)")(size - 2) + "$",
    "nested matrices in math": lambda size: "$" + nested("\\begin{pmatrix}", "x", "\\end{pmatrix}")(size - 2) + "$",
    "one long formula": lambda size: "$" + repeated("x_{1}+")(size - 3) + "y$",
    "one long formula, display": lambda size: "$$" + repeated("\\frac{a}{b}+")(size - 5) + "y$$",
    "nested \\footnote": nested("\\footnote{", "x", "}"),
    "nested Markdown quotes": nested("> ", "x", ""),
    # runs (quadratic before)
    "run of $": repeated("$"),
    "run of $a": repeated("$a"),
    "run of $ a": repeated("$ a "),
    "run of \\par": repeated("\\par "),
    "run of $\\par": repeated("$\\par "),
    "run of \\item": repeated("\\begin{itemize}\\item a \\item b "),
    "run of \\begin{itemize}": repeated("\\begin{itemize} "),
    "run of \\end{itemize}": repeated("\\end{itemize} "),
    "run of unclosed {": repeated("{a "),
    "run of unclosed \\emph{": repeated("\\emph{a "),
    "run of \\cite{": repeated("\\cite{a "),
    "run of \\left(": repeated("\\left( "),
    "run of unclosed \\sqrt{": repeated("\\sqrt{a "),
    "run of $$": repeated("$$ a "),
    "run of \\(": repeated("\\( a "),
    "run of \\[": repeated("\\[ a "),
    "run of \\begin{equation}": repeated("\\begin{equation} a "),
    "run of `": repeated("`a "),
    "run of ~": repeated("a~"),
    "run of balanced {a}": repeated("{a} "),
    "run of math": repeated("$x_1$ and "),
    "run of *a": repeated("*a "),
    "run of a (title)": repeated("a "),
    "run of ( (title)": repeated("(a "),
}

_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from generator.latex import AbstractRenderer
from generator.derive.titles import pick_title, title_candidates
text = sys.stdin.read()
renderer = AbstractRenderer()
stages = {}
error = None
try:
    for stage, work in (("render", lambda: renderer.render(text)), ("title", lambda: renderer.render_inline(text)),
                        ("derive", lambda: pick_title(title_candidates(text), frozenset()))):
        began = time.perf_counter()
        work()
        stages[stage] = round(time.perf_counter() - began, 2)
except BaseException as exc:  # the point is to see any
    error = type(exc).__name__
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": sum(stages.values()), "stages": stages, "peak_mb": peak, "error": error}))
"""


def run_case(text: str, timeout: float, repo: Path = REPO) -> dict:
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD, str(repo)], input=text, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"seconds": None, "peak_mb": None, "error": f"timeout > {timeout:.0f} s"}
    if done.returncode != 0 or not done.stdout.strip():
        return {"seconds": None, "peak_mb": None, "error": f"exit {done.returncode}: {done.stderr[-200:]}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--only", help="run only the classes whose name contains this")
    parser.add_argument("--repo", type=Path, default=REPO,
                        help="the checkout whose generator/ to measure (e.g. an older commit's, for 'before')")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print("seconds to render as an abstract / as a title / to derive a title; peak memory of the process")
    print(f"{'class':28}" + "".join(f"{size:>30,}" for size in sizes))
    worst = {"render": 0.0, "title": 0.0, "derive": 0.0}
    failed = 0
    for name, make in CLASSES.items():
        if args.only and args.only not in name:
            continue
        cells = []
        skip = False
        for size in sizes:
            if skip:
                cells.append("skipped")
                continue
            result = run_case(make(size), args.timeout, args.repo)
            if result["error"]:
                failed += 1
                skip = result["error"].startswith("timeout")
                cells.append(result["error"][:26])
                continue
            stages = result["stages"]
            for stage, seconds in stages.items():
                worst[stage] = max(worst[stage], seconds / (size / 1e6))
            cells.append(" / ".join(f"{stages[stage]:.2f}" for stage in worst) + f" s {result['peak_mb']:.0f} MB")
        print(f"{name:28}" + "".join(f"{cell:>30}" for cell in cells), flush=True)
    print("worst per MB: " + ", ".join(f"{stage} {value:.1f} s" for stage, value in worst.items())
          + f"; {failed} cases raised or timed out")
    return 1 if failed or max(worst.values()) > 10 else 0


if __name__ == "__main__":
    raise SystemExit(main())
