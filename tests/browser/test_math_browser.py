"""Math as a reader sees it: every formula drawn, no raw LaTeX left in the text.

The site renders LaTeX to MathML at build time; Chromium draws MathML natively.
A formula the browser could not lay out has an empty box, and LaTeX the renderer
let through shows as text such as `$x$` or `\\alpha`. Read from the crawl of every
page (crawl.py), from file:// and over http.
"""

from __future__ import annotations

import re

RAW_LATEX = re.compile(r"\$|\\[A-Za-z]+")


def test_every_formula_has_a_box(crawled):
    papers = {rel: visit for rel, visit in crawled.visits.items() if rel.startswith("papers/")}
    assert sum(len(visit.formulas) for visit in papers.values()) > 0, \
        "no <math> on any paper page, though the seed abstracts have formulas"
    empty = [f"on {rel} the formula “{what}” is drawn {w:.0f}×{h:.0f} px"
             for rel, visit in crawled.visits.items() for w, h, what in visit.formulas if not (w > 0 and h > 0)]
    assert not empty, "\n".join(empty)


def test_no_raw_latex_is_visible(crawled):
    seen = [f"on {rel} a reader sees “{visit.text[max(0, m.start() - 30):m.end() + 30]}”"
            for rel, visit in crawled.visits.items() for m in RAW_LATEX.finditer(visit.text)]
    assert any("Abstract" in visit.text for visit in crawled.visits.values()), "the crawl kept no page's text"
    assert not seen, "raw LaTeX in the visible text:\n" + "\n".join(seen)
