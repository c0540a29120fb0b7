"""The renderer on the real abstract lists in /work/shared/corpora, and the fidelity report.

The corpus test holds the renderer to the aims of the fidelity work: under 2%
of abstracts with a tex-error (some are cut mid-formula, where an error is
right) and under 1% with LaTeX markup shown outside a tex-error span.
bench/latex_report.py gives the detailed figures.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from generator.latex import AbstractRenderer

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"
FILES = [CORPORA / "neurips-2010-2018.jsonl", CORPORA / "iclr-2020.jsonl"]
needs_corpora = pytest.mark.skipif(not all(path.exists() for path in FILES),
                                   reason=f"the shared corpora are not in {CORPORA}")

_MATH_OR_ERROR = re.compile(r'<math\b.*?</math>|<span class="tex-error".*?</span>', re.DOTALL)
# A dollar that is not a price, a control word, or the braces of {\em …} / \emph{…}.
_LEAK = re.compile(r"(?<![\s(\[])\$|\$(?!\d)|\\[A-Za-z]|\{\\|[A-Za-z]\{[A-Za-z]")


def abstracts() -> list[str]:
    return [json.loads(line)["abstract"] for path in FILES
            for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


@needs_corpora
def test_corpus_meets_the_fidelity_aims():
    renderer = AbstractRenderer()
    texts = abstracts()
    with_errors = leaking = 0
    for text in texts:
        result = renderer.render(text)
        with_errors += bool(result.problems)
        shown = _MATH_OR_ERROR.sub("", result.html)
        leaking += bool(_LEAK.search(re.sub(r"<[^>]+>", "", shown)))
    assert len(texts) > 5000
    assert with_errors / len(texts) < 0.02
    assert leaking / len(texts) < 0.01


def _report_module():
    spec = importlib.util.spec_from_file_location("latex_report", REPO / "bench" / "latex_report.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_report_counts_constructs(tmp_path, capsys):
    sample = tmp_path / "sample.jsonl"
    rows = [r"fine $x$ text", r"a \foo macro", r"costs $5 and $10", r"{disagreement based} and {0,1}",
            r"$\frac{a}{$ cut"]
    sample.write_text("\n".join(json.dumps({"abstract": row}) for row in rows), encoding="utf-8")
    assert _report_module().main([str(sample)]) == 0
    out = capsys.readouterr().out
    assert "5 abstracts" in out
    # Markup inside tex-error spans counts, but not as a leak; prices are no markup.
    assert re.search(r"visible \\command\s+2\s+40.00%\s+0\s+0.00%", out)
    assert re.search(r"visible \$\s+1\s+20.00%\s+0 ", out)
    assert re.search(r"tex-error: undefined macro \\…\s+1 ", out)
    assert re.search(r"any tex-error\s+2 ", out)
    assert re.search(r"of which outside tex-errors\s+0 ", out)


def test_report_braces_from_latex():
    braces = _report_module().latex_braces
    assert braces("{0,1}^n and {x : f(x) > c}") == []
    assert braces("T^{2/3}, {margin-based active learning}") == ["{2/3}", "{margin-based active learning}"]
    assert braces("anchoring} feeds") == ["}"]
