"""Citations shown from their keys (citekeys.py, citations.py): a readable mark, never a raw key."""

from __future__ import annotations

import pytest

from generator.latex import AbstractRenderer
from generator.latex.citekeys import CiteMark, read_key


@pytest.mark.parametrize("key, authors, year", [
    ("smith2020deep", "Smith", "2020"),                      # Google Scholar
    ("Lowe2004Distinctive", "Lowe", "2004"),
    ("smith-etal-2020-title", "Smith et al.", "2020"),       # ACL Anthology
    ("smith-jones-2020-title", "Smith and Jones", "2020"),
    ("Smith:2020a", "Smith", "2020"),                        # colon style
    ("SmithJones20", "Smith and Jones", "2020"),             # DBLP-like, two-digit year
    ("Nemi85", "Nemi", "1985"),
    ("CaiCS2008", "Cai et al.", "2008"),                     # a name and initials of co-authors
    ("DBLP:journals/corr/ZhangZMW17", "Zhang et al.", "2017"),
    ("pro:HeinBuhler10OneSpec", "Hein and Buhler", "2010"),
    ("Valiant--Valiant2011", "Valiant and Valiant", "2011"),
])
def test_a_conventional_key_reads_as_authors_and_year(key, authors, year):
    assert read_key(key) == CiteMark(authors, year)


@pytest.mark.parametrize("key", ["Better_Balance_by_Being_Biased_2019", "Better_Balance_by_Being_Biased",
                                 "KST08", "N83a", "lda", "bart2", "ICML2011Hocking_419", "Proc:OneHashLSH"])
def test_a_key_that_names_nobody_is_not_read(key):
    assert read_key(key) is None


@pytest.fixture(scope="module")
def renderer():
    return AbstractRenderer()


def test_pmlr_abstract_with_a_title_like_key_shows_a_number(renderer):
    # As PMLR publishes it: the key is the cited paper's title with underscores.
    text = (r"Recent work \cite{Better_Balance_by_Being_Biased_A_Note} suggests biased samplers; "
            r"unlike \citep{smith2020deep, HAK07} we prove it, as \cite{Better_Balance_by_Being_Biased_A_Note} "
            r"conjectured.")
    result = renderer.render(text)
    assert "Better_Balance" not in result.html and "HAK07" not in result.html
    assert "Recent work [1] suggests" in result.plain
    assert "unlike [Smith 2020; 2] we prove it, as [1] conjectured." in result.plain
    assert result.problems == ()


def test_openreview_textual_citations_read_as_a_sentence(renderer):
    text = r"Following \citet{devlin-etal-2019-bert} and \citet[Sec.~3]{Vaswani:2017}, \citeauthor{liu18x} et al."
    assert renderer.render(text).plain == \
        "Following Devlin et al. (2019) and Vaswani (2017, Sec. 3), Liu et al."


def test_a_textual_citation_of_an_unreadable_key_is_numbered(renderer):
    assert renderer.render(r"as \citet{KST08} showed").plain == "as [1] showed"


def test_numbers_restart_in_each_abstract(renderer):
    assert renderer.render(r"see \cite{foo}").plain == "see [1]"
    assert renderer.render(r"see \cite{bar}, \cite{foo}").plain == "see [1], [2]"
