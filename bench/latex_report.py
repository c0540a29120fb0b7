"""How faithfully the LaTeX renderer handles real abstract lists.

    python bench/latex_report.py [FILES...] [--examples N]

FILES are JSON Lines files with an "abstract" field (default: the shared NeurIPS
and ICLR corpora). For each construct the report counts the abstracts whose
rendering shows it: LaTeX markup left visible to the reader, and ``tex-error``
spans by kind of message. Then totals and render timing.

"Visible" means: in the HTML with ``<math>…</math>`` removed, tags stripped and
entities unescaped. A tex-error span shows its LaTeX source on purpose, so
markup inside one is counted twice: once under its construct and once as a
tex-error; the "outside tex-errors" column is markup that leaked silently.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.latex import AbstractRenderer, TexProblem  # noqa: E402

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
DEFAULT_FILES = [CORPORA / "neurips-2010-2018.jsonl", CORPORA / "iclr-2020.jsonl"]

_MATH = re.compile(r"<math\b.*?</math>", re.DOTALL)
_MARKED_IN_MATH = re.compile(r'<(?:merror|mi)\b[^>]*class="tex-(?:error|unknown)" title="undefined macro')
_WHOLE_FORMULA = ("$", "\\(", "\\[", "\\begin{")
# Known ways math came out wrong without a mark (issue 18): an alternating-current sign for \AC,
# a script with no script (d_\rm TV), TeX left in text (\text{poly\,log}, \text{--}), an
# alignment `&` printed, a fraction part that is empty.
SILENT = {
    "AC sign for \\AC": re.compile("∿"),
    "script without its script": re.compile(r"<(msub|msup)><mi>[^<]*</mi></\1>"),
    "TeX inside \\text": re.compile(r"<mtext>[^<]*(\\[,;:! ]|--)[^<]*</mtext>"),
    "alignment & printed": re.compile(r"<mi>&amp;</mi>"),
    "empty fraction part": re.compile(r"<mfrac[^>]*>(<mrow></mrow>|<mrow><mrow></mrow></mrow>)|<mrow></mrow></mfrac>"),
}
_ERROR = re.compile(r'<span class="tex-error"[^>]*>.*?</span>', re.DOTALL)  # an unknown macro's name is text
# A citation's keys in the source (issue 30: the page must never show them).
_CITE_KEYS = re.compile(r"\\[Cc]ite[A-Za-z]*\s*(?:\[[^\]]*\]\s*){0,2}\{([^{}]*)\}")
_TAG = re.compile(r"<[^>]+>")
_COMMAND = re.compile(r"\\[A-Za-z]+")
# A dollar that reads as a price ("$5", "($10M") is not markup.
_DOLLAR = re.compile(r"(?<![\s(\[])\$|\$(?!\d)")
_GROUP = re.compile(r"\{([^{}]*)\}")
_LONG_WORD = re.compile(r"[A-Za-z]{3,}")
# What a set or a binomial written in plain text contains: {1, ..., n}, {x : f(x) > c}.
_SET_CHARS = re.compile(r"[,:;|+=<>…\d]")


def latex_braces(text: str) -> list[str]:
    """Braces that LaTeX would not show: groups around words, ``x^{2}``, ``H{o}lder``, strays.

    Braces around set-like content (``{0,1}``, ``{x : f(x) > c}``) may be the
    author's own set notation in plain text, so they are not counted. Groups
    are judged innermost first; what is left unpaired is a stray brace.
    """
    found: list[str] = []

    def judge(match: re.Match[str]) -> str:
        before = match.string[match.start() - 1] if match.start() else " "
        content = match.group(1)
        set_like = bool(_SET_CHARS.search(content)) and len(_LONG_WORD.findall(content)) <= 1
        if before.isalnum() or before in "^_" or not set_like:
            found.append(match.group(0))
        return " "

    while True:
        text, count = _GROUP.subn(judge, text)
        if not count:
            break
    found.extend(char for char in text if char in "{}")
    return found


CONSTRUCTS = {
    "visible $": lambda text: _DOLLAR.findall(text),
    "visible \\command": lambda text: _COMMAND.findall(text),
    "visible braces from LaTeX": latex_braces,
    "visible ``": lambda text: re.findall("``", text),
    "visible ''": lambda text: re.findall("''", text),
}


def visible(markup: str, keep_errors: bool) -> str:
    markup = _MATH.sub("", markup)
    if not keep_errors:
        markup = _ERROR.sub("", markup)
    return html.unescape(_TAG.sub("", markup))


def _word(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", text) is not None


def error_kind(message: str) -> str:
    """``undefined macro \\foo`` → ``undefined macro \\…``: one row per kind of message."""
    if message.startswith(("undefined macro", "missing argument", "macro ")):
        return _COMMAND.sub(r"\\…", message, count=1)
    return message


def load(paths: list[Path]) -> list[tuple[str, str]]:
    rows = []
    for path in paths:
        with path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if line.strip():
                    rows.append((f"{path.name}:{number}", json.loads(line).get("abstract") or ""))
    return rows


class Report:
    def __init__(self) -> None:
        self.abstracts = 0
        self.shown: Counter[str] = Counter()  # construct → abstracts showing it anywhere
        self.leaked: Counter[str] = Counter()  # construct → abstracts showing it outside tex-errors
        self.errors: Counter[str] = Counter()  # message kind → abstracts
        self.undefined: Counter[str] = Counter()  # macro name → abstracts
        self.any_markup = self.any_leak = self.any_error = self.either = 0
        self.examples: dict[str, list[str]] = defaultdict(list)
        self.times = {True: [], False: []}  # has math → per-abstract seconds
        self.marked_in_math = 0  # abstracts whose formulas render with an undefined macro marked in place
        self.whole_formulas: Counter[str] = Counter()  # formulas shown whole as source, by message kind
        self.silent: Counter[str] = Counter()
        self.guessed: Counter[str] = Counter()  # macro rendered by a guess → abstracts
        self.any_guess = 0
        self.citing = self.raw_keys = 0  # abstracts with a \cite; of them, showing a key as written

    def add(self, where: str, source: str, renderer: AbstractRenderer, examples: int) -> None:
        start = time.perf_counter()
        result = renderer.render(source)
        self.times["<math" in result.html].append(time.perf_counter() - start)
        self.abstracts += 1
        markup, leak = self._count_markup(where, result.html, examples)
        errors = self._count_errors(where, result.problems, examples)
        self._count_math(where, result, examples)
        self._count_guesses_and_citations(where, source, result, examples)
        self.any_markup += markup
        self.any_leak += leak
        self.any_error += errors
        self.either += markup or errors

    def _count_math(self, where: str, result, examples: int) -> None:  # noqa: ANN001
        self.marked_in_math += bool(_MARKED_IN_MATH.search(result.html))
        for problem in result.problems:
            if problem.source.startswith(_WHOLE_FORMULA):
                self.whole_formulas[error_kind(problem.message)] += 1
        for math in _MATH.findall(result.html):
            for name, pattern in SILENT.items():
                if pattern.search(math):
                    self.silent[name] += 1
                    self._example("silent: " + name, where, math[:120], examples)

    def _count_guesses_and_citations(self, where: str, source: str, result, examples: int) -> None:  # noqa: ANN001
        for guessed in {problem.source for problem in getattr(result, "guesses", ())}:
            self.guessed[guessed] += 1
        self.any_guess += bool(getattr(result, "guesses", ()))
        keys = {key.strip() for found in _CITE_KEYS.findall(source) for key in found.split(",") if key.strip()}
        if keys:
            self.citing += 1
            text, prose = visible(result.html, keep_errors=False), _CITE_KEYS.sub("", source)
            # a key that is also a word of the abstract (\cite{SON} beside "the SON estimator") does not count
            shown = [key for key in keys if _word(key, text) and not _word(key, prose)]
            self.raw_keys += bool(shown)
            if shown:
                self._example("raw citation key", where, ", ".join(shown[:3]), examples)

    def _count_markup(self, where: str, markup: str, examples: int) -> tuple[bool, bool]:
        """Count each construct once per abstract; (any shown, any shown outside tex-errors)."""
        shown, hidden = visible(markup, keep_errors=True), visible(markup, keep_errors=False)
        any_shown = any_leak = False
        for name, find in CONSTRUCTS.items():
            hits = find(shown)
            if hits:
                any_shown = True
                self.shown[name] += 1
                self._example(name, where, " ".join(sorted(set(hits))[:6]), examples)
            if find(hidden):
                any_leak = True
                self.leaked[name] += 1
        return any_shown, any_leak

    def _count_errors(self, where: str, problems: tuple[TexProblem, ...], examples: int) -> bool:
        kinds: dict[str, list[str]] = defaultdict(list)
        for problem in problems:
            kinds[error_kind(problem.message)].append(problem.source[:60])
        for kind, sources in kinds.items():
            self.errors[kind] += 1
            self._example(kind, where, " | ".join(sources[:3]), examples)
        for name in sorted({p.message.split()[-1] for p in problems if p.message.startswith("undefined")}):
            self.undefined[name] += 1
        return bool(kinds)

    def _example(self, row: str, where: str, what: str, examples: int) -> None:
        if len(self.examples[row]) < examples:
            self.examples[row].append(f"{where}: {what}")

    def lines(self, examples: int) -> list[str]:
        out = [f"{self.abstracts} abstracts", "", f"{'construct':40} {'abstracts':>14} {'outside tex-errors':>20}"]
        for name in CONSTRUCTS:
            out.append(f"{name:40} {self._pct(self.shown[name]):>14} {self._pct(self.leaked[name]):>20}")
            out.extend(f"    {line}" for line in self.examples.get(name, [])[:examples])
        for kind, count in self.errors.most_common():
            out.append(f"{'tex-error: ' + kind:40} {self._pct(count):>14}")
            out.extend(f"    {line}" for line in self.examples.get(kind, [])[:examples])
        top = ", ".join(f"{name} {count}" for name, count in self.undefined.most_common(12))
        out += ["", f"top undefined macros (abstracts): {top or 'none'}", ""]
        out.append(f"{'math rendered with a macro marked':40} {self._pct(self.marked_in_math):>14}")
        whole = ", ".join(f"{kind} {count}" for kind, count in self.whole_formulas.most_common()) or "none"
        out.append(f"formulas shown whole as source: {sum(self.whole_formulas.values())} ({whole})")
        undefined_whole = sum(count for kind, count in self.whole_formulas.items() if kind.startswith("undefined"))
        out.append(f"  of which for an undefined macro: {undefined_whole}")
        silent = ", ".join(f"{name} {count}" for name, count in self.silent.items()) or "none"
        out.append(f"known silent mis-renderings (formulas): {sum(self.silent.values())} ({silent})")
        for name in self.silent:
            out.extend(f"    {line}" for line in self.examples.get("silent: " + name, [])[:examples])
        out.append(f"{'macros rendered by a guess':40} {self._pct(self.any_guess):>14}")
        top = ", ".join(f"{name} {count}" for name, count in self.guessed.most_common(12))
        out.append(f"  top guessed macros (abstracts): {top or 'none'}")
        out.append(f"{'abstracts with a citation':40} {self._pct(self.citing):>14}")
        out.append(f"{'  of which showing a raw citation key':40} {self._pct(self.raw_keys):>14}")
        out.extend(f"    {line}" for line in self.examples.get("raw citation key", [])[:examples])
        out.append("")
        for label, count in (("any visible LaTeX markup", self.any_markup),
                             ("  of which outside tex-errors", self.any_leak),
                             ("any tex-error", self.any_error), ("markup or tex-error", self.either)):
            out.append(f"{label:40} {self._pct(count):>14}")
        return out + [""] + self._timing()

    def _pct(self, count: int) -> str:
        return f"{count:5d}  {100 * count / (self.abstracts or 1):5.2f}%"

    def _timing(self) -> list[str]:
        out = []
        for has_math, label in ((False, "without math"), (True, "with math")):
            times = self.times[has_math]
            mean = 1000 * sum(times) / len(times) if times else 0.0
            out.append(f"render time, {label:13} {len(times):5d} abstracts, mean {mean:.3f} ms")
        out.append(f"render time, total {1000 * sum(self.times[True] + self.times[False]):.0f} ms")
        return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--examples", type=int, default=0, metavar="N",
                        help="show up to N example abstracts per row")
    args = parser.parse_args(argv)
    missing = [str(path) for path in args.files if not path.exists()]
    if missing:
        parser.error(f"no such file: {', '.join(missing)}")
    renderer = AbstractRenderer()
    report = Report()
    for where, source in load(args.files):
        report.add(where, source, renderer, args.examples)
    print("\n".join(report.lines(args.examples)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
