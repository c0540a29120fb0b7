"""TeX that would act when a citing paper is compiled (a definition, an input, a shell escape) never reaches a
citation: it is written as its plain text, with a warning."""

from __future__ import annotations


import pytest

from generator.commands.build import build
from generator.commands.check import check
from generator.pipeline import shares
from generator.reporter import Reporter

from record_fixtures import jsonl_content, records


# -- 8. TeX in citations ---------------------------------------------------------------------------------

@pytest.mark.parametrize("math, warned", [
    # the renderer's own error since undefined macros are marked: the formula is shown (and cited) as text
    (r"\def\x{\input{/etc/passwd}}", r"undefined macro \input"),
    (r"\alpha \def\x{y}", r"uses \def, which a citation may not carry"),
    (r"\let\x\input \x{/etc/passwd}", r"undefined macro \let"),
    (r"^^5cinput{/etc/passwd}", "uses ^^, which a citation may not carry"),
    (r"\immediate\write18{rm -rf ~}", r"undefined macro \immediate"),  # the renderer's own error: shown as text
])
def test_tex_that_acts_never_reaches_a_citation(tmp_path, math, warned):
    content = jsonl_content(tmp_path, records(title=f"Graphs ${math}$ and $\\alpha^2 + \\frac{{1}}{{2}}$"))
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    site = tmp_path / "site"
    bib = (site / "proceedings.bib").read_text(encoding="utf-8")
    pages = [p.read_text(encoding="utf-8") for p in (site / "papers").glob("*.html")]
    cite_box = next(box for page in pages for box in [page.split("@inproceedings")[1].split("</")[0]]
                    if "title = {Graphs" in box)
    for text in (bib, cite_box):
        for word in ("\\def", "\\input", "\\immediate", "\\write", "^^"):
            assert word not in text
        assert "{$\\alpha^2 + \\frac{1}{2}$}" in text  # math a citation may carry stays math
    (warning,) = [d for d in reporter.warnings if warned in d.message]
    assert str(warning.path).startswith("papers/")
    checked = Reporter()
    check(content, checked)
    assert any(warned in d.message for d in checked.warnings)


def test_a_large_build_that_lets_citations_go_warns_of_each_title_once(tmp_path, large_sizes, monkeypatch):
    """A large volume's build keeps few papers' citations (Publication.keep_few): a paper's BibTeX is made for
    the .bib, its block of records and its page, each time from its title, and its warning is said once."""
    monkeypatch.setattr(shares, "KEPT_CITATIONS", 1)  # every other paper's made in between: made again
    content = jsonl_content(tmp_path, records(title="Graphs $\\alpha \\def\\x{y}$ and more"))
    reporter = Reporter()
    build(content, tmp_path / "site", reporter, jobs=2, cache=False)
    warned = [d for d in reporter.warnings if "which a citation may not carry" in d.message]
    assert len(warned) == 1 and str(warned[0].path).startswith("papers/")
    bib = (tmp_path / "site" / "proceedings.bib").read_text(encoding="utf-8")
    assert "\\def" not in bib and "Graphs" in bib
