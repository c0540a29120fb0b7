"""Regular expressions compiled when first used (text/lazyre.py): the same answers as ``re.compile``'s; the
phrase finder's, the taxonomy's and the CJK helpers' patterns not compiled by importing their modules."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from generator.text.cjk import CJK_RANGES
from generator.text.lazyre import lazy

ROOT = Path(__file__).resolve().parent.parent


def test_a_lazy_pattern_answers_as_the_compiled_one():
    for pattern, flags, text in ((f"([{CJK_RANGES}]+)", 0, "深度学习 and 強化学習, 그래프"),
                                 (r"\$[^$]*\$|\\[a-z]+", re.S, "a $x^2$ \\alpha b\n$y$"),
                                 (r"(?P<w>\w+)-(\w+)", re.I, "low-resource data-to-text")):
        made, compiled = lazy(pattern, flags), re.compile(pattern, flags)
        assert made.pattern == compiled.pattern and made.flags == flags
        assert made.findall(text) == compiled.findall(text)
        assert made.split(text) == compiled.split(text)
        assert made.sub("_", text) == compiled.sub("_", text) and made.subn("_", text) == compiled.subn("_", text)
        assert [m.span() for m in made.finditer(text)] == [m.span() for m in compiled.finditer(text)]
        for method in ("search", "match", "fullmatch"):
            found, expected = getattr(made, method)(text), getattr(compiled, method)(text)
            assert (found and found.span()) == (expected and expected.span())
        assert made.groups == compiled.groups  # any other attribute: the compiled pattern's


def test_importing_the_finders_compiles_none_of_their_wide_patterns():
    script = ("import generator.derive.phrases as p, generator.derive.tagging as t, generator.text.cjk as c\n"
              "lazy = [p._TERM_RUN, p._WORD, p._WORD_OR_BREAK, p._CJK_RUNS, t._WORD, t._WORD_OR_GAP, c._CJK, c._RUNS]\n"
              "count = lambda: sum('search' in vars(x) for x in lazy)\n"
              "print(count(), c.has_cjk('深度'), count())")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    assert done.stdout.split() == ["0", "True", "1"]  # has_cjk compiled its own, when first asked
