"""Links a paper gives: a control character in a link is left out with a warning, and a link that is a path
publishes only documents of the content folder, never a file reached by a symlink out of it."""

from __future__ import annotations


import pytest

from generator.commands.build import build
from generator.commands.check import check
from generator.reporter import Reporter

from record_fixtures import jsonl_content, records, run_cli


# -- 1. a control character in a link -------------------------------------------------------------

@pytest.mark.parametrize("link", ["pdfs/paper%00.pdf", "pdfs/paper\x00.pdf", "pdfs/a%0a.pdf"])
def test_a_nul_in_a_link_is_a_warning_and_everything_else_is_published(tmp_path, link):
    content = jsonl_content(tmp_path, records(pdf=link))
    (content / "pdfs").mkdir()
    (content / "pdfs" / "paper.pdf").write_bytes(b"%PDF-1.4")
    status, err = run_cli("build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert status == 0 and "Traceback" not in err
    assert "papers.jsonl:1: warning:" in err and "`pdf` " in err and "control character" in err
    assert len(list((tmp_path / "site" / "papers").glob("*.html"))) == 3
    assert not (tmp_path / "site" / "pdfs").exists()
    reporter = Reporter()
    check(content, reporter)
    assert any("`pdf`" in d.message and "control character" in d.message for d in reporter.warnings)


def test_a_nul_in_a_pages_link_is_named_by_page_and_line(tmp_path):
    content = jsonl_content(tmp_path, records())
    build(content, tmp_path / "site", Reporter())
    page = sorted((content / "papers").glob("*.md"))[0]
    page.write_text(page.read_text(encoding="utf-8").replace("order:", 'pdf: "x\\0.pdf"\norder:'), encoding="utf-8")
    for run in (lambda r: build(content, tmp_path / "site", r), lambda r: check(content, r)):
        reporter = Reporter()
        run(reporter)
        (warning,) = [d for d in reporter.warnings if "`pdf`" in d.message]
        assert str(warning.path) == f"papers/{page.name}" and warning.line


# -- 2. files published by reference -----------------------------------------------------------------

def test_a_link_publishes_only_documents_of_the_content_folder(tmp_path):
    content = jsonl_content(tmp_path, [dict(r, pdf=link) for r, link in zip(
        records(), ["proceedings.yaml", "papers.jsonl", "slides/talk.pdf"])])
    (content / "slides").mkdir()
    (content / "slides" / "talk.pdf").write_bytes(b"%PDF-1.4 talk")
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    site = tmp_path / "site"
    assert not (site / "proceedings.yaml").exists() and not (site / "papers.jsonl").exists()
    assert (site / "slides" / "talk.pdf").read_bytes() == b"%PDF-1.4 talk"
    warned = " ".join(d.message for d in reporter.warnings)
    assert "'proceedings.yaml' is not a document" in warned and "'papers.jsonl' is not a document" in warned


def test_a_symlink_out_of_the_content_folder_is_neither_read_nor_published(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.pdf").write_bytes(b"%PDF secret")
    (outside / "other.txt").write_text("Secret proceedings\n\nA secret abstract that must not be published anywhere.\n")
    content = jsonl_content(tmp_path, records(pdf="pdfs/secret.pdf"))
    build(content, tmp_path / "site", Reporter())
    (content / "pdfs").mkdir()
    (content / "pdfs" / "secret.pdf").symlink_to(outside / "secret.pdf")
    (content / "secret.txt").symlink_to(outside / "other.txt")
    secret_page = outside / "page.md"
    secret_page.write_text(sorted((content / "papers").glob("*.md"))[0].read_text(encoding="utf-8")
                           .replace("slug: paper-1", "slug: stolen").replace("id: '1'", "id: '99'"))
    (content / "papers" / "stolen.md").symlink_to(secret_page)
    reporter = Reporter()
    build(content, tmp_path / "site", reporter)
    site = tmp_path / "site"
    assert not (site / "pdfs").exists() and not (site / "papers" / "stolen.html").exists()
    assert "secret abstract" not in (site / "papers.json").read_text(encoding="utf-8")
    warned = {str(d.path) for d in reporter.warnings if "outside the content folder" in d.message}
    assert warned == {"secret.txt", "papers/stolen.md"}
    assert (outside / "page.md").exists() and len(list(site.glob("papers/*.html"))) == 3
